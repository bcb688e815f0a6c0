// SPDX-License-Identifier: GPL-2.0
/*
 * tcp2smc: with net.smc.tcp2smc=1 in a network namespace, every
 * socket(AF_INET or AF_INET6, SOCK_STREAM, 0 or IPPROTO_TCP) that user space
 * creates in that namespace, by the socket() system call or by io_uring's
 * IORING_OP_SOCKET, is created as IPPROTO_SMC instead, i.e. as an smcx
 * socket with ordinary inet addresses (inet.c).
 *
 * Where we hook.  Two probes, one per way user space makes a socket:
 *  - socket(): since 6.6 it asks update_socket_protocol(family, type,
 *    protocol) (net/socket.c) which protocol to use; a noinline function
 *    that returns its third argument, made to be overridden (by BPF
 *    fmod_ret, as MPTCP does).  A module cannot attach fmod_ret BPF, but a
 *    kretprobe can rewrite the return value.  Kernels before 6.6 (Debian
 *    12's 6.1) have no such function: there a kprobe at the entry of
 *    __sys_socket(family, type, protocol), which only socket() and
 *    socketcall() call, rewrites the protocol argument, as for io_uring;
 *  - io_uring: io_socket() calls __sys_socket_file(family, type, protocol),
 *    which goes to __sys_socket_create() without asking
 *    update_socket_protocol().  io_uring is its only caller, so a kprobe
 *    at its entry whose pre-handler writes IPPROTO_SMC into the protocol
 *    argument's register converts exactly io_uring's sockets.  Writing an
 *    argument needs the register of the calling convention: x86-64 dx,
 *    arm64 x2; on other architectures the probe is not registered (logged
 *    once at load) and io_uring sockets stay TCP.
 * Both are global functions, traceable symbols of the Debian 6.12 kernel,
 * which has KPROBES and KRETPROBES (lab notes).  sock_create_kern() and
 * everything else inside the kernel pass through neither, so kernel
 * sockets (smcx's own CLC sockets among them) are not converted.
 *
 * Robustness:
 *  - both handlers decide everything from the arguments (registers of the
 *    x86-64 and arm64 calling conventions via regs_get_kernel_argument)
 *    and the calling task, in smcx_tcp2smc_wanted(); the kretprobe's entry
 *    handler returns non-zero when there is nothing to do, so its return
 *    handler only runs for sockets we convert;
 *  - the return handler rewrites only if the function still returned what
 *    it was given (0 or IPPROTO_TCP): if a BPF program already chose
 *    another protocol (MPTCP), that choice stands; the io_uring pre-handler
 *    likewise rewrites only an argument of 0 or IPPROTO_TCP;
 *  - kernel threads are skipped (belt and braces: they do not call either);
 *    io_uring's workers and SQPOLL thread are not kernel threads but
 *    threads of the submitting process (PF_IO_WORKER) with its namespaces;
 *  - the namespace is the caller's (current->nsproxy->net_ns), exactly the
 *    one __sys_socket_create() will create the socket in, read under RCU;
 *  - if neither socket() probe can be registered (symbols missing or
 *    inlined in some other kernel build, or an architecture whose argument
 *    register we do not know and no update_socket_protocol()), the module
 *    still loads, logs it, and a write of 1 to net.smc.tcp2smc fails with
 *    EOPNOTSUPP, so nobody believes a conversion is happening that is not;
 *    the io_uring kprobe is then not tried;
 *  - if only the io_uring kprobe cannot be registered, the module loads,
 *    logs it, and tcp2smc converts socket() sockets; io_uring's stay TCP;
 *  - maxactive is generous: a kretprobe instance is needed per concurrent
 *    socket() call; when the pool runs dry the kprobe core counts nmissed
 *    and that socket simply stays TCP; a kprobe misses only when hit
 *    inside another probe's handler, and then that io_uring socket stays
 *    TCP (either is logged once at unload if it happened);
 *  - exit undoes init in reverse: writes of 1 fail again, the kprobe goes,
 *    then the kretprobe; unregistering waits for handlers that are
 *    running, and the hooks go before IPPROTO_SMC is unregistered on
 *    unload.  A socket that got IPPROTO_SMC just before the unregister
 *    either finds the protosw (and then holds a module reference) or gets
 *    EPROTONOSUPPORT from a kernel that just lost SMC: the same as any
 *    protocol module going away.  Sockets already converted are smcx
 *    sockets and keep the module pinned until closed, whatever tcp2smc
 *    says meanwhile.
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

/*
 * io_uring, and socket() before 6.6: the kprobe pre-handler runs at the
 * entry of __sys_socket_file() or __sys_socket() with the arguments still in
 * their registers; what it writes into @regs is what the function starts
 * with (int3 and ftrace-based kprobes both restore the registers from
 * @regs).  SMCX_TCP2SMC_ARGREG: the architectures whose protocol-argument
 * register we know; elsewhere these kprobes are not registered and
 * smcx_tcp2smc_set_protocol() is never called.
 */
#define SMCX_TCP2SMC_ARGREG (IS_ENABLED(CONFIG_X86_64) || IS_ENABLED(CONFIG_ARM64))

static void smcx_tcp2smc_set_protocol(struct pt_regs *regs, int protocol)
{
#if defined(CONFIG_X86_64)
	regs->dx = protocol;
#elif defined(CONFIG_ARM64)
	regs->regs[2] = protocol;
#endif
}

static int smcx_tcp2smc_arg_pre(struct kprobe *p, struct pt_regs *regs)
{
	int family = (int)regs_get_kernel_argument(regs, 0);
	int type = (int)regs_get_kernel_argument(regs, 1);
	int protocol = (int)regs_get_kernel_argument(regs, 2);

	if (smcx_tcp2smc_wanted(family, type, protocol))
		smcx_tcp2smc_set_protocol(regs, IPPROTO_SMC);
	return 0;	/* 0: the probed instruction runs as usual */
}

/* socket() where update_socket_protocol() does not exist (before 6.6) */
static struct kprobe smcx_tcp2smc_sys_kp = {
	.symbol_name	= "__sys_socket",
	.pre_handler	= smcx_tcp2smc_arg_pre,
};

static struct kprobe smcx_tcp2smc_uring_kp = {
	.symbol_name	= "__sys_socket_file",
	.pre_handler	= smcx_tcp2smc_arg_pre,
};

static bool smcx_tcp2smc_uring_registered;
static bool smcx_tcp2smc_sys_registered;	/* else the kretprobe */

/* best effort: without it io_uring sockets stay TCP, socket() is converted */
static void smcx_tcp2smc_uring_init(void)
{
	int rc;

	if (!SMCX_TCP2SMC_ARGREG) {
		pr_info("tcp2smc: io_uring sockets stay TCP: this architecture has no protocol-argument rewrite\n");
		return;
	}
	rc = register_kprobe(&smcx_tcp2smc_uring_kp);
	if (rc) {
		pr_warn("tcp2smc: io_uring sockets stay TCP: cannot hook __sys_socket_file (%d)\n",
			rc);
		return;
	}
	smcx_tcp2smc_uring_registered = true;
}

static void smcx_tcp2smc_uring_exit(void)
{
	if (!smcx_tcp2smc_uring_registered)
		return;
	unregister_kprobe(&smcx_tcp2smc_uring_kp);
	if (smcx_tcp2smc_uring_kp.nmissed)
		pr_info("tcp2smc: %lu io_uring socket ops missed the hook (nested probe)\n",
			smcx_tcp2smc_uring_kp.nmissed);
	smcx_tcp2smc_uring_registered = false;
}

/* socket() before 6.6: the protocol argument of __sys_socket() */
static int smcx_tcp2smc_sys_init(void)
{
	int rc;

	if (!SMCX_TCP2SMC_ARGREG)
		return -EOPNOTSUPP;
	rc = register_kprobe(&smcx_tcp2smc_sys_kp);
	if (rc)
		return rc;
	smcx_tcp2smc_sys_registered = true;
	pr_info("tcp2smc: socket() hooked at __sys_socket (no update_socket_protocol)\n");
	return 0;
}

int smcx_tcp2smc_init(void)
{
	int rc, rc2;

	smcx_tcp2smc_krp.maxactive = max_t(int, 64, 8 * num_possible_cpus());
	rc = register_kretprobe(&smcx_tcp2smc_krp);
	if (rc) {
		rc2 = smcx_tcp2smc_sys_init();
		if (rc2) {
			pr_warn("tcp2smc unavailable: cannot hook update_socket_protocol (%d) nor __sys_socket (%d)\n",
				rc, rc2);
			return 0;
		}
	}
	smcx_tcp2smc_registered = true;
	smcx_tcp2smc_uring_init();
	smcx_sysctl_set_tcp2smc_available(true);
	return 0;
}

/* init in reverse: the switch, the io_uring kprobe, the socket() probe */
void smcx_tcp2smc_exit(void)
{
	if (!smcx_tcp2smc_registered)
		return;
	smcx_sysctl_set_tcp2smc_available(false);
	smcx_tcp2smc_uring_exit();
	if (smcx_tcp2smc_sys_registered) {
		unregister_kprobe(&smcx_tcp2smc_sys_kp);
		if (smcx_tcp2smc_sys_kp.nmissed)
			pr_info("tcp2smc: %lu socket() calls missed the hook (nested probe)\n",
				smcx_tcp2smc_sys_kp.nmissed);
		smcx_tcp2smc_sys_registered = false;
	} else {
		unregister_kretprobe(&smcx_tcp2smc_krp);
		if (smcx_tcp2smc_krp.nmissed)
			pr_info("tcp2smc: %d socket() calls missed the hook (no free instance)\n",
				smcx_tcp2smc_krp.nmissed);
	}
	smcx_tcp2smc_registered = false;
}
