// SPDX-License-Identifier: GPL-2.0
/*
 * smcx module entry: ordered init with goto unwinding, exact reverse exit.
 * Each layer registers itself here once; nothing else registers globally.
 *
 * Order matters at both ends.  Init: the codec proves itself, then the
 * layers bottom up (Kbuild, docs/architecture.md): leaf (objects with the
 * debugfs directory and the module's workqueue, statistics, sysctls),
 * devices and tables, transport, connection, socket (sock_diag), the
 * views (each debugfs view right after the data it shows), the generic
 * netlink family, so that no netlink request reaches a layer that is not
 * up, and the socket families last (IPPROTO_SMC, tcp2smc, AF_SMC): no
 * step can fail once a socket may exist.  If another provider (smc.ko)
 * owns net/smc, a netlink family or AF_SMC, that step fails and everything
 * before it is undone.  Exit is the exact reverse; no smcx socket exists
 * once the families are gone (each holds a module reference).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/init.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <net/genetlink.h>
#include <net/tcp.h>

#include <smcx/version.h>
#include <smcx/wire/selftest.h>

#include "af_smc.h"
#include "debugfs.h"
#include "diag.h"
#include "ib.h"
#include "inet.h"
#include "hsrec.h"
#include "lgr.h"
#include "lo.h"
#include "llc.h"
#include "netlink.h"
#include "nl_smcx.h"
#include "obj.h"
#include "peers.h"
#include "pnet.h"
#include "policy.h"
#include "sock.h"
#include "stats.h"
#include "sysctl.h"
#include "tcp2smc.h"
#include "uapi.h"
#include "ueid.h"

static int __init smcx_init(void)
{
	int rc;

	rc = smcx_wire_selftest();
	if (rc) {
		pr_err("wire codec self-test failed: %s\n",
		       smcx_wire_strerror(rc));
		return -EINVAL;
	}
	/* counters, the debugfs directory and the module's workqueue */
	rc = smcx_obj_init();
	if (rc)
		return rc;
	rc = smcx_stats_init();
	if (rc)
		goto err_obj;
	/* per-netns net.smc.* values: before anything that reads them */
	rc = smcx_sysctl_init();
	if (rc)
		goto err_stats;
	rc = smcx_hsrec_init();
	if (rc)
		goto err_sysctl;
	/* devices and the control plane: before sockets, which use them */
	rc = smcx_ib_init();
	if (rc)
		goto err_hsrec;
	rc = smcx_pnet_init();
	if (rc)
		goto err_ib;
	/* the device views read the PNET tables */
	smcx_ib_debugfs_init();
	rc = smcx_ueid_init();
	if (rc)
		goto err_ib_debugfs;
	rc = smcx_peers_init();
	if (rc)
		goto err_ueid;
	/* the data path's message kinds, before any link can exist */
	rc = smcx_llc_init();
	if (rc)
		goto err_peers;
	smcx_lo_init();			/* the loopback device's GID */
	rc = smcx_lgr_init();
	if (rc)
		goto err_peers;
	rc = smcx_conn_init();
	if (rc)
		goto err_lgr;
	rc = smcx_sock_init();
	if (rc)
		goto err_lgr;
	rc = smcx_policy_init();
	if (rc)
		goto err_sock;
	/* sock_diag for AF_SMC: reads the sock hashes smcx_sock_init set up */
	rc = smcx_diag_init();
	if (rc)
		goto err_policy;
	/* the debugfs views of statistics and socks, once both exist */
	rc = smcx_debugfs_init();
	if (rc)
		goto err_diag;
	/* TCP writes and parses the SMC option only while this is on */
	static_branch_inc(&tcp_have_smc);
	/*
	 * The netlink family: its handlers call the layers below directly,
	 * so it comes up after them; no socket is needed for it.
	 */
	rc = smcx_nl_init();
	if (rc)
		goto err_tcp_smc;
	rc = smcx_nlx_init();
	if (rc)
		goto err_nl;
	/*
	 * The socket families last: once one is registered, sockets (each
	 * holding a module reference) can exist, and a failing step after it
	 * would free the module under them.  IPPROTO_SMC, the socket() hook
	 * that uses it (which cannot fail), then AF_SMC, the step that fails
	 * when another provider owns the family.
	 */
	rc = smcx_inet_init();
	if (rc)
		goto err_nlx;
	rc = smcx_tcp2smc_init();
	if (rc)
		goto err_inet;
	rc = smcx_af_init();
	if (rc)
		goto err_tcp2smc;

	pr_info("smcx " SMCX_VERSION " loaded\n");
	return 0;

err_tcp2smc:
	smcx_tcp2smc_exit();
err_inet:
	smcx_inet_exit();
	synchronize_rcu();
err_nlx:
	smcx_nlx_exit();
err_nl:
	smcx_nl_exit();
err_tcp_smc:
	static_branch_dec(&tcp_have_smc);
	smcx_debugfs_exit();
err_diag:
	smcx_diag_exit();
err_policy:
	smcx_policy_exit();
err_sock:
	smcx_sock_exit();
err_lgr:
	smcx_lgr_exit();
err_peers:
	smcx_peers_exit();
err_ueid:
	smcx_ueid_exit();
err_ib_debugfs:
	smcx_ib_debugfs_exit();
	smcx_pnet_exit();
err_ib:
	smcx_ib_exit();
err_hsrec:
	smcx_hsrec_exit();
err_sysctl:
	smcx_sysctl_exit();
err_stats:
	smcx_stats_exit();
	rcu_barrier();
err_obj:
	smcx_obj_exit();
	return rc;
}

static void __exit smcx_exit(void)
{
	smcx_af_exit();
	smcx_tcp2smc_exit();
	smcx_inet_exit();
	/*
	 * TCP sockets we handed back to TCP may still run our callbacks' last
	 * instructions from softirq; wait for them before the text goes.
	 */
	synchronize_rcu();
	smcx_nlx_exit();
	smcx_nl_exit();
	static_branch_dec(&tcp_have_smc);
	smcx_debugfs_exit();
	smcx_diag_exit();
	smcx_policy_exit();
	smcx_sock_exit();
	smcx_lgr_exit();
	smcx_lo_exit();
	smcx_peers_exit();
	smcx_ueid_exit();
	smcx_ib_debugfs_exit();
	smcx_pnet_exit();
	smcx_ib_exit();
	smcx_hsrec_exit();
	smcx_sysctl_exit();
	smcx_stats_exit();
	rcu_barrier();
	smcx_obj_exit();
	pr_info("smcx " SMCX_VERSION " unloaded\n");
}

module_init(smcx_init);
module_exit(smcx_exit);

/*
 * Module aliases: the names the kernel asks modprobe for when something
 * of ours is missing (6.12), so that this module can be autoloaded.
 *   net-pf-43                         socket(AF_SMC, ...)   (net/socket.c)
 *   net-pf-2-proto-256-type-1         socket(AF_INET, SOCK_STREAM,
 *   net-pf-10-proto-256-type-1          IPPROTO_SMC), AF_INET6 the same
 *                                     (inet_create(), inet6_create())
 *   net-pf-16-proto-16-family-NAME    a generic netlink family looked up
 *                                     by name (genetlink.c): all three of ours
 *   net-pf-16-proto-4-type-43         sock_diag for AF_SMC (sock.c); the
 *                                     kernel asks only while AF_SMC is
 *                                     registered but has no diag handler
 * The stock smc.ko and smc_diag.ko declare the same names; the modprobe.d
 * file (conf/smcx-modprobe.conf) makes them resolve to smcx.  Literal
 * numbers: IPPROTO_SMC and SOCK_STREAM are enum values, not macros.
 */
MODULE_ALIAS_NETPROTO(PF_SMC);
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_INET, 256, 1);
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_INET6, 256, 1);
MODULE_ALIAS_GENL_FAMILY(SMC_GENL_FAMILY_NAME);
MODULE_ALIAS_GENL_FAMILY(SMCR_GENL_FAMILY_NAME);
MODULE_ALIAS_GENL_FAMILY(SMCX_GENL_NAME);
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_NETLINK, NETLINK_SOCK_DIAG, 43);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("SMC-R over ib_core verbs (AF_SMC)");
MODULE_VERSION(SMCX_VERSION);
MODULE_AUTHOR("smcx developers");
