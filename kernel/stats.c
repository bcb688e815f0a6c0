// SPDX-License-Identifier: GPL-2.0
/*
 * Per-netns, per-CPU handshake statistics (see stats.h).
 *
 * Lifetime: the per-CPU block of a namespace is allocated by the pernet init
 * hook and freed by the exit hook; every socket belongs to a live namespace
 * (a socket holds a reference on its netns), so the block is always there
 * when a socket counts into it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/percpu.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include <smcx/wire.h>

#include "stats.h"

struct smcx_net {
	struct smcx_stats __percpu *stats;
};

static unsigned int smcx_net_id __read_mostly;

static struct smcx_stats __percpu *smcx_net_stats(struct net *net)
{
	struct smcx_net *sn = net_generic(net, smcx_net_id);

	return sn->stats;
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

void smcx_stats_success(struct net *net, enum smcx_role role, u8 version)
{
	if (version >= SMCX_CLC_V2)
		this_cpu_inc(smcx_net_stats(net)->success_v2[role]);
	else
		this_cpu_inc(smcx_net_stats(net)->success_v1[role]);
}

void smcx_stats_fallback(struct net *net, enum smcx_role role, u32 reason)
{
	struct smcx_stats __percpu *s = smcx_net_stats(net);

	this_cpu_inc(s->fallback[role]);
	this_cpu_inc(s->fallback_rsn[role][smcx_rsn_slot(reason)]);
}

void smcx_stats_tx(struct net *net, size_t bytes)
{
	struct smcx_stats __percpu *s = smcx_net_stats(net);

	this_cpu_add(s->tx_bytes, bytes);
	this_cpu_inc(s->tx_cnt);
}

void smcx_stats_rx(struct net *net, size_t bytes)
{
	struct smcx_stats __percpu *s = smcx_net_stats(net);

	this_cpu_add(s->rx_bytes, bytes);
	this_cpu_inc(s->rx_cnt);
}

void smcx_stats_fold(struct net *net, struct smcx_stats *out)
{
	struct smcx_stats __percpu *s = smcx_net_stats(net);
	unsigned int r, i;
	int cpu;

	memset(out, 0, sizeof(*out));
	for_each_possible_cpu(cpu) {
		const struct smcx_stats *c = per_cpu_ptr(s, cpu);

		out->rx_bytes += READ_ONCE(c->rx_bytes);
		out->tx_bytes += READ_ONCE(c->tx_bytes);
		out->rx_cnt += READ_ONCE(c->rx_cnt);
		out->tx_cnt += READ_ONCE(c->tx_cnt);

		for (r = 0; r < SMCX_ROLES; r++) {
			out->hs_started[r] += READ_ONCE(c->hs_started[r]);
			out->hs_errors[r] += READ_ONCE(c->hs_errors[r]);
			out->success_v1[r] += READ_ONCE(c->success_v1[r]);
			out->success_v2[r] += READ_ONCE(c->success_v2[r]);
			out->fallback[r] += READ_ONCE(c->fallback[r]);
			for (i = 0; i < SMCX_STATS_RSN_SLOTS; i++)
				out->fallback_rsn[r][i] +=
					READ_ONCE(c->fallback_rsn[r][i]);
		}
	}
}

static __net_init int smcx_stats_net_init(struct net *net)
{
	struct smcx_net *sn = net_generic(net, smcx_net_id);

	sn->stats = alloc_percpu(struct smcx_stats);
	return sn->stats ? 0 : -ENOMEM;
}

static __net_exit void smcx_stats_net_exit(struct net *net)
{
	struct smcx_net *sn = net_generic(net, smcx_net_id);

	free_percpu(sn->stats);
	sn->stats = NULL;
}

static struct pernet_operations smcx_stats_net_ops = {
	.init = smcx_stats_net_init,
	.exit = smcx_stats_net_exit,
	.id = &smcx_net_id,
	.size = sizeof(struct smcx_net),
};

int smcx_stats_init(void)
{
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
