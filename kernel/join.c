// SPDX-License-Identifier: GPL-2.0
/*
 * The handshake of one connection, both roles: the CLC messages in their
 * order (clc.c builds, sends, receives and judges them) and, when both
 * sides go SMC-R, the join of a link group between them - first contact
 * (a new group) or reuse (a place in a group made before) - and its undo.
 *
 *   client  Proposal -> Accept -> [join] -> Confirm -> first contact:
 *           CONFIRM_LINK from the server, answered
 *   server  Proposal -> [join] -> Accept -> Confirm -> first contact:
 *           link ready, CONFIRM_LINK, ADD_LINK offer
 *
 * A reused group already has its link; the connection's RMB is registered
 * and, on reuse, announced with CONFIRM_RKEY before the rkey goes out in
 * the Accept or Confirm.
 *
 * Locking.  First contacts are serialised per role by a mutex
 * (smcx_clnt_first_mutex, smcx_srv_first_mutex; mainline: one lock per
 * role, held from the link group lookup until the first contact's link is
 * confirmed).  A first contact holds it from the lookup (server) or the
 * create (client: the server said first contact) until its link is
 * confirmed or the join is undone, across the CLC and LLC waits in
 * between (each bounded: SMCX_CLC_WAIT_TIME, SMCX_LLC_WAIT).  A reuse
 * takes it only around its lookup: it waits for a first contact in
 * progress, so that a second connection to the same peer finds the new
 * group ready instead of making another.  It is the outermost lock of the
 * join: taken without the smcx sock lock (the handshake work holds none),
 * before smcx_lgrs_mutex, lgr->mutex and the link's locks.  Only
 * smcx_join_unlock() drops it: right after a reuse's lookup, and at the
 * one exit of a join, smcx_join_end().
 *
 * Link group state after a wait.  Every wait of the join (the peer's CLC
 * message, REG_MR, an LLC exchange) may end with the group terminated
 * under it (device removal, a QP error, the peer's DELETE_LINK): the
 * link's QP, the MRs and the device go with that.  Terminate sets
 * lgr->dead under lgr->mutex before it clears the link, so the join
 * checks the group under lgr->mutex after each wait and holds it while it
 * calls a verb on the link (smcx_join_link_ready()) or reads the QP and
 * the MR for a CLC message (clc.c).  A dead group fails the join: a
 * decline while it is our turn to send a CLC message, else a reset.
 *
 * References.  smcx_lgr_find() and smcx_lgr_create() return a reference on
 * the group, the join's (j->lgr).  smcx_conn_create() takes it into the
 * connection (conn->lgr) once it got a place in the group; without one
 * (-ENOSPC: full or dead) it stays the join's, and the server drops it and
 * looks again.  From then on the connection holds it until
 * smcx_conn_free() (close, abort, or the undo).  The undo frees the
 * connection or drops the join's reference, and terminates a group this
 * join made (the group's own list reference goes with terminate).  The
 * device reference of the route choice is held from smcx_join_choose()
 * until the group is found or made (a group holds its own).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/slab.h>
#include <net/dst.h>
#include <net/inet_sock.h>
#include <net/sock.h>

#include <smcx/wire.h>

#include "clc.h"
#include "conn.h"
#include "ib.h"
#include "join.h"
#include "lgr.h"
#include "llc.h"
#include "stats.h"

/* a server connection's lookups of a group with a free place */
#define SMCX_SRV_LGR_TRIES	4

/* first contacts, one at a time per role */
static DEFINE_MUTEX(smcx_srv_first_mutex);
static DEFINE_MUTEX(smcx_clnt_first_mutex);

/* one connection's join of a link group */
struct smcx_join {
	struct smcx_sock *smc;
	struct smcx_lgr *lgr;		/* found or made; see "References" */
	struct mutex *mutex;		/* the role's first-contact mutex */
	bool locked;			/* ... held */
	bool first;			/* first contact: @lgr is new */
};

static void smcx_join_lock(struct smcx_join *j)
{
	mutex_lock(j->mutex);
	j->locked = true;
}

static void smcx_join_unlock(struct smcx_join *j)
{
	if (!j->locked)
		return;
	j->locked = false;
	mutex_unlock(j->mutex);
}

/*
 * Is @lgr still alive (after a wait)?  0 with lgr->mutex held: the link's
 * verbs objects stay valid until the caller unlocks (see "Link group state
 * after a wait"); -ENOLINK without it.
 */
static int smcx_join_lock_alive(struct smcx_lgr *lgr)
{
	mutex_lock(&lgr->mutex);
	if (!lgr->dead && READ_ONCE(lgr->lnk.state) != SMCX_LNK_DEAD &&
	    lgr->lnk.qp)
		return 0;
	mutex_unlock(&lgr->mutex);
	return -ENOLINK;
}

static int smcx_join_alive(struct smcx_lgr *lgr)
{
	int rc = smcx_join_lock_alive(lgr);

	if (!rc)
		mutex_unlock(&lgr->mutex);
	return rc;
}

/* first contact, the peer's side saved: RTR and RTS, on a live group */
static int smcx_join_link_ready(struct smcx_lgr *lgr)
{
	int rc = smcx_join_lock_alive(lgr);

	if (rc)
		return rc;
	rc = smcx_link_ready(&lgr->lnk);
	mutex_unlock(&lgr->mutex);
	return rc;
}

/*
 * Undo a half-made SMC-R connection on j->lgr, the link group too if it
 * was new.  The join's reference on the group went to the connection if
 * smcx_conn_create() got it a place in the group (freeing it drops it),
 * else it is still the join's and is dropped here.  Nothing to undo before
 * a group was found or made.
 */
static void smcx_join_undo(struct smcx_join *j)
{
	struct smcx_sock *smc = j->smc;
	struct smcx_lgr *lgr = j->lgr;

	if (!lgr)
		return;
	kref_get(&lgr->ref);		/* across the connection's release */
	if (smc->conn && smc->conn->lgr)
		smcx_conn_free(smc);
	else
		smcx_lgr_put(lgr);
	if (j->first)
		smcx_lgr_terminate(lgr);
	smcx_lgr_put(lgr);
}

/*
 * The one exit of a join, both roles.  A failure (@rc, or @decline: a
 * decline owed to the peer) undoes it; the first-contact mutex is dropped
 * if held; then the decline goes out.  0 (SMC-R), a reason or -errno.
 */
static int smcx_join_end(struct smcx_join *j, int rc, u32 decline)
{
	if (rc || decline)
		smcx_join_undo(j);
	smcx_join_unlock(j);
	if (decline)
		return smcx_clc_decline(j->smc->clcsock, decline, SMCX_CLC_V2);
	if (!rc)
		j->smc->smcr = true;
	return rc;
}

/* the RoCE v2 device port for the CLC socket's egress route */
static int smcx_join_choose(struct smcx_sock *smc, struct smcx_ib_choice *c)
{
	struct sock *tcpsk = smc->clcsock->sk;
	struct dst_entry *dst;
	int rc;

	if (tcpsk->sk_family != AF_INET)
		return -ENODEV;
	dst = sk_dst_get(tcpsk);
	if (!dst)
		return -ENODEV;
	rc = dst->dev ? smcx_ib_choose(dst->dev, inet_sk(tcpsk)->inet_saddr,
				       SMCX_ROCE_V2, NULL, c) : -ENODEV;
	dst_release(dst);
	return rc;
}

/* the peer's side of @conn, from its Accept or Confirm */
static void smcx_join_save_peer(struct smcx_conn *conn,
				const struct smcx_clc_accept *a, bool first)
{
	struct smcx_link *lnk = &conn->lgr->lnk;

	conn->peer_token = a->rmbe_alert_token;
	conn->peer_rkey = a->rmb_rkey;
	conn->peer_rmb_addr = a->rmb_dma_addr;
	conn->peer_rmbe_size = smcx_uncompress_bufsize(a->rmbe_size);
	if (!first)
		return;
	lnk->peer_qpn = a->qpn;
	lnk->peer_psn = a->psn;
	lnk->peer_mtu = a->qp_mtu;
	memcpy(lnk->peer_gid, a->gid, SMCX_GID_LEN);
	memcpy(lnk->peer_mac, a->mac, ETH_ALEN);
	memcpy(conn->lgr->peer_systemid, a->peer_id, SMCX_PEERID_LEN);
	memcpy(conn->lgr->neg_eid, a->eid, SMCX_EID_LEN);
	memcpy(conn->lgr->peer_host, a->hostname, SMCX_HOSTNAME_LEN);
	conn->lgr->peer_os = a->os_type;
	conn->lgr->v2_direct = a->v2_direct;
}

/*
 * Client, SMC-R v2 accept received and judged (ctx->m.acc): make or reuse
 * the link group, answer with a confirm, and on first contact the
 * CONFIRM_LINK exchange (the server starts it).  A step that fails before
 * the confirm is declined (@decline, sent after the undo).
 */
static int smcx_join_clnt(struct smcx_sock *smc, struct smcx_clc_ctx *ctx)
{
	struct smcx_clc_accept *a = &ctx->m.acc;
	struct smcx_join j = {
		.smc = smc,
		.mutex = &smcx_clnt_first_mutex,
		.first = smcx_clc_first_contact(&a->hdr),
	};
	struct smcx_ib_choice c;
	struct smcx_lgr *lgr;
	u32 decline = 0;
	int rc = 0;

	if (smcx_join_choose(smc, &c)) {
		decline = SMCX_DECL_NOSMCRDEV;
		goto out;
	}
	/* as the server: one first contact at a time (mainline too) */
	smcx_join_lock(&j);
	if (j.first) {
		lgr = smcx_lgr_create(sock_net(&smc->sk), SMCX_CLNT, &c,
				      &ctx->neg);
	} else {
		lgr = smcx_lgr_find(SMCX_CLNT, c.dev, c.port, a->gid,
				    a->peer_id, a->qpn);
		if (!lgr)
			lgr = ERR_PTR(-ENOENT);
	}
	if (!j.first)
		smcx_join_unlock(&j);
	smcx_ib_choice_release(&c);
	if (IS_ERR(lgr)) {
		decline = j.first ? SMCX_DECL_MEM : SMCX_DECL_SYNCERR;
		goto out;
	}
	j.lgr = lgr;
	if (smcx_conn_create(smc, lgr)) {
		decline = SMCX_DECL_MEM;
		goto out;
	}
	smcx_join_save_peer(smc->conn, a, j.first);
	if (j.first && smcx_join_link_ready(lgr))
		decline = SMCX_DECL_ERR_RDYLNK;
	else if (smcx_buf_reg(&lgr->lnk, smc->conn->rmb))
		decline = SMCX_DECL_ERR_REGBUF;
	else if (!j.first && smcx_llc_confirm_rkey(&lgr->lnk, smc->conn->rmb))
		decline = SMCX_DECL_ERR_REGBUF;	/* as mainline */
	else if (smcx_join_alive(lgr))		/* after REG_MR, CONFIRM_RKEY */
		decline = SMCX_DECL_NOACTLINK;
	if (decline)
		goto out;
	rc = smcx_clc_send_confirm(smc, ctx, j.first);
	if (!rc && j.first)
		rc = smcx_llc_confirm_link_clnt(&lgr->lnk);
out:
	return smcx_join_end(&j, rc > 0 ? -EPROTO : rc, decline);
}

/*
 * Server, SMC-R v2 proposal we can serve (judged, ctx): find or make the
 * link group, accept, wait for the confirm, ready the link and run
 * CONFIRM_LINK on first contact.
 */
static int smcx_join_srv(struct smcx_sock *smc, struct smcx_clc_ctx *ctx)
{
	struct smcx_join j = {
		.smc = smc,
		.mutex = &smcx_srv_first_mutex,
	};
	struct smcx_ib_choice c;
	struct smcx_lgr *lgr;
	unsigned int tries;
	u32 decline = 0;
	int rc;

	if (smcx_join_choose(smc, &c)) {
		rc = -ENODEV;
		goto out;
	}
	/*
	 * First contacts are serialised (see "Locking" above): a second
	 * proposal from the same peer waits and then finds the link group
	 * ready instead of making another one.  A group found with a free
	 * place may be full when the connection asks for it (another
	 * handshake took the last one): then look again, which finds another
	 * group or makes one.
	 */
	for (tries = 0;; tries++) {
		smcx_join_lock(&j);
		lgr = smcx_lgr_find(SMCX_SRV, c.dev, c.port, ctx->peer_gid,
				    NULL, 0);
		j.first = !lgr;
		if (!j.first) {
			smcx_join_unlock(&j);
		} else {
			lgr = smcx_lgr_create(sock_net(&smc->sk), SMCX_SRV, &c,
					      &ctx->neg);
			if (IS_ERR(lgr))
				break;
			memcpy(lgr->lnk.peer_gid, ctx->peer_gid, SMCX_GID_LEN);
		}
		rc = smcx_conn_create(smc, lgr);
		if (rc != -ENOSPC || j.first || tries == SMCX_SRV_LGR_TRIES)
			break;
		smcx_lgr_put(lgr);	/* ours: the group was full */
	}
	smcx_ib_choice_release(&c);
	if (IS_ERR(lgr)) {
		rc = PTR_ERR(lgr);
		goto out;
	}
	j.lgr = lgr;
	if (!rc && !j.first)
		rc = smcx_buf_reg(&lgr->lnk, smc->conn->rmb);
	if (!rc && !j.first)
		rc = smcx_llc_confirm_rkey(&lgr->lnk, smc->conn->rmb);
	if (!rc)
		rc = smcx_join_alive(lgr);
	if (rc)
		goto out;
	rc = smcx_clc_srv_accept(smc, ctx, j.first, &decline);
	if (rc || decline)
		goto out;
	smcx_join_save_peer(smc->conn, &ctx->m.acc, j.first);
	if (j.first) {
		/* after the Confirm wait: is the group still there? */
		rc = smcx_join_link_ready(lgr);
		if (!rc)
			rc = smcx_buf_reg(&lgr->lnk, smc->conn->rmb);
		if (!rc)
			rc = smcx_join_alive(lgr);
		if (!rc)
			rc = smcx_llc_confirm_link_srv(&lgr->lnk);
		if (!rc)
			rc = smcx_join_alive(lgr);
		if (!rc)
			rc = smcx_llc_add_link_srv(&lgr->lnk);
	}
out:
	return smcx_join_end(&j, rc, decline);
}

int smcx_join_client(struct smcx_sock *smc)
{
	struct smcx_clc_ctx *ctx = kmalloc(sizeof(*ctx), GFP_KERNEL);
	int rc;

	rc = smcx_clc_client(smc, ctx);		/* declines without @ctx */
	if (!rc)
		rc = smcx_join_clnt(smc, ctx);
	kfree(ctx);
	return rc;
}

int smcx_join_server(struct smcx_sock *smc)
{
	struct smcx_clc_ctx *ctx = kmalloc(sizeof(*ctx), GFP_KERNEL);
	int rc;

	rc = smcx_clc_server(smc, ctx);		/* -ENOMEM without @ctx */
	if (!rc)
		rc = smcx_clc_srv_unserved(smc, ctx, smcx_join_srv(smc, ctx));
	kfree(ctx);
	return rc;
}
