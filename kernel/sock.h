/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct smcx_sock: one AF_SMC socket and the kernel TCP socket it owns.
 *
 * Every AF_SMC socket owns an internal TCP socket (the "CLC socket", a
 * struct socket created with sock_create_kern() or by kernel_accept()).  The
 * CLC handshake runs over it, and when the connection does not become SMC it
 * simply continues as that TCP connection.
 *
 * Fallback by grafting.  Once a connection is decided to be TCP, smcx grafts
 * the TCP sock onto the application's struct socket: sock->sk becomes the
 * TCP sock, whose sk_wq and sk_socket now point at the application's socket.
 * From then on every operation on the file (our proto_ops dispatch on the
 * kind of sock->sk) and everything the socket core does with sock->sk
 * directly (SOL_SOCKET getsockopt, SO_ERROR, fasync, ...) reaches TCP, and
 * TCP's own wake-ups (sk_data_ready, sk_write_space, sk_state_change,
 * sk_error_report) wake the application's wait queue: the very queue on
 * which poll, select and epoll registered before the fallback.  No callback
 * forwarding, no file->private_data swap.  See docs/kernel-socket.md.
 *
 * The CLC struct socket stays behind as an empty "shell" that still points
 * at the TCP sock (so an operation that raced with the graft and still sees
 * the smcx sock reaches the same TCP sock); it is released last.
 *
 * Reference counting (sk_refcnt of the smcx sock):
 *   - one "owner" reference from sk_alloc: held by the application's socket,
 *     or for a server connection not yet accepted by the listener's pending
 *     or accept list; dropped by release, or by the listener's cleanup;
 *   - a server connection holds a reference on its listener (->listener)
 *     from creation until accept() or the listener's cleanup takes it;
 *   - work items take no reference: whoever drops the owner reference first
 *     stops the handshake (smcx_hs_cancel) and waits for the work item.
 * Softirq callbacks on the TCP sock find the smcx sock through
 * sk_user_data under sk_callback_lock; it is cleared under the write lock
 * before the smcx sock can go away.
 *
 * Locks: smcx sock lock (lock_sock) -> TCP sock lock; the listener's
 * ->accq_lock is a spinlock taken in process context only, and inside it
 * only the TCP listener's accept-queue lock (rskq_lock, for its backlog
 * count) is taken.
 */
#ifndef SMCX_SOCK_H
#define SMCX_SOCK_H

#include <linux/workqueue.h>
#include <net/inet_sock.h>
#include <net/sock.h>

/* sk_state: SMCX_ACTIVE, _INIT, _CLOSED, _LISTEN (mainline's numbers) */
#include <smcx/state.h>

#include "conn.h"
#include "stats.h"

extern struct workqueue_struct *smcx_hs_wq;
extern struct workqueue_struct *smcx_listen_wq;

/* sock.c: life cycle */
struct smcx_sock *smcx_sock_alloc(struct net *net, struct socket *sock,
				  int protocol);
void smcx_sock_setup(struct sock *sk, int protocol);
int smcx_hash(struct sock *sk);
void smcx_unhash(struct sock *sk);
int smcx_clcsock_create(struct smcx_sock *smc);
void smcx_clcsock_free(struct smcx_sock *smc);
void smcx_clcsock_inherit(struct smcx_sock *smc);
const struct proto_ops *smcx_tcp_ops_of(const struct sock *tcpsk);
void smcx_tcp_link(struct smcx_sock *smc);
void smcx_tcp_unlink(struct smcx_sock *smc);
void smcx_tcp_restore_cbs(struct smcx_sock *smc);
void smcx_tcp_watch(struct smcx_sock *smc);
struct smcx_sock *__smcx_tcp_owner(struct sock *tcpsk);
struct smcx_sock *smcx_tcp_owner(struct sock *tcpsk);
int smcx_wait_hs(struct smcx_sock *smc, long *timeo);
void smcx_hs_cancel(struct smcx_sock *smc);
int smcx_sock_release(struct socket *sock, struct smcx_sock *smc);
void smcx_sock_free_fallback(struct smcx_sock *smc);
bool smcx_family_v6_ok(void);
unsigned int smcx_sock_collect(struct net *net, unsigned int h,
			       unsigned int skip, struct sock **out,
			       unsigned int max);
int smcx_sock_init(void);
void smcx_sock_exit(void);

/* fallback.c: the switch to TCP */
/*
 * The flight record of @smc's handshake (hsrec.h): started with the task
 * name @comm, ended once: rc < 0 failed, else SMC or TCP for @reason.
 */
void smcx_hs_record_start(struct smcx_sock *smc, int role, const char *comm);
void smcx_hs_record_end(struct smcx_sock *smc, int rc, u32 reason);
void smcx_hs_record_scoped(struct smcx_sock *smc, const struct sockaddr *addr,
			   int alen, u32 reason, u32 policy_id);
void smcx_fallback_record(struct smcx_sock *smc, enum smcx_role role,
			  u32 reason);
void smcx_graft_tcp(struct smcx_sock *smc, struct socket *sock);
int smcx_fallback_now(struct smcx_sock *smc, struct socket *sock, u32 reason);
int smcx_release_tcp(struct socket *sock, struct sock *tcpsk);

/* connect.c: client */
int smcx_connect(struct socket *sock, struct smcx_sock *smc,
		 struct sockaddr_unsized *addr, int alen, int flags);
void smcx_connect_work(struct work_struct *work);
int smcx_connect_shutdown(struct smcx_sock *smc, struct socket *sock);

/* listen.c: server */
int smcx_listen(struct smcx_sock *smc, int backlog);
int smcx_accept(struct smcx_sock *lsmc, struct socket *newsock,
		struct proto_accept_arg *arg);
void smcx_listen_stop(struct smcx_sock *lsmc, int new_state);
__poll_t smcx_accept_poll(struct smcx_sock *lsmc);
void smcx_accept_work(struct work_struct *work);

#endif /* SMCX_SOCK_H */
