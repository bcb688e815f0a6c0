/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx pure logic: the SMC v2.1 negotiation of a link group's release,
 * maximum connections and maximum links (SMC-R).
 *
 * Wire facts (SMC v2 specification, as Linux 6.12 implements it):
 *   - the client's Proposal carries its release and, from release 1 on,
 *     the connections and links per link group it wants (net.smc.
 *     smcr_max_conns_per_lgr / smcr_max_links_per_lgr);
 *   - the server negotiates the release (the lower of the two) and, from
 *     release 1 on, the lower of each count and its own sysctl; a count
 *     below the minimum is declined (MAXCONNERR, MAXLINKERR, checked in
 *     that order).  Below release 1 the counts are the v1/v2.0 ones;
 *   - the first-contact extension of the Accept carries the negotiated
 *     values; the client checks them (a release above its own is a
 *     RELEASEERR, counts outside the ranges are MAXCONNERR/MAXLINKERR) and
 *     adopts them; its Confirm repeats them, and the server declines a
 *     Confirm whose values differ from the Accept's;
 *   - below release 1 the count bytes of the extension are zero, and the
 *     LLC CONFIRM_LINK carries max links 2 and max conns 0 (reserved).
 * The result is a decline reason (SMCX_DECL_*) or 0.
 *
 * Header-only C that compiles in the kernel (SMCX_KERNEL), C11 and C++20.
 */
#ifndef SMCX_V2X_H
#define SMCX_V2X_H

#include <smcx/wire/clc.h>
#include <smcx/wire/reasons.h>

#define SMCX_V2X_CONNS_MIN	16
#define SMCX_V2X_CONNS_MAX	255	/* also the v1 and v2.0 value */
#define SMCX_V2X_LINKS_MIN	1
#define SMCX_V2X_LINKS_MAX	2	/* also the v1 and v2.0 value */
#define SMCX_RELEASE_OURS	SMCX_RELEASE_1

/* what a link group was negotiated with */
struct smcx_v2x {
	u8 release;
	u8 max_conns;
	u8 max_links;
	/*
	 * 1: the group sends data as RDMA WRITE WITH IMMEDIATE between two
	 * smcx hosts (smcx/wwi.h); set beside the others at first contact
	 */
	u8 write_imm;
	/* 1: ... from each connection's first push on (smcx/wwi.h bit 2) */
	u8 wwi_first;
};

/* @release with the counts every peer below release 1 uses */
static inline void smcx_v2x_v20(struct smcx_v2x *n, u8 release)
{
	n->release = release;
	n->max_conns = SMCX_V2X_CONNS_MAX;
	n->max_links = SMCX_V2X_LINKS_MAX;
}

/*
 * Server: negotiate from the Proposal's release and counts and our own
 * wishes @conns and @links (the sysctls, already within their ranges).
 */
static inline u32 smcx_v2x_srv(struct smcx_v2x *n, u8 prop_release,
			       u8 prop_conns, u8 prop_links,
			       unsigned int conns, unsigned int links)
{
	smcx_v2x_v20(n, prop_release < SMCX_RELEASE_OURS ? prop_release :
							    SMCX_RELEASE_OURS);
	if (n->release < SMCX_RELEASE_1)
		return 0;
	n->max_conns = (u8)(prop_conns < conns ? prop_conns : conns);
	if (n->max_conns < SMCX_V2X_CONNS_MIN)
		return SMCX_DECL_MAXCONNERR;
	n->max_links = (u8)(prop_links < links ? prop_links : links);
	if (n->max_links < SMCX_V2X_LINKS_MIN)
		return SMCX_DECL_MAXLINKERR;
	return 0;
}

/* Client: check and adopt the values of the Accept's first-contact extension */
static inline u32 smcx_v2x_clnt(struct smcx_v2x *n, u8 acc_release,
				u8 acc_conns, u8 acc_links)
{
	smcx_v2x_v20(n, acc_release);
	if (acc_release > SMCX_RELEASE_OURS)
		return SMCX_DECL_RELEASEERR;
	if (acc_release < SMCX_RELEASE_1)
		return 0;
	if (acc_conns < SMCX_V2X_CONNS_MIN)
		return SMCX_DECL_MAXCONNERR;
	if (acc_links < SMCX_V2X_LINKS_MIN || acc_links > SMCX_V2X_LINKS_MAX)
		return SMCX_DECL_MAXLINKERR;
	n->max_conns = acc_conns;
	n->max_links = acc_links;
	return 0;
}

/* Server: does the client's Confirm repeat what the Accept said? */
static inline u32 smcx_v2x_confirm_check(const struct smcx_v2x *n,
					 u8 release, u8 conns,
					 u8 links)
{
	if (release != n->release)
		return SMCX_DECL_RELEASEERR;
	if (n->release < SMCX_RELEASE_1)
		return 0;
	if (conns != n->max_conns)
		return SMCX_DECL_MAXCONNERR;
	if (links != n->max_links)
		return SMCX_DECL_MAXLINKERR;
	return 0;
}

/* the count bytes of a first-contact extension (zero below release 1) */
static inline u8 smcx_v2x_fce_conns(const struct smcx_v2x *n)
{
	return n->release >= SMCX_RELEASE_1 ? n->max_conns : 0;
}

static inline u8 smcx_v2x_fce_links(const struct smcx_v2x *n)
{
	return n->release >= SMCX_RELEASE_1 ? n->max_links : 0;
}

/* CONFIRM_LINK's max conns byte: reserved (zero) below release 1 */
static inline u8 smcx_v2x_llc_conns(const struct smcx_v2x *n)
{
	return smcx_v2x_fce_conns(n);
}

#endif /* SMCX_V2X_H */
