// SPDX-License-Identifier: GPL-2.0
/*
 * SMC-R link groups, their link (PD, CQ, RC QP, bounded send slots, receive
 * buffers) and their buffers (send buffers, RMBs with a REG_MR'd MR).
 * See smcr.h for the shape and docs/kernel-datapath.md for the flows.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/gfp.h>
#include <linux/unaligned.h>
#include <rdma/ib_cache.h>

#include "obj.h"
#include "sock.h"
#include "smcr.h"

int smcx_smcr_enabled = 1;
module_param_named(smcr, smcx_smcr_enabled, int, 0644);
MODULE_PARM_DESC(smcr,
		 "1 (default): SMC-R data path; 0: decline every proposal (TCP)");

/*
 * Idle link groups linger as in mainline: 10 minutes on the server, 10 s
 * more on the client.  The server frees first and tells the client with
 * DELETE_LINK; the client, which cannot know whether the server just
 * offered the group to a new connection, keeps it until the server let go.
 * (With a 2 s linger on an smcx client, the stock server terminated a group
 * under a connection it had just added and hung in smc_conn_kill() waiting
 * for CDC completions: seen in the lab on 6.12.)
 */
static unsigned int smcx_lgr_linger_ms = 600 * MSEC_PER_SEC;
module_param_named(lgr_linger_ms, smcx_lgr_linger_ms, uint, 0644);
MODULE_PARM_DESC(lgr_linger_ms,
		 "idle link groups are freed after this time (server; client +10 s)");
#define SMCX_LGR_LINGER_CLNT_EXTRA_MS	(10 * MSEC_PER_SEC)

u8 smcx_systemid[SMCX_PEERID_LEN];

static LIST_HEAD(smcx_lgrs);
static DEFINE_MUTEX(smcx_lgrs_mutex);
static struct notifier_block smcx_lgr_ib_nb;

/* mainline's compressed notation: 16 KiB << n */
u8 smcx_compress_bufsize(u32 size)
{
	if (size <= SMCX_BUF_MIN)
		return 0;
	return min_t(u8, ilog2((size - 1) >> 14) + 1, 5);
}

u32 smcx_uncompress_bufsize(u8 c)
{
	return 1U << (c + 14);
}

/* ---------------------------------------------------------------- WR */

static void smcx_wr_tx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smcx_tx_slot *slot = container_of(wc->wr_cqe,
						 struct smcx_tx_slot, cqe);
	struct smcx_link *lnk = slot->lnk;
	bool ok = wc->status == IB_WC_SUCCESS;

	if (!ok && wc->status != IB_WC_WR_FLUSH_ERR)
		pr_info("send completion: %s\n", ib_wc_status_msg(wc->status));
	smcx_cdc_tx_done(slot, ok);
	smcx_wr_slot_put(slot);
	if (!ok && lnk->state != SMCX_LNK_DEAD)
		smcx_lgr_terminate_async(lnk->lgr, "send completion error");
}

struct smcx_tx_slot *smcx_wr_slot_get(struct smcx_link *lnk, bool wait)
{
	struct smcx_tx_slot *slot = NULL;
	unsigned long flags;
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
			clear_bit(i, &lnk->tx_free);
			slot = &lnk->tx[i];
		}
		spin_unlock_irqrestore(&lnk->tx_lock, flags);
		if (slot)
			break;
		if (!wait)
			return NULL;	/* all busy (DELETE_LINK at teardown) */
		if (wait_event_timeout(lnk->tx_wait,
				       (READ_ONCE(lnk->tx_free) &&
					!READ_ONCE(lnk->tx_quiesce)) ||
				       READ_ONCE(lnk->state) == SMCX_LNK_DEAD,
				       10 * HZ) == 0)
			return NULL;
	}
	slot->smc = NULL;
	slot->tx_upto = 0;
	WRITE_ONCE(slot->taken, jiffies);
	memset(slot->buf, 0, SMCX_WR_SLOT_LEN);
	return slot;
}

void smcx_wr_slot_put(struct smcx_tx_slot *slot)
{
	struct smcx_link *lnk = slot->lnk;
	unsigned long flags;

	spin_lock_irqsave(&lnk->tx_lock, flags);
	set_bit(slot - lnk->tx, &lnk->tx_free);
	spin_unlock_irqrestore(&lnk->tx_lock, flags);
	wake_up(&lnk->tx_wait);
}

/*
 * Empty the send queue and keep it so: no slot is handed out from here on,
 * and this returns once every slot is back (every WR posted before has
 * completed: all of them sit in front of some slot's signalled SEND) and
 * claimed, or -ENOLINK.  For a REG_MR, which rxe executes again when a
 * retransmission rewinds the send queue to an unacknowledged WR in front
 * of it: the second run finds the MR valid already, fails, and puts the
 * QP in the error state (rxe_reg_fast_mr "not free", seen in the lab under
 * 64 simultaneous connects).  On an idle queue nothing is in front of it.
 * Caller holds the link's reg_mutex.
 */
static int smcx_wr_quiesce(struct smcx_link *lnk)
{
	unsigned long flags;
	bool idle;
	int i;

	spin_lock_irqsave(&lnk->tx_lock, flags);
	lnk->tx_quiesce = true;
	spin_unlock_irqrestore(&lnk->tx_lock, flags);
	wait_event_timeout(lnk->tx_wait,
			   READ_ONCE(lnk->tx_free) == SMCX_WR_ALL_FREE ||
			   READ_ONCE(lnk->state) == SMCX_LNK_DEAD,
			   SMCX_REG_WAIT);
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
	if (!idle)
		wake_up_all(&lnk->tx_wait);
	return idle ? 0 : -ENOLINK;
}

static void smcx_wr_unquiesce(struct smcx_link *lnk)
{
	unsigned long flags;

	spin_lock_irqsave(&lnk->tx_lock, flags);
	lnk->tx_free = SMCX_WR_ALL_FREE;
	spin_unlock_irqrestore(&lnk->tx_lock, flags);
	wake_up_all(&lnk->tx_wait);
}

/* post @first (may be NULL: RDMA WRITEs) followed by the slot's SEND */
int smcx_wr_send(struct smcx_tx_slot *slot, u32 len, struct ib_send_wr *first)
{
	struct smcx_link *lnk = slot->lnk;
	struct ib_sge sge = {
		.addr = slot->dma, .length = len, .lkey = lnk->pd->local_dma_lkey,
	};
	struct ib_send_wr wr = {
		.wr_cqe = &slot->cqe, .sg_list = &sge, .num_sge = 1,
		.opcode = IB_WR_SEND, .send_flags = IB_SEND_SIGNALED,
	};
	struct ib_send_wr *w;
	int rc;

	ib_dma_sync_single_for_device(lnk->ibdev, slot->dma, len, DMA_TO_DEVICE);
	if (first) {
		for (w = first; w->next; w = w->next)
			;
		w->next = &wr;
	} else {
		first = &wr;
	}
	rc = ib_post_send(lnk->qp, first, NULL);
	if (rc) {
		pr_info("ib_post_send: %d\n", rc);
		smcx_lgr_terminate_async(lnk->lgr, "ib_post_send failed");
	}
	return rc;
}

static void smcx_wr_rx_done(struct ib_cq *cq, struct ib_wc *wc);

static int smcx_wr_rx_post(struct smcx_rx_slot *rs)
{
	struct smcx_link *lnk = rs->lnk;
	struct ib_sge sge = {
		.addr = rs->dma, .length = SMCX_RX_BUFLEN,
		.lkey = lnk->pd->local_dma_lkey,
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

	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			pr_info("receive completion: %s\n",
				ib_wc_status_msg(wc->status));
		if (lnk->state != SMCX_LNK_DEAD)
			smcx_lgr_terminate_async(lnk->lgr, "receive completion error");
		return;
	}
	ib_dma_sync_single_for_cpu(lnk->ibdev, rs->dma, wc->byte_len,
				   DMA_FROM_DEVICE);
	if (wc->byte_len >= 1) {
		switch (smcx_wr_kind(rs->buf[0])) {
		case SMCX_WR_KIND_CDC:
			smcx_cdc_rx(lnk, rs->buf, wc->byte_len);
			break;
		case SMCX_WR_KIND_LLC:
			smcx_llc_rx(lnk, rs->buf, wc->byte_len);
			break;
		default:
			break;
		}
	}
	ib_dma_sync_single_for_device(lnk->ibdev, rs->dma, SMCX_RX_BUFLEN,
				      DMA_FROM_DEVICE);
	if (lnk->state != SMCX_LNK_DEAD && smcx_wr_rx_post(rs))
		smcx_lgr_terminate_async(lnk->lgr, "ib_post_recv failed");
}

static void smcx_wr_write_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smcx_link *lnk = container_of(wc->wr_cqe, struct smcx_link,
					     write_cqe);

	/* only failures complete an unsignalled WRITE */
	if (wc->status != IB_WC_WR_FLUSH_ERR)
		pr_info("RDMA WRITE failed: %s\n", ib_wc_status_msg(wc->status));
	if (lnk->state != SMCX_LNK_DEAD)
		smcx_lgr_terminate_async(lnk->lgr, "RDMA WRITE error");
}

static void smcx_wr_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smcx_buf *b = container_of(wc->wr_cqe, struct smcx_buf, reg_cqe);

	b->reg_status = wc->status == IB_WC_SUCCESS ? 0 : -EIO;
	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR)
		pr_info("REG_MR: %s\n", ib_wc_status_msg(wc->status));
	WRITE_ONCE(b->reg_pending, false);
	complete(&b->reg_done);
}

/*
 * Asynchronous QP events.  A responder that rejects a request (an RDMA
 * WRITE with an rkey or range we never gave out, a malformed packet) moves
 * the QP to the error state without completing any of our work requests
 * with an error: what follows are flushes only.  Say which it was and end
 * the group now rather than at the first flushed completion.
 */
static void smcx_qp_event(struct ib_event *ev, void *ctx)
{
	struct smcx_link *lnk = ctx;

	switch (ev->event) {
	case IB_EVENT_QP_FATAL:
	case IB_EVENT_QP_REQ_ERR:
	case IB_EVENT_QP_ACCESS_ERR:
	case IB_EVENT_PATH_MIG_ERR:
		pr_info("link group %*phN: QP %u: %s\n",
			(int)sizeof(lnk->lgr->id), lnk->lgr->id,
			lnk->qp ? lnk->qp->qp_num : 0, ib_event_msg(ev->event));
		if (READ_ONCE(lnk->state) != SMCX_LNK_DEAD)
			smcx_lgr_terminate_async(lnk->lgr, ib_event_msg(ev->event));
		break;
	default:
		break;
	}
}

/* ------------------------------------------------------------- buffers */

static void smcx_buf_unmap(struct smcx_link *lnk, struct smcx_buf *b)
{
	if (b->mr) {
		ib_dereg_mr(b->mr);
		b->mr = NULL;
		smcx_obj_dec(SMCX_OBJ_MR);
	}
	if (b->mapped) {
		ib_dma_unmap_single(lnk->ibdev, b->dma, b->size,
				    DMA_BIDIRECTIONAL);
		b->mapped = false;
	}
}

static void smcx_buf_free(struct smcx_buf *b)
{
	free_pages((unsigned long)b->cpu, get_order(b->size));
	kfree(b);
	smcx_obj_dec(SMCX_OBJ_BUF);
}

static struct smcx_buf *smcx_buf_new(struct smcx_lgr *lgr, u32 size, bool rmb)
{
	struct smcx_link *lnk = &lgr->lnk;
	struct scatterlist sg;
	struct smcx_buf *b;
	int n;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return NULL;
	b->cpu = (void *)__get_free_pages(GFP_KERNEL | __GFP_NOWARN |
					  __GFP_NORETRY | __GFP_ZERO,
					  get_order(size));
	if (!b->cpu) {
		kfree(b);
		return NULL;
	}
	smcx_obj_inc(SMCX_OBJ_BUF);
	b->reg_cqe.done = smcx_wr_reg_done;
	init_completion(&b->reg_done);
	b->size = size;
	b->rmb = rmb;
	b->dma = ib_dma_map_single(lnk->ibdev, b->cpu, size, DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(lnk->ibdev, b->dma))
		goto err;
	b->mapped = true;
	if (rmb) {
		b->mr = ib_alloc_mr(lnk->pd, IB_MR_TYPE_MEM_REG,
				    size >> PAGE_SHIFT);
		if (IS_ERR(b->mr)) {
			b->mr = NULL;
			goto err;
		}
		smcx_obj_inc(SMCX_OBJ_MR);
		sg_init_table(&sg, 1);
		sg_dma_address(&sg) = b->dma;
		sg_dma_len(&sg) = size;
		n = ib_map_mr_sg(b->mr, &sg, 1, NULL, PAGE_SIZE);
		if (n != 1)
			goto err;
	}
	return b;
err:
	smcx_buf_unmap(lnk, b);
	smcx_buf_free(b);
	return NULL;
}

/* a free buffer of @size from the link group's pool, or a new one */
struct smcx_buf *smcx_buf_get(struct smcx_lgr *lgr, u32 size, bool rmb)
{
	struct smcx_buf *b;

	mutex_lock(&lgr->mutex);
	list_for_each_entry(b, &lgr->bufs, list) {
		if (!b->used && b->rmb == rmb && b->size == size) {
			b->used = true;
			mutex_unlock(&lgr->mutex);
			smcx_stats_buf_get(lgr->net, rmb, size, true);
			memset(b->cpu, 0, b->size);
			return b;
		}
	}
	b = lgr->dead ? NULL : smcx_buf_new(lgr, size, rmb);
	if (b) {
		b->used = true;
		list_add_tail(&b->list, &lgr->bufs);
	}
	mutex_unlock(&lgr->mutex);
	if (b)
		smcx_stats_buf_get(lgr->net, rmb, size, false);
	return b;
}

void smcx_buf_put(struct smcx_lgr *lgr, struct smcx_buf *b)
{
	mutex_lock(&lgr->mutex);
	b->used = false;
	mutex_unlock(&lgr->mutex);
	smcx_stats_buf_put(lgr->net, b->rmb, b->size);
}

/*
 * Register an RMB for remote write on the link, once per buffer, before its
 * rkey goes out in a CLC message: the peer may write as soon as it has it.
 * A REG_MR completes only after every WR posted before it, so a busy link
 * delays it; one that has not completed in SMCX_REG_WAIT means a stuck
 * link, which ends the group (mainline: link down after its wait too).
 */
int smcx_buf_reg(struct smcx_link *lnk, struct smcx_buf *b)
{
	struct ib_reg_wr wr = {
		.wr = {
			.opcode = IB_WR_REG_MR,
			.wr_cqe = &b->reg_cqe,
			.send_flags = IB_SEND_SIGNALED,
		},
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	};
	int rc;

	if (b->reg)
		return 0;
	mutex_lock(&lnk->reg_mutex);
	/* a link being torn down: its QP and MRs may be gone already */
	if (READ_ONCE(lnk->state) == SMCX_LNK_DEAD || !lnk->qp || !b->mr) {
		rc = -ENOLINK;
		goto out;
	}
	/* an earlier REG_MR of this buffer never completed: group ending */
	if (READ_ONCE(b->reg_pending)) {
		rc = -EBUSY;
		goto out;
	}
	wr.mr = b->mr;
	wr.key = b->mr->rkey;
	rc = smcx_wr_quiesce(lnk);
	if (rc)
		goto out;
	reinit_completion(&b->reg_done);
	b->reg_pending = true;
	rc = ib_post_send(lnk->qp, &wr.wr, NULL);
	if (rc)
		b->reg_pending = false;
	else if (!wait_for_completion_timeout(&b->reg_done, SMCX_REG_WAIT))
		rc = -ETIMEDOUT;	/* the drain at teardown completes it */
	else
		rc = b->reg_status;
	smcx_wr_unquiesce(lnk);
	if (rc == -ETIMEDOUT)
		smcx_lgr_terminate_async(lnk->lgr, "REG_MR timed out");
	if (!rc)
		b->reg = true;
out:
	mutex_unlock(&lnk->reg_mutex);
	return rc;
}

/* ---------------------------------------------------------------- link */

static int smcx_link_init(struct smcx_lgr *lgr, struct smcx_ib_choice *c)
{
	struct smcx_link *lnk = &lgr->lnk;
	struct ib_qp_init_attr qa = {};
	struct ib_qp_attr attr = {};
	struct ib_port_attr pattr;
	int i, rc;

	lnk->lgr = lgr;
	lnk->ibdev = c->dev->ibdev;
	lnk->port = c->port;
	lnk->gid_index = c->gid_index;
	memcpy(lnk->gid, c->gid.raw, SMCX_GID_LEN);
	memcpy(lnk->mac, c->mac, ETH_ALEN);
	spin_lock_init(&lnk->tx_lock);
	init_waitqueue_head(&lnk->tx_wait);
	spin_lock_init(&lnk->llc_lock);
	init_waitqueue_head(&lnk->llc_wait);
	INIT_LIST_HEAD(&lnk->llc_queue);
	INIT_WORK(&lnk->llc_work, smcx_llc_work);
	mutex_init(&lnk->reg_mutex);
	mutex_init(&lnk->llc_flow);
	lnk->write_cqe.done = smcx_wr_write_done;
	lnk->psn = get_random_u32() & 0xffffff;
	lnk->link_id = 1;
	put_unaligned_be32(get_unaligned_be32(lgr->id) + lnk->link_id,
			   lnk->link_uid);

	rc = ib_query_port(lnk->ibdev, lnk->port, &pattr);
	if (rc)
		return rc;
	lnk->mtu = pattr.active_mtu;

	lnk->pd = ib_alloc_pd(lnk->ibdev, 0);
	if (IS_ERR(lnk->pd)) {
		rc = PTR_ERR(lnk->pd);
		lnk->pd = NULL;
		return rc;
	}
	smcx_obj_inc(SMCX_OBJ_PD);
	lnk->cq = ib_alloc_cq(lnk->ibdev, lnk, SMCX_WR_SLOTS * 4 +
			      SMCX_RX_SLOTS + 8, 0, IB_POLL_SOFTIRQ);
	if (IS_ERR(lnk->cq)) {
		rc = PTR_ERR(lnk->cq);
		lnk->cq = NULL;
		return rc;
	}
	smcx_obj_inc(SMCX_OBJ_CQ);
	qa.event_handler = smcx_qp_event;
	qa.qp_context = lnk;
	qa.send_cq = lnk->cq;
	qa.recv_cq = lnk->cq;
	qa.qp_type = IB_QPT_RC;
	qa.sq_sig_type = IB_SIGNAL_REQ_WR;
	/* per slot: up to 3 RDMA WRITEs and the CDC; plus REG_MR, drain */
	qa.cap.max_send_wr = SMCX_WR_SLOTS * 4 + 4;
	qa.cap.max_recv_wr = SMCX_RX_SLOTS + 2;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	lnk->qp = ib_create_qp(lnk->pd, &qa);
	if (IS_ERR(lnk->qp)) {
		rc = PTR_ERR(lnk->qp);
		lnk->qp = NULL;
		return rc;
	}
	smcx_obj_inc(SMCX_OBJ_QP);

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

	attr.qp_state = IB_QPS_INIT;
	attr.pkey_index = 0;
	attr.port_num = lnk->port;
	attr.qp_access_flags = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	rc = ib_modify_qp(lnk->qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			  IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (rc)
		return rc;
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
	smcx_ibdev_link_add(lgr->dev, lnk->port);
	lnk->linked = true;
	smcx_obj_inc(SMCX_OBJ_LINK);
	return 0;
}

/* peer info saved: RTR and RTS */
int smcx_link_ready(struct smcx_link *lnk)
{
	struct ib_qp_attr attr = {};
	int rc;

	lnk->path_mtu = min_t(u8, lnk->mtu, lnk->peer_mtu ?: lnk->mtu);
	attr.qp_state = IB_QPS_RTR;
	attr.path_mtu = lnk->path_mtu;
	attr.ah_attr.type = rdma_ah_find_type(lnk->ibdev, lnk->port);
	rdma_ah_set_port_num(&attr.ah_attr, lnk->port);
	rdma_ah_set_grh(&attr.ah_attr, NULL, 0, lnk->gid_index, 64, 0);
	rdma_ah_set_dgid_raw(&attr.ah_attr, lnk->peer_gid);
	memcpy(attr.ah_attr.roce.dmac, lnk->peer_mac, ETH_ALEN);
	attr.dest_qp_num = lnk->peer_qpn;
	attr.rq_psn = lnk->peer_psn;
	attr.max_dest_rd_atomic = 1;
	attr.min_rnr_timer = 5;		/* as mainline SMC_QP_MIN_RNR_TIMER */
	rc = ib_modify_qp(lnk->qp, &attr, IB_QP_STATE | IB_QP_AV |
			  IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			  IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (rc)
		return rc;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.timeout = 15;		/* mainline SMC_QP_TIMEOUT */
	attr.retry_cnt = 7;
	attr.rnr_retry = 7;		/* infinite */
	attr.sq_psn = lnk->psn;
	attr.max_rd_atomic = 1;
	return ib_modify_qp(lnk->qp, &attr, IB_QP_STATE | IB_QP_TIMEOUT |
			    IB_QP_RETRY_CNT | IB_QP_SQ_PSN | IB_QP_RNR_RETRY |
			    IB_QP_MAX_QP_RD_ATOMIC);
}

/* tear the verbs objects down; process context */
static void smcx_link_clear(struct smcx_link *lnk)
{
	struct smcx_lgr *lgr = lnk->lgr;
	struct smcx_buf *b;
	int i;

	spin_lock_bh(&lnk->tx_lock);
	WRITE_ONCE(lnk->state, SMCX_LNK_DEAD);
	spin_unlock_bh(&lnk->tx_lock);
	wake_up_all(&lnk->tx_wait);
	wake_up_all(&lnk->llc_wait);
	if (lnk->qp) {
		/* flush everything posted; completions return slots, refs */
		ib_drain_qp(lnk->qp);
	}
	/*
	 * A registration that saw the link alive has posted and is waiting
	 * for the completion just given; let it finish before its MR and the
	 * QP go.  Later ones see SMCX_LNK_DEAD and give up.  (A handshake
	 * registering its RMB while the group terminated oopsed on the NULL
	 * QP: seen in the lab.)
	 */
	mutex_lock(&lnk->reg_mutex);
	mutex_unlock(&lnk->reg_mutex);
	cancel_work_sync(&lnk->llc_work);
	smcx_llc_flush(lnk);
	list_for_each_entry(b, &lgr->bufs, list)
		smcx_buf_unmap(lnk, b);
	if (lnk->qp) {
		ib_destroy_qp(lnk->qp);
		lnk->qp = NULL;
		smcx_obj_dec(SMCX_OBJ_QP);
	}
	if (lnk->cq) {
		ib_free_cq(lnk->cq);
		lnk->cq = NULL;
		smcx_obj_dec(SMCX_OBJ_CQ);
	}
	for (i = 0; i < SMCX_RX_SLOTS; i++) {
		if (lnk->rx[i].dma)
			ib_dma_unmap_single(lnk->ibdev, lnk->rx[i].dma,
					    SMCX_RX_BUFLEN, DMA_FROM_DEVICE);
		lnk->rx[i].dma = 0;
		kfree(lnk->rx[i].buf);
		lnk->rx[i].buf = NULL;
	}
	if (lnk->tx_dma)
		ib_dma_unmap_single(lnk->ibdev, lnk->tx_dma,
				    SMCX_WR_SLOTS * SMCX_WR_SLOT_LEN,
				    DMA_TO_DEVICE);
	kfree(lnk->tx_bufs);
	lnk->tx_bufs = NULL;
	if (lnk->pd) {
		ib_dealloc_pd(lnk->pd);
		lnk->pd = NULL;
		smcx_obj_dec(SMCX_OBJ_PD);
	}
	if (lnk->linked) {
		smcx_ibdev_link_del(lgr->dev, lnk->port);
		lnk->linked = false;
		smcx_obj_dec(SMCX_OBJ_LINK);
	}
}

/* ----------------------------------------------------------- link group */

static void smcx_lgr_release(struct kref *ref)
{
	struct smcx_lgr *lgr = container_of(ref, struct smcx_lgr, ref);
	struct smcx_buf *b, *t;

	list_for_each_entry_safe(b, t, &lgr->bufs, list) {
		list_del(&b->list);
		smcx_buf_free(b);
	}
	idr_destroy(&lgr->conns);
	if (lgr->net)
		put_net(lgr->net);
	kfree(lgr);
	smcx_obj_dec(SMCX_OBJ_LGR);
}

void smcx_lgr_put(struct smcx_lgr *lgr)
{
	kref_put(&lgr->ref, smcx_lgr_release);
}

/* abort every connection, take the link down; once, process context */
static void __smcx_lgr_terminate(struct smcx_lgr *lgr, bool from_linger)
{
	struct smcx_sock *smc;
	int id;

	mutex_lock(&smcx_lgrs_mutex);
	if (lgr->terminating) {
		mutex_unlock(&smcx_lgrs_mutex);
		return;
	}
	lgr->terminating = true;
	list_del_init(&lgr->list);
	mutex_unlock(&smcx_lgrs_mutex);
	if (!from_linger)
		cancel_delayed_work_sync(&lgr->linger);
	cancel_delayed_work_sync(&lgr->watchdog);

	mutex_lock(&lgr->mutex);
	lgr->dead = true;
	mutex_unlock(&lgr->mutex);
	/* tell the peer when the link still works (orderly, all links) */
	if (lgr->lnk.state == SMCX_LNK_ACTIVE) {
		struct smcx_llc_msg m;

		smcx_llc_init_msg(&lgr->lnk, &m, SMCX_LLC_DELETE_LINK);
		m.flags = SMCX_LLC_FLAG_DEL_LINK_ALL |
			  SMCX_LLC_FLAG_DEL_LINK_ORDERLY;
		m.u.delete_link.link_num = lgr->lnk.link_id;
		m.u.delete_link.reason = 0x00010000;	/* lost path / linger */
		/*
		 * Draining the QP below flushes whatever the device has not
		 * sent yet (rxe sends from a work item), so wait until the
		 * peer's transport acknowledged every posted WR, this
		 * DELETE_LINK included.  A peer that never hears of it keeps
		 * the link group and offers it to its next connection.
		 */
		if (!smcx_llc_send(&lgr->lnk, &m, false))
			wait_event_timeout(lgr->lnk.tx_wait,
					   READ_ONCE(lgr->lnk.tx_free) ==
						SMCX_WR_ALL_FREE ||
					   READ_ONCE(lgr->lnk.state) !=
						SMCX_LNK_ACTIVE,
					   SMCX_LLC_WAIT);
	}
	/*
	 * An aborted connection stays in the table until its socket is
	 * released, so walk on by id rather than restarting at the front.
	 */
	for (id = 0;; id++) {
		spin_lock_bh(&lgr->conns_lock);
		smc = idr_get_next(&lgr->conns, &id);
		if (smc)
			sock_hold(&smc->sk);
		spin_unlock_bh(&lgr->conns_lock);
		if (!smc)
			break;
		smcx_conn_abort(smc);
		sock_put(&smc->sk);
	}
	smcx_link_clear(&lgr->lnk);
	smcx_ibdev_put(lgr->dev);
	lgr->dev = NULL;
	smcx_lgr_put(lgr);		/* the list's reference */
}

void smcx_lgr_terminate(struct smcx_lgr *lgr)
{
	__smcx_lgr_terminate(lgr, false);
}

static void smcx_lgr_term_work(struct work_struct *work)
{
	struct smcx_lgr *lgr = container_of(work, struct smcx_lgr, term_work);

	smcx_lgr_terminate(lgr);
	smcx_lgr_put(lgr);		/* the work's */
}

/* any context; @why goes to the kernel log, once per link group */
void smcx_lgr_terminate_async(struct smcx_lgr *lgr, const char *why)
{
	if (READ_ONCE(lgr->terminating))
		return;
	if (!test_and_set_bit(0, &lgr->term_logged))
		pr_info("link group %*phN: terminating: %s\n",
			(int)sizeof(lgr->id), lgr->id, why);
	kref_get(&lgr->ref);
	if (!schedule_work(&lgr->term_work))
		smcx_lgr_put(lgr);
}

/*
 * Every SMCX_TX_STALL / 3 while the group lives: a send slot taken longer
 * than SMCX_TX_STALL ago means its completion is not coming (a peer that
 * vanished without a DELETE_LINK; its connections would wait forever).
 */
static void smcx_lgr_watchdog(struct work_struct *work)
{
	struct smcx_lgr *lgr = container_of(to_delayed_work(work),
					    struct smcx_lgr, watchdog);
	struct smcx_link *lnk = &lgr->lnk;
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
	if (stalled && lnk->state == SMCX_LNK_ACTIVE)
		smcx_lgr_terminate_async(lgr, "sends not completing");
	else if (!READ_ONCE(lgr->terminating))
		schedule_delayed_work(&lgr->watchdog, SMCX_TX_STALL / 3);
}

static void smcx_lgr_linger_work(struct work_struct *work)
{
	struct smcx_lgr *lgr = container_of(to_delayed_work(work),
					    struct smcx_lgr, linger);
	bool idle;

	mutex_lock(&lgr->mutex);
	idle = !lgr->conns_num;
	mutex_unlock(&lgr->mutex);
	if (idle)
		__smcx_lgr_terminate(lgr, true);
}

struct smcx_lgr *smcx_lgr_create(struct net *net, int role,
				 struct smcx_ib_choice *c,
				 const struct smcx_v2x *v2x)
{
	struct smcx_lgr *lgr;
	int rc;

	lgr = kzalloc(sizeof(*lgr), GFP_KERNEL);
	if (!lgr)
		return ERR_PTR(-ENOMEM);
	smcx_obj_inc(SMCX_OBJ_LGR);
	kref_init(&lgr->ref);		/* the list's */
	INIT_LIST_HEAD(&lgr->list);
	mutex_init(&lgr->mutex);
	spin_lock_init(&lgr->conns_lock);
	idr_init(&lgr->conns);
	INIT_LIST_HEAD(&lgr->bufs);
	INIT_DELAYED_WORK(&lgr->linger, smcx_lgr_linger_work);
	INIT_DELAYED_WORK(&lgr->watchdog, smcx_lgr_watchdog);
	INIT_WORK(&lgr->term_work, smcx_lgr_term_work);
	lgr->role = role;
	lgr->net = get_net(net);
	lgr->dev = smcx_ibdev_get(c->dev);
	lgr->version = SMCX_CLC_V2;
	lgr->v2x = *v2x;
	get_random_bytes(lgr->id, sizeof(lgr->id));
	rc = smcx_link_init(lgr, c);
	if (rc) {
		lgr->terminating = true;
		smcx_link_clear(&lgr->lnk);
		smcx_ibdev_put(lgr->dev);
		lgr->dev = NULL;
		smcx_lgr_put(lgr);
		return ERR_PTR(rc);
	}
	kref_get(&lgr->ref);		/* the caller's */
	schedule_delayed_work(&lgr->watchdog, SMCX_TX_STALL / 3);
	return lgr;
}

/*
 * Connections @lgr takes: the server keeps to the negotiated maximum; the
 * client follows the server's first-contact flag (a server may fill in a
 * connection the client still counts as open), up to the protocol's limit.
 */
static unsigned int smcx_lgr_max_conns(const struct smcx_lgr *lgr)
{
	return lgr->role == SMCX_SRV ? lgr->v2x.max_conns : SMCX_V2X_CONNS_MAX;
}

/* make a ready lgr findable for reuse */
static void smcx_lgr_publish(struct smcx_lgr *lgr)
{
	mutex_lock(&smcx_lgrs_mutex);
	if (list_empty(&lgr->list) && !lgr->terminating)
		list_add(&lgr->list, &smcx_lgrs);
	mutex_unlock(&smcx_lgrs_mutex);
}

/*
 * An active link group to reuse, referenced, or NULL.  @peer_systemid (a
 * v2 proposal carries none: NULL) and @peer_qpn (0: any) narrow the
 * match: a client reusing a group must pick the one whose link ends at the
 * QP the server's Accept names (mainline matches it too).  Two groups to
 * one peer exist while an old one drains; using the wrong one has the
 * server write with an rkey of the other group's PD, which the QP answers
 * with a remote access error.
 */
struct smcx_lgr *smcx_lgr_find(int role, struct smcx_ibdev *dev, u32 port,
			       const u8 *peer_gid, const u8 *peer_systemid,
			       u32 peer_qpn)
{
	struct smcx_lgr *lgr, *found = NULL;

	mutex_lock(&smcx_lgrs_mutex);
	list_for_each_entry(lgr, &smcx_lgrs, list) {
		if (lgr->role != role || lgr->dev != dev ||
		    lgr->lnk.port != port || lgr->dead ||
		    lgr->lnk.state != SMCX_LNK_ACTIVE ||
		    memcmp(lgr->lnk.peer_gid, peer_gid, SMCX_GID_LEN))
			continue;
		if (peer_systemid &&
		    memcmp(lgr->peer_systemid, peer_systemid, SMCX_PEERID_LEN))
			continue;
		if (peer_qpn && lgr->lnk.peer_qpn != peer_qpn)
			continue;
		if (lgr->conns_num >= smcx_lgr_max_conns(lgr))
			continue;
		kref_get(&lgr->ref);
		found = lgr;
		break;
	}
	mutex_unlock(&smcx_lgrs_mutex);
	return found;
}

/* register a connection: token, count, link group reference */
int smcx_lgr_conn_add(struct smcx_lgr *lgr, struct smcx_sock *smc)
{
	int id;

	mutex_lock(&lgr->mutex);
	if (lgr->dead || lgr->conns_num >= smcx_lgr_max_conns(lgr)) {
		mutex_unlock(&lgr->mutex);
		return -ENOSPC;
	}
	idr_preload(GFP_KERNEL);
	spin_lock_bh(&lgr->conns_lock);
	id = idr_alloc_cyclic(&lgr->conns, smc, 1, INT_MAX, GFP_NOWAIT);
	spin_unlock_bh(&lgr->conns_lock);
	idr_preload_end();
	if (id < 0) {
		mutex_unlock(&lgr->mutex);
		return id;
	}
	sock_hold(&smc->sk);		/* the table's */
	smc->conn->token = id;
	smc->conn->registered = true;
	lgr->conns_num++;
	cancel_delayed_work(&lgr->linger);
	mutex_unlock(&lgr->mutex);
	smcx_lgr_publish(lgr);
	return 0;
}

static unsigned int smcx_lgr_linger(const struct smcx_lgr *lgr)
{
	unsigned int ms = READ_ONCE(smcx_lgr_linger_ms);

	if (lgr->role == SMCX_CLNT)
		ms += SMCX_LGR_LINGER_CLNT_EXTRA_MS;
	return ms;
}

void smcx_lgr_conn_del(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;
	struct smcx_lgr *lgr = conn->lgr;
	bool idle = false;

	mutex_lock(&lgr->mutex);
	if (!conn->registered) {
		mutex_unlock(&lgr->mutex);
		return;
	}
	spin_lock_bh(&lgr->conns_lock);
	idr_remove(&lgr->conns, conn->token);
	conn->registered = false;
	spin_unlock_bh(&lgr->conns_lock);
	idle = !--lgr->conns_num && !lgr->dead;
	if (idle)
		mod_delayed_work(system_wq, &lgr->linger,
				 msecs_to_jiffies(smcx_lgr_linger(lgr)));
	mutex_unlock(&lgr->mutex);
	sock_put(&smc->sk);		/* the table's */
}

/* BH: the connection of @token, sock referenced, or NULL */
struct smcx_sock *smcx_lgr_conn_get(struct smcx_lgr *lgr, u32 token)
{
	struct smcx_sock *smc;

	spin_lock_bh(&lgr->conns_lock);
	smc = token <= INT_MAX ? idr_find(&lgr->conns, token) : NULL;
	if (smc)
		sock_hold(&smc->sk);
	spin_unlock_bh(&lgr->conns_lock);
	return smc;
}

/* terminate all link groups (or those on @dev) and wait for them */
static void smcx_lgr_terminate_all(struct smcx_ibdev *dev)
{
	struct smcx_lgr *lgr;

	for (;;) {
		mutex_lock(&smcx_lgrs_mutex);
		lgr = NULL;
		list_for_each_entry(lgr, &smcx_lgrs, list)
			if (!dev || lgr->dev == dev)
				break;
		if (list_entry_is_head(lgr, &smcx_lgrs, list))
			lgr = NULL;
		if (lgr)
			kref_get(&lgr->ref);
		mutex_unlock(&smcx_lgrs_mutex);
		if (!lgr)
			break;
		smcx_lgr_terminate(lgr);
		smcx_lgr_put(lgr);
	}
}

static int smcx_lgr_ib_event(struct notifier_block *nb, unsigned long ev,
			     void *data)
{
	struct smcx_ib_event *e = data;

	if (ev == SMCX_IB_EV_REMOVE)
		smcx_lgr_terminate_all(e->dev);
	return NOTIFY_OK;
}

/*
 * Call @fn for each listed link group, in list order, under the list's
 * mutex, so each stays alive and listed while @fn runs; stop at the first
 * non-zero return and pass it on.  For the views (nl_lgr.c).
 */
int smcx_lgr_for_each(int (*fn)(struct smcx_lgr *lgr, void *arg), void *arg)
{
	struct smcx_lgr *lgr;
	int rc = 0;

	mutex_lock(&smcx_lgrs_mutex);
	list_for_each_entry(lgr, &smcx_lgrs, list) {
		rc = fn(lgr, arg);
		if (rc)
			break;
	}
	mutex_unlock(&smcx_lgrs_mutex);
	return rc;
}

int smcx_lgr_init(void)
{
	get_random_bytes(smcx_systemid, 2);
	smcx_systemid[2] = 0x02;	/* locally administered, random */
	get_random_bytes(smcx_systemid + 3, 5);
	smcx_lgr_ib_nb.notifier_call = smcx_lgr_ib_event;
	return smcx_ib_notifier_register(&smcx_lgr_ib_nb);
}

void smcx_lgr_exit(void)
{
	smcx_ib_notifier_unregister(&smcx_lgr_ib_nb);
	smcx_lgr_terminate_all(NULL);
}
