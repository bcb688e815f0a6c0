/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx pure logic: the rules for user EIDs and PNET IDs.
 *
 * Wire and ABI facts:
 *   - an EID (enterprise ID) travels in CLC messages as 32 bytes, blank
 *     padded, no NUL; SMC v2 peers only talk when they share one.  Valid:
 *     not all blank, blanks only as trailing padding, the first character
 *     A-Z or 0-9, the others A-Z, 0-9, '.' or '-'.  User input is upper
 *     cased and padded into that form;
 *   - a PNET ID names a physical network: 1 to 16 letters or digits,
 *     stored upper case and NUL terminated.
 * Only ASCII counts: letters are A-Z / a-z, never a locale's.
 *
 * The normalisers take input already stripped of surrounding blanks (the
 * kernel and smcctl each strip with their own notion of a blank) and an
 * explicit length, so an embedded NUL is an invalid character, not an
 * end.  They return 0 or a negated SMCX_NAME_* code, and the index of
 * the offending character through @bad (may be NULL).
 *
 * Header-only C that compiles in the kernel (SMCX_KERNEL), C11 and C++20,
 * so the module, smcctl and the unit tests apply the same rule.
 */
#ifndef SMCX_NAMES_H
#define SMCX_NAMES_H

#include "compat.h"
#ifdef SMCX_KERNEL
#include <linux/stddef.h>
#include <linux/string.h>
#else
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif
#endif

#define SMCX_NAME_EID_LEN	32	/* SMC_MAX_EID_LEN */
#define SMCX_NAME_PNETID_MAX	16	/* SMCX_PNETID_LEN */

enum smcx_name_err {
	SMCX_NAME_OK = 0,
	SMCX_NAME_EEMPTY,	/* nothing left after the blanks */
	SMCX_NAME_ELONG,	/* longer than the field */
	SMCX_NAME_EFIRST,	/* EID: first character not A-Z or 0-9 */
	SMCX_NAME_EBLANK,	/* EID: a blank before the padding */
	SMCX_NAME_ECHAR,	/* a character outside the allowed set */
};

/* ASCII blank: space, tab, newline, carriage return, vertical tab, form feed */
static inline bool smcx_name_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == '\v' || c == '\f';
}

static inline bool smcx_name_alnum(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9');
}

/* ASCII upper case; everything else unchanged */
static inline char smcx_name_upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* may @c stand in an EID (wire form, upper case), @first at its start? */
static inline bool smcx_ueid_char(u8 c, bool first)
{
	if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
		return true;
	return !first && (c == '.' || c == '-');
}

/* is @eid, SMCX_NAME_EID_LEN bytes as they travel on the wire, valid? */
static inline bool smcx_ueid_valid(const u8 *eid)
{
	int end = SMCX_NAME_EID_LEN;
	int i;

	while (end > 0 && eid[end - 1] == ' ')
		end--;
	if (!end)
		return false;
	for (i = 0; i < end; i++)
		if (!smcx_ueid_char(eid[i], i == 0))
			return false;
	return true;
}

/*
 * User input @in (@len bytes, surrounding blanks stripped) into the wire
 * form @out (SMCX_NAME_EID_LEN bytes): upper case, blank padded.  The
 * checks run in this order: empty, too long, first character, then each
 * character (a blank, else one outside A-Z 0-9 . -).  @out is written
 * only on success.
 */
static inline int smcx_ueid_normalize(const char *in, size_t len,
				      u8 *out, size_t *bad)
{
	size_t i;

	if (!len)
		return -SMCX_NAME_EEMPTY;
	if (len > SMCX_NAME_EID_LEN)
		return -SMCX_NAME_ELONG;
	for (i = 0; i < len; i++) {
		char c = smcx_name_upper(in[i]);
		int err = 0;

		if (!smcx_ueid_char((u8)c, false))
			err = smcx_name_blank(c) ? SMCX_NAME_EBLANK :
						   SMCX_NAME_ECHAR;
		if (!i && !smcx_name_alnum(c))
			err = SMCX_NAME_EFIRST;
		if (err) {
			if (bad)
				*bad = i;
			return -err;
		}
	}
	for (i = 0; i < len; i++)
		out[i] = (u8)smcx_name_upper(in[i]);
	memset(out + len, ' ', SMCX_NAME_EID_LEN - len);
	return 0;
}

/*
 * User input @in (@len bytes, surrounding blanks stripped) into a stored
 * PNET ID @out (SMCX_NAME_PNETID_MAX + 1 bytes): 1 to 16 letters or
 * digits, upper case, NUL terminated.  @out is written only on success.
 */
static inline int smcx_pnetid_normalize(const char *in, size_t len,
					char *out, size_t *bad)
{
	size_t i;

	if (!len)
		return -SMCX_NAME_EEMPTY;
	if (len > SMCX_NAME_PNETID_MAX)
		return -SMCX_NAME_ELONG;
	for (i = 0; i < len; i++) {
		if (!smcx_name_alnum(in[i])) {
			if (bad)
				*bad = i;
			return -SMCX_NAME_ECHAR;
		}
	}
	for (i = 0; i < len; i++)
		out[i] = smcx_name_upper(in[i]);
	out[len] = '\0';
	return 0;
}

/*
 * Does the stored PNET ID @stored name the same network as @given (from a
 * request, compared as given)?  Equal up to the first NUL or blank of
 * both, at most SMCX_NAME_PNETID_MAX characters compared.
 */
static inline bool smcx_pnetid_match(const char *stored, const char *given)
{
	unsigned int i;

	for (i = 0; i < SMCX_NAME_PNETID_MAX; i++) {
		bool end1 = !stored[i] || stored[i] == ' ';
		bool end2 = !given[i] || given[i] == ' ';

		if (end1 && end2)
			return true;
		if (stored[i] != given[i])
			return false;
	}
	return true;
}

#endif /* SMCX_NAMES_H */
