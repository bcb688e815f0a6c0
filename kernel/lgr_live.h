/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The seam between lgr.c and lgr_live.c, for those two files only:
 * everyone else uses lgr.h (which declares smcx_lgr_link_down()).
 */
#ifndef SMCX_LGR_LIVE_H
#define SMCX_LGR_LIVE_H

#include <linux/list.h>
#include <linux/mutex.h>

struct notifier_block;
struct smcx_ibdev;
struct smcx_lgr;
struct smcx_link;
struct work_struct;

/* lgr.c: the published link groups, under smcx_lgrs_mutex */
extern struct list_head smcx_lgrs;
extern struct mutex smcx_lgrs_mutex;
/* lgr.c: fail or move the connections of @lgr (see lgr.c) */
void smcx_lgr_abort_conns(struct smcx_lgr *lgr, struct smcx_link *lnk,
			  struct smcx_link *to);
/* lgr.c: terminate all link groups (or those on @dev), wait for them */
void smcx_lgr_terminate_all(struct smcx_ibdev *dev);

/* lgr_live.c: set up by smcx_lgr_create() and smcx_lgr_init() */
void smcx_lgr_watchdog(struct work_struct *work);
void smcx_lgr_link_down_work(struct work_struct *work);
int smcx_lgr_ib_event(struct notifier_block *nb, unsigned long ev,
		      void *data);

#endif /* SMCX_LGR_LIVE_H */
