/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SMC-D loopback device (lo.c): an emulated ISM device inside smcx
 * that lets two sockets of this host move data through each other's DMB
 * (Direct Memory Buffer) with no RDMA device at all.
 *
 * Wire facts (mainline's loopback-ism, net/smc/smc_loopback.c): CHID
 * 0xFFFF, reserved for it; a 128-bit GID (two 64-bit halves, gid and
 * gid_ext), random at load.  A Proposal offers it in the SMC-Dv2
 * extension as two GID/CHID entries (the halves, each with CHID 0xFFFF);
 * a server takes it only when both halves are its own, so only another
 * socket of this host (this module) ever joins it, and a mainline peer
 * never does (its loopback has its own GID).
 *
 * A DMB here is a connection's RMB (buf.c, plain kernel memory: an SMC-D
 * group has no links), known to the peer by a random 64-bit token, which
 * the CLC Accept/Confirm carries.  The table maps a token to its owner:
 * the group, the buffer, the connection's alert token, and the two ends of
 * its CLC connection.  Attaching to a token (the peer's side of the
 * handshake) succeeds only for the owner whose CLC connection is the
 * attacher's, mirrored: a process that speaks CLC over TCP by hand cannot
 * point our writes at another connection's buffer by naming its token.
 *
 * Lifetimes.  An entry lives from the owner connection's create to its
 * free (conn.c).  The attacher takes a reference on the owner's group,
 * which keeps the buffer's memory (a group frees its buffers only at its
 * release) for as long as the attacher may copy into it; the close
 * protocol keeps it from copying once the buffer can serve another
 * connection (conn.h, the RMB's pool rule).
 */
#ifndef SMCX_LO_H
#define SMCX_LO_H

#include <linux/sizes.h>
#include <linux/types.h>

struct sock;
struct smcx_buf;
struct smcx_lgr;

#define SMCX_LO_CHID		0xFFFF	/* mainline's, reserved for loopback */
#define SMCX_LO_MAX_DMBS	5000	/* as mainline's SMC_LO_MAX_DMBS */
/*
 * The largest DMB (and SMC-D send buffer): mainline's SMC-D sizes end at
 * compressed size 6 (SMCD_DMBE_SIZES), 16 KiB << 6
 */
#define SMCX_LO_DMB_MAX		SZ_1M
#define SMCX_LO_NAME		"loopback-ism"

struct smcx_lo_gid {
	u64 gid;
	u64 gid_ext;
};

/*
 * Module parameter lo_attach (default 1): an SMC-D sender's send buffer is
 * the peer's DMB (conn.h, tx_attached); 0: its own, copied from at each
 * push (for comparison)
 */
extern bool smcx_lo_attach;

/* the device's GID, set at init and never changed */
extern struct smcx_lo_gid smcx_lo_gid;

static inline bool smcx_lo_is_ours(u64 gid, u64 gid_ext)
{
	return gid == smcx_lo_gid.gid && gid_ext == smcx_lo_gid.gid_ext;
}

/* the peer's DMB as its attacher sees it */
struct smcx_lo_peer {
	struct smcx_lgr *lgr;		/* referenced */
	struct smcx_buf *buf;
	u32 alert;			/* its connection's token in lgr */
	u64 token;			/* its DMB token */
};

void smcx_lo_init(void);
void smcx_lo_exit(void);
/*
 * Register @buf, the RMB of the connection @alert of @lgr, whose CLC
 * socket is @tcpsk: its token in *@token.  -EUSERS: SMCX_LO_MAX_DMBS
 * (a cap, as the link groups' in lgr.h: the handshake declines, MEM).
 */
int smcx_lo_dmb_add(struct smcx_lgr *lgr, struct smcx_buf *buf, u32 alert,
		    const struct sock *tcpsk, u64 *token);
void smcx_lo_dmb_del(u64 token);
/*
 * The DMB @token, whose owner's CLC socket is the far end of @tcpsk, with
 * a reference on its group: 0, or -ENOENT (no such DMB, or not the
 * peer's).
 */
int smcx_lo_dmb_attach(u64 token, const struct sock *tcpsk,
		       struct smcx_lo_peer *peer);
void smcx_lo_dmb_detach(struct smcx_lo_peer *peer);
/* DMBs registered now (the device view) */
unsigned int smcx_lo_dmb_count(void);

#endif /* SMCX_LO_H */
