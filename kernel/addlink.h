/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Adding a link to a link group (addlink.c): the server's ADD_LINK flow on
 * an alternate device port, the client's answer, CONFIRM_LINK on the new
 * link.  Transport layer, beside lgr.c and llc.c.
 */
#ifndef SMCX_ADDLINK_H
#define SMCX_ADDLINK_H

#include <smcx/wire.h>

struct smcx_lgr;
struct smcx_link;
struct work_struct;

/* lgr->add_work: runs the flow of the group's role */
void smcx_addlink_work(struct work_struct *work);
/*
 * Server: look for a second link for @lgr (first contact done, a port came
 * up); the flow runs in the add work.
 */
void smcx_addlink_kick(struct smcx_lgr *lgr);
/* a port came up: a group with one link looks for a second (recovery) */
void smcx_addlink_port_up(struct smcx_lgr *lgr);
/*
 * Client: the peer's ADD_LINK request @m came on @lnk (its LLC work).  0:
 * the add work answers it; -errno: not taken, the caller rejects it.
 */
int smcx_addlink_request(struct smcx_link *lnk, const struct smcx_llc_msg *m);

#endif /* SMCX_ADDLINK_H */
