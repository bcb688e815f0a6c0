/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The work-request layer of a link (wr.c): a bounded set of send slots,
 * each one signalled SEND, and a ring of receive buffers, with the
 * completion handlers of both.  A sender takes a slot, writes its message
 * into the slot's buffer and posts it, optionally behind RDMA WRITEs; the
 * slot comes back when the SEND completes.  Completions run in softirq
 * (IB_POLL_SOFTIRQ) and never sleep.
 *
 * wr.c knows no message kind: a received message goes to the handler its
 * kind (smcx_wr_kind() of its first byte) registered, and a send slot's
 * completion to the callback its sender set on it.
 */
#ifndef SMCX_WR_H
#define SMCX_WR_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

#include <smcx/wire.h>

struct smcx_link;

#define SMCX_WR_SLOTS		16	/* signalled sends in flight per link */
#define SMCX_WR_ALL_FREE	((1UL << SMCX_WR_SLOTS) - 1)	/* tx_free, idle */
#define SMCX_WR_SLOT_LEN	64	/* CDC and the LLC messages we send */
#define SMCX_RX_SLOTS		48
#define SMCX_RX_BUFLEN		SMCX_LLC_V2_MAX_LEN	/* v2 LLC up to 8 KiB */
/* the longest LLC message we send: v2 ADD_LINK with 255 keys */
#define SMCX_WR_LONG_LEN	(SMCX_LLC_ADD_LINK_RT_OFF + \
				 SMCX_LLC_ADD_LINK_RKEYS_MAX_V2 * SMCX_LLC_RT_LEN)
#define SMCX_REG_WAIT		(10 * HZ)	/* one REG_MR on a busy link */
/* a quiesce looks at its abort flag this often (nobody wakes it for it) */
#define SMCX_QUIESCE_POLL	(HZ / 20)
/* link clear waits this long for the senders holding a slot (wr.c) */
#define SMCX_WR_HELD_WAIT	(2 * HZ)
/*
 * A signalled send not completed after this long means the peer is gone:
 * rxe retransmits forever when retry_cnt is 7 (which SMC-R uses, as
 * mainline), so no error completion would ever end the link.
 */
#define SMCX_TX_STALL		(15 * HZ)

struct smcx_tx_slot {
	struct ib_cqe cqe;
	struct smcx_link *lnk;
	/*
	 * Set by the sender after smcx_wr_slot_get(), which clears them:
	 * called once the SEND completed (@ok: successfully) or was flushed,
	 * in softirq, before the slot is free again.  NULL: nothing to do.
	 */
	void (*done)(struct smcx_tx_slot *slot, bool ok);
	void *owner;			/* the sender's (CDC: sock reference) */
	u64 tx_upto;			/* send buffer bytes this CDC covers */
	bool closing;			/* this CDC carries our close or abort */
	unsigned long taken;		/* jiffies: out of tx_free since */
	u8 *buf;
	u64 dma;
};

struct smcx_rx_slot {
	struct ib_cqe cqe;
	struct smcx_link *lnk;
	u8 *buf;
	u64 dma;
};

/*
 * The receive handler of a message kind (SMCX_WR_KIND_CDC, _LLC): called
 * in softirq with the message's @len bytes (at least one), which stay
 * valid only during the call.  Each kind registers once, from its layer's
 * init at module load, before any link exists; the table is read-only
 * after module init (__ro_after_init), so completions read it without a
 * lock.  A message of a kind nobody registered is dropped.  0, -EINVAL
 * (no such kind, no handler) or -EBUSY (the kind has one).
 */
int smcx_wr_rx_register(int kind,
			void (*fn)(struct smcx_link *lnk, const u8 *buf,
				   u32 len));

/*
 * The receive handler of RDMA WRITE WITH IMMEDIATE (smcx/wwi.h): called in
 * softirq with the immediate (host order) and the write's length; the
 * data went to an RMB, the receive buffer was not used.  Registered once
 * at module init, as above.  0, -EINVAL or -EBUSY.
 */
int smcx_wr_imm_register(void (*fn)(struct smcx_link *lnk, u32 imm,
				    u32 len));

/*
 * A free send slot of @lnk (its buffer zeroed), waiting up to 10 s for one
 * when @wait; NULL when the link is dead or none came.
 */
struct smcx_tx_slot *smcx_wr_slot_get(struct smcx_link *lnk, bool wait);
/* give back a slot that was not posted */
void smcx_wr_slot_put(struct smcx_tx_slot *slot);
/*
 * Link clear, after the drain: wait (bounded) until every slot handed out
 * is back; false when one is still held (smcx_wr_clear() then leaves the
 * slot buffers to the last smcx_wr_slot_put()).
 */
bool smcx_wr_wait_held(struct smcx_link *lnk);
/*
 * Post @first (a chain of RDMA WRITEs, or NULL) followed by the slot's SEND
 * of @len bytes; a failed post ends the link group.  -ENOLINK without
 * posting when the link died since the slot was taken.  The caller keeps
 * the slot on any error (smcx_wr_slot_put()).  _data also syncs @sync_len
 * bytes at @sync_dma (what the WRITEs read) for the device first.
 */
int smcx_wr_send(struct smcx_tx_slot *slot, u32 len, struct ib_send_wr *first);
/*
 * The slot's SEND, of @len bytes of the link's long buffer (tx_long) in
 * place of the slot's own; -ENOLINK as smcx_wr_send_data().
 */
int smcx_wr_send_long(struct smcx_tx_slot *slot, u32 len);
int smcx_wr_send_data(struct smcx_tx_slot *slot, u32 len,
		      struct ib_send_wr *first, u64 sync_dma, u32 sync_len);
/* inline bytes a link's QP is asked for (mainline asks for one CDC, 44) */
#define SMCX_WR_INLINE		256
/*
 * Make @wr (one SGE) an inline send if its data fits the link's limit:
 * then the SGE names the data's kernel address @va, which the device
 * copies at post time.
 */
void smcx_wr_inline(struct smcx_link *lnk, struct ib_send_wr *wr, void *va);
/*
 * Post @wr, one RDMA WRITE WITH IMMEDIATE, as the slot's signalled work
 * request (its completion runs the slot's done), after syncing @sync_len
 * bytes at @sync_dma (what it reads) for the device.  Errors as
 * smcx_wr_send_data().
 */
int smcx_wr_send_imm(struct smcx_tx_slot *slot, struct ib_rdma_wr *wr,
		     u64 sync_dma, u32 sync_len);
/*
 * Claim every send slot once all are back (the send queue empty), for a
 * REG_MR; 0, -ENOLINK (link dead), -EAGAIN (not idle within SMCX_REG_WAIT,
 * or an earlier quiesce was not and no send completed since: tx_slow) or
 * -ECONNABORTED (*@abort set meanwhile; @abort may be NULL).  Unquiesce
 * hands them out again.  Under the link's reg_mutex.
 */
int smcx_wr_quiesce(struct smcx_link *lnk, const bool *abort);
void smcx_wr_unquiesce(struct smcx_link *lnk);
/* a send slot taken longer than SMCX_TX_STALL ago (the watchdog's test) */
bool smcx_wr_stalled(struct smcx_link *lnk);

/*
 * The link's slots: allocate and map them (before the QP is used), post
 * the receive ring (once the QP is in INIT), and free whatever of them
 * exists (link clear, after the QP and CQ are gone).
 */
int smcx_wr_init(struct smcx_link *lnk);
int smcx_wr_rx_start(struct smcx_link *lnk);
void smcx_wr_clear(struct smcx_link *lnk);

/*
 * wait_event_timeout() on @lnk's tx_wait, counted in tx_sleepers for
 * smcx_wr_slot_put() (link.h): every wait on tx_wait goes through here.
 * Registered under tx_lock before the first look at @cond, so a put
 * either ran its section before (and @cond sees its change) or sees the
 * count and wakes.
 */
#define smcx_wr_wait(lnk, cond, timeout)				\
({									\
	struct smcx_link *__l = (lnk);					\
	unsigned long __f;						\
	long __r;							\
									\
	spin_lock_irqsave(&__l->tx_lock, __f);				\
	__l->tx_sleepers++;						\
	spin_unlock_irqrestore(&__l->tx_lock, __f);			\
	__r = wait_event_timeout(__l->tx_wait, cond, timeout);		\
	spin_lock_irqsave(&__l->tx_lock, __f);				\
	__l->tx_sleepers--;						\
	spin_unlock_irqrestore(&__l->tx_lock, __f);			\
	__r;								\
})

#endif /* SMCX_WR_H */
