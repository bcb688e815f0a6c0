// SPDX-License-Identifier: GPL-2.0
/*
 * tcp2smc: with net.smc.tcp2smc=1 in a network namespace, every
 * socket(AF_INET or AF_INET6, SOCK_STREAM, 0 or IPPROTO_TCP) that user space
 * creates in that namespace is created as IPPROTO_SMC instead, i.e. as an
 * smcx socket with ordinary inet addresses (inet.c).
 *
 * Where we hook.  Since 6.6 the socket() system call asks
 * update_socket_protocol(family, type, protocol) (net/socket.c) which
 * protocol to use; it is a noinline function that returns its third
 * argument, made to be overridden (by BPF fmod_ret, as MPTCP does).  It is
 * called for the socket() system call only: io_uring's socket op
 * (__sys_socket_file()), sock_create_kern() and everything else inside the
 * kernel never pass through it, so kernel sockets (and io_uring's) are
 * not converted.  A module cannot attach fmod_ret BPF, but a kretprobe can
 * rewrite the return value, and the Debian 6.12 kernel has KRETPROBES and
 * the function is a traceable symbol there (lab notes).
 *
 * Robustness:
 *  - the entry handler decides everything from the arguments (registers of
 *    the x86-64 and arm64 calling conventions via regs_get_kernel_argument)
 *    and the calling task, and returns non-zero when there is nothing to
 *    do, so the return handler only runs for sockets we convert;
 *  - the return handler rewrites only if the function still returned what
 *    it was given (0 or IPPROTO_TCP): if a BPF program already chose
 *    another protocol (MPTCP), that choice stands;
 *  - kernel threads are skipped (belt and braces: they do not call it);
 *  - the namespace is the caller's (current->nsproxy->net_ns), exactly the
 *    one socket() will create the socket in, read under RCU;
 *  - if the kretprobe cannot be registered (symbol missing or inlined in
 *    some other kernel build), the module still loads, logs it, and a write
 *    of 1 to net.smc.tcp2smc fails with EOPNOTSUPP, so nobody believes a
 *    conversion is happening that is not;
 *  - maxactive is generous: a kretprobe instance is needed per concurrent
 *    socket() call; when the pool runs dry the kprobe core counts nmissed
 *    and that socket simply stays TCP (logged once at unload if it
 *    happened);
 *  - unregister_kretprobe() waits for handlers that are running, and the
 *    hook goes before IPPROTO_SMC is unregistered on unload.  A socket()
 *    that got IPPROTO_SMC just before the unregister either finds the
 *    protosw (and then holds a module reference) or gets EPROTONOSUPPORT
 *    from a kernel that just lost SMC: the same as any protocol module
 *    going away.  Sockets already converted are smcx sockets and keep the
 *    module pinned until closed, whatever tcp2smc says meanwhile.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/nsproxy.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <net/net_namespace.h>

#include "sysctl.h"
#include "tcp2smc.h"

#ifndef IPPROTO_SMC
#define IPPROTO_SMC 256
#endif

static bool smcx_tcp2smc_registered;

static bool smcx_tcp2smc_wanted(int family, int type, int protocol)
{
	struct net *net;
	bool on;

	if (family != AF_INET && family != AF_INET6)
		return false;
	if ((type & SOCK_TYPE_MASK) != SOCK_STREAM)
		return false;
	if (protocol != 0 && protocol != IPPROTO_TCP)
		return false;
	if (current->flags & PF_KTHREAD || !current->nsproxy)
		return false;
	rcu_read_lock();
	net = current->nsproxy->net_ns;
	on = smcx_tcp2smc_on(net);
	rcu_read_unlock();
	return on;
}

static int smcx_tcp2smc_entry(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	int family = (int)regs_get_kernel_argument(regs, 0);
	int type = (int)regs_get_kernel_argument(regs, 1);
	int protocol = (int)regs_get_kernel_argument(regs, 2);

	return smcx_tcp2smc_wanted(family, type, protocol) ? 0 : 1;
}

static int smcx_tcp2smc_ret(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	int ret = (int)regs_return_value(regs);

	if (ret == 0 || ret == IPPROTO_TCP)
		regs_set_return_value(regs, IPPROTO_SMC);
	return 0;
}

static struct kretprobe smcx_tcp2smc_krp = {
	.kp.symbol_name	= "update_socket_protocol",
	.entry_handler	= smcx_tcp2smc_entry,
	.handler	= smcx_tcp2smc_ret,
};

int smcx_tcp2smc_init(void)
{
	int rc;

	smcx_tcp2smc_krp.maxactive = max_t(int, 64, 8 * num_possible_cpus());
	rc = register_kretprobe(&smcx_tcp2smc_krp);
	if (rc) {
		pr_warn("tcp2smc unavailable: cannot hook update_socket_protocol (%d)\n",
			rc);
		return 0;
	}
	smcx_tcp2smc_registered = true;
	smcx_sysctl_set_tcp2smc_available(true);
	return 0;
}

void smcx_tcp2smc_exit(void)
{
	if (!smcx_tcp2smc_registered)
		return;
	smcx_sysctl_set_tcp2smc_available(false);
	unregister_kretprobe(&smcx_tcp2smc_krp);
	if (smcx_tcp2smc_krp.nmissed)
		pr_info("tcp2smc: %d socket() calls missed the hook (no free instance)\n",
			smcx_tcp2smc_krp.nmissed);
	smcx_tcp2smc_registered = false;
}
