/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx wire codec self-test, for module init (and run by the unit tests).
 *
 *	rc = smcx_wire_selftest();	 0 or -SMCX_WIRE_E*
 *
 * It encodes a handful of canonical messages, compares key bytes with the
 * specification, decodes them back and checks one rejection.  No
 * allocation; each step runs in its own non-inlined frame below 512 bytes
 * (the largest is ~450).  The proposal step needs ~1.5 KiB and the accept
 * step's output buffer is static too: call the self-test from one context
 * at a time (module init is).
 */
#ifndef SMCX_WIRE_SELFTEST_H
#define SMCX_WIRE_SELFTEST_H

#include "../wire.h"

/*
 * One function per step.  In the kernel a step stays out of line, so its
 * locals get a frame of their own instead of adding up in the caller's.
 * User space has the stack to spare: a step is a plain inline function
 * there, which also keeps a translation unit that never runs the
 * self-test free of unused-function warnings.
 */
#ifdef SMCX_KERNEL
#define SMCX__ST_STEP	noinline_for_stack
#else
#define SMCX__ST_STEP	inline
#endif

/* CDC: every byte is fixed by the layout, compare the whole message */
static SMCX__ST_STEP int smcx__st_cdc(void)
{
	static const u8 want[SMCX_CDC_LEN] = {
		/* type, len, seq, token */
		0xfe, 0x2c, 0x01, 0x02, 0x0a, 0x0b, 0x0c, 0x0d,
		/* prod: wrap 3, 4096 */
		0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x10, 0x00,
		/* cons: wrap 2, 2048 */
		0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x08, 0x00,
		/* flags */
		0x90, 0x80,
	};
	struct smcx_cdc_msg m, d;
	u8 out[SMCX_CDC_LEN];
	int rc;

	memset(&m, 0, sizeof(m));
	m.seqno = 0x0102;
	m.token = 0x0a0b0c0d;
	m.prod.wrap = 3;
	m.prod.count = 4096;
	m.cons.wrap = 2;
	m.cons.count = 2048;
	m.prod_flags = SMCX_CDC_PF_WRITE_BLOCKED | SMCX_CDC_PF_CONS_UPD_REQ;
	m.conn_flags = SMCX_CDC_CF_DONE_WRITING;
	rc = smcx_cdc_encode(&m, out, sizeof(out));
	if (rc < 0)
		return rc;
	if (!(rc == SMCX_CDC_LEN && !memcmp(out, want, sizeof(want))))
		return -SMCX_WIRE_ESELFTEST;
	rc = smcx_cdc_decode(out, sizeof(out), &d, 0);
	if (rc)
		return rc;
	if (!(d.seqno == m.seqno && d.token == m.token &&
	      d.prod.wrap == 3 && d.prod.count == 4096 &&
	      d.cons.wrap == 2 && d.cons.count == 2048 &&
	      d.prod_flags == m.prod_flags && d.conn_flags == m.conn_flags))
		return -SMCX_WIRE_ESELFTEST;
	/* a length byte other than 44 is rejected */
	out[1] = 43;
	if (smcx_cdc_decode(out, sizeof(out), &d, 0) != -SMCX_WIRE_ELEN)
		return -SMCX_WIRE_ESELFTEST;
	return 0;
}

/* LLC: a v1 CONFIRM_LINK and a v2 ADD_LINK carrying one rkey triple */
static SMCX__ST_STEP int smcx__st_llc(void)
{
	struct smcx_llc_msg m, d;
	struct smcx_llc_rt rt, back;
	u8 out[SMCX_LLC_ADD_LINK_RT_OFF + SMCX_LLC_RT_LEN];
	int rc;

	memset(&m, 0, sizeof(m));
	m.version = SMCX_LLC_V1;
	m.type = SMCX_LLC_CONFIRM_LINK;
	m.flags = SMCX_LLC_FLAG_NO_RMBE_EYEC;
	m.u.confirm_link.qpn = 0x123456;
	m.u.confirm_link.link_num = 1;
	m.u.confirm_link.max_links = 2;
	rc = smcx_llc_encode(&m, out, sizeof(out));
	if (rc < 0)
		return rc;
	if (!(rc == SMCX_LLC_LEN && out[0] == 0x01 && out[1] == 44 &&
	      out[3] == 0x03 && out[26] == 0x12 && out[28] == 0x56 &&
	      out[29] == 1 && out[34] == 2))
		return -SMCX_WIRE_ESELFTEST;
	rc = smcx_llc_decode(out, SMCX_LLC_LEN, &d, 0);
	if (rc)
		return rc;
	if (!(d.type == SMCX_LLC_CONFIRM_LINK &&
	      d.u.confirm_link.qpn == 0x123456 &&
	      d.u.confirm_link.max_links == 2))
		return -SMCX_WIRE_ESELFTEST;

	memset(&m, 0, sizeof(m));
	m.version = SMCX_LLC_V2;
	m.type = SMCX_LLC_ADD_LINK;
	m.u.add_link.qpn = 0x000abc;
	m.u.add_link.qp_mtu = 5;		/* IB_MTU_4096 */
	m.u.add_link.has_ext = 1;
	m.u.add_link.v2_direct = 1;
	m.u.add_link.num_rkeys = 1;
	rc = smcx_llc_encode(&m, out, sizeof(out));
	if (rc < 0)
		return rc;
	rt.rkey = 0x11111111;
	rt.rkey_new = 0x22222222;
	rt.vaddr_new = 0x3333333344444444ull;
	smcx_llc_rt_put(out + SMCX_LLC_ADD_LINK_RT_OFF, 0, &rt);
	/* type 0x22, length 88 little-endian (mainline x86), v2_direct bit */
	if (!(rc == 88 && out[0] == 0x22 && out[1] == 88 && out[2] == 0 &&
	      out[32] == 5 && out[44] == 0x80 && out[70] == 1 &&
	      out[71] == 0 && out[72] == 0x11 && out[87] == 0x44))
		return -SMCX_WIRE_ESELFTEST;
	rc = smcx_llc_decode(out, 88, &d, 0);
	if (rc)
		return rc;
	if (!(d.u.add_link.has_ext && d.u.add_link.num_rkeys == 1))
		return -SMCX_WIRE_ESELFTEST;
	smcx_llc_rt_get(d.u.add_link.rkeys, 0, &back);
	if (!(back.rkey == rt.rkey && back.rkey_new == rt.rkey_new &&
	      back.vaddr_new == rt.vaddr_new))
		return -SMCX_WIRE_ESELFTEST;
	/* an unknown type (0x23: ADD_LINK_CONT has no v2 form) is reported */
	out[0] = 0x23;
	if (smcx_llc_decode(out, 88, &d, 0) != -SMCX_WIRE_ETYPE)
		return -SMCX_WIRE_ESELFTEST;
	return 0;
}

/* CLC decline v2 "out of sync": every byte fixed by the layout */
static SMCX__ST_STEP int smcx__st_decline(void)
{
	static const u8 want[SMCX_CLC_DECL_V2_LEN] = {
		/* SMCR, 4, 44, v2 | fc */
		0xe2, 0xd4, 0xc3, 0xd9, 0x04, 0x00, 0x2c, 0x28,
		/* peer id */
		1, 2, 3, 4, 5, 6, 7, 8,
		/* SYNCERR, Linux */
		0x04, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00,
		/* diag_v2[0..1] */
		0x03, 0x03, 0x00, 0x02, 0, 0, 0, 0,
		/* diag_v2[2..3] */
		0, 0, 0, 0, 0, 0, 0, 0,
		/* trailer */
		0xe2, 0xd4, 0xc3, 0xd9,
	};
	struct smcx_clc_decline m, d;
	u8 out[SMCX_CLC_DECL_V2_LEN];
	unsigned int i;
	int rc;

	memset(&m, 0, sizeof(m));
	m.hdr.eyecatcher = SMCX_EYE_SMCR;
	m.hdr.version = SMCX_CLC_V2;
	m.hdr.typev1 = SMCX_TYPE_R;
	m.hdr.typev2 = SMCX_CLC_FIRST_CONTACT;
	for (i = 0; i < SMCX_PEERID_LEN; i++)
		m.peer_id[i] = (u8)(i + 1);
	m.diag = SMCX_DECL_SYNCERR;
	m.os_type = SMCX_CLC_OS_LINUX;
	m.diag_v2[0] = SMCX_DECL_NOSMCRDEV;
	rc = smcx_clc_encode_decline(&m, out, sizeof(out));
	if (rc < 0)
		return rc;
	if (!(rc == SMCX_CLC_DECL_V2_LEN && !memcmp(out, want, sizeof(want))))
		return -SMCX_WIRE_ESELFTEST;
	rc = smcx_clc_decode_decline(out, sizeof(out), &d, 0);
	if (rc)
		return rc;
	if (!(d.diag == SMCX_DECL_SYNCERR && d.os_type == 2 &&
	      d.diag_v2[0] == SMCX_DECL_NOSMCRDEV &&
	      smcx_clc_first_contact(&d.hdr)))
		return -SMCX_WIRE_ESELFTEST;
	out[43] ^= 1;
	if (smcx_clc_decode_decline(out, sizeof(out), &d, 0) !=
	    -SMCX_WIRE_ETRAILER)
		return -SMCX_WIRE_ESELFTEST;
	return 0;
}

/* CLC accept v2 with first contact (160 bytes) round trip */
static SMCX__ST_STEP int smcx__st_accept(void)
{
	static u8 out[SMCX_CLC_ACC_V2_LEN + SMCX_CLC_FCE_V2X_LEN];
	struct smcx_clc_accept m;
	int rc;

	memset(&m, 0, sizeof(m));
	m.hdr.version = SMCX_CLC_V2;
	m.hdr.typev2 = SMCX_CLC_FIRST_CONTACT;
	m.qpn = 0x000101;
	m.rmb_rkey = 0xdeadbeef;
	m.rmbe_idx = 1;
	m.rmbe_alert_token = 7;
	m.rmbe_size = 1;
	m.qp_mtu = 3;
	m.rmb_dma_addr = 0x1000;
	m.psn = 0xabcdef;
	m.fce_v2x = 1;
	m.v2_direct = 1;
	m.os_type = SMCX_CLC_OS_LINUX;
	m.release = SMCX_RELEASE_1;
	memcpy(m.hostname, "smcx", 4);
	memset(m.hostname + 4, ' ', SMCX_HOSTNAME_LEN - 4);
	m.max_conns = 255;
	m.max_links = 2;
	m.feature_mask = 1;
	rc = smcx_clc_encode_accept(&m, SMCX_CLC_ACCEPT, out, sizeof(out));
	if (rc < 0)
		return rc;
	if (!(rc == 160 && out[6] == 160 && out[7] == 0x28 &&
	      out[50] == 0x13 && out[104] == 0x80 && out[105] == 0x21 &&
	      out[140] == 255 && out[141] == 2))
		return -SMCX_WIRE_ESELFTEST;
	rc = smcx_clc_decode_accept(out, sizeof(out), SMCX_CLC_ACCEPT, &m, 0);
	if (rc)
		return rc;
	if (!(m.fce_v2x && m.v2_direct && m.release == 1 &&
	      m.psn == 0xabcdef && m.rmb_rkey == 0xdeadbeef))
		return -SMCX_WIRE_ESELFTEST;
	return 0;
}

/* CLC proposal v2 offering SMC-R v1 and v2, in static storage */
static SMCX__ST_STEP int smcx__st_proposal(void)
{
	static struct {
		struct smcx_clc_proposal m, d;
		u8 out[SMCX_CLC_MAX_LEN];
	} s;
	int rc;

	memset(&s.m, 0, sizeof(s.m));
	s.m.hdr.version = SMCX_CLC_V2;
	s.m.hdr.typev1 = SMCX_TYPE_R;
	s.m.hdr.typev2 = SMCX_TYPE_R;
	s.m.has_smcd_area = 1;
	s.m.ipv4_subnet = 0xc0a80000;
	s.m.ipv4_prefix_len = 24;
	s.m.eid_cnt = 1;
	memcpy(s.m.user_eid[0], "SMCX-TEST-EID", 13);
	memset(s.m.user_eid[0] + 13, ' ', SMCX_EID_LEN - 13);
	s.m.release = SMCX_RELEASE_1;
	s.m.max_conns = 255;
	s.m.max_links = 2;
	s.m.feature_mask = 1;
	rc = smcx_clc_encode_proposal(&s.m, s.out, sizeof(s.out));
	if (rc < 0)
		return rc;
	/* 40 base + 40 SMC-D area + 8 ip area + 40 v2 ext + 32 EID + 4 */
	if (!(rc == 164 && s.out[7] == 0x20 && s.out[39] == 40 &&
	      s.out[51] == 36 && s.out[88] == 1 && s.out[91] == 0x10))
		return -SMCX_WIRE_ESELFTEST;
	rc = smcx_clc_decode_proposal(s.out, (size_t)rc, &s.d, 0);
	if (rc)
		return rc;
	if (!(s.d.ipv4_subnet == 0xc0a80000 && s.d.eid_cnt == 1 &&
	      !memcmp(s.d.user_eid[0], s.m.user_eid[0], SMCX_EID_LEN) &&
	      s.d.max_conns == 255 && s.d.release == 1))
		return -SMCX_WIRE_ESELFTEST;
	return 0;
}

static inline int smcx_wire_selftest(void)
{
	int rc;

	rc = smcx__st_cdc();
	if (!rc)
		rc = smcx__st_llc();
	if (!rc)
		rc = smcx__st_decline();
	if (!rc)
		rc = smcx__st_accept();
	if (!rc)
		rc = smcx__st_proposal();
	return rc;
}

#endif /* SMCX_WIRE_SELFTEST_H */
