/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx wire codec: decline / fallback reason codes and LLC delete-link
 * reasons, with names for diagnostics.
 *
 * The 32-bit peer diagnosis of a CLC Decline is also what mainline reports
 * as a socket's fallback reason.  The high byte is the class (RFC 7609:
 * 01 resources, 02 timeout, 03 configuration, 04 synchronization, 05 peer
 * decline, 09 internal); the values below are those Linux 6.12 uses, so a
 * decline from either side prints the same name.
 */
#ifndef SMCX_WIRE_REASONS_H
#define SMCX_WIRE_REASONS_H

#include "bytes.h"

#define SMCX_DECL_MEM		0x01010000u /* insufficient memory */
#define SMCX_DECL_TIMEOUT_CL	0x02010000u /* CONFIRM_LINK timed out */
#define SMCX_DECL_TIMEOUT_AL	0x02020000u /* ADD_LINK timed out */
#define SMCX_DECL_CNFERR	0x03000000u /* configuration error */
#define SMCX_DECL_PEERNOSMC	0x03010000u /* peer did not indicate SMC */
#define SMCX_DECL_IPSEC		0x03020000u /* IPsec in use */
#define SMCX_DECL_NOSMCDEV	0x03030000u /* no SMC device (R or D) */
#define SMCX_DECL_NOSMCDDEV	0x03030001u /* no SMC-D device */
#define SMCX_DECL_NOSMCRDEV	0x03030002u /* no SMC-R device */
#define SMCX_DECL_NOISM2SUPP	0x03030003u /* hardware lacks ISMv2 */
#define SMCX_DECL_NOV2EXT	0x03030004u /* peer sent no v2 extension */
#define SMCX_DECL_NOV2DEXT	0x03030005u /* peer sent no SMC-Dv2 extension */
#define SMCX_DECL_NOSEID	0x03030006u /* peer sent no system EID */
#define SMCX_DECL_NOSMCD2DEV	0x03030007u /* no SMC-Dv2 device */
#define SMCX_DECL_NOUEID	0x03030008u /* peer sent no user EID */
#define SMCX_DECL_RELEASEERR	0x03030009u /* release negotiation failed */
#define SMCX_DECL_MAXCONNERR	0x0303000au /* max conns negotiation failed */
#define SMCX_DECL_MAXLINKERR	0x0303000bu /* max links negotiation failed */
#define SMCX_DECL_MODEUNSUPP	0x03040000u /* SMC modes do not match */
#define SMCX_DECL_RMBE_EC	0x03050000u /* peer needs RMBE eyecatcher */
#define SMCX_DECL_OPTUNSUPP	0x03060000u /* socket option unsupported */
#define SMCX_DECL_DIFFPREFIX	0x03070000u /* IP prefix / subnet mismatch */
#define SMCX_DECL_GETVLANERR	0x03080000u /* cannot get VLAN id */
#define SMCX_DECL_ISMVLANERR	0x03090000u /* cannot register VLAN on ISM */
#define SMCX_DECL_NOACTLINK	0x030a0000u /* no active link in link group */
#define SMCX_DECL_NOSRVLINK	0x030b0000u /* server link not found */
#define SMCX_DECL_VERSMISMAT	0x030c0000u /* SMC version mismatch */
#define SMCX_DECL_MAX_DMB	0x030d0000u /* SMC-D DMB limit reached */
#define SMCX_DECL_NOROUTE	0x030e0000u /* SMC-Rv2: no route to peer */
#define SMCX_DECL_NOINDIRECT	0x030f0000u /* SMC-Rv2: indirect mismatch */
#define SMCX_DECL_SYNCERR	0x04000000u /* synchronization error */
#define SMCX_DECL_PEERDECL	0x05000000u /* peer declined */
/*
 * smcx's own fallbacks, decided before any CLC byte and never sent: the
 * class 0x03ff is not used by the protocol (include/uapi/linux/smcx.h)
 */
#define SMCX_DECL_POLICY	0x03ff0001u /* a scope rule said TCP */
#define SMCX_DECL_PEERCACHED	0x03ff0002u /* peer cache: plain TCP */
#define SMCX_DECL_INTERR	0x09990000u /* internal error */
#define SMCX_DECL_ERR_RTOK	0x09990001u /* rtoken handling failed */
#define SMCX_DECL_ERR_RDYLNK	0x09990002u /* link could not be made ready */
#define SMCX_DECL_ERR_REGBUF	0x09990003u /* buffer registration failed */

/* DELETE_LINK reason codes: requests, then responses */
#define SMCX_LLC_DEL_LOST_PATH		0x00010000u
#define SMCX_LLC_DEL_OP_INIT_TERM	0x00020000u
#define SMCX_LLC_DEL_PROG_INIT_TERM	0x00030000u
#define SMCX_LLC_DEL_PROT_VIOL		0x00040000u
#define SMCX_LLC_DEL_NO_ASYM_NEEDED	0x00050000u
#define SMCX_LLC_DEL_NOLNK		0x00100000u
#define SMCX_LLC_DEL_NOLGR		0x00200000u

struct smcx_reason {
	u32 code;
	const char *name;
	const char *text;
};

static inline const struct smcx_reason *smcx__decl_table(unsigned int *n)
{
	static const struct smcx_reason t[] = {
		{ SMCX_DECL_MEM, "MEM", "insufficient memory resources" },
		{ SMCX_DECL_TIMEOUT_CL, "TIMEOUT_CL",
		  "timeout waiting for CONFIRM LINK" },
		{ SMCX_DECL_TIMEOUT_AL, "TIMEOUT_AL",
		  "timeout waiting for ADD LINK" },
		{ SMCX_DECL_CNFERR, "CNFERR", "configuration error" },
		{ SMCX_DECL_PEERNOSMC, "PEERNOSMC",
		  "peer did not indicate SMC" },
		{ SMCX_DECL_IPSEC, "IPSEC", "IPsec in use" },
		{ SMCX_DECL_NOSMCDEV, "NOSMCDEV", "no SMC device found" },
		{ SMCX_DECL_NOSMCDDEV, "NOSMCDDEV", "no SMC-D device found" },
		{ SMCX_DECL_NOSMCRDEV, "NOSMCRDEV", "no SMC-R device found" },
		{ SMCX_DECL_NOISM2SUPP, "NOISM2SUPP",
		  "hardware has no ISMv2 support" },
		{ SMCX_DECL_NOV2EXT, "NOV2EXT",
		  "peer sent no CLC v2 extension" },
		{ SMCX_DECL_NOV2DEXT, "NOV2DEXT",
		  "peer sent no SMC-Dv2 extension" },
		{ SMCX_DECL_NOSEID, "NOSEID", "peer sent no system EID" },
		{ SMCX_DECL_NOSMCD2DEV, "NOSMCD2DEV",
		  "no SMC-Dv2 device found" },
		{ SMCX_DECL_NOUEID, "NOUEID", "peer sent no user EID" },
		{ SMCX_DECL_RELEASEERR, "RELEASEERR",
		  "release version negotiation failed" },
		{ SMCX_DECL_MAXCONNERR, "MAXCONNERR",
		  "max connections negotiation failed" },
		{ SMCX_DECL_MAXLINKERR, "MAXLINKERR",
		  "max links negotiation failed" },
		{ SMCX_DECL_MODEUNSUPP, "MODEUNSUPP",
		  "SMC modes do not match" },
		{ SMCX_DECL_RMBE_EC, "RMBE_EC",
		  "peer requires RMBE eyecatchers" },
		{ SMCX_DECL_OPTUNSUPP, "OPTUNSUPP",
		  "socket option not supported" },
		{ SMCX_DECL_DIFFPREFIX, "DIFFPREFIX",
		  "IP prefix / subnet mismatch" },
		{ SMCX_DECL_GETVLANERR, "GETVLANERR",
		  "cannot get VLAN id of IP device" },
		{ SMCX_DECL_ISMVLANERR, "ISMVLANERR",
		  "cannot register VLAN id on ISM" },
		{ SMCX_DECL_NOACTLINK, "NOACTLINK",
		  "no active SMC-R link in link group" },
		{ SMCX_DECL_NOSRVLINK, "NOSRVLINK",
		  "SMC-R link from server not found" },
		{ SMCX_DECL_VERSMISMAT, "VERSMISMAT", "SMC version mismatch" },
		{ SMCX_DECL_MAX_DMB, "MAX_DMB", "SMC-D DMB limit exceeded" },
		{ SMCX_DECL_NOROUTE, "NOROUTE", "SMC-Rv2: no route to peer" },
		{ SMCX_DECL_NOINDIRECT, "NOINDIRECT",
		  "SMC-Rv2: indirect route mismatch" },
		{ SMCX_DECL_POLICY, "POLICY",
		  "a scope rule chose TCP (smcx)" },
		{ SMCX_DECL_PEERCACHED, "PEERCACHED",
		  "peer broke SMC before, TCP for a while (smcx)" },
		{ SMCX_DECL_SYNCERR, "SYNCERR", "synchronization error" },
		{ SMCX_DECL_PEERDECL, "PEERDECL",
		  "peer declined during handshake" },
		{ SMCX_DECL_INTERR, "INTERR", "internal error" },
		{ SMCX_DECL_ERR_RTOK, "ERR_RTOK", "rtoken handling failed" },
		{ SMCX_DECL_ERR_RDYLNK, "ERR_RDYLNK",
		  "link could not be made ready" },
		{ SMCX_DECL_ERR_REGBUF, "ERR_REGBUF",
		  "RDMA buffer registration failed" },
	};

	*n = ARRAY_SIZE(t);
	return t;
}

static inline const struct smcx_reason *smcx__llc_del_table(unsigned int *n)
{
	static const struct smcx_reason t[] = {
		{ SMCX_LLC_DEL_LOST_PATH, "LOST_PATH", "lost path" },
		{ SMCX_LLC_DEL_OP_INIT_TERM, "OP_INIT_TERM",
		  "operator initiated termination" },
		{ SMCX_LLC_DEL_PROG_INIT_TERM, "PROG_INIT_TERM",
		  "program initiated termination" },
		{ SMCX_LLC_DEL_PROT_VIOL, "PROT_VIOL",
		  "LLC protocol violation" },
		{ SMCX_LLC_DEL_NO_ASYM_NEEDED, "NO_ASYM_NEEDED",
		  "asymmetric link not needed" },
		{ SMCX_LLC_DEL_NOLNK, "NOLNK", "unknown link id" },
		{ SMCX_LLC_DEL_NOLGR, "NOLGR", "unknown link group" },
	};

	*n = ARRAY_SIZE(t);
	return t;
}

static inline const struct smcx_reason *
smcx__reason_find(const struct smcx_reason *t, unsigned int n, u32 code)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (t[i].code == code)
			return &t[i];
	return NULL;
}

/* class of a decline code (its high byte), for codes we do not know */
static inline const char *smcx_decl_class(u32 code)
{
	switch (code >> 24) {
	case 0x01:
		return "resources";
	case 0x02:
		return "timeout";
	case 0x03:
		return "configuration";
	case 0x04:
		return "synchronization";
	case 0x05:
		return "peer decline";
	case 0x09:
		return "internal";
	}
	return "unknown";
}

static inline const struct smcx_reason *smcx__decl_find(u32 code)
{
	unsigned int n;
	const struct smcx_reason *t = smcx__decl_table(&n);

	return smcx__reason_find(t, n, code);
}

static inline const struct smcx_reason *smcx__llc_del_find(u32 code)
{
	unsigned int n;
	const struct smcx_reason *t = smcx__llc_del_table(&n);

	return smcx__reason_find(t, n, code);
}

/* "DIFFPREFIX"; NULL for an unknown code */
static inline const char *smcx_decl_name(u32 code)
{
	const struct smcx_reason *r = smcx__decl_find(code);

	return r ? r->name : NULL;
}

/* "IP prefix / subnet mismatch"; the class name for an unknown code */
static inline const char *smcx_decl_text(u32 code)
{
	const struct smcx_reason *r = smcx__decl_find(code);

	return r ? r->text : smcx_decl_class(code);
}

static inline const char *smcx_llc_del_name(u32 code)
{
	const struct smcx_reason *r = smcx__llc_del_find(code);

	return r ? r->name : NULL;
}

static inline const char *smcx_llc_del_text(u32 code)
{
	const struct smcx_reason *r = smcx__llc_del_find(code);

	return r ? r->text : "unknown delete-link reason";
}

/* number of known decline codes and the i-th one (for tools and tests) */
static inline unsigned int smcx_decl_count(void)
{
	unsigned int n;

	smcx__decl_table(&n);
	return n;
}

static inline const struct smcx_reason *smcx_decl_at(unsigned int i)
{
	unsigned int n;
	const struct smcx_reason *t = smcx__decl_table(&n);

	return i < n ? &t[i] : NULL;
}

#endif /* SMCX_WIRE_REASONS_H */
