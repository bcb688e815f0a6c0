/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx pure logic: which LLC message answers our LLC request.
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
 * Header-only C that compiles in the kernel (SMCX_KERNEL), C11 and C++20.
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

#endif /* SMCX_LLC_FLOW_H */
