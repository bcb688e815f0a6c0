/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx pure logic: the size of a connection's send buffer and RMB.
 *
 * Wire facts (RFC 7609, CLC Accept and Confirm): the RMBE size is a 4-bit
 * field n that stands for 16 KiB << n, so an RMB is a power of two from
 * 16 KiB to 512 MiB.  Send buffers never go on the wire; they take the same
 * sizes.
 *
 * Sizing rule (as Linux 6.12 net/smc): a socket's sk_sndbuf / sk_rcvbuf
 * hold twice the buffer wanted, as for TCP: setsockopt(SO_SNDBUF, N) stores
 * 2 N (capped by net.core.wmem_max), and a new socket starts at 2 x
 * net.smc.wmem / rmem.  A connection's send buffer / RMB is half of that,
 * rounded up to the next size the CLC can name, at most 512 MiB.  Rounding
 * up gives the application at least what it asked for.
 *
 * Header-only C that compiles in the kernel (SMCX_KERNEL), C11 and C++20.
 */
#ifndef SMCX_BUFSIZE_H
#define SMCX_BUFSIZE_H

#include <smcx/compat.h>

#define SMCX_BUFSIZE_MIN	(16u * 1024)
#define SMCX_BUFSIZE_COMP_MAX	15u		/* 512 MiB */
#define SMCX_BUFSIZE_MAX	(SMCX_BUFSIZE_MIN << SMCX_BUFSIZE_COMP_MAX)

/* the smallest n with 16 KiB << n >= @size, at most 15 */
static inline u8 smcx_bufsize_compress(u64 size)
{
	u8 n = 0;

	while (n < SMCX_BUFSIZE_COMP_MAX && ((u64)SMCX_BUFSIZE_MIN << n) < size)
		n++;
	return n;
}

/*
 * The bytes of compressed size @n.  A peer's value comes from a 4-bit
 * field; anything larger (no codec lets it through) reads as the maximum,
 * never as an undefined shift.
 */
static inline u32 smcx_bufsize_uncompress(u8 n)
{
	if (n > SMCX_BUFSIZE_COMP_MAX)
		n = SMCX_BUFSIZE_COMP_MAX;
	return SMCX_BUFSIZE_MIN << n;
}

/*
 * The compressed size a socket wants, from its sk_sndbuf or sk_rcvbuf
 * @skbuf (twice the buffer; see above).  A value that is not positive
 * cannot come from the socket core, and gives the minimum.
 */
static inline u8 smcx_bufsize_for_sock(int skbuf)
{
	return smcx_bufsize_compress(skbuf > 0 ? (u64)skbuf / 2 : 0);
}

#endif /* SMCX_BUFSIZE_H */
