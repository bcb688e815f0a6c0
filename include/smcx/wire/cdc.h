/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx wire codec: CDC (connection data control) message, SMC-R form.
 *
 * One 44-byte RDMA SEND per cursor update, same in SMC-R v1 and v2:
 *   0       type 0xfe (shares the first byte with the LLC type/version)
 *   1       length, 44
 *   2..3    sequence number (per connection, wraps)
 *   4..7    alert token of the receiving connection (RMBE alert token)
 *   8..15   producer cursor: 8..9 reserved, 10..11 wrap, 12..15 count
 *   16..23  consumer cursor: same layout
 *   24      producer flags: bit 7 write blocked, 6 urgent data pending,
 *           5 urgent data present, 4 consumer cursor update requested,
 *           3 failover validation, 2..0 reserved
 *   25      connection state flags: bit 7 sending done (peer done
 *           writing), 6 peer connection closed, 5 abnormal close,
 *           4..0 reserved
 *   26..43  reserved
 * Mainline accepts a CDC whose length byte is 44 and whose completion is at
 * least 26 bytes; it always sends exactly 44, so we require exactly 44.
 * Cursor counts are offsets into the peer's RMBE: range checks against the
 * RMBE size belong to the connection layer, not to this codec.
 */
#ifndef SMCX_WIRE_CDC_H
#define SMCX_WIRE_CDC_H

#include "bytes.h"

#define SMCX_CDC_TYPE			0xfe
#define SMCX_CDC_LEN			44

#define SMCX_CDC_PF_WRITE_BLOCKED	0x80
#define SMCX_CDC_PF_URG_PENDING		0x40
#define SMCX_CDC_PF_URG_PRESENT		0x20
#define SMCX_CDC_PF_CONS_UPD_REQ	0x10
#define SMCX_CDC_PF_FAILOVER_VALID	0x08
#define SMCX_CDC_PF_RESERVED		0x07

#define SMCX_CDC_CF_DONE_WRITING	0x80
#define SMCX_CDC_CF_CONN_CLOSED		0x40
#define SMCX_CDC_CF_CONN_ABORT		0x20
#define SMCX_CDC_CF_RESERVED		0x1f

struct smcx_cdc_cursor {
	u16 wrap;		/* window wrap sequence number */
	u32 count;		/* offset within the RMBE */
};

struct smcx_cdc_msg {
	u16 seqno;
	u32 token;
	struct smcx_cdc_cursor prod;
	struct smcx_cdc_cursor cons;
	u8 prod_flags;		/* SMCX_CDC_PF_* */
	u8 conn_flags;		/* SMCX_CDC_CF_* */
};

/* first byte of a received work request: CDC, LLC, or neither */
#define SMCX_WR_KIND_UNKNOWN	0
#define SMCX_WR_KIND_CDC	1
#define SMCX_WR_KIND_LLC	2

static inline int smcx_wr_kind(u8 first)
{
	if (first == SMCX_CDC_TYPE)
		return SMCX_WR_KIND_CDC;
	if ((first >> 4) == 0 || (first >> 4) == 2)
		return SMCX_WR_KIND_LLC;
	return SMCX_WR_KIND_UNKNOWN;
}

static inline int smcx_cdc_decode(const u8 *buf, size_t len,
				  struct smcx_cdc_msg *m, unsigned int flags)
{
	int rc;

	memset(m, 0, sizeof(*m));
	if (len < SMCX_CDC_LEN)
		return -SMCX_WIRE_ESHORT;
	if (buf[0] != SMCX_CDC_TYPE)
		return -SMCX_WIRE_ETYPE;
	if (buf[1] != SMCX_CDC_LEN || len != SMCX_CDC_LEN)
		return -SMCX_WIRE_ELEN;
	m->seqno = smcx_get_be16(buf + 2);
	m->token = smcx_get_be32(buf + 4);
	m->prod.wrap = smcx_get_be16(buf + 10);
	m->prod.count = smcx_get_be32(buf + 12);
	m->cons.wrap = smcx_get_be16(buf + 18);
	m->cons.count = smcx_get_be32(buf + 20);
	m->prod_flags = buf[24];
	m->conn_flags = buf[25];
	rc = smcx_rsvd_bytes(buf + 8, 2, flags);
	if (!rc)
		rc = smcx_rsvd_bytes(buf + 16, 2, flags);
	if (!rc)
		rc = smcx_rsvd_bits(buf[24], SMCX_CDC_PF_RESERVED, flags);
	if (!rc)
		rc = smcx_rsvd_bits(buf[25], SMCX_CDC_CF_RESERVED, flags);
	if (!rc)
		rc = smcx_rsvd_bytes(buf + 26, 18, flags);
	if (rc)
		return rc;
	/* lax mode: reserved flag bits were ignored, keep them out */
	m->prod_flags &= (u8)~SMCX_CDC_PF_RESERVED;
	m->conn_flags &= (u8)~SMCX_CDC_CF_RESERVED;
	return 0;
}

static inline int smcx_cdc_encode(const struct smcx_cdc_msg *m, u8 *out,
				  size_t out_len)
{
	if ((m->prod_flags & SMCX_CDC_PF_RESERVED) ||
	    (m->conn_flags & SMCX_CDC_CF_RESERVED))
		return -SMCX_WIRE_EINVAL;
	if (out_len < SMCX_CDC_LEN)
		return -SMCX_WIRE_ENOSPC;
	memset(out, 0, SMCX_CDC_LEN);
	out[0] = SMCX_CDC_TYPE;
	out[1] = SMCX_CDC_LEN;
	smcx_put_be16(out + 2, m->seqno);
	smcx_put_be32(out + 4, m->token);
	smcx_put_be16(out + 10, m->prod.wrap);
	smcx_put_be32(out + 12, m->prod.count);
	smcx_put_be16(out + 18, m->cons.wrap);
	smcx_put_be32(out + 20, m->cons.count);
	out[24] = m->prod_flags;
	out[25] = m->conn_flags;
	return SMCX_CDC_LEN;
}

#endif /* SMCX_WIRE_CDC_H */
