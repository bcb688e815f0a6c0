/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx wire codec: CLC (connection layer control) messages.
 *
 * CLC messages travel over the initial TCP connection: Proposal (client),
 * Accept (server), Confirm (client) and Decline (either side).  Layouts come
 * from RFC 7609 (v1) and the IBM "SMC Version 2" specification, checked
 * field by field against what Linux 6.12 net/smc puts on the wire; where the
 * two disagree the mainline peer wins and a comment says so.  Offsets in the
 * comments are from the start of the message.
 *
 * All CLC messages share:
 *   0..3  eyecatcher, EBCDIC "SMCR" (e2 d4 c3 d9) or "SMCD" (e2 d4 c3 c4)
 *   4     type: 1 proposal, 2 accept, 3 confirm, 4 decline
 *   5..6  length of the whole message incl. header and trailer, big-endian
 *   7     version (high nibble) | typev2 (bits 3..2) | typev1 (bits 1..0)
 *   ...   body
 *   n-4   trailer: the eyecatcher again
 * typev1 is the RFC 7609 "path" (R=0, D=1, N=2 none, B=3 both).  In a
 * proposal typev2 is the SMC type offered for version 2; in accept, confirm
 * and decline its bit 1 is the first-contact flag (decline: "out of sync")
 * and its bit 0 is reserved.
 *
 * smcx_clc_decode_accept() takes SMC-R accept/confirm bodies only and
 * rejects an SMC-D one with EPATH; SMC-D accept/confirm (SMC-Dv2 over an
 * emulated ISM device such as loopback-ism) has its own decoder in
 * clc_accept_d.h.  Proposal and decline carry their SMC-D fields because a
 * client may offer both.
 */
#ifndef SMCX_WIRE_CLC_H
#define SMCX_WIRE_CLC_H

#include "bytes.h"

#define SMCX_CLC_PROPOSAL	0x01
#define SMCX_CLC_ACCEPT		0x02
#define SMCX_CLC_CONFIRM	0x03
#define SMCX_CLC_DECLINE	0x04

#define SMCX_CLC_V1		1
#define SMCX_CLC_V2		2

#define SMCX_TYPE_R		0	/* SMC-R */
#define SMCX_TYPE_D		1	/* SMC-D */
#define SMCX_TYPE_N		2	/* neither */
#define SMCX_TYPE_B		3	/* both */

#define SMCX_EYE_SMCR		0
#define SMCX_EYE_SMCD		1

/*
 * typev2 bit 1: "first contact" in accept and confirm, "out of sync" in
 * decline
 */
#define SMCX_CLC_FIRST_CONTACT	0x2

#define SMCX_CLC_OS_ZOS		1
#define SMCX_CLC_OS_LINUX	2
#define SMCX_CLC_OS_AIX		3

#define SMCX_RELEASE_0		0
#define SMCX_RELEASE_1		1	/* v2.1: conn/link maxima, features */

#define SMCX_PEERID_LEN		8
#define SMCX_GID_LEN		16
#define SMCX_MAC_LEN		6
#define SMCX_EID_LEN		32
#define SMCX_HOSTNAME_LEN	32

/* maxima: mainline's receive area (struct smc_clc_msg_proposal_area) */
#define SMCX_CLC_MAX_V6_PREFIX	8
#define SMCX_CLC_MAX_UEID	8
#define SMCX_CLC_MAX_ISM_GIDS	8
/* GIDs in the confirm first-contact GID list; mainline sends at most 2 */
#define SMCX_CLC_MAX_FCE_GIDS	8

#define SMCX_CLC_HDR_LEN	8
#define SMCX_CLC_TRL_LEN	4
/* header, peer id, GID, MAC and the ip area offset */
#define SMCX_CLC_PROP_BASE_LEN	40
#define SMCX_CLC_SMCD_AREA_LEN	40
#define SMCX_CLC_IP_AREA_LEN	8
#define SMCX_CLC_IPV6_PFX_LEN	17
#define SMCX_CLC_V2_EXT_LEN	40
#define SMCX_CLC_SMCD_V2_EXT_LEN 48
#define SMCX_CLC_GIDCHID_LEN	10
#define SMCX_CLC_ACC_V1_LEN	68
#define SMCX_CLC_ACC_V2_LEN	108
#define SMCX_CLC_FCE_LEN	36	/* first contact extension, release 0 */
#define SMCX_CLC_FCE_V2X_LEN	52	/* ... with the v2.1 (release 1) tail */
#define SMCX_CLC_GLE_LEN	4	/* GID list header in confirm */
#define SMCX_CLC_DECL_V1_LEN	28
#define SMCX_CLC_DECL_V2_LEN	44
#define SMCX_CLC_DECL_DIAG_V2	4
/*
 * largest CLC message this codec can produce or accept: a full proposal
 * (652 bytes); an SMC-R confirm is at most 292, an SMC-D accept/confirm 130
 */
#define SMCX_CLC_MAX_LEN						\
	(SMCX_CLC_PROP_BASE_LEN + SMCX_CLC_SMCD_AREA_LEN +		\
	 SMCX_CLC_IP_AREA_LEN +						\
	 SMCX_CLC_MAX_V6_PREFIX * SMCX_CLC_IPV6_PFX_LEN +		\
	 SMCX_CLC_V2_EXT_LEN +						\
	 SMCX_CLC_MAX_UEID * SMCX_EID_LEN +				\
	 SMCX_CLC_SMCD_V2_EXT_LEN +					\
	 SMCX_CLC_MAX_ISM_GIDS * SMCX_CLC_GIDCHID_LEN +			\
	 SMCX_CLC_TRL_LEN)

struct smcx_clc_hdr {
	u8 eyecatcher;		/* SMCX_EYE_SMCR or SMCX_EYE_SMCD */
	u8 type;		/* SMCX_CLC_* */
	u16 length;		/* decode: the length field; encode: computed */
	u8 version;		/* SMCX_CLC_V1 or SMCX_CLC_V2 */
	u8 typev1;		/* SMCX_TYPE_* */
	u8 typev2;		/* proposal: SMCX_TYPE_*; else flag bits */
};

struct smcx_clc_ipv6_prefix {
	u8 prefix[16];
	u8 len;			/* significant bits, 0..128 */
};

struct smcx_clc_gidchid {
	u64 gid;		/* ISM GID */
	u16 chid;		/* ISM CHID */
};

struct smcx_clc_proposal {
	struct smcx_clc_hdr hdr;
	u8 peer_id[SMCX_PEERID_LEN];
	u8 gid[SMCX_GID_LEN];		/* client preferred RoCE GID */
	u8 mac[SMCX_MAC_LEN];
	/*
	 * SMC-D area between the ip-area offset field and the ip area.  v2
	 * always has it (decode sets 1, encode requires 1); v1 has it when
	 * the ip-area offset is 40 (mandatory when typev1 offers SMC-D).
	 */
	u8 has_smcd_area;
	u64 ism_gid;
	u16 ism_chid;			/* v2 only */
	u8 vendor_oui[3];		/* v2 only */
	u8 vendor_exp[5];		/* v2 only */
	/* IP area: v1 always, v2 when typev1 != N */
	u32 ipv4_subnet;		/* host order, e.g. 0xc0a80000 */
	u8 ipv4_prefix_len;		/* 0..32 */
	u8 ipv6_cnt;
	struct smcx_clc_ipv6_prefix ipv6[SMCX_CLC_MAX_V6_PREFIX];
	/* v2 extension: v2 when typev2 != N */
	u8 eid_cnt;
	u8 ism_gid_cnt;
	u8 release;			/* SMCX_RELEASE_* (4 bits) */
	u8 seid;			/* system EID offered (0/1) */
	u8 roce_gid[SMCX_GID_LEN];	/* RoCEv2 GID (SMC-Rv2) */
	u8 max_conns;			/* release >= 1 */
	u8 max_links;			/* release >= 1 */
	u16 feature_mask;		/* release >= 1 */
	u8 user_eid[SMCX_CLC_MAX_UEID][SMCX_EID_LEN];
	/* SMC-Dv2 extension: v2 when typev2 is D or B */
	u8 system_eid[SMCX_EID_LEN];
	struct smcx_clc_gidchid ism[SMCX_CLC_MAX_ISM_GIDS];
};

/* SMC-R accept or confirm (they share one layout) */
struct smcx_clc_accept {
	struct smcx_clc_hdr hdr;	/* typev2 & SMCX_CLC_FIRST_CONTACT */
	u8 peer_id[SMCX_PEERID_LEN];
	u8 gid[SMCX_GID_LEN];
	u8 mac[SMCX_MAC_LEN];
	u32 qpn;			/* 24 bits */
	u32 rmb_rkey;
	u8 rmbe_idx;
	u32 rmbe_alert_token;
	u8 rmbe_size;			/* compressed notation, 4 bits */
	u8 qp_mtu;			/* enum ib_mtu, 4 bits */
	u64 rmb_dma_addr;
	u32 psn;			/* 24 bits */
	/* v2 */
	u8 eid[SMCX_EID_LEN];		/* negotiated EID, all zero if none */
	/* v2 with first contact: first contact extension */
	u8 fce_v2x;			/* 1: 52-byte v2.1 form, 0: 36-byte */
	u8 v2_direct;			/* peer reachable without gateway */
	u8 os_type;			/* SMCX_CLC_OS_*, 4 bits */
	u8 release;			/* 4 bits */
	u8 hostname[SMCX_HOSTNAME_LEN];
	u8 max_conns;			/* v2x only */
	u8 max_links;			/* v2x only */
	u16 feature_mask;		/* v2x only */
	u32 vendor_exp_options;		/* v2x only */
	/* confirm, v2 with first contact: GID list */
	u8 gid_cnt;
	u8 gids[SMCX_CLC_MAX_FCE_GIDS][SMCX_GID_LEN];
};

struct smcx_clc_decline {
	/* typev2 & SMCX_CLC_FIRST_CONTACT: out of sync */
	struct smcx_clc_hdr hdr;
	u8 peer_id[SMCX_PEERID_LEN];
	u32 diag;			/* peer diagnosis, SMCX_DECL_* */
	u8 os_type;			/* 4 bits; mainline sends 0 in v1 */
	u32 diag_v2[SMCX_CLC_DECL_DIAG_V2];		/* v2 only */
};

static const u8 smcx_eye_smcr[4] = { 0xe2, 0xd4, 0xc3, 0xd9 };
static const u8 smcx_eye_smcd[4] = { 0xe2, 0xd4, 0xc3, 0xc4 };

static inline int smcx_type_has_r(u8 t)
{
	return t == SMCX_TYPE_R || t == SMCX_TYPE_B;
}

static inline int smcx_type_has_d(u8 t)
{
	return t == SMCX_TYPE_D || t == SMCX_TYPE_B;
}

static inline int smcx_clc_first_contact(const struct smcx_clc_hdr *h)
{
	return !!(h->typev2 & SMCX_CLC_FIRST_CONTACT);
}

static inline const u8 *smcx_clc_eye_bytes(u8 eye)
{
	return eye == SMCX_EYE_SMCD ? smcx_eye_smcd : smcx_eye_smcr;
}

/*
 * Validate and read the 8-byte header only.  A stream reader peeks these
 * bytes to learn how much to receive; @len may be shorter than the message.
 */
static inline int smcx_clc_peek(const u8 *buf, size_t len,
				struct smcx_clc_hdr *h)
{
	if (len < SMCX_CLC_HDR_LEN)
		return -SMCX_WIRE_ESHORT;
	if (!memcmp(buf, smcx_eye_smcr, 4))
		h->eyecatcher = SMCX_EYE_SMCR;
	else if (!memcmp(buf, smcx_eye_smcd, 4))
		h->eyecatcher = SMCX_EYE_SMCD;
	else
		return -SMCX_WIRE_EEYECATCHER;
	h->type = buf[4];
	h->length = smcx_get_be16(buf + 5);
	h->version = buf[7] >> 4;
	h->typev2 = (buf[7] >> 2) & 3;
	h->typev1 = buf[7] & 3;
	if (h->type < SMCX_CLC_PROPOSAL || h->type > SMCX_CLC_DECLINE)
		return -SMCX_WIRE_ETYPE;
	/*
	 * Mainline treats any version >= 2 as v2 when parsing; we accept only
	 * the versions whose layout we know, so a future v3 peer is declined
	 * rather than half-parsed.
	 */
	if (h->version != SMCX_CLC_V1 && h->version != SMCX_CLC_V2)
		return -SMCX_WIRE_EVERSION;
	return 0;
}

/* header checks common to all decoders: kind, and length == buffer */
static inline int smcx_clc__hdr(const u8 *buf, size_t len, u8 type,
				struct smcx_clc_hdr *h)
{
	int rc = smcx_clc_peek(buf, len, h);

	if (rc)
		return rc;
	if (h->type != type)
		return -SMCX_WIRE_ETYPE;
	if (h->length != len)
		return -SMCX_WIRE_ELEN;
	return 0;
}

/* the trailer repeats the header eyecatcher (mainline accepts either one,
 * but it always sends a matching pair, so a mismatch means corruption)
 */
static inline int smcx_clc__trailer(const u8 *buf, size_t len, u8 eye)
{
	if (memcmp(buf + len - SMCX_CLC_TRL_LEN, smcx_clc_eye_bytes(eye), 4))
		return -SMCX_WIRE_ETRAILER;
	return 0;
}

static inline void smcx_clc__put_hdr(u8 *out, const struct smcx_clc_hdr *h,
				     u8 type, size_t len)
{
	memcpy(out, smcx_clc_eye_bytes(h->eyecatcher), 4);
	out[4] = type;
	smcx_put_be16(out + 5, (u16)len);
	out[7] = (u8)((h->version << 4) | ((h->typev2 & 3) << 2) |
		      (h->typev1 & 3));
	memcpy(out + len - SMCX_CLC_TRL_LEN,
	       smcx_clc_eye_bytes(h->eyecatcher), 4);
}

static inline int smcx_clc__hdr_ok(const struct smcx_clc_hdr *h)
{
	return h->eyecatcher <= SMCX_EYE_SMCD &&
	       (h->version == SMCX_CLC_V1 || h->version == SMCX_CLC_V2) &&
	       h->typev1 <= 3 && h->typev2 <= 3;
}

/* ======================== Proposal ======================================
 *
 *   0..7    header (type 1)
 *   8..15   sender peer id (system id)
 *   16..31  client preferred GID
 *   32..37  client preferred MAC
 *   38..39  ip area offset: bytes between the end of this field and the IP
 *           area; 0 or 40 (the SMC-D area) -- mainline rejects > 40
 *   v2, and v1 with offset 40 -- SMC-D area (40 bytes):
 *   +0..7   ISM GID
 *   +8..9   ISM CHID                          (v1: reserved)
 *   +10..11 v2 extension offset, counted from the end of this field
 *   +12..14 vendor OUI, +15..19 vendor options (v2.1; v1: reserved)
 *   +20..39 reserved
 *   IP area (v1 always; v2 only when typev1 != N; 8 bytes):
 *   +0..3   IPv4 subnet, +4 prefix length, +5..6 reserved,
 *   +7      number of IPv6 prefixes, then 17 bytes each (16 prefix + len)
 *   v2 extension (typev2 != N; 40 bytes):
 *   +0 EID count, +1 ISM GID count, +2 reserved,
 *   +3 release (high nibble) | 3 reserved bits | SEID flag (bit 0),
 *   +4..5 reserved, +6..7 SMC-Dv2 extension offset (from the end of this
 *   field), +8..23 RoCEv2 GID, +24 max conns, +25 max links,
 *   +26..27 feature mask, +28..39 reserved; then 32 bytes per user EID
 *   SMC-Dv2 extension (typev2 D or B; 48 bytes):
 *   +0..31 system EID, +32..47 reserved; then 10 bytes per GID/CHID pair
 *   (an emulated ISM device takes two, see clc_accept_d.h)
 *   trailer
 *
 * Mainline (6.12) always sends version 2 with the SMC-D area even when it
 * offers SMC-R only; a version-1 proposal comes from an RFC 7609-only peer.
 */

static inline size_t smcx_clc__ip_area_len(const struct smcx_clc_proposal *m)
{
	return SMCX_CLC_IP_AREA_LEN +
	       (size_t)m->ipv6_cnt * SMCX_CLC_IPV6_PFX_LEN;
}

static inline int smcx_clc__prop_has_ip(const struct smcx_clc_proposal *m)
{
	return m->hdr.version == SMCX_CLC_V1 || m->hdr.typev1 != SMCX_TYPE_N;
}

static inline int smcx_clc__prop_has_v2ext(const struct smcx_clc_proposal *m)
{
	return m->hdr.version == SMCX_CLC_V2 && m->hdr.typev2 != SMCX_TYPE_N;
}

static inline int smcx_clc__prop_has_dv2ext(const struct smcx_clc_proposal *m)
{
	return m->hdr.version == SMCX_CLC_V2 && smcx_type_has_d(m->hdr.typev2);
}

static inline int smcx_clc__get_ip_area(const u8 *buf, size_t end,
					size_t *pos,
					struct smcx_clc_proposal *m,
					unsigned int flags)
{
	const u8 *p = buf + *pos;
	unsigned int i;
	int rc;

	if (*pos + SMCX_CLC_IP_AREA_LEN > end)
		return -SMCX_WIRE_ETRUNC;
	m->ipv4_subnet = smcx_get_be32(p);
	m->ipv4_prefix_len = p[4];
	if (m->ipv4_prefix_len > 32)
		return -SMCX_WIRE_ERANGE;
	rc = smcx_rsvd_bytes(p + 5, 2, flags);
	if (rc)
		return rc;
	m->ipv6_cnt = p[7];
	if (m->ipv6_cnt > SMCX_CLC_MAX_V6_PREFIX)
		return -SMCX_WIRE_ECOUNT;
	*pos += SMCX_CLC_IP_AREA_LEN;
	if (*pos + (size_t)m->ipv6_cnt * SMCX_CLC_IPV6_PFX_LEN > end)
		return -SMCX_WIRE_ETRUNC;
	for (i = 0; i < m->ipv6_cnt; i++) {
		p = buf + *pos;
		memcpy(m->ipv6[i].prefix, p, 16);
		m->ipv6[i].len = p[16];
		if (m->ipv6[i].len > 128)
			return -SMCX_WIRE_ERANGE;
		*pos += SMCX_CLC_IPV6_PFX_LEN;
	}
	return 0;
}

static inline int smcx_clc__get_v2ext(const u8 *buf, size_t end, size_t *pos,
				      struct smcx_clc_proposal *m,
				      unsigned int flags)
{
	const u8 *p = buf + *pos;
	u16 dv2off;
	unsigned int i;
	int rc;

	if (*pos + SMCX_CLC_V2_EXT_LEN > end)
		return -SMCX_WIRE_ETRUNC;
	m->eid_cnt = p[0];
	m->ism_gid_cnt = p[1];
	m->release = p[3] >> 4;
	m->seid = p[3] & 1;
	dv2off = smcx_get_be16(p + 6);
	memcpy(m->roce_gid, p + 8, SMCX_GID_LEN);
	m->max_conns = p[24];
	m->max_links = p[25];
	m->feature_mask = smcx_get_be16(p + 26);
	rc = smcx_rsvd_bytes(p + 2, 1, flags);
	if (!rc)
		rc = smcx_rsvd_bits(p[3], 0x0e, flags);
	if (!rc)
		rc = smcx_rsvd_bytes(p + 4, 2, flags);
	if (!rc)
		rc = smcx_rsvd_bytes(p + 28, 12, flags);
	if (rc)
		return rc;
	if (m->eid_cnt > SMCX_CLC_MAX_UEID ||
	    m->ism_gid_cnt > SMCX_CLC_MAX_ISM_GIDS)
		return -SMCX_WIRE_ECOUNT;
	*pos += SMCX_CLC_V2_EXT_LEN;
	if (*pos + (size_t)m->eid_cnt * SMCX_EID_LEN > end)
		return -SMCX_WIRE_ETRUNC;
	for (i = 0; i < m->eid_cnt; i++) {
		memcpy(m->user_eid[i], buf + *pos, SMCX_EID_LEN);
		if (smcx_check_text(m->user_eid[i], SMCX_EID_LEN))
			return -SMCX_WIRE_ESTRING;
		*pos += SMCX_EID_LEN;
	}
	if (!smcx_clc__prop_has_dv2ext(m)) {
		/* mainline: offset and GID count only set with SMC-Dv2 */
		if (dv2off)
			return -SMCX_WIRE_EOFFSET;
		if (m->ism_gid_cnt)
			return -SMCX_WIRE_ECOUNT;
		return 0;
	}
	/* the SMC-Dv2 extension follows the EIDs immediately */
	if (dv2off !=
	    SMCX_CLC_V2_EXT_LEN - 8 + (size_t)m->eid_cnt * SMCX_EID_LEN)
		return -SMCX_WIRE_EOFFSET;
	if (*pos + SMCX_CLC_SMCD_V2_EXT_LEN > end)
		return -SMCX_WIRE_ETRUNC;
	p = buf + *pos;
	memcpy(m->system_eid, p, SMCX_EID_LEN);
	if (smcx_check_text(m->system_eid, SMCX_EID_LEN))
		return -SMCX_WIRE_ESTRING;
	rc = smcx_rsvd_bytes(p + 32, 16, flags);
	if (rc)
		return rc;
	*pos += SMCX_CLC_SMCD_V2_EXT_LEN;
	if (*pos + (size_t)m->ism_gid_cnt * SMCX_CLC_GIDCHID_LEN > end)
		return -SMCX_WIRE_ETRUNC;
	for (i = 0; i < m->ism_gid_cnt; i++) {
		m->ism[i].gid = smcx_get_be64(buf + *pos);
		m->ism[i].chid = smcx_get_be16(buf + *pos + 8);
		*pos += SMCX_CLC_GIDCHID_LEN;
	}
	return 0;
}

static inline int smcx_clc_decode_proposal(const u8 *buf, size_t len,
					   struct smcx_clc_proposal *m,
					   unsigned int flags)
{
	struct smcx_clc_hdr *h = &m->hdr;
	size_t pos, end;
	u16 off, v2off = 0;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = smcx_clc__hdr(buf, len, SMCX_CLC_PROPOSAL, h);
	if (rc)
		return rc;
	if (len < SMCX_CLC_PROP_BASE_LEN + SMCX_CLC_TRL_LEN)
		return -SMCX_WIRE_ESHORT;
	memcpy(m->peer_id, buf + 8, SMCX_PEERID_LEN);
	memcpy(m->gid, buf + 16, SMCX_GID_LEN);
	memcpy(m->mac, buf + 32, SMCX_MAC_LEN);
	off = smcx_get_be16(buf + 38);
	end = len - SMCX_CLC_TRL_LEN;
	pos = SMCX_CLC_PROP_BASE_LEN;

	if (h->version == SMCX_CLC_V1) {
		if (h->typev1 == SMCX_TYPE_N)
			return -SMCX_WIRE_EPATH;
		/* RFC 7609 byte 7 low nibble is flag+reserved in a proposal */
		rc = smcx_rsvd_bits(buf[7], 0x0c, flags);
		if (rc)
			return rc;
		h->typev2 = 0;	/* lax mode: drop what was ignored */
		if (off != 0 && off != SMCX_CLC_SMCD_AREA_LEN)
			return -SMCX_WIRE_EOFFSET;
		if (smcx_type_has_d(h->typev1) && off != SMCX_CLC_SMCD_AREA_LEN)
			return -SMCX_WIRE_EOFFSET;
		if (off) {
			if (pos + SMCX_CLC_SMCD_AREA_LEN > end)
				return -SMCX_WIRE_ETRUNC;
			m->has_smcd_area = 1;
			m->ism_gid = smcx_get_be64(buf + pos);
			rc = smcx_rsvd_bytes(buf + pos + 8, 32, flags);
			if (rc)
				return rc;
			pos += SMCX_CLC_SMCD_AREA_LEN;
		}
		rc = smcx_clc__get_ip_area(buf, end, &pos, m, flags);
		if (rc)
			return rc;
	} else {
		if (h->typev1 == SMCX_TYPE_N && h->typev2 == SMCX_TYPE_N)
			return -SMCX_WIRE_EPATH;
		if (len < SMCX_CLC_PROP_BASE_LEN + SMCX_CLC_SMCD_AREA_LEN +
			  SMCX_CLC_TRL_LEN)
			return -SMCX_WIRE_ESHORT;
		/* mainline: offset 40 with an ip area, 0 without one */
		if (off != (h->typev1 != SMCX_TYPE_N ?
			    SMCX_CLC_SMCD_AREA_LEN : 0))
			return -SMCX_WIRE_EOFFSET;
		m->has_smcd_area = 1;
		m->ism_gid = smcx_get_be64(buf + pos);
		m->ism_chid = smcx_get_be16(buf + pos + 8);
		v2off = smcx_get_be16(buf + pos + 10);
		memcpy(m->vendor_oui, buf + pos + 12, 3);
		memcpy(m->vendor_exp, buf + pos + 15, 5);
		rc = smcx_rsvd_bytes(buf + pos + 20, 20, flags);
		if (rc)
			return rc;
		pos += SMCX_CLC_SMCD_AREA_LEN;
		if (h->typev1 != SMCX_TYPE_N) {
			rc = smcx_clc__get_ip_area(buf, end, &pos, m, flags);
			if (rc)
				return rc;
		}
		if (h->typev2 == SMCX_TYPE_N) {
			if (v2off)
				return -SMCX_WIRE_EOFFSET;
		} else {
			/* counted from the end of the offset field (byte 52) */
			if (v2off != pos - (SMCX_CLC_PROP_BASE_LEN + 12))
				return -SMCX_WIRE_EOFFSET;
			rc = smcx_clc__get_v2ext(buf, end, &pos, m, flags);
			if (rc)
				return rc;
		}
	}
	if (pos != end)
		return -SMCX_WIRE_ELEN;
	return smcx_clc__trailer(buf, len, h->eyecatcher);
}

/* encoded length of a proposal, or negative EINVAL if it cannot be encoded */
static inline int smcx_clc_proposal_len(const struct smcx_clc_proposal *m)
{
	const struct smcx_clc_hdr *h = &m->hdr;
	size_t len = SMCX_CLC_PROP_BASE_LEN + SMCX_CLC_TRL_LEN;
	unsigned int i;

	if (!smcx_clc__hdr_ok(h) || m->has_smcd_area > 1)
		return -SMCX_WIRE_EINVAL;
	if (h->version == SMCX_CLC_V1) {
		if (h->typev1 == SMCX_TYPE_N || h->typev2)
			return -SMCX_WIRE_EINVAL;
		if (smcx_type_has_d(h->typev1) && !m->has_smcd_area)
			return -SMCX_WIRE_EINVAL;
	} else {
		if (h->typev1 == SMCX_TYPE_N && h->typev2 == SMCX_TYPE_N)
			return -SMCX_WIRE_EINVAL;
		if (!m->has_smcd_area)
			return -SMCX_WIRE_EINVAL;
	}
	if (m->has_smcd_area)
		len += SMCX_CLC_SMCD_AREA_LEN;
	if (smcx_clc__prop_has_ip(m)) {
		if (m->ipv4_prefix_len > 32 ||
		    m->ipv6_cnt > SMCX_CLC_MAX_V6_PREFIX)
			return -SMCX_WIRE_EINVAL;
		for (i = 0; i < m->ipv6_cnt; i++)
			if (m->ipv6[i].len > 128)
				return -SMCX_WIRE_EINVAL;
		len += smcx_clc__ip_area_len(m);
	} else if (m->ipv6_cnt) {
		return -SMCX_WIRE_EINVAL;
	}
	if (smcx_clc__prop_has_v2ext(m)) {
		if (m->eid_cnt > SMCX_CLC_MAX_UEID || m->release > 15 ||
		    m->seid > 1)
			return -SMCX_WIRE_EINVAL;
		for (i = 0; i < m->eid_cnt; i++)
			if (smcx_check_text(m->user_eid[i], SMCX_EID_LEN))
				return -SMCX_WIRE_EINVAL;
		len += SMCX_CLC_V2_EXT_LEN + (size_t)m->eid_cnt * SMCX_EID_LEN;
	} else if (m->eid_cnt) {
		return -SMCX_WIRE_EINVAL;
	}
	if (smcx_clc__prop_has_dv2ext(m)) {
		if (m->ism_gid_cnt > SMCX_CLC_MAX_ISM_GIDS ||
		    smcx_check_text(m->system_eid, SMCX_EID_LEN))
			return -SMCX_WIRE_EINVAL;
		len += SMCX_CLC_SMCD_V2_EXT_LEN +
		       (size_t)m->ism_gid_cnt * SMCX_CLC_GIDCHID_LEN;
	} else if (m->ism_gid_cnt) {
		return -SMCX_WIRE_EINVAL;
	}
	return (int)len;
}

static inline void smcx_clc__put_ip_area(u8 *out, size_t *pos,
					 const struct smcx_clc_proposal *m)
{
	u8 *p = out + *pos;
	unsigned int i;

	smcx_put_be32(p, m->ipv4_subnet);
	p[4] = m->ipv4_prefix_len;
	p[7] = m->ipv6_cnt;
	*pos += SMCX_CLC_IP_AREA_LEN;
	for (i = 0; i < m->ipv6_cnt; i++) {
		memcpy(out + *pos, m->ipv6[i].prefix, 16);
		out[*pos + 16] = m->ipv6[i].len;
		*pos += SMCX_CLC_IPV6_PFX_LEN;
	}
}

static inline int smcx_clc_encode_proposal(const struct smcx_clc_proposal *m,
					   u8 *out, size_t out_len)
{
	int len = smcx_clc_proposal_len(m);
	size_t pos = SMCX_CLC_PROP_BASE_LEN, v2_at = 0;
	unsigned int i;
	u8 *p;

	if (len < 0)
		return len;
	if ((size_t)len > out_len)
		return -SMCX_WIRE_ENOSPC;
	memset(out, 0, (size_t)len);
	smcx_clc__put_hdr(out, &m->hdr, SMCX_CLC_PROPOSAL, (size_t)len);
	memcpy(out + 8, m->peer_id, SMCX_PEERID_LEN);
	memcpy(out + 16, m->gid, SMCX_GID_LEN);
	memcpy(out + 32, m->mac, SMCX_MAC_LEN);
	if (m->has_smcd_area) {
		p = out + pos;
		smcx_put_be16(out + 38, SMCX_CLC_SMCD_AREA_LEN);
		smcx_put_be64(p, m->ism_gid);
		if (m->hdr.version == SMCX_CLC_V2) {
			smcx_put_be16(p + 8, m->ism_chid);
			memcpy(p + 12, m->vendor_oui, 3);
			memcpy(p + 15, m->vendor_exp, 5);
		}
		pos += SMCX_CLC_SMCD_AREA_LEN;
	}
	if (smcx_clc__prop_has_ip(m)) {
		smcx_clc__put_ip_area(out, &pos, m);
	} else {
		/* v2 without ip area: mainline leaves the ip area offset 0 */
		smcx_put_be16(out + 38, 0);
	}
	if (smcx_clc__prop_has_v2ext(m)) {
		v2_at = pos;
		smcx_put_be16(out + SMCX_CLC_PROP_BASE_LEN + 10,
			      (u16)(pos - (SMCX_CLC_PROP_BASE_LEN + 12)));
		p = out + pos;
		p[0] = m->eid_cnt;
		p[1] = m->ism_gid_cnt;
		p[3] = (u8)((m->release << 4) | m->seid);
		memcpy(p + 8, m->roce_gid, SMCX_GID_LEN);
		p[24] = m->max_conns;
		p[25] = m->max_links;
		smcx_put_be16(p + 26, m->feature_mask);
		pos += SMCX_CLC_V2_EXT_LEN;
		for (i = 0; i < m->eid_cnt; i++) {
			memcpy(out + pos, m->user_eid[i], SMCX_EID_LEN);
			pos += SMCX_EID_LEN;
		}
	}
	if (smcx_clc__prop_has_dv2ext(m)) {
		smcx_put_be16(out + v2_at + 6, (u16)(pos - (v2_at + 8)));
		memcpy(out + pos, m->system_eid, SMCX_EID_LEN);
		pos += SMCX_CLC_SMCD_V2_EXT_LEN;
		for (i = 0; i < m->ism_gid_cnt; i++) {
			smcx_put_be64(out + pos, m->ism[i].gid);
			smcx_put_be16(out + pos + 8, m->ism[i].chid);
			pos += SMCX_CLC_GIDCHID_LEN;
		}
	}
	return len;
}

#endif /* SMCX_WIRE_CLC_H */
