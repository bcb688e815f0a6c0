// SPDX-License-Identifier: GPL-2.0
/*
 * Object counters and the debugfs directory /sys/kernel/debug/smcx:
 *
 *   objects   one "name count" line per object kind (the lab's leak check)
 *   stats     handshake statistics of the reader's network namespace
 *   socks     every smcx sock: state, fallback reason, peer diagnosis
 *
 * The counters are plain atomics: they change once per object lifetime, not
 * per packet.  debugfs is optional (the kernel may lack it or refuse), so a
 * failure to create the files is reported but never fails the module.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <net/net_namespace.h>

#include <smcx/wire.h>

#include "debugfs.h"
#include "sock.h"
#include "stats.h"

static atomic_long_t smcx_objs[SMCX_OBJ_MAX];

static const char *const smcx_obj_names[SMCX_OBJ_MAX] = {
	[SMCX_OBJ_SOCK]		= "socks",
	[SMCX_OBJ_CLCSOCK]	= "clcsocks",
	[SMCX_OBJ_PENDING_HS]	= "pending_handshakes",
	[SMCX_OBJ_LISTENER]	= "listeners",
	[SMCX_OBJ_LGR]		= "lgrs",
	[SMCX_OBJ_LINK]		= "links",
	[SMCX_OBJ_CONN]		= "conns",
	[SMCX_OBJ_BUF]		= "bufs",
	[SMCX_OBJ_MR]		= "mrs",
	[SMCX_OBJ_PD]		= "pds",
	[SMCX_OBJ_CQ]		= "cqs",
	[SMCX_OBJ_QP]		= "qps",
};

static struct dentry *smcx_dbg_dir;

void smcx_obj_inc(enum smcx_obj kind)
{
	atomic_long_inc(&smcx_objs[kind]);
}

void smcx_obj_dec(enum smcx_obj kind)
{
	/* a negative count is a double free in the making: say so loudly */
	if (atomic_long_dec_return(&smcx_objs[kind]) < 0)
		pr_err_ratelimited("object count %s went negative\n",
				   smcx_obj_names[kind]);
}

long smcx_obj_read(enum smcx_obj kind)
{
	return atomic_long_read(&smcx_objs[kind]);
}

/*
 * Module exit, after every layer has torn down: whatever is still counted
 * was never freed.  The lab fails a test on this line, which is how link
 * groups still lingering when a test ends are checked for leaks.
 */
void smcx_obj_check_leaks(void)
{
	long n;
	int i;

	for (i = 0; i < SMCX_OBJ_MAX; i++) {
		n = smcx_obj_read(i);
		if (n)
			pr_err("leaked at unload: %ld %s\n", n,
			       smcx_obj_names[i]);
	}
}

static int smcx_objects_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < SMCX_OBJ_MAX; i++)
		seq_printf(m, "%s %ld\n", smcx_obj_names[i], smcx_obj_read(i));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(smcx_objects);

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
	smcx_dbg_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(smcx_dbg_dir)) {
		pr_warn("no debugfs directory (%ld); object counters not shown\n",
			PTR_ERR(smcx_dbg_dir));
		smcx_dbg_dir = NULL;
		return 0;
	}
	debugfs_create_file("objects", 0444, smcx_dbg_dir, NULL,
			    &smcx_objects_fops);
	debugfs_create_file("stats", 0444, smcx_dbg_dir, NULL,
			    &smcx_stats_fops);
	debugfs_create_file("socks", 0444, smcx_dbg_dir, NULL,
			    &smcx_socks_fops);
	return 0;
}

void smcx_debugfs_exit(void)
{
	debugfs_remove(smcx_dbg_dir);
	smcx_dbg_dir = NULL;
}
