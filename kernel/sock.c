// SPDX-License-Identifier: GPL-2.0
/*
 * smcx sock life cycle: allocation, the internal TCP (CLC) socket, the link
 * between the two, the handshake's stop switch, and release.
 *
 * Life of an smcx sock, in one place:
 *   smcx_sock_alloc()     sk_alloc + sock_init_data: refcount 1 (the owner)
 *   smcx_clcsock_create() the TCP socket, linked back through sk_user_data
 *   ... connect/listen/accept, possibly a graft onto the app's socket ...
 *   release:              stop the handshake, orphan, free the TCP socket
 *                         (or let TCP's own release close it when grafted),
 *                         unhash, drop the owner reference
 *   smcx_sk_destruct()    on the last sock_put(): object count down
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/net.h>
#include <linux/sched/signal.h>
#include <net/inet_common.h>
#include <net/tcp.h>

#include "hsrec.h"
#include "join.h"
#include "lgr.h"
#include "obj.h"
#include "sock.h"
#include "stats.h"
#include "sysctl.h"

struct workqueue_struct *smcx_hs_wq;
struct workqueue_struct *smcx_listen_wq;

/*
 * All smcx socks of a family, for smc_diag-style enumeration.  The lock is
 * taken with BH disabled like every sock hash; the list only changes at
 * socket creation and release.
 */
struct smcx_hashinfo {
	rwlock_t lock;
	struct hlist_head ht;
};

static struct smcx_hashinfo smcx_v4_hash = {
	.lock = __RW_LOCK_UNLOCKED(smcx_v4_hash.lock),
};

static struct smcx_hashinfo smcx_v6_hash = {
	.lock = __RW_LOCK_UNLOCKED(smcx_v6_hash.lock),
};

/* stream ops of a TCP socket of each family; IPv6's are not exported */
static const struct proto_ops *smcx_inet6_stream_ops;

static struct smcx_hashinfo *smcx_hash_of(const struct sock *sk)
{
	return sk->sk_protocol == SMCX_PROTO_SMC6 ||
	       sk->sk_family == AF_INET6 ? &smcx_v6_hash : &smcx_v4_hash;
}

int smcx_hash(struct sock *sk)
{
	struct smcx_hashinfo *h = smcx_hash_of(sk);

	write_lock_bh(&h->lock);
	sk_add_node(sk, &h->ht);
	write_unlock_bh(&h->lock);
	sock_prot_inuse_add(sock_net(sk), sk->sk_prot, 1);
	return 0;
}

void smcx_unhash(struct sock *sk)
{
	struct smcx_hashinfo *h = smcx_hash_of(sk);

	write_lock_bh(&h->lock);
	if (sk_del_node_init(sk))
		sock_prot_inuse_add(sock_net(sk), sk->sk_prot, -1);
	write_unlock_bh(&h->lock);
}

static struct proto smcx_proto = {
	.name		= "SMCX",
	.owner		= THIS_MODULE,
	.hash		= smcx_hash,
	.unhash		= smcx_unhash,
	.obj_size	= sizeof(struct smcx_sock),
};

static struct proto smcx_proto6 = {
	.name		= "SMCX6",
	.owner		= THIS_MODULE,
	.hash		= smcx_hash,
	.unhash		= smcx_unhash,
	.obj_size	= sizeof(struct smcx_sock),
};

static void smcx_sk_destruct(struct sock *sk)
{
	/* a handshake that never ended (hsrec.h) */
	smcx_hsrec_free(smcx_sk(sk)->rec);
	smcx_conn_destruct(smcx_sk(sk));
	smcx_obj_dec(SMCX_OBJ_SOCK);
}

/*
 * A new smcx sock with refcount 1.  @sock is the application's socket, or
 * NULL for a server connection that accept() will attach later.
 */
struct smcx_sock *smcx_sock_alloc(struct net *net, struct socket *sock,
				  int protocol)
{
	struct proto *prot = protocol == SMCX_PROTO_SMC6 ? &smcx_proto6 :
							   &smcx_proto;
	struct sock *sk;

	sk = sk_alloc(net, PF_SMC, GFP_KERNEL, prot, 0);
	if (!sk)
		return NULL;
	sock_init_data(sock, sk);	/* refcount 1, sock->sk = sk */
	smcx_sock_setup(sk, protocol);
	return smcx_sk(sk);
}

/*
 * The smcx part of a new sock, after sock_init_data(): by smcx_sock_alloc()
 * for AF_SMC, by the proto's init for IPPROTO_SMC (inet.c).
 */
void smcx_sock_setup(struct sock *sk, int protocol)
{
	struct smcx_sock *smc;

	smcx_obj_inc(SMCX_OBJ_SOCK);
	sk->sk_destruct = smcx_sk_destruct;
	sk->sk_type = SOCK_STREAM;
	sk->sk_protocol = protocol;
	sk->sk_state = SMCX_INIT;

	smc = smcx_sk(sk);
	smc->stats = smcx_stats_of(sock_net(sk));
	smc->sysctl = smcx_sysctl(sock_net(sk));
	/*
	 * As mainline: twice the buffers net.smc.wmem / rmem ask for, the
	 * form SO_SNDBUF / SO_RCVBUF store (see conn.c smcx_buf_size()).
	 * The TCP socket keeps TCP's own; setsockopt() sets both.
	 */
	WRITE_ONCE(sk->sk_sndbuf, 2 * READ_ONCE(smc->sysctl->wmem));
	WRITE_ONCE(sk->sk_rcvbuf, 2 * READ_ONCE(smc->sysctl->rmem));
	smc->limit_hs = READ_ONCE(smc->sysctl->limit_smc_hs);
	INIT_WORK(&smc->hs_work, smcx_connect_work);
	INIT_WORK(&smc->accept_work, smcx_accept_work);
	INIT_LIST_HEAD(&smc->lnode);
	INIT_LIST_HEAD(&smc->pending);
	INIT_LIST_HEAD(&smc->acceptq);
	spin_lock_init(&smc->accq_lock);
	sk->sk_prot->hash(sk);
}

const struct proto_ops *smcx_tcp_ops_of(const struct sock *tcpsk)
{
	return tcpsk->sk_family == AF_INET6 ? smcx_inet6_stream_ops :
					      &inet_stream_ops;
}

/*
 * The TCP socket of a client or listening smcx sock.  Kernel sockets hold
 * no reference on their netns; this one may outlive the smcx sock in TCP's
 * closing states (timers need the netns) and may become the application's
 * TCP socket by grafting, so it is upgraded to a full user-socket reference.
 */
int smcx_clcsock_create(struct smcx_sock *smc)
{
	struct sock *sk = &smc->sk;
	int family = sk->sk_protocol == SMCX_PROTO_SMC6 ? AF_INET6 : AF_INET;
	struct sock *tcpsk;
	int rc;

	if (sk->sk_family == AF_INET6)		/* IPPROTO_SMC */
		family = AF_INET6;
	rc = sock_create_kern(sock_net(sk), family, SOCK_STREAM, IPPROTO_TCP,
			      &smc->clcsock);
	if (rc)
		return rc;
	smcx_obj_inc(SMCX_OBJ_CLCSOCK);
	tcpsk = smc->clcsock->sk;
	sk_net_refcnt_upgrade(tcpsk);
	smcx_tcp_link(smc);
	return 0;
}

/*
 * The CLC socket is a kernel socket: socket-creation policy ran on the
 * smcx sock only.  For IPPROTO_SMC (and tcp2smc) that includes the
 * cgroup/sock_create BPF programs, which run after our init and may set
 * the bound device (`ip vrf exec`), the mark and the priority.  Carry them
 * onto the TCP socket before it binds, connects or listens, as mainline
 * copies its settings to its CLC socket, so the traffic stays where the
 * policy put it.  setsockopt() writes both socks, so they only differ by
 * such policy.  Caller holds the smcx sock lock.
 */
void smcx_clcsock_inherit(struct smcx_sock *smc)
{
	struct sock *sk = &smc->sk, *tcpsk = smc->clcsock->sk;

	WRITE_ONCE(tcpsk->sk_bound_dev_if, READ_ONCE(sk->sk_bound_dev_if));
	WRITE_ONCE(tcpsk->sk_mark, READ_ONCE(sk->sk_mark));
	WRITE_ONCE(tcpsk->sk_priority, READ_ONCE(sk->sk_priority));
	/* kernels before 6.2: the SOL_SOCKET options set on us (compat/) */
	smcx_compat_sol_socket(tcpsk, sk);
}

/*
 * Release the CLC socket.  Not grafted: this closes the TCP connection (with
 * the linger settings mirrored onto it).  Grafted: the TCP sock belongs to
 * the application's socket and was closed by its release; only the empty
 * shell is freed.
 */
void smcx_clcsock_free(struct smcx_sock *smc)
{
	struct socket *cs = smc->clcsock;

	if (!cs)
		return;
	smc->clcsock = NULL;
	if (smc->grafted)
		cs->sk = NULL;
	sock_release(cs);
	smcx_obj_dec(SMCX_OBJ_CLCSOCK);
}

/* the smcx sock that owns @tcpsk; caller holds tcpsk->sk_callback_lock */
struct smcx_sock *__smcx_tcp_owner(struct sock *tcpsk)
{
	uintptr_t v = (uintptr_t)rcu_access_pointer(__sk_user_data(tcpsk));

	/* exactly our flag: a sockmap psock or a BPF user pointer is not us */
	if ((v & ~SK_USER_DATA_PTRMASK) != SK_USER_DATA_NOCOPY)
		return NULL;
	return (struct smcx_sock *)(v & SK_USER_DATA_PTRMASK);
}

struct smcx_sock *smcx_tcp_owner(struct sock *tcpsk)
{
	struct smcx_sock *smc;

	read_lock_bh(&tcpsk->sk_callback_lock);
	smc = __smcx_tcp_owner(tcpsk);
	read_unlock_bh(&tcpsk->sk_callback_lock);
	return smc;
}

/*
 * Link the TCP sock to its owner and remember TCP's callbacks.  NOCOPY: a
 * child that TCP clones from a listening sock does not inherit the pointer.
 */
void smcx_tcp_link(struct smcx_sock *smc)
{
	struct sock *tcpsk = smc->clcsock->sk;

	write_lock_bh(&tcpsk->sk_callback_lock);
	__rcu_assign_sk_user_data_with_flags(tcpsk, smc, SK_USER_DATA_NOCOPY);
	smc->tcp_state_change = tcpsk->sk_state_change;
	smc->tcp_data_ready = tcpsk->sk_data_ready;
	write_unlock_bh(&tcpsk->sk_callback_lock);
}

static void __smcx_tcp_restore_cbs(struct smcx_sock *smc, struct sock *tcpsk)
{
	tcpsk->sk_state_change = smc->tcp_state_change;
	tcpsk->sk_data_ready = smc->tcp_data_ready;
}

/* TCP's own callbacks back; the owner link stays */
void smcx_tcp_restore_cbs(struct smcx_sock *smc)
{
	struct sock *tcpsk = smc->clcsock->sk;

	write_lock_bh(&tcpsk->sk_callback_lock);
	__smcx_tcp_restore_cbs(smc, tcpsk);
	write_unlock_bh(&tcpsk->sk_callback_lock);
}

static void smcx_tcp_watch_state_change(struct sock *tcpsk)
{
	struct smcx_sock *smc;

	read_lock_bh(&tcpsk->sk_callback_lock);
	smc = __smcx_tcp_owner(tcpsk);
	if (smc) {
		smc->tcp_state_change(tcpsk);
		smcx_conn_clc_check(smc, tcpsk);
	}
	read_unlock_bh(&tcpsk->sk_callback_lock);
}

/*
 * SMC-R is up on @smc: watch its CLC socket for a reset or a destroy
 * (close.c smcx_conn_clc_check()); one that came before the hook is
 * taken here.  Process context.
 */
void smcx_tcp_watch(struct smcx_sock *smc)
{
	struct sock *tcpsk = smc->clcsock->sk;

	write_lock_bh(&tcpsk->sk_callback_lock);
	if (__smcx_tcp_owner(tcpsk) == smc) {
		tcpsk->sk_state_change = smcx_tcp_watch_state_change;
		smcx_conn_clc_check(smc, tcpsk);
	}
	write_unlock_bh(&tcpsk->sk_callback_lock);
}

/*
 * Cut the link: after this no TCP callback can reach the smcx sock (they
 * look it up under the read side of the same lock).
 */
void smcx_tcp_unlink(struct smcx_sock *smc)
{
	struct sock *tcpsk;

	if (!smc->clcsock || !smc->clcsock->sk)
		return;
	tcpsk = smc->clcsock->sk;
	write_lock_bh(&tcpsk->sk_callback_lock);
	if (__smcx_tcp_owner(tcpsk) == smc) {
		__smcx_tcp_restore_cbs(smc, tcpsk);
		rcu_assign_sk_user_data(tcpsk, NULL);
	}
	write_unlock_bh(&tcpsk->sk_callback_lock);
}

/*
 * Wait until the handshake has decided; sock lock held (dropped while
 * sleeping).  0 when decided, -EAGAIN when @timeo ran out, or the errno of a
 * signal.  Woken by the handshake's sk_state_change() on this sock.
 */
int smcx_wait_hs(struct smcx_sock *smc, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = &smc->sk;
	int rc = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	while (smcx_hs_busy(smc)) {
		if (!*timeo) {
			rc = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			rc = sock_intr_errno(*timeo);
			break;
		}
		sk_wait_event(sk, timeo, !smcx_hs_busy(smc), &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return rc;
}

/*
 * Stop a handshake in progress before the owner reference goes: mark it
 * aborted (the work then neither grafts nor queues the connection), kill
 * its TCP connection so a worker blocked on CLC input returns at once, and
 * wait for the work item.  Called without the sock lock.
 *
 * That wait is short (review N5): the worker's waits for the peer's CLC
 * messages end with the TCP abort; those for a peer's first-contact slot
 * (join.c), for the group's conf_mutex (smcx_lgr_conf_lock()) and for an
 * idle send queue before a REG_MR (smcx_wr_quiesce()) look at
 * smc->aborting; what is left are single LLC exchanges (a CONFIRM_RKEY or
 * CONFIRM_LINK, SMCX_LLC_WAIT: 2 s) and a REG_MR on an idle send queue
 * (bounded by SMCX_REG_WAIT, done in moments unless the device is stuck).
 */
void smcx_hs_cancel(struct smcx_sock *smc)
{
	struct sock *sk = &smc->sk;
	bool busy;

	lock_sock(sk);
	busy = smcx_hs_busy(smc);
	if (busy)
		smc->aborting = true;
	release_sock(sk);
	if (busy && smc->clcsock && smc->clcsock->sk) {
		smcx_tcp_restore_cbs(smc);	/* no new work from TCP */
		tcp_abort(smc->clcsock->sk, ECONNABORTED);
	}
	if (busy)
		smcx_join_kick();	/* a join waiting for a peer's slot */
	cancel_work_sync(&smc->hs_work);
}

/* drop an smcx sock whose TCP sock was grafted and is closed already */
void smcx_sock_free_fallback(struct smcx_sock *smc)
{
	struct sock *sk = &smc->sk;

	lock_sock(sk);
	sk->sk_state = SMCX_CLOSED;
	WRITE_ONCE(sk->sk_shutdown, SHUTDOWN_MASK);
	sock_orphan(sk);
	release_sock(sk);
	smcx_clcsock_free(smc);
	sk->sk_prot->unhash(sk);
	sock_put(sk);			/* owner reference */
}

/* release() of a socket whose sock->sk was still the smcx sock */
int smcx_sock_release(struct socket *sock, struct smcx_sock *smc)
{
	struct sock *sk = &smc->sk;
	struct sock *now;

	smcx_hs_cancel(smc);
	now = READ_ONCE(sock->sk);
	if (now != sk)		/* the handshake grafted TCP before it stopped */
		return smcx_release_tcp(sock, now);

	if (READ_ONCE(sk->sk_state) == SMCX_LISTEN)
		smcx_listen_stop(smc, SMCX_CLOSED);
	if (smc->smcr)
		smcx_conn_release(smc);	/* data out, closed flag, peer's */

	lock_sock(sk);
	sk->sk_state = SMCX_CLOSED;
	WRITE_ONCE(sk->sk_shutdown, SHUTDOWN_MASK);
	sock_orphan(sk);
	sock->sk = NULL;
	release_sock(sk);

	smcx_tcp_unlink(smc);
	smcx_clcsock_free(smc);		/* TCP close, honouring SO_LINGER */
	sk->sk_prot->unhash(sk);
	sock_put(sk);			/* owner reference */
	return 0;
}

/* learn the IPv6 TCP stream ops from a throw-away kernel socket */
static int smcx_learn_inet6_ops(void)
{
	struct socket *s;
	int rc;

	rc = sock_create_kern(&init_net, AF_INET6, SOCK_STREAM, IPPROTO_TCP, &s);
	if (rc) {
		pr_info("no IPv6 (%d): SMCPROTO_SMC6 sockets unavailable\n", rc);
		return 0;
	}
	smcx_inet6_stream_ops = s->ops;
	sock_release(s);
	return 0;
}

int smcx_sock_init(void)
{
	int rc;

	rc = smcx_learn_inet6_ops();
	if (rc)
		return rc;
	/* handshakes block on CLC input for up to SMCX_CLC_WAIT_TIME each */
	smcx_hs_wq = alloc_workqueue("smcx_hs", WQ_UNBOUND, 0);
	if (!smcx_hs_wq)
		return -ENOMEM;
	smcx_listen_wq = alloc_workqueue("smcx_listen", WQ_PERCPU, 0);
	if (!smcx_listen_wq)
		goto err_hs_wq;
	rc = proto_register(&smcx_proto, 1);
	if (rc)
		goto err_listen_wq;
	rc = proto_register(&smcx_proto6, 1);
	if (rc)
		goto err_proto;
	return 0;

err_proto:
	proto_unregister(&smcx_proto);
err_listen_wq:
	destroy_workqueue(smcx_listen_wq);
err_hs_wq:
	destroy_workqueue(smcx_hs_wq);
	return rc ? rc : -ENOMEM;
}

void smcx_sock_exit(void)
{
	proto_unregister(&smcx_proto6);
	proto_unregister(&smcx_proto);
	destroy_workqueue(smcx_listen_wq);
	destroy_workqueue(smcx_hs_wq);
}

/*
 * For sock_diag (diag.c): hold and return up to @max smcx socks of hash
 * @h (0: SMCPROTO_SMC and AF_INET, 1: SMCPROTO_SMC6 and AF_INET6) that
 * belong to @net, skipping the first @skip of them.  A hashed sock still
 * has its owner reference, so the hold is safe under the hash lock.
 */
unsigned int smcx_sock_collect(struct net *net, unsigned int h,
			       unsigned int skip, struct sock **out,
			       unsigned int max)
{
	struct smcx_hashinfo *hi = h ? &smcx_v6_hash : &smcx_v4_hash;
	unsigned int n = 0, num = 0;
	struct sock *sk;

	read_lock_bh(&hi->lock);
	sk_for_each(sk, &hi->ht) {
		if (!net_eq(sock_net(sk), net))
			continue;
		if (num++ < skip)
			continue;
		if (n == max)
			break;
		sock_hold(sk);
		out[n++] = sk;
	}
	read_unlock_bh(&hi->lock);
	return n;
}

bool smcx_family_v6_ok(void)
{
	return smcx_inet6_stream_ops;
}
