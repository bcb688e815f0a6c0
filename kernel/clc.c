// SPDX-License-Identifier: GPL-2.0
/*
 * CLC handshake messages over the internal TCP socket.
 *
 * Every message is built and parsed by the wire codec (include/smcx/wire)
 * and framed on the CLC socket by clc_io.c; this file fills the messages
 * and decides (join.c runs the handshake: it calls these in order and
 * joins a link group between them).
 *
 * What smcx says (join.c runs the SMC-R first contact or reuse between
 * the messages):
 *   client  sends a v2 Proposal offering SMC-R v2 only (release 1, the
 *           max conns/links of net.smc.smcr_max_{conns,links}_per_lgr, its
 *           user EIDs and the RoCE v2 GID of the CLC socket's egress
 *           device, as mainline 6.12 does; on a native IPv6 CLC socket
 *           its IPv6 GID and our marker's IPv6 bit, smcx/wwi.h); no SMC-R
 *           v1 (rxe has no RoCE v1 GIDs), no SMC-D.  Without an EID or such
 *           a device (or a link-local IPv6 source) it has nothing to offer and
 *           sends a v1 Decline NOSMCDEV instead, as mainline does.  A
 *           Decline makes it fall back with PEERDECL and the peer's
 *           diagnosis; an Accept it can serve is answered with a Confirm.
 *   server  answers an SMC-R v2 offer with a shared EID and device with an
 *           Accept, any other Proposal with a Decline in its version:
 *           NOUEID / NOSMCDEV for an SMC-R v2-only offer without user EIDs
 *           / without one we share (the checks mainline makes first),
 *           NOSMCRDEV for other offers including SMC-R, NOSMCDDEV for
 *           SMC-D-only offers, MODEUNSUPP, MAXCONNERR or MAXLINKERR when
 *           the v2.1 values cannot be met.  A Decline instead of a
 *           Proposal (a peer with nothing to offer) means PEERDECL.
 *           A client whose stream does not start with a CLC eyecatcher is
 *           speaking TCP: fallback with SYNCERR, no Decline, nothing read.
 * Timeouts: SMCX_CLC_WAIT_TIME (6 s, mainline's CLC_WAIT_TIME) for each
 * message awaited.  A timeout, or garbage behind a valid eyecatcher, is an
 * error (the connection is reset), never a fallback: the peer owes a CLC
 * message we have not consumed (see connect.c and docs/kernel-socket.md).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/net.h>
#include <net/dst.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <net/tcp.h>

#include <smcx/wire.h>
#include <smcx/wwi.h>

#include "clc.h"
#include "clc_io.h"
#include "join.h"
#include "conn.h"
#include "hsrec.h"
#include "ib.h"
#include "lgr.h"
#include "sysctl.h"
#include "ueid.h"
#include <linux/utsname.h>

/*
 * For tests only (selftests/smcx_stats.py): negotiate WRITE WITH
 * IMMEDIATE as an smcx from before feature bit 2 does (smcx/wwi.h): never
 * offer it, never say yes to it, so a connection's first message is a
 * CDC.  Both roles of an older peer, without an older module.
 */
static bool smcx_clc_fault_wwi_old;
module_param_named(fault_wwi_old, smcx_clc_fault_wwi_old, bool, 0600);
MODULE_PARM_DESC(fault_wwi_old,
		 "tests only: WRITE WITH IMMEDIATE as before feature bit 2");

/*
 * The IPv4 source address of the CLC socket @tcpsk's connection, or 0 when
 * the connection is not IPv4 on the wire.  SMC-R v2 runs over IPv4 CLC
 * connections (RoCE v2 with IPv4-mapped GIDs, as mainline); an AF_INET6
 * socket whose peer is a v4-mapped address (::ffff:a.b.c.d: a client that
 * connected to one, a dual-stack listener's IPv4 client) is one of them:
 * the kernel runs it as IPv4 and keeps the IPv4 addresses beside the
 * mapped ones.
 */
static __be32 smcx_clc_ipv4_saddr(const struct sock *tcpsk)
{
	if (tcpsk->sk_family == AF_INET)
		return READ_ONCE(inet_sk(tcpsk)->inet_saddr);
#if IS_ENABLED(CONFIG_IPV6)
	if (tcpsk->sk_family == AF_INET6 &&
	    ipv6_addr_v4mapped(&tcpsk->sk_v6_daddr))
		return READ_ONCE(inet_sk(tcpsk)->inet_saddr);
#endif
	return 0;
}

bool smcx_clc_src_gid(const struct sock *tcpsk, struct in6_addr *gid,
		      bool *native6)
{
	__be32 saddr = smcx_clc_ipv4_saddr(tcpsk);

	*native6 = false;
	if (saddr) {
		ipv6_addr_set_v4mapped(saddr, gid);
		return true;
	}
#if IS_ENABLED(CONFIG_IPV6)
	if (tcpsk->sk_family == AF_INET6) {
		int t;

		*gid = tcpsk->sk_v6_rcv_saddr;
		t = ipv6_addr_type(gid);
		*native6 = (t & IPV6_ADDR_UNICAST) &&
			   !(t & (IPV6_ADDR_LINKLOCAL | IPV6_ADDR_SITELOCAL |
				  IPV6_ADDR_LOOPBACK | IPV6_ADDR_MAPPED));
		return *native6;
	}
#endif
	return false;
}

void smcx_clc_peer_addr(const struct sock *tcpsk, u8 *gid)
{
	struct in6_addr a = {};

	if (tcpsk->sk_family == AF_INET)
		ipv6_addr_set_v4mapped(READ_ONCE(inet_sk(tcpsk)->inet_daddr),
				       &a);
#if IS_ENABLED(CONFIG_IPV6)
	else if (tcpsk->sk_family == AF_INET6)
		a = tcpsk->sk_v6_daddr;	/* an IPv4 peer's is v4-mapped */
#endif
	memcpy(gid, a.s6_addr, SMCX_GID_LEN);
}

bool smcx_clc_from_gid(const struct sock *tcpsk, const u8 *gid)
{
	u8 a[SMCX_GID_LEN];

	smcx_clc_peer_addr(tcpsk, a);
	return memchr_inv(a, 0, SMCX_GID_LEN) &&
	       !memcmp(a, gid, SMCX_GID_LEN);
}

/*
 * What we can offer on this connection: SMC-R v2 needs at least one user
 * EID and a RoCE v2 GID on the CLC socket's egress device (the device
 * layer picks it) equal to the connection's source address
 * (smcx_clc_src_gid()).  An IPv4 CLC connection (an AF_INET6 socket's
 * v4-mapped one too) is what mainline offers; a native IPv6 one is
 * offered with its IPv6 GID and feature bit 1 of our marker
 * (smcx/wwi.h): only an smcx server serves it, mainline declines it.
 * Returns 0 with @p filled, or the reason for not proposing at all.
 */
static bool smcx_clc_fill_r(struct smcx_sock *smc,
			    struct smcx_clc_proposal *p, bool *native6)
{
	struct sock *tcpsk = smc->clcsock->sk;
	struct smcx_ib_choice choice;
	struct dst_entry *dst;
	struct in6_addr gid;
	int rc;

	if (!smcx_clc_src_gid(tcpsk, &gid, native6))
		return false;
	dst = sk_dst_get(tcpsk);
	if (!dst)
		return false;
	/* a route over lo (to this host) has no RoCE device: SMC-D's */
	rc = dst->dev && !(dst->dev->flags & IFF_LOOPBACK) ?
	     smcx_ib_choose_gid(dst->dev, &gid, SMCX_ROCE_V2, NULL, &choice) :
	     -ENODEV;
	dst_release(dst);
	if (rc)
		return false;
	memcpy(p->roce_gid, choice.gid.raw, SMCX_GID_LEN);
	smcx_ib_choice_release(&choice);
	return true;
}

/*
 * ... and beside SMC-R, or alone where SMC-R has no device (127.0.0.1, a
 * veth pair between namespaces), SMC-Dv2 over the loopback device
 * (join_d.c), which a server on this host takes.
 */
static u32 smcx_clc_fill_proposal(struct smcx_sock *smc,
				  struct smcx_clc_proposal *p)
{
	const struct smcx_sysctl *v = smcx_sysctl(sock_net(&smc->sk));
	bool native6 = false, r, d;
	u32 feats;
	int n;

	memset(p, 0, sizeof(*p));
	n = smcx_ueid_get(p->user_eid);
	if (n <= 0)
		return SMCX_DECL_NOSMCDEV;
	r = smcx_clc_fill_r(smc, p, &native6);
	d = smcx_clc_d_offer(smc, p);
	if (!r && !d)
		return SMCX_DECL_NOSMCDEV;

	p->hdr.eyecatcher = SMCX_EYE_SMCR;
	p->hdr.version = SMCX_CLC_V2;
	p->hdr.typev1 = SMCX_TYPE_N;
	p->hdr.typev2 = r && d ? SMCX_TYPE_B : r ? SMCX_TYPE_R : SMCX_TYPE_D;
	/* v2 only: the v1 fields (peer id, GID, MAC) stay zero, as mainline's */
	p->has_smcd_area = 1;		/* always present in v2 */
	p->eid_cnt = n;
	p->release = SMCX_RELEASE_OURS;
	/* what we want, for the server to negotiate (sysctls in range) */
	p->max_conns = READ_ONCE(v->smcr_max_conns_per_lgr);
	p->max_links = READ_ONCE(v->smcr_max_links_per_lgr);
	/* smcx's extensions, in bytes mainline ignores (smcx/wwi.h) */
	feats = READ_ONCE(v->smcx_write_imm) ? SMCX_WWI_F_IMM : 0;
	if (feats && !READ_ONCE(smcx_clc_fault_wwi_old))
		feats |= SMCX_WWI_F_FIRST;
	if (native6)
		feats |= SMCX_WWI_F_IP6;
	smcx_vx_prop_mark(p->vendor_oui, p->vendor_exp, feats);
	return 0;
}

/*
 * Is the CLC socket @tcpsk's peer the peer of @lgr: is its address the GID
 * at the far end of one of the group's usable links?  Read without a
 * lock, as the group lookup reads it (lgr.c): a link's peer GID is written
 * before the link becomes usable and cleared only when its slot is
 * recycled, after it stopped being usable.
 */
static bool smcx_clc_lgr_peer(struct smcx_lgr *lgr, const struct sock *tcpsk)
{
	struct smcx_link *lnk;

	for (lnk = smcx_lgr_next_link(lgr, NULL); lnk;
	     lnk = smcx_lgr_next_link(lgr, lnk))
		if (smcx_clc_from_gid(tcpsk, lnk->peer_gid))
			return true;
	return false;
}

/* a peer's decline: keep its diagnosis, fall back without answering */
int smcx_clc_peer_declined(struct smcx_sock *smc, struct smcx_clc_ctx *ctx,
			   int len)
{
	if (smcx_clc_decode_decline(ctx->buf, len, &ctx->m.dcl,
				    SMCX_WIRE_LAX_RSVD))
		return -EPROTO;
	smc->peer_diag = ctx->m.dcl.diag;
	/*
	 * "Out of sync": the peer has no link group for the one we named
	 * (it lost it: a crash, a device removed while we heard nothing).
	 * Ours is stale, and every later connection from that peer would be
	 * offered it again: end it, as mainline does - but only when the
	 * Decline comes from that group's peer, the host at one of its
	 * links' far ends.  Anyone else's "out of sync" says nothing about
	 * the group; ending it would reset every connection between us and
	 * its peer on a stranger's word (N1).  join.c offers a reuse only to
	 * the peer at the GID it claims, so a stranger gets here on a first
	 * contact only, whose group the join's undo ends anyway.
	 */
	if ((ctx->m.dcl.hdr.typev2 & SMCX_CLC_FIRST_CONTACT) && smc->conn &&
	    smc->conn->lgr &&
	    smcx_clc_lgr_peer(smc->conn->lgr, smc->clcsock->sk))
		smcx_lgr_terminate_async(smc->conn->lgr, "peer out of sync");
	return SMCX_DECL_PEERDECL;
}

/* ------------------------------------------------------- SMC-R (smcr=1) */

/*
 * Our host name for a first contact's Accept or Confirm: the peer's decoder
 * (ours, and the codec's rule for text fields) takes printable ASCII only,
 * so any other byte (a UTF-8 host name) becomes '?', and the field is
 * padded with blanks as mainline pads it.
 */
void smcx_clc_hostname(u8 *out)
{
	const char *host = utsname()->nodename;
	size_t i, hl = strnlen(host, SMCX_HOSTNAME_LEN);

	memset(out, ' ', SMCX_HOSTNAME_LEN);
	for (i = 0; i < hl; i++)
		out[i] = host[i] >= 0x20 && host[i] <= 0x7e ? host[i] : '?';
}

/*
 * Accept/confirm fields of our side of @conn.  They name the QP of the
 * connection's link and the RMB's MR on that link, which the link's clear
 * destroys: it takes lgr->mutex before it unmaps (and terminate sets
 * lgr->dead under it before), so holding that mutex and seeing the group
 * and the link alive keeps them valid while they are read.  -ENOLINK: the
 * group or the link died (during the wait before this message).
 */
static int smcx_clc_fill_acc(struct smcx_sock *smc, struct smcx_clc_accept *a,
			     bool first, const u8 *eid)
{
	struct smcx_conn *conn = smc->conn;
	struct smcx_lgr *lgr = conn->lgr;
	struct smcx_link *lnk = conn->lnk;

	memset(a, 0, sizeof(*a));
	mutex_lock(&lgr->mutex);
	if (lgr->dead || !smcx_link_usable(lnk) || !lnk->qp ||
	    !smcx_buf_on(conn->rmb, lnk)->mr) {
		mutex_unlock(&lgr->mutex);
		return -ENOLINK;
	}
	a->qpn = lnk->qp_num;
	a->rmb_rkey = smcx_buf_rkey(conn->rmb, lnk);
	mutex_unlock(&lgr->mutex);
	a->hdr.eyecatcher = SMCX_EYE_SMCR;
	a->hdr.version = SMCX_CLC_V2;
	a->hdr.typev1 = SMCX_TYPE_R;
	a->hdr.typev2 = first ? SMCX_CLC_FIRST_CONTACT : 0;
	memcpy(a->peer_id, smcx_systemid, SMCX_PEERID_LEN);
	memcpy(a->gid, lnk->gid, SMCX_GID_LEN);
	memcpy(a->mac, lnk->mac, SMCX_MAC_LEN);
	a->rmbe_idx = 1;		/* one RMBE per RMB, as mainline */
	a->rmbe_alert_token = conn->token;
	a->rmbe_size = smcx_compress_bufsize(conn->rmb->size);
	a->qp_mtu = lnk->mtu;
	a->rmb_dma_addr = smcx_buf_raddr(conn->rmb, lnk);
	a->psn = lnk->psn;
	memcpy(a->eid, eid, SMCX_EID_LEN);
	if (!first)
		return 0;
	a->fce_v2x = 1;
	a->v2_direct = 1;		/* the lab's peers share a subnet */
	a->os_type = SMCX_CLC_OS_LINUX;
	a->release = lgr->v2x.release;
	smcx_clc_hostname(a->hostname);
	a->max_conns = smcx_v2x_fce_conns(&lgr->v2x);
	a->max_links = smcx_v2x_fce_links(&lgr->v2x);
	/* a group is native IPv6 when its links' GIDs are (smcx/wwi.h) */
	a->vendor_exp_options =
		smcx_vx_opts((lgr->v2x.write_imm ? SMCX_WWI_F_IMM : 0) |
			     (lgr->v2x.wwi_first ? SMCX_WWI_F_FIRST : 0) |
			     (smcx_ip6_gid_v4(lnk->gid) ? 0 : SMCX_WWI_F_IP6));
	return 0;
}

static int smcx_clc_send_acc(struct smcx_sock *smc, struct smcx_clc_ctx *ctx,
			     u8 type)
{
	int len = smcx_clc_encode_accept(&ctx->m.acc, type, ctx->buf,
					 sizeof(ctx->buf));

	if (len < 0)
		return -EINVAL;
	return smcx_clc_write(smc, ctx->buf, len);
}

/*
 * Client, SMC-R v2 accept received (ctx->m.acc): a user EID we have, and on
 * first contact a release and counts we take.  0: join; > 0: declined.
 */
static int smcx_clc_clnt_judge(struct smcx_sock *smc, struct smcx_clc_ctx *ctx)
{
	struct smcx_clc_accept *a = &ctx->m.acc;
	bool first = smcx_clc_first_contact(&a->hdr);
	u32 reason;

	if (!smcx_ueid_has(a->eid)) {
		reason = SMCX_DECL_NOUEID;
		goto decline;
	}
	memcpy(ctx->eid, a->eid, SMCX_EID_LEN);
	/* our native IPv6 Proposal: an IPv6 GID, and the server's yes */
	if (!smcx_ip6_clnt_ok(ctx->offered & SMCX_WWI_F_IP6, first,
			      a->vendor_exp_options, a->gid)) {
		reason = SMCX_DECL_MODEUNSUPP;
		goto decline;
	}
	/* a new link group takes the release and counts the server chose */
	reason = first ? smcx_v2x_clnt(&ctx->neg, a->release, a->max_conns,
				       a->max_links) : 0;
	ctx->neg.write_imm = smcx_wwi_clnt(ctx->offered & SMCX_WWI_F_IMM,
					   a->vendor_exp_options);
	ctx->neg.wwi_first = smcx_wwi_first_clnt(ctx->neg.write_imm,
						 ctx->offered & SMCX_WWI_F_FIRST,
						 a->vendor_exp_options);
	if (!reason)
		return 0;
decline:
	return smcx_clc_decline(smc, reason, SMCX_CLC_V2);
}

int smcx_clc_send_confirm(struct smcx_sock *smc, struct smcx_clc_ctx *ctx,
			  bool first)
{
	struct smcx_clc_accept *a = &ctx->m.acc;
	int rc;

	rc = smcx_clc_fill_acc(smc, a, first, ctx->eid);
	if (rc)
		return rc;
	if (first) {
		a->gid_cnt = 1;
		memcpy(a->gids[0], smc->conn->lnk->gid, SMCX_GID_LEN);
	}
	/* the Confirm names our RMB: the peer may write into it from now */
	smcx_close_expose(smc->conn);
	return smcx_clc_send_acc(smc, ctx, SMCX_CLC_CONFIRM);
}

/*
 * Server, SMC-R v2 proposal listing one of our user EIDs: that EID, and
 * the release and counts a new link group would take.  0: join; -ENOENT:
 * the EID went away; > 0: declined.
 */
static int smcx_clc_srv_judge(struct smcx_sock *smc, struct smcx_clc_ctx *ctx)
{
	const struct smcx_sysctl *v = smcx_sysctl(sock_net(&smc->sk));
	struct smcx_clc_proposal *p = &ctx->m.prop;
	struct in6_addr gid;
	unsigned int i;
	bool native6;
	u32 reason;

	/*
	 * A native IPv6 connection is served only with our marker's bit 1
	 * and an IPv6 GID; otherwise it is declined as mainline declines it
	 * (ctx->reason, NOSMCRDEV: no IPv4 source address, no IPv4 route to
	 * the GID).  An IPv4 one passes (smcx_ip6_srv_ok()).
	 */
	if (!smcx_clc_src_gid(smc->clcsock->sk, &gid, &native6) ||
	    !smcx_ip6_srv_ok(native6, p->vendor_oui, p->vendor_exp,
			     p->roce_gid))
		return -ENODEV;
	for (i = 0; i < p->eid_cnt; i++)
		if (smcx_ueid_has(p->user_eid[i]))
			break;
	if (i == p->eid_cnt)
		return -ENOENT;
	memcpy(ctx->eid, p->user_eid[i], SMCX_EID_LEN);
	memcpy(ctx->peer_gid, p->roce_gid, SMCX_GID_LEN);
	/* release and counts for a new link group, from every proposal */
	reason = smcx_v2x_srv(&ctx->neg, p->release, p->max_conns, p->max_links,
			      READ_ONCE(v->smcr_max_conns_per_lgr),
			      READ_ONCE(v->smcr_max_links_per_lgr));
	ctx->neg.write_imm = smcx_wwi_srv(READ_ONCE(v->smcx_write_imm),
					  p->vendor_oui, p->vendor_exp);
	ctx->neg.wwi_first = !READ_ONCE(smcx_clc_fault_wwi_old) &&
			     smcx_wwi_first_srv(ctx->neg.write_imm,
						p->vendor_oui, p->vendor_exp);
	if (reason)
		return smcx_clc_decline(smc, reason, SMCX_CLC_V2);
	return 0;
}

int smcx_clc_srv_accept(struct smcx_sock *smc, struct smcx_clc_ctx *ctx,
			bool first, u32 *decline)
{
	struct smcx_clc_hdr hdr;
	long timeo;
	int rc, len;

	*decline = 0;
	rc = smcx_clc_fill_acc(smc, &ctx->m.acc, first, ctx->eid);
	if (rc)
		return rc;
	/* the Accept names our RMB: the peer may write into it from now */
	smcx_close_expose(smc->conn);
	rc = smcx_clc_send_acc(smc, ctx, SMCX_CLC_ACCEPT);
	if (rc)
		return rc;
	timeo = SMCX_CLC_WAIT_TIME;
	len = smcx_clc_recv(smc, ctx, &hdr, &timeo);
	if (len < 0)
		return len;
	if (hdr.type == SMCX_CLC_DECLINE)
		return smcx_clc_peer_declined(smc, ctx, len);
	if (hdr.type != SMCX_CLC_CONFIRM ||
	    smcx_clc_decode_accept(ctx->buf, len, SMCX_CLC_CONFIRM, &ctx->m.acc,
				   SMCX_WIRE_LAX_RSVD | SMCX_WIRE_LAX_TEXT) ||
	    ctx->m.acc.hdr.version != SMCX_CLC_V2 ||
	    smcx_clc_first_contact(&ctx->m.acc.hdr) != first)
		return -EPROTO;
	*decline = first ? smcx_v2x_confirm_check(&smc->conn->lgr->v2x,
						  ctx->m.acc.release,
						  ctx->m.acc.max_conns,
						  ctx->m.acc.max_links) : 0;
	/* a Confirm that does not repeat our Accept's extension answer */
	if (first && !*decline &&
	    (!smcx_wwi_confirm_ok(smc->conn->lgr->v2x.write_imm,
				  ctx->m.acc.vendor_exp_options) ||
	     !smcx_wwi_first_confirm_ok(smc->conn->lgr->v2x.wwi_first,
					ctx->m.acc.vendor_exp_options) ||
	     !smcx_ip6_confirm_ok(!smcx_ip6_gid_v4(smc->conn->lnk->gid),
				  ctx->m.acc.vendor_exp_options,
				  ctx->m.acc.gid)))
		*decline = SMCX_DECL_MODEUNSUPP;
	return 0;
}

int smcx_clc_srv_unserved(struct smcx_sock *smc, struct smcx_clc_ctx *ctx,
			  int rc)
{
	if (rc != -ENOENT && rc != -ENODEV && rc != -ENOMEM && rc != -ENOSPC)
		return rc;
	/* nothing to serve it with: decline as before */
	return smcx_clc_decline(smc, ctx->reason,
				ctx->m.prop.hdr.version);
}

int smcx_clc_client(struct smcx_sock *smc, struct smcx_clc_ctx *ctx)
{
	struct socket *cs = smc->clcsock;
	struct smcx_clc_hdr hdr;
	u32 reason;
	long timeo;
	int rc, len;

	if (!ctx) {
		reason = SMCX_DECL_MEM;
		goto decline_first;
	}
	ctx->smcd = false;
	reason = smcx_clc_fill_proposal(smc, &ctx->m.prop);
	if (reason)
		goto decline_first;
	ctx->offered = smcx_vx_prop_feats(ctx->m.prop.vendor_oui,
					  ctx->m.prop.vendor_exp);
	smcx_hsrec_proposal(smc->rec, &ctx->m.prop);
	len = smcx_clc_encode_proposal(&ctx->m.prop, ctx->buf, sizeof(ctx->buf));
	if (len < 0) {
		reason = SMCX_DECL_INTERR;
		goto decline_first;
	}
	/*
	 * Delayed ACKs from here: the server's Accept is answered by our
	 * Confirm, which carries its ACK (one packet less per connection);
	 * smcx_graft_tcp() undoes it if the connection becomes TCP's.
	 */
	tcp_sock_set_quickack(cs->sk, 0);
	rc = smcx_clc_write(smc, ctx->buf, len);
	if (rc)
		return rc;

	timeo = SMCX_CLC_WAIT_TIME;
	len = smcx_clc_recv(smc, ctx, &hdr, &timeo);
	if (len < 0)
		return len;
	/* the peer speaks CLC: whatever fails now is no case for the peer cache */
	smc->clc_answered = hdr.type == SMCX_CLC_DECLINE ||
			    hdr.type == SMCX_CLC_ACCEPT;
	switch (hdr.type) {
	case SMCX_CLC_DECLINE:
		rc = smcx_clc_peer_declined(smc, ctx, len);
		break;
	case SMCX_CLC_ACCEPT:
		/* SMC-D: the loopback device we offered (join_d.c) */
		if (hdr.typev1 == SMCX_TYPE_D &&
		    smcx_type_has_d(ctx->m.prop.hdr.typev2)) {
			ctx->smcd = true;
			ctx->len = len;
			rc = 0;
			break;
		}
		if (smcx_clc_decode_accept(ctx->buf, len, SMCX_CLC_ACCEPT,
					   &ctx->m.acc,
					   SMCX_WIRE_LAX_RSVD | SMCX_WIRE_LAX_TEXT)) {
			rc = -EPROTO;
			break;
		}
		if (smcx_smcr_enabled &&
		    ctx->m.acc.hdr.version == SMCX_CLC_V2) {
			rc = smcx_clc_clnt_judge(smc, ctx);
			break;
		}
		/* we offered v2 only; a v1 accept does not match the offer */
		reason = ctx->m.acc.hdr.version == SMCX_CLC_V2 ?
			 SMCX_DECL_NOSMCRDEV : SMCX_DECL_MODEUNSUPP;
		rc = smcx_clc_send_decline(smc, reason, ctx->m.acc.hdr.version);
		if (!rc)
			rc = reason;
		break;
	default:
		rc = -EPROTO;
		break;
	}
	return rc;

decline_first:
	/*
	 * Nothing to offer: a decline instead of the proposal, in version 1
	 * as mainline sends it on a host without ISMv2.  The server falls
	 * back on it (PEERDECL) and the stream stays in sync.
	 */
	return smcx_clc_decline(smc, reason, SMCX_CLC_V1);
}

/* does the proposal list one of our user EIDs? */
static bool smcx_clc_eid_match(const struct smcx_clc_proposal *p)
{
	unsigned int i;

	for (i = 0; i < p->eid_cnt; i++)
		if (smcx_ueid_has(p->user_eid[i]))
			return true;
	return false;
}

/*
 * The decline a server without an RDMA data path gives to a proposal, in
 * the order mainline's server finds its reasons: an SMC-R v2-only offer
 * without user EIDs (NOUEID), or without one we share (NOSMCDEV); any other
 * offer including SMC-R finds no usable SMC-R device (NOSMCRDEV); an SMC-D
 * offer no SMC-D device (NOSMCDDEV).
 */
static u32 smcx_clc_srv_reason(const struct smcx_clc_proposal *p)
{
	bool v2 = p->hdr.version == SMCX_CLC_V2;
	bool r1 = smcx_type_has_r(p->hdr.typev1);
	bool r2 = v2 && smcx_type_has_r(p->hdr.typev2);
	bool d1 = smcx_type_has_d(p->hdr.typev1);

	if (r2 && !r1 && !d1) {
		if (!p->eid_cnt)
			return SMCX_DECL_NOUEID;
		if (!smcx_clc_eid_match(p))
			return SMCX_DECL_NOSMCDEV;
	}
	if (r1 || r2)
		return SMCX_DECL_NOSMCRDEV;
	return SMCX_DECL_NOSMCDDEV;
}

int smcx_clc_server(struct smcx_sock *smc, struct smcx_clc_ctx *ctx)
{
	struct smcx_clc_hdr hdr;
	u32 reason;
	long timeo;
	int rc, len;

	if (!ctx)
		return -ENOMEM;
	ctx->smcd = false;
	/*
	 * A client that announced SMC in its SYN but whose stream does not
	 * start with a CLC eyecatcher is speaking TCP (a stack that falls
	 * back without a word, a middlebox that copied the option): its
	 * bytes are application data and it expects no CLC from us.  Fall
	 * back without a Decline - one would land in that client's data -
	 * and without consuming a byte.  Reason SYNCERR: the peer's stream
	 * is not in step with the CLC protocol.
	 */
	timeo = SMCX_CLC_WAIT_TIME;
	rc = smcx_clc_sniff(smc, &timeo);
	if (rc <= 0)
		return rc ? rc : SMCX_DECL_SYNCERR;
	len = smcx_clc_recv(smc, ctx, &hdr, &timeo);
	if (len < 0)
		return len;
	switch (hdr.type) {
	case SMCX_CLC_DECLINE:
		rc = smcx_clc_peer_declined(smc, ctx, len);
		break;
	case SMCX_CLC_PROPOSAL:
		if (smcx_clc_decode_proposal(ctx->buf, len, &ctx->m.prop,
					     SMCX_WIRE_LAX_RSVD)) {
			rc = -EPROTO;
			break;
		}
		smcx_hsrec_proposal(smc->rec, &ctx->m.prop);
		/* this host's loopback device first, where both can */
		if (smcx_clc_d_wanted(smc, ctx)) {
			ctx->smcd = true;
			rc = 0;
			break;
		}
		reason = smcx_clc_srv_reason(&ctx->m.prop);
		ctx->reason = reason;
		if (smcx_smcr_enabled && reason == SMCX_DECL_NOSMCRDEV &&
		    ctx->m.prop.hdr.version == SMCX_CLC_V2 &&
		    smcx_type_has_r(ctx->m.prop.hdr.typev2) &&
		    smcx_clc_eid_match(&ctx->m.prop)) {
			rc = smcx_clc_srv_judge(smc, ctx);
			if (rc)
				rc = smcx_clc_srv_unserved(smc, ctx, rc);
			break;
		}
		rc = smcx_clc_send_decline(smc, reason, ctx->m.prop.hdr.version);
		if (!rc)
			rc = reason;
		break;
	default:
		rc = -EPROTO;
		break;
	}
	return rc;
}
