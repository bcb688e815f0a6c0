/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * smcx: sock_diag ABI for AF_SMC sockets.
 *
 * smcx's own rendering of the mainline (6.12) smc_diag interface: names,
 * numbers and layouts are ABI and identical to mainline; the prose is ours.
 *
 * Usage: a NETLINK_SOCK_DIAG socket sends a SOCK_DIAG_BY_FAMILY request
 * (nlmsg_type 20) with NLM_F_DUMP whose payload is struct smc_diag_req with
 * diag_family = AF_SMC (43).  diag_ext is a bit mask of (1 << (X - 1)) for
 * the SMC_DIAG_* extensions X wanted.  The kernel answers with one
 * struct smc_diag_msg per socket, followed by rtnetlink-style attributes
 * (type = SMC_DIAG_*) carrying the requested extension structs.  Any user
 * may dump; sockets of other namespaces are not shown.
 *
 * Header guard: distinct from the system's (_SMC_DIAG_H_) and the kernel's
 * (_UAPI_SMC_DIAG_H_); including another copy first is an error, a later
 * include of another copy becomes a no-op.
 */

#ifndef SMCX_UAPI_LINUX_SMC_DIAG_H
#define SMCX_UAPI_LINUX_SMC_DIAG_H

#if defined(_SMC_DIAG_H_) || defined(_UAPI_SMC_DIAG_H_)
#error "another <linux/smc_diag.h> was included first; use only smcx's copy"
#endif

#include <linux/types.h>
#include <linux/inet_diag.h>     /* struct inet_diag_sockid */
#include <rdma/ib_user_verbs.h>  /* IB_DEVICE_NAME_MAX (64) */

/* Request payload. */
struct smc_diag_req {
	__u8	diag_family;		/* AF_SMC */
	__u8	pad[2];
	__u8	diag_ext;		/* mask of 1 << (SMC_DIAG_* - 1) */
	struct inet_diag_sockid	id;	/* unused: always a dump */
};

/* Reply payload, one per socket.  Addresses, ports and cookie come from the
 * internal TCP ("CLC") socket; the cookie identifies the SMC socket.
 */
struct smc_diag_msg {
	__u8		diag_family;	/* AF_SMC */
	__u8		diag_state;	/* SMC socket state (TCP's numbers) */
	union {
		__u8	diag_mode;	/* SMC_DIAG_MODE_* */
		__u8	diag_fallback;	/* former name of diag_mode */
	};
	__u8		diag_shutdown;	/* SEND_SHUTDOWN / RCV_SHUTDOWN bits */
	struct inet_diag_sockid id;

	__u32		diag_uid;	/* owner uid */
	__aligned_u64	diag_inode;	/* socket inode number */
};

/* Values of smc_diag_msg.diag_mode. */
enum {
	SMC_DIAG_MODE_SMCR,		/* using SMC-R (or not yet decided) */
	SMC_DIAG_MODE_FALLBACK_TCP,	/* fell back to plain TCP */
	SMC_DIAG_MODE_SMCD,		/* using SMC-D */
};

/* Extensions: request bits (1 << (X - 1)) and reply attribute types X. */
enum {
	SMC_DIAG_NONE,
	SMC_DIAG_CONNINFO,	/* struct smc_diag_conninfo (connected SMC) */
	SMC_DIAG_LGRINFO,	/* struct smc_diag_lgrinfo (SMC-R) */
	SMC_DIAG_SHUTDOWN,	/* __u8, shutdown flags */
	SMC_DIAG_DMBINFO,	/* struct smcd_diag_dmbinfo (SMC-D) */
	SMC_DIAG_FALLBACK,	/* struct smc_diag_fallback (always sent) */
	__SMC_DIAG_MAX,
};

#define SMC_DIAG_MAX (__SMC_DIAG_MAX - 1)

/* A position in a ring buffer: byte offset plus wrap-around count. */
struct smc_diag_cursor {
	__u16	reserved;
	__u16	wrap;			/* times the offset wrapped */
	__u32	count;			/* byte offset within the buffer */
};

/* SMC_DIAG_CONNINFO: buffers and cursors of a connection. */
struct smc_diag_conninfo {
	__u32			token;		/* connection alert token */
	__u32			sndbuf_size;	/* local send buffer bytes */
	__u32			rmbe_size;	/* local receive buffer bytes */
	__u32			peer_rmbe_size;	/* peer receive buffer bytes */
	/* cursors into the local receive buffer */
	struct smc_diag_cursor	rx_prod;	/* peer's producer, received */
	struct smc_diag_cursor	rx_cons;	/* our consumer */
	/* cursors into the peer's receive buffer */
	struct smc_diag_cursor	tx_prod;	/* our producer, as sent */
	struct smc_diag_cursor	tx_cons;	/* peer's consumer, received */
	__u8			rx_prod_flags;	/* producer flags received */
	__u8			rx_conn_state_flags; /* state flags received */
	__u8			tx_prod_flags;	/* CDC producer flags sent */
	__u8			tx_conn_state_flags; /* CDC state flags sent */
	/* cursors into the local send buffer */
	struct smc_diag_cursor	tx_prep;	/* filled by the application */
	struct smc_diag_cursor	tx_sent;	/* handed to RDMA write */
	struct smc_diag_cursor	tx_fin;		/* write completed */
};

/* One link of the socket's SMC-R link group. */
struct smc_diag_linkinfo {
	__u8 link_id;			/* link id within the group */
	__u8 ibname[IB_DEVICE_NAME_MAX]; /* RDMA device, NUL terminated */
	__u8 ibport;			/* RDMA port, 1-based */
	__u8 gid[40];			/* local GID, text form */
	__u8 peer_gid[40];		/* peer GID, text form */
};

/* SMC_DIAG_LGRINFO: the socket's SMC-R link group. */
struct smc_diag_lgrinfo {
	struct smc_diag_linkinfo	lnk[1];	/* the link the socket uses */
	__u8				role;	/* 0 client, 1 server */
};

/* SMC_DIAG_FALLBACK: why the socket is (or would be) plain TCP. */
struct smc_diag_fallback {
	__u32 reason;			/* local CLC decline code, 0 if none */
	__u32 peer_diagnosis;		/* code the peer declined with */
};

/* SMC_DIAG_DMBINFO: the socket's SMC-D connection. */
struct smcd_diag_dmbinfo {
	__u32		linkid;		/* link id */
	__aligned_u64	peer_gid;	/* peer ISM GID */
	__aligned_u64	my_gid;		/* local ISM GID */
	__aligned_u64	token;		/* local DMB token */
	__aligned_u64	peer_token;	/* peer DMB token */
	__aligned_u64	peer_gid_ext;	/* peer GID, extended half */
	__aligned_u64	my_gid_ext;	/* local GID, extended half */
};

#ifndef _SMC_DIAG_H_
#define _SMC_DIAG_H_
#endif
#ifndef _UAPI_SMC_DIAG_H_
#define _UAPI_SMC_DIAG_H_
#endif

#endif /* SMCX_UAPI_LINUX_SMC_DIAG_H */
