// SPDX-License-Identifier: GPL-2.0
/*
 * Per-netns, per-CPU statistics (see stats.h).
 *
 * Lifetime: the per-CPU block of a namespace is allocated by the pernet init
 * hook and freed by the exit hook; every socket belongs to a live namespace
 * (a socket holds a reference on its netns), so the block is always there
 * when a socket counts into it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/percpu.h>
#include <linux/socket.h>
#include <linux/tcp.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include <smcx/wire.h>

#include "stats.h"

struct smcx_net {
	struct smcx_stats __percpu *stats[SMCX_TECHS];
};

static unsigned int smcx_net_id __read_mostly;

/* the SMC-R block: every counter that takes only a namespace */
static struct smcx_stats __percpu *smcx_net_stats(struct net *net)
{
	struct smcx_net *sn = net_generic(net, smcx_net_id);

	return sn->stats[SMCX_TECH_R];
}

/* slot of a reason code: its index in the codec's table, else the last slot */
static unsigned int smcx_rsn_slot(u32 reason)
{
	unsigned int i, n = smcx_decl_count();

	for (i = 0; i < n && i < SMCX_STATS_RSN_SLOTS - 1; i++)
		if (smcx_decl_at(i)->code == reason)
			return i;
	return SMCX_STATS_RSN_SLOTS - 1;
}

u32 smcx_stats_rsn_code(unsigned int i)
{
	const struct smcx_reason *r;

	if (i >= SMCX_STATS_RSN_SLOTS - 1)
		return 0;
	r = smcx_decl_at(i);
	return r ? r->code : 0;
}

void smcx_stats_hs_started(struct net *net, enum smcx_role role)
{
	this_cpu_inc(smcx_net_stats(net)->hs_started[role]);
}

void smcx_stats_hs_error(struct net *net, enum smcx_role role)
{
	this_cpu_inc(smcx_net_stats(net)->hs_errors[role]);
}

void smcx_stats_reuse_failed(struct net *net)
{
	this_cpu_inc(smcx_net_stats(net)->reuse_failed);
}

void smcx_stats_reuse_refused(struct net *net)
{
	this_cpu_inc(smcx_net_stats(net)->reuse_refused);
}

void smcx_stats_gid_not_peer(struct net *net)
{
	this_cpu_inc(smcx_net_stats(net)->gid_not_peer);
}

void smcx_stats_lgr_capped(struct net *net, int role)
{
	this_cpu_inc(smcx_net_stats(net)->lgr_capped[role]);
}

void smcx_stats_link(struct net *net, enum smcx_link_ev ev)
{
	BUILD_BUG_ON(sizeof_field(struct smcx_stats, link_ev) <
		     SMCX_LINK_EVS * sizeof(u64));
	this_cpu_inc(smcx_net_stats(net)->link_ev[ev]);
}

void smcx_stats_success_in(struct smcx_stats __percpu *s, enum smcx_role role,
			   u8 version)
{
	if (version >= SMCX_CLC_V2)
		this_cpu_inc(s->success_v2[role]);
	else
		this_cpu_inc(s->success_v1[role]);
}

void smcx_stats_fallback(struct net *net, enum smcx_role role, u32 reason)
{
	struct smcx_stats __percpu *s = smcx_net_stats(net);

	this_cpu_inc(s->fallback[role]);
	this_cpu_inc(s->fallback_rsn[role][smcx_rsn_slot(reason)]);
}

struct smcx_stats __percpu *smcx_stats_of(struct net *net)
{
	return smcx_net_stats(net);
}

struct smcx_stats __percpu *smcx_stats_of_tech(struct net *net,
					       enum smcx_tech tech)
{
	struct smcx_net *sn = net_generic(net, smcx_net_id);

	return sn->stats[tech];
}

void smcx_stats_buf_get(struct smcx_stats __percpu *s, bool rmb, u32 size,
			bool reused, bool dgrade)
{
	enum smcx_dir dir = rmb ? SMCX_RX : SMCX_TX;

	if (dgrade)
		this_cpu_inc(s->buf[dir].dgrade);
	if (reused)
		this_cpu_inc(s->buf[dir].reuse);
	else
		this_cpu_inc(s->buf[dir].alloc);
	this_cpu_inc(s->bufsize[dir][smcx_stats_bucket(size)]);
	this_cpu_add(s->buf_usage[dir], size);
}

void smcx_stats_buf_put(struct smcx_stats __percpu *s, bool rmb, u32 size)
{
	this_cpu_sub(s->buf_usage[rmb ? SMCX_RX : SMCX_TX], (u64)size);
}

void smcx_stats_rmb_retire(struct smcx_stats __percpu *s)
{
	this_cpu_inc(s->rmb_retire);
}

void smcx_stats_splice(struct smcx_stats __percpu *s, bool smcr)
{
	if (smcr)
		this_cpu_inc(s->splice_cnt);
}

void smcx_stats_busy_poll(struct net *net, bool hit)
{
	if (hit)
		this_cpu_inc(smcx_net_stats(net)->busy_poll_hit);
	else
		this_cpu_inc(smcx_net_stats(net)->busy_poll_miss);
}

/*
 * Mainline's meaning: TCP_NODELAY counts when it is switched on and TCP_CORK
 * when it is released, the two settings that push queued data out; only on a
 * connection that runs over SMC and only when TCP took the option.
 */
void smcx_stats_sockopt(struct smcx_stats __percpu *s, bool smcr, int level,
			int optname, sockptr_t optval, unsigned int optlen,
			int rc)
{
	int val;

	if (!smcr || rc || level != SOL_TCP ||
	    (optname != TCP_NODELAY && optname != TCP_CORK) ||
	    optlen < sizeof(int) || copy_from_sockptr(&val, optval, sizeof(val)))
		return;
	if (optname == TCP_NODELAY && val)
		this_cpu_inc(s->ndly_cnt);
	else if (optname == TCP_CORK && !val)
		this_cpu_inc(s->cork_cnt);
}

/*
 * struct smcx_stats is nothing but u64 counters, so all CPUs fold as arrays
 * of u64 and no field can be forgotten here.  The usage gauges add up right
 * even when one CPU added and another subtracted (modulo 2^64).
 */
void smcx_stats_fold_tech(struct net *net, enum smcx_tech tech,
			  struct smcx_stats *out)
{
	struct smcx_stats __percpu *s = smcx_stats_of_tech(net, tech);
	const unsigned int n = sizeof(*out) / sizeof(u64);
	u64 *o = (u64 *)out;
	unsigned int i;
	int cpu;

	BUILD_BUG_ON(sizeof(*out) % sizeof(u64));
	memset(out, 0, sizeof(*out));
	for_each_possible_cpu(cpu) {
		const u64 *c = (const u64 *)per_cpu_ptr(s, cpu);

		for (i = 0; i < n; i++)
			o[i] += READ_ONCE(c[i]);
	}
}

void smcx_stats_fold(struct net *net, struct smcx_stats *out)
{
	smcx_stats_fold_tech(net, SMCX_TECH_R, out);
}

static void smcx_stats_net_free(struct smcx_net *sn)
{
	unsigned int i;

	for (i = 0; i < SMCX_TECHS; i++) {
		free_percpu(sn->stats[i]);	/* NULL is fine */
		sn->stats[i] = NULL;
	}
}

static __net_init int smcx_stats_net_init(struct net *net)
{
	struct smcx_net *sn = net_generic(net, smcx_net_id);
	unsigned int i;

	for (i = 0; i < SMCX_TECHS; i++) {
		sn->stats[i] = alloc_percpu(struct smcx_stats);
		if (!sn->stats[i]) {
			smcx_stats_net_free(sn);
			return -ENOMEM;
		}
	}
	return 0;
}

static __net_exit void smcx_stats_net_exit(struct net *net)
{
	smcx_stats_net_free(net_generic(net, smcx_net_id));
}

static struct pernet_operations smcx_stats_net_ops = {
	.init = smcx_stats_net_init,
	.exit = smcx_stats_net_exit,
	.id = &smcx_net_id,
	.size = sizeof(struct smcx_net),
};

int smcx_stats_init(void)
{
	BUILD_BUG_ON(sizeof_field(struct smcx_stats, wwi_ev) <
		     SMCX_WWI_EVS * sizeof(u64));
	BUILD_BUG_ON(sizeof_field(struct smcx_stats, kick_ev) <
		     SMCX_KICK_EVS * sizeof(u64));
	/* the reason table must fit, with one slot to spare for "other" */
	if (smcx_decl_count() >= SMCX_STATS_RSN_SLOTS) {
		pr_err("reason table (%u) larger than the statistics (%u)\n",
		       smcx_decl_count(), SMCX_STATS_RSN_SLOTS - 1);
		return -EINVAL;
	}
	return register_pernet_subsys(&smcx_stats_net_ops);
}

void smcx_stats_exit(void)
{
	unregister_pernet_subsys(&smcx_stats_net_ops);
}
