// SPDX-License-Identifier: GPL-2.0
/*
 * Views in the debugfs directory /sys/kernel/debug/smcx (obj.c owns it and
 * its "objects" file):
 *
 *   stats     handshake statistics of the reader's network namespace: the
 *             SMC-R block's counters (stats.h) unprefixed, then the SMC-D
 *             block's successes and data path as smcd_*
 *   socks     the smcx socks of the reader's network namespace: state,
 *             fallback reason, peer diagnosis, the connection's cursors
 *
 * Both show the namespace of the reading task, as the netlink dumps do, so
 * a test in a netns sees its own.  The directory is root's (mode 0700 of
 * the debugfs mount); these files add no access of their own.
 *
 * debugfs is optional (the kernel may lack it or refuse): without the
 * directory the files are not made, and that never fails the module.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <net/net_namespace.h>

#include <smcx/wire.h>

#include "conn.h"
#include "debugfs.h"
#include "obj.h"
#include "sock.h"
#include "stats.h"

static struct dentry *smcx_dbg_stats;
static struct dentry *smcx_dbg_socks;

static void smcx_stats_show_role(struct seq_file *m, const char *role,
				 const struct smcx_stats *s, int r)
{
	unsigned int i;

	seq_printf(m, "%s_hs_started %llu\n", role, s->hs_started[r]);
	seq_printf(m, "%s_hs_errors %llu\n", role, s->hs_errors[r]);
	seq_printf(m, "%s_success_v1 %llu\n", role, s->success_v1[r]);
	seq_printf(m, "%s_success_v2 %llu\n", role, s->success_v2[r]);
	seq_printf(m, "%s_fallback %llu\n", role, s->fallback[r]);
	seq_printf(m, "%s_lgr_capped %llu\n", role, s->lgr_capped[r]);
	for (i = 0; i < SMCX_STATS_RSN_SLOTS; i++) {
		u32 code = smcx_stats_rsn_code(i);
		const char *name = code ? smcx_decl_name(code) : "OTHER";

		if (s->fallback_rsn[r][i])
			seq_printf(m, "%s_fallback_%s %llu\n", role,
				   name ? name : "OTHER", s->fallback_rsn[r][i]);
	}
}

/* socks taken per smcx_sock_collect() call */
#define SMCX_DBG_SOCKS_BATCH	16

/* one sock of hash @h (0: AF_SMC/SMCPROTO_SMC and AF_INET, 1: the v6 ones) */
static void smcx_socks_show_one(struct seq_file *m, struct sock *sk,
				unsigned int h)
{
	struct smcx_sock *smc = smcx_sk(sk);
	struct smcx_conn *conn;

	seq_printf(m, "ino %llu %s state %d hs %d %s rsn 0x%08x peer 0x%08x\n",
		   (unsigned long long)sock_i_ino(sk),	/* u64 since 7.x */
		   sk->sk_family == AF_INET ? "inet" :
		   sk->sk_family == AF_INET6 ? "inet6" :
		   h ? "smc6" : "smc",
		   READ_ONCE(sk->sk_state), READ_ONCE(smc->hs),
		   READ_ONCE(smc->grafted) ? "tcp" :
		   READ_ONCE(smc->fallback) ? "fallback" : "smc",
		   READ_ONCE(smc->fallback_rsn), READ_ONCE(smc->peer_diag));
	/* the connection's memory goes with the sock, which we hold */
	conn = READ_ONCE(smc->conn);
	if (conn)
		smcx_conn_show(m, conn);
}

/*
 * The reader's namespace's socks, a batch at a time: each held while it is
 * shown (smcx_sock_collect()), none under the hash lock.  Socks that come
 * or go meanwhile may be missed or shown twice, as in any such listing.
 */
static int smcx_socks_show(struct seq_file *m, void *v)
{
	struct sock *sks[SMCX_DBG_SOCKS_BATCH];
	unsigned int h, i, n, skip;
	struct net *net;

	net = get_net(current->nsproxy->net_ns);
	for (h = 0; h < 2; h++) {
		skip = 0;
		do {
			n = smcx_sock_collect(net, h, skip, sks, ARRAY_SIZE(sks));
			for (i = 0; i < n; i++) {
				smcx_socks_show_one(m, sks[i], h);
				sock_put(sks[i]);
			}
			skip += n;
		} while (n == ARRAY_SIZE(sks));
	}
	put_net(net);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(smcx_socks);

/* the SMC-D block: what counts there (stats.h), as smcd_* */
static void smcx_stats_show_d(struct seq_file *m, const struct smcx_stats *d)
{
	seq_printf(m, "smcd_clnt_success_v1 %llu\n", d->success_v1[SMCX_CLNT]);
	seq_printf(m, "smcd_clnt_success_v2 %llu\n", d->success_v2[SMCX_CLNT]);
	seq_printf(m, "smcd_srv_success_v1 %llu\n", d->success_v1[SMCX_SRV]);
	seq_printf(m, "smcd_srv_success_v2 %llu\n", d->success_v2[SMCX_SRV]);
	seq_printf(m, "smcd_rx_bytes %llu\n", d->rx_bytes);
	seq_printf(m, "smcd_tx_bytes %llu\n", d->tx_bytes);
	seq_printf(m, "smcd_rx_calls %llu\n", d->rx_cnt);
	seq_printf(m, "smcd_tx_calls %llu\n", d->tx_cnt);
	seq_printf(m, "smcd_tx_data_pushes %llu\n", d->tx_data_push);
	seq_printf(m, "smcd_tx_corked %llu\n", d->tx_corked);
	seq_printf(m, "smcd_rmb_retired %llu\n", d->rmb_retire);
}

static int smcx_stats_show(struct seq_file *m, void *v)
{
	struct smcx_stats *s, *d;
	struct net *net;

	s = kmalloc_array(SMCX_TECHS, sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	d = &s[SMCX_TECH_D];
	net = get_net(current->nsproxy->net_ns);
	smcx_stats_fold_tech(net, SMCX_TECH_R, s);
	smcx_stats_fold_tech(net, SMCX_TECH_D, d);
	put_net(net);
	smcx_stats_show_role(m, "clnt", s, SMCX_CLNT);
	smcx_stats_show_role(m, "srv", s, SMCX_SRV);
	seq_printf(m, "srv_reuse_failed %llu\n", s->reuse_failed);
	seq_printf(m, "srv_reuse_refused %llu\n", s->reuse_refused);
	seq_printf(m, "srv_gid_not_peer %llu\n", s->gid_not_peer);
	seq_printf(m, "link_added %llu\n", s->link_ev[SMCX_LINK_ADDED]);
	seq_printf(m, "link_add_failed %llu\n",
		   s->link_ev[SMCX_LINK_ADD_FAILED]);
	seq_printf(m, "link_add_rejected %llu\n",
		   s->link_ev[SMCX_LINK_REJECTED]);
	seq_printf(m, "link_down %llu\n", s->link_ev[SMCX_LINK_DOWN]);
	seq_printf(m, "link_testlink_timeouts %llu\n",
		   s->link_ev[SMCX_LINK_TESTLINK_TMO]);
	seq_printf(m, "link_failovers %llu\n", s->link_ev[SMCX_LINK_FAILOVER]);
	seq_printf(m, "link_clear_held %llu\n",
		   s->link_ev[SMCX_LINK_CLEAR_HELD]);
	seq_printf(m, "rx_busy_poll_hit %llu\n", s->busy_poll_hit);
	seq_printf(m, "rx_busy_poll_miss %llu\n", s->busy_poll_miss);
	seq_printf(m, "tx_data_pushes %llu\n", s->tx_data_push);
	seq_printf(m, "tx_corked %llu\n", s->tx_corked);
	seq_printf(m, "wwi_groups %llu\n", s->wwi_ev[SMCX_WWI_GROUPS]);
	seq_printf(m, "wwi_tx %llu\n", s->wwi_ev[SMCX_WWI_TX]);
	seq_printf(m, "wwi_rx %llu\n", s->wwi_ev[SMCX_WWI_RX]);
	seq_printf(m, "wwi_stale %llu\n", s->wwi_ev[SMCX_WWI_STALE]);
	seq_printf(m, "tx_kick_bh %llu\n", s->kick_ev[SMCX_KICK_BH]);
	seq_printf(m, "tx_kick_owner %llu\n", s->kick_ev[SMCX_KICK_OWNER]);
	seq_printf(m, "tx_kick_work %llu\n", s->kick_ev[SMCX_KICK_WORK]);
	seq_printf(m, "rmb_retired %llu\n", s->rmb_retire);
	smcx_stats_show_d(m, d);
	kfree(s);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(smcx_stats);

int smcx_debugfs_init(void)
{
	struct dentry *dir = smcx_debugfs_dir();

	if (!dir)
		return 0;
	smcx_dbg_stats = debugfs_create_file("stats", 0444, dir, NULL,
					     &smcx_stats_fops);
	smcx_dbg_socks = debugfs_create_file("socks", 0444, dir, NULL,
					     &smcx_socks_fops);
	return 0;
}

void smcx_debugfs_exit(void)
{
	debugfs_remove(smcx_dbg_socks);
	debugfs_remove(smcx_dbg_stats);
	smcx_dbg_socks = NULL;
	smcx_dbg_stats = NULL;
}
