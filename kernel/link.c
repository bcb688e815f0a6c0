// SPDX-License-Identifier: GPL-2.0
/*
 * The link of a link group (see link.h): its verbs objects (PD, CQ, RC QP),
 * the QP's way through INIT, RTR and RTS, and its teardown.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/random.h>
#include <linux/unaligned.h>

#include <smcx/v2x.h>

#include "addlink.h"
#include "lgr.h"
#include "llc.h"
#include "obj.h"
#include "stats.h"

/* how long a cleared link's QP waits for its port to come back (below) */
#define SMCX_LINK_DESTROY_WAIT	(60 * HZ)

static void smcx_link_destroy_work(struct work_struct *work);

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
			lnk->qp_num, ib_event_msg(ev->event));
		if (READ_ONCE(lnk->state) != SMCX_LNK_DEAD)
			smcx_lgr_link_down(lnk, ib_event_msg(ev->event));
		break;
	default:
		break;
	}
}

void smcx_link_preinit(struct smcx_lgr *lgr)
{
	struct smcx_link *lnk;
	int i;

	static_assert(SMCX_LGR_LINKS >= SMCX_V2X_LINKS_MAX);
	for (i = 0; i < SMCX_LGR_LINKS; i++) {
		lnk = &lgr->lnk[i];
		lnk->lgr = lgr;
		lnk->idx = i;
		lnk->state = SMCX_LNK_UNUSED;
		init_rwsem(&lnk->objs);
		INIT_DELAYED_WORK(&lnk->destroy_work, smcx_link_destroy_work);
		/*
		 * Once per slot, never again: a slot is recycled for a new
		 * link while a thread that does not count in conn_cnt (the
		 * watchdog's probe, a sender that gave up waiting) may
		 * still hold or wait on these (smcx_link_recycle()).
		 */
		spin_lock_init(&lnk->tx_lock);
		init_waitqueue_head(&lnk->tx_wait);
		spin_lock_init(&lnk->llc_lock);
		init_waitqueue_head(&lnk->llc_wait);
		INIT_LIST_HEAD(&lnk->llc_queue);
		INIT_WORK(&lnk->llc_work, smcx_llc_work);
		mutex_init(&lnk->reg_mutex);
		mutex_init(&lnk->llc_flow);
	}
}

int smcx_link_init(struct smcx_link *lnk, u8 link_id, struct smcx_ib_choice *c)
{
	struct smcx_lgr *lgr = lnk->lgr;
	struct ib_qp_init_attr qa = {};
	struct ib_qp_attr attr = {};
	struct ib_port_attr pattr;
	int rc;

	lnk->dev = c->dev;
	lnk->ibdev = c->dev->ibdev;
	lnk->port = c->port;
	lnk->gid_index = c->gid_index;
	memcpy(lnk->gid, c->gid.raw, SMCX_GID_LEN);
	memcpy(lnk->mac, c->mac, ETH_ALEN);
	/* usable from here (views read the above), and link clear acts */
	smp_store_release(&lnk->state, SMCX_LNK_INIT);
	/*
	 * No link on a device being removed: its removal sweeps the links of
	 * the listed groups once (lgr_live.c), and a link made after that
	 * would hold the device until its group ends.  Either the sweep saw
	 * this link usable (and takes it down), or this sees ->removing:
	 * pairs with the barrier after smcx_ib_remove() sets it.
	 */
	smp_mb();
	if (READ_ONCE(lnk->dev->removing))
		return -ENODEV;
	lnk->psn = get_random_u32() & 0xffffff;
	lnk->link_id = link_id;
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
	lnk->lkey = lnk->pd->local_dma_lkey;
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
	/*
	 * Inline sends (wr.c): the CDC and small WRITEs skip the device's
	 * DMA read.  A device that cannot do that much refuses the QP: then
	 * without.  The device may grant more; max_inline is what it says.
	 */
	qa.cap.max_inline_data = SMCX_WR_INLINE;
	lnk->qp = ib_create_qp(lnk->pd, &qa);
	if (IS_ERR(lnk->qp)) {
		qa.cap.max_inline_data = 0;
		lnk->qp = ib_create_qp(lnk->pd, &qa);
	}
	if (IS_ERR(lnk->qp)) {
		rc = PTR_ERR(lnk->qp);
		lnk->qp = NULL;
		return rc;
	}
	smcx_obj_inc(SMCX_OBJ_QP);
	lnk->qp_num = lnk->qp->qp_num;
	lnk->max_inline = qa.cap.max_inline_data;
	lnk->rx_last = jiffies;

	rc = smcx_wr_init(lnk);
	if (rc)
		return rc;

	attr.qp_state = IB_QPS_INIT;
	attr.pkey_index = 0;
	attr.port_num = lnk->port;
	attr.qp_access_flags = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	rc = ib_modify_qp(lnk->qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			  IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (rc)
		return rc;
	rc = smcx_wr_rx_start(lnk);
	if (rc)
		return rc;
	smcx_ibdev_link_add(lnk->dev, lnk->port);
	lnk->linked = true;
	smcx_obj_inc(SMCX_OBJ_LINK);
	return 0;
}

static void smcx_link_destroy(struct smcx_link *lnk);

/* the deferred destroy: once the port is back (and a tick more), or late */
static void smcx_link_destroy_work(struct work_struct *work)
{
	struct smcx_link *lnk = container_of(to_delayed_work(work),
					     struct smcx_link, destroy_work);
	struct smcx_lgr *lgr = lnk->lgr;
	bool owed;

	if (time_before(jiffies, lnk->destroy_by) &&
	    !READ_ONCE(lnk->dev->removing) && !READ_ONCE(lgr->terminating) &&
	    !lnk->destroy_ready) {
		/* a tick after the port is seen up: its queue has drained */
		lnk->destroy_ready = smcx_ibport_sending(lnk->dev, lnk->port);
		/*
		 * Refused only while smcx_link_destroy_sync() cancels the
		 * work (the cancel disables it until the running instance,
		 * this one, has returned): destroy_owed stays set, and the
		 * destroy and the reference are that caller's.
		 */
		queue_delayed_work(smcx_wq, &lnk->destroy_work, HZ / 2);
		return;
	}
	mutex_lock(&lgr->links_mutex);
	owed = lnk->destroy_owed;
	lnk->destroy_owed = false;
	if (owed)
		smcx_link_destroy(lnk);
	mutex_unlock(&lgr->links_mutex);
	if (!owed)
		return;
	/* the slot is free now: the port event found it busy */
	if (!READ_ONCE(lgr->terminating) && smcx_lgr_active_links(lgr) == 1)
		smcx_addlink_port_up(lgr);
	smcx_lgr_put(lgr);		/* the work's */
}

/*
 * 6.12's cancel_delayed_work_sync() disables the work while it waits for a
 * running instance, so that instance's requeue fails silently and the
 * cancel returns false: its return value cannot say whether a destroy is
 * still owed.  destroy_owed can; with the work idle (cancelled or
 * returned), it is read under links_mutex.
 */
void smcx_link_destroy_sync(struct smcx_link *lnk)
{
	struct smcx_lgr *lgr = lnk->lgr;
	bool owed;

	cancel_delayed_work_sync(&lnk->destroy_work);
	mutex_lock(&lgr->links_mutex);
	owed = lnk->destroy_owed;
	lnk->destroy_owed = false;
	if (owed)
		smcx_link_destroy(lnk);
	mutex_unlock(&lgr->links_mutex);
	if (owed)
		smcx_lgr_put(lgr);		/* the work's */
}

bool smcx_link_recycle(struct smcx_link *lnk)
{
	unsigned long flags;
	bool held;

	lockdep_assert_held(&lnk->lgr->links_mutex);
	/*
	 * A down work that is queued or running would clear the slot's next
	 * link; it is queued only for a usable link, so once it is idle on a
	 * DEAD one it stays idle.
	 */
	if (lnk->state != SMCX_LNK_DEAD || !lnk->cleared ||
	    work_busy(&lnk->down_work) || lnk->destroy_owed ||
	    lnk->qp || lnk->pd)
		return false;
	/* a sender still holding a slot of the dead link (wr.c) */
	spin_lock_irqsave(&lnk->tx_lock, flags);
	held = lnk->tx_held || lnk->tx_orphan;
	spin_unlock_irqrestore(&lnk->tx_lock, flags);
	if (held)
		return false;
	/* connections still naming it (aborted, not yet freed) */
	if (atomic_read(&lnk->conn_cnt))
		return false;
	/*
	 * A flow of the dead link still running (the watchdog's TEST_LINK
	 * probe walks the links without links_mutex) has its request in
	 * the mailbox: the slot waits until it is over.
	 */
	if (!mutex_trylock(&lnk->llc_flow))
		return false;
	spin_lock_bh(&lnk->llc_lock);
	memset(&lnk->llc_mbox, 0, sizeof(lnk->llc_mbox));
	spin_unlock_bh(&lnk->llc_lock);
	mutex_unlock(&lnk->llc_flow);
	/* what link init does not set again; the objects are gone */
	lnk->unmapped = false;
	lnk->maps_bufs = false;
	lnk->cleared = false;
	lnk->linked = false;
	lnk->down_logged = 0;
	lnk->tx_quiesce = false;
	lnk->tx_slow = false;
	lnk->tx_free = 0;
	lnk->peer_qpn = 0;
	lnk->peer_psn = 0;
	lnk->peer_mtu = 0;
	memset(lnk->peer_gid, 0, sizeof(lnk->peer_gid));
	memset(lnk->peer_mac, 0, sizeof(lnk->peer_mac));
	memset(lnk->peer_link_uid, 0, sizeof(lnk->peer_link_uid));
	lnk->rx_nrkeys = 0;
	lnk->state = SMCX_LNK_UNUSED;
	return true;
}

bool smcx_link_enter(struct smcx_link *lnk, enum smcx_link_use use)
{
	down_read(&lnk->objs);
	if (use == SMCX_LNK_POST ? smcx_link_usable(lnk) : !lnk->unmapped)
		return true;
	up_read(&lnk->objs);
	return false;
}

void smcx_link_leave(struct smcx_link *lnk)
{
	up_read(&lnk->objs);
}

/* RTR and RTS; inside a SMCX_LNK_POST section */
static int __smcx_link_ready(struct smcx_link *lnk)
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

/* peer info saved: RTR and RTS */
int smcx_link_ready(struct smcx_link *lnk)
{
	int rc;

	/*
	 * A first contact's handshake calls this after waiting for the
	 * peer's CLC message, long enough for the group to be terminated
	 * (device removal, QP error): then the QP is gone or going.
	 */
	if (!smcx_link_enter(lnk, SMCX_LNK_POST))
		return -ENOLINK;
	rc = __smcx_link_ready(lnk);
	smcx_link_leave(lnk);
	return rc;
}

/*
 * Tear the verbs objects down; process context, once per link, under
 * lgr->links_mutex.  The order is the contract of smcx_link_enter(): DEAD
 * ends new posts and slot handouts; the POST sections that saw the link
 * alive finish; the drain flushes all they posted (the completions give
 * back slots and their references); then, with the MAPPED sections done,
 * the link's share of the buffers is unmapped and the objects destroyed.
 * The other links of the group and their mappings are not touched.
 */
void smcx_link_clear(struct smcx_link *lnk)
{
	struct smcx_lgr *lgr = lnk->lgr;
	struct smcx_buf *b;

	lockdep_assert_held(&lgr->links_mutex);
	if (lnk->state == SMCX_LNK_UNUSED || lnk->cleared)
		return;
	lnk->cleared = true;

	spin_lock_bh(&lnk->tx_lock);
	WRITE_ONCE(lnk->state, SMCX_LNK_DEAD);
	spin_unlock_bh(&lnk->tx_lock);
	wake_up_all(&lnk->tx_wait);
	wake_up_all(&lnk->llc_wait);
	/* a sender between its slot and ib_post_send() posts or gives up */
	down_write(&lnk->objs);
	up_write(&lnk->objs);
	if (lnk->qp) {
		/* flush everything posted; completions return slots, refs */
		ib_drain_qp(lnk->qp);
	}
	/*
	 * A registration that saw the link alive has posted and is waiting
	 * for the completion just given; let it finish before its MR and the
	 * QP go.  Later ones see SMCX_LNK_DEAD and give up.  (Without the
	 * wait, a handshake registering its RMB while the group terminates
	 * dereferences the QP after it is gone.)
	 */
	mutex_lock(&lnk->reg_mutex);
	mutex_unlock(&lnk->reg_mutex);
	/*
	 * Senders that took a slot before DEAD write into its buffer before
	 * their POST section turns them away; the buffers go with the
	 * destroy, so wait for them to give the slots back (wr.c).
	 */
	if (READ_ONCE(lnk->tx_held))
		smcx_stats_link(lgr->net, SMCX_LINK_CLEAR_HELD);
	if (!smcx_wr_wait_held(lnk))
		pr_warn_once("link %u: send slots held %u ms after the link died; their buffers are freed by the last holder\n",
			     lnk->link_id, jiffies_to_msecs(SMCX_WR_HELD_WAIT));
	cancel_work_sync(&lnk->llc_work);
	smcx_llc_flush(lnk);
	/*
	 * No more syncs: a reader turned away from here on reads an RMB that
	 * the unmap synced for the CPU already (recv after terminate).  New
	 * buffers are no longer mapped on this link (maps_bufs), and the pool
	 * list holds still, under lgr->mutex (taken before the rwsem, as the
	 * handshake does around smcx_link_ready()).
	 */
	mutex_lock(&lgr->mutex);
	down_write(&lnk->objs);
	lnk->unmapped = true;
	lnk->maps_bufs = false;
	list_for_each_entry(b, &lgr->bufs, list)
		smcx_buf_unmap(lnk, b);
	up_write(&lnk->objs);
	mutex_unlock(&lgr->mutex);
	/*
	 * rxe keeps a QP until every packet it sent is freed, and a netdev
	 * that is down (virtio-net, for one) may hold those it had queued
	 * until it is up again: destroying the QP then makes rxe wait (50 s
	 * in 6.12), WARN and free it under the packets.  While the port's
	 * netdev cannot send, the QP and what it depends on wait for it to
	 * come back (bounded).  The netdev is asked, not only ib_core's port
	 * cache: a link that failed on its sends just as the netdev went down
	 * is cleared before the cache says DOWN.
	 */
	if (!smcx_ibport_sending(lnk->dev, lnk->port) &&
	    !READ_ONCE(lnk->dev->removing) && !lgr->terminating) {
		kref_get(&lgr->ref);
		lnk->destroy_by = jiffies + SMCX_LINK_DESTROY_WAIT;
		lnk->destroy_ready = false;
		lnk->destroy_owed = true;
		queue_delayed_work(smcx_wq, &lnk->destroy_work, HZ / 2);
		return;
	}
	smcx_link_destroy(lnk);
}

/* the verbs objects of a cleared link, last; links_mutex held */
static void smcx_link_destroy(struct smcx_link *lnk)
{
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
	smcx_wr_clear(lnk);
	if (lnk->pd) {
		ib_dealloc_pd(lnk->pd);
		lnk->pd = NULL;
		smcx_obj_dec(SMCX_OBJ_PD);
	}
	if (lnk->linked) {
		smcx_ibdev_link_del(lnk->dev, lnk->port);
		lnk->linked = false;
		smcx_obj_dec(SMCX_OBJ_LINK);
	}
}
