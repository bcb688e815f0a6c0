/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Object accounting (obj.c), the leaf every layer counts into.
 *
 * Every kind of object smcx creates is counted here: the counter goes up in
 * the one place the object is created and down in the one place it is
 * destroyed.  /sys/kernel/debug/smcx/objects prints one "name count" line
 * per kind; the lab runner fails any test that leaves a count above zero,
 * and module exit reports what is still counted.  The Debian kernel has no
 * KMEMLEAK, so this is our leak detector.
 *
 * obj.c also owns the module's debugfs directory and the module's
 * workqueue, smcx_wq; both exist from the first init step to the last exit
 * step.  The other layers add their files to the directory
 * (smcx_debugfs_dir()).
 *
 * smcx_wq runs every work item of the transport and connection layers
 * (link group terminate, linger and watchdog, LLC answers, a connection's
 * tx_work and close_work) instead of system_wq: module exit flushes it
 * once the link groups are gone (smcx_lgr_exit()) and destroys it last, so
 * no item runs module text after smcx_exit() returned (a close_work may
 * drop the last socket, and with it the module reference, while it still
 * runs).  Never NULL after smcx_obj_init() succeeded.
 */
#ifndef SMCX_OBJ_H
#define SMCX_OBJ_H

struct dentry;
struct workqueue_struct;

extern struct workqueue_struct *smcx_wq;

enum smcx_obj {
	SMCX_OBJ_SOCK,		/* struct smcx_sock: sk_alloc .. sk_destruct */
	SMCX_OBJ_CLCSOCK,	/* internal TCP struct socket owned by smcx */
	SMCX_OBJ_PENDING_HS,	/* server connections inside the handshake */
	SMCX_OBJ_LISTENER,	/* sockets in the listen state */
	SMCX_OBJ_LGR,		/* SMC-R link groups */
	SMCX_OBJ_LINK,		/* links */
	SMCX_OBJ_CONN,		/* SMC-R connections */
	SMCX_OBJ_BUF,		/* send buffers and RMBs */
	SMCX_OBJ_MR,		/* memory regions */
	SMCX_OBJ_PD,		/* protection domains */
	SMCX_OBJ_CQ,		/* completion queues */
	SMCX_OBJ_QP,		/* queue pairs */
	SMCX_OBJ_DMB,		/* SMC-D loopback DMB tokens (lo.c) */
	SMCX_OBJ_MAX
};

void smcx_obj_inc(enum smcx_obj kind);
void smcx_obj_dec(enum smcx_obj kind);

/* /sys/kernel/debug/smcx, or NULL without debugfs: files are optional */
struct dentry *smcx_debugfs_dir(void);

int smcx_obj_init(void);
/* module exit, after every other layer: report leaks, remove the directory */
void smcx_obj_exit(void);

#endif /* SMCX_OBJ_H */
