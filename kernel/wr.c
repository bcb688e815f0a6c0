// SPDX-License-Identifier: GPL-2.0
/*
 * Send slots and the receive ring of a link, and their completions (see
 * wr.h).  The slots' state (tx_free, tx_quiesce, each slot's taken time)
 * lives in struct smcx_link under its tx_lock; a dead link (SMCX_LNK_DEAD)
 * hands out no slot and posts nothing more (posts run in SMCX_LNK_POST
 * sections, link.h).  The receive side runs in the link's completion
 * handler only, which link clear's drain outlasts: it needs no section.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cache.h>
#include <linux/delay.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "lgr.h"

/*
 * For tests only (selftests/smcx_failover.py, the N3 subtest): a sender
 * that may sleep sleeps this long (microseconds, at most
 * SMCX_WR_FAULT_DELAY_MAX) between taking a send slot and writing into
 * it, which widens the window in which its link is cleared under it.
 * The cap stays below SMCX_WR_HELD_WAIT, so the clear's wait for such a
 * sender ends by the sender, not by the timeout.  0, the default: never.
 */
#define SMCX_WR_FAULT_DELAY_MAX	1500000U
static unsigned int smcx_wr_fault_slot_delay_us;
module_param_named(fault_slot_delay_us, smcx_wr_fault_slot_delay_us, uint,
		   0600);
MODULE_PARM_DESC(fault_slot_delay_us,
		 "tests only: sleep (us) after taking a send slot; 0: never");

#define SMCX_WR_KINDS		(SMCX_WR_KIND_LLC + 1)

/* receive handlers by message kind; filled at module init, then read-only */
static void (*smcx_wr_rx_handlers[SMCX_WR_KINDS])(struct smcx_link *lnk,
						  const u8 *buf, u32 len)
	__ro_after_init;

int smcx_wr_rx_register(int kind,
			void (*fn)(struct smcx_link *lnk, const u8 *buf,
				   u32 len))
{
	if (kind <= SMCX_WR_KIND_UNKNOWN || kind >= SMCX_WR_KINDS || !fn)
		return -EINVAL;
	if (smcx_wr_rx_handlers[kind])
		return -EBUSY;
	smcx_wr_rx_handlers[kind] = fn;
	return 0;
}

static void (*smcx_wr_imm_handler)(struct smcx_link *lnk, u32 imm, u32 len)
	__ro_after_init;

int smcx_wr_imm_register(void (*fn)(struct smcx_link *lnk, u32 imm, u32 len))
{
	if (!fn)
		return -EINVAL;
	if (smcx_wr_imm_handler)
		return -EBUSY;
	smcx_wr_imm_handler = fn;
	return 0;
}

static void smcx_wr_tx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smcx_tx_slot *slot = container_of(wc->wr_cqe,
						 struct smcx_tx_slot, cqe);
	struct smcx_link *lnk = slot->lnk;
	bool ok = wc->status == IB_WC_SUCCESS;

	if (!ok && wc->status != IB_WC_WR_FLUSH_ERR)
		pr_info("send completion: %s\n", ib_wc_status_msg(wc->status));
	if (slot->done)
		slot->done(slot, ok);
	/* the peer acknowledges again: quiesces may wait again (link.h) */
	if (ok && unlikely(READ_ONCE(lnk->tx_slow)))
		WRITE_ONCE(lnk->tx_slow, false);
	smcx_wr_slot_put(slot);
	if (!ok && lnk->state != SMCX_LNK_DEAD)
		smcx_lgr_link_down(lnk, "send completion error");
}

/*
 * The slot buffers' lifetime.  A sender writes its slot's buffer (and an
 * LLC sender tx_long) after taking the slot and before its POST section,
 * which turns it away once the link is DEAD; it then gives the slot back.
 * So link clear waits for every slot handed out (tx_held) after the drain
 * (smcx_wr_wait_held()), and the buffers are freed with the link's other
 * objects (smcx_wr_clear()).  A sender still out after that bounded wait
 * keeps them alive: the clear marks them orphaned and the last
 * smcx_wr_slot_put() frees them, while the link slot is not recycled.
 */
struct smcx_tx_slot *smcx_wr_slot_get(struct smcx_link *lnk, bool wait)
{
	struct smcx_tx_slot *slot = NULL;
	unsigned long flags;
	unsigned int delay;
	int i;

	for (;;) {
		spin_lock_irqsave(&lnk->tx_lock, flags);
		if (lnk->state == SMCX_LNK_DEAD) {
			spin_unlock_irqrestore(&lnk->tx_lock, flags);
			return NULL;
		}
		i = lnk->tx_quiesce ? SMCX_WR_SLOTS :
				      find_first_bit(&lnk->tx_free, SMCX_WR_SLOTS);
		if (i < SMCX_WR_SLOTS) {
			__clear_bit(i, &lnk->tx_free);
			slot = &lnk->tx[i];
			lnk->tx_held++;
		}
		spin_unlock_irqrestore(&lnk->tx_lock, flags);
		if (slot)
			break;
		if (!wait)
			return NULL;	/* all busy (DELETE_LINK at teardown) */
		if (smcx_wr_wait(lnk,
				 (READ_ONCE(lnk->tx_free) &&
				  !READ_ONCE(lnk->tx_quiesce)) ||
				 READ_ONCE(lnk->state) == SMCX_LNK_DEAD,
				 10 * HZ) == 0)
			return NULL;
	}
	delay = READ_ONCE(smcx_wr_fault_slot_delay_us);
	if (unlikely(delay) && wait)
		fsleep(min(delay, SMCX_WR_FAULT_DELAY_MAX));
	slot->done = NULL;
	slot->owner = NULL;
	slot->tx_upto = 0;
	slot->closing = false;
	WRITE_ONCE(slot->taken, jiffies);
	/*
	 * slot->buf is not cleared: a slot sends only what an encoder wrote
	 * (smcx_cdc_encode() and smcx_llc_encode() clear the length they
	 * return), and a WRITE WITH IMMEDIATE sends none of it.
	 */
	return slot;
}

void smcx_wr_slot_put(struct smcx_tx_slot *slot)
{
	struct smcx_link *lnk = slot->lnk;
	u8 *bufs = NULL, *lng = NULL;
	unsigned long flags;
	bool wake;

	spin_lock_irqsave(&lnk->tx_lock, flags);
	__set_bit(slot - lnk->tx, &lnk->tx_free);
	if (!--lnk->tx_held && lnk->tx_orphan) {
		/* the last holder of a cleared link's slots (see above) */
		bufs = lnk->tx_bufs;
		lng = lnk->tx_long;
		lnk->tx_bufs = NULL;
		lnk->tx_long = NULL;
		lnk->tx_orphan = false;
	}
	/*
	 * Most puts have no waiter: no wake-up then.  Waiters count
	 * themselves under this lock before they test (smcx_wr_wait()), so
	 * the lock orders the free bit and tx_held above against their test
	 * and no barrier is needed.
	 */
	wake = lnk->tx_sleepers;
	spin_unlock_irqrestore(&lnk->tx_lock, flags);
	if (wake)
		wake_up(&lnk->tx_wait);
	kfree(bufs);
	kfree(lng);
}

bool smcx_wr_wait_held(struct smcx_link *lnk)
{
	return smcx_wr_wait(lnk, !READ_ONCE(lnk->tx_held),
			    SMCX_WR_HELD_WAIT) != 0;
}

/*
 * Empty the send queue and keep it so: no slot is handed out from here on,
 * and this returns once every slot is back (every WR posted before has
 * completed: all of them sit in front of some slot's signalled SEND) and
 * claimed, or -ENOLINK.  For a REG_MR, which rxe executes again when a
 * retransmission rewinds the send queue to an unacknowledged WR in front
 * of it: the second run finds the MR valid already, fails, and puts the
 * QP in the error state (rxe_reg_fast_mr "not free"; many simultaneous
 * connects make such a rewind likely).  On an idle queue nothing is in
 * front of it.  Caller holds the link's reg_mutex.
 *
 * A peer that acknowledges slowly (posts its receives late, review N5)
 * keeps a slot out for seconds at a time, and every quiesce would wait
 * the full SMCX_REG_WAIT while holding the group's conf_mutex.  After one
 * such timeout the link is marked slow (tx_slow) until a send completes,
 * and quiesces fail at once meanwhile.  The wait also ends when *@abort
 * (the handshake's smc->aborting) is set, looked at every
 * SMCX_QUIESCE_POLL, so that cancelling the handshake is prompt.
 */
int smcx_wr_quiesce(struct smcx_link *lnk, const bool *abort)
{
	unsigned long end = jiffies + SMCX_REG_WAIT;
	bool aborted = false;
	unsigned long flags;
	bool idle;
	int i;

	if (READ_ONCE(lnk->tx_slow))
		return -EAGAIN;
	spin_lock_irqsave(&lnk->tx_lock, flags);
	lnk->tx_quiesce = true;
	spin_unlock_irqrestore(&lnk->tx_lock, flags);
	while (!smcx_wr_wait(lnk,
			     READ_ONCE(lnk->tx_free) == SMCX_WR_ALL_FREE ||
			     READ_ONCE(lnk->state) == SMCX_LNK_DEAD,
			     SMCX_QUIESCE_POLL)) {
		aborted = abort && READ_ONCE(*abort);
		if (aborted || time_after_eq(jiffies, end))
			break;
	}
	spin_lock_irqsave(&lnk->tx_lock, flags);
	idle = lnk->tx_free == SMCX_WR_ALL_FREE &&
	       lnk->state != SMCX_LNK_DEAD;
	if (idle) {
		lnk->tx_free = 0;
		for (i = 0; i < SMCX_WR_SLOTS; i++)
			lnk->tx[i].taken = jiffies;
	}
	lnk->tx_quiesce = false;
	spin_unlock_irqrestore(&lnk->tx_lock, flags);
	if (idle)
		return 0;
	wake_up_all(&lnk->tx_wait);
	if (READ_ONCE(lnk->state) == SMCX_LNK_DEAD)
		return -ENOLINK;
	if (aborted)
		return -ECONNABORTED;
	WRITE_ONCE(lnk->tx_slow, true);
	pr_info_ratelimited("link %u: send queue not idle for a REG_MR: slow\n",
			    lnk->link_id);
	return -EAGAIN;
}

void smcx_wr_unquiesce(struct smcx_link *lnk)
{
	unsigned long flags;

	spin_lock_irqsave(&lnk->tx_lock, flags);
	lnk->tx_free = SMCX_WR_ALL_FREE;
	spin_unlock_irqrestore(&lnk->tx_lock, flags);
	wake_up_all(&lnk->tx_wait);
}

/*
 * Post the chain @first on @lnk's QP, inside the link's POST section (the
 * device is there until it is left); first the device's view of the send
 * buffer range the chain's WRITEs read (@sync_len bytes at @sync_dma) and
 * of a slot's message (@slot_len bytes at @slot_dma; 0 when inline or
 * none).  A post that fails takes the link down.
 */
static int smcx_wr_post(struct smcx_link *lnk, struct ib_send_wr *first,
			u64 sync_dma, u32 sync_len, u64 slot_dma, u32 slot_len)
{
	unsigned long flags = 0;
	bool bh = !in_task();
	int rc;

	/*
	 * A push from a completion (softirq, tx.c smcx_tx_kick()) cannot
	 * enter the POST section (an rwsem): it posts under tx_lock, under
	 * which link clear sets SMCX_LNK_DEAD.  A post that found the link
	 * usable there is on the QP before the drain starts (the drain
	 * flushes it), and the buffers stay mapped until after the drain.
	 */
	if (bh) {
		spin_lock_irqsave(&lnk->tx_lock, flags);
		if (!smcx_link_usable(lnk) || !lnk->qp) {
			spin_unlock_irqrestore(&lnk->tx_lock, flags);
			return -ENOLINK;
		}
	} else if (!smcx_link_enter(lnk, SMCX_LNK_POST)) {
		return -ENOLINK;
	}
	if (sync_len)
		ib_dma_sync_single_for_device(lnk->ibdev, sync_dma, sync_len,
					      DMA_TO_DEVICE);
	if (slot_len)
		ib_dma_sync_single_for_device(lnk->ibdev, slot_dma, slot_len,
					      DMA_TO_DEVICE);
	rc = ib_post_send(lnk->qp, first, NULL);
	if (bh)
		spin_unlock_irqrestore(&lnk->tx_lock, flags);
	else
		smcx_link_leave(lnk);
	if (rc) {
		pr_info("ib_post_send: %d\n", rc);
		smcx_lgr_link_down(lnk, "ib_post_send failed");
	}
	return rc;
}

/*
 * Post @first (may be NULL: RDMA WRITEs) followed by the slot's SEND, after
 * syncing the slot and @sync_len bytes at @sync_dma (the data the WRITEs
 * read) for the device.  All of it inside one SMCX_LNK_POST section: a
 * link that died since the slot was taken is not touched (-ENOLINK; the
 * caller still owns the slot).
 */
int smcx_wr_send_data(struct smcx_tx_slot *slot, u32 len,
		      struct ib_send_wr *first, u64 sync_dma, u32 sync_len)
{
	struct smcx_link *lnk = slot->lnk;
	struct ib_sge sge = {
		.addr = slot->dma, .length = len, .lkey = lnk->lkey,
	};
	struct ib_send_wr wr = {
		.wr_cqe = &slot->cqe, .sg_list = &sge, .num_sge = 1,
		.opcode = IB_WR_SEND, .send_flags = IB_SEND_SIGNALED,
	};
	struct ib_send_wr *w;

	smcx_wr_inline(lnk, &wr, slot->buf);
	if (first) {
		for (w = first; w->next; w = w->next)
			;
		w->next = &wr;
	} else {
		first = &wr;
	}
	return smcx_wr_post(lnk, first, sync_dma, sync_len, slot->dma,
			    wr.send_flags & IB_SEND_INLINE ? 0 : len);
}

/*
 * An inline send carries its data in the work request: the device copies
 * it from the CPU's view when the request is posted (rxe in
 * ib_post_send()), so the SGE holds the kernel address, no lkey is used
 * and no DMA sync is needed for it.  The buffer may be reused as soon as
 * the post returns.
 */
void smcx_wr_inline(struct smcx_link *lnk, struct ib_send_wr *wr, void *va)
{
	if (wr->num_sge != 1 || !wr->sg_list[0].length ||
	    wr->sg_list[0].length > lnk->max_inline)
		return;
	wr->sg_list[0].addr = (uintptr_t)va;
	wr->send_flags |= IB_SEND_INLINE;
}

int smcx_wr_send_imm(struct smcx_tx_slot *slot, struct ib_rdma_wr *wr,
		     u64 sync_dma, u32 sync_len)
{
	wr->wr.next = NULL;
	wr->wr.wr_cqe = &slot->cqe;
	wr->wr.opcode = IB_WR_RDMA_WRITE_WITH_IMM;
	wr->wr.send_flags |= IB_SEND_SIGNALED;	/* and inline, if it is */
	return smcx_wr_post(slot->lnk, &wr->wr, sync_dma, sync_len, 0, 0);
}

int smcx_wr_send(struct smcx_tx_slot *slot, u32 len, struct ib_send_wr *first)
{
	return smcx_wr_send_data(slot, len, first, 0, 0);
}

int smcx_wr_send_long(struct smcx_tx_slot *slot, u32 len)
{
	struct smcx_link *lnk = slot->lnk;
	struct ib_sge sge = {
		.addr = lnk->tx_long_dma, .length = len, .lkey = lnk->lkey,
	};
	struct ib_send_wr wr = {
		.wr_cqe = &slot->cqe, .sg_list = &sge, .num_sge = 1,
		.opcode = IB_WR_SEND, .send_flags = IB_SEND_SIGNALED,
	};

	if (len > SMCX_WR_LONG_LEN)
		return -EINVAL;
	return smcx_wr_post(lnk, &wr, 0, 0, lnk->tx_long_dma, len);
}

static int smcx_wr_rx_post(struct smcx_rx_slot *rs)
{
	struct smcx_link *lnk = rs->lnk;
	struct ib_sge sge = {
		.addr = rs->dma, .length = SMCX_RX_BUFLEN, .lkey = lnk->lkey,
	};
	struct ib_recv_wr wr = {
		.wr_cqe = &rs->cqe, .sg_list = &sge, .num_sge = 1,
	};

	return ib_post_recv(lnk->qp, &wr, NULL);
}

static void smcx_wr_rx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smcx_rx_slot *rs = container_of(wc->wr_cqe, struct smcx_rx_slot,
					       cqe);
	struct smcx_link *lnk = rs->lnk;
	void (*fn)(struct smcx_link *lnk, const u8 *buf, u32 len);

	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			pr_info("receive completion: %s\n",
				ib_wc_status_msg(wc->status));
		if (lnk->state != SMCX_LNK_DEAD)
			smcx_lgr_link_down(lnk, "receive completion error");
		return;
	}
	WRITE_ONCE(lnk->rx_last, jiffies);
	if (wc->opcode == IB_WC_RECV_RDMA_WITH_IMM) {
		/*
		 * The data went to an RMB; the receive buffer is untouched
		 * and byte_len is the write's length, not the buffer's.
		 */
		if (smcx_wr_imm_handler)
			smcx_wr_imm_handler(lnk, be32_to_cpu(wc->ex.imm_data),
					    wc->byte_len);
		goto repost;
	}
	ib_dma_sync_single_for_cpu(lnk->ibdev, rs->dma, wc->byte_len,
				   DMA_FROM_DEVICE);
	if (wc->byte_len >= 1) {
		fn = smcx_wr_rx_handlers[smcx_wr_kind(rs->buf[0])];
		if (fn)
			fn(lnk, rs->buf, wc->byte_len);
	}
	ib_dma_sync_single_for_device(lnk->ibdev, rs->dma, SMCX_RX_BUFLEN,
				      DMA_FROM_DEVICE);
repost:
	if (lnk->state != SMCX_LNK_DEAD && smcx_wr_rx_post(rs))
		smcx_lgr_link_down(lnk, "ib_post_recv failed");
}

static void smcx_wr_write_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smcx_link *lnk = container_of(wc->wr_cqe, struct smcx_link,
					     write_cqe);

	/* only failures complete an unsignalled WRITE */
	if (wc->status != IB_WC_WR_FLUSH_ERR)
		pr_info("RDMA WRITE failed: %s\n", ib_wc_status_msg(wc->status));
	if (lnk->state != SMCX_LNK_DEAD)
		smcx_lgr_link_down(lnk, "RDMA WRITE error");
}

/*
 * The watchdog's test (lgr.c): a send slot taken longer than SMCX_TX_STALL
 * ago means its completion is not coming.
 */
bool smcx_wr_stalled(struct smcx_link *lnk)
{
	unsigned long flags, busy;
	bool stalled = false;
	int i;

	spin_lock_irqsave(&lnk->tx_lock, flags);
	busy = ~lnk->tx_free & SMCX_WR_ALL_FREE;
	for_each_set_bit(i, &busy, SMCX_WR_SLOTS)
		if (time_after(jiffies, READ_ONCE(lnk->tx[i].taken) +
					SMCX_TX_STALL))
			stalled = true;
	spin_unlock_irqrestore(&lnk->tx_lock, flags);
	return stalled;
}

/*
 * The slots' memory: the send buffers in one DMA-mapped block, a buffer
 * for each receive slot (mapped by smcx_wr_rx_start()).  On failure the
 * caller clears the link, which frees whatever was made.
 */
int smcx_wr_init(struct smcx_link *lnk)
{
	int i;

	lnk->write_cqe.done = smcx_wr_write_done;
	lnk->tx_bufs = kcalloc(SMCX_WR_SLOTS, SMCX_WR_SLOT_LEN, GFP_KERNEL);
	if (!lnk->tx_bufs)
		return -ENOMEM;
	lnk->tx_dma = ib_dma_map_single(lnk->ibdev, lnk->tx_bufs,
					SMCX_WR_SLOTS * SMCX_WR_SLOT_LEN,
					DMA_TO_DEVICE);
	if (ib_dma_mapping_error(lnk->ibdev, lnk->tx_dma)) {
		lnk->tx_dma = 0;
		return -ENOMEM;
	}
	lnk->tx_long = kzalloc(SMCX_WR_LONG_LEN, GFP_KERNEL);
	lnk->rx_rkeys = kzalloc(SMCX_LLC_ADD_LINK_RKEYS_MAX_V2 *
				SMCX_LLC_RT_LEN, GFP_KERNEL);
	if (!lnk->tx_long || !lnk->rx_rkeys)
		return -ENOMEM;
	lnk->tx_long_dma = ib_dma_map_single(lnk->ibdev, lnk->tx_long,
					     SMCX_WR_LONG_LEN, DMA_TO_DEVICE);
	if (ib_dma_mapping_error(lnk->ibdev, lnk->tx_long_dma)) {
		lnk->tx_long_dma = 0;
		return -ENOMEM;
	}
	for (i = 0; i < SMCX_RX_SLOTS; i++) {
		struct smcx_rx_slot *rs = &lnk->rx[i];

		rs->lnk = lnk;
		rs->buf = kmalloc(SMCX_RX_BUFLEN, GFP_KERNEL);
		if (!rs->buf)
			return -ENOMEM;
		rs->cqe.done = smcx_wr_rx_done;
	}
	for (i = 0; i < SMCX_WR_SLOTS; i++) {
		struct smcx_tx_slot *s = &lnk->tx[i];

		s->lnk = lnk;
		s->buf = lnk->tx_bufs + i * SMCX_WR_SLOT_LEN;
		s->dma = lnk->tx_dma + i * SMCX_WR_SLOT_LEN;
		s->cqe.done = smcx_wr_tx_done;
	}
	lnk->tx_free = SMCX_WR_ALL_FREE;
	return 0;
}

/* map and post every receive buffer; the QP is in INIT */
int smcx_wr_rx_start(struct smcx_link *lnk)
{
	int i, rc;

	for (i = 0; i < SMCX_RX_SLOTS; i++) {
		struct smcx_rx_slot *rs = &lnk->rx[i];

		rs->dma = ib_dma_map_single(lnk->ibdev, rs->buf, SMCX_RX_BUFLEN,
					    DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(lnk->ibdev, rs->dma)) {
			rs->dma = 0;
			return -ENOMEM;
		}
		rc = smcx_wr_rx_post(rs);
		if (rc)
			return rc;
	}
	return 0;
}

/* free what smcx_wr_init() and smcx_wr_rx_start() made; QP and CQ gone */
void smcx_wr_clear(struct smcx_link *lnk)
{
	u8 *rkeys, *bufs, *lng;
	unsigned long flags;
	int i;

	for (i = 0; i < SMCX_RX_SLOTS; i++) {
		if (lnk->rx[i].dma)
			ib_dma_unmap_single(lnk->ibdev, lnk->rx[i].dma,
					    SMCX_RX_BUFLEN, DMA_FROM_DEVICE);
		lnk->rx[i].dma = 0;
		kfree(lnk->rx[i].buf);
		lnk->rx[i].buf = NULL;
	}
	/* the device is done with them (drained); a late CPU write is not */
	if (lnk->tx_dma)
		ib_dma_unmap_single(lnk->ibdev, lnk->tx_dma,
				    SMCX_WR_SLOTS * SMCX_WR_SLOT_LEN,
				    DMA_TO_DEVICE);
	lnk->tx_dma = 0;
	if (lnk->tx_long_dma)
		ib_dma_unmap_single(lnk->ibdev, lnk->tx_long_dma,
				    SMCX_WR_LONG_LEN, DMA_TO_DEVICE);
	lnk->tx_long_dma = 0;
	spin_lock_irqsave(&lnk->tx_lock, flags);
	bufs = lnk->tx_held ? NULL : lnk->tx_bufs;
	lng = lnk->tx_held ? NULL : lnk->tx_long;
	if (lnk->tx_held) {
		lnk->tx_orphan = true;	/* the last slot put frees them */
	} else {
		lnk->tx_bufs = NULL;
		lnk->tx_long = NULL;
	}
	spin_unlock_irqrestore(&lnk->tx_lock, flags);
	kfree(bufs);
	kfree(lng);
	/*
	 * An add flow copies the key list under llc_lock (addlink.c
	 * smcx_addlink_learn()) without links_mutex: the link may be
	 * cleared and destroyed between its ADD_LINK exchange and that copy
	 * (terminate and down work do not take conf_mutex).  Taken away
	 * under the same lock, so the copy finds the list or NULL.
	 */
	spin_lock_bh(&lnk->llc_lock);
	rkeys = lnk->rx_rkeys;
	lnk->rx_rkeys = NULL;
	lnk->rx_nrkeys = 0;
	spin_unlock_bh(&lnk->llc_lock);
	kfree(rkeys);
}
