/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The handshake flight recorder (hsrec.c): per network namespace, the most
 * recent handshakes of both roles, whatever their outcome, for
 * `smcctl why` (docs/why.md).
 *
 * Lifetime.  A record is made when a handshake starts (smcx_hsrec_new())
 * and belongs to that handshake alone: the handshake work fills it without
 * a lock, because nothing else touches it until smcx_hsrec_commit() hands
 * it to the namespace's ring, which owns it from then on (and frees it when
 * newer ones push it out, the size changes, or the namespace goes).  A
 * handshake that never ends normally frees its record with
 * smcx_hsrec_free().  Readers get copies (smcx_hsrec_get()).
 */
#ifndef SMCX_HSREC_H
#define SMCX_HSREC_H

#include <linux/sched.h>
#include <linux/types.h>
#include <linux/uidgid.h>

#include <smcx/wire.h>

struct net;

#define SMCX_HSREC_MSGS		8	/* CLC messages kept per handshake */
#define SMCX_HSREC_EIDS		4	/* EIDs of the Proposal kept */
#define SMCX_HSREC_DEV_LEN	64	/* IB_DEVICE_NAME_MAX */

/* one CLC message, as its header and (Decline) its reason say */
struct smcx_hsrec_msg {
	u32 usec;			/* since the record's start */
	u32 diag;			/* Decline: its reason code */
	u16 len;
	u8 type;
	u8 out;				/* 1: ours */
	u8 version;
	u8 path;			/* typev1 */
	u8 path2;			/* typev2 (a Proposal's v2 type) */
	u8 first;			/* the first-contact flag */
};

struct smcx_hsrec {
	u64 seq;			/* set by the commit */
	u64 time_ns;			/* start, wall clock */
	u64 start_ns;			/* start, monotonic */
	u32 usec;			/* start to the commit */
	u32 reason;			/* our fallback reason, 0: none */
	u32 peer_reason;		/* the peer's Decline */
	u32 err;			/* a failure's positive errno */
	u32 netns;
	u32 lgr_id;
	u32 policy_id;
	kuid_t uid;
	u16 lport, pport;		/* host order */
	u8 role, result, family;
	u8 syn_sent, syn_seen;
	u8 offer;			/* SMCX_HS_OFFER_* of the Proposal */
	u8 first, ibport, version, release;
	u8 max_conns, max_links, wwi;
	u8 nmsgs, lost, neids;
	u8 laddr[16], paddr[16];	/* IPv4 v4-mapped */
	u8 gid[SMCX_GID_LEN], peer_gid[SMCX_GID_LEN];
	char comm[TASK_COMM_LEN];
	char dev[SMCX_HSREC_DEV_LEN];
	u8 eid[SMCX_EID_LEN];		/* agreed */
	u8 eids[SMCX_HSREC_EIDS][SMCX_EID_LEN];	/* the Proposal's */
	struct smcx_hsrec_msg msgs[SMCX_HSREC_MSGS];
};

/* a record for a handshake of @role starting now; NULL: recorder off */
struct smcx_hsrec *smcx_hsrec_new(struct net *net, int role);
void smcx_hsrec_free(struct smcx_hsrec *r);
/* a CLC message of @len bytes at @buf, @out: ours; @r may be NULL */
void smcx_hsrec_msg(struct smcx_hsrec *r, bool out, const u8 *buf, int len);
/* what a Proposal (ours or the peer's) offers */
void smcx_hsrec_proposal(struct smcx_hsrec *r,
			 const struct smcx_clc_proposal *p);
/* into @net's ring (or freed when the recorder is off); @r may be NULL */
void smcx_hsrec_commit(struct net *net, struct smcx_hsrec *r);
/* a copy of the oldest record after @seq: 0, or -ENOENT */
int smcx_hsrec_get(struct net *net, u64 seq, struct smcx_hsrec *out);
void smcx_hsrec_flush(struct net *net);

int smcx_hsrec_init(void);
void smcx_hsrec_exit(void);

#endif /* SMCX_HSREC_H */
