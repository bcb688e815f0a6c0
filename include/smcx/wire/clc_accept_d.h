/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx wire codec: CLC Accept and Confirm for SMC-D (they share one layout),
 * as Linux >= 6.10 puts them on the wire (net/smc/smc_clc.h, smc_clc.c),
 * for SMC-Dv2 over an emulated ISM device such as loopback-ism.
 *
 * Emulated ISM devices.  CHIDs 0xff00..0xffff are reserved for them:
 * 0xffff is loopback-ism, 0xff00..0xfffe virtio-ism (mainline smc_ism.h,
 * smc_loopback.h).  An emulated device has a 128-bit GID: the 64 bits every
 * SMC-D GID field carries, and a second half, gid_ext.
 *  - Accept/Confirm: the GID extension at 66..73 carries gid_ext; mainline
 *    fills it only when its CHID is emulated and sends 0 otherwise, and
 *    reads it only when the accepted CHID is emulated.
 *  - Proposal, SMC-Dv2 extension list (clc.h): an emulated device takes two
 *    GID/CHID entries in a row, the first with the GID, the second with
 *    gid_ext and the same CHID; a native ISM device takes one.  The list
 *    holds at most 8 entries, both halves counted (so at most 4 emulated
 *    devices).  The server pairs an entry whose CHID is emulated with the
 *    next one only if that one exists and repeats the CHID, and skips it
 *    otherwise; it matches the native device of the SMC-D area (CHID != 0)
 *    with a gid_ext of 0.
 *  - The client identifies the device the server chose by the Accept's CHID
 *    alone, among the CHIDs it proposed.
 */
#ifndef SMCX_WIRE_CLC_ACCEPT_D_H
#define SMCX_WIRE_CLC_ACCEPT_D_H

#include "clc_accept.h"

#define SMCX_CLC_ACC_D_V1_LEN	48
#define SMCX_CLC_ACC_D_V2_LEN	78

/* CHIDs of emulated ISM devices: (chid & mask) == mask */
#define SMCX_CLC_EMULATED_CHID_MASK	0xff00
/* mainline's reserved CHID of loopback-ism */
#define SMCX_CLC_LO_CHID	0xffff

/*
 * feature mask bit (v2 extension, first contact extension): emulated ISM
 * devices, mainline's SMC_SPF_EMULATED_ISM_DEV, the one bit its
 * SMC_FEATURE_MASK holds
 */
#define SMCX_CLC_FEAT_EMULATED_ISM	0x0001

/* SMC-D accept or confirm */
struct smcx_clc_accept_d {
	/* eyecatcher SMCD, typev1 D, typev2 & SMCX_CLC_FIRST_CONTACT */
	struct smcx_clc_hdr hdr;
	u64 gid;			/* sender's ISM GID */
	u64 token;			/* sender's DMB token */
	u8 dmbe_idx;			/* mainline: 0 */
	u8 dmbe_size;			/* compressed notation, 4 bits */
	u32 linkid;			/* mainline: its link group id */
	/* v2 */
	u16 chid;			/* sender's ISM CHID */
	u8 eid[SMCX_EID_LEN];		/* negotiated EID, all zero if none */
	u64 gid_ext;			/* second half of an emulated GID */
	/* v2 with first contact: first contact extension */
	u8 fce_v2x;			/* 1: 52-byte v2.1 form, 0: 36-byte */
	u8 v2_direct;			/* mainline sends 0 for SMC-D */
	u8 os_type;			/* SMCX_CLC_OS_*, 4 bits */
	u8 release;			/* 4 bits */
	u8 hostname[SMCX_HOSTNAME_LEN];
	u8 max_conns;			/* reserved in SMC-D: always 0 */
	u8 max_links;			/* reserved in SMC-D: always 0 */
	u16 feature_mask;		/* v2x only */
	u32 vendor_exp_options;		/* v2x only */
};

static inline int smcx_clc_chid_emulated(u16 chid)
{
	return (chid & SMCX_CLC_EMULATED_CHID_MASK) ==
	       SMCX_CLC_EMULATED_CHID_MASK;
}

/* ======================== Accept / Confirm (SMC-D) ======================
 *
 *   0..7    header (eyecatcher SMCD; type 2 or 3; typev1 D; typev2 bit 1 =
 *           first contact)
 *   8..15   sender's ISM GID
 *   16..23  DMB token
 *   24      DMBE index (mainline: 0)
 *   25      DMBE size, compressed (high nibble) | reserved (low nibble)
 *   26..27  reserved
 *   28..31  link id (mainline: the 4 bytes of its link group id)
 *   v1: 32..43 reserved, 44..47 trailer (length 48)
 *   v2: 32..33 CHID, 34..65 negotiated EID, 66..73 GID extension
 *       without first contact: 74..77 trailer (length 78)
 *       first contact extension at 74 (layout in clc_accept.h): mainline
 *       sends the 52-byte v2.1 form when the negotiated release is 1 and
 *       the 36-byte form when it is 0 (Linux <= 6.4 always 36), in the
 *       accept and in the confirm alike; max conns and max links are
 *       reserved in SMC-D (mainline sends 0), v2_direct is 0 from mainline
 *   An accept or confirm with first contact is 114 or 130 bytes; SMC-D has
 *   no GID list.  Mainline >= 6.5 takes any v2 length >= 78 and a v1
 *   length of 48, and either eyecatcher in header and trailer; we require
 *   SMCD and the exact length of the layout.
 */

static inline int smcx_clc_decode_accept_d(const u8 *buf, size_t len,
					   u8 type, struct smcx_clc_accept_d *m,
					   unsigned int flags)
{
	struct smcx_clc_hdr *h = &m->hdr;
	const u8 *p;
	size_t pos;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = smcx_clc__acc_hdr(buf, len, type, h, SMCX_TYPE_D,
			       SMCX_CLC_ACC_D_V1_LEN, SMCX_CLC_ACC_D_V2_LEN,
			       flags);
	if (rc)
		return rc;
	m->gid = smcx_get_be64(buf + 8);
	m->token = smcx_get_be64(buf + 16);
	m->dmbe_idx = buf[24];
	m->dmbe_size = buf[25] >> 4;
	m->linkid = smcx_get_be32(buf + 28);
	rc = smcx_rsvd_bits(buf[25], 0x0f, flags);
	if (!rc)
		rc = smcx_rsvd_bytes(buf + 26, 2, flags);
	if (rc)
		return rc;
	if (h->version == SMCX_CLC_V1) {
		if (len != SMCX_CLC_ACC_D_V1_LEN)
			return -SMCX_WIRE_ELEN;
		rc = smcx_rsvd_bytes(buf + 32, 12, flags);
		if (rc)
			return rc;
		return smcx_clc__trailer(buf, len, h->eyecatcher);
	}
	m->chid = smcx_get_be16(buf + 32);
	memcpy(m->eid, buf + 34, SMCX_EID_LEN);
	if (smcx_check_text(m->eid, SMCX_EID_LEN))
		return -SMCX_WIRE_ESTRING;
	m->gid_ext = smcx_get_be64(buf + 66);
	pos = SMCX_CLC_ACC_D_V2_LEN - SMCX_CLC_TRL_LEN;
	if (smcx_clc_first_contact(h)) {
		/* no list follows: the length alone tells the two forms */
		if (len == SMCX_CLC_ACC_D_V2_LEN + SMCX_CLC_FCE_LEN)
			m->fce_v2x = 0;
		else if (len == SMCX_CLC_ACC_D_V2_LEN + SMCX_CLC_FCE_V2X_LEN)
			m->fce_v2x = 1;
		else
			return -SMCX_WIRE_ELEN;
		p = buf + pos;
		m->v2_direct = p[0] >> 7;
		m->os_type = p[1] >> 4;
		m->release = p[1] & 0x0f;
		rc = smcx_clc__get_fce(p, m->fce_v2x, m->hostname, flags);
		if (rc)
			return rc;
		pos += SMCX_CLC_FCE_LEN;
		if (m->fce_v2x) {
			/* max conns, max links: SMC-R only */
			rc = smcx_rsvd_bytes(p + 36, 2, flags);
			if (rc)
				return rc;
			m->feature_mask = smcx_get_be16(p + 38);
			m->vendor_exp_options = smcx_get_be32(p + 40);
			pos += SMCX_CLC_FCE_V2X_LEN - SMCX_CLC_FCE_LEN;
		}
	}
	if (pos + SMCX_CLC_TRL_LEN != len)
		return -SMCX_WIRE_ELEN;
	return smcx_clc__trailer(buf, len, h->eyecatcher);
}

static inline int smcx_clc_accept_d_len(const struct smcx_clc_accept_d *m,
					u8 type)
{
	const struct smcx_clc_hdr *h = &m->hdr;
	size_t len;

	if (!smcx_clc__hdr_ok(h) || h->eyecatcher != SMCX_EYE_SMCD ||
	    h->typev1 != SMCX_TYPE_D || (h->typev2 & ~SMCX_CLC_FIRST_CONTACT))
		return -SMCX_WIRE_EINVAL;
	if (type != SMCX_CLC_ACCEPT && type != SMCX_CLC_CONFIRM)
		return -SMCX_WIRE_EINVAL;
	if (m->dmbe_size > 15)
		return -SMCX_WIRE_EINVAL;
	if (h->version == SMCX_CLC_V1)
		return SMCX_CLC_ACC_D_V1_LEN;
	if (smcx_check_text(m->eid, SMCX_EID_LEN))
		return -SMCX_WIRE_EINVAL;
	len = SMCX_CLC_ACC_D_V2_LEN;
	if (!smcx_clc_first_contact(h))
		return (int)len;
	if (m->fce_v2x > 1 || m->v2_direct > 1 || m->os_type > 15 ||
	    m->release > 15 || smcx_check_text(m->hostname, SMCX_HOSTNAME_LEN))
		return -SMCX_WIRE_EINVAL;
	if (m->fce_v2x && (m->max_conns || m->max_links))
		return -SMCX_WIRE_EINVAL;
	len += m->fce_v2x ? SMCX_CLC_FCE_V2X_LEN : SMCX_CLC_FCE_LEN;
	return (int)len;
}

static inline int smcx_clc_encode_accept_d(const struct smcx_clc_accept_d *m,
					   u8 type, u8 *out, size_t out_len)
{
	int len = smcx_clc_accept_d_len(m, type);
	u8 *p;

	if (len < 0)
		return len;
	if ((size_t)len > out_len)
		return -SMCX_WIRE_ENOSPC;
	memset(out, 0, (size_t)len);
	smcx_clc__put_hdr(out, &m->hdr, type, (size_t)len);
	smcx_put_be64(out + 8, m->gid);
	smcx_put_be64(out + 16, m->token);
	out[24] = m->dmbe_idx;
	out[25] = (u8)(m->dmbe_size << 4);
	smcx_put_be32(out + 28, m->linkid);
	if (m->hdr.version == SMCX_CLC_V1)
		return len;
	smcx_put_be16(out + 32, m->chid);
	memcpy(out + 34, m->eid, SMCX_EID_LEN);
	smcx_put_be64(out + 66, m->gid_ext);
	if (!smcx_clc_first_contact(&m->hdr))
		return len;
	p = out + SMCX_CLC_ACC_D_V2_LEN - SMCX_CLC_TRL_LEN;
	smcx_clc__put_fce(p, m->v2_direct, m->os_type, m->release,
			  m->hostname);
	if (!m->fce_v2x)
		return len;
	smcx_put_be16(p + 38, m->feature_mask);
	smcx_put_be32(p + 40, m->vendor_exp_options);
	return len;
}

#endif /* SMCX_WIRE_CLC_ACCEPT_D_H */
