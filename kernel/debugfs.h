/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Object accounting and the debugfs view of it.
 *
 * Every kind of object smcx creates is counted here: the counter goes up in
 * the one place the object is created and down in the one place it is
 * destroyed.  /sys/kernel/debug/smcx/objects prints one "name count" line
 * per kind; the lab runner fails any test that leaves a count above zero.
 * The Debian kernel has no KMEMLEAK, so this is our leak detector.
 */
#ifndef SMCX_DEBUGFS_H
#define SMCX_DEBUGFS_H

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
	SMCX_OBJ_MAX
};

void smcx_obj_inc(enum smcx_obj kind);
void smcx_obj_dec(enum smcx_obj kind);
long smcx_obj_read(enum smcx_obj kind);
void smcx_obj_check_leaks(void);

int smcx_debugfs_init(void);
void smcx_debugfs_exit(void);

#endif /* SMCX_DEBUGFS_H */
