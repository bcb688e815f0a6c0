/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx wire codec: CLC Accept, Confirm (SMC-R) and Decline messages.
 * Header layout, constants and structs live in clc.h.
 */
#ifndef SMCX_WIRE_CLC_ACCEPT_H
#define SMCX_WIRE_CLC_ACCEPT_H

#include "clc.h"

/*
 * The first contact extension: the same bytes in the SMC-R layout (at 104)
 * and in the SMC-D one (at 74, clc_accept_d.h).
 *   +0 v2_direct (bit 7) | reserved, +1 OS type (high) | release (low),
 *   +2..3 reserved, +4..35 host name (blank padded)
 *   v2.1 tail: +36 max conns, +37 max links, +38..39 feature mask,
 *   +40..43 vendor options, +44..51 reserved
 * smcx_clc__get_fce() checks what both layouts share -- the reserved bits
 * and bytes (the tail's when @v2x) and the host name rule -- and copies the
 * host name to @hostname; each decoder reads the other fields itself.
 */
static inline int smcx_clc__get_fce(const u8 *p, int v2x, u8 *hostname,
				    unsigned int flags)
{
	int rc = smcx_rsvd_bits(p[0], 0x7f, flags);

	if (!rc)
		rc = smcx_rsvd_bytes(p + 2, 2, flags);
	if (rc)
		return rc;
	memcpy(hostname, p + 4, SMCX_HOSTNAME_LEN);
	if (smcx_check_text(hostname, SMCX_HOSTNAME_LEN)) {
		if (!(flags & SMCX_WIRE_LAX_TEXT))
			return -SMCX_WIRE_ESTRING;
		smcx_text_sanitize(hostname, SMCX_HOSTNAME_LEN);
	}
	if (v2x)
		return smcx_rsvd_bytes(p + 44, 8, flags);
	return 0;
}

/* the 36-byte base of a first contact extension; @p is zeroed */
static inline void smcx_clc__put_fce(u8 *p, u8 v2_direct, u8 os_type,
				     u8 release, const u8 *hostname)
{
	p[0] = (u8)(v2_direct << 7);
	p[1] = (u8)((os_type << 4) | release);
	memcpy(p + 4, hostname, SMCX_HOSTNAME_LEN);
}

/* ======================== Accept / Confirm (SMC-R) ======================
 *
 *   0..7    header (type 2 or 3; typev1 R; typev2 bit 1 = first contact)
 *   8..15   sender peer id
 *   16..31  sender GID
 *   32..37  sender MAC
 *   38..40  QP number (24 bits)
 *   41..44  RMB rkey
 *   45      RMBE index (mainline: always 1)
 *   46..49  RMBE alert token
 *   50      RMBE size, compressed (high nibble) | QP MTU (low nibble)
 *   51      reserved
 *   52..59  RMB virtual address
 *   60      reserved
 *   61..63  initial PSN (24 bits)
 *   v1: 64..67 trailer (length 68)
 *   v2: 64..95 negotiated EID, 96..103 reserved
 *       without first contact: 104..107 trailer (length 108)
 *       first contact extension at 104 (layout above), with the v2.1
 *       tail: mainline >= 6.5 always sends it for SMC-R
 *       confirm only, GID list at 156: +0 count, +1..3 reserved, 16 bytes
 *       per GID (mainline <= 6.4 sent the same bytes as a 36-byte FCE
 *       followed by 16 reserved bytes, so the list offset never moved)
 *   An accept with first contact is 144 (release 0 FCE, older peers) or
 *   160 bytes; a confirm is 164 + 16 * count.
 */

/*
 * The header of an Accept or Confirm of either path (@path: SMCX_TYPE_R or
 * _D; the SMC-D decoder checks its eyecatcher itself): the type, the
 * reserved bit of byte 7, the first-contact flag alone in typev2, and the
 * least length of its version (@v1_len, @v2_len).
 */
static inline int smcx_clc__acc_hdr(const u8 *buf, size_t len, u8 type,
				    struct smcx_clc_hdr *h, u8 path,
				    size_t v1_len, size_t v2_len,
				    unsigned int flags)
{
	int rc;

	if (type != SMCX_CLC_ACCEPT && type != SMCX_CLC_CONFIRM)
		return -SMCX_WIRE_ETYPE;
	rc = smcx_clc__hdr(buf, len, type, h);
	if (rc)
		return rc;
	if (path == SMCX_TYPE_D && h->eyecatcher != SMCX_EYE_SMCD)
		return -SMCX_WIRE_EEYECATCHER;
	if (h->typev1 != path)
		return -SMCX_WIRE_EPATH;
	rc = smcx_rsvd_bits(buf[7], 0x04, flags);
	if (rc)
		return rc;
	h->typev2 &= SMCX_CLC_FIRST_CONTACT;
	if (len < (h->version == SMCX_CLC_V1 ? v1_len : v2_len))
		return -SMCX_WIRE_ESHORT;
	return 0;
}

static inline int smcx_clc_decode_accept(const u8 *buf, size_t len,
					 u8 type, struct smcx_clc_accept *m,
					 unsigned int flags)
{
	struct smcx_clc_hdr *h = &m->hdr;
	const u8 *p;
	size_t pos;
	unsigned int i;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = smcx_clc__acc_hdr(buf, len, type, h, SMCX_TYPE_R,
			       SMCX_CLC_ACC_V1_LEN, SMCX_CLC_ACC_V2_LEN, flags);
	if (rc)
		return rc;
	memcpy(m->peer_id, buf + 8, SMCX_PEERID_LEN);
	memcpy(m->gid, buf + 16, SMCX_GID_LEN);
	memcpy(m->mac, buf + 32, SMCX_MAC_LEN);
	m->qpn = smcx_get_be24(buf + 38);
	m->rmb_rkey = smcx_get_be32(buf + 41);
	m->rmbe_idx = buf[45];
	m->rmbe_alert_token = smcx_get_be32(buf + 46);
	m->rmbe_size = buf[50] >> 4;
	m->qp_mtu = buf[50] & 0x0f;
	m->rmb_dma_addr = smcx_get_be64(buf + 52);
	m->psn = smcx_get_be24(buf + 61);
	rc = smcx_rsvd_bytes(buf + 51, 1, flags);
	if (!rc)
		rc = smcx_rsvd_bytes(buf + 60, 1, flags);
	if (rc)
		return rc;
	if (h->version == SMCX_CLC_V1) {
		if (len != SMCX_CLC_ACC_V1_LEN)
			return -SMCX_WIRE_ELEN;
		return smcx_clc__trailer(buf, len, h->eyecatcher);
	}
	memcpy(m->eid, buf + 64, SMCX_EID_LEN);
	if (smcx_check_text(m->eid, SMCX_EID_LEN))
		return -SMCX_WIRE_ESTRING;
	rc = smcx_rsvd_bytes(buf + 96, 8, flags);
	if (rc)
		return rc;
	pos = SMCX_CLC_ACC_V2_LEN - SMCX_CLC_TRL_LEN;
	if (smcx_clc_first_contact(h)) {
		if (type == SMCX_CLC_ACCEPT &&
		    len == SMCX_CLC_ACC_V2_LEN + SMCX_CLC_FCE_LEN)
			m->fce_v2x = 0;
		else
			m->fce_v2x = 1;
		if (pos + (m->fce_v2x ? SMCX_CLC_FCE_V2X_LEN :
			   SMCX_CLC_FCE_LEN) > len - SMCX_CLC_TRL_LEN)
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
			m->max_conns = p[36];
			m->max_links = p[37];
			m->feature_mask = smcx_get_be16(p + 38);
			m->vendor_exp_options = smcx_get_be32(p + 40);
			pos += SMCX_CLC_FCE_V2X_LEN - SMCX_CLC_FCE_LEN;
		}
		if (type == SMCX_CLC_CONFIRM) {
			if (pos + SMCX_CLC_GLE_LEN > len - SMCX_CLC_TRL_LEN)
				return -SMCX_WIRE_ELEN;
			m->gid_cnt = buf[pos];
			rc = smcx_rsvd_bytes(buf + pos + 1, 3, flags);
			if (rc)
				return rc;
			if (m->gid_cnt > SMCX_CLC_MAX_FCE_GIDS)
				return -SMCX_WIRE_ECOUNT;
			pos += SMCX_CLC_GLE_LEN;
			if (pos + (size_t)m->gid_cnt * SMCX_GID_LEN >
			    len - SMCX_CLC_TRL_LEN)
				return -SMCX_WIRE_ETRUNC;
			for (i = 0; i < m->gid_cnt; i++) {
				memcpy(m->gids[i], buf + pos, SMCX_GID_LEN);
				pos += SMCX_GID_LEN;
			}
		}
	}
	if (pos + SMCX_CLC_TRL_LEN != len)
		return -SMCX_WIRE_ELEN;
	return smcx_clc__trailer(buf, len, h->eyecatcher);
}

static inline int smcx_clc_accept_len(const struct smcx_clc_accept *m,
				      u8 type)
{
	const struct smcx_clc_hdr *h = &m->hdr;
	size_t len;

	if (!smcx_clc__hdr_ok(h) || h->typev1 != SMCX_TYPE_R ||
	    (h->typev2 & ~SMCX_CLC_FIRST_CONTACT))
		return -SMCX_WIRE_EINVAL;
	if (type != SMCX_CLC_ACCEPT && type != SMCX_CLC_CONFIRM)
		return -SMCX_WIRE_EINVAL;
	if (m->qpn > 0xffffff || m->psn > 0xffffff || m->rmbe_size > 15 ||
	    m->qp_mtu > 15)
		return -SMCX_WIRE_EINVAL;
	if (h->version == SMCX_CLC_V1)
		return SMCX_CLC_ACC_V1_LEN;
	if (smcx_check_text(m->eid, SMCX_EID_LEN))
		return -SMCX_WIRE_EINVAL;
	len = SMCX_CLC_ACC_V2_LEN;
	if (!smcx_clc_first_contact(h))
		return (int)len;
	if (m->fce_v2x > 1 || m->v2_direct > 1 || m->os_type > 15 ||
	    m->release > 15 || smcx_check_text(m->hostname, SMCX_HOSTNAME_LEN))
		return -SMCX_WIRE_EINVAL;
	/* a confirm always carries the 52-byte form, see the layout above */
	if (type == SMCX_CLC_CONFIRM && !m->fce_v2x)
		return -SMCX_WIRE_EINVAL;
	len += m->fce_v2x ? SMCX_CLC_FCE_V2X_LEN : SMCX_CLC_FCE_LEN;
	if (type == SMCX_CLC_CONFIRM) {
		if (m->gid_cnt > SMCX_CLC_MAX_FCE_GIDS)
			return -SMCX_WIRE_EINVAL;
		len += SMCX_CLC_GLE_LEN + (size_t)m->gid_cnt * SMCX_GID_LEN;
	}
	return (int)len;
}

static inline int smcx_clc_encode_accept(const struct smcx_clc_accept *m,
					 u8 type, u8 *out,
					 size_t out_len)
{
	int len = smcx_clc_accept_len(m, type);
	u8 *p;
	unsigned int i;

	if (len < 0)
		return len;
	if ((size_t)len > out_len)
		return -SMCX_WIRE_ENOSPC;
	memset(out, 0, (size_t)len);
	smcx_clc__put_hdr(out, &m->hdr, type, (size_t)len);
	memcpy(out + 8, m->peer_id, SMCX_PEERID_LEN);
	memcpy(out + 16, m->gid, SMCX_GID_LEN);
	memcpy(out + 32, m->mac, SMCX_MAC_LEN);
	smcx_put_be24(out + 38, m->qpn);
	smcx_put_be32(out + 41, m->rmb_rkey);
	out[45] = m->rmbe_idx;
	smcx_put_be32(out + 46, m->rmbe_alert_token);
	out[50] = (u8)((m->rmbe_size << 4) | m->qp_mtu);
	smcx_put_be64(out + 52, m->rmb_dma_addr);
	smcx_put_be24(out + 61, m->psn);
	if (m->hdr.version == SMCX_CLC_V1)
		return len;
	memcpy(out + 64, m->eid, SMCX_EID_LEN);
	if (!smcx_clc_first_contact(&m->hdr))
		return len;
	p = out + SMCX_CLC_ACC_V2_LEN - SMCX_CLC_TRL_LEN;
	smcx_clc__put_fce(p, m->v2_direct, m->os_type, m->release,
			  m->hostname);
	if (!m->fce_v2x)
		return len;
	p[36] = m->max_conns;
	p[37] = m->max_links;
	smcx_put_be16(p + 38, m->feature_mask);
	smcx_put_be32(p + 40, m->vendor_exp_options);
	if (type != SMCX_CLC_CONFIRM)
		return len;
	p += SMCX_CLC_FCE_V2X_LEN;
	p[0] = m->gid_cnt;
	for (i = 0; i < m->gid_cnt; i++)
		memcpy(p + SMCX_CLC_GLE_LEN + i * SMCX_GID_LEN, m->gids[i],
		       SMCX_GID_LEN);
	return len;
}

/* ======================== Decline =======================================
 *
 *   0..7    header (type 4; typev1 R or D -- mainline sends R, eyecatcher
 *           SMCR; typev2 bit 1 = out of sync, set with diagnosis 0x04000000)
 *   8..15   sender peer id
 *   16..19  peer diagnosis code
 *   20      OS type (high nibble; RFC 7609: reserved, mainline v1 sends 0)
 *           | reserved (low nibble)
 *   21..23  reserved
 *   v1: 24..27 trailer (length 28)
 *   v2: 24..39 four further diagnosis codes, 40..43 trailer (length 44)
 * Mainline does not check a decline's trailer; we do, since mainline always
 * writes a correct one.
 */

static inline int smcx_clc_decode_decline(const u8 *buf, size_t len,
					  struct smcx_clc_decline *m,
					  unsigned int flags)
{
	struct smcx_clc_hdr *h = &m->hdr;
	unsigned int i;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = smcx_clc__hdr(buf, len, SMCX_CLC_DECLINE, h);
	if (rc)
		return rc;
	if (h->typev1 != SMCX_TYPE_R && h->typev1 != SMCX_TYPE_D)
		return -SMCX_WIRE_EPATH;
	if (len < SMCX_CLC_DECL_V1_LEN)
		return -SMCX_WIRE_ESHORT;
	if (len != (h->version == SMCX_CLC_V1 ? SMCX_CLC_DECL_V1_LEN :
						SMCX_CLC_DECL_V2_LEN))
		return -SMCX_WIRE_ELEN;
	rc = smcx_rsvd_bits(buf[7], 0x04, flags);
	if (!rc)
		rc = smcx_rsvd_bits(buf[20], 0x0f, flags);
	if (!rc)
		rc = smcx_rsvd_bytes(buf + 21, 3, flags);
	if (rc)
		return rc;
	h->typev2 &= SMCX_CLC_FIRST_CONTACT;
	memcpy(m->peer_id, buf + 8, SMCX_PEERID_LEN);
	m->diag = smcx_get_be32(buf + 16);
	m->os_type = buf[20] >> 4;
	if (h->version == SMCX_CLC_V2)
		for (i = 0; i < SMCX_CLC_DECL_DIAG_V2; i++)
			m->diag_v2[i] = smcx_get_be32(buf + 24 + 4 * i);
	return smcx_clc__trailer(buf, len, h->eyecatcher);
}

static inline int smcx_clc_encode_decline(const struct smcx_clc_decline *m,
					  u8 *out, size_t out_len)
{
	const struct smcx_clc_hdr *h = &m->hdr;
	size_t len;
	unsigned int i;

	if (!smcx_clc__hdr_ok(h) || (h->typev2 & ~SMCX_CLC_FIRST_CONTACT) ||
	    (h->typev1 != SMCX_TYPE_R && h->typev1 != SMCX_TYPE_D) ||
	    m->os_type > 15)
		return -SMCX_WIRE_EINVAL;
	len = h->version == SMCX_CLC_V1 ? SMCX_CLC_DECL_V1_LEN :
					  SMCX_CLC_DECL_V2_LEN;
	if (len > out_len)
		return -SMCX_WIRE_ENOSPC;
	memset(out, 0, len);
	smcx_clc__put_hdr(out, h, SMCX_CLC_DECLINE, len);
	memcpy(out + 8, m->peer_id, SMCX_PEERID_LEN);
	smcx_put_be32(out + 16, m->diag);
	out[20] = (u8)(m->os_type << 4);
	if (h->version == SMCX_CLC_V2)
		for (i = 0; i < SMCX_CLC_DECL_DIAG_V2; i++)
			smcx_put_be32(out + 24 + 4 * i, m->diag_v2[i]);
	return (int)len;
}

#endif /* SMCX_WIRE_CLC_ACCEPT_H */
