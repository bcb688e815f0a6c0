// SPDX-License-Identifier: GPL-2.0
/*
 * The SMC-D loopback handshake, both roles (lo.h): the Proposal's SMC-Dv2
 * offer, the server's choice of it, and the join, which is only
 * bookkeeping here: a group per (namespace, role), a connection with a
 * DMB, and the peer's DMB attached by the token its Accept or Confirm
 * names.
 *   client  Proposal (SMC-D beside SMC-R) -> SMC-D Accept -> [join,
 *           attach] -> Confirm
 *   server  Proposal -> [join] -> Accept -> Confirm -> [attach]
 * There is no link to make or confirm, so a connection is up once its
 * last CLC message is out (client) or in (server).
 *
 * Which peer.  The server takes SMC-D only when the Proposal lists both
 * halves of our loopback GID: the client is this module, on this host.
 * A stock peer never lists them (its loopback, where it has one, has its
 * own GID), so it gets SMC-R or TCP exactly as before.  A process that
 * speaks CLC by hand over a local TCP connection can copy our GID from a
 * Proposal of ours; it still never gets our buffer's contents or our
 * writes into another connection's buffer: a DMB attaches only to the
 * connection whose CLC socket is the far end of its owner's (lo.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <net/sock.h>

#include "clc.h"
#include "clc_io.h"
#include "conn.h"
#include "join.h"
#include "lgr.h"
#include "lo.h"
#include "stats.h"
#include "sysctl.h"
#include "ueid.h"

/* is SMC-D loopback on for @smc's namespace? */
static bool smcx_d_on(const struct smcx_sock *smc)
{
	return smcx_smcr_enabled &&
	       READ_ONCE(smcx_sysctl(sock_net(&smc->sk))->smcx_loopback);
}

bool smcx_clc_d_offer(struct smcx_sock *smc, struct smcx_clc_proposal *p)
{
	if (!smcx_d_on(smc) || p->ism_gid_cnt + 2 > SMCX_CLC_MAX_ISM_GIDS)
		return false;
	/* an emulated device: two entries, the halves, one CHID */
	p->ism[p->ism_gid_cnt].gid = smcx_lo_gid.gid;
	p->ism[p->ism_gid_cnt].chid = SMCX_LO_CHID;
	p->ism[p->ism_gid_cnt + 1].gid = smcx_lo_gid.gid_ext;
	p->ism[p->ism_gid_cnt + 1].chid = SMCX_LO_CHID;
	p->ism_gid_cnt += 2;
	p->feature_mask |= SMCX_CLC_FEAT_EMULATED_ISM;
	return true;
}

bool smcx_clc_d_wanted(struct smcx_sock *smc, struct smcx_clc_ctx *ctx)
{
	const struct smcx_clc_proposal *p = &ctx->m.prop;
	unsigned int i;

	if (!smcx_d_on(smc) || p->hdr.version != SMCX_CLC_V2 ||
	    !smcx_type_has_d(p->hdr.typev2) ||
	    !(p->feature_mask & SMCX_CLC_FEAT_EMULATED_ISM))
		return false;
	for (i = 0; i + 1 < p->ism_gid_cnt; i++)
		if (p->ism[i].chid == SMCX_LO_CHID &&
		    p->ism[i + 1].chid == SMCX_LO_CHID &&
		    smcx_lo_is_ours(p->ism[i].gid, p->ism[i + 1].gid))
			break;
	if (i + 1 >= p->ism_gid_cnt)
		return false;
	/* SMC-Dv2 without a system EID: a user EID both have, as SMC-Rv2 */
	for (i = 0; i < p->eid_cnt; i++)
		if (smcx_ueid_has(p->user_eid[i])) {
			memcpy(ctx->eid, p->user_eid[i], SMCX_EID_LEN);
			return true;
		}
	return false;
}

/* our Accept or Confirm for the connection of @smc */
static int smcx_clc_d_send(struct smcx_sock *smc, struct smcx_clc_ctx *ctx,
			   u8 type, bool first)
{
	struct smcx_clc_accept_d *a = &ctx->m.accd;
	struct smcx_conn *conn = smc->conn;
	int len;

	memset(a, 0, sizeof(*a));
	a->hdr.eyecatcher = SMCX_EYE_SMCD;
	a->hdr.version = SMCX_CLC_V2;
	a->hdr.typev1 = SMCX_TYPE_D;
	a->hdr.typev2 = first ? SMCX_CLC_FIRST_CONTACT : 0;
	a->gid = smcx_lo_gid.gid;
	a->gid_ext = smcx_lo_gid.gid_ext;
	a->chid = SMCX_LO_CHID;
	a->token = conn->dmb_token;
	a->dmbe_size = smcx_compress_bufsize(conn->rmb->size);
	memcpy(&a->linkid, conn->lgr->id, sizeof(a->linkid));
	memcpy(a->eid, ctx->eid, SMCX_EID_LEN);
	if (first) {
		a->fce_v2x = 1;
		a->os_type = SMCX_CLC_OS_LINUX;
		a->release = conn->lgr->v2x.release;
		a->feature_mask = SMCX_CLC_FEAT_EMULATED_ISM;
		smcx_clc_hostname(a->hostname);
	}
	len = smcx_clc_encode_accept_d(a, type, ctx->buf, sizeof(ctx->buf));
	if (len < 0)
		return -EINVAL;
	/* it names our DMB: the peer may copy into it from now */
	smcx_close_expose(conn);
	return smcx_clc_write(smc, ctx->buf, len);
}

/*
 * The peer's Accept or Confirm in ctx->buf (@len bytes): ours, the
 * loopback device's, and its DMB attached.  0, or the reason it is not.
 */
static u32 smcx_clc_d_take(struct smcx_sock *smc, struct smcx_clc_ctx *ctx,
			   int len, u8 type)
{
	struct smcx_clc_accept_d *a = &ctx->m.accd;
	struct smcx_lo_peer peer;

	if (smcx_clc_decode_accept_d(ctx->buf, len, type, a,
				     SMCX_WIRE_LAX_RSVD | SMCX_WIRE_LAX_TEXT) ||
	    a->hdr.version != SMCX_CLC_V2)
		return SMCX_DECL_SYNCERR;
	if (a->chid != SMCX_LO_CHID || !smcx_lo_is_ours(a->gid, a->gid_ext))
		return SMCX_DECL_NOSMCDDEV;
	if (smcx_lo_dmb_attach(a->token, smc->clcsock->sk, &peer))
		return SMCX_DECL_SYNCERR;
	smcx_conn_set_peer_dmb(smc->conn, &peer);
	return 0;
}

/*
 * Serialises the find-or-make of SMC-D groups.  A group becomes findable
 * only with its first connection (smcx_lgr_conn_add() publishes it), so
 * without this two handshakes arriving together both find none and make
 * one each.  Held only across the lookup, the group's allocation and the
 * connection's buffers: nothing in it waits for a peer.
 */
static DEFINE_MUTEX(smcx_join_d_mutex);

/*
 * A connection of @smc in an SMC-D group of @role: one with room, or a new
 * one (*@first).  0, or -errno; the undo is smcx_join_d_undo().
 */
static int smcx_join_d_conn(struct smcx_sock *smc, int role,
			    struct smcx_lgr **lgrp, bool *first)
{
	struct net *net = sock_net(&smc->sk);
	struct smcx_v2x v2x = {
		.release = SMCX_RELEASE_OURS,
		.max_conns = SMCX_V2X_CONNS_MAX,
	};
	struct smcx_lgr *lgr;
	int rc, tries;

	rc = -ENOSPC;
	mutex_lock(&smcx_join_d_mutex);
	for (tries = 0; tries < 3; tries++) {
		lgr = smcx_lgr_find_d(net, role);
		*first = !lgr;
		if (!lgr)
			lgr = smcx_lgr_create_d(net, role, &v2x);
		if (IS_ERR(lgr)) {
			rc = PTR_ERR(lgr);
			break;
		}
		*lgrp = lgr;
		rc = smcx_conn_create(smc, lgr);
		if (rc != -ENOSPC || *first)
			break;
		smcx_lgr_put(lgr);	/* full meanwhile: look again */
		*lgrp = NULL;
	}
	mutex_unlock(&smcx_join_d_mutex);
	return rc;
}

/*
 * Undo a half-made SMC-D connection.  A group this join made goes with it
 * only while nobody else joined it (a group is findable from its first
 * connection on, and another handshake may have taken a place since);
 * otherwise it lives on, and lingers once idle, as any group.
 */
static void smcx_join_d_undo(struct smcx_sock *smc, struct smcx_lgr *lgr,
			     bool first)
{
	if (!lgr)
		return;
	kref_get(&lgr->ref);		/* across the connection's release */
	if (smc->conn && smc->conn->lgr)
		smcx_conn_free(smc);
	else
		smcx_lgr_put(lgr);
	if (first && !READ_ONCE(lgr->conns_num))
		smcx_lgr_terminate(lgr);
	smcx_lgr_put(lgr);
}

/* 0: the connection is SMC-D; else as smcx_join_client() */
static int smcx_join_d_end(struct smcx_sock *smc, struct smcx_lgr *lgr,
			   bool first, int rc, u32 decline)
{
	if (rc || decline)
		smcx_join_d_undo(smc, lgr, first);
	if (decline)
		return smcx_clc_decline(smc, decline, SMCX_CLC_V2);
	if (rc)
		return rc;
	smc->smcr = true;		/* the SMC data path ... */
	smc->smcd = true;		/* ... over the loopback device */
	smcx_stats_set_smcd(&smc->stats, sock_net(&smc->sk));
	return 0;
}

/*
 * We made the group: its peer facts for the netlink dump (nl_lgr.c), the
 * negotiated @eid and the first contact extension of the peer's Accept or
 * Confirm @a.  The two roles' groups come and go on their own, so the
 * peer's message may be no first contact (its group already existed) and
 * carry none: the peer is this host, so our own name and OS stand in.
 */
static void smcx_join_d_facts(struct smcx_lgr *lgr,
			      const struct smcx_clc_accept_d *a, const u8 *eid)
{
	memcpy(lgr->neg_eid, eid, SMCX_EID_LEN);
	if (smcx_clc_first_contact(&a->hdr)) {
		memcpy(lgr->peer_host, a->hostname, SMCX_HOSTNAME_LEN);
		lgr->peer_os = a->os_type;
		return;
	}
	smcx_clc_hostname(lgr->peer_host);
	lgr->peer_os = SMCX_CLC_OS_LINUX;
}

int smcx_join_d_clnt(struct smcx_sock *smc, struct smcx_clc_ctx *ctx, int len)
{
	struct smcx_lgr *lgr = NULL;
	bool first = false;
	u32 decline;
	int rc;

	/* the EID the server chose must be one of ours */
	decline = smcx_clc_decode_accept_d(ctx->buf, len, SMCX_CLC_ACCEPT,
					   &ctx->m.accd,
					   SMCX_WIRE_LAX_RSVD |
					   SMCX_WIRE_LAX_TEXT) ?
		  SMCX_DECL_SYNCERR : 0;
	if (!decline && !smcx_ueid_has(ctx->m.accd.eid))
		decline = SMCX_DECL_NOUEID;
	if (decline)
		return smcx_join_d_end(smc, NULL, false, 0, decline);
	memcpy(ctx->eid, ctx->m.accd.eid, SMCX_EID_LEN);
	rc = smcx_join_d_conn(smc, SMCX_CLNT, &lgr, &first);
	if (rc)
		return smcx_join_d_end(smc, lgr, first, 0, SMCX_DECL_MEM);
	decline = smcx_clc_d_take(smc, ctx, len, SMCX_CLC_ACCEPT);
	if (decline)
		return smcx_join_d_end(smc, lgr, first, 0, decline);
	if (first)
		smcx_join_d_facts(lgr, &ctx->m.accd, ctx->eid);
	/* our Confirm repeats the Accept's first-contact flag */
	rc = smcx_clc_d_send(smc, ctx, SMCX_CLC_CONFIRM,
			     smcx_clc_first_contact(&ctx->m.accd.hdr));
	return smcx_join_d_end(smc, lgr, first, rc, 0);
}

int smcx_join_d_srv(struct smcx_sock *smc, struct smcx_clc_ctx *ctx)
{
	struct smcx_lgr *lgr = NULL;
	struct smcx_clc_hdr hdr;
	bool first = false;
	long timeo;
	u32 decline;
	int rc, len;

	rc = smcx_join_d_conn(smc, SMCX_SRV, &lgr, &first);
	if (rc)		/* still our turn: decline, the client goes on as TCP */
		return smcx_join_d_end(smc, lgr, first, 0, SMCX_DECL_MEM);
	rc = smcx_clc_d_send(smc, ctx, SMCX_CLC_ACCEPT, first);
	if (rc)
		return smcx_join_d_end(smc, lgr, first, rc, 0);
	timeo = SMCX_CLC_WAIT_TIME;
	len = smcx_clc_recv(smc, ctx, &hdr, &timeo);
	if (len < 0)
		return smcx_join_d_end(smc, lgr, first, len, 0);
	if (hdr.type == SMCX_CLC_DECLINE) {
		smcx_join_d_undo(smc, lgr, first);
		return smcx_clc_peer_declined(smc, ctx, len);
	}
	if (hdr.type != SMCX_CLC_CONFIRM)
		return smcx_join_d_end(smc, lgr, first, -EPROTO, 0);
	/* the client is done: a Confirm we cannot take is a reset */
	decline = smcx_clc_d_take(smc, ctx, len, SMCX_CLC_CONFIRM);
	if (!decline && first)
		smcx_join_d_facts(lgr, &ctx->m.accd, ctx->eid);
	return smcx_join_d_end(smc, lgr, first, decline ? -EPROTO : 0, 0);
}
