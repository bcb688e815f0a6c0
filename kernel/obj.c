// SPDX-License-Identifier: GPL-2.0
/*
 * Object counters (see obj.h) and the module's debugfs directory with the
 * counters' own file:
 *
 *   objects   one "name count" line per object kind (the lab's leak check)
 *
 * The counters are plain atomics: they change once per object lifetime, not
 * per packet.  debugfs is optional (the kernel may lack it or refuse), so a
 * failure to create the files is reported but never fails the module.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/workqueue.h>

#include "obj.h"

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
	[SMCX_OBJ_DMB]		= "dmbs",
};

static struct dentry *smcx_dbg_dir;
struct workqueue_struct *smcx_wq;

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

static long smcx_obj_read(enum smcx_obj kind)
{
	return atomic_long_read(&smcx_objs[kind]);
}

/*
 * Module exit, after every layer has torn down: whatever is still counted
 * was never freed.  The lab fails a test on this line, which is how link
 * groups still lingering when a test ends are checked for leaks.
 */
static void smcx_obj_check_leaks(void)
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

struct dentry *smcx_debugfs_dir(void)
{
	return smcx_dbg_dir;
}

int smcx_obj_init(void)
{
	/* not WQ_MEM_RECLAIM: nothing on it frees memory for the allocator */
	smcx_wq = alloc_workqueue("smcx", WQ_PERCPU, 0);
	if (!smcx_wq)
		return -ENOMEM;
	smcx_dbg_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(smcx_dbg_dir)) {
		pr_warn("no debugfs directory (%ld); object counters not shown\n",
			PTR_ERR(smcx_dbg_dir));
		smcx_dbg_dir = NULL;
		return 0;
	}
	debugfs_create_file("objects", 0444, smcx_dbg_dir, NULL,
			    &smcx_objects_fops);
	return 0;
}

void smcx_obj_exit(void)
{
	/* drains: an item still queued or running finishes first */
	destroy_workqueue(smcx_wq);
	smcx_wq = NULL;
	smcx_obj_check_leaks();
	debugfs_remove(smcx_dbg_dir);
	smcx_dbg_dir = NULL;
}
