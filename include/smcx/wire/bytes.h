/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx wire codec: environment glue, byte-order helpers and error codes.
 *
 * This header compiles unchanged in three places: the kernel module
 * (SMCX_KERNEL defined by Kbuild), user-space C11 and user-space C++20.
 * The codec allocates nothing and touches nothing but the buffers it is
 * handed.  Multi-byte fields are assembled byte by byte with shifts, so the
 * helpers are independent of host byte order and of buffer alignment.
 */
#ifndef SMCX_WIRE_BYTES_H
#define SMCX_WIRE_BYTES_H

#include "../compat.h"
#ifdef SMCX_KERNEL
#include <linux/stddef.h>
#include <linux/string.h>
#else
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#endif

/*
 * Decoder flags.  By default every decoder is strict: reserved bits and
 * reserved bytes must be zero, because mainline zero-fills every reserved
 * field it sends (kzalloc'd CLC buffers, work-request buffers cleared on
 * slot release).  SMCX_WIRE_LAX_RSVD ignores reserved content instead, for
 * peers that follow the "ignore on receive" reading of RFC 7609.
 */
#define SMCX_WIRE_LAX_RSVD	0x1u
/*
 * SMCX_WIRE_LAX_TEXT: a peer's host name (informational only) may hold any
 * byte, as mainline sends the node name unchecked (a UTF-8 host name):
 * bytes outside printable ASCII are decoded as '?' instead of rejecting
 * the message.  Other text fields (EIDs) stay strict: they are compared.
 */
#define SMCX_WIRE_LAX_TEXT	0x2u

/*
 * Every rejection cause has its own code.  Functions return 0 (decode) or
 * a positive byte count (encode) on success and the negated code on failure.
 */
enum smcx_wire_err {
	SMCX_WIRE_OK = 0,
	SMCX_WIRE_ESHORT,	/* buffer shorter than the fixed part */
	SMCX_WIRE_ELEN,		/* length field disagrees with buffer/layout */
	SMCX_WIRE_EEYECATCHER,	/* header eyecatcher is neither SMCR nor SMCD */
	SMCX_WIRE_ETRAILER,	/* trailer does not repeat the eyecatcher */
	SMCX_WIRE_ETYPE,	/* unknown or unexpected message type */
	SMCX_WIRE_EVERSION,	/* unknown protocol version */
	SMCX_WIRE_EPATH,	/* SMC type/path not valid for this message */
	SMCX_WIRE_ECOUNT,	/* a count exceeds its protocol maximum */
	SMCX_WIRE_ETRUNC,	/* a count or offset reaches past the message */
	SMCX_WIRE_EOFFSET,	/* offset field not where the layout says */
	SMCX_WIRE_ESTRING,	/* string not printable, padded, terminated */
	SMCX_WIRE_ERESERVED,	/* reserved bits or bytes are not zero */
	SMCX_WIRE_ERANGE,	/* field value outside its defined range */
	SMCX_WIRE_ENOSPC,	/* encode: output buffer too small */
	SMCX_WIRE_EINVAL,	/* encode: struct holds an unencodable value */
	SMCX_WIRE_ESELFTEST,	/* smcx_wire_selftest(): output mismatch */
	SMCX_WIRE_ERR_MAX
};

/* Short symbolic name of an error ("ESHORT"); accepts +code or -code. */
static inline const char *smcx_wire_errname(int err)
{
	static const char *const names[SMCX_WIRE_ERR_MAX] = {
		"OK", "ESHORT", "ELEN", "EEYECATCHER", "ETRAILER", "ETYPE",
		"EVERSION", "EPATH", "ECOUNT", "ETRUNC", "EOFFSET", "ESTRING",
		"ERESERVED", "ERANGE", "ENOSPC", "EINVAL", "ESELFTEST",
	};

	if (err < 0)
		err = -err;
	if (err >= SMCX_WIRE_ERR_MAX)
		return "E?";
	return names[err];
}

/* Human-readable description of an error; accepts +code or -code. */
static inline const char *smcx_wire_strerror(int err)
{
	static const char *const texts[SMCX_WIRE_ERR_MAX] = {
		"success",
		"buffer shorter than the message's fixed part",
		"length field disagrees with the buffer or the layout",
		"bad eyecatcher (neither EBCDIC SMCR nor SMCD)",
		"trailer does not repeat the header eyecatcher",
		"unknown or unexpected message type",
		"unknown protocol version",
		"SMC type or path not valid for this message",
		"count exceeds its protocol maximum",
		"count or offset reaches past the end of the message",
		"offset field does not match the layout",
		"string field not printable, padded or terminated",
		"reserved bits or bytes are not zero",
		"field value out of range",
		"output buffer too small",
		"message struct holds an unencodable value",
		"codec self-test produced unexpected output",
	};

	if (err < 0)
		err = -err;
	if (err >= SMCX_WIRE_ERR_MAX)
		return "unknown smcx wire error";
	return texts[err];
}

/* ---- byte-order helpers: all wire integers are big-endian unless noted -- */

static inline u16 smcx_get_be16(const u8 *p)
{
	return (u16)(((unsigned int)p[0] << 8) | p[1]);
}

static inline u32 smcx_get_be24(const u8 *p)
{
	return ((u32)p[0] << 16) | ((u32)p[1] << 8) | p[2];
}

static inline u32 smcx_get_be32(const u8 *p)
{
	return ((u32)p[0] << 24) | ((u32)p[1] << 16) |
	       ((u32)p[2] << 8) | p[3];
}

static inline u64 smcx_get_be64(const u8 *p)
{
	return ((u64)smcx_get_be32(p) << 32) | smcx_get_be32(p + 4);
}

/* little-endian: only for the mainline LLC v2 host-order u16 fields */
static inline u16 smcx_get_le16(const u8 *p)
{
	return (u16)(p[0] | ((unsigned int)p[1] << 8));
}

static inline void smcx_put_be16(u8 *p, u16 v)
{
	p[0] = (u8)(v >> 8);
	p[1] = (u8)v;
}

static inline void smcx_put_be24(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 16);
	p[1] = (u8)(v >> 8);
	p[2] = (u8)v;
}

static inline void smcx_put_be32(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24);
	p[1] = (u8)(v >> 16);
	p[2] = (u8)(v >> 8);
	p[3] = (u8)v;
}

static inline void smcx_put_be64(u8 *p, u64 v)
{
	smcx_put_be32(p, (u32)(v >> 32));
	smcx_put_be32(p + 4, (u32)v);
}

static inline void smcx_put_le16(u8 *p, u16 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
}

/* ---- small validation helpers ------------------------------------------ */

static inline int smcx_all_zero(const u8 *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* -ERESERVED if the bytes are not zero and the caller asked for strictness */
static inline int smcx_rsvd_bytes(const u8 *p, size_t n, unsigned int flags)
{
	if (flags & SMCX_WIRE_LAX_RSVD)
		return 0;
	return smcx_all_zero(p, n) ? 0 : -SMCX_WIRE_ERESERVED;
}

/* -ERESERVED if any bit of @mask is set in @byte (strict mode only) */
static inline int smcx_rsvd_bits(u8 byte, u8 mask, unsigned int flags)
{
	if (flags & SMCX_WIRE_LAX_RSVD)
		return 0;
	return (byte & mask) ? -SMCX_WIRE_ERESERVED : 0;
}

/*
 * Fixed-width text fields (EIDs, host names) are not NUL-terminated on the
 * wire: they fill their field and are padded with blanks (mainline pads the
 * host name with ASCII blanks) or with NULs (an absent EID is all zero).
 * We accept printable ASCII 0x20..0x7e, and a NUL only as padding: once a
 * NUL appears, every following byte must be NUL.  Bytes after a terminator
 * ("non-terminated" garbage) and control characters are rejected, so a
 * decoded field can always be printed safely.
 */
#define SMCX_TEXT_BYTES8(b)	((u64)(b) * 0x0101010101010101ULL)

/*
 * Is every byte of @w printable ASCII?  A byte below 0x20 borrows into its
 * top bit when 0x20 is taken from it, and its own top bit is clear; a byte
 * above 0x7e has its top bit set, before or after 1 is added.  A borrow or
 * carry between bytes comes only from a byte that is itself out of range,
 * so the answer is exact for the word as a whole.
 */
static inline int smcx_text_word_ok(u64 w)
{
	u64 low = (w - SMCX_TEXT_BYTES8(0x20)) & ~w;
	u64 high = (w + SMCX_TEXT_BYTES8(0x01)) | w;

	return !((low | high) & SMCX_TEXT_BYTES8(0x80));
}

static inline int smcx_check_text(const u8 *p, size_t n)
{
	size_t i = 0;
	int ended = 0;

	/* whole words of text first, eight bytes at a time */
	while (i + 8 <= n && smcx_text_word_ok(smcx_get_be64(p + i)))
		i += 8;
	for (; i < n; i++) {
		if (ended) {
			if (p[i])
				return -SMCX_WIRE_ESTRING;
			continue;
		}
		if (!p[i])
			ended = 1;
		else if (p[i] < 0x20 || p[i] > 0x7e)
			return -SMCX_WIRE_ESTRING;
	}
	return 0;
}

/*
 * Make @p pass smcx_check_text(): trailing NULs stay padding, every other
 * byte outside 0x20..0x7e (an embedded NUL included) becomes '?'.
 */
static inline void smcx_text_sanitize(u8 *p, size_t n)
{
	size_t i;

	while (n && !p[n - 1])
		n--;
	for (i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			p[i] = '?';
}

#endif /* SMCX_WIRE_BYTES_H */
