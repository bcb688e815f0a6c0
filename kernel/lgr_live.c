// SPDX-License-Identifier: GPL-2.0
/*
 * Whether a link group's links live: the watchdog (sends that never
 * complete, TEST_LINK to a peer that went quiet, the server's retry for a
 * second link), a link's down with the order of its failover, and the
 * device events that take links down or bring a second link back (device
 * removal, port down, port up).  lgr.c owns the groups, their list and
 * terminate; lgr_live.h is the seam between the two files.
 *
 * Contexts: smcx_lgr_link_down() may be called from any context and only
 * queues the link's down work (with a group reference); the watchdog, the
 * down work and the device events run in process context.  The device
 * events walk the list of groups under smcx_lgrs_mutex.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/notifier.h>
#include <linux/workqueue.h>

#include "addlink.h"
#include "lgr.h"
#include "lgr_live.h"
#include "llc.h"
#include "stats.h"
#include "sysctl.h"

/*
 * The peer's liveness on @lnk, when nothing came over it for
 * smcr_testlink_time: a TEST_LINK request on that link (mainline's
 * keepalive), answered within SMCX_LLC_WAIT by a live peer.  A vanished
 * peer (host killed, its port unplugged) neither answers nor acknowledges:
 * without this, a connection waiting to receive, or a sender waiting for
 * the peer's window with nothing in flight, would wait forever.  Each
 * link probes itself, and a link without an answer is down (with one
 * link, that ends the group).  Our requests run one at a time per link
 * (llc_flow): when one is running it is a probe of its own.
 */
static void smcx_lgr_probe(struct smcx_link *lnk)
{
	if (smcx_llc_test_link(lnk) == -ETIMEDOUT) {
		smcx_stats_link(lnk->lgr->net, SMCX_LINK_TESTLINK_TMO);
		smcx_lgr_link_down(lnk, "no answer to TEST_LINK");
	}
}

/*
 * Every SMCX_TX_STALL / 3 while the group lives, for each active link: a
 * send slot taken longer than SMCX_TX_STALL ago means its completion is
 * not coming (a peer that vanished without a DELETE_LINK; the connections
 * would wait forever), which takes the link down; a link that heard
 * nothing for net.smc.smcr_testlink_time is probed.  A server's group with
 * one link looks for a second when its retry time has come.
 */
void smcx_lgr_watchdog(struct work_struct *work)
{
	struct smcx_lgr *lgr = container_of(to_delayed_work(work),
					    struct smcx_lgr, watchdog);
	long idle = READ_ONCE(smcx_sysctl(lgr->net)->smcr_testlink_time);
	struct smcx_link *lnk;

	for (lnk = smcx_lgr_next_link(lgr, NULL); lnk;
	     lnk = smcx_lgr_next_link(lgr, lnk)) {
		if (!smcx_link_active(lnk))
			continue;
		if (smcx_wr_stalled(lnk)) {
			smcx_lgr_link_down(lnk, "sends not completing");
			continue;
		}
		if (idle && time_after(jiffies, READ_ONCE(lnk->rx_last) + idle))
			smcx_lgr_probe(lnk);
	}
	/* a server's group left with one link tries again (addlink.c) */
	if (lgr->role == SMCX_SRV && smcx_lgr_active_links(lgr) == 1 &&
	    time_after(jiffies, READ_ONCE(lgr->add_retry_at)))
		smcx_addlink_kick(lgr);
	smcx_buf_reap(lgr);		/* idle pooled buffers (buf.c) */
	if (!READ_ONCE(lgr->terminating))
		queue_delayed_work(smcx_wq, &lgr->watchdog, SMCX_TX_STALL / 3);
}

/*
 * A link that is not the group's last goes on its own: it is cleared, the
 * connections sending on it move to an ACTIVE link (failover), and the
 * peer is told.  Holds a group reference from smcx_lgr_link_down();
 * terminate may have cleared the link already (link clear runs once).
 */
void smcx_lgr_link_down_work(struct work_struct *work)
{
	struct smcx_link *lnk = container_of(work, struct smcx_link, down_work);
	struct smcx_lgr *lgr = lnk->lgr;

	struct smcx_link *other;
	struct smcx_llc_msg m;

	/*
	 * Cleared first: the QP drained, every send on it completed or
	 * flushed, so each connection's tx_fin says what surely landed.
	 * Until the move, a send on the dead link fails and leaves the
	 * connection to it (tx.c).
	 */
	smcx_lgr_link_clear(lgr, lnk);
	smcx_stats_link(lgr->net, SMCX_LINK_DOWN);
	other = smcx_lgr_first_active(lgr);
	smcx_lgr_abort_conns(lgr, lnk, other);
	/*
	 * Tell the peer over a link that works, so that it does not wait
	 * for a timeout on its side of the dead one (it answers; the answer
	 * is not awaited).  After the peer's own DELETE_LINK it is answered
	 * once more, which changes nothing.
	 */
	if (other) {
		smcx_llc_init_msg(other, &m, SMCX_LLC_DELETE_LINK);
		m.u.delete_link.link_num = lnk->link_id;
		m.u.delete_link.reason = SMCX_LLC_DEL_LOST_PATH;
		smcx_llc_send(other, &m, true);
	}
	smcx_lgr_put(lgr);
}

void smcx_lgr_link_down(struct smcx_link *lnk, const char *why)
{
	struct smcx_lgr *lgr = lnk->lgr;

	if (!smcx_link_usable(lnk) || READ_ONCE(lgr->terminating))
		return;
	/* no other ACTIVE link: the group goes */
	if (smcx_lgr_active_links(lgr) <= smcx_link_active(lnk)) {
		smcx_lgr_terminate_async(lgr, why);
		return;
	}
	if (!test_and_set_bit(0, &lnk->down_logged))
		pr_info("link group %*phN: link %u down: %s\n",
			(int)sizeof(lgr->id), lgr->id, lnk->link_id, why);
	/*
	 * A server's first try for a new second link comes SMCX_ADD_RETRY
	 * after a loss, not at the end of a wait left over from the tries
	 * before the last success (up to SMCX_ADD_RETRY_MAX), nor at once
	 * (the watchdog would see one link and a past time).  Tries
	 * failing now (add_backoff set) keep their schedule.
	 */
	if (lgr->role == SMCX_SRV && !READ_ONCE(lgr->add_backoff))
		WRITE_ONCE(lgr->add_retry_at, jiffies + SMCX_ADD_RETRY);
	kref_get(&lgr->ref);
	if (!queue_work(smcx_wq, &lnk->down_work))
		smcx_lgr_put(lgr);
}

/*
 * @dev goes: the links on it that are not their group's first go down on
 * their own (their groups' first links are elsewhere); the device's removal
 * waits for their clear, which drops their device references.
 */
static void smcx_lgr_links_gone(struct smcx_ibdev *dev)
{
	struct smcx_link *lnk;
	struct smcx_lgr *lgr;

	mutex_lock(&smcx_lgrs_mutex);
	list_for_each_entry(lgr, &smcx_lgrs, list) {
		if (lgr->dev == dev)
			continue;		/* terminated below */
		for (lnk = smcx_lgr_next_link(lgr, NULL); lnk;
		     lnk = smcx_lgr_next_link(lgr, lnk))
			if (lnk->dev == dev)
				smcx_lgr_link_down(lnk, "device removed");
	}
	mutex_unlock(&smcx_lgrs_mutex);
}

/*
 * A port left ACTIVE (its netdev went down, the device failed): the links
 * on it carry nothing any more and go down, asynchronously (the port work
 * that announces it must not wait); a group whose last link that was ends
 * (mainline: link down without an alternate link).
 */
static void smcx_lgr_port_down(struct smcx_ibdev *dev, u32 port)
{
	struct smcx_link *lnk;
	struct smcx_lgr *lgr;

	mutex_lock(&smcx_lgrs_mutex);
	list_for_each_entry(lgr, &smcx_lgrs, list)
		for (lnk = smcx_lgr_next_link(lgr, NULL); lnk;
		     lnk = smcx_lgr_next_link(lgr, lnk))
			if (lnk->dev == dev && lnk->port == port)
				smcx_lgr_link_down(lnk, "port down");
	mutex_unlock(&smcx_lgrs_mutex);
}

/*
 * A port came (back) up: every group with one link looks for a second
 * (recovery; addlink.c: the server offers, a client asks with REQ_ADD_LINK).
 */
static void smcx_lgr_port_up(void)
{
	struct smcx_lgr *lgr;

	mutex_lock(&smcx_lgrs_mutex);
	list_for_each_entry(lgr, &smcx_lgrs, list)
		if (!READ_ONCE(lgr->dead) && smcx_lgr_active_links(lgr) == 1)
			smcx_addlink_port_up(lgr);
	mutex_unlock(&smcx_lgrs_mutex);
}

int smcx_lgr_ib_event(struct notifier_block *nb, unsigned long ev,
		      void *data)
{
	struct smcx_ib_event *e = data;

	if (ev == SMCX_IB_EV_REMOVE) {
		smcx_lgr_links_gone(e->dev);
		smcx_lgr_terminate_all(e->dev);
	} else if (ev == SMCX_IB_EV_PORT_DOWN) {
		smcx_lgr_port_down(e->dev, e->port);
	} else if (ev == SMCX_IB_EV_PORT_ACTIVE) {
		smcx_lgr_port_up();
	}
	return NOTIFY_OK;
}
