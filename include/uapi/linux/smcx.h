/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * smcx: the generic netlink family "SMCX", smcx's own interface beside the
 * mainline ABI of <linux/smc.h> (which stays byte for byte mainline's).
 * Nothing here exists in mainline; only smcctl speaks it.
 *
 *   the handshake flight recorder   the most recent handshakes of the
 *                                   namespace, both roles, every outcome
 *   scope rules ("policy")          which sockets try SMC at all
 *   the peer cache                  peers that broke a handshake, offered
 *                                   plain TCP for a while
 *
 * Conventions as in smc.h: [dump], [do], [any], [admin].  [admin] here is
 * CAP_NET_ADMIN in the user namespace that owns the network namespace
 * (GENL_UNS_ADMIN_PERM): every object of this family is per namespace.
 * Addresses are 16 bytes; an IPv4 address is v4-mapped (::ffff:a.b.c.d).
 * The version of the family (genl header) is SMCX_GENL_VERSION; a reader
 * ignores attributes it does not know.
 */
#ifndef SMCX_UAPI_LINUX_SMCX_H
#define SMCX_UAPI_LINUX_SMCX_H

#define SMCX_GENL_NAME		"SMCX"
#define SMCX_GENL_VERSION	1

enum {
	SMCX_CMD_UNSPEC,
	/* [dump][any] the flight recorder, oldest first: one SMCX_A_HS per
	 * message; a caller without [admin] sees only its own uid's
	 */
	SMCX_CMD_HS_GET,
	SMCX_CMD_HS_FLUSH,		/* [do][admin] empty the recorder */
	SMCX_CMD_POLICY_GET,		/* [dump][any] the rules, in order */
	SMCX_CMD_POLICY_ADD,		/* [do][admin] one SMCX_A_POLICY */
	SMCX_CMD_POLICY_DEL,		/* [do][admin] SMCX_POLICY_A_ID */
	SMCX_CMD_POLICY_FLUSH,		/* [do][admin] */
	SMCX_CMD_PEER_GET,		/* [dump][any] the peer cache */
	SMCX_CMD_PEER_DEL,		/* [do][admin] FAMILY, ADDR, PORT */
	SMCX_CMD_PEER_FLUSH,		/* [do][admin] */
	__SMCX_CMD_MAX,
	SMCX_CMD_MAX = __SMCX_CMD_MAX - 1
};

/* top level: one nest per object */
enum {
	SMCX_A_UNSPEC,
	SMCX_A_HS,			/* nest, SMCX_HS_A_* */
	SMCX_A_POLICY,			/* nest, SMCX_POLICY_A_* */
	SMCX_A_PEER,			/* nest, SMCX_PEER_A_* */
	__SMCX_A_MAX,
	SMCX_A_MAX = __SMCX_A_MAX - 1
};

/* -- the flight recorder ------------------------------------------------ */

/* how a handshake ended (SMCX_HS_A_RESULT) */
enum {
	SMCX_HS_TCP,			/* fell back; REASON says why */
	SMCX_HS_SMCR,
	SMCX_HS_SMCD,
	SMCX_HS_FAILED,			/* the connection failed: ERRNO */
};

/* a CLC message of the handshake (SMCX_HS_A_MSG) */
enum {
	SMCX_HS_MSG_A_UNSPEC,
	SMCX_HS_MSG_A_TYPE,		/* u8, CLC type (1 Proposal .. 4 Decline) */
	SMCX_HS_MSG_A_OUT,		/* u8, 1: we sent it, 0: the peer did */
	SMCX_HS_MSG_A_LEN,		/* u16, its length field */
	SMCX_HS_MSG_A_VERSION,		/* u8, its version (1, 2) */
	SMCX_HS_MSG_A_PATH,		/* u8, its SMC type: 0 R, 1 D, 3 both */
	SMCX_HS_MSG_A_PATH2,		/* u8, Proposal: the v2 type */
	SMCX_HS_MSG_A_FIRST,		/* u8, first contact flag */
	SMCX_HS_MSG_A_USEC,		/* u32, since the handshake began */
	SMCX_HS_MSG_A_DIAG,		/* u32, Decline: its reason code */
	__SMCX_HS_MSG_A_MAX,
	SMCX_HS_MSG_A_MAX = __SMCX_HS_MSG_A_MAX - 1
};

enum {
	SMCX_HS_A_UNSPEC,
	SMCX_HS_A_PAD,
	SMCX_HS_A_SEQ,			/* u64, per namespace, from 1 */
	SMCX_HS_A_TIME,			/* u64, start, ns since the epoch */
	SMCX_HS_A_USEC,			/* u32, start to decision */
	SMCX_HS_A_ROLE,			/* u8, 0 client, 1 server */
	SMCX_HS_A_RESULT,		/* u8, SMCX_HS_* */
	SMCX_HS_A_REASON,		/* u32, fallback reason (0: none) */
	SMCX_HS_A_PEER_REASON,		/* u32, the peer's Decline, if any */
	SMCX_HS_A_ERRNO,		/* u32, failed: the positive errno */
	SMCX_HS_A_FAMILY,		/* u8, AF_INET or AF_INET6 */
	SMCX_HS_A_LADDR,		/* binary, 16 */
	SMCX_HS_A_PADDR,		/* binary, 16 */
	SMCX_HS_A_LPORT,		/* u16, host order */
	SMCX_HS_A_PPORT,		/* u16, host order */
	SMCX_HS_A_UID,			/* u32, the socket's owner */
	SMCX_HS_A_COMM,			/* string, client: connect()'s task;
					 * server: listen()'s
					 */
	SMCX_HS_A_NETNS,		/* u32, the namespace's inode number */
	SMCX_HS_A_SYN_SENT,		/* u8, our SYN/SYN-ACK announced SMC */
	SMCX_HS_A_SYN_SEEN,		/* u8, the peer's announced SMC */
	SMCX_HS_A_MSG,			/* nest, SMCX_HS_MSG_A_*, repeated */
	SMCX_HS_A_OFFER,		/* u8, what the Proposal offered:
					 * SMCX_HS_OFFER_* bits
					 */
	SMCX_HS_A_PEER_EID,		/* string, repeated: the peer's EIDs */
	SMCX_HS_A_EID,			/* string, the one agreed */
	SMCX_HS_A_DEV,			/* string, RDMA device or loopback-ism */
	SMCX_HS_A_IBPORT,		/* u8 */
	SMCX_HS_A_GID,			/* binary, 16, ours */
	SMCX_HS_A_PEER_GID,		/* binary, 16 */
	SMCX_HS_A_FIRST,		/* u8, first contact (else a reuse) */
	SMCX_HS_A_LGR_ID,		/* u32, the link group's id */
	SMCX_HS_A_VERSION,		/* u8, agreed CLC version */
	SMCX_HS_A_RELEASE,		/* u8, agreed v2 release */
	SMCX_HS_A_MAX_CONNS,		/* u8, a new group's */
	SMCX_HS_A_MAX_LINKS,		/* u8, a new group's */
	SMCX_HS_A_WWI,			/* u8, write with immediate chosen */
	SMCX_HS_A_POLICY_ID,		/* u32, the scope rule that decided */
	SMCX_HS_A_MSGS_LOST,		/* u8, messages not recorded */
	__SMCX_HS_A_MAX,
	SMCX_HS_A_MAX = __SMCX_HS_A_MAX - 1
};

/* SMCX_HS_A_OFFER */
#define SMCX_HS_OFFER_V1	0x01	/* SMC v1 (SMC-R v1) */
#define SMCX_HS_OFFER_V2	0x02	/* SMC v2 */
#define SMCX_HS_OFFER_R		0x04	/* SMC-R */
#define SMCX_HS_OFFER_D		0x08	/* SMC-D (the loopback device) */
#define SMCX_HS_OFFER_IPV6	0x10	/* an IPv6 prefix list */
#define SMCX_HS_OFFER_WWI	0x20	/* write with immediate */

/*
 * smcx's own fallback reasons, reported where mainline's reason codes are
 * (sock_diag, smcss, statistics, SMCX_HS_A_REASON), are in the codec:
 * SMCX_DECL_POLICY (0x03ff0001, a scope rule said TCP) and
 * SMCX_DECL_PEERCACHED (0x03ff0002, the peer cache offered plain TCP).
 */

/* -- scope rules ---------------------------------------------------------- */

enum {
	SMCX_POLICY_SMC = 1,		/* try SMC (the default) */
	SMCX_POLICY_TCP = 2,		/* plain TCP, no SMC option */
};

enum {
	SMCX_POLICY_ANY,
	SMCX_POLICY_CLIENT,		/* connect() */
	SMCX_POLICY_SERVER,		/* listen() */
};

/*
 * A rule matches a socket when every attribute it has matches; the first
 * rule that matches decides, no rule: SMC.  Client rules are asked at
 * connect(), server rules at listen() (PORT is then the bound port, 0 for
 * a socket that is not bound; ADDR never matches a listen(), and a SERVER
 * rule with one is refused).  A rule that says TCP makes a client go out
 * without the SMC option (fallback reason POLICY) and a listener a plain
 * TCP listener.  ADD appends (at most 256 rules per namespace, ENOSPC
 * beyond); ids count from 1 and are not reused in a namespace.  A lone
 * UID_MIN or PORT_MIN is a range of one, a lone _MAX one from 0.
 */
enum {
	SMCX_POLICY_A_UNSPEC,
	SMCX_POLICY_A_PAD,
	SMCX_POLICY_A_ID,		/* u32, given by the kernel */
	SMCX_POLICY_A_ACTION,		/* u8, SMCX_POLICY_SMC or _TCP */
	SMCX_POLICY_A_ROLE,		/* u8, SMCX_POLICY_ANY/CLIENT/SERVER */
	SMCX_POLICY_A_CGROUP,		/* string, a cgroup v2 path in the
					 * caller's cgroup namespace (as
					 * under /sys/fs/cgroup): sockets
					 * made in it and below
					 */
	SMCX_POLICY_A_COMM,		/* string, the task's name, exact,
					 * 1..15 characters
					 */
	SMCX_POLICY_A_UID_MIN,		/* u32, the socket's owner, in the */
	SMCX_POLICY_A_UID_MAX,		/* u32, namespace's user namespace */
	SMCX_POLICY_A_FAMILY,		/* u8, of ADDR */
	SMCX_POLICY_A_ADDR,		/* binary, 16, the destination */
	SMCX_POLICY_A_PREFIX,		/* u8, 0..128, of the 16 bytes: an
					 * IPv4 /n is 96 + n (default 128)
					 */
	SMCX_POLICY_A_PORT_MIN,		/* u16 */
	SMCX_POLICY_A_PORT_MAX,		/* u16 */
	SMCX_POLICY_A_HITS,		/* u64, dump: sockets it decided */
	__SMCX_POLICY_A_MAX,
	SMCX_POLICY_A_MAX = __SMCX_POLICY_A_MAX - 1
};

/* -- the peer cache ------------------------------------------------------- */

/* why a peer is cached (SMCX_PEER_A_WHY) */
enum {
	SMCX_PEER_NOT_CLC = 1,		/* announced SMC, answered no CLC */
	SMCX_PEER_RESET,		/* reset the connection after our
					 * Proposal
					 */
	SMCX_PEER_SILENT,		/* no answer to our Proposal */
	SMCX_PEER_DECLINES,		/* declined every time */
};

enum {
	SMCX_PEER_A_UNSPEC,
	SMCX_PEER_A_PAD,
	SMCX_PEER_A_FAMILY,		/* u8 */
	SMCX_PEER_A_ADDR,		/* binary, 16 */
	SMCX_PEER_A_PORT,		/* u16, host order */
	SMCX_PEER_A_WHY,		/* u8, SMCX_PEER_* */
	SMCX_PEER_A_REASON,		/* u32, the last Decline's code */
	SMCX_PEER_A_FAILS,		/* u32, handshakes it broke in a row */
	SMCX_PEER_A_CACHED,		/* u8, 1: offered TCP now */
	SMCX_PEER_A_EXPIRES_MS,		/* u32, until it is tried again */
	SMCX_PEER_A_HITS,		/* u64, connections sent as TCP */
	__SMCX_PEER_A_MAX,
	SMCX_PEER_A_MAX = __SMCX_PEER_A_MAX - 1
};

#endif /* SMCX_UAPI_LINUX_SMCX_H */
