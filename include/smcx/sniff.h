/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx pure logic: does a client's stream start with a CLC message?
 *
 * A server whose client announced SMC in its SYN looks at the first bytes
 * of the client's stream with MSG_PEEK, consuming nothing (kernel/clc_io.c,
 * smcx_clc_sniff).  Every CLC message starts with one of two 4-byte
 * eyecatchers ("SMCR"/"SMCD" in EBCDIC, both e2 d4 c3 ..): a whole one
 * queued is CLC; a first byte that leaves both is TCP (the application
 * reads the stream from its first byte); a FIN with less than an
 * eyecatcher queued is TCP as well (those bytes are the application's).
 *
 * One pass is: peek, then read the socket's error and its receive
 * shutdown.  Data and the FIN behind it can arrive between the peek and
 * that read: the peek found n bytes (or nothing), the FIN is seen, yet the
 * queue already holds more than n bytes, up to a whole CLC message.  A FIN
 * is processed only after every byte before it is queued, so after seeing
 * it one more peek sees the final queue: only that peek may call the
 * stream TCP.
 *
 * Header-only C that compiles in the kernel (SMCX_KERNEL), C11 and C++20.
 */
#ifndef SMCX_SNIFF_H
#define SMCX_SNIFF_H

#include <smcx/wire/clc.h>

#ifdef SMCX_KERNEL
#include <linux/string.h>
#else
#include <string.h>
#endif

#define SMCX_SNIFF_EYELEN	4u

enum smcx_sniff_verdict {
	SMCX_SNIFF_CLC,		/* a whole eyecatcher: read the message */
	SMCX_SNIFF_TCP,		/* not CLC: fall back, nothing consumed */
	SMCX_SNIFF_ERR,		/* the socket's error (reset, abort) ends it */
	SMCX_SNIFF_PEEK,	/* FIN seen: peek once more at the final queue */
	SMCX_SNIFF_WAIT,	/* wait for more than the peeked bytes */
};

/* one pass: what the peek found and what was read after it */
struct smcx_sniff_pass {
	const unsigned char *b;	/* the peeked bytes */
	unsigned int n;		/* how many (0: none queued) */
	int eof;		/* the peek returned 0: FIN, nothing queued */
	int err;		/* sk_err after the peek */
	int shut;		/* RCV_SHUTDOWN after the peek */
};

/* @final: zero before the first pass, kept between passes */
static inline enum smcx_sniff_verdict
smcx_sniff_step(const struct smcx_sniff_pass *p, int *final)
{
	unsigned int n = p->n < SMCX_SNIFF_EYELEN ? p->n : SMCX_SNIFF_EYELEN;

	if (p->eof)
		return SMCX_SNIFF_TCP;
	if (n && memcmp(p->b, smcx_eye_smcr, n) && memcmp(p->b, smcx_eye_smcd, n))
		return SMCX_SNIFF_TCP;
	if (n == SMCX_SNIFF_EYELEN)
		return SMCX_SNIFF_CLC;
	if (p->err)
		return SMCX_SNIFF_ERR;
	if (p->shut) {
		if (*final)
			return SMCX_SNIFF_TCP;
		*final = 1;
		return SMCX_SNIFF_PEEK;
	}
	return SMCX_SNIFF_WAIT;
}

#endif /* SMCX_SNIFF_H */
