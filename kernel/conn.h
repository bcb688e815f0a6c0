/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SMC-R connections, the connection layer: one struct smcx_conn per smcx
 * sock that runs over SMC-R, allocated with its SMC-R state and holding a
 * place (token) in its link group.
 *
 *   conn.c   create and free, wake-ups and waits, the layer's init
 *   cdc.c    CDC receive (wr.c's handler of CDC), send completion
 *   tx.c     push (RDMA WRITE + CDC), who owns the send side, failover
 *   send.c   sendmsg: copy, autocorking, TCP_CORK / TCP_NODELAY
 *   rx.c     recvmsg, poll, the queue ioctls
 *   close.c  shutdown, release, close work, abort
 *   urg.c    urgent data (MSG_OOB)
 *
 * Cursors are kept as monotonic 64-bit byte counts; the wire form (wrap,
 * count) is derived from them modulo the RMBE size (count) and 2^16 (wrap).
 * A received cursor is turned back into a count through its distance from
 * the last known one, which is never more than one RMBE
 * (include/smcx/cursor.h).
 *
 * Softirq (completions) updates cursors under conn->lock and wakes; the
 * pushes it asks for run there too (smcx_tx_kick(), tx.c), unless a push
 * owns the connection's send side or no send slot is free: then the owner
 * or tx_work pushes.  Closing and anything else that sleeps goes to
 * close_work.
 */
#ifndef SMCX_CONN_H
#define SMCX_CONN_H

#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <net/inet_sock.h>
#include <net/sock.h>

#include <smcx/close.h>

#include "link.h"
#include "lo.h"

struct msghdr;
struct seq_file;
struct smcx_buf;
struct smcx_cdc_msg;
struct smcx_hsrec;
struct smcx_lgr;
struct smcx_link;
struct smcx_sock;
struct smcx_stats;
struct smcx_sysctl;
struct smcx_tx_slot;

#ifndef AF_SMC
#define AF_SMC 43
#endif

/* socket() protocol numbers of AF_SMC */
#define SMCX_PROTO_SMC		0	/* SMCPROTO_SMC: IPv4 */
#define SMCX_PROTO_SMC6		1	/* SMCPROTO_SMC6: IPv6 */

/*
 * socket(AF_INET{,6}, SOCK_STREAM, IPPROTO_SMC): an smcx sock of family
 * AF_INET/AF_INET6 (inet.c)
 */
#ifndef IPPROTO_SMC
#define IPPROTO_SMC		256
#endif

/* handshake progress, under the smcx sock lock */
enum smcx_hs {
	SMCX_HS_NONE,		/* none yet: fresh or listening socket */
	SMCX_HS_CONNECTING,	/* client: SYN sent, waiting for TCP */
	SMCX_HS_RUNNING,	/* the handshake work owns the connection */
	SMCX_HS_DONE,		/* decided: SMC, TCP, or failed */
};

/*
 * Returned by the connect/listen/accept helpers when the socket was grafted
 * while they waited for its lock: the caller dispatches again, now to TCP.
 */
#define SMCX_AGAIN		1

/* max. time to wait for a CLC message, as mainline's CLC_WAIT_TIME */
#define SMCX_CLC_WAIT_TIME	(6 * HZ)

struct smcx_sock {
	union {				/* first: allocated by sk_alloc() */
		struct sock sk;
		struct inet_sock inet;	/* IPPROTO_SMC: inet_create()'s view */
	};
	struct socket *clcsock;		/* the TCP socket; a shell once grafted */

	/* TCP callbacks we replaced, restored before the TCP sock goes on alone */
	void (*tcp_state_change)(struct sock *sk);
	void (*tcp_data_ready)(struct sock *sk);

	struct work_struct hs_work;	/* client or server handshake */
	u8 hs;				/* enum smcx_hs */
	bool aborting;			/* release/listener: stop the handshake */
	bool fallback;			/* the connection is TCP */
	bool grafted;			/* ... and sock->sk is now the TCP sock */
	u32 fallback_rsn;		/* local reason, SMCX_DECL_*, 0 if none */
	u32 peer_diag;			/* diagnosis of the peer's decline */
	bool clc_answered;		/* client: an Accept or Decline came */
	/*
	 * The handshake's flight record (hsrec.h), NULL when not recorded:
	 * made by connect() or the server's handshake work, filled by the
	 * handshake, handed to the namespace's ring where it ends
	 * (smcx_hs_record_end()); freed with the sock if it never does.
	 */
	struct smcx_hsrec *rec;
	struct smcx_conn *conn;		/* SMC-R state, NULL before/without */
	/* the connection runs on the SMC data path (conn): SMC-R, or ... */
	bool smcr;
	bool smcd;			/* ... SMC-D over the loopback device */
	/* TCP_CORK is on (TCP's own is the one getsockopt reads): send.c */
	bool tx_cork;
	/*
	 * The namespace's counters and sysctls for the data path, set at
	 * creation: sock_net() never changes, and the socket's reference on
	 * its namespace keeps both alive (they go with the namespace's exit).
	 */
	struct smcx_stats __percpu *stats;
	const struct smcx_sysctl *sysctl;

	/* server connection, until accepted */
	struct smcx_sock *listener;	/* reference held */
	struct list_head lnode;		/* on listener's pending or accept list */

	/*
	 * listener: handshake limitation (mainline's limit_smc_hs) from
	 * net.smc.limit_smc_hs at creation, SMC_LIMIT_HS; read by listen()
	 */
	bool limit_hs;
	char listen_comm[TASK_COMM_LEN];	/* listen()'s task, for records */
	spinlock_t accq_lock;		/* pending, acceptq, npending, closing */
	struct list_head pending;	/* connections inside the handshake */
	struct list_head acceptq;	/* connections ready for accept() */
	unsigned int npending;
	bool closing;			/* lists handed to smcx_listen_stop() */
	struct work_struct accept_work;	/* drains the TCP accept queue */
};

static inline struct smcx_sock *smcx_sk(const struct sock *sk)
{
	return (struct smcx_sock *)sk;
}

/* is @sk an smcx sock (else it is a grafted TCP sock)? */
static inline bool smcx_sk_is_smc(const struct sock *sk)
{
	return sk->sk_family == AF_SMC || sk->sk_protocol == IPPROTO_SMC;
}

static inline bool smcx_hs_busy(const struct smcx_sock *smc)
{
	u8 hs = READ_ONCE(smc->hs);

	return hs == SMCX_HS_CONNECTING || hs == SMCX_HS_RUNNING;
}

/* per connection, allocated with the smcx sock's SMC-R state */
struct smcx_conn {
	/*
	 * lgr, sndbuf, rmb: set at create; cleared by smcx_conn_free() with
	 * the send side owned and under lock, so softirq reads them under
	 * lock or while it owns the send side (a push).
	 */
	struct smcx_lgr *lgr;		/* reference held */
	/*
	 * The link of lgr this connection sends on (its RDMA WRITEs and
	 * CDCs) and whose QP and RMB MR its CLC Accept/Confirm names; set
	 * at create, before the connection is in the token table.  A
	 * client's join changes it to the link the Accept names, and
	 * failover moves it to another link (smcx_tx_failover(), send side
	 * owned).  CDCs from the peer may come on any link of the group.
	 */
	struct smcx_link *lnk;
	u32 token;			/* our alert token (lgr->conns key) */
	u32 peer_token;
	struct smcx_buf *sndbuf;
	struct smcx_buf *rmb;
	/*
	 * peer_*: smcx_conn_set_peer_rmb(), the size published last.  The
	 * peer's RMB has an rkey and address per link (its MR on each of its
	 * devices), by our lnk->idx: the CLC gives the one of conn->lnk;
	 * the others are in the group's table of the peer's keys
	 * (lgr->rtoks), in the entry peer_rtok, which the connection holds a
	 * reference on from then until it is freed (-1: none).
	 */
	int peer_rtok;
	/*
	 * SMC-D loopback (lgr->smcd, lo.h): our RMB's DMB token, registered
	 * from create to free; and the peer's DMB, attached in the handshake
	 * (a reference on its group, the buffer our push copies into, the
	 * peer's token), before peer_rmbe_size says it is there, and let go
	 * at the free, with the send side owned.
	 */
	u64 dmb_token;
	struct smcx_lo_peer peer_dmb;
	/*
	 * SMC-D: our send buffer is the peer's DMB (peer_dmb.buf), set with
	 * it in the handshake: sendmsg copies into the peer's ring at the
	 * stream position, the push only announces it, and the send buffer
	 * is free where the peer read it (tx_fin follows peer_cons, cdc.c),
	 * so no byte the peer has not read is ever overwritten.  Our own
	 * send buffer went back to the pool.
	 */
	bool tx_attached;
	u32 peer_rmbe_size;
	u32 peer_rkey[SMCX_LGR_LINKS];
	u64 peer_rmb_addr[SMCX_LGR_LINKS];
	u32 rmbe_update_limit;

	spinlock_t lock;		/* cursors and flags below (BH) */
	u16 tx_seq;
	u16 rx_seq;			/* the newest CDC taken ... */
	bool rx_seq_set;		/* ... once one was */
	/* send side, monotonic byte counts of the send buffer */
	u64 tx_prep;			/* copied in by sendmsg */
	u64 tx_sent;			/* RDMA-written to the peer */
	u64 tx_hi;			/* the most tx_sent ever was */
	u64 tx_fin;			/* completed: send buffer reusable */
	u64 peer_cons;			/* peer has consumed this much */
	/* CDCs posted and not completed: autocorking waits for the last */
	u32 cdc_pend;
	/* receive side */
	u64 rx_cons;			/* consumed by the application */
	u64 rx_prod;			/* announced by the peer */
	u64 rx_cons_sent;		/* last consumer cursor sent */
	/*
	 * WRITE WITH IMMEDIATE (smcx/wwi.h), whose receiver derives the
	 * producer cursor from the previous message on the same link.
	 * Send: the producer count our last message stated and the link it
	 * went on (compared with conn->lnk, never dereferenced; NULL after a
	 * failover).  Receive: the count the peer's last message taken
	 * stated and the index of the link it came on.
	 */
	u64 tx_stated;
	struct smcx_link *tx_stated_lnk;
	u64 rx_stated;
	u8 rx_stated_lnk;
	bool rx_stated_set;
	bool peer_write_blocked;
	/*
	 * The close protocol (include/smcx/close.h): the state, our and the
	 * peer's wire bits, released, exposed, gone and app_reset.  It is
	 * the one source of truth of every close, abort, shutdown, release
	 * and peer-close decision, written only by smcx_close_event() (and
	 * smcx_close_expose()) under lock; lockless readers take a copy of
	 * the whole (smcx_conn_close()).  sock_diag reports close.state.
	 */
	struct smcx_close close;
	/*
	 * Send bookkeeping of the close, tx.c's, under lock: a CDC with our
	 * close / our abort was posted (a failover clears both: the dead
	 * link may have taken it, it goes again), and one of them completed
	 * (cdc.c), which the close work waits for before the free.
	 */
	bool closed_sent;
	bool abort_sent;
	bool close_landed;
	/*
	 * TCP's SOCK_NOSPACE: a sender or poll() found the send buffer full,
	 * so the completion that frees room wakes them (cdc.c); completions
	 * nobody waits for wake nobody.  Kept here, not in sk_socket->flags,
	 * because the completion runs in softirq, where the socket may be
	 * going away under release.
	 */
	bool tx_nospace;
	/* urgent data (urg.c), under lock */
	u8 urg_state;			/* SMCX_URG_* */
	u8 urg_byte;			/* the received urgent byte */
	u64 urg_pos;			/* its position in the receive stream */
	bool urg_tx_pend;		/* MSG_OOB byte not yet announced */
	bool urg_tx_set;		/* one was sent: urg_tx_pos is valid */
	u64 urg_tx_pos;			/* its position in the send stream */
	/*
	 * Who pushes (tx.c): one at a time.  Process context takes tx_mutex
	 * and then tx_busy (smcx_tx_lock()); a completion (softirq) takes
	 * tx_busy only, or, finding it taken, sets tx_again for the owner,
	 * who pushes again before it lets go (smcx_tx_unlock()).  A task
	 * sleeping in smcx_tx_lock() for tx_busy sets tx_waiter (one at a
	 * time: tx_mutex), so only then does a release wake.  All three
	 * under lock.
	 */
	bool tx_busy;
	bool tx_again;
	bool tx_waiter;
	struct smcx_sock *owner;
	struct mutex tx_mutex;		/* serialises process-context pushes */
	struct work_struct tx_work;
	struct delayed_work close_work;
	unsigned long close_by;		/* close_work: the armed wait ends then */
	unsigned long land_by;		/* close_work: our last CDC lands by then */
};

/* a consistent copy of the close facts, for readers without conn->lock */
static inline struct smcx_close smcx_conn_close(struct smcx_conn *conn)
{
	return READ_ONCE(conn->close);
}

/*
 * recv and send fail, poll shows HUP and ERR: the connection ended by an
 * abort (either side's) or the link group going, or a send after the
 * peer closed (TCP's reset)
 */
static inline bool smcx_conn_dead(struct smcx_conn *conn)
{
	return smcx_close_app_dead(smcx_conn_close(conn));
}

/* conn.c */
int smcx_conn_init(void);
int smcx_conn_create(struct smcx_sock *smc, struct smcx_lgr *lgr);
void smcx_conn_stated_start(struct smcx_conn *conn);
/* a client's reuse: send on @lnk, the link the server's Accept named */
void smcx_conn_use_link(struct smcx_conn *conn, struct smcx_link *lnk);
void smcx_conn_free(struct smcx_sock *smc);
void smcx_conn_set_peer_rmb(struct smcx_conn *conn, struct smcx_link *lnk,
			    u32 token, u32 rkey, u64 addr, u32 size);
/* SMC-D: the peer's DMB @peer (its reference goes to the connection) */
void smcx_conn_set_peer_dmb(struct smcx_conn *conn, struct smcx_lo_peer *peer);
void smcx_conn_destruct(struct smcx_sock *smc);
void smcx_conn_show(struct seq_file *m, struct smcx_conn *conn);
void smcx_conn_wake(struct smcx_sock *smc, __poll_t events);
int smcx_conn_wait(struct smcx_sock *smc, long *timeo,
		   bool (*cond)(struct smcx_sock *smc));

/* cdc.c */
int smcx_cdc_init(void);
void smcx_cdc_tx_done(struct smcx_tx_slot *slot, bool ok);
/* SMC-D: the CDC @m for the connection m->token of @lgr, by a copy */
void smcx_cdc_rx_d(struct smcx_lgr *lgr, const struct smcx_cdc_msg *m);
/* SMC-D: a push of @smc up to @end landed (the copy is made) */
void smcx_cdc_landed_d(struct smcx_sock *smc, u64 end, bool closing);

/* tx.c */
/*
 * Own the send side (process context; excludes every other push) and let
 * it go, pushing first what completions asked for meanwhile
 */
void smcx_tx_lock(struct smcx_conn *conn);
void smcx_tx_unlock(struct smcx_sock *smc);
/* push, the send side owned (smcx_tx_lock()) */
int smcx_tx_push(struct smcx_sock *smc, bool force);
/* smcx_tx_lock(), smcx_tx_push(), smcx_tx_unlock() */
int smcx_tx_push_locked(struct smcx_sock *smc, bool force);
/*
 * From a completion (softirq), the caller holding a sock reference: push
 * what is owed (data the peer has room for, a cursor update it waits for,
 * an abort), here if the send side is free, else through its owner
 */
void smcx_tx_kick(struct smcx_sock *smc);
/*
 * Failover: move @smc's connection from its cleared link @from to the
 * ACTIVE @to and send again what may not have landed; 0, or -errno: it
 * cannot move (the caller fails it).
 */
int smcx_tx_failover(struct smcx_sock *smc, struct smcx_link *from,
		     struct smcx_link *to);
void smcx_tx_work(struct work_struct *work);

/* send.c */
/*
 * Room in the send buffer; a full buffer asks for a wakeup (tx_nospace)
 * from the completion that frees some
 */
u64 smcx_tx_space_or_wait(struct smcx_conn *conn);
int smcx_conn_sendmsg(struct smcx_sock *smc, struct msghdr *msg, size_t len);
/* TCP_CORK / TCP_NODELAY set to @val (TCP took it); under the sock lock */
void smcx_tx_sockopt(struct smcx_sock *smc, int optname, int val);

/* rx.c */
u64 smcx_rx_avail(struct smcx_conn *conn);
int smcx_conn_recvmsg(struct smcx_sock *smc, struct msghdr *msg, size_t len,
		      int flags);
__poll_t smcx_conn_poll(struct smcx_sock *smc);
int smcx_conn_ioctl(struct smcx_sock *smc, unsigned int cmd,
		    unsigned long arg);

/* close.c */
void smcx_close_init(void);
u32 __smcx_close_event(struct smcx_sock *smc, enum smcx_close_ev ev);
void smcx_close_apply(struct smcx_sock *smc, u32 act);
void smcx_close_event(struct smcx_sock *smc, enum smcx_close_ev ev);
void smcx_close_event_any(struct smcx_sock *smc, enum smcx_close_ev ev);
void smcx_close_expose(struct smcx_conn *conn);
void smcx_close_kick(struct smcx_sock *smc, unsigned long delay);
void smcx_close_work(struct work_struct *work);
void smcx_conn_up(struct smcx_sock *smc);
void smcx_conn_abort(struct smcx_sock *smc);
void smcx_conn_drop(struct smcx_sock *smc);
void smcx_conn_clc_check(struct smcx_sock *smc, struct sock *tcpsk);
int smcx_conn_shutdown(struct smcx_sock *smc, int how);
void smcx_conn_release(struct smcx_sock *smc);

/*
 * urg.c: urgent data (MSG_OOB), TCP's semantics on the CDC urgent flags;
 * the states (SMCX_URG_*) and the arithmetic are in include/smcx/urg.h
 */
__poll_t smcx_urg_rx(struct smcx_conn *conn, struct smcx_link *lnk,
		     u8 prod_flags, u64 new_prod);
int smcx_urg_recv(struct smcx_sock *smc, struct msghdr *msg, size_t len,
		  int flags);
u64 smcx_urg_inq(struct smcx_sock *smc, u64 avail);
bool smcx_urg_atmark(struct smcx_conn *conn);
u64 smcx_urg_poll_target(struct smcx_sock *smc, u64 target);

#endif /* SMCX_CONN_H */
