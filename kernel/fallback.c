// SPDX-License-Identifier: GPL-2.0
/*
 * The switch to TCP ("fallback").
 *
 * A connection falls back when the peer did not announce SMC in its SYN or
 * SYN-ACK (PEERNOSMC, no CLC byte is ever sent), when either side declines
 * in the CLC handshake, when a client that announced SMC sends no CLC at
 * all (its first bytes are not a CLC eyecatcher, or a FIN: SYNCERR, the
 * server falls back without a word), or before any connection when the
 * application asks for something SMC cannot do (TCP Fast Open: OPTUNSUPP).  The reason and,
 * after a peer's decline, its diagnosis stay on the smcx sock for
 * diagnostics, and the per-netns statistics count the reason.
 *
 * The switch itself is smcx_graft_tcp(): the TCP sock becomes sock->sk of
 * the application's socket.  Why this gives exactly TCP's behaviour, and why
 * the wake-ups are right, is explained in sock.h and docs/kernel-socket.md.
 * A connection whose handshake failed (timeout, protocol error, the TCP
 * connect itself failed) is grafted as well, after its TCP connection was
 * aborted with the error: the application then sees that error exactly as
 * it would see a failed TCP connect.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/security.h>
#include <net/tcp.h>

#include <linux/unaligned.h>
#include <net/ipv6.h>

#include <smcx/wire.h>

#include "addr16.h"
#include "conn.h"
#include "hsrec.h"
#include "lgr.h"
#include "link.h"
#include "lo.h"
#include "sock.h"
#include "uapi.h"

/* -- the flight record of a handshake (hsrec.h) ------------------------------- */

void smcx_hs_record_start(struct smcx_sock *smc, int role, const char *comm)
{
	struct sock *sk = &smc->sk;

	smc->rec = smcx_hsrec_new(sock_net(sk), role);
	if (!smc->rec)
		return;
	smc->rec->uid = sk_uid(sk);
	strscpy(smc->rec->comm, comm, sizeof(smc->rec->comm));
}

/* the addresses of @tcpsk, as far as it has them */
static void smcx_hs_record_addrs(struct smcx_hsrec *r, struct sock *tcpsk)
{
	r->family = tcpsk->sk_family;
	smcx_addr16_sk(tcpsk, false, r->laddr, &r->lport);
	smcx_addr16_sk(tcpsk, true, r->paddr, &r->pport);
}

/* the connection's group, link and what was agreed */
static void smcx_hs_record_conn(struct smcx_hsrec *r, struct smcx_sock *smc)
{
	struct smcx_lgr *lgr = smc->conn ? smc->conn->lgr : NULL;
	const struct smcx_link *lnk;

	if (!lgr)
		return;
	r->result = smc->smcd ? SMCX_HS_SMCD : SMCX_HS_SMCR;
	r->lgr_id = get_unaligned((u32 *)lgr->id);
	r->version = lgr->version;
	r->release = lgr->v2x.release;
	r->max_conns = lgr->v2x.max_conns;
	r->max_links = lgr->v2x.max_links;
	r->wwi = lgr->v2x.write_imm;
	memcpy(r->eid, lgr->neg_eid, SMCX_EID_LEN);
	if (smc->smcd) {
		strscpy(r->dev, "loopback-ism", sizeof(r->dev));
		memcpy(r->gid, &smcx_lo_gid, SMCX_GID_LEN);
		memcpy(r->peer_gid, &smcx_lo_gid, SMCX_GID_LEN);
		return;
	}
	lnk = smc->conn->lnk;
	if (!lnk || !lnk->ibdev)
		return;
	strscpy(r->dev, dev_name(&lnk->ibdev->dev), sizeof(r->dev));
	r->ibport = lnk->port;
	memcpy(r->gid, lnk->gid, SMCX_GID_LEN);
	memcpy(r->peer_gid, lnk->peer_gid, SMCX_GID_LEN);
}

/*
 * connect() sends @smc out as plain TCP for @reason before any SYN: the
 * record says where to and why (@policy_id: the scope rule, 0: none).
 */
void smcx_hs_record_scoped(struct smcx_sock *smc, const struct sockaddr *addr,
			   int alen, u32 reason, u32 policy_id)
{
	struct smcx_hsrec *r;

	smcx_hs_record_start(smc, SMCX_CLNT, current->comm);
	r = smc->rec;
	if (!r)
		return;
	smc->rec = NULL;
	r->family = addr->sa_family;
	smcx_addr16_of(addr, alen, r->paddr, &r->pport);
	r->result = SMCX_HS_TCP;
	r->reason = reason;
	r->policy_id = policy_id;
	smcx_hsrec_commit(sock_net(&smc->sk), r);
}

/*
 * The handshake of @smc ended: @rc < 0 it failed, else the connection is
 * SMC (smc->smcr) or TCP for @reason.  The record goes to the ring.
 */
void smcx_hs_record_end(struct smcx_sock *smc, int rc, u32 reason)
{
	struct smcx_hsrec *r = smc->rec;
	struct sock *tcpsk;

	if (!r)
		return;
	smc->rec = NULL;
	tcpsk = smc->clcsock ? smc->clcsock->sk : NULL;
	if (tcpsk && inet_sk(tcpsk)->inet_dport) {
		smcx_hs_record_addrs(r, tcpsk);
		r->syn_seen = r->syn_sent && tcp_sk(tcpsk)->syn_smc;
	}
	if (rc < 0) {
		r->result = SMCX_HS_FAILED;
		r->err = -rc;
	} else if (smc->smcr) {
		smcx_hs_record_conn(r, smc);
	} else {
		r->result = SMCX_HS_TCP;
		r->reason = reason;
	}
	smcx_hsrec_commit(sock_net(&smc->sk), r);
}

/* remember why the connection is TCP and count it; sock lock held */
void smcx_fallback_record(struct smcx_sock *smc, enum smcx_role role,
			  u32 reason)
{
	smc->fallback = true;
	smc->fallback_rsn = reason;
	if (reason)
		smcx_stats_fallback(sock_net(&smc->sk), role, reason);
}

/*
 * Make the TCP sock the application's sock->sk.  Caller holds the smcx sock
 * lock, which orders the switch against every proto_op that still sees the
 * smcx sock: they look at ->grafted under that lock and re-dispatch.
 *
 * sock_graft() cannot be used here: it insists on sock->sk being NULL, and
 * a NULL sock->sk would crash concurrent system calls on the socket, which
 * read sock->sk without a lock.  So the same steps are done with sock->sk
 * switching from one valid sock to another in a single store.
 */
void smcx_graft_tcp(struct smcx_sock *smc, struct socket *sock)
{
	struct socket *cs = smc->clcsock;
	struct sock *tcpsk = cs->sk;

	smcx_tcp_restore_cbs(smc);
	/* a later connect() through TCP itself must not announce SMC */
	tcp_sk(tcpsk)->syn_smc = 0;
	/*
	 * The CLC exchange delays ACKs (smcx_clc_client()); the application
	 * gets TCP's ACKs as a new connection has them, and an ACK held back
	 * for our next CLC message goes now, so that the peer's first writes
	 * do not wait for it behind Nagle.
	 */
	if (inet_csk_in_pingpong_mode(tcpsk))
		tcp_sock_set_quickack(tcpsk, 1);
	if (sock_flag(&smc->sk, SOCK_FASYNC))
		sock_set_flag(tcpsk, SOCK_FASYNC);
	if (test_bit(SOCK_SUPPORT_ZC, &cs->flags))
		set_bit(SOCK_SUPPORT_ZC, &sock->flags);

	write_lock_bh(&tcpsk->sk_callback_lock);
	rcu_assign_pointer(tcpsk->sk_wq, &sock->wq);
	sk_set_socket(tcpsk, sock);
	WRITE_ONCE(tcpsk->sk_uid, SOCK_INODE(sock)->i_uid);
	security_sock_graft(tcpsk, sock);
	WRITE_ONCE(sock->sk, tcpsk);
	write_unlock_bh(&tcpsk->sk_callback_lock);
	smc->grafted = true;
	/* ->hs is DONE for every caller: nothing waits any more */
}

/*
 * Fall back right now, before any connection exists (the application set
 * an option SMC does not support).  Sock lock held; @sock is the socket
 * whose sk is @smc.
 */
int smcx_fallback_now(struct smcx_sock *smc, struct socket *sock, u32 reason)
{
	struct sock *sk = &smc->sk;

	if (smc->grafted)
		return 0;
	if (sk->sk_state != SMCX_INIT || smc->hs != SMCX_HS_NONE)
		return -EINVAL;
	smcx_fallback_record(smc, SMCX_CLNT, reason);
	sock->state = smc->clcsock->state;
	smc->hs = SMCX_HS_DONE;
	smcx_graft_tcp(smc, sock);
	return 0;
}

/*
 * release() of a grafted socket: TCP's release closes the connection exactly
 * as it would for a TCP socket (SO_LINGER, RST on unread data, FIN
 * otherwise), then the smcx sock that owned it goes.  A TCP sock without an
 * owner is a child accepted by a grafted listener: pure TCP.
 */
int smcx_release_tcp(struct socket *sock, struct sock *tcpsk)
{
	const struct proto_ops *ops = smcx_tcp_ops_of(tcpsk);
	struct smcx_sock *smc = smcx_tcp_owner(tcpsk);
	int rc;

	if (smc)
		smcx_tcp_unlink(smc);
	rc = ops->release(sock);
	if (smc) {
		/*
		 * A handshake work item may still be queued, or waiting for
		 * the sock lock, when the graft did not come from it
		 * (shutdown() during connect grafts at once; TCP may also
		 * queue it again while it runs).  It finds ->hs DONE and
		 * returns, but it holds no reference: let it finish first.
		 */
		cancel_work_sync(&smc->hs_work);
		smcx_sock_free_fallback(smc);
	}
	return rc;
}
