/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LLC (llc.c): the link layer control flows of a link, over its SEND slots
 * and receive ring (wr.c, which hands LLC messages to the handler llc.c
 * registers): CONFIRM_LINK, the ADD_LINK offer and reject, CONFIRM_RKEY,
 * and the answers to the peer's requests, run from the link's LLC work.
 */
#ifndef SMCX_LLC_H
#define SMCX_LLC_H

#include <linux/jiffies.h>
#include <linux/types.h>

#include <smcx/wire.h>

struct smcx_buf;
struct smcx_link;
struct work_struct;

#define SMCX_LLC_WAIT		(2 * HZ)	/* mainline SMC_LLC_WAIT_TIME */
/*
 * The peer's requests queued for the LLC work at most, per link; one more
 * ends the link group (a peer that keeps to the flow rules has a few).
 */
#define SMCX_LLC_QUEUE_MAX	16

int smcx_llc_init(void);
int smcx_llc_send(struct smcx_link *lnk, struct smcx_llc_msg *m, bool wait);
void smcx_llc_work(struct work_struct *work);
void smcx_llc_init_msg(struct smcx_link *lnk, struct smcx_llc_msg *m, u8 type);
int smcx_llc_confirm_link_srv(struct smcx_link *lnk);
int smcx_llc_confirm_link_clnt(struct smcx_link *lnk);
/* our request and the peer's answer, one flow at a time per link */
int smcx_llc_request(struct smcx_link *lnk, struct smcx_llc_msg *m, long timeo);
/* server that cannot make a second link: the offer a peer rejects */
int smcx_llc_add_link_none(struct smcx_link *lnk);
void smcx_llc_add_link_reject(struct smcx_link *lnk, u8 link_num);
int smcx_llc_confirm_rkey(struct smcx_link *lnk, struct smcx_buf *b);
int smcx_llc_test_link(struct smcx_link *lnk);
void smcx_llc_flush(struct smcx_link *lnk);

#endif /* SMCX_LLC_H */
