/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx pure logic: which LLC message answers our LLC request, and the
 * link's one-message mailbox that keeps it for the waiting flow.
 *
 * A link runs our requests one at a time and has one mailbox for the
 * peer's responses (kernel/llc.c).  A response can still arrive after its
 * request timed out, while the next request waits: taking it for the next
 * request's answer would, for CONFIRM_RKEY, count an RMB's rkey as
 * confirmed before the peer has added it.  So a response ends a wait only
 * when it answers that very request; any other is dropped.
 *
 * Wire facts (RFC 7609 and Linux 6.12, which answers by sending the
 * request back with the response flag and its own flags set):
 *   - an answer has the request's type and SMCX_LLC_FLAG_RESP;
 *   - CONFIRM_RKEY: the answer echoes the rkey of the RMB it confirms (or
 *     refuses, with SMCX_LLC_FLAG_RKEY_NEG) in its first entry;
 *   - TEST_LINK: the answer echoes the request's user data.
 * The other requests (CONFIRM_LINK, ADD_LINK, DELETE_LINK, DELETE_RKEY)
 * are matched by type: we send each at most once per link and flow, and
 * their answers carry nothing of ours to compare (the peer's link data, a
 * reject).
 *
 * The mailbox holds one message, the one a flow waits for, and takes it
 * only while empty: the first answer stays until its flow reads it.  A
 * peer may send a response nobody asked for right behind the answer (a
 * DELETE_LINK response after its CONFIRM_LINK response, both in one
 * receive poll, before the waiting thread runs): it must not replace the
 * answer, or the flow times out and a first contact fails.  So every
 * response that is not the awaited answer is dropped on receive, as
 * mainline drops responses outside its local flow.  While no flow waits
 * for an answer, the mailbox takes the peer's CONFIRM_LINK request: a
 * client's first contact waits for it, and it may arrive before the
 * client's thread starts to wait.
 *
 * Header-only C that compiles in the kernel (SMCX_KERNEL), C11 and C++20.
 * No locking here: the kernel calls the mailbox functions under the
 * link's llc_lock.
 */
#ifndef SMCX_LLC_FLOW_H
#define SMCX_LLC_FLOW_H

#include <smcx/wire/llc.h>

#ifdef SMCX_KERNEL
#include <linux/string.h>
#else
#include <string.h>
#endif

/* Is @in the peer's answer to our request @req?  1 yes, 0 no. */
static inline int smcx_llc_answers(const struct smcx_llc_msg *req,
				   const struct smcx_llc_msg *in)
{
	if (in->type != req->type || !(in->flags & SMCX_LLC_FLAG_RESP))
		return 0;
	switch (req->type) {
	case SMCX_LLC_CONFIRM_RKEY:
		return in->u.confirm_rkey.rt[0].rkey ==
		       req->u.confirm_rkey.rt[0].rkey;
	case SMCX_LLC_TEST_LINK:
		return !memcmp(in->u.test_link.user_data,
			       req->u.test_link.user_data,
			       sizeof(req->u.test_link.user_data));
	default:
		return 1;
	}
}

/* A link's LLC mailbox (struct smcx_link's llc_mbox). */
struct smcx_llc_mbox {
	u8 armed;			/* a flow waits for the answer to @req */
	u8 full;			/* @in holds the awaited message */
	struct smcx_llc_msg req;	/* armed: our request */
	struct smcx_llc_msg in;
};

/*
 * A flow begins (@req, our request, before it is sent) or ends (NULL):
 * from now on the mailbox takes only the answer to @req, or, without,
 * only the peer's CONFIRM_LINK request.  Whatever it held is dropped: a
 * message the last flow did not read (it came after that flow's timeout)
 * is no one's.
 */
static inline void smcx_llc_mbox_arm(struct smcx_llc_mbox *mb,
				     const struct smcx_llc_msg *req)
{
	mb->armed = req ? 1 : 0;
	if (req)
		mb->req = *req;
	mb->full = 0;
}

/* Does the mailbox, as it is now, await @in?  1 yes, 0 no. */
static inline int smcx_llc_mbox_awaits(const struct smcx_llc_mbox *mb,
				       const struct smcx_llc_msg *in)
{
	if (mb->full)
		return 0;
	if (mb->armed)
		return smcx_llc_answers(&mb->req, in);
	return in->type == SMCX_LLC_CONFIRM_LINK &&
	       !(in->flags & SMCX_LLC_FLAG_RESP);
}

/*
 * A received response, or CONFIRM_LINK request, @in: stored if awaited
 * (1), else dropped (0; the caller frees nothing, @in is a copy).
 */
static inline int smcx_llc_mbox_put(struct smcx_llc_mbox *mb,
				    const struct smcx_llc_msg *in)
{
	if (!smcx_llc_mbox_awaits(mb, in))
		return 0;
	mb->in = *in;
	mb->full = 1;
	return 1;
}

/* The awaited message into *@out and the mailbox empty (1), or none (0). */
static inline int smcx_llc_mbox_take(struct smcx_llc_mbox *mb,
				     struct smcx_llc_msg *out)
{
	if (!mb->full)
		return 0;
	*out = mb->in;
	mb->full = 0;
	return 1;
}

#endif /* SMCX_LLC_FLOW_H */
