/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx wire codec: LLC (link layer control) messages.
 *
 * LLC messages are RDMA SENDs on a link's QP.  RFC 7609 defines them as
 * exactly 44 bytes; SMC-Rv2 (IBM "SMC Version 2") adds a second form whose
 * header carries a 16-bit length and may be longer (up to 8192 bytes, the
 * size of mainline's v2 work-request buffer).
 *
 * Header (4 bytes):
 *   0     version (high nibble: 0 = RFC 7609 form, 2 = v2 form)
 *         | type (low nibble, SMCX_LLC_*).  Mainline registers receive
 *         handlers for 0x01-0x09 and 0x21,0x22,0x24-0x27,0x29 by this full
 *         byte; any other byte has no handler and is dropped.  0xfe is CDC.
 *   1     v1: length, always 44
 *   2     v1: reserved (high nibble) | add-link reject reason (low nibble)
 *   1..2  v2: length 44..8192.
 *         SPEC vs MAINLINE: the v2 spec field is big-endian like every other
 *         SMC field, but Linux declares it a host-order u16 and stores it
 *         unconverted, so x86 peers put it on the wire little-endian.  Our
 *         peer is mainline on x86, so we read and write it little-endian.
 *   3     flags (bit 7 = response; others per type)
 * The body follows; offsets below are from the start of the message.
 *
 * Long lists (v2 ADD_LINK rkeys, DELETE_RKEY rkeys) are not copied: the
 * decoded struct points at the validated wire array and accessor functions
 * read single entries.  Encoders take the same wire-format pointer (NULL
 * writes zeroed entries for the caller to fill with the put accessors).
 */
#ifndef SMCX_WIRE_LLC_H
#define SMCX_WIRE_LLC_H

#include "bytes.h"

#define SMCX_LLC_CONFIRM_LINK		0x01
#define SMCX_LLC_ADD_LINK		0x02
#define SMCX_LLC_ADD_LINK_CONT		0x03
#define SMCX_LLC_DELETE_LINK		0x04
#define SMCX_LLC_REQ_ADD_LINK		0x05	/* v2 form only */
#define SMCX_LLC_CONFIRM_RKEY		0x06
#define SMCX_LLC_TEST_LINK		0x07
#define SMCX_LLC_CONFIRM_RKEY_CONT	0x08	/* v1 form only */
#define SMCX_LLC_DELETE_RKEY		0x09

#define SMCX_LLC_V1			0
#define SMCX_LLC_V2			2

#define SMCX_LLC_LEN			44
#define SMCX_LLC_V2_MAX_LEN		8192

#define SMCX_LLC_FLAG_RESP		0x80
#define SMCX_LLC_FLAG_ADD_LNK_REJ	0x40	/* ADD_LINK */
#define SMCX_LLC_FLAG_DEL_LINK_ALL	0x40	/* DELETE_LINK */
#define SMCX_LLC_FLAG_DEL_LINK_ORDERLY	0x20	/* DELETE_LINK */
#define SMCX_LLC_FLAG_RKEY_NEG		0x20	/* CONFIRM/DELETE_RKEY */
#define SMCX_LLC_FLAG_RKEY_RETRY	0x10	/* CONFIRM_RKEY */
#define SMCX_LLC_FLAG_NO_RMBE_EYEC	0x03	/* CONFIRM_LINK */

#define SMCX_LLC_REJ_RSN_NO_ALT_PATH	1

#define SMCX_LLC_LGR_ID_LEN		4
#define SMCX_LLC_MAX_LINKS		8	/* per link group, RFC 7609 */
#define SMCX_LLC_RKEYS_PER_CONT		2	/* ADD_LINK_CONT entries */
#define SMCX_LLC_RKEYS_PER_MSG		3	/* per CONFIRM_RKEY(_CONT) */
#define SMCX_LLC_DEL_RKEY_MAX		8	/* v1 DELETE_RKEY */
#define SMCX_LLC_DEL_RKEY_MAX_V2	255
#define SMCX_LLC_ADD_LINK_RKEYS_MAX_V2	255
/* GIDs in a REQ_ADD_LINK; mainline sends at most 2 */
#define SMCX_LLC_MAX_GIDS		8

#define SMCX_LLC_RT_LEN			16	/* ADD_LINK(_CONT) rkey entry */
#define SMCX_LLC_RTOKEN_LEN		13	/* CONFIRM_RKEY entry */
#define SMCX_LLC_ADD_LINK_EXT_LEN	28	/* v2 ADD_LINK extension */
#define SMCX_LLC_ADD_LINK_RT_OFF \
	(SMCX_LLC_LEN + SMCX_LLC_ADD_LINK_EXT_LEN)
#define SMCX_LLC_DEL_RKEY_OFF		8
#define SMCX_LLC_REQ_ADD_GID_OFF	28

/* one rkey triple of ADD_LINK_CONT / v2 ADD_LINK: key on the existing link,
 * key and address on the new link
 */
struct smcx_llc_rt {
	u32 rkey;
	u32 rkey_new;
	u64 vaddr_new;
};

/* one CONFIRM_RKEY(_CONT) entry: link id, rkey, virtual address */
struct smcx_llc_rtoken {
	u8 link_id;
	u32 rkey;
	u64 vaddr;
};

struct smcx_llc_confirm_link {
	u8 mac[6];
	u8 gid[16];
	u32 qpn;			/* 24 bits */
	u8 link_num;
	u8 link_uid[SMCX_LLC_LGR_ID_LEN];
	u8 max_links;
	u8 max_conns;			/* v2.1; RFC 7609: reserved */
};

struct smcx_llc_add_link {
	u8 mac[6];
	u8 gid[16];
	u32 qpn;			/* 24 bits */
	u8 link_num;
	u8 qp_mtu;			/* 4 bits; 0 in a client's invitation */
	u32 psn;			/* 24 bits */
	/* v2 form with extension (length > 44) */
	u8 has_ext;
	u8 v2_direct;
	u8 target_gid[16];
	u16 num_rkeys;			/* <= 255 */
	const u8 *rkeys;		/* num_rkeys entries of 16 bytes */
};

struct smcx_llc_add_link_cont {
	u8 link_num;
	u8 num_rkeys;			/* rkeys still to come, incl. these */
	struct smcx_llc_rt rt[SMCX_LLC_RKEYS_PER_CONT];	/* min(num, 2) used */
};

struct smcx_llc_delete_link {
	u8 link_num;
	u32 reason;			/* SMCX_LLC_DEL_* */
};

struct smcx_llc_req_add_link {
	u8 gid_cnt;
	u8 gids[SMCX_LLC_MAX_GIDS][16];
};

/*
 * CONFIRM_RKEY: byte 4 counts the rkeys for *other* links; rt[0] is the key
 * of the link the message travels on (its link_id byte is the count, so
 * rt[0].link_id is always 0), rt[1..min(num,2)] belong to other links.
 * CONFIRM_RKEY_CONT: byte 4 counts the rkeys remaining, rt[0..min(num,3)-1]
 * are all link-tagged.  Mainline never sends CONT (at most 3 links).
 */
struct smcx_llc_confirm_rkey {
	u8 num_rkeys;
	struct smcx_llc_rtoken rt[SMCX_LLC_RKEYS_PER_MSG];
};

struct smcx_llc_delete_rkey {
	u8 num_rkeys;
	u8 err_mask;			/* v2 response: invalid rkeys */
	const u8 *rkeys;		/* num_rkeys entries of 4 bytes */
};

struct smcx_llc_test_link {
	u8 user_data[16];
};

struct smcx_llc_msg {
	u8 version;		/* SMCX_LLC_V1 or SMCX_LLC_V2 */
	u8 type;		/* SMCX_LLC_* */
	u16 length;		/* decode: length field; encode: computed */
	u8 flags;
	u8 rej_rsn;		/* v1 ADD_LINK only */
	union {
		struct smcx_llc_confirm_link confirm_link;
		struct smcx_llc_add_link add_link;
		struct smcx_llc_add_link_cont add_link_cont;
		struct smcx_llc_delete_link delete_link;
		struct smcx_llc_req_add_link req_add_link;
		struct smcx_llc_confirm_rkey confirm_rkey;	/* and _CONT */
		struct smcx_llc_delete_rkey delete_rkey;
		struct smcx_llc_test_link test_link;
	} u;
};

/* Is @type defined for LLC @version?  (decides the "unknown type" case) */
static inline int smcx_llc_type_valid(u8 version, u8 type)
{
	/* bit n set: type n exists in that form */
	if (version == SMCX_LLC_V1)
		return type < 16 && ((0x3deu >> type) & 1);	/* 1-4, 6-9 */
	if (version == SMCX_LLC_V2)
		return type < 16 && ((0x2f6u >> type) & 1);	/* 1,2,4-7,9 */
	return 0;
}

static inline const char *smcx_llc_type_name(u8 type)
{
	static const char *const names[10] = {
		"?", "CONFIRM_LINK", "ADD_LINK", "ADD_LINK_CONT", "DELETE_LINK",
		"REQ_ADD_LINK", "CONFIRM_RKEY", "TEST_LINK",
		"CONFIRM_RKEY_CONT", "DELETE_RKEY",
	};

	return type < 10 ? names[type] : "?";
}

/* ---- list accessors (wire-format arrays) -------------------------------- */

static inline void smcx_llc_rt_get(const u8 *wire, unsigned int i,
				   struct smcx_llc_rt *rt)
{
	const u8 *p = wire + (size_t)i * SMCX_LLC_RT_LEN;

	rt->rkey = smcx_get_be32(p);
	rt->rkey_new = smcx_get_be32(p + 4);
	rt->vaddr_new = smcx_get_be64(p + 8);
}

static inline void smcx_llc_rt_put(u8 *wire, unsigned int i,
				   const struct smcx_llc_rt *rt)
{
	u8 *p = wire + (size_t)i * SMCX_LLC_RT_LEN;

	smcx_put_be32(p, rt->rkey);
	smcx_put_be32(p + 4, rt->rkey_new);
	smcx_put_be64(p + 8, rt->vaddr_new);
}

static inline u32 smcx_llc_rkey_get(const u8 *wire, unsigned int i)
{
	return smcx_get_be32(wire + (size_t)i * 4);
}

static inline void smcx_llc_rkey_put(u8 *wire, unsigned int i, u32 rkey)
{
	smcx_put_be32(wire + (size_t)i * 4, rkey);
}

static inline void smcx_llc__get_rtoken(const u8 *p,
					struct smcx_llc_rtoken *rt)
{
	rt->link_id = p[0];
	rt->rkey = smcx_get_be32(p + 1);
	rt->vaddr = smcx_get_be64(p + 5);
}

static inline void smcx_llc__put_rtoken(u8 *p,
					const struct smcx_llc_rtoken *rt)
{
	p[0] = rt->link_id;
	smcx_put_be32(p + 1, rt->rkey);
	smcx_put_be64(p + 5, rt->vaddr);
}

/* a v2 list message's length: the list end, but never below 44 bytes */
static inline size_t smcx_llc__v2_len(size_t list_end)
{
	return list_end < SMCX_LLC_LEN ? SMCX_LLC_LEN : list_end;
}

/* check a list message's length against its count; the tail up to the
 * length (padding to 44) must be zero
 */
static inline int smcx_llc__list_len(const u8 *buf, size_t len,
				     size_t list_end, unsigned int flags)
{
	if (list_end > len)
		return -SMCX_WIRE_ETRUNC;
	if (len != smcx_llc__v2_len(list_end))
		return -SMCX_WIRE_ELEN;
	return smcx_rsvd_bytes(buf + list_end, len - list_end, flags);
}

/* ---- decode -------------------------------------------------------------- */

/*
 *   CONFIRM_LINK: 4..9 MAC, 10..25 GID, 26..28 QPN, 29 link number,
 *                 30..33 link user id, 34 max links, 35 max conns (v2.1),
 *                 36..43 reserved
 *   ADD_LINK:     4..9 MAC, 10..11 reserved, 12..27 GID, 28..30 QPN,
 *                 31 link number, 32 reserved (high) | QP MTU (low),
 *                 33..35 initial PSN, 36..43 reserved
 *                 v2 extension at 44: +0 v2_direct (bit 7) | reserved,
 *                 +1 reserved, +2..17 client target GID, +18..25 reserved,
 *                 +26..27 number of rkeys (host-order u16 in mainline, so
 *                 little-endian, like the header length), then 16 bytes per
 *                 rkey triple: rkey on the sending link, rkey and virtual
 *                 address on the new link
 *   ADD_LINK_CONT: 4 link number, 5 rkeys remaining, 6..7 reserved,
 *                 8..23 and 24..39 rkey triples, 40..43 reserved
 *   DELETE_LINK:  4 link number, 5..8 reason code, 9..43 reserved
 *   REQ_ADD_LINK: 4..23 reserved, 24 GID count, 25..27 reserved, then
 *                 16 bytes per GID (at least 44 bytes in all)
 *   CONFIRM_RKEY: 4 number of other rkeys, 5..8 rkey, 9..16 address (this
 *                 link), then two entries of link id, rkey, address at
 *                 17..29 and 30..42, 43 reserved
 *   CONFIRM_RKEY_CONT: 4 rkeys remaining, three entries at 5, 18, 31
 *   TEST_LINK:    4..19 user data (echoed), 20..43 reserved
 *   DELETE_RKEY:  4 count, 5 error mask (v2 response: number invalid),
 *                 6..7 reserved, 8.. 4 bytes per rkey; v1 has 8 slots and
 *                 40..43 reserved, v2 is max(44, 8 + 4 * count) bytes
 */
static inline int smcx_llc__decode_body(const u8 *buf, size_t len,
					struct smcx_llc_msg *m,
					unsigned int flags)
{
	const u8 *p;
	unsigned int i, n;
	int rc = 0;

	switch (m->type) {
	case SMCX_LLC_CONFIRM_LINK: {
		struct smcx_llc_confirm_link *c = &m->u.confirm_link;

		memcpy(c->mac, buf + 4, 6);
		memcpy(c->gid, buf + 10, 16);
		c->qpn = smcx_get_be24(buf + 26);
		c->link_num = buf[29];
		memcpy(c->link_uid, buf + 30, SMCX_LLC_LGR_ID_LEN);
		c->max_links = buf[34];
		c->max_conns = buf[35];
		return smcx_rsvd_bytes(buf + 36, 8, flags);
	}
	case SMCX_LLC_ADD_LINK: {
		struct smcx_llc_add_link *a = &m->u.add_link;

		memcpy(a->mac, buf + 4, 6);
		memcpy(a->gid, buf + 12, 16);
		a->qpn = smcx_get_be24(buf + 28);
		a->link_num = buf[31];
		a->qp_mtu = buf[32] & 0x0f;
		a->psn = smcx_get_be24(buf + 33);
		rc = smcx_rsvd_bytes(buf + 10, 2, flags);
		if (!rc)
			rc = smcx_rsvd_bits(buf[32], 0xf0, flags);
		if (!rc)
			rc = smcx_rsvd_bytes(buf + 36, 8, flags);
		if (rc || len == SMCX_LLC_LEN)
			return rc;
		/* only the v2 form can be longer than 44 bytes */
		if (len < SMCX_LLC_ADD_LINK_RT_OFF)
			return -SMCX_WIRE_ELEN;
		p = buf + SMCX_LLC_LEN;
		a->has_ext = 1;
		a->v2_direct = p[0] >> 7;
		memcpy(a->target_gid, p + 2, 16);
		a->num_rkeys = smcx_get_le16(p + 26);
		rc = smcx_rsvd_bits(p[0], 0x7f, flags);
		if (!rc)
			rc = smcx_rsvd_bytes(p + 1, 1, flags);
		if (!rc)
			rc = smcx_rsvd_bytes(p + 18, 8, flags);
		if (rc)
			return rc;
		if (a->num_rkeys > SMCX_LLC_ADD_LINK_RKEYS_MAX_V2)
			return -SMCX_WIRE_ECOUNT;
		if (SMCX_LLC_ADD_LINK_RT_OFF +
		    (size_t)a->num_rkeys * SMCX_LLC_RT_LEN > len)
			return -SMCX_WIRE_ETRUNC;
		if (SMCX_LLC_ADD_LINK_RT_OFF +
		    (size_t)a->num_rkeys * SMCX_LLC_RT_LEN != len)
			return -SMCX_WIRE_ELEN;
		a->rkeys = buf + SMCX_LLC_ADD_LINK_RT_OFF;
		return 0;
	}
	case SMCX_LLC_ADD_LINK_CONT: {
		struct smcx_llc_add_link_cont *c = &m->u.add_link_cont;

		c->link_num = buf[4];
		c->num_rkeys = buf[5];
		n = c->num_rkeys;
		if (n > SMCX_LLC_RKEYS_PER_CONT)
			n = SMCX_LLC_RKEYS_PER_CONT;
		for (i = 0; i < n; i++)
			smcx_llc_rt_get(buf + 8, i, &c->rt[i]);
		rc = smcx_rsvd_bytes(buf + 6, 2, flags);
		if (!rc)	/* unused triples and the 4 reserved bytes */
			rc = smcx_rsvd_bytes(buf + 8 + n * SMCX_LLC_RT_LEN,
					     36 - n * SMCX_LLC_RT_LEN, flags);
		return rc;
	}
	case SMCX_LLC_DELETE_LINK:
		m->u.delete_link.link_num = buf[4];
		m->u.delete_link.reason = smcx_get_be32(buf + 5);
		return smcx_rsvd_bytes(buf + 9, 35, flags);
	case SMCX_LLC_REQ_ADD_LINK: {
		struct smcx_llc_req_add_link *r = &m->u.req_add_link;

		rc = smcx_rsvd_bytes(buf + 4, 20, flags);
		if (!rc)
			rc = smcx_rsvd_bytes(buf + 25, 3, flags);
		if (rc)
			return rc;
		r->gid_cnt = buf[24];
		if (r->gid_cnt > SMCX_LLC_MAX_GIDS)
			return -SMCX_WIRE_ECOUNT;
		rc = smcx_llc__list_len(buf, len, SMCX_LLC_REQ_ADD_GID_OFF +
					(size_t)r->gid_cnt * 16, flags);
		if (rc)
			return rc;
		for (i = 0; i < r->gid_cnt; i++)
			memcpy(r->gids[i],
			       buf + SMCX_LLC_REQ_ADD_GID_OFF + i * 16, 16);
		return 0;
	}
	case SMCX_LLC_CONFIRM_RKEY:
	case SMCX_LLC_CONFIRM_RKEY_CONT: {
		struct smcx_llc_confirm_rkey *c = &m->u.confirm_rkey;
		unsigned int first = m->type == SMCX_LLC_CONFIRM_RKEY;

		c->num_rkeys = buf[4];
		if (c->num_rkeys > SMCX_LLC_MAX_LINKS - 1)
			return -SMCX_WIRE_ECOUNT;
		n = c->num_rkeys + first;
		if (n > SMCX_LLC_RKEYS_PER_MSG)
			n = SMCX_LLC_RKEYS_PER_MSG;
		if (first) {
			/* entry 0 has no link id: byte 4 is the count */
			c->rt[0].rkey = smcx_get_be32(buf + 5);
			c->rt[0].vaddr = smcx_get_be64(buf + 9);
			for (i = 1; i < n; i++)
				smcx_llc__get_rtoken(buf + 4 +
						     i * SMCX_LLC_RTOKEN_LEN,
						     &c->rt[i]);
			return smcx_rsvd_bytes(buf + 4 +
					       n * SMCX_LLC_RTOKEN_LEN,
					       40 - n * SMCX_LLC_RTOKEN_LEN,
					       flags);
		}
		for (i = 0; i < n; i++)
			smcx_llc__get_rtoken(buf + 5 + i * SMCX_LLC_RTOKEN_LEN,
					     &c->rt[i]);
		return smcx_rsvd_bytes(buf + 5 + n * SMCX_LLC_RTOKEN_LEN,
				       39 - n * SMCX_LLC_RTOKEN_LEN, flags);
	}
	case SMCX_LLC_TEST_LINK:
		memcpy(m->u.test_link.user_data, buf + 4, 16);
		return smcx_rsvd_bytes(buf + 20, 24, flags);
	case SMCX_LLC_DELETE_RKEY: {
		struct smcx_llc_delete_rkey *d = &m->u.delete_rkey;
		size_t end;

		d->num_rkeys = buf[4];
		d->err_mask = buf[5];
		rc = smcx_rsvd_bytes(buf + 6, 2, flags);
		if (rc)
			return rc;
		if (m->version == SMCX_LLC_V1 &&
		    d->num_rkeys > SMCX_LLC_DEL_RKEY_MAX)
			return -SMCX_WIRE_ECOUNT;
		end = SMCX_LLC_DEL_RKEY_OFF + (size_t)d->num_rkeys * 4;
		rc = smcx_llc__list_len(buf, len, end, flags);
		if (rc)
			return rc;
		d->rkeys = buf + SMCX_LLC_DEL_RKEY_OFF;
		return 0;
	}
	}
	return -SMCX_WIRE_ETYPE;
}

/* the four header bytes only: lets a receive path classify and drop */
static inline int smcx_llc_peek(const u8 *buf, size_t len,
				struct smcx_llc_msg *m)
{
	memset(m, 0, sizeof(*m));
	if (len < 4)
		return -SMCX_WIRE_ESHORT;
	m->version = buf[0] >> 4;
	m->type = buf[0] & 0x0f;
	m->flags = buf[3];
	if (m->version == SMCX_LLC_V1) {
		m->length = buf[1];
		m->rej_rsn = buf[2] & 0x0f;
	} else if (m->version == SMCX_LLC_V2) {
		m->length = smcx_get_le16(buf + 1);
	} else {
		return -SMCX_WIRE_EVERSION;
	}
	if (!smcx_llc_type_valid(m->version, m->type))
		return -SMCX_WIRE_ETYPE;
	return 0;
}

/*
 * Decode one received LLC message of @len bytes (the completion's byte
 * count).  On -ETYPE (unknown type: mainline has no handler and drops it)
 * and -EVERSION the header fields of @m are filled for logging.
 */
static inline int smcx_llc_decode(const u8 *buf, size_t len,
				  struct smcx_llc_msg *m, unsigned int flags)
{
	int rc;

	if (len < SMCX_LLC_LEN) {
		memset(m, 0, sizeof(*m));
		return -SMCX_WIRE_ESHORT;
	}
	rc = smcx_llc_peek(buf, len, m);
	if (rc)
		return rc;
	if (m->length != len)
		return -SMCX_WIRE_ELEN;
	if (m->version == SMCX_LLC_V1) {
		if (len != SMCX_LLC_LEN)
			return -SMCX_WIRE_ELEN;
		rc = smcx_rsvd_bits(buf[2], 0xf0, flags);
		/* the reject reason nibble exists in ADD_LINK only */
		if (!rc && m->type != SMCX_LLC_ADD_LINK)
			rc = smcx_rsvd_bits(buf[2], 0x0f, flags);
		if (rc)
			return rc;
		if (m->type != SMCX_LLC_ADD_LINK)
			m->rej_rsn = 0;
	} else {
		if (len > SMCX_LLC_V2_MAX_LEN)
			return -SMCX_WIRE_ELEN;
		switch (m->type) {
		case SMCX_LLC_ADD_LINK:
		case SMCX_LLC_REQ_ADD_LINK:
		case SMCX_LLC_DELETE_RKEY:
			break;		/* list messages: checked per type */
		default:
			if (len != SMCX_LLC_LEN)
				return -SMCX_WIRE_ELEN;
		}
	}
	return smcx_llc__decode_body(buf, len, m, flags);
}

/* ---- encode -------------------------------------------------------------- */

/* encoded length of @m, or -EINVAL */
static inline int smcx_llc_len(const struct smcx_llc_msg *m)
{
	if (!smcx_llc_type_valid(m->version, m->type))
		return -SMCX_WIRE_EINVAL;
	if (m->rej_rsn && (m->version != SMCX_LLC_V1 ||
			   m->type != SMCX_LLC_ADD_LINK || m->rej_rsn > 15))
		return -SMCX_WIRE_EINVAL;
	switch (m->type) {
	case SMCX_LLC_CONFIRM_LINK:
		if (m->u.confirm_link.qpn > 0xffffff)
			return -SMCX_WIRE_EINVAL;
		break;
	case SMCX_LLC_ADD_LINK: {
		const struct smcx_llc_add_link *a = &m->u.add_link;

		if (a->qpn > 0xffffff || a->psn > 0xffffff || a->qp_mtu > 15 ||
		    a->has_ext > 1 || a->v2_direct > 1)
			return -SMCX_WIRE_EINVAL;
		if (!a->has_ext)
			break;
		if (m->version != SMCX_LLC_V2 ||
		    a->num_rkeys > SMCX_LLC_ADD_LINK_RKEYS_MAX_V2)
			return -SMCX_WIRE_EINVAL;
		return SMCX_LLC_ADD_LINK_RT_OFF +
		       a->num_rkeys * SMCX_LLC_RT_LEN;
	}
	case SMCX_LLC_CONFIRM_RKEY:
	case SMCX_LLC_CONFIRM_RKEY_CONT:
		if (m->u.confirm_rkey.num_rkeys > SMCX_LLC_MAX_LINKS - 1 ||
		    (m->type == SMCX_LLC_CONFIRM_RKEY &&
		     m->u.confirm_rkey.rt[0].link_id))
			return -SMCX_WIRE_EINVAL;
		break;
	case SMCX_LLC_REQ_ADD_LINK:
		if (m->u.req_add_link.gid_cnt > SMCX_LLC_MAX_GIDS)
			return -SMCX_WIRE_EINVAL;
		return (int)smcx_llc__v2_len(SMCX_LLC_REQ_ADD_GID_OFF +
					     m->u.req_add_link.gid_cnt * 16);
	case SMCX_LLC_DELETE_RKEY:
		if (m->version == SMCX_LLC_V1) {
			if (m->u.delete_rkey.num_rkeys > SMCX_LLC_DEL_RKEY_MAX)
				return -SMCX_WIRE_EINVAL;
			break;
		}
		return (int)smcx_llc__v2_len(SMCX_LLC_DEL_RKEY_OFF +
					     m->u.delete_rkey.num_rkeys * 4);
	}
	return SMCX_LLC_LEN;
}

static inline int smcx_llc_encode(const struct smcx_llc_msg *m, u8 *out,
				  size_t out_len)
{
	int len = smcx_llc_len(m);
	unsigned int i, n;
	u8 *p;

	if (len < 0)
		return len;
	if ((size_t)len > out_len)
		return -SMCX_WIRE_ENOSPC;
	memset(out, 0, (size_t)len);
	out[0] = (u8)((m->version << 4) | m->type);
	if (m->version == SMCX_LLC_V1) {
		out[1] = (u8)len;
		out[2] = m->rej_rsn;
	} else {
		smcx_put_le16(out + 1, (u16)len);
	}
	out[3] = m->flags;

	switch (m->type) {
	case SMCX_LLC_CONFIRM_LINK: {
		const struct smcx_llc_confirm_link *c = &m->u.confirm_link;

		memcpy(out + 4, c->mac, 6);
		memcpy(out + 10, c->gid, 16);
		smcx_put_be24(out + 26, c->qpn);
		out[29] = c->link_num;
		memcpy(out + 30, c->link_uid, SMCX_LLC_LGR_ID_LEN);
		out[34] = c->max_links;
		out[35] = c->max_conns;
		break;
	}
	case SMCX_LLC_ADD_LINK: {
		const struct smcx_llc_add_link *a = &m->u.add_link;

		memcpy(out + 4, a->mac, 6);
		memcpy(out + 12, a->gid, 16);
		smcx_put_be24(out + 28, a->qpn);
		out[31] = a->link_num;
		out[32] = a->qp_mtu;
		smcx_put_be24(out + 33, a->psn);
		if (!a->has_ext)
			break;
		p = out + SMCX_LLC_LEN;
		p[0] = (u8)(a->v2_direct << 7);
		memcpy(p + 2, a->target_gid, 16);
		smcx_put_le16(p + 26, a->num_rkeys);
		if (a->rkeys)
			memcpy(out + SMCX_LLC_ADD_LINK_RT_OFF, a->rkeys,
			       (size_t)a->num_rkeys * SMCX_LLC_RT_LEN);
		break;
	}
	case SMCX_LLC_ADD_LINK_CONT: {
		const struct smcx_llc_add_link_cont *c = &m->u.add_link_cont;

		out[4] = c->link_num;
		out[5] = c->num_rkeys;
		n = c->num_rkeys;
		if (n > SMCX_LLC_RKEYS_PER_CONT)
			n = SMCX_LLC_RKEYS_PER_CONT;
		for (i = 0; i < n; i++)
			smcx_llc_rt_put(out + 8, i, &c->rt[i]);
		break;
	}
	case SMCX_LLC_DELETE_LINK:
		out[4] = m->u.delete_link.link_num;
		smcx_put_be32(out + 5, m->u.delete_link.reason);
		break;
	case SMCX_LLC_REQ_ADD_LINK:
		out[24] = m->u.req_add_link.gid_cnt;
		for (i = 0; i < m->u.req_add_link.gid_cnt; i++)
			memcpy(out + SMCX_LLC_REQ_ADD_GID_OFF + i * 16,
			       m->u.req_add_link.gids[i], 16);
		break;
	case SMCX_LLC_CONFIRM_RKEY:
	case SMCX_LLC_CONFIRM_RKEY_CONT: {
		const struct smcx_llc_confirm_rkey *c = &m->u.confirm_rkey;
		unsigned int first = m->type == SMCX_LLC_CONFIRM_RKEY;

		n = c->num_rkeys + first;
		if (n > SMCX_LLC_RKEYS_PER_MSG)
			n = SMCX_LLC_RKEYS_PER_MSG;
		if (first) {
			for (i = 1; i < n; i++)
				smcx_llc__put_rtoken(out + 4 +
						     i * SMCX_LLC_RTOKEN_LEN,
						     &c->rt[i]);
			smcx_put_be32(out + 5, c->rt[0].rkey);
			smcx_put_be64(out + 9, c->rt[0].vaddr);
		} else {
			for (i = 0; i < n; i++)
				smcx_llc__put_rtoken(out + 5 +
						     i * SMCX_LLC_RTOKEN_LEN,
						     &c->rt[i]);
		}
		out[4] = c->num_rkeys;
		break;
	}
	case SMCX_LLC_TEST_LINK:
		memcpy(out + 4, m->u.test_link.user_data, 16);
		break;
	case SMCX_LLC_DELETE_RKEY:
		out[4] = m->u.delete_rkey.num_rkeys;
		out[5] = m->u.delete_rkey.err_mask;
		if (m->u.delete_rkey.rkeys)
			memcpy(out + SMCX_LLC_DEL_RKEY_OFF,
			       m->u.delete_rkey.rkeys,
			       (size_t)m->u.delete_rkey.num_rkeys * 4);
		break;
	}
	return len;
}

#endif /* SMCX_WIRE_LLC_H */
