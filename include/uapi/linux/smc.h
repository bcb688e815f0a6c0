/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * smcx: user/kernel ABI of the SMC generic netlink families.
 *
 * This is smcx's own rendering of the interface that the mainline kernel
 * (6.12) exposes for AF_SMC configuration and monitoring.  Every name and
 * every number below is part of the ABI and must stay identical to the
 * mainline uapi so that existing tools (smc-tools, iproute2-era scripts)
 * keep working against smcx.ko, and smcctl keeps working against smc.ko.
 * The prose is ours.
 *
 * Two generic netlink families are defined:
 *
 *   "SMC_PNETID"       (SMCR_GENL_FAMILY_NAME)  the PNET table: which
 *                      Ethernet interface / RDMA device port belongs to
 *                      which physical network.
 *   "SMC_GEN_NETLINK"  (SMC_GENL_FAMILY_NAME)   everything else: system
 *                      info, link groups, links, devices, statistics, the
 *                      user/system EID tables and the handshake limiter.
 *
 * Conventions used in the comments:
 *   [dump]   the command is issued with NLM_F_DUMP and answered by a
 *            multi-part reply terminated by NLMSG_DONE.
 *   [do]     the command is a plain request answered by an ACK/error.
 *   [any]    any user in the network namespace may call it.
 *   [admin]  requires CAP_NET_ADMIN in the initial user namespace
 *            (GENL_ADMIN_PERM, as mainline marks every such command), also
 *            for per-namespace state; otherwise EPERM, for the root of a
 *            user namespace too.
 *   string   NUL-terminated character data (NLA_NUL_STRING style).
 *   uint     variable-width unsigned (NLA_UINT); current kernels always
 *            send it as 8 bytes, readers must accept 4 or 8.
 * All state is per network namespace unless noted.
 *
 * Header guard: deliberately different from the system's <linux/smc.h>
 * (_LINUX_SMC_H_) and the kernel's (_UAPI_LINUX_SMC_H_).  The enums cannot
 * be defined twice in one translation unit, so including the other copy
 * first is an error, and including it afterwards is turned into a no-op.
 */

#ifndef SMCX_UAPI_LINUX_SMC_H
#define SMCX_UAPI_LINUX_SMC_H

#if defined(_LINUX_SMC_H_) || defined(_UAPI_LINUX_SMC_H_)
#error "another <linux/smc.h> was included first; use only smcx's copy"
#endif

/* ------------------------------------------------------------------------
 * Family "SMC_PNETID": the PNET table
 * ------------------------------------------------------------------------
 * A PNET ID names a physical network.  An entry binds a PNET ID either to
 * an Ethernet interface or to an RDMA (or ISM) device port; SMC uses an
 * RDMA port only for connections whose TCP route leaves through an
 * interface with the same PNET ID.
 */

/* Attributes of the SMC_PNETID family (all commands share them). */
enum {
	SMC_PNETID_UNSPEC,
	/* string, 1..16 alphanumeric characters; the kernel ignores leading
	 * and trailing blanks and stores it upper-cased.  Required for ADD and
	 * DEL, optional filter for GET.
	 */
	SMC_PNETID_NAME,
	/* string, Ethernet interface name (< IFNAMSIZ).  In GET replies it is
	 * "n/a" for entries that describe an RDMA device.
	 */
	SMC_PNETID_ETHNAME,
	/* string, RDMA or ISM device name (< IB_DEVICE_NAME_MAX).  In GET
	 * replies it is "n/a" for entries that describe an interface.
	 */
	SMC_PNETID_IBNAME,
	/* u8, RDMA device port, 1 or 2 (ADD defaults to 1 when absent).  In GET
	 * replies it is 0xff for entries that describe an interface.
	 */
	SMC_PNETID_IBPORT,
	__SMC_PNETID_MAX,
	SMC_PNETID_MAX = __SMC_PNETID_MAX - 1
};

/* Commands of the SMC_PNETID family. */
enum {
	/* [dump|do] [any]  List the table.  As a dump: every entry.  As a
	 * plain request with SMC_PNETID_NAME: the entries of that PNET ID
	 * (multi-part reply).  Each entry carries NAME, ETHNAME, IBNAME and
	 * IBPORT.  Outside the initial namespace only interface entries show.
	 */
	SMC_PNETID_GET = 1,
	/* [do] [admin]  Add NAME with ETHNAME and/or IBNAME (+IBPORT).  EEXIST
	 * when nothing new was added (entry present, or the device already has
	 * a hardware PNET ID); EINVAL for a malformed NAME or bad port.  RDMA
	 * entries are accepted only in the initial network namespace.  smcx:
	 * ENOSPC when the namespace's table is full (256 entries).
	 */
	SMC_PNETID_ADD,
	/* [do] [admin]  Delete every entry of NAME, and user-set PNET IDs of
	 * devices matching it.  ENOENT when nothing matched.
	 */
	SMC_PNETID_DEL,
	/* [do] [admin]  Delete all entries of the namespace.  No attributes. */
	SMC_PNETID_FLUSH
};

#define SMCR_GENL_FAMILY_NAME		"SMC_PNETID"
#define SMCR_GENL_FAMILY_VERSION	1

/* ------------------------------------------------------------------------
 * Family "SMC_GEN_NETLINK"
 * ------------------------------------------------------------------------
 */

#define SMC_GENL_FAMILY_NAME		"SMC_GEN_NETLINK"
#define SMC_GENL_FAMILY_VERSION		1

#define SMC_PCI_ID_STR_LEN		16 /* PCI id string, without the NUL */
#define SMC_MAX_HOSTNAME_LEN		32 /* CLC host name, blank padded */
#define SMC_MAX_UEID			4  /* entries in the user EID table */
#define SMC_MAX_EID_LEN			32 /* an EID, blank padded, no NUL */

/* Commands of the SMC_GEN_NETLINK family.  Replies put their payload in
 * one of the SMC_GEN_* top-level nests below, one object per message.
 */
enum {
	/* [dump] [any]  One message with an SMC_GEN_SYS_INFO nest. */
	SMC_NETLINK_GET_SYS_INFO = 1,
	/* [dump] [any]  One SMC_GEN_LGR_SMCR nest per SMC-R link group. */
	SMC_NETLINK_GET_LGR_SMCR,
	/* [dump] [any]  Per SMC-R link group: one message with its
	 * SMC_GEN_LGR_SMCR nest, then one message with an SMC_GEN_LINK_SMCR
	 * nest for each usable link of that group.  A link message belongs to
	 * the group message that precedes it.
	 */
	SMC_NETLINK_GET_LINK_SMCR,
	/* [dump] [any]  One SMC_GEN_LGR_SMCD nest per SMC-D link group. */
	SMC_NETLINK_GET_LGR_SMCD,
	/* [dump] [any]  One SMC_GEN_DEV_SMCD nest per ISM device. */
	SMC_NETLINK_GET_DEV_SMCD,
	/* [dump] [any]  One SMC_GEN_DEV_SMCR nest per RDMA device. */
	SMC_NETLINK_GET_DEV_SMCR,
	/* [dump] [any]  One message with an SMC_GEN_STATS nest: the
	 * namespace's counters summed over all CPUs.
	 */
	SMC_NETLINK_GET_STATS,
	/* [dump] [any]  One SMC_GEN_FBACK_STATS nest per recorded fallback
	 * reason (server and client interleaved); the totals are only in the
	 * first message.  No message at all when no fallback was recorded.
	 */
	SMC_NETLINK_GET_FBACK_STATS,
	/* [dump] [any]  One message per user EID, attribute
	 * SMC_NLA_EID_TABLE_ENTRY (string, 32 characters, blank padded).
	 */
	SMC_NETLINK_DUMP_UEID,
	/* [do] [admin]  Add SMC_NLA_EID_TABLE_ENTRY.  The attribute must be
	 * exactly 33 bytes: 32 characters plus NUL.  Valid EIDs: first
	 * character A-Z or 0-9, then A-Z 0-9 '.' '-', blank padded to 32, not
	 * all blank.  EINVAL invalid, EEXIST present, ERANGE table full
	 * (SMC_MAX_UEID).  The table is global, not per namespace.
	 */
	SMC_NETLINK_ADD_UEID,
	/* [do] [admin]  Remove SMC_NLA_EID_TABLE_ENTRY (same 33-byte format).
	 * ENOENT when absent; on s390, EAGAIN reports success where removing
	 * the last user EID re-enabled the system EID.
	 */
	SMC_NETLINK_REMOVE_UEID,
	/* [do] [admin]  Remove all user EIDs.  No attributes. */
	SMC_NETLINK_FLUSH_UEID,
	/* [dump] [any]  One message with SMC_NLA_SEID_ENTRY and
	 * SMC_NLA_SEID_ENABLED when ISMv2 hardware provides a system EID,
	 * otherwise an empty message.
	 */
	SMC_NETLINK_DUMP_SEID,
	/* [do] [admin]  Use the system EID in handshakes (s390 only,
	 * EOPNOTSUPP elsewhere).
	 */
	SMC_NETLINK_ENABLE_SEID,
	/* [do] [admin]  Stop using the system EID (s390 only; ENOENT when no
	 * user EID is defined, EOPNOTSUPP elsewhere).
	 */
	SMC_NETLINK_DISABLE_SEID,
	/* [dump] [any]  One message with SMC_NLA_HS_LIMITATION_ENABLED. */
	SMC_NETLINK_DUMP_HS_LIMITATION,
	/* [do] [admin]  Turn on handshake limitation for the namespace: when
	 * the listener's handshake backlog is congested, new connections fall
	 * back to TCP instead of queueing.
	 */
	SMC_NETLINK_ENABLE_HS_LIMITATION,
	/* [do] [admin]  Turn handshake limitation off. */
	SMC_NETLINK_DISABLE_HS_LIMITATION,
};

/* Top-level attributes of SMC_GEN_NETLINK replies; each is a nest. */
enum {
	SMC_GEN_UNSPEC,
	SMC_GEN_SYS_INFO,		/* nest: SMC_NLA_SYS_* */
	SMC_GEN_LGR_SMCR,		/* nest: SMC_NLA_LGR_R_* */
	SMC_GEN_LINK_SMCR,		/* nest: SMC_NLA_LINK_* */
	SMC_GEN_LGR_SMCD,		/* nest: SMC_NLA_LGR_D_* */
	SMC_GEN_DEV_SMCD,		/* nest: SMC_NLA_DEV_* */
	SMC_GEN_DEV_SMCR,		/* nest: SMC_NLA_DEV_* */
	SMC_GEN_STATS,			/* nest: SMC_NLA_STATS_* */
	SMC_GEN_FBACK_STATS,		/* nest: SMC_NLA_FBACK_STATS_* */
	__SMC_GEN_MAX,
	SMC_GEN_MAX = __SMC_GEN_MAX - 1
};

/* Inside SMC_GEN_SYS_INFO. */
enum {
	SMC_NLA_SYS_UNSPEC,
	SMC_NLA_SYS_VER,		/* u8, highest SMC version (2) */
	SMC_NLA_SYS_REL,		/* u8, release within that version */
	SMC_NLA_SYS_IS_ISM_V2,		/* u8 bool, ISMv2 capable device */
	SMC_NLA_SYS_LOCAL_HOST,		/* string, CLC host name (padded) */
	SMC_NLA_SYS_SEID,		/* string, system EID (ISMv2 only) */
	SMC_NLA_SYS_IS_SMCR_V2,		/* u8 bool, SMC-Rv2 supported */
	__SMC_NLA_SYS_MAX,
	SMC_NLA_SYS_MAX = __SMC_NLA_SYS_MAX - 1
};

/* Inside SMC_NLA_LGR_R_V2_COMMON and SMC_NLA_LGR_D_V2_COMMON.  Note that
 * this list has no UNSPEC member: the version is attribute 0.
 */
enum {
	SMC_NLA_LGR_V2_VER,		/* u8, negotiated SMC version */
	SMC_NLA_LGR_V2_REL,		/* u8, negotiated release */
	SMC_NLA_LGR_V2_OS,		/* u8, OS: 1 z/OS, 2 Linux, 3 AIX */
	SMC_NLA_LGR_V2_NEG_EID,		/* string, negotiated EID */
	SMC_NLA_LGR_V2_PEER_HOST,	/* string, peer CLC host name */
	__SMC_NLA_LGR_V2_MAX,
	SMC_NLA_LGR_V2_MAX = __SMC_NLA_LGR_V2_MAX - 1
};

/* Inside SMC_NLA_LGR_R_V2 (SMC-Rv2 link groups only). */
enum {
	SMC_NLA_LGR_R_V2_UNSPEC,
	SMC_NLA_LGR_R_V2_DIRECT,	/* u8 bool, peer on the same subnet */
	SMC_NLA_LGR_R_V2_MAX_CONNS,	/* u8, negotiated connections per lgr */
	SMC_NLA_LGR_R_V2_MAX_LINKS,	/* u8, negotiated links per lgr */
	__SMC_NLA_LGR_R_V2_MAX,
	SMC_NLA_LGR_R_V2_MAX = __SMC_NLA_LGR_R_V2_MAX - 1
};

/* Inside SMC_GEN_LGR_SMCR: one SMC-R link group. */
enum {
	SMC_NLA_LGR_R_UNSPEC,
	SMC_NLA_LGR_R_ID,		/* u32, link group id */
	SMC_NLA_LGR_R_ROLE,		/* u8, 0 client, 1 server */
	SMC_NLA_LGR_R_TYPE,		/* u8, 0 none, 1 single, 2 symmetric,
					 * 3 asymmetric peer, 4 asymmetric local
					 */
	SMC_NLA_LGR_R_PNETID,		/* string, PNET ID of the link group */
	SMC_NLA_LGR_R_VLAN_ID,		/* u8, VLAN id */
	SMC_NLA_LGR_R_CONNS_NUM,	/* u32, connections in the group */
	SMC_NLA_LGR_R_V2_COMMON,	/* nest: SMC_NLA_LGR_V2_* (v2 only) */
	SMC_NLA_LGR_R_V2,		/* nest: SMC_NLA_LGR_R_V2_* (v2 only) */
	SMC_NLA_LGR_R_NET_COOKIE,	/* u64, network namespace cookie */
	SMC_NLA_LGR_R_PAD,		/* padding for 64-bit attributes */
	SMC_NLA_LGR_R_BUF_TYPE,		/* u8, 0 physically contiguous,
					 * 1 virtually contiguous, 2 mixed
					 */
	SMC_NLA_LGR_R_SNDBUF_ALLOC,	/* uint, bytes of send buffers */
	SMC_NLA_LGR_R_RMB_ALLOC,	/* uint, bytes of receive buffers */
	__SMC_NLA_LGR_R_MAX,
	SMC_NLA_LGR_R_MAX = __SMC_NLA_LGR_R_MAX - 1
};

/* Inside SMC_GEN_LINK_SMCR: one link of an SMC-R link group. */
enum {
	SMC_NLA_LINK_UNSPEC,
	SMC_NLA_LINK_ID,		/* u8, link id within the group */
	SMC_NLA_LINK_IB_DEV,		/* string, RDMA device name */
	SMC_NLA_LINK_IB_PORT,		/* u8, RDMA port (1-based) */
	SMC_NLA_LINK_GID,		/* string, local GID, text form */
	SMC_NLA_LINK_PEER_GID,		/* string, peer GID, text form */
	SMC_NLA_LINK_CONN_CNT,		/* u32, connections on this link */
	SMC_NLA_LINK_NET_DEV,		/* u32, ifindex of the port's netdev */
	SMC_NLA_LINK_UID,		/* u32, link user id (4 raw bytes) */
	SMC_NLA_LINK_PEER_UID,		/* u32, peer's link user id */
	SMC_NLA_LINK_STATE,		/* u32, 0 unused, 1 inactive,
					 * 2 activating, 3 active
					 */
	__SMC_NLA_LINK_MAX,
	SMC_NLA_LINK_MAX = __SMC_NLA_LINK_MAX - 1
};

/* Inside SMC_GEN_LGR_SMCD: one SMC-D link group. */
enum {
	SMC_NLA_LGR_D_UNSPEC,
	SMC_NLA_LGR_D_ID,		/* u32, link group id */
	SMC_NLA_LGR_D_GID,		/* u64, local ISM GID */
	SMC_NLA_LGR_D_PEER_GID,		/* u64, peer ISM GID */
	SMC_NLA_LGR_D_VLAN_ID,		/* u8, VLAN id */
	SMC_NLA_LGR_D_CONNS_NUM,	/* u32, connections in the group */
	SMC_NLA_LGR_D_PNETID,		/* string, PNET ID */
	SMC_NLA_LGR_D_CHID,		/* u16, ISM channel id */
	SMC_NLA_LGR_D_PAD,		/* padding for 64-bit attributes */
	SMC_NLA_LGR_D_V2_COMMON,	/* nest: SMC_NLA_LGR_V2_* (v2 only) */
	SMC_NLA_LGR_D_EXT_GID,		/* u64, local GID, extended half */
	SMC_NLA_LGR_D_PEER_EXT_GID,	/* u64, peer GID, extended half */
	SMC_NLA_LGR_D_SNDBUF_ALLOC,	/* uint, bytes of send buffers */
	SMC_NLA_LGR_D_DMB_ALLOC,	/* uint, bytes of DMBs */
	__SMC_NLA_LGR_D_MAX,
	SMC_NLA_LGR_D_MAX = __SMC_NLA_LGR_D_MAX - 1
};

/* Inside SMC_NLA_DEV_PORT and SMC_NLA_DEV_PORT2: one device port. */
enum {
	SMC_NLA_DEV_PORT_UNSPEC,
	SMC_NLA_DEV_PORT_PNET_USR,	/* u8 bool, PNET ID set by the user */
	SMC_NLA_DEV_PORT_PNETID,	/* string, PNET ID of the port */
	SMC_NLA_DEV_PORT_NETDEV,	/* u32, ifindex of the port's netdev */
	SMC_NLA_DEV_PORT_STATE,		/* u8 bool, port is active */
	SMC_NLA_DEV_PORT_VALID,		/* u8 bool, port usable by SMC */
	SMC_NLA_DEV_PORT_LNK_CNT,	/* u32, links using the port */
	__SMC_NLA_DEV_PORT_MAX,
	SMC_NLA_DEV_PORT_MAX = __SMC_NLA_DEV_PORT_MAX - 1
};

/* Inside SMC_GEN_DEV_SMCD and SMC_GEN_DEV_SMCR: one device. */
enum {
	SMC_NLA_DEV_UNSPEC,
	SMC_NLA_DEV_USE_CNT,		/* u32, link groups using the device */
	SMC_NLA_DEV_IS_CRIT,		/* u8 bool, in use by SMC */
	SMC_NLA_DEV_PCI_FID,		/* u32, PCI function id */
	SMC_NLA_DEV_PCI_CHID,		/* u16, PCI channel id */
	SMC_NLA_DEV_PCI_VENDOR,		/* u16, PCI vendor id */
	SMC_NLA_DEV_PCI_DEVICE,		/* u16, PCI device id */
	SMC_NLA_DEV_PCI_ID,		/* string, PCI slot name */
	SMC_NLA_DEV_PORT,		/* nest: SMC_NLA_DEV_PORT_*, port 1 */
	SMC_NLA_DEV_PORT2,		/* nest: SMC_NLA_DEV_PORT_*, port 2 */
	SMC_NLA_DEV_IB_NAME,		/* string, RDMA device name */
	__SMC_NLA_DEV_MAX,
	SMC_NLA_DEV_MAX = __SMC_NLA_DEV_MAX - 1
};

/* Size histograms: inside SMC_NLA_STATS_T_TX_RMB_SIZE / _RX_RMB_SIZE
 * (buffers allocated, by size) and SMC_NLA_STATS_T_TXPLOAD_SIZE /
 * _RXPLOAD_SIZE (send/receive calls, by payload size).  Each bucket counts
 * sizes up to its label; G_1024K is everything above 1 MiB.
 */
enum {
	SMC_NLA_STATS_PLOAD_PAD,	/* padding */
	SMC_NLA_STATS_PLOAD_8K,		/* u64 */
	SMC_NLA_STATS_PLOAD_16K,	/* u64 */
	SMC_NLA_STATS_PLOAD_32K,	/* u64 */
	SMC_NLA_STATS_PLOAD_64K,	/* u64 */
	SMC_NLA_STATS_PLOAD_128K,	/* u64 */
	SMC_NLA_STATS_PLOAD_256K,	/* u64 */
	SMC_NLA_STATS_PLOAD_512K,	/* u64 */
	SMC_NLA_STATS_PLOAD_1024K,	/* u64 */
	SMC_NLA_STATS_PLOAD_G_1024K,	/* u64 */
	__SMC_NLA_STATS_PLOAD_MAX,
	SMC_NLA_STATS_PLOAD_MAX = __SMC_NLA_STATS_PLOAD_MAX - 1
};

/* Buffer events: inside SMC_NLA_STATS_T_TX_RMB_STATS (send buffers) and
 * SMC_NLA_STATS_T_RX_RMB_STATS (receive buffers).
 */
enum {
	SMC_NLA_STATS_RMB_PAD,			/* padding */
	SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT,	/* u64, write larger than the
						 * peer's buffer
						 */
	SMC_NLA_STATS_RMB_SIZE_SM_CNT,		/* u64, write larger than the
						 * local buffer
						 */
	SMC_NLA_STATS_RMB_FULL_PEER_CNT,	/* u64, peer's buffer full */
	SMC_NLA_STATS_RMB_FULL_CNT,		/* u64, local buffer full */
	SMC_NLA_STATS_RMB_REUSE_CNT,		/* u64, buffer reused */
	SMC_NLA_STATS_RMB_ALLOC_CNT,		/* u64, buffer allocated */
	SMC_NLA_STATS_RMB_DGRADE_CNT,		/* u64, smaller buffer taken */
	__SMC_NLA_STATS_RMB_MAX,
	SMC_NLA_STATS_RMB_MAX = __SMC_NLA_STATS_RMB_MAX - 1
};

/* Per-technology counters: inside SMC_NLA_STATS_SMCD_TECH and
 * SMC_NLA_STATS_SMCR_TECH.
 */
enum {
	SMC_NLA_STATS_T_PAD,		/* padding */
	SMC_NLA_STATS_T_TX_RMB_SIZE,	/* nest: SMC_NLA_STATS_PLOAD_* */
	SMC_NLA_STATS_T_RX_RMB_SIZE,	/* nest: SMC_NLA_STATS_PLOAD_* */
	SMC_NLA_STATS_T_TXPLOAD_SIZE,	/* nest: SMC_NLA_STATS_PLOAD_* */
	SMC_NLA_STATS_T_RXPLOAD_SIZE,	/* nest: SMC_NLA_STATS_PLOAD_* */
	SMC_NLA_STATS_T_TX_RMB_STATS,	/* nest: SMC_NLA_STATS_RMB_* */
	SMC_NLA_STATS_T_RX_RMB_STATS,	/* nest: SMC_NLA_STATS_RMB_* */
	SMC_NLA_STATS_T_CLNT_V1_SUCC,	/* u64, client handshakes done, v1 */
	SMC_NLA_STATS_T_CLNT_V2_SUCC,	/* u64, client handshakes done, v2 */
	SMC_NLA_STATS_T_SRV_V1_SUCC,	/* u64, server handshakes done, v1 */
	SMC_NLA_STATS_T_SRV_V2_SUCC,	/* u64, server handshakes done, v2 */
	SMC_NLA_STATS_T_SENDPAGE_CNT,	/* u64, sendpage calls (always 0 now) */
	SMC_NLA_STATS_T_SPLICE_CNT,	/* u64, splice_read calls */
	SMC_NLA_STATS_T_CORK_CNT,	/* u64, TCP_CORK settings */
	SMC_NLA_STATS_T_NDLY_CNT,	/* u64, TCP_NODELAY settings */
	SMC_NLA_STATS_T_URG_DATA_CNT,	/* u64, urgent data sent */
	SMC_NLA_STATS_T_RX_BYTES,	/* u64, payload bytes received */
	SMC_NLA_STATS_T_TX_BYTES,	/* u64, payload bytes sent */
	SMC_NLA_STATS_T_RX_CNT,		/* u64, receive calls with data */
	SMC_NLA_STATS_T_TX_CNT,		/* u64, send calls with data */
	SMC_NLA_STATS_T_RX_RMB_USAGE,	/* uint, receive buffer bytes in use */
	SMC_NLA_STATS_T_TX_RMB_USAGE,	/* uint, send buffer bytes in use */
	__SMC_NLA_STATS_T_MAX,
	SMC_NLA_STATS_T_MAX = __SMC_NLA_STATS_T_MAX - 1
};

/* Inside SMC_GEN_STATS. */
enum {
	SMC_NLA_STATS_PAD,		/* padding */
	SMC_NLA_STATS_SMCD_TECH,	/* nest: SMC_NLA_STATS_T_*, SMC-D */
	SMC_NLA_STATS_SMCR_TECH,	/* nest: SMC_NLA_STATS_T_*, SMC-R */
	SMC_NLA_STATS_CLNT_HS_ERR_CNT,	/* u64, client handshake errors */
	SMC_NLA_STATS_SRV_HS_ERR_CNT,	/* u64, server handshake errors */
	__SMC_NLA_STATS_MAX,
	SMC_NLA_STATS_MAX = __SMC_NLA_STATS_MAX - 1
};

/* Inside SMC_GEN_FBACK_STATS: one fallback reason of one side. */
enum {
	SMC_NLA_FBACK_STATS_PAD,	/* padding */
	SMC_NLA_FBACK_STATS_TYPE,	/* u8, 1 server side, 0 client side */
	SMC_NLA_FBACK_STATS_SRV_CNT,	/* u64, total server fallbacks
					 * (first message of the dump only)
					 */
	SMC_NLA_FBACK_STATS_CLNT_CNT,	/* u64, total client fallbacks
					 * (first message of the dump only)
					 */
	SMC_NLA_FBACK_STATS_RSN_CODE,	/* u32, CLC decline reason code */
	SMC_NLA_FBACK_STATS_RSN_CNT,	/* u16, occurrences of that reason */
	__SMC_NLA_FBACK_STATS_MAX,
	SMC_NLA_FBACK_STATS_MAX = __SMC_NLA_FBACK_STATS_MAX - 1
};

/* Attributes of SMC_NETLINK_{DUMP,ADD,REMOVE}_UEID. */
enum {
	SMC_NLA_EID_TABLE_UNSPEC,
	SMC_NLA_EID_TABLE_ENTRY,	/* string, 32 characters blank padded */
	__SMC_NLA_EID_TABLE_MAX,
	SMC_NLA_EID_TABLE_MAX = __SMC_NLA_EID_TABLE_MAX - 1
};

/* Attributes of SMC_NETLINK_DUMP_SEID. */
enum {
	SMC_NLA_SEID_UNSPEC,
	SMC_NLA_SEID_ENTRY,		/* string, the system EID */
	SMC_NLA_SEID_ENABLED,		/* u8 bool, system EID in use */
	__SMC_NLA_SEID_TABLE_MAX,
	SMC_NLA_SEID_TABLE_MAX = __SMC_NLA_SEID_TABLE_MAX - 1
};

/* Attributes of SMC_NETLINK_DUMP_HS_LIMITATION. */
enum {
	SMC_NLA_HS_LIMITATION_UNSPEC,
	SMC_NLA_HS_LIMITATION_ENABLED,	/* u8 bool */
	__SMC_NLA_HS_LIMITATION_MAX,
	SMC_NLA_HS_LIMITATION_MAX = __SMC_NLA_HS_LIMITATION_MAX - 1
};

/* Socket options at level SOL_SMC (286). */
#define SMC_LIMIT_HS 1	/* int: per-socket handshake limitation on/off */

/* Any later #include <linux/smc.h> of the system or kernel copy becomes a
 * no-op instead of a wall of redefinition errors.
 */
#ifndef _LINUX_SMC_H_
#define _LINUX_SMC_H_
#endif
#ifndef _UAPI_LINUX_SMC_H_
#define _UAPI_LINUX_SMC_H_
#endif

#endif /* SMCX_UAPI_LINUX_SMC_H */
