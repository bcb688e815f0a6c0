/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx pure logic: the close and abort protocol of an SMC-R connection as
 * one state machine.  The state (enum smcx_state, smcx/state.h) and a few
 * facts make struct smcx_close; smcx_close_step() is one event's
 * transition, pure: it returns the facts after the event and the actions
 * (SMCX_CA_*) the caller carries out, in one place, under conn->lock.
 * The predicates below answer the questions the send, receive, shutdown,
 * release and free paths ask, so no call site tests flags by hand.
 *
 * The wire: every CDC carries three connection-state bits (done writing,
 * connection closed, abort), each side's set once and repeated in every
 * later CDC.  local is what ours say, peer what the peer's said.
 *
 * The states, what each means, what ends it, and its bound ("R": the
 * application released the socket; close work runs only then):
 *
 *   INIT             created, the join not done; ends with UP, or an
 *                    abort, a peer abort or the group going.  Not
 *                    timed: the handshake's own bounds end it
 *   ACTIVE           up; ends with shutdown, close, an abort or the peer's
 *                    bits.  The application holds it
 *   PEERCLOSEWAIT1   our done writing (and, with R, closed) is out; the
 *                    peer may still write.  Ends with the peer's bits;
 *                    with R after the close wait (long) we abort
 *   PEERCLOSEWAIT2   ... the peer is done writing too; as PEERCLOSEWAIT1
 *   APPCLOSEWAIT1    the peer is done writing; we may still write.  The
 *                    application's shutdown or close ends it
 *   APPCLOSEWAIT2    ... we are done writing too; the close ends it
 *   APPFINCLOSEWAIT  we are done writing and the peer closed; the close
 *                    ends it (-> CLOSED)
 *   PEERFINCLOSEWAIT we closed (R), the peer is done writing, not closed;
 *                    its close or abort ends it, else the close wait
 *                    (long), then we abort
 *   PEERABORTWAIT    our abort is out or owed; we wait for any bit of the
 *                    peer (it writes no more after it), a peer reset, or
 *                    the group going; with R at most the abort wait
 *                    (short), then CLOSED anyway
 *   PROCESSABORT     aborted (either side), the application still holds
 *                    the socket; its close ends it (-> CLOSED)
 *   CLOSED           terminal, with R: close work sends what is owed,
 *                    waits (bounded) for it to land and frees.  Only FREE
 *                    acts here; the peer's bits and gone are still noted
 *                    for the free's RMB decision
 *
 * The events (enum smcx_close_ev, smcx/state.h), and who raises them:
 *
 *   UP           the handshake is over and SMC-R is up (kernel/close.c
 *                smcx_conn_up()): INIT -> ACTIVE, or APPCLOSEWAIT1 if
 *                the peer's done writing came first
 *   SHUT_WR      shutdown(SHUT_WR or SHUT_RDWR)
 *   CLOSE        close(), orderly: sets R
 *   ABORT        we abort, the application holding the socket (its
 *                CLC socket destroyed here: ss -K)
 *   DROP         abort and R in one: a socket let go without an
 *                application (a listener's queued or pending child, a
 *                connect aborted after its join), or close() that resets
 *                (unread data, SO_LINGER {1, 0}), or its flush wait ran out
 *   VIOLATION    the peer broke the protocol (a BAD cursor or WWI, a lost
 *                failover CDC): ABORT, and the receive side goes deaf
 *   PEER_DONE, PEER_CLOSED, PEER_ABORT   the bits of a peer's CDC, raised
 *                for each bit it carries (a repeated bit changes nothing)
 *   PEER_RESET   an RST on the CLC TCP socket after SMC-R came up and
 *                before the peer's first CDC
 *   RESET        a send after the peer closed (TCP's RST): EPIPE, local
 *   GONE         nothing can be sent any more (the link group went, a
 *                send or CDC failed without failover)
 *   TIMEOUT      close work's deadline (the wait smcx_close_timer_for()
 *                named when it was armed)
 *   FREE         the connection is freed: CLOSED, and the RMB's fate
 *
 * With R no state waits without a timer: from any of
 * them at most two TIMEOUTs reach CLOSED (close wait, then abort wait):
 * smcx_close_timer_for() says which wait runs.
 *
 * The RMB: the peer may RDMA-write into it once it was named to the peer
 * (exposed) until the peer is quiet (any of its bits arrived: it writes
 * no more after them, and RC order lands its earlier writes first).  At
 * the free it goes back to the pool only if it was never exposed, the
 * peer is quiet, or the link group is gone (its MRs with it); otherwise
 * it is discarded (deregistered), as a late write must not reach the
 * next connection that takes it.  That our abort landed is not enough.
 *
 * Header-only C for the kernel (SMCX_KERNEL), C11 and C++20.
 */
#ifndef SMCX_CLOSE_H
#define SMCX_CLOSE_H

#include "state.h"

#ifdef SMCX_KERNEL
#include <linux/errno.h>
#else
#include <errno.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif
#endif

/* the connection-state bits of a CDC, one byte (READ_ONCE() as a whole) */
struct smcx_cdc_flags {
	bool done_writing:1;
	bool closed:1;		/* implies done_writing */
	bool abort:1;
};

/*
 * What the close protocol knows of a connection; four bytes.  The step
 * writes all of it but exposed, which the CLC code sets once our RMB was
 * named to the peer (the server's Accept written, the client's Confirm).
 * The bit-fields share bytes: every write under one lock (conn->lock);
 * lockless readers take a READ_ONCE() copy of the whole.
 */
struct smcx_close {
	u8 state;			/* enum smcx_state */
	struct smcx_cdc_flags local;	/* ours: never cleared */
	struct smcx_cdc_flags peer;	/* the peer's, as its CDCs said */
	bool released:1;		/* the application let go (close, drop) */
	bool exposed:1;			/* the peer may write into our RMB */
	bool gone:1;			/* nothing can be sent any more */
	bool app_reset:1;		/* sent after the peer closed: TCP's RST */
};

/*
 * Actions of a step, for the caller to carry out in this order once the
 * new facts are stored: the L_* bits say which of our wire bits the step
 * set (the CDC that PUSH sends carries them); ERR sets sk_err to the
 * step's err if the socket has none; WAKE wakes readers, writers, pollers
 * and release's wait; KICK runs close work now (close work that raised
 * the event goes on by itself); ARM_CW / ARM_AW run it after the close
 * wait (long) / the abort wait (short), which then raises TIMEOUT.  FREE
 * alone returns RMB_POOL or RMB_DISCARD.
 */
#define SMCX_CA_L_DW		0x0001u	/* our done writing is set */
#define SMCX_CA_L_CL		0x0002u	/* our connection closed is set */
#define SMCX_CA_L_AB		0x0004u	/* our abort is set */
#define SMCX_CA_PUSH		0x0008u	/* send a CDC with the new bits */
#define SMCX_CA_ERR		0x0010u	/* sk_err = err, unless one is set */
#define SMCX_CA_WAKE		0x0020u	/* what the socket shows changed */
#define SMCX_CA_KICK		0x0040u	/* close work now: to the free */
#define SMCX_CA_ARM_CW		0x0080u	/* close work after the close wait */
#define SMCX_CA_ARM_AW		0x0100u	/* close work after the abort wait */
#define SMCX_CA_RMB_POOL	0x0200u	/* free: the RMB may be reused */
#define SMCX_CA_RMB_DISCARD	0x0400u	/* free: deregister the RMB */

struct smcx_close_res {
	struct smcx_close next;		/* store it (all of it) */
	u32 act;			/* SMCX_CA_* */
	int err;			/* with SMCX_CA_ERR: positive errno */
};

/* what close work waits for (only once the socket is released) */
enum smcx_close_timer {
	SMCX_CT_NONE,	/* the application holds it: close() goes on */
	SMCX_CT_CLOSE,	/* the peer's close, the close wait at most */
	SMCX_CT_ABORT,	/* the peer's answer, the abort wait at most */
	SMCX_CT_FREE,	/* nothing: free (after our CDC landed) */
};

/* what sendmsg() may do (the kernel checks SEND_SHUTDOWN itself too) */
enum smcx_close_send {
	SMCX_SEND_OK,
	SMCX_SEND_DEAD,		/* sock_error(), then EPIPE: TCP after a reset */
	SMCX_SEND_SHUT,		/* EPIPE: we are done writing */
	SMCX_SEND_RESET,	/* the peer closed: raise RESET, drop the bytes */
};

/* the peer writes no more into our RMB: any of its bits arrived */
static inline bool smcx_close_peer_quiet(struct smcx_cdc_flags peer)
{
	return peer.done_writing || peer.closed || peer.abort;
}

/* no data either way any more: aborted, or CLOSED */
static inline bool smcx_close_ended(u8 state)
{
	return state == SMCX_PEERABORTWAIT || state == SMCX_PROCESSABORT ||
	       state == SMCX_CLOSED;
}

/* recv and send fail (TCP after a reset); poll shows HUP and ERR */
static inline bool smcx_close_app_dead(struct smcx_close c)
{
	return smcx_close_ended(c.state) || c.app_reset;
}

/* ignore the peer's cursors (and a WRITE WITH IMMEDIATE): only its bits */
static inline bool smcx_close_rx_deaf(u8 state)
{
	return smcx_close_ended(state);
}

/*
 * may the push RDMA-write data (queued before our done writing too)?
 * Never with or after an abort, nor to a peer that closed: nobody reads
 * it, and its RMB may serve another connection by now
 */
static inline bool smcx_close_data_ok(struct smcx_close c)
{
	return !smcx_close_ended(c.state) && c.state != SMCX_LISTEN &&
	       !c.gone && !c.local.abort && !c.peer.closed && !c.peer.abort;
}

/*
 * a CDC with our close or abort bit is still owed; @closed_sent, @abort_sent:
 * one with that bit was posted (failover clears them: say it again).  An
 * abort sent owes no close
 */
static inline bool smcx_close_owed(struct smcx_close c, bool closed_sent,
				   bool abort_sent)
{
	if (c.gone)
		return false;
	if (c.local.abort)
		return !abort_sent;
	return c.local.closed && !closed_sent;
}

/*
 * release's wait for its data and close ends: @landed (every byte
 * written completed) and @closed_sent, or they never will
 */
static inline bool smcx_close_flushed(struct smcx_close c, bool landed,
				      bool closed_sent)
{
	return smcx_close_ended(c.state) || c.gone || c.peer.closed ||
	       c.local.abort || (landed && closed_sent);
}

/* shutdown() is ENOTCONN: both sides are done writing (or app_dead) */
static inline bool smcx_close_shut_done(u8 state)
{
	return state == SMCX_PEERCLOSEWAIT2 || state == SMCX_APPCLOSEWAIT2 ||
	       state == SMCX_APPFINCLOSEWAIT || state == SMCX_PEERFINCLOSEWAIT;
}

/* sendmsg()'s check, before it copies a byte */
static inline enum smcx_close_send smcx_close_may_send(struct smcx_close c)
{
	if (smcx_close_app_dead(c))
		return SMCX_SEND_DEAD;
	if (c.local.done_writing)
		return SMCX_SEND_SHUT;
	if (c.peer.closed)
		return SMCX_SEND_RESET;
	return SMCX_SEND_OK;
}

/* the free: the RMB back to the pool, or discarded (see the top) */
static inline bool smcx_close_rmb_reusable(struct smcx_close c)
{
	return !c.exposed || smcx_close_peer_quiet(c.peer) || c.gone;
}

static inline enum smcx_close_timer smcx_close_timer_for(struct smcx_close c)
{
	if (!c.released || c.state == SMCX_LISTEN)
		return SMCX_CT_NONE;
	switch (c.state) {
	case SMCX_CLOSED:
	case SMCX_PROCESSABORT:
		return SMCX_CT_FREE;
	case SMCX_PEERABORTWAIT:
		return SMCX_CT_ABORT;
	default:
		return SMCX_CT_CLOSE;
	}
}

/* the abort ended it: PROCESSABORT while the application holds it */
static inline u8 smcx_close_end_state(const struct smcx_close *c)
{
	return c->released ? SMCX_CLOSED : SMCX_PROCESSABORT;
}

/*
 * Our abort (ABORT, DROP, VIOLATION, TIMEOUT), not in an ended state.  It
 * goes out if the peer can know this connection (exposed) and anything
 * can be sent; we wait for the peer's answer unless it closed or aborted
 * already (then it sends nothing more).
 */
static inline void smcx_close_do_abort(struct smcx_close *c)
{
	if (c->exposed && !c->gone)
		c->local.abort = true;
	if (c->local.abort && !c->peer.closed && !c->peer.abort)
		c->state = SMCX_PEERABORTWAIT;
	else
		c->state = smcx_close_end_state(c);
}

/* the application's close() (or a drop) */
static inline void smcx_close_do_release(struct smcx_close *c)
{
	c->released = true;
	if (c->state == SMCX_PROCESSABORT)
		c->state = SMCX_CLOSED;
}

/* EV_CLOSE: our done writing and closed go out after the data */
static inline void smcx_close_do_close(struct smcx_close *c)
{
	switch (c->state) {
	case SMCX_INIT:
		/* let go before it came up: a drop */
		smcx_close_do_abort(c);
		break;
	case SMCX_ACTIVE:
	case SMCX_PEERCLOSEWAIT1:
	case SMCX_PEERCLOSEWAIT2:
		c->local.done_writing = true;
		c->local.closed = true;
		if (c->state == SMCX_ACTIVE)
			c->state = SMCX_PEERCLOSEWAIT1;
		break;
	case SMCX_APPCLOSEWAIT1:
	case SMCX_APPCLOSEWAIT2:
	case SMCX_APPFINCLOSEWAIT:
		c->local.done_writing = true;
		c->local.closed = true;
		c->state = c->peer.closed ? SMCX_CLOSED :
					    SMCX_PEERFINCLOSEWAIT;
		break;
	default:
		break;
	}
	smcx_close_do_release(c);
}

/* a new done writing of the peer */
static inline void smcx_close_on_peer_done(struct smcx_close *c)
{
	switch (c->state) {
	case SMCX_ACTIVE:
		c->state = SMCX_APPCLOSEWAIT1;
		break;
	case SMCX_PEERCLOSEWAIT1:
		c->state = SMCX_PEERCLOSEWAIT2;
		break;
	case SMCX_PEERABORTWAIT:
		c->state = smcx_close_end_state(c);
		break;
	default:
		break;
	}
}

/* a new connection closed of the peer, after its done writing */
static inline void smcx_close_on_peer_closed(struct smcx_close *c)
{
	switch (c->state) {
	case SMCX_PEERCLOSEWAIT1:
	case SMCX_PEERCLOSEWAIT2:
		c->state = c->released ? SMCX_CLOSED : SMCX_APPFINCLOSEWAIT;
		break;
	case SMCX_PEERFINCLOSEWAIT:
		c->state = SMCX_CLOSED;
		break;
	case SMCX_PEERABORTWAIT:
		c->state = smcx_close_end_state(c);
		break;
	default:
		break;
	}
}

/* the event moves @c (not CLOSED, not LISTEN); @in: before the event */
static inline void smcx_close_move(struct smcx_close *c,
				   const struct smcx_close *in,
				   enum smcx_close_ev ev)
{
	bool ended = smcx_close_ended(c->state);

	switch (ev) {
	case SMCX_CLOSE_EV_UP:
		if (c->state == SMCX_INIT)
			c->state = c->peer.done_writing ? SMCX_APPCLOSEWAIT1 :
							  SMCX_ACTIVE;
		break;
	case SMCX_CLOSE_EV_SHUT_WR:
		if (c->state == SMCX_ACTIVE || c->state == SMCX_APPCLOSEWAIT1) {
			c->local.done_writing = true;
			c->state = c->state == SMCX_ACTIVE ?
				   SMCX_PEERCLOSEWAIT1 : SMCX_APPCLOSEWAIT2;
		}
		break;
	case SMCX_CLOSE_EV_CLOSE:
		smcx_close_do_close(c);
		break;
	case SMCX_CLOSE_EV_DROP:
		if (!ended)
			smcx_close_do_abort(c);
		smcx_close_do_release(c);
		break;
	case SMCX_CLOSE_EV_ABORT:
	case SMCX_CLOSE_EV_VIOLATION:
		if (!ended)
			smcx_close_do_abort(c);
		break;
	case SMCX_CLOSE_EV_TIMEOUT:
		/* close work runs only once released */
		if (!c->released)
			break;
		if (ended)
			c->state = SMCX_CLOSED;
		else
			smcx_close_do_abort(c);
		break;
	case SMCX_CLOSE_EV_PEER_DONE:
	case SMCX_CLOSE_EV_PEER_CLOSED:
		/* a repeated bit says nothing new */
		if (!in->peer.done_writing)
			smcx_close_on_peer_done(c);
		if (c->peer.closed && !in->peer.closed)
			smcx_close_on_peer_closed(c);
		break;
	case SMCX_CLOSE_EV_PEER_ABORT:
		if (in->peer.abort || c->state == SMCX_PROCESSABORT)
			break;
		/*
		 * answer with ours, as mainline does: a peer that aborted
		 * waits for it (PEERABORTWAIT), its connection held
		 */
		if (!c->gone)
			c->local.abort = true;
		c->state = smcx_close_end_state(c);
		break;
	case SMCX_CLOSE_EV_PEER_RESET:
		/*
		 * the peer's CLC socket is gone; no answer: the peer may have
		 * freed the connection and given its token to another
		 */
		if (!ended || c->state == SMCX_PEERABORTWAIT)
			c->state = smcx_close_end_state(c);
		break;
	case SMCX_CLOSE_EV_GONE:
		if (c->state != SMCX_PROCESSABORT)
			c->state = smcx_close_end_state(c);
		break;
	case SMCX_CLOSE_EV_RESET:
		if (!ended && c->peer.closed && !c->released)
			c->app_reset = true;
		break;
	default:
		break;
	}
}

/* the actions that follow from @in becoming @c on @ev */
static inline u32 smcx_close_acts(const struct smcx_close *in,
				  const struct smcx_close *c, int *err)
{
	enum smcx_close_timer t = smcx_close_timer_for(*c);
	u32 act = 0;

	if (c->local.done_writing && !in->local.done_writing)
		act |= SMCX_CA_L_DW;
	if (c->local.closed && !in->local.closed)
		act |= SMCX_CA_L_CL;
	if (c->local.abort && !in->local.abort)
		act |= SMCX_CA_L_AB;
	if (act && !c->gone)
		act |= SMCX_CA_PUSH;
	if (act || c->state != in->state ||
	    c->peer.done_writing != in->peer.done_writing ||
	    c->peer.closed != in->peer.closed ||
	    c->peer.abort != in->peer.abort || c->gone != in->gone ||
	    c->app_reset != in->app_reset)
		act |= SMCX_CA_WAKE;
	/* the error for an application that still holds the socket */
	if (!c->released && smcx_close_app_dead(*c) &&
	    !smcx_close_app_dead(*in)) {
		act |= SMCX_CA_ERR;
		*err = smcx_close_ended(c->state) ? ECONNRESET : EPIPE;
	}
	if (t != smcx_close_timer_for(*in)) {
		if (t == SMCX_CT_CLOSE)
			act |= SMCX_CA_ARM_CW;
		else if (t == SMCX_CT_ABORT)
			act |= SMCX_CA_ARM_AW;
		else if (t == SMCX_CT_FREE)
			act |= SMCX_CA_KICK;
	}
	return act;
}

/*
 * One event's transition: @in, the facts before @ev (the peer's bits as
 * before its CDC: the step notes them), to the facts after it and the
 * actions.  Total: every event in every state has a result, most of them
 * "nothing".  A CDC with several bits raises PEER_DONE / PEER_CLOSED
 * (closed implies done writing) before PEER_ABORT.
 */
static inline struct smcx_close_res smcx_close_step(struct smcx_close in,
						    enum smcx_close_ev ev)
{
	struct smcx_close_res r;

	r.next = in;
	r.act = 0;
	r.err = 0;
	if (in.state == SMCX_LISTEN)
		return r;
	/* the facts an event brings, in every state */
	switch (ev) {
	case SMCX_CLOSE_EV_PEER_CLOSED:
		r.next.peer.closed = true;
		r.next.peer.done_writing = true;
		break;
	case SMCX_CLOSE_EV_PEER_DONE:
		r.next.peer.done_writing = true;
		break;
	case SMCX_CLOSE_EV_PEER_ABORT:
		r.next.peer.abort = true;
		break;
	case SMCX_CLOSE_EV_GONE:
		r.next.gone = true;
		break;
	case SMCX_CLOSE_EV_FREE:
		/* idempotent; the RMB's fate from the facts alone */
		r.next.state = SMCX_CLOSED;
		r.act = smcx_close_rmb_reusable(r.next) ? SMCX_CA_RMB_POOL :
							  SMCX_CA_RMB_DISCARD;
		return r;
	default:
		break;
	}
	/* CLOSED is terminal: only the facts for the free are noted */
	if (in.state == SMCX_CLOSED)
		return r;
	smcx_close_move(&r.next, &in, ev);
	r.act = smcx_close_acts(&in, &r.next, &r.err);
	return r;
}

#endif /* SMCX_CLOSE_H */
