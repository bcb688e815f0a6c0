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
 */
#ifndef SMCX_LINK_H
#define SMCX_LINK_H

#include <linux/if_ether.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include <smcx/wire.h>

#include "wr.h"

struct smcx_ib_choice;
struct smcx_lgr;

enum smcx_link_state {
	SMCX_LNK_INIT,
	SMCX_LNK_ACTIVE,
	SMCX_LNK_DEAD,
};

struct smcx_link {
	struct smcx_lgr *lgr;
	struct ib_device *ibdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
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
	 * LLC: one awaited message (response, or CONFIRM_LINK request).  Our
	 * requests run one at a time (llc_flow, mainline's local flow), so
	 * the one mailbox never holds a response somebody else waits for.
	 */
	struct mutex llc_flow;
	spinlock_t llc_lock;		/* llc_want, llc_got, llc_in, llc_queue */
	wait_queue_head_t llc_wait;
	u8 llc_want;			/* type awaited, 0 none */
	bool llc_got;
	struct smcx_llc_msg llc_in;
	struct list_head llc_queue;	/* requests for llc_work */
	struct work_struct llc_work;
};

/* the link of a new @lgr on the device port @c chose; -errno leaves it half made */
int smcx_link_init(struct smcx_lgr *lgr, struct smcx_ib_choice *c);
/* peer info saved: RTR and RTS */
int smcx_link_ready(struct smcx_link *lnk);
/* tear the verbs objects down; process context */
void smcx_link_clear(struct smcx_link *lnk);

#endif /* SMCX_LINK_H */
