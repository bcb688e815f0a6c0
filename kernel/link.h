/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The link of a link group (link.c): one RC QP between our device port and
 * the peer's, with its PD and CQ, the send slots and receive ring of the
 * WR layer (wr.h), the REG_MR serialisation for the group's RMBs (buf.c)
 * and the LLC mailbox and request queue (llc.c).  smcx runs one link per
 * link group.
 *
 * smcx_link_init() leaves a half-made link on failure; smcx_link_clear()
 * takes down whatever exists, once, in process context (link group
 * terminate or a failed create).
 *
 * Using the verbs objects.  The link's ibdev, PD, CQ and QP, the group's
 * MRs and every DMA mapping of its buffers go away in smcx_link_clear(),
 * which may run at any time (device removal, a peer's DELETE_LINK, a QP
 * error, the watchdog).  Outside the link's own completion handlers (which
 * need nothing: link clear drains the QP, and the drain returns after
 * them) every use is bracketed:
 *
 *	if (!smcx_link_enter(lnk, SMCX_LNK_POST))
 *		return -ENOLINK;
 *	rc = ib_post_send(lnk->qp, ...);	(or ib_modify_qp(), ...)
 *	smcx_link_leave(lnk);
 *
 * SMCX_LNK_POST admits while the link is not DEAD: posting, QP state
 * changes; link clear sets DEAD first and waits for these sections before
 * it drains the QP, so nothing is posted behind the drain.
 * SMCX_LNK_MAPPED admits until the buffers are unmapped: DMA syncs and
 * reads of the objects (an RMB read after the unmap needs no sync: the
 * unmap synced it for the CPU a last time).  Link clear waits for these
 * sections before it unmaps and destroys.  A section is short and process
 * context only (the read side of an rwsem): it never waits for the network
 * or for a send slot, and sections never nest.
 *
 * What needs no section, because it stays valid memory for the group's
 * lifetime: lnk->qp_num and lnk->lkey (copies kept after the QP and PD
 * went), the GIDs, MACs and PSNs, buf->rkey and buf->dma (numbers for the
 * peer; our side of them dies with the link).  A handshake that waited
 * (CLC, LLC) rechecks smcx_link_usable() before it goes on; the calls that
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

enum smcx_link_state {
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
	struct ib_device *ibdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	u32 qp_num;			/* qp->qp_num, kept after the QP went */
	u32 lkey;			/* pd->local_dma_lkey, kept likewise */
	struct rw_semaphore objs;	/* sections of smcx_link_enter() */
	bool unmapped;			/* buffers unmapped, objects going */
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

	/* send slots: bounded, a bitmap of free ones */
	spinlock_t tx_lock;
	unsigned long tx_free;		/* bit i: slot i free */
	bool tx_quiesce;		/* a REG_MR wants the queue idle */
	wait_queue_head_t tx_wait;
	struct smcx_tx_slot tx[SMCX_WR_SLOTS];
	u8 *tx_bufs;
	u64 tx_dma;
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
};

/* the link of a new @lgr on the device port @c chose; -errno leaves it half made */
int smcx_link_init(struct smcx_lgr *lgr, struct smcx_ib_choice *c);
/* peer info saved: RTR and RTS; -ENOLINK once the link is dead */
int smcx_link_ready(struct smcx_link *lnk);
/* a section using the verbs objects (see above); false: not admitted */
bool smcx_link_enter(struct smcx_link *lnk, enum smcx_link_use use);
void smcx_link_leave(struct smcx_link *lnk);
/* the link is not (being) torn down; a hint, for after a wait */
static inline bool smcx_link_usable(const struct smcx_link *lnk)
{
	return READ_ONCE(lnk->state) != SMCX_LNK_DEAD;
}

/* tear the verbs objects down; process context */
void smcx_link_clear(struct smcx_link *lnk);

#endif /* SMCX_LINK_H */
