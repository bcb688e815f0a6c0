/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx pure logic: where the urgent byte (MSG_OOB) and its mark lie.
 *
 * Wire facts (RFC 7609 CDC producer flags, as mainline uses them): the
 * sender sets "urgent data pending" from its MSG_OOB send until the
 * urgent byte has been written, and "urgent data present" on the CDC
 * whose producer cursor ends right after the urgent byte, so the byte
 * before that producer cursor is the urgent one.  The CDC announcing it
 * therefore covers no byte after it.
 *
 * Positions are monotonic stream byte counts as in smcx/cursor.h; the
 * receive side compares the urgent byte's position with the consumer
 * cursor.  What the application sees follows Linux TCP: the mark is the
 * urgent byte's position, reads stop there, SIOCATMARK is true there,
 * and without SO_OOBINLINE the byte is skipped by normal reads (kernel
 * urg.c and rx.c hold the state; this header only computes).
 *
 * Header-only C that compiles in the kernel (SMCX_KERNEL), C11 and C++20.
 */
#ifndef SMCX_URG_H
#define SMCX_URG_H

#include <smcx/wire/cdc.h>

#if !defined(SMCX_KERNEL) && !defined(__cplusplus)
#include <stdbool.h>
#endif

/* receive-side urgent state of a connection */
enum {
	SMCX_URG_NONE,		/* no urgent byte in the stream */
	SMCX_URG_VALID,		/* urgent byte arrived, not read by OOB */
	SMCX_URG_READ,		/* read by recv(MSG_OOB), mark not passed */
};

/*
 * A CDC moved the peer's producer cursor to @new_prod with @prod_flags:
 * does it announce an urgent byte, and at which stream position (@pos)?
 * Only "urgent data present" does, and only once a byte was written.
 */
static inline bool smcx_urg_cdc_pos(u8 prod_flags, u64 new_prod,
				    u64 *pos)
{
	if (!(prod_flags & SMCX_CDC_PF_URG_PRESENT) || !new_prod)
		return false;
	*pos = new_prod - 1;
	return true;
}

/* SIOCATMARK: is the consumer cursor @cons at the urgent mark @urg_pos? */
static inline bool smcx_urg_is_atmark(u8 state, u64 urg_pos,
				      u64 cons)
{
	return state != SMCX_URG_NONE && urg_pos == cons;
}

/*
 * SIOCINQ: of the @avail readable bytes from @cons (up to @prod), without
 * SO_OOBINLINE (@oobinline false) only those before the mark count.
 */
static inline u64 smcx_urg_inq_len(u8 state, bool oobinline,
				   u64 urg_pos, u64 cons,
				   u64 prod, u64 avail)
{
	if (state != SMCX_URG_NONE && !oobinline &&
	    urg_pos >= cons && urg_pos < prod)
		return urg_pos - cons;
	return avail;
}

/*
 * POLLIN's byte count from SO_RCVLOWAT's @target: at the mark, without
 * SO_OOBINLINE, the urgent byte alone is not enough.
 */
static inline u64 smcx_urg_poll_need(bool atmark, bool oobinline,
				     u64 target)
{
	return atmark && !oobinline ? target + 1 : target;
}

/*
 * recvmsg: of @n bytes about to be read from @pos, how many are read
 * before stopping at the mark; @copied tells whether this call already
 * read something.  A read stops right before the mark, and one that is
 * at the mark with nothing copied yet takes the byte (@oobinline) or
 * skips it (*@skip set, and the read starts after it).  0: stop here.
 */
static inline u64 smcx_urg_rx_limit(u8 state, u64 urg_pos,
				    u64 pos, u64 n, bool copied,
				    bool oobinline, bool *skip)
{
	*skip = false;
	if (state == SMCX_URG_NONE || urg_pos < pos)
		return n;
	if (urg_pos > pos)
		return n < urg_pos - pos ? n : urg_pos - pos;
	if (copied)
		return 0;
	*skip = !oobinline;
	return n;
}

/* has a read that ended at @pos passed the mark (the state then ends)? */
static inline bool smcx_urg_passed(u8 state, u64 urg_pos,
				   u64 pos)
{
	return state != SMCX_URG_NONE && pos > urg_pos;
}

/*
 * Sending: cut the @n bytes about to be written from @sent so that a
 * pending urgent byte at @urg_pos ends a CDC, and add that CDC's flags
 * to *@prod_flags: "pending" while it waits, "present" on the CDC that
 * ends right after it.  *@pend is cleared once it has been announced, or
 * when it went out before (unannounced).  Returns the bytes to write.
 */
static inline u64 smcx_urg_tx_limit(bool *pend, u64 sent,
				    u64 urg_pos, u64 n,
				    u8 *prod_flags)
{
	u64 end;

	if (!*pend)
		return n;
	*prod_flags |= SMCX_CDC_PF_URG_PENDING;
	if (sent > urg_pos) {
		*pend = false;		/* went out unannounced */
		return n;
	}
	end = urg_pos + 1;
	if (sent + n >= end) {
		n = end - sent;
		*prod_flags |= SMCX_CDC_PF_URG_PRESENT;
		*pend = false;
	}
	return n;
}

/*
 * A failover rewinds the send cursor from @old_sent to @new_sent, to write
 * again what the dead link may have lost.  Must the urgent byte at
 * @urg_pos (@set: one was sent) be marked again?  Yes when it lies among
 * those bytes: the CDC that marked it may be lost.  If that CDC landed,
 * the peer's producer cursor is past the byte already, the repeated mark
 * does not move it, and the peer takes no second mark.
 */
static inline bool smcx_urg_tx_rewound(bool set, u64 urg_pos, u64 new_sent,
				       u64 old_sent)
{
	return set && urg_pos >= new_sent && urg_pos < old_sent;
}

#endif /* SMCX_URG_H */
