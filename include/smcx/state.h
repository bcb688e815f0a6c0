/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx pure logic: the states of an AF_SMC socket, and how the close
 * protocol of an SMC-R connection moves through them.
 *
 * ABI facts: sock_diag for AF_SMC reports a socket's state in diag_state
 * with Linux's numbers (enum smc_state, net/smc/smc.h), which smcss names.
 * The close states follow the three CDC connection-state flags (RFC 7609:
 * done writing, connection closed, abort) that each side sends once and
 * keeps in every later CDC:
 *
 *   PEERCLOSEWAIT1    we sent done writing (shutdown) or closed (close);
 *                     the peer may still write
 *   PEERCLOSEWAIT2    ... and the peer is done writing too
 *   APPCLOSEWAIT1     the peer is done writing or closed; we may still write
 *   APPCLOSEWAIT2     ... and we are done writing too
 *   APPFINCLOSEWAIT   the peer closed, after our done writing; the
 *                     application has not closed the socket yet
 *   PEERFINCLOSEWAIT  we closed; the peer is done writing but not closed
 *   PEERABORTWAIT     we sent an abort; the connection ends
 *   PROCESSABORT      the peer aborted; the application has not closed yet
 *   CLOSED            both closed, an abort ended it, or the link group went
 *
 * The state machine that drives the close protocol is smcx/close.h
 * (smcx_close_step(): every event below, our and the peer's wire bits,
 * the abort wait); the kernel runs on it (kernel/close.c) and reports the
 * state through sock_diag.
 *
 * Header-only C that compiles in the kernel (SMCX_KERNEL), C11 and C++20,
 * so the module, smcctl and the unit tests share the numbers.
 */
#ifndef SMCX_STATE_H
#define SMCX_STATE_H

#include "compat.h"

/* sk_state of an smcx sock and diag_state: Linux's numbers */
enum smcx_state {
	SMCX_ACTIVE		= 1,	/* connected (as SMC or as TCP) */
	SMCX_INIT		= 2,	/* fresh, bound, or connecting */
	SMCX_CLOSED		= 7,
	SMCX_LISTEN		= 10,
	/* orderly close of an SMC-R connection */
	SMCX_PEERCLOSEWAIT1	= 20,
	SMCX_PEERCLOSEWAIT2	= 21,
	SMCX_APPCLOSEWAIT1	= 22,
	SMCX_APPCLOSEWAIT2	= 23,
	SMCX_APPFINCLOSEWAIT	= 24,
	SMCX_PEERFINCLOSEWAIT	= 25,
	/* abortive close */
	SMCX_PEERABORTWAIT	= 26,
	SMCX_PROCESSABORT	= 27,
};

/* what happened to a connection */
enum smcx_close_ev {
	SMCX_CLOSE_EV_SHUT_WR,		/* shutdown(SHUT_WR): done writing */
	SMCX_CLOSE_EV_CLOSE,		/* close(): connection closed */
	SMCX_CLOSE_EV_ABORT,		/* we abort (close() or the peer silent) */
	SMCX_CLOSE_EV_PEER_DONE,	/* the peer's done writing arrived */
	SMCX_CLOSE_EV_PEER_CLOSED,	/* the peer's connection closed arrived */
	SMCX_CLOSE_EV_PEER_ABORT,	/* the peer's abort arrived */
	SMCX_CLOSE_EV_GONE,		/* link group gone or connection freed */
	/* smcx_close_step() (smcx/close.h) only, appended: */
	SMCX_CLOSE_EV_UP,		/* the join completed: INIT -> ACTIVE */
	SMCX_CLOSE_EV_DROP,		/* let go without an application: abort */
	SMCX_CLOSE_EV_VIOLATION,	/* the peer broke the protocol: abort */
	SMCX_CLOSE_EV_PEER_RESET,	/* RST on the CLC TCP socket */
	SMCX_CLOSE_EV_RESET,		/* a send after the peer closed */
	SMCX_CLOSE_EV_TIMEOUT,		/* close work's deadline passed */
	SMCX_CLOSE_EV_FREE,		/* the connection is freed */
	SMCX_CLOSE_EVS			/* the number of events */
};

#endif /* SMCX_STATE_H */
