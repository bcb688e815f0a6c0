// SPDX-License-Identifier: GPL-2.0
/*
 * The handshake flight recorder (hsrec.h): per namespace, a ring of the
 * last net.smc.smcx_hs_records handshakes.
 *
 * The ring is an array of record pointers, allocated at the first commit
 * and again whenever the sysctl changed (the old records go: a resize is
 * an operator's act and rare).  ring->lock, a leaf spinlock, guards the
 * array and its indices; records are allocated and freed outside it.
 *
 * Cost: a handshake that is recorded pays one allocation of about 700
 * bytes, a few stores per CLC message, and one locked pointer store at
 * the end.  docs/why.md gives the measured figure.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include <smcx/wire.h>
#include <smcx/wwi.h>

#include "hsrec.h"
#include "sysctl.h"
#include "uapi.h"

struct smcx_hsring {
	spinlock_t lock;		/* slot, cap, n, head, seq */
	struct smcx_hsrec **slot;
	u32 cap;			/* slots of @slot */
	u32 n;				/* records held */
	u32 head;			/* the next slot written */
	u64 seq;			/* the last record's */
};

static unsigned int smcx_hsrec_id __read_mostly;

static struct smcx_hsring *smcx_hsring(struct net *net)
{
	return net_generic(net, smcx_hsrec_id);
}

static u32 smcx_hsrec_want(struct net *net)
{
	return clamp_t(int, READ_ONCE(smcx_sysctl(net)->smcx_hs_records), 0,
		       SMCX_HSREC_MAX);
}

struct smcx_hsrec *smcx_hsrec_new(struct net *net, int role)
{
	struct smcx_hsrec *r;

	if (!smcx_hsrec_want(net))
		return NULL;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return NULL;
	r->time_ns = ktime_get_real_ns();
	r->start_ns = ktime_get_ns();
	r->role = role;
	r->netns = net->ns.inum;
	r->result = SMCX_HS_FAILED;
	return r;
}

void smcx_hsrec_free(struct smcx_hsrec *r)
{
	kfree(r);
}

static u32 smcx_hsrec_usec(const struct smcx_hsrec *r)
{
	u64 us = div_u64(ktime_get_ns() - r->start_ns, NSEC_PER_USEC);

	return min_t(u64, us, U32_MAX);
}

void smcx_hsrec_msg(struct smcx_hsrec *r, bool out, const u8 *buf, int len)
{
	struct smcx_clc_decline d;
	struct smcx_clc_hdr h;
	struct smcx_hsrec_msg *m;

	if (!r || len < SMCX_CLC_HDR_LEN)
		return;
	if (r->nmsgs == SMCX_HSREC_MSGS) {
		r->lost++;
		return;
	}
	/* the framing took it (clc_io.c): the header decodes */
	if (smcx_clc_peek(buf, len, &h))
		return;
	m = &r->msgs[r->nmsgs++];
	m->usec = smcx_hsrec_usec(r);
	m->len = h.length;
	m->type = h.type;
	m->out = out;
	m->version = h.version;
	m->path = h.typev1;
	m->path2 = h.typev2;
	if (h.type != SMCX_CLC_PROPOSAL)
		m->first = !!(h.typev2 & SMCX_CLC_FIRST_CONTACT);
	if (h.type == SMCX_CLC_DECLINE &&
	    !smcx_clc_decode_decline(buf, len, &d,
				     SMCX_WIRE_LAX_RSVD | SMCX_WIRE_LAX_TEXT)) {
		m->diag = d.diag;
		if (!out)
			r->peer_reason = d.diag;
	}
	if ((h.type == SMCX_CLC_ACCEPT || h.type == SMCX_CLC_CONFIRM) &&
	    m->first)
		r->first = 1;
}

void smcx_hsrec_proposal(struct smcx_hsrec *r,
			 const struct smcx_clc_proposal *p)
{
	u8 v1 = p->hdr.typev1, v2 = p->hdr.typev2, o = 0;
	unsigned int i;

	if (!r)
		return;
	if (v1 != SMCX_TYPE_N)
		o |= SMCX_HS_OFFER_V1;
	if (p->hdr.version >= SMCX_CLC_V2 && v2 != SMCX_TYPE_N)
		o |= SMCX_HS_OFFER_V2;
	if ((v1 != SMCX_TYPE_N && smcx_type_has_r(v1)) ||
	    (o & SMCX_HS_OFFER_V2 && smcx_type_has_r(v2)))
		o |= SMCX_HS_OFFER_R;
	if ((v1 != SMCX_TYPE_N && smcx_type_has_d(v1)) ||
	    (o & SMCX_HS_OFFER_V2 && smcx_type_has_d(v2)))
		o |= SMCX_HS_OFFER_D;
	if (p->ipv6_cnt)
		o |= SMCX_HS_OFFER_IPV6;
	if (smcx_wwi_prop_offers(p->vendor_oui, p->vendor_exp))
		o |= SMCX_HS_OFFER_WWI;
	r->offer = o;
	r->neids = min_t(u8, p->eid_cnt, SMCX_HSREC_EIDS);
	for (i = 0; i < r->neids; i++)
		memcpy(r->eids[i], p->user_eid[i], SMCX_EID_LEN);
}

/* a ring of @want slots (0: none); a resize drops what the old one held */
static int smcx_hsring_fit(struct smcx_hsring *ring, u32 want)
{
	struct smcx_hsrec **slot = NULL, **old;
	u32 i, cap;

	if (want) {
		slot = kcalloc(want, sizeof(*slot), GFP_KERNEL);
		if (!slot)
			return -ENOMEM;
	}
	spin_lock_bh(&ring->lock);
	old = ring->slot;
	cap = ring->cap;
	ring->slot = slot;
	ring->cap = want;
	ring->n = 0;
	ring->head = 0;
	spin_unlock_bh(&ring->lock);
	for (i = 0; old && i < cap; i++)
		kfree(old[i]);
	kfree(old);
	return 0;
}

void smcx_hsrec_commit(struct net *net, struct smcx_hsrec *r)
{
	struct smcx_hsring *ring = smcx_hsring(net);
	u32 want = smcx_hsrec_want(net);
	struct smcx_hsrec *gone = NULL;

	if (!r)
		return;
	r->usec = smcx_hsrec_usec(r);
	/* no memory for a new size: the old ring goes on */
	if (READ_ONCE(ring->cap) != want)
		smcx_hsring_fit(ring, want);
	spin_lock_bh(&ring->lock);
	if (!ring->cap) {
		gone = r;
	} else {
		r->seq = ++ring->seq;
		gone = ring->slot[ring->head];
		ring->slot[ring->head] = r;
		ring->head = (ring->head + 1) % ring->cap;
		if (ring->n < ring->cap)
			ring->n++;
	}
	spin_unlock_bh(&ring->lock);
	kfree(gone);
}

int smcx_hsrec_get(struct net *net, u64 seq, struct smcx_hsrec *out)
{
	struct smcx_hsring *ring = smcx_hsring(net);
	u32 want = smcx_hsrec_want(net);
	int rc = -ENOENT;
	u32 i, at;

	/* a ring the sysctl shrank (or turned off) shows what it says now */
	if (want < READ_ONCE(ring->cap))
		smcx_hsring_fit(ring, want);
	spin_lock_bh(&ring->lock);
	for (i = 0; i < ring->n; i++) {
		/* oldest first */
		at = (ring->head + ring->cap - ring->n + i) % ring->cap;
		if (ring->slot[at]->seq > seq) {
			*out = *ring->slot[at];
			rc = 0;
			break;
		}
	}
	spin_unlock_bh(&ring->lock);
	return rc;
}

void smcx_hsrec_flush(struct net *net)
{
	struct smcx_hsring *ring = smcx_hsring(net);

	smcx_hsring_fit(ring, 0);
}

static int __net_init smcx_hsrec_net_init(struct net *net)
{
	struct smcx_hsring *ring = smcx_hsring(net);

	spin_lock_init(&ring->lock);
	return 0;
}

static void __net_exit smcx_hsrec_net_exit(struct net *net)
{
	smcx_hsring_fit(smcx_hsring(net), 0);
}

static struct pernet_operations smcx_hsrec_net_ops = {
	.init = smcx_hsrec_net_init,
	.exit = smcx_hsrec_net_exit,
	.id = &smcx_hsrec_id,
	.size = sizeof(struct smcx_hsring),
};

int smcx_hsrec_init(void)
{
	return register_pernet_subsys(&smcx_hsrec_net_ops);
}

void smcx_hsrec_exit(void)
{
	unregister_pernet_subsys(&smcx_hsrec_net_ops);
}
