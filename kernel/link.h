/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The link of a link group (link.c): one RC QP between our device port and
 * the peer's, with its PD and CQ, the send slots and receive ring of the
 * WR layer (wr.h), the REG_MR serialisation for the group's RMBs (buf.c)
 * and the LLC mailbox and request queue (llc.c).  A link group has room
 * for SMCX_LGR_LINKS links (lgr->lnk[], each knowing its index); each one
 * is made, used and cleared on its own: the first at first contact, the
 * second by ADD_LINK (addlink.c).
 *
 * smcx_link_init() leaves a half-made link on failure; smcx_link_clear()
 * takes down whatever exists, once, in process context (link group
 * terminate, the link's down, a failed create or ADD_LINK).
 *
 * Using the verbs objects.  The link's ibdev, PD, CQ and QP, its MRs of the
 * group's RMBs and its DMA mapping of every buffer go away in
 * smcx_link_clear(), which may run at any time (device removal, a peer's
 * DELETE_LINK, a QP error, the watchdog).  Outside the link's own completion handlers (which
 * need nothing: link clear drains the QP, and the drain returns after
 * them) every use is bracketed:
 *
 *	if (!smcx_link_enter(lnk, SMCX_LNK_POST))
 *		return -ENOLINK;
 *	rc = ib_post_send(lnk->qp, ...);	(or ib_modify_qp(), ...)
 *	smcx_link_leave(lnk);
 *
 * SMCX_LNK_POST admits while the link is usable (INIT or ACTIVE): posting,
 * QP state changes; link clear sets DEAD first and waits for these
 * sections before it drains the QP, so nothing is posted behind the drain.
 * SMCX_LNK_MAPPED admits until the link's share of the buffers is
 * unmapped (a free slot admits, and has no buffer mapped): DMA syncs and
 * reads of the objects (an RMB read after the unmap needs no sync: the
 * unmap synced it for the CPU a last time).  Link clear waits for these
 * sections before it unmaps and destroys.  A section is short and process
 * context only (the read side of an rwsem): it never waits for the network
 * or for a send slot, and sections never nest.
 *
 * What needs no section, because it stays valid memory for the group's
 * lifetime: lnk->qp_num and lnk->lkey (copies kept after the QP and PD
 * went), the GIDs, MACs and PSNs, a buffer's rkey and dma on the link
 * (numbers for the peer; our side of them dies with the link).  A
 * handshake that waited (CLC, LLC) rechecks smcx_link_usable() before it goes on; the calls that
 * use the objects (smcx_link_ready(), smcx_buf_reg(), the LLC sends) fail
 * with -ENOLINK on a dead link by themselves.
 */
#ifndef SMCX_LINK_H
#define SMCX_LINK_H

#include <linux/if_ether.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include <smcx/llc_flow.h>
#include <smcx/wire.h>

#include "wr.h"

struct smcx_ib_choice;
struct smcx_lgr;

/*
 * The links a link group has room for (lgr->lnk[], by lnk->idx).  SMC-R
 * v2.1 negotiates max_links per group in the CLC (1..SMCX_V2X_LINKS_MAX,
 * smcx/v2x.h), which mainline takes from net.smc.smcr_max_links_per_lgr
 * (1 or 2, default 2); mainline's arrays hold 3 for an asymmetric group
 * while a link is being replaced.  smcx holds the two a symmetric group
 * uses: the first contact's link and the one ADD_LINK adds, each in a
 * free slot.
 */
#define SMCX_LGR_LINKS		2

enum smcx_link_state {
	SMCX_LNK_UNUSED,		/* a free slot of lgr->lnk[] */
	SMCX_LNK_INIT,
	SMCX_LNK_ACTIVE,
	SMCX_LNK_DEAD,
};

/* what a section of smcx_link_enter() needs (see above) */
enum smcx_link_use {
	SMCX_LNK_POST,		/* post WRs, change the QP: link not DEAD */
	SMCX_LNK_MAPPED,	/* sync or read: buffers still mapped */
};

struct smcx_link {
	struct smcx_lgr *lgr;
	u8 idx;				/* in lgr->lnk[] and buf->l[] */
	/* its device: referenced from smcx_link_init() to the clear */
	struct smcx_ibdev *dev;
	struct ib_device *ibdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	u32 qp_num;			/* qp->qp_num, kept after the QP went */
	u32 lkey;			/* pd->local_dma_lkey, kept likewise */
	/* bytes a send may carry inline (the QP's cap as created; 0: none) */
	u32 max_inline;
	struct rw_semaphore objs;	/* sections of smcx_link_enter() */
	bool unmapped;			/* buffers unmapped, objects going */
	/*
	 * The group's buffers are mapped on this link, and new ones are
	 * (smcx_buf_map_link() to link clear); under lgr->mutex.
	 */
	bool maps_bufs;
	unsigned long rx_last;		/* jiffies: last message received */
	u32 port;
	u32 gid_index;
	u8 gid[SMCX_GID_LEN];
	u8 mac[ETH_ALEN];
	enum ib_mtu mtu;		/* our port's active MTU */
	enum ib_mtu path_mtu;
	u32 psn;
	u8 link_id;
	u8 link_uid[SMCX_LLC_LGR_ID_LEN];
	u8 peer_link_uid[SMCX_LLC_LGR_ID_LEN];
	u32 peer_qpn;
	u32 peer_psn;
	u8 peer_mtu;
	u8 peer_gid[SMCX_GID_LEN];
	u8 peer_mac[ETH_ALEN];
	int state;			/* enum smcx_link_state */
	bool linked;			/* smcx_ibdev_link_add done */
	bool cleared;			/* smcx_link_clear() ran */
	atomic_t conn_cnt;		/* connections sending on it (conn->lnk) */

	/*
	 * send slots: bounded, a bitmap of free ones.  tx_free changes only
	 * under tx_lock (plain bit operations; the lock is the atomicity),
	 * waiters read it with READ_ONCE.
	 */
	spinlock_t tx_lock;
	unsigned long tx_free;		/* bit i: slot i free */
	/*
	 * Slots smcx_wr_slot_get() handed out and not yet put back: link
	 * clear waits for them before the buffers can go (wr.c); with
	 * tx_orphan set the last put frees tx_bufs and tx_long instead.
	 */
	unsigned int tx_held;
	bool tx_orphan;
	bool tx_quiesce;		/* a REG_MR wants the queue idle */
	/*
	 * A quiesce timed out (a peer that acknowledges slowly, review
	 * N5): the next ones fail at once instead of waiting again, until
	 * a send completes (wr.c).  Read and written with READ/WRITE_ONCE.
	 */
	bool tx_slow;
	/*
	 * Tasks in smcx_wr_wait() on tx_wait, counted under tx_lock: a slot
	 * put, which changes what they wait for in its tx_lock section,
	 * reads it in the same section and wakes only when it is not 0 (no
	 * barrier per message; every other waker wakes unconditionally).
	 */
	unsigned int tx_sleepers;
	wait_queue_head_t tx_wait;
	struct smcx_tx_slot tx[SMCX_WR_SLOTS];
	u8 *tx_bufs;
	u64 tx_dma;
	/*
	 * One long LLC message (v2 ADD_LINK with its key list) at a time:
	 * only the add flows send one, under lgr->conf_mutex.
	 */
	u8 *tx_long;
	u64 tx_long_dma;
	/*
	 * The key list of the last v2 ADD_LINK received on the link (the
	 * receive buffer goes back to the ring at once), under llc_lock.
	 */
	u8 *rx_rkeys;
	u16 rx_nrkeys;
	struct smcx_rx_slot rx[SMCX_RX_SLOTS];

	struct ib_cqe write_cqe;		/* unsignalled RDMA WRITEs (errors) */
	/* REG_MR */
	struct mutex reg_mutex;

	/*
	 * LLC: one mailbox for the awaited message (the answer to the
	 * running flow's request, or the peer's CONFIRM_LINK request).  Our
	 * requests run one at a time (llc_flow, mainline's local flow); the
	 * flow arms the mailbox with its request, and receive stores only
	 * that request's answer, into an empty mailbox (smcx/llc_flow.h).
	 */
	struct mutex llc_flow;
	spinlock_t llc_lock;		/* llc_mbox, llc_queue */
	wait_queue_head_t llc_wait;
	struct smcx_llc_mbox llc_mbox;
	struct list_head llc_queue;	/* requests for llc_work */
	struct work_struct llc_work;
	/* smcx_lgr_link_down() of a link that is not the group's last */
	struct work_struct down_work;
	unsigned long down_logged;	/* bit 0: the reason was logged */
	/*
	 * The QP, CQ and PD of a cleared link whose port is down are
	 * destroyed later (smcx_link_clear()), with a group reference.
	 * destroy_owed (under links_mutex): that destroy has not run, and
	 * its reference is held; whoever runs it clears it and puts.
	 */
	struct delayed_work destroy_work;
	unsigned long destroy_by;	/* jiffies: destroyed then at last */
	bool destroy_ready;		/* the port was seen ACTIVE again */
	bool destroy_owed;
};

/*
 * Every slot of a new @lgr's lnk[] (its index, state UNUSED, and its locks,
 * wait queues and works, made once for the group's life), before any is
 * used: a section of smcx_link_enter() may probe an unused slot.
 */
void smcx_link_preinit(struct smcx_lgr *lgr);
/*
 * Slot @lnk of its group (UNUSED) becomes a link with id @link_id on the
 * device port @c chose; -errno leaves it half made, for smcx_link_clear().
 */
int smcx_link_init(struct smcx_link *lnk, u8 link_id, struct smcx_ib_choice *c);
/* peer info saved: RTR and RTS; -ENOLINK once the link is dead */
int smcx_link_ready(struct smcx_link *lnk);
/* a section using the verbs objects (see above); false: not admitted */
bool smcx_link_enter(struct smcx_link *lnk, enum smcx_link_use use);
void smcx_link_leave(struct smcx_link *lnk);
/*
 * The link is formed or being formed, not (being) torn down nor a free
 * slot; a hint, for after a wait
 */
static inline bool smcx_link_usable(const struct smcx_link *lnk)
{
	int s = READ_ONCE(lnk->state);

	return s == SMCX_LNK_INIT || s == SMCX_LNK_ACTIVE;
}

static inline bool smcx_link_active(const struct smcx_link *lnk)
{
	return READ_ONCE(lnk->state) == SMCX_LNK_ACTIVE;
}

/*
 * Tear the verbs objects of this one link down, and its share of every
 * buffer of the group (the other links' mappings stay); process context,
 * under lgr->links_mutex.  Nothing on a free slot, nothing the second time.
 */
void smcx_link_clear(struct smcx_link *lnk);
/*
 * A cleared slot (DEAD) whose down work is idle and that no connection
 * names any more becomes UNUSED again, for a new link; under links_mutex.
 * False: not such a slot.
 */
bool smcx_link_recycle(struct smcx_link *lnk);
/*
 * Group terminate, after the clear: a destroy still deferred (see
 * smcx_link_clear()) runs now; process context, without links_mutex.
 */
void smcx_link_destroy_sync(struct smcx_link *lnk);

#endif /* SMCX_LINK_H */
