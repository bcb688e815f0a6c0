// SPDX-License-Identifier: GPL-2.0
/*
 * Views in the debugfs directory /sys/kernel/debug/smcx (obj.c owns it and
 * its "objects" file):
 *
 *   stats     handshake statistics of the reader's network namespace
 *   socks     every smcx sock: state, fallback reason, peer diagnosis
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
	for (i = 0; i < SMCX_STATS_RSN_SLOTS; i++) {
		u32 code = smcx_stats_rsn_code(i);
		const char *name = code ? smcx_decl_name(code) : "OTHER";

		if (s->fallback_rsn[r][i])
			seq_printf(m, "%s_fallback_%s %llu\n", role,
				   name ? name : "OTHER", s->fallback_rsn[r][i]);
	}
}

static int smcx_socks_show(struct seq_file *m, void *v)
{
	smcx_sock_show_all(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(smcx_socks);

/* the namespace of the reading task, so a test in a netns sees its own */
static int smcx_stats_show(struct seq_file *m, void *v)
{
	struct smcx_stats *s;
	struct net *net;

	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	net = get_net(current->nsproxy->net_ns);
	smcx_stats_fold(net, s);
	put_net(net);
	smcx_stats_show_role(m, "clnt", s, SMCX_CLNT);
	smcx_stats_show_role(m, "srv", s, SMCX_SRV);
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
