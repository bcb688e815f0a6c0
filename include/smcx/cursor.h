/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx pure logic: the cursor arithmetic of SMC-R connections.
 *
 * Wire facts (RFC 7609, RMBE control information and the CDC message):
 * each side writes into an RMB element (RMBE) of the peer, a ring whose
 * size is fixed when the connection is set up.  A cursor names a position
 * in that ring as a pair (wrap, count): count is the byte offset within
 * the RMBE, wrap a 16-bit sequence number that the writer increments each
 * time it passes the ring's end, so it wraps itself after 2^16 laps.  The
 * producer cursor is where the writer writes next, the consumer cursor
 * where the reader reads next; a CDC message carries both (the pair's
 * byte layout is include/smcx/wire/cdc.h).  The ring is empty when the
 * cursors are equal and full when the producer is one RMBE ahead.
 *
 * smcx keeps every cursor as a monotonic 64-bit byte count of the stream:
 * the wire pair is that count modulo the ring size (count) and the lap
 * number modulo 2^16 (wrap).  Distances between cursors are then plain
 * subtractions of counts; a received pair is turned back into a count
 * through its distance from the last one known, which the protocol never
 * lets exceed one RMBE; a pair that breaks that, or whose count is not
 * below the ring size, is a protocol error.  Every ring size passed here
 * is non-zero.
 *
 * Header-only C that compiles in the kernel (SMCX_KERNEL), C11 and C++20,
 * so the module and the unit tests (user/tests/logic/) run the same code.
 */
#ifndef SMCX_CURSOR_H
#define SMCX_CURSOR_H

#include <smcx/wire/cdc.h>

#ifdef SMCX_KERNEL
#include <linux/math64.h>
#elif !defined(__cplusplus)
#include <stdbool.h>
#endif

/*
 * CDC sequence numbers: the sender numbers its CDCs of a connection
 * 1, 2, ... modulo 2^16.  On one link they arrive in order (one RC QP);
 * with two links a CDC sent on one can overtake an older one sent on the
 * other.  Is @a older than @b (serial number arithmetic: less than half
 * the number space behind)?
 */
static inline bool smcx_cdc_seq_before(u16 a, u16 b)
{
	return (u16)(a - b) >= 0x8000u;
}

/*
 * A failover validation CDC (prod flag SMCX_CDC_PF_FAILOVER_VALID): the
 * peer moved the connection to another link and names the last CDC whose
 * send completed there; its cursors are zero and mean nothing.  If we did
 * not take that CDC (@fin after our newest, @last; none taken counts as
 * 0), a CDC the peer holds for delivered was lost with the link, and what
 * it said cannot be had again: the connection ends (mainline aborts it).
 * Otherwise the message changes nothing.
 */
static inline bool smcx_cdc_validation_lost(bool taken, u16 last, u16 fin)
{
	return smcx_cdc_seq_before(taken ? last : 0, fin);
}

/* @n modulo @d and @n / @d, through math64 in the kernel */
static inline u64 smcx_curs_div(u64 n, u32 d, u32 *rem)
{
#ifdef SMCX_KERNEL
	return div_u64_rem(n, d, rem);
#else
	*rem = (u32)(n % d);
	return n / d;
#endif
}

static inline u64 smcx_curs_mod64(u64 n, u64 d)
{
#ifdef SMCX_KERNEL
	u64 rem;

	div64_u64_rem(n, d, &rem);
	return rem;
#else
	return n % d;
#endif
}

/* the offset in a ring of @size of stream byte @n (a cursor's count) */
static inline u32 smcx_ring_off(u64 n, u32 size)
{
	u32 off;

	smcx_curs_div(n, size, &off);
	return off;
}

/*
 * How many of @n bytes from stream position @pos fit before the ring of
 * @size wraps: a copy into or out of the ring is split there.  Never more
 * than @n, at least 1 when @n is not 0.
 */
static inline u32 smcx_ring_chunk(u64 pos, u32 size,
				  u64 n)
{
	u32 room = size - smcx_ring_off(pos, size);

	return n < room ? (u32)n : room;
}

/* the wire cursor of stream byte count @n in an RMBE of @size */
static inline void smcx_curs_from_count(u64 n, u32 size,
					struct smcx_cdc_cursor *c)
{
	c->wrap = (u16)smcx_curs_div(n, size, &c->count);
}

/*
 * Where a received cursor @c stands, as its distance from @last, the count
 * of the last cursor accepted for the same ring of @size: the pair is read
 * modulo 2^16 laps (the wrap counter's range), so a wrap that went from
 * 0xffff to 0 still moves forward.  A writer's count goes back to 0 when it
 * reaches the ring's end, so a count of @size or more is no position at
 * all: U64_MAX then, as for a cursor that is behind @last or more than one
 * RMBE ahead of it (a distance above @size).
 */
static inline u64 smcx_curs_dist(u64 last, u32 size,
				 const struct smcx_cdc_cursor *c)
{
	u64 m = (u64)size << 16;

	if (c->count >= size)
		return ~0ULL;
	return smcx_curs_mod64((u64)c->wrap * size + c->count + m -
			       smcx_curs_mod64(last, m), m);
}

/*
 * The byte count a received cursor @c stands for, given @last (see
 * smcx_curs_dist()).  A cursor never moves backwards nor by more than one
 * RMBE: anything else (a stale, corrupt or out-of-range cursor) gives
 * @last back, unchanged.
 */
static inline u64 smcx_curs_to_count(u64 last, u32 size,
				     const struct smcx_cdc_cursor *c)
{
	u64 diff = smcx_curs_dist(last, size, c);

	return diff <= size ? last + diff : last;
}

/* what a received cursor does to the one it updates */
enum smcx_curs_move {
	SMCX_CURS_SAME,		/* unchanged: the CDC carries other news */
	SMCX_CURS_FWD,		/* moved forward, to the count given back */
	SMCX_CURS_BAD,		/* no correct peer sends it: a protocol error */
};

/*
 * Judge a received cursor @c of a ring of @size whose last accepted count
 * is @last and that may not pass @limit.  The CDCs of a connection arrive
 * in order on its one link and every cursor in them is the sender's
 * current one, so a cursor is never stale: one that goes back, jumps more
 * than a ring, names no position or passes @limit is SMCX_CURS_BAD, and
 * the connection cannot go on (its data would be out of step).  On
 * SMCX_CURS_FWD, *@n is the new count.
 */
static inline enum smcx_curs_move
smcx_curs_judge(const struct smcx_cdc_cursor *c, u32 size, u64 last,
		u64 limit, u64 *n)
{
	u64 diff = smcx_curs_dist(last, size, c);

	if (!diff)
		return SMCX_CURS_SAME;
	if (diff > size || last + diff > limit)
		return SMCX_CURS_BAD;
	*n = last + diff;
	return SMCX_CURS_FWD;
}

/*
 * Free room in a ring of @size whose writer stands at @prod and reader at
 * @cons (counts, @cons <= @prod <= @cons + @size): what the peer may still
 * write into our RMBE, or we into its RMBE or our send buffer.  0 when the
 * ring is full, @size when the cursors are equal.
 */
static inline u64 smcx_curs_space(u32 size, u64 prod,
				  u64 cons)
{
	return size - (prod - cons);
}

/*
 * The peer's producer cursor @c in our RMBE of @size: forward from @prod,
 * our last known one, and it may fill the RMBE at most, counted from our
 * consumer cursor @cons (more overwrites bytes we have not read).
 */
static inline enum smcx_curs_move
smcx_curs_rx_prod(const struct smcx_cdc_cursor *c, u32 size, u64 prod,
		  u64 cons, u64 *n)
{
	return smcx_curs_judge(c, size, prod, cons + size, n);
}

/*
 * The peer's consumer cursor @c in its RMBE of @size: forward from @cons,
 * our last known one, and never past @sent, what we have written into
 * that RMBE.
 */
static inline enum smcx_curs_move
smcx_curs_rx_cons(const struct smcx_cdc_cursor *c, u32 size, u64 cons,
		  u64 sent, u64 *n)
{
	return smcx_curs_judge(c, size, cons, sent, n);
}

/*
 * Does our consumer cursor @cons have to be sent now?  Only once it moved
 * at least @limit bytes past @cons_sent, the last one the peer was told,
 * and then only if the peer needs the room: it said it is blocked
 * (@peer_blocked: the write-blocked flag or the update request of its
 * last message), or it sees our RMBE of @size at least half full (it
 * counts everything from @cons_sent to @prod, the producer cursor, as
 * unread).  With more room it writes on anyway, and the update would be
 * a CDC for nothing, one per receive call with a large RMBE.  This is
 * mainline's rule (its limit is exclusive, ours inclusive); the blocked
 * flag does not lift the limit, or a blocked peer would get a CDC for
 * every receive call, however little it read.
 *
 * No writer stalls on this rule.  A writer waits for us only when it has
 * data and no room: the producer cursor it last stated stands one RMBE
 * past the consumer cursor it knows.  Our cursors reach it in order (a
 * failover sends ours again on the new link), and a writer with data
 * waiting writes on when a consumer update gives it room (both stacks
 * do), so an update still in flight unblocks it when it lands; it stays
 * blocked only when @prod is @cons_sent + @size.  Our reader sleeps only
 * after it read everything, @cons == @prod; at the read that emptied the
 * RMBE, then, @cons - @cons_sent is @size, which is above @limit (at most
 * max(@size / 10, SOCK_MIN_SNDBUF / 2), and @size is 16 KiB or more) and
 * makes the RMBE full in the peer's view: the update is due, with or
 * without the flag.  The flag only brings it earlier; progress never
 * depends on it.  The caller asks after every read that moves @cons.
 */
static inline bool smcx_curs_update_due(u64 prod, u64 cons, u64 cons_sent,
					u32 size, u32 limit, bool peer_blocked)
{
	if (cons - cons_sent < limit)
		return false;
	return peer_blocked || 2 * (prod - cons_sent) >= size;
}

#endif /* SMCX_CURSOR_H */
