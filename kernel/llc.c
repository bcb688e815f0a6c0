// SPDX-License-Identifier: GPL-2.0
/*
 * LLC over the link's send/receive queues: the first-contact CONFIRM_LINK
 * exchange, our CONFIRM_RKEY for each new RMB on a reused link group,
 * answers to the peer's requests (TEST_LINK, CONFIRM_RKEY, DELETE_RKEY,
 * ADD_LINK, DELETE_LINK), and our DELETE_LINK at teardown.  Our requests
 * run one at a time per link (llc_flow) and share one mailbox (llc_mbox,
 * smcx/llc_flow.h): the flow arms it with its request before sending it,
 * and it takes only that request's answer, and only while empty.
 *
 * Receive runs in softirq: a response, or a CONFIRM_LINK request, is
 * offered to the mailbox under llc_lock; the awaited one is stored and
 * wakes the waiter, any other is dropped (an unsolicited response, the
 * late answer to a request that timed out, a second answer): it can
 * neither replace the answer a flow has yet to read nor end a wait.  Any
 * other request is queued for llc_work, which answers it in process
 * context, one at a time.  The queue holds SMCX_LLC_QUEUE_MAX requests at
 * most: a peer with more unanswered ones floods us, and its link group
 * ends.  All messages are built and parsed by the wire codec.
 *
 * As mainline 6.12 on a v2 link group: LLC messages use the v2 header
 * (version 2, 16-bit length, little-endian as mainline writes it, see
 * docs/wire.md); the server sends CONFIRM_LINK first, the client answers;
 * CONFIRM_LINK carries NO_RMBE_EYEC.  A second link is added by the flows
 * of addlink.c; a peer's ADD_LINK that they do not take is rejected as
 * mainline rejects it without an alternate path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include <smcx/llc_flow.h>

#include "addlink.h"
#include "lgr.h"
#include "llc.h"
#include "stats.h"

struct smcx_llc_qentry {
	struct list_head list;
	struct smcx_llc_msg m;
	/* a DELETE_RKEY's keys (its list points into the receive buffer) */
	u32 del_rkeys[SMCX_LLC_DEL_RKEY_MAX];
};

void smcx_llc_init_msg(struct smcx_link *lnk, struct smcx_llc_msg *m, u8 type)
{
	memset(m, 0, sizeof(*m));
	m->version = lnk->lgr->version == SMCX_CLC_V2 ? SMCX_LLC_V2 :
							SMCX_LLC_V1;
	m->type = type;
}

int smcx_llc_send(struct smcx_link *lnk, struct smcx_llc_msg *m, bool wait)
{
	struct smcx_tx_slot *slot;
	int len, rc;

	slot = smcx_wr_slot_get(lnk, wait);
	if (!slot)
		return -ENOLINK;
	if (smcx_llc_len(m) > SMCX_WR_SLOT_LEN) {
		/* a long message: its bytes go from tx_long (see link.h) */
		len = smcx_llc_encode(m, lnk->tx_long, SMCX_WR_LONG_LEN);
		rc = len < 0 ? -EINVAL : smcx_wr_send_long(slot, len);
		if (rc)
			smcx_wr_slot_put(slot);
		return rc;
	}
	len = smcx_llc_encode(m, slot->buf, SMCX_WR_SLOT_LEN);
	if (len < 0) {
		smcx_wr_slot_put(slot);
		return -EINVAL;
	}
	rc = smcx_wr_send(slot, len, NULL);
	/* a single SEND that failed to post was not posted: the slot is ours */
	if (rc)
		smcx_wr_slot_put(slot);
	return rc;
}

/*
 * Arm the mailbox for the answer to our request @req (the caller holds
 * llc_flow and sends @req next), or, with NULL once the flow is done,
 * for the peer's CONFIRM_LINK request only.  Under llc_lock, as every
 * access to llc_mbox: receive (softirq) stores into it, the flow's
 * thread arms, takes and disarms.
 */
static void smcx_llc_arm(struct smcx_link *lnk, const struct smcx_llc_msg *req)
{
	spin_lock_bh(&lnk->llc_lock);
	smcx_llc_mbox_arm(&lnk->llc_mbox, req);
	spin_unlock_bh(&lnk->llc_lock);
}

/*
 * Wait up to @timeo for the message the mailbox is armed for: the answer
 * to the flow's request, or (client, first contact, not armed) the peer's
 * CONFIRM_LINK request.  Receive stores nothing else, so whatever is
 * there is it.  0 and the message in *@out, -ETIMEDOUT, -ENOLINK.
 */
static int smcx_llc_wait(struct smcx_link *lnk, long timeo,
			 struct smcx_llc_msg *out)
{
	unsigned long end = jiffies + timeo;
	long left;
	bool got;

	for (;;) {
		left = (long)(end - jiffies);
		if (left > 0)
			wait_event_timeout(lnk->llc_wait,
					   READ_ONCE(lnk->llc_mbox.full) ||
					   READ_ONCE(lnk->state) == SMCX_LNK_DEAD,
					   left);
		spin_lock_bh(&lnk->llc_lock);
		got = smcx_llc_mbox_take(&lnk->llc_mbox, out);
		spin_unlock_bh(&lnk->llc_lock);
		if (got)
			return 0;
		if (READ_ONCE(lnk->state) == SMCX_LNK_DEAD)
			return -ENOLINK;
		if (time_after_eq(jiffies, end))
			return -ETIMEDOUT;
	}
}

/*
 * Our request @m and the peer's answer to it, into @m: one flow at a
 * time per link.  0, -ETIMEDOUT (no answer in @timeo), -ENOLINK.
 */
int smcx_llc_request(struct smcx_link *lnk, struct smcx_llc_msg *m, long timeo)
{
	int rc;

	mutex_lock(&lnk->llc_flow);
	/* armed before the send: the answer may come before the wait */
	smcx_llc_arm(lnk, m);
	rc = smcx_llc_send(lnk, m, true);
	if (!rc)
		rc = smcx_llc_wait(lnk, timeo, m);
	smcx_llc_arm(lnk, NULL);
	mutex_unlock(&lnk->llc_flow);
	return rc;
}

/*
 * Our TEST_LINK and the peer's answer: the liveness probe of an idle link.
 * Never waits for the flow or for a send slot: a flow that is running, or
 * sends in flight, show the link is in use (the stall watchdog watches
 * those).  0 (answered, or not probed now), -ETIMEDOUT (no answer within
 * SMCX_LLC_WAIT), -ENOLINK.
 */
int smcx_llc_test_link(struct smcx_link *lnk)
{
	struct smcx_llc_msg m;
	int rc;

	if (!mutex_trylock(&lnk->llc_flow))
		return 0;
	smcx_llc_init_msg(lnk, &m, SMCX_LLC_TEST_LINK);
	smcx_llc_arm(lnk, &m);
	rc = smcx_llc_send(lnk, &m, false);
	if (rc == -ENOLINK && READ_ONCE(lnk->state) != SMCX_LNK_DEAD)
		rc = 0;			/* no free slot */
	else if (!rc)
		rc = smcx_llc_wait(lnk, SMCX_LLC_WAIT, &m);
	smcx_llc_arm(lnk, NULL);
	mutex_unlock(&lnk->llc_flow);
	return rc;
}

/*
 * A new RMB on a reused link group: its rkey on @lnk, the link the request
 * goes on (rt[0]), to the peer before the CLC message that names it, as
 * mainline sends for every new RMB.  While the group has one link that is
 * all (no rt[1..]); with two, rt[1] will carry the other active link's id,
 * rkey and address, and both links' keys count as confirmed.  The peer
 * adds it to its rkey table and answers; a negative answer (its table
 * full) fails the connection's setup.  Once per buffer and link: a reused
 * RMB keeps its confirmed key, and the first contact's RMB was confirmed
 * by the CLC messages and CONFIRM_LINK (smcx_join_end()).
 */
int smcx_llc_confirm_rkey(struct smcx_link *lnk, struct smcx_buf *b)
{
	struct smcx_buf_lnk *bl = smcx_buf_on(b, lnk);
	struct smcx_llc_confirm_rkey *c;
	struct smcx_link *other;
	struct smcx_llc_msg m;
	bool all = bl->rkey_conf;
	int rc;

	for (other = smcx_lgr_next_link(lnk->lgr, NULL); other;
	     other = smcx_lgr_next_link(lnk->lgr, other))
		if (smcx_buf_on(b, other)->reg)
			all &= smcx_buf_on(b, other)->rkey_conf;
	if (all)
		return 0;
	smcx_llc_init_msg(lnk, &m, SMCX_LLC_CONFIRM_RKEY);
	c = &m.u.confirm_rkey;
	c->rt[0].rkey = bl->rkey;
	c->rt[0].vaddr = bl->raddr;
	/* the RMB's keys on the group's other links it is registered on */
	for (other = smcx_lgr_next_link(lnk->lgr, NULL); other;
	     other = smcx_lgr_next_link(lnk->lgr, other)) {
		if (other == lnk || !smcx_buf_on(b, other)->reg ||
		    c->num_rkeys + 1 >= SMCX_LLC_RKEYS_PER_MSG)
			continue;
		c->num_rkeys++;
		c->rt[c->num_rkeys].link_id = other->link_id;
		c->rt[c->num_rkeys].rkey = smcx_buf_rkey(b, other);
		c->rt[c->num_rkeys].vaddr = smcx_buf_raddr(b, other);
	}
	rc = smcx_llc_request(lnk, &m, SMCX_LLC_WAIT);
	/*
	 * A live peer answers at once: one that does not has lost the link
	 * (its host or device went away unnoticed).  End the group, or every
	 * later connection to that peer would wait here again and fail.
	 */
	if (rc == -ETIMEDOUT)
		smcx_lgr_link_down(lnk, "no answer to CONFIRM_RKEY");
	if (rc)
		return rc;
	if (m.flags & SMCX_LLC_FLAG_RKEY_NEG)
		return -ENOSPC;
	bl->rkey_conf = true;
	for (other = smcx_lgr_next_link(lnk->lgr, NULL); other;
	     other = smcx_lgr_next_link(lnk->lgr, other))
		if (smcx_buf_on(b, other)->reg)
			smcx_buf_on(b, other)->rkey_conf = true;
	return 0;
}

/*
 * The peer's requests waiting for an answer exceed SMCX_LLC_QUEUE_MAX: a
 * peer that keeps to the LLC flow rules (one flow of its own at a time,
 * each waiting for our answer, plus TEST_LINK) never has more than a few
 * outstanding, so this one floods us, e.g. while it keeps our answers from
 * completing (no receive buffers posted: RNR retried forever).  As a
 * protocol violation in mainline, the link group ends; the request is not
 * queued.  Softirq.
 */
static void smcx_llc_overflow(struct smcx_link *lnk, u8 type)
{
	pr_warn_ratelimited("LLC request queue full (%d), type 0x%02x dropped: peer floods requests\n",
			    SMCX_LLC_QUEUE_MAX, type);
	smcx_lgr_terminate_async(lnk->lgr, "LLC protocol violation: request queue overflow");
}

/* wr.c's receive handler of SMCX_WR_KIND_LLC (registered by smcx_llc_init) */
static void smcx_llc_rx(struct smcx_link *lnk, const u8 *buf, u32 len)
{
	u32 del[SMCX_LLC_DEL_RKEY_MAX];
	struct smcx_llc_qentry *qe;
	struct smcx_llc_msg m;
	bool full, kept;
	u8 i, n = 0;

	if (smcx_llc_decode(buf, len, &m, SMCX_WIRE_LAX_RSVD))
		return;		/* unknown or malformed: dropped, as mainline */
	/*
	 * List pointers would point into a buffer about to be reposted: an
	 * ADD_LINK's key list is copied for the add flow (link.h, rx_rkeys).
	 */
	if (m.type == SMCX_LLC_ADD_LINK) {
		spin_lock_bh(&lnk->llc_lock);
		lnk->rx_nrkeys = 0;
		if (m.u.add_link.has_ext && lnk->rx_rkeys) {
			memcpy(lnk->rx_rkeys, m.u.add_link.rkeys,
			       m.u.add_link.num_rkeys * SMCX_LLC_RT_LEN);
			lnk->rx_nrkeys = m.u.add_link.num_rkeys;
		}
		spin_unlock_bh(&lnk->llc_lock);
		m.u.add_link.rkeys = NULL;
	}
	if (m.type == SMCX_LLC_DELETE_RKEY) {
		/*
		 * Up to SMCX_LLC_DEL_RKEY_MAX keys are kept, the most its
		 * answer's error mask can name (mainline sends one at a time)
		 */
		n = min_t(u8, m.u.delete_rkey.num_rkeys, SMCX_LLC_DEL_RKEY_MAX);
		for (i = 0; i < n; i++)
			del[i] = smcx_llc_rkey_get(m.u.delete_rkey.rkeys, i);
		m.u.delete_rkey.num_rkeys = n;
		m.u.delete_rkey.rkeys = NULL;
	}
	if ((m.flags & SMCX_LLC_FLAG_RESP) || m.type == SMCX_LLC_CONFIRM_LINK) {
		/*
		 * the awaited message into an empty mailbox; anything else,
		 * e.g. a response right behind the answer a flow has yet to
		 * read, is dropped as mainline drops out-of-flow responses
		 */
		spin_lock_bh(&lnk->llc_lock);
		kept = smcx_llc_mbox_put(&lnk->llc_mbox, &m);
		spin_unlock_bh(&lnk->llc_lock);
		if (kept)
			wake_up(&lnk->llc_wait);
		else
			pr_debug("LLC type 0x%02x flags 0x%02x not awaited: dropped\n",
				 m.type, m.flags);
		return;
	}
	if (READ_ONCE(lnk->state) == SMCX_LNK_DEAD)
		return;		/* nobody will answer it */
	qe = kmalloc(sizeof(*qe), GFP_ATOMIC);
	if (!qe)
		return;
	qe->m = m;
	memcpy(qe->del_rkeys, del, n * sizeof(del[0]));
	spin_lock_bh(&lnk->llc_lock);
	full = list_count_nodes(&lnk->llc_queue) >= SMCX_LLC_QUEUE_MAX;
	if (!full)
		list_add_tail(&qe->list, &lnk->llc_queue);
	spin_unlock_bh(&lnk->llc_lock);
	if (full) {
		kfree(qe);
		smcx_llc_overflow(lnk, m.type);
		return;
	}
	queue_work(smcx_wq, &lnk->llc_work);
}

/* no second link: reject the peer's ADD_LINK as mainline without one */
void smcx_llc_add_link_reject(struct smcx_link *lnk, u8 link_num)
{
	struct smcx_llc_msg r;

	smcx_llc_init_msg(lnk, &r, SMCX_LLC_ADD_LINK);
	r.flags = SMCX_LLC_FLAG_RESP | SMCX_LLC_FLAG_ADD_LNK_REJ;
	if (r.version == SMCX_LLC_V1)
		r.rej_rsn = SMCX_LLC_REJ_RSN_NO_ALT_PATH;
	memcpy(r.u.add_link.mac, lnk->mac, ETH_ALEN);
	memcpy(r.u.add_link.gid, lnk->gid, SMCX_GID_LEN);
	r.u.add_link.qpn = lnk->qp_num;
	r.u.add_link.link_num = link_num;
	smcx_llc_send(lnk, &r, true);
}

/*
 * The peer's DELETE_LINK, answered.  All links (or no link named): the
 * group goes.  One link of ours: that link goes, and with it the group
 * when it was the last.  A link we do not have (a second link the peer set
 * up after our ADD_LINK and gave up on): nothing to do.
 */
static void smcx_llc_answer_delete(struct smcx_link *lnk,
				   const struct smcx_llc_msg *m)
{
	struct smcx_link *del;
	struct smcx_llc_msg r = *m;

	r.flags |= SMCX_LLC_FLAG_RESP;
	smcx_llc_send(lnk, &r, true);
	if ((m->flags & SMCX_LLC_FLAG_DEL_LINK_ALL) ||
	    !m->u.delete_link.link_num) {
		smcx_lgr_terminate_async(lnk->lgr, "peer sent DELETE_LINK");
		return;
	}
	del = smcx_lgr_link_by_id(lnk->lgr, m->u.delete_link.link_num);
	if (del)
		smcx_lgr_link_down(del, "peer sent DELETE_LINK");
}

/*
 * The peer's DELETE_RKEY: each key it names goes from the group's table;
 * the answer's error mask names those we did not know (bit 7 the first
 * key, as mainline numbers them).
 */
static void smcx_llc_answer_del_rkey(struct smcx_link *lnk,
				     const struct smcx_llc_qentry *qe)
{
	struct smcx_llc_msg r;
	u8 i, err = 0;

	for (i = 0; i < qe->m.u.delete_rkey.num_rkeys; i++)
		if (smcx_lgr_rtok_delete(lnk->lgr, lnk, qe->del_rkeys[i]))
			err |= 1 << (SMCX_LLC_DEL_RKEY_MAX - 1 - i);
	smcx_llc_init_msg(lnk, &r, SMCX_LLC_DELETE_RKEY);
	r.flags = SMCX_LLC_FLAG_RESP;
	if (err) {
		r.flags |= SMCX_LLC_FLAG_RKEY_NEG;
		r.u.delete_rkey.err_mask = err;
	}
	r.u.delete_rkey.num_rkeys = qe->m.u.delete_rkey.num_rkeys;
	smcx_llc_send(lnk, &r, true);
}

/*
 * A peer's REQ_ADD_LINK may start an add flow now: none started on the
 * peer's word in the last SMCX_ADD_ASK_GAP.  add_ask_next is 0 until the
 * first (jiffies start near the wrap, so 0 cannot mean "long ago").  The
 * LLC works of the group's two links may race here: at worst two flows
 * start, and the second finds the group with its links (addlink.c).
 */
static bool smcx_llc_ask_allowed(struct smcx_lgr *lgr)
{
	unsigned long next = READ_ONCE(lgr->add_ask_next);

	if (next && time_before(jiffies, next))
		return false;
	WRITE_ONCE(lgr->add_ask_next, (jiffies + SMCX_ADD_ASK_GAP) | 1);
	return true;
}

static void smcx_llc_answer(struct smcx_link *lnk,
			    const struct smcx_llc_qentry *qe)
{
	const struct smcx_llc_msg *m = &qe->m;
	struct smcx_llc_msg r;

	switch (m->type) {
	case SMCX_LLC_CONFIRM_RKEY:
		smcx_lgr_rtok_confirm(lnk->lgr, lnk, &m->u.confirm_rkey);
		fallthrough;
	case SMCX_LLC_TEST_LINK:
		r = *m;
		r.flags |= SMCX_LLC_FLAG_RESP;
		r.flags &= ~SMCX_LLC_FLAG_RKEY_NEG;
		smcx_llc_send(lnk, &r, true);
		break;
	case SMCX_LLC_DELETE_RKEY:
		smcx_llc_answer_del_rkey(lnk, qe);
		break;
	case SMCX_LLC_ADD_LINK:
		/* a client takes a server's offer in the add work */
		if (smcx_addlink_request(lnk, m))
			smcx_llc_add_link_reject(lnk, m->u.add_link.link_num);
		break;
	case SMCX_LLC_DELETE_LINK:
		smcx_llc_answer_delete(lnk, m);
		break;
	case SMCX_LLC_REQ_ADD_LINK:
		/*
		 * A server offers a link if it can (addlink.c); no answer.
		 * At most one flow per SMCX_ADD_ASK_GAP on the peer's word
		 * (review N5: each one takes conf_mutex and may wait); a
		 * request within the gap is left to the watchdog's schedule.
		 */
		if (lnk->lgr->role == SMCX_SRV) {
			WRITE_ONCE(lnk->lgr->add_asked, true);
			if (smcx_llc_ask_allowed(lnk->lgr))
				smcx_addlink_kick(lnk->lgr);
		}
		break;
	default:
		break;
	}
}

void smcx_llc_work(struct work_struct *work)
{
	struct smcx_link *lnk = container_of(work, struct smcx_link, llc_work);
	struct smcx_llc_qentry *qe;

	for (;;) {
		spin_lock_bh(&lnk->llc_lock);
		qe = list_first_entry_or_null(&lnk->llc_queue,
					      struct smcx_llc_qentry, list);
		if (qe)
			list_del(&qe->list);
		spin_unlock_bh(&lnk->llc_lock);
		if (!qe)
			break;
		if (READ_ONCE(lnk->state) != SMCX_LNK_DEAD)
			smcx_llc_answer(lnk, qe);
		kfree(qe);
	}
}

void smcx_llc_flush(struct smcx_link *lnk)
{
	struct smcx_llc_qentry *qe, *t;
	LIST_HEAD(q);

	spin_lock_bh(&lnk->llc_lock);
	list_splice_init(&lnk->llc_queue, &q);
	spin_unlock_bh(&lnk->llc_lock);
	list_for_each_entry_safe(qe, t, &q, list)
		kfree(qe);
}

static void smcx_llc_fill_confirm(struct smcx_link *lnk,
				  struct smcx_llc_msg *m, bool resp)
{
	struct smcx_llc_confirm_link *c = &m->u.confirm_link;

	smcx_llc_init_msg(lnk, m, SMCX_LLC_CONFIRM_LINK);
	m->flags = SMCX_LLC_FLAG_NO_RMBE_EYEC | (resp ? SMCX_LLC_FLAG_RESP : 0);
	memcpy(c->mac, lnk->mac, ETH_ALEN);
	memcpy(c->gid, lnk->gid, SMCX_GID_LEN);
	c->qpn = lnk->qp_num;
	c->link_num = lnk->link_id;
	memcpy(c->link_uid, lnk->link_uid, SMCX_LLC_LGR_ID_LEN);
	c->max_links = lnk->lgr->v2x.max_links;
	c->max_conns = smcx_v2x_llc_conns(&lnk->lgr->v2x);
}

/* server, first contact: CONFIRM_LINK request, wait for the response */
int smcx_llc_confirm_link_srv(struct smcx_link *lnk)
{
	struct smcx_llc_msg m;
	int rc;

	smcx_llc_fill_confirm(lnk, &m, false);
	rc = smcx_llc_request(lnk, &m, 2 * SMCX_LLC_WAIT);
	if (rc)
		return rc;
	memcpy(lnk->peer_link_uid, m.u.confirm_link.link_uid,
	       SMCX_LLC_LGR_ID_LEN);
	WRITE_ONCE(lnk->state, SMCX_LNK_ACTIVE);
	return 0;
}

/* client, first contact: wait for CONFIRM_LINK, answer it */
int smcx_llc_confirm_link_clnt(struct smcx_link *lnk)
{
	struct smcx_llc_msg m;
	int rc;

	rc = smcx_llc_wait(lnk, 2 * SMCX_LLC_WAIT, &m);
	if (rc)
		return rc;
	memcpy(lnk->peer_link_uid, m.u.confirm_link.link_uid,
	       SMCX_LLC_LGR_ID_LEN);
	lnk->link_id = m.u.confirm_link.link_num;
	/* its max conns/links repeat the CLC's; mainline reads them no more */
	smcx_llc_fill_confirm(lnk, &m, true);
	rc = smcx_llc_send(lnk, &m, true);
	if (rc)
		return rc;
	WRITE_ONCE(lnk->state, SMCX_LNK_ACTIVE);
	return 0;
}

/*
 * Server, first contact done, no alternate device, and no second link
 * could be made on its own port either (addlink.c): offer one anyway,
 * as mainline's server does on a v2 link group that allows more than one
 * link.  The offer names our current link's GID and MAC; a
 * peer without an alternate path answers with a reject (mainline's client
 * waits for this ADD_LINK after CONFIRM_LINK and would otherwise stall
 * its connect for the full LLC wait plus a CLC Decline wait).  The short
 * form (no v2 extension, no rkeys) is sent: only a peer that accepts reads
 * further, and an acceptance is not followed up, the peer's flow times out
 * and deletes its half-made link, which we ignore.
 */
int smcx_llc_add_link_none(struct smcx_link *lnk)
{
	struct smcx_llc_add_link *a;
	struct smcx_llc_msg m;
	int rc;

	if (lnk->lgr->v2x.max_links <= 1)
		return 0;
	smcx_llc_init_msg(lnk, &m, SMCX_LLC_ADD_LINK);
	a = &m.u.add_link;
	memcpy(a->mac, lnk->mac, ETH_ALEN);
	memcpy(a->gid, lnk->gid, SMCX_GID_LEN);
	a->qpn = lnk->qp_num;
	a->link_num = lnk->link_id + 1;
	a->qp_mtu = lnk->mtu;
	a->psn = lnk->psn;
	rc = smcx_llc_request(lnk, &m, SMCX_LLC_WAIT);
	if (rc && rc != -ETIMEDOUT)
		return rc;
	if (!rc && !(m.flags & SMCX_LLC_FLAG_ADD_LNK_REJ))
		pr_debug("peer accepted a second link; not followed up\n");
	return 0;		/* a missing answer costs only the wait */
}

/* module init, before any link exists: LLC messages come to smcx_llc_rx() */
int smcx_llc_init(void)
{
	return smcx_wr_rx_register(SMCX_WR_KIND_LLC, smcx_llc_rx);
}
