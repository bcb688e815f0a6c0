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
 * lets exceed one RMBE.  Every ring size passed here is non-zero.
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
 * The byte count a received cursor @c stands for, given @last, the count
 * of the last cursor accepted for the same ring of @size.  The pair is
 * read modulo 2^16 laps (the wrap counter's range), so a wrap that went
 * from 0xffff to 0 still moves forward.  A cursor never moves backwards
 * nor by more than one RMBE: anything else (a stale or corrupt cursor)
 * gives @last back, unchanged.  A count beyond the ring is reduced like
 * any other position.
 */
static inline u64 smcx_curs_to_count(u64 last, u32 size,
				     const struct smcx_cdc_cursor *c)
{
	u64 m = (u64)size << 16;
	u64 pos = smcx_curs_mod64((u64)c->wrap * size + c->count, m);
	u64 diff = smcx_curs_mod64(pos + m - smcx_curs_mod64(last, m), m);

	return diff <= size ? last + diff : last;
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
 * Is @new_prod, the peer's producer cursor as a count, an update we take?
 * It has to move forward from @prod and may fill our RMBE of @size at
 * most, counted from our consumer cursor @cons.
 */
static inline bool smcx_curs_prod_ok(u64 new_prod, u64 prod,
				     u64 cons, u32 size)
{
	return new_prod > prod && new_prod - cons <= size;
}

/*
 * Is @new_cons, the peer's consumer cursor as a count, an update we take?
 * It has to move forward from @cons and cannot pass @sent, what we have
 * written into the peer's RMBE.
 */
static inline bool smcx_curs_cons_ok(u64 new_cons, u64 cons,
				     u64 sent)
{
	return new_cons > cons && new_cons <= sent;
}

/*
 * Does our consumer cursor @cons have to be sent now?  When it moved at
 * least @limit bytes past @cons_sent, the last one the peer was told
 * (besides when the peer says it is blocked; the caller checks that).
 */
static inline bool smcx_curs_update_due(u64 cons, u64 cons_sent,
					u32 limit)
{
	return cons - cons_sent >= limit;
}

#endif /* SMCX_CURSOR_H */
