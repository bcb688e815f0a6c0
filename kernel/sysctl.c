// SPDX-License-Identifier: GPL-2.0
/*
 * net.smc.* sysctls, one set per network namespace.
 *
 * Names, defaults and ranges are mainline's (net/smc of 6.12), so scripts
 * written for smc.ko work unchanged; tcp2smc is ours (0/1, default 0), and
 * so is smcx_write_imm (0/1, default 1: new link groups with an smcx peer
 * send data as RDMA WRITE WITH IMMEDIATE, docs/wire.md), and so is
 * smcx_loopback (0/1, default 1: SMC-D over the loopback device between
 * sockets of this host, docs/loopback.md).
 *
 * Lifetime: the values live in the namespace's net_generic block, which the
 * pernet core allocates before our init and frees after our exit.  Init
 * fills in the defaults and registers a private copy of the table whose
 * .data pointers point into that block; exit unregisters it (which waits
 * for running handlers) and frees the copy.  A write that fails (bad number,
 * out of range) leaves the value untouched: the handlers parse into a
 * scratch int and store only a value that passed every check.
 *
 * Permissions are the net sysctl core's, as for mainline's table (mode
 * 0644): the root of the user namespace that owns a network namespace (or
 * whoever has CAP_NET_ADMIN over it) writes that namespace's values, so a
 * container's root sets its own and nobody else's; everyone reads.  The
 * copy of the table is charged to the task that creates the namespace.
 * One difference (review N6): in a namespace owned by another user
 * namespace than the initial one, rmem/wmem take at most the initial
 * namespace's net.core.rmem_max/wmem_max (the most any user gets with
 * SO_RCVBUF/SO_SNDBUF), and a larger value is refused with -EPERM;
 * mainline takes up to INT_MAX / 2 there, which makes every SMC socket of
 * the namespace ask for 512 MiB buffers, bypassing rmem_max.
 *
 * Registering net/smc in init_net fails when another provider (smc.ko)
 * already owns the directory; module init then unwinds, as it would a
 * moment later at AF_SMC registration.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/sock.h>

#include "sysctl.h"

struct smcx_sysctl_net {
	struct smcx_sysctl val;
	bool capped;			/* not owned by init_user_ns: N6 */
	struct ctl_table_header *hdr;
	struct ctl_table *table;	/* this namespace's copy */
};

static unsigned int smcx_sysctl_id __read_mostly;
static bool smcx_tcp2smc_avail;

static int smcx_zero;
static int smcx_one = 1;
static int smcx_buf_min = SMCX_BUF_MIN_SIZE;
static int smcx_buf_max = INT_MAX / 2;
static int smcx_links_min = SMCX_V2X_LINKS_MIN;
static int smcx_links_max = SMCX_V2X_LINKS_MAX;
static int smcx_conns_min = SMCX_V2X_CONNS_MIN;
static int smcx_conns_max = SMCX_V2X_CONNS_MAX;
static int smcx_hsrec_max = SMCX_HSREC_MAX;
static int smcx_peer_ttl_max = SMCX_PEER_TTL_MAX;

const struct smcx_sysctl *smcx_sysctl(const struct net *net)
{
	struct smcx_sysctl_net *sn = net_generic(net, smcx_sysctl_id);

	return &sn->val;
}

void smcx_sysctl_set_tcp2smc_available(bool avail)
{
	WRITE_ONCE(smcx_tcp2smc_avail, avail);
}

void smcx_sysctl_set_limit_smc_hs(struct net *net, bool on)
{
	struct smcx_sysctl_net *sn = net_generic(net, smcx_sysctl_id);

	WRITE_ONCE(sn->val.limit_smc_hs, on);
}

/* parse into a scratch copy of @table; 0 and the value, or the errno */
static int smcx_parse(SMCX_CTL_TABLE *table, int write, void *buf,
		      size_t *lenp, loff_t *ppos, proc_handler *h, int *val)
{
	struct ctl_table tmp = *table;

	*val = READ_ONCE(*(int *)table->data);
	tmp.data = val;
	return h(&tmp, write, buf, lenp, ppos);
}

static int smcx_proc_tcp2smc(SMCX_CTL_TABLE *table, int write,
			     void *buf, size_t *lenp, loff_t *ppos)
{
	int val, rc;

	rc = smcx_parse(table, write, buf, lenp, ppos, proc_dointvec_minmax,
			&val);
	if (rc || !write)
		return rc;
	if (val && !READ_ONCE(smcx_tcp2smc_avail))
		return -EOPNOTSUPP;
	WRITE_ONCE(*(int *)table->data, val);
	return 0;
}

/*
 * Seconds of silence from the peer before a link sends TEST_LINK (the
 * link-group watchdog, lgr.c); 0: never.  Parsed as mainline parses it; a
 * negative time is refused.
 */
static int smcx_proc_testlink(SMCX_CTL_TABLE *table, int write,
			      void *buf, size_t *lenp, loff_t *ppos)
{
	int val, rc;

	rc = smcx_parse(table, write, buf, lenp, ppos, proc_dointvec_jiffies,
			&val);
	if (rc || !write)
		return rc;
	if (val < 0)
		return -EINVAL;
	WRITE_ONCE(*(int *)table->data, val);
	return 0;
}

/*
 * Bytes autocorking may hold back while a CDC is in flight (send.c), at
 * most half the send buffer; 0 turns it off.  Any unsigned value, as mainline.
 */
static int smcx_proc_autocork(SMCX_CTL_TABLE *table, int write,
			      void *buf, size_t *lenp, loff_t *ppos)
{
	int val, rc;

	rc = smcx_parse(table, write, buf, lenp, ppos, proc_douintvec, &val);
	if (rc || !write)
		return rc;
	WRITE_ONCE(*(unsigned int *)table->data, (unsigned int)val);
	return 0;
}

/*
 * net.smc.wmem / rmem: bytes, SMCX_BUF_MIN_SIZE .. INT_MAX / 2 (mainline's
 * range); in a namespace of a non-initial user namespace at most the
 * initial namespace's net.core.wmem_max / rmem_max, read at the write
 * (see the top of the file).  @table->data points into the namespace's
 * smcx_sysctl_net, which says whether it is capped.
 */
static int smcx_proc_mem(SMCX_CTL_TABLE *table, int write, void *buf,
			 size_t *lenp, loff_t *ppos)
{
	bool rmem = !strcmp(table->procname, "rmem");
	struct smcx_sysctl_net *sn;
	int val, rc;
	u32 max;

	rc = smcx_parse(table, write, buf, lenp, ppos, proc_dointvec_minmax,
			&val);
	if (rc || !write)
		return rc;
	sn = rmem ? container_of(table->data, struct smcx_sysctl_net, val.rmem) :
		    container_of(table->data, struct smcx_sysctl_net, val.wmem);
	if (sn->capped) {
		max = rmem ? READ_ONCE(sysctl_rmem_max) :
			     READ_ONCE(sysctl_wmem_max);
		/* val >= SMCX_BUF_MIN_SIZE > 0 (extra1) */
		if ((u32)val > max_t(u32, max, SMCX_BUF_MIN_SIZE))
			return -EPERM;
	}
	WRITE_ONCE(*(int *)table->data, val);
	return 0;
}

#define SMCX_OFF(f) offsetof(struct smcx_sysctl, f)

/* .data holds the field's offset here; each namespace's copy gets pointers */
static const struct ctl_table smcx_sysctl_template[] = {
	{
		.procname	= "tcp2smc",
		.data		= (void *)SMCX_OFF(tcp2smc),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= smcx_proc_tcp2smc,
		.extra1		= &smcx_zero,
		.extra2		= &smcx_one,
	},
	{
		.procname	= "autocorking_size",
		.data		= (void *)SMCX_OFF(autocorking_size),
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= smcx_proc_autocork,
	},
	{
		.procname	= "smcr_testlink_time",
		.data		= (void *)SMCX_OFF(smcr_testlink_time),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= smcx_proc_testlink,
	},
	{
		.procname	= "wmem",
		.data		= (void *)SMCX_OFF(wmem),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= smcx_proc_mem,
		.extra1		= &smcx_buf_min,
		.extra2		= &smcx_buf_max,
	},
	{
		.procname	= "rmem",
		.data		= (void *)SMCX_OFF(rmem),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= smcx_proc_mem,
		.extra1		= &smcx_buf_min,
		.extra2		= &smcx_buf_max,
	},
	{
		.procname	= "smcr_max_links_per_lgr",
		.data		= (void *)SMCX_OFF(smcr_max_links_per_lgr),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= &smcx_links_min,
		.extra2		= &smcx_links_max,
	},
	{
		.procname	= "smcr_max_conns_per_lgr",
		.data		= (void *)SMCX_OFF(smcr_max_conns_per_lgr),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= &smcx_conns_min,
		.extra2		= &smcx_conns_max,
	},
	{
		.procname	= "limit_smc_hs",
		.data		= (void *)SMCX_OFF(limit_smc_hs),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= &smcx_zero,
		.extra2		= &smcx_one,
	},
	{
		.procname	= "smcx_write_imm",
		.data		= (void *)SMCX_OFF(smcx_write_imm),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= &smcx_zero,
		.extra2		= &smcx_one,
	},
	{
		.procname	= "smcx_loopback",
		.data		= (void *)SMCX_OFF(smcx_loopback),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= &smcx_zero,
		.extra2		= &smcx_one,
	},
	{
		.procname	= "smcx_hs_records",
		.data		= (void *)SMCX_OFF(smcx_hs_records),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= &smcx_zero,
		.extra2		= &smcx_hsrec_max,
	},
	{
		.procname	= "smcx_peer_ttl",
		.data		= (void *)SMCX_OFF(smcx_peer_ttl),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= &smcx_zero,
		.extra2		= &smcx_peer_ttl_max,
	},
	{ }	/* ends the table for kernels before 6.6; not in the size */
};

static int __net_init smcx_sysctl_net_init(struct net *net)
{
	struct smcx_sysctl_net *sn = net_generic(net, smcx_sysctl_id);
	struct smcx_sysctl *v = &sn->val;
	size_t i, n = ARRAY_SIZE(smcx_sysctl_template) - 1;

	v->tcp2smc = 0;
	v->wmem = SMCX_WMEM_DEFAULT;
	v->rmem = SMCX_RMEM_DEFAULT;
	v->autocorking_size = SMCX_AUTOCORKING_SIZE;
	v->smcr_testlink_time = SMCX_TESTLINK_TIME;
	v->smcr_max_links_per_lgr = SMCX_LINKS_PER_LGR_DEFAULT;
	v->smcr_max_conns_per_lgr = SMCX_CONNS_PER_LGR_DEFAULT;
	v->limit_smc_hs = 0;
	v->smcx_write_imm = 1;
	v->smcx_loopback = 1;
	v->smcx_hs_records = SMCX_HSREC_DEFAULT;
	v->smcx_peer_ttl = SMCX_PEER_TTL_DEFAULT;
	sn->capped = net->user_ns != &init_user_ns;

	sn->table = kmemdup(smcx_sysctl_template, sizeof(smcx_sysctl_template),
			    GFP_KERNEL_ACCOUNT);
	if (!sn->table)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		sn->table[i].data = (char *)v + (uintptr_t)sn->table[i].data;
	sn->hdr = register_net_sysctl_sz(net, "net/smc", sn->table, n);
	if (!sn->hdr) {
		kfree(sn->table);
		sn->table = NULL;
		if (net_eq(net, &init_net))
			pr_err("cannot register net.smc sysctls: is smc.ko loaded? unload it before loading smcx\n");
		return -EEXIST;
	}
	return 0;
}

static void __net_exit smcx_sysctl_net_exit(struct net *net)
{
	struct smcx_sysctl_net *sn = net_generic(net, smcx_sysctl_id);

	unregister_net_sysctl_table(sn->hdr);	/* waits for handlers */
	kfree(sn->table);
}

static struct pernet_operations smcx_sysctl_ops = {
	.init	= smcx_sysctl_net_init,
	.exit	= smcx_sysctl_net_exit,
	.id	= &smcx_sysctl_id,
	.size	= sizeof(struct smcx_sysctl_net),
};

int smcx_sysctl_init(void)
{
	return register_pernet_subsys(&smcx_sysctl_ops);
}

void smcx_sysctl_exit(void)
{
	unregister_pernet_subsys(&smcx_sysctl_ops);
}
