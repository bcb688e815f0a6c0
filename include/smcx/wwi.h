/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx pure logic: RDMA WRITE WITH IMMEDIATE between two smcx hosts, an
 * extension of SMC-Rv2 that is not in RFC 7609 (docs/wire.md, "WRITE WITH
 * IMMEDIATE").  A push that would be RDMA WRITE + CDC SEND and whose CDC
 * would only move the producer cursor becomes one RDMA WRITE WITH
 * IMMEDIATE; the immediate is the receiver's connection token and the
 * receiver derives the producer cursor from the write's length.
 *
 * Negotiated per link group at first contact, in CLC fields mainline
 * (6.12) zero-fills and never reads:
 * - Proposal, SMC-D area: vendor OUI (3 bytes) = 02 53 58, a locally
 *   administered value ('S' 'X' behind the AAI quadrant 0x02, which the
 *   IEEE assigns to nobody), vendor options (5 bytes) = 01 then a
 *   big-endian feature word: marker version 1, bit 0 = WRITE WITH
 *   IMMEDIATE (sent when net.smc.smcx_write_imm is 1), bit 1 = native
 *   IPv6 (the Proposal's RoCE GID is an IPv6 address, not v4-mapped),
 *   bit 2 = a connection's first message may be one (sent with bit 0).
 *   No feature: no marker (mainline's zeros).
 * - Accept and Confirm with first contact, v2.1 first-contact extension:
 *   vendor options (4 bytes, big endian) = 0x5358 in the high half ('S'
 *   'X'), the feature bits in the low half: the server says yes in the
 *   Accept, the client repeats it in its Confirm.  Anything else
 *   (mainline's 0) means no.
 *
 * Header-only C for the kernel (SMCX_KERNEL), C11 and C++20.
 */
#ifndef SMCX_WWI_H
#define SMCX_WWI_H

#include <smcx/cursor.h>
#include <smcx/wire/clc.h>

#define SMCX_WWI_OUI0		0x02u
#define SMCX_WWI_OUI1		0x53u	/* 'S' */
#define SMCX_WWI_OUI2		0x58u	/* 'X' */
#define SMCX_WWI_EXP_VER	0x01u	/* vendor_exp[0]: marker version */
#define SMCX_WWI_F_IMM		0x01u	/* feature bit 0 */
#define SMCX_WWI_F_IP6		0x02u	/* feature bit 1: native IPv6 GIDs */
#define SMCX_WWI_F_FIRST	0x04u	/* bit 2: WWI from a connection's start */
/* the Accept's and Confirm's vendor options: high half marker, low features */
#define SMCX_WWI_OPT_MARK	0x53580000u
#define SMCX_WWI_OPT_MARK_MASK	0xffff0000u

/*
 * Mark a Proposal's vendor fields with the feature word @feats (0:
 * mainline's zeros, no marker).
 */
static inline void smcx_vx_prop_mark(u8 oui[3], u8 exp[5], u32 feats)
{
	memset(oui, 0, 3);
	memset(exp, 0, 5);
	if (!feats)
		return;
	oui[0] = SMCX_WWI_OUI0;
	oui[1] = SMCX_WWI_OUI1;
	oui[2] = SMCX_WWI_OUI2;
	exp[0] = SMCX_WWI_EXP_VER;
	exp[1] = (u8)(feats >> 24);
	exp[2] = (u8)(feats >> 16);
	exp[3] = (u8)(feats >> 8);
	exp[4] = (u8)feats;
}

/* mark a Proposal's vendor fields (@on: we can; else mainline's zeros) */
static inline void smcx_wwi_prop_mark(u8 oui[3], u8 exp[5], bool on)
{
	smcx_vx_prop_mark(oui, exp, on ? SMCX_WWI_F_IMM : 0);
}

/* a Proposal's feature word: 0 without our marker (a stock client) */
static inline u32 smcx_vx_prop_feats(const u8 oui[3], const u8 exp[5])
{
	if (oui[0] != SMCX_WWI_OUI0 || oui[1] != SMCX_WWI_OUI1 ||
	    oui[2] != SMCX_WWI_OUI2 || exp[0] != SMCX_WWI_EXP_VER)
		return 0;
	return (u32)exp[1] << 24 | (u32)exp[2] << 16 | (u32)exp[3] << 8 |
	       exp[4];
}

/* does a Proposal's vendor area offer WRITE WITH IMMEDIATE? */
static inline bool smcx_wwi_prop_offers(const u8 oui[3], const u8 exp[5])
{
	return smcx_vx_prop_feats(oui, exp) & SMCX_WWI_F_IMM;
}

/* the vendor options of an Accept or Confirm saying yes to @feats */
static inline u32 smcx_vx_opts(u32 feats)
{
	feats &= ~SMCX_WWI_OPT_MARK_MASK;
	return feats ? SMCX_WWI_OPT_MARK | feats : 0;
}

/* the vendor options of our Accept or Confirm for a group that uses it (@on) */
static inline u32 smcx_wwi_opts(bool on)
{
	return smcx_vx_opts(on ? SMCX_WWI_F_IMM : 0);
}

/* the features an Accept's or Confirm's vendor options say yes to */
static inline u32 smcx_vx_opts_feats(u32 opts)
{
	if ((opts & SMCX_WWI_OPT_MARK_MASK) != SMCX_WWI_OPT_MARK)
		return 0;
	return opts & ~SMCX_WWI_OPT_MARK_MASK;
}

/* do an Accept's or Confirm's vendor options say yes? */
static inline bool smcx_wwi_opts_say(u32 opts)
{
	return smcx_vx_opts_feats(opts) & SMCX_WWI_F_IMM;
}

/*
 * Server: a new group uses it when we may (@ours, the sysctl) and the
 * Proposal offered it.
 */
static inline bool smcx_wwi_srv(bool ours, const u8 oui[3], const u8 exp[5])
{
	return ours && smcx_wwi_prop_offers(oui, exp);
}

/*
 * Client: a new group uses it when our Proposal offered it (@offered) and
 * the Accept said yes; a yes we did not ask for is not taken (and our
 * Confirm then says no, which the server declines).
 */
static inline bool smcx_wwi_clnt(bool offered, u32 acc_opts)
{
	return offered && smcx_wwi_opts_say(acc_opts);
}

/* Server: does the Confirm repeat what our Accept said (@neg)? */
static inline bool smcx_wwi_confirm_ok(bool neg, u32 conf_opts)
{
	return smcx_wwi_opts_say(conf_opts) == neg;
}

/*
 * Feature bit 2, "from the start": a connection's first push may be a
 * WRITE WITH IMMEDIATE too.  Both ends of a new connection start at
 * producer count 0 on the link pair its CLC handshake named (the server's
 * Accept names its link's QP, the client takes the link that ends there),
 * so the receiver knows where the first write goes on from, as it would
 * after a CDC.  Without the bit (an smcx of before it) the first message
 * of a connection is a CDC.  A request and its response are then one
 * RDMA message each instead of two: what short connections pay most for.
 *
 * Server: a new group has it when it uses WRITE WITH IMMEDIATE (@imm,
 * smcx_wwi_srv()) and the Proposal offered bit 2 as well.
 */
static inline bool smcx_wwi_first_srv(bool imm, const u8 oui[3],
				      const u8 exp[5])
{
	return imm && (smcx_vx_prop_feats(oui, exp) & SMCX_WWI_F_FIRST);
}

/*
 * Client: a new group has it when it uses WRITE WITH IMMEDIATE (@imm,
 * smcx_wwi_clnt()), our Proposal offered bit 2 (@offered) and the Accept
 * says yes to it.
 */
static inline bool smcx_wwi_first_clnt(bool imm, bool offered, u32 acc_opts)
{
	return imm && offered &&
	       (smcx_vx_opts_feats(acc_opts) & SMCX_WWI_F_FIRST);
}

/* Server: does the Confirm repeat our Accept's bit 2 (@neg)? */
static inline bool smcx_wwi_first_confirm_ok(bool neg, u32 conf_opts)
{
	return !!(smcx_vx_opts_feats(conf_opts) & SMCX_WWI_F_FIRST) == neg;
}

/*
 * Native IPv6 (feature bit 1).  A RoCE v2 GID is an IPv6 address: an
 * IPv4 one is v4-mapped (::ffff:a.b.c.d, mainline's only form), a native
 * IPv6 one is the address itself.  Mainline proposes and accepts only the
 * v4-mapped form; smcx carries a native IPv6 connection over native IPv6
 * GIDs when both ends say so with bit 1, and a link group never mixes the
 * two families.
 */
static inline bool smcx_ip6_gid_v4(const u8 gid[16])
{
	static const u8 pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return !memcmp(gid, pfx, sizeof(pfx));
}

/*
 * Server: may a Proposal with @oui/@exp and RoCE GID @gid be served on a
 * CLC connection that is native IPv6 (@native6)?  Only with bit 1 and a
 * native GID; otherwise the decline is the one mainline gives (NOSMCRDEV:
 * it finds no IPv4 route to such a GID, nor an IPv4 source address).  An
 * IPv4 connection (v4-mapped included) is judged as it always was: the
 * GID is not looked at here.
 */
static inline bool smcx_ip6_srv_ok(bool native6, const u8 oui[3],
				   const u8 exp[5], const u8 gid[16])
{
	if (!native6)
		return true;
	return (smcx_vx_prop_feats(oui, exp) & SMCX_WWI_F_IP6) &&
	       !smcx_ip6_gid_v4(gid);
}

/*
 * Client: does an Accept fit our native IPv6 Proposal (@offered)?  Its
 * GID is an IPv6 one, and a first contact's (@first) vendor options say
 * bit 1.  A reuse's Accept has no options; its GID names a group whose
 * first contact agreed.  An Accept to an IPv4 Proposal is judged as it
 * always was.
 */
static inline bool smcx_ip6_clnt_ok(bool offered, bool first, u32 acc_opts,
				    const u8 gid[16])
{
	if (!offered)
		return true;
	if (smcx_ip6_gid_v4(gid))
		return false;
	return !first || (smcx_vx_opts_feats(acc_opts) & SMCX_WWI_F_IP6);
}

/*
 * Server: does the Confirm of a native IPv6 first contact (@native6: the
 * group's GIDs are IPv6) repeat bit 1 of our Accept, with an IPv6 GID?
 */
static inline bool smcx_ip6_confirm_ok(bool native6, u32 conf_opts,
				       const u8 gid[16])
{
	if (!native6)
		return true;
	return !smcx_ip6_gid_v4(gid) &&
	       (smcx_vx_opts_feats(conf_opts) & SMCX_WWI_F_IP6);
}

/*
 * Send: may a push of @n bytes from stream position @sent go as one WRITE
 * WITH IMMEDIATE instead of WRITEs and a CDC?  Only on a group that
 * negotiated it (@on), when the CDC would say nothing but the new producer
 * cursor (@cdc_news: urgent mark, close, done writing, abort, a forced
 * cursor update, a consumer cursor the peer waits for), in one piece (no
 * wrap in our send buffer of @ssz nor in the peer's RMBE of @psz), and
 * when the peer can derive the producer cursor: the previous message of
 * this connection on this link (@stated_here) stated @stated, which is
 * where this write starts.  A push that leaves data unsent (the peer's
 * RMBE is full) needs no write-blocked flag: the receiver sees the full
 * RMBE (smcx_wwi_rx_blocked()).
 */
static inline bool smcx_wwi_tx_ok(bool on, bool cdc_news, u64 n,
				  bool stated_here, u64 stated, u64 sent,
				  u32 ssz, u32 psz)
{
	if (!on || cdc_news || !n)
		return false;
	if (!stated_here || stated != sent)
		return false;
	return smcx_ring_chunk(sent, ssz, n) == n &&
	       smcx_ring_chunk(sent, psz, n) == n;
}

/* what a received WRITE WITH IMMEDIATE does to its connection */
enum smcx_wwi_rx {
	SMCX_WWI_RX_OK,		/* producer count moves to the one given back */
	SMCX_WWI_RX_STALE,	/* from a link the connection left: dropped */
	SMCX_WWI_RX_BAD,	/* no correct peer sends it: protocol error */
};

/*
 * Receive: a WRITE WITH IMMEDIATE of @len bytes on link @link of a group
 * that negotiated it (@on) or not.  @taken: a CDC or WRITE WITH IMMEDIATE
 * of this connection was taken, the last one on link @last_link, stating
 * producer count @stated; @cons is our consumer count, @size our RMBE's.
 * The sender's first message on a link is a CDC and RC keeps a link's
 * messages in order, so one from the link of the last message taken
 * starts where that one ended; one from another link is older than it (a
 * dead link's, whose data the sender wrote again): stale.  The write may
 * fill the RMBE from @cons, no more.
 */
static inline enum smcx_wwi_rx
smcx_wwi_rx_judge(bool on, bool taken, u8 last_link, u8 link, u32 len,
		  u32 size, u64 stated, u64 cons, u64 *n)
{
	if (!on || !taken || !len)
		return SMCX_WWI_RX_BAD;
	if (last_link != link)
		return SMCX_WWI_RX_STALE;
	if (len > size || stated + len > cons + size)
		return SMCX_WWI_RX_BAD;
	*n = stated + len;
	return SMCX_WWI_RX_OK;
}

/*
 * Receive: does the sender of a WRITE WITH IMMEDIATE that brought the
 * producer count to @stated wait for our consumer cursor (what a CDC's
 * write-blocked flag says)?  It filled our RMBE of @size up to the last
 * consumer count we sent it, @cons_sent: its space was 0 after it, and
 * whatever it still has waits.  (A sender with nothing left waits for
 * nothing, and our cursor then costs one CDC, as after a CDC that asked
 * for it.)  The sender cannot know more than @cons_sent, so it never
 * passes that line; one of our updates still in flight makes it look not
 * blocked, and that update frees it.
 */
static inline bool smcx_wwi_rx_blocked(u64 stated, u64 cons_sent, u32 size)
{
	return stated - cons_sent >= size;
}

#endif /* SMCX_WWI_H */
