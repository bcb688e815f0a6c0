// SPDX-License-Identifier: GPL-2.0
/*
 * Urgent data (MSG_OOB) on SMC-R connections.
 *
 * Wire (RFC 7609 CDC producer flags, as mainline uses them): the sender
 * sets "urgent data pending" from its MSG_OOB send until the urgent byte
 * has been written, and "urgent data present" on the CDC whose producer
 * cursor ends right after the urgent byte: the byte before the producer
 * cursor is the urgent one.  So the CDC that announces it must not cover
 * any byte after it (smcx_urg_tx_limit(), from the push in tx.c).
 *
 * What the application sees is TCP's (BSD urgent semantics as Linux TCP
 * implements them, checked case by case against TCP in sockapi_smcr):
 * without SO_OOBINLINE the urgent byte is read by recv(MSG_OOB) once and
 * skipped by normal reads; with it, it stays in the stream.  Normal reads
 * stop at the mark, SIOCATMARK is true there, SIOCINQ counts up to the
 * mark, POLLPRI is set until the byte is read, and POLLIN at the mark
 * needs more than the urgent byte alone.  A newer urgent byte replaces an
 * older unread one, which then stays in the stream as TCP leaves it.
 *
 * The positions (where the urgent byte and the mark lie relative to the
 * cursors) are computed by include/smcx/urg.h, shared with the unit tests.
 *
 * Locking: every field lives under conn->lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/uio.h>
#include <net/sock.h>

#include <smcx/cursor.h>
#include <smcx/urg.h>

#include "conn.h"
#include "lgr.h"

/*
 * cdc_rx, conn->lock held and conn->rmb set: the peer's producer cursor
 * moved to @new_prod with @prod_flags.  @lnk is the link the CDC came on,
 * in its completion handler, so its device and the mapping are valid.
 * The byte is synced for that link's mapping only: a peer sends a CDC on
 * the link that carried the RDMA WRITEs it announces (RC ordering makes
 * them visible before the SEND only on the same QP; a failover resends
 * the data with the CDC on the new link), so the urgent byte this CDC
 * announces came over @lnk.  Returns the poll events to add.
 */
__poll_t smcx_urg_rx(struct smcx_conn *conn, struct smcx_link *lnk,
		     u8 prod_flags, u64 new_prod)
{
	u32 off;

	if (!smcx_urg_cdc_pos(prod_flags, new_prod, &conn->urg_pos))
		return 0;
	off = smcx_ring_off(conn->urg_pos, conn->rmb->size);
	if (lnk && smcx_buf_mapped(conn->rmb, lnk))
		ib_dma_sync_single_for_cpu(lnk->ibdev,
					   smcx_buf_dma(conn->rmb, lnk) + off,
					   1, DMA_BIDIRECTIONAL);
	conn->urg_byte = ((u8 *)conn->rmb->cpu)[off];
	conn->urg_state = SMCX_URG_VALID;
	return EPOLLPRI | EPOLLRDBAND;
}

/* recv(MSG_OOB): the urgent byte once, as tcp_recv_urg() */
int smcx_urg_recv(struct smcx_sock *smc, struct msghdr *msg, size_t len,
		  int flags)
{
	struct smcx_conn *conn = smc->conn;
	u8 c;

	spin_lock_bh(&conn->lock);
	if (sock_flag(&smc->sk, SOCK_URGINLINE) ||
	    conn->urg_state != SMCX_URG_VALID) {
		spin_unlock_bh(&conn->lock);
		return -EINVAL;
	}
	c = conn->urg_byte;
	if (!(flags & MSG_PEEK))
		conn->urg_state = SMCX_URG_READ;
	spin_unlock_bh(&conn->lock);
	msg->msg_flags |= MSG_OOB;
	if (!len) {
		msg->msg_flags |= MSG_TRUNC;
		return 0;
	}
	if (!(flags & MSG_TRUNC) && copy_to_iter(&c, 1, &msg->msg_iter) != 1)
		return -EFAULT;
	return 1;
}

/* SIOCINQ: without SO_OOBINLINE, only the bytes up to the mark */
u64 smcx_urg_inq(struct smcx_sock *smc, u64 avail)
{
	struct smcx_conn *conn = smc->conn;
	u64 v;

	spin_lock_bh(&conn->lock);
	v = smcx_urg_inq_len(conn->urg_state,
			     sock_flag(&smc->sk, SOCK_URGINLINE),
			     conn->urg_pos, conn->rx_cons, conn->rx_prod,
			     avail);
	spin_unlock_bh(&conn->lock);
	return v;
}

bool smcx_urg_atmark(struct smcx_conn *conn)
{
	bool at;

	spin_lock_bh(&conn->lock);
	at = smcx_urg_is_atmark(conn->urg_state, conn->urg_pos, conn->rx_cons);
	spin_unlock_bh(&conn->lock);
	return at;
}

/* POLLIN's byte count: at the mark the urgent byte alone is not enough */
u64 smcx_urg_poll_target(struct smcx_sock *smc, u64 target)
{
	return smcx_urg_poll_need(smcx_urg_atmark(smc->conn),
				  sock_flag(&smc->sk, SOCK_URGINLINE), target);
}
