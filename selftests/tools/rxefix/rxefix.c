// SPDX-License-Identifier: GPL-2.0
/*
 * Lab fixture for Debian 12's 6.1 kernel, loaded only on a guest that runs
 * the stock smc.ko (selftests/lib/scenarios.py): two rdma_rxe fixes that
 * 6.12 has and Debian's 6.1 lacks, without which the stock 6.1 smc.ko cannot
 * bring up a link over soft-RoCE (docs/lab.md, LAB-NOTES):
 *  - a queried QP reports its current state (cur_qp_state) as well as its
 *    state: the stock smc refuses to send on a link whose cur_qp_state is
 *    not RTS;
 *  - a CQ armed for solicited or next completions (IB_CQ_SOLICITED_MASK,
 *    as the stock smc arms its receive CQ) is armed for the next
 *    completion: rxe 6.1 notifies only a CQ armed with exactly
 *    IB_CQ_NEXT_COMP, so such a CQ never fired.
 * smcx needs neither: it arms with IB_CQ_NEXT_COMP and does not query QPs.
 * Both are probes on rxe's verbs ops (called through the ops table, so never
 * inlined); loading fails if rdma_rxe is not loaded.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>

/* rxe_query_qp(ibqp, attr, mask, init_attr): remember attr, fix it after */
static int rxefix_query_entry(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	*(struct ib_qp_attr **)ri->data =
		(struct ib_qp_attr *)regs_get_kernel_argument(regs, 1);
	return 0;
}

static int rxefix_query_ret(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct ib_qp_attr *attr = *(struct ib_qp_attr **)ri->data;

	if (!regs_return_value(regs) && attr)
		attr->cur_qp_state = attr->qp_state;
	return 0;
}

static struct kretprobe rxefix_query = {
	.kp.symbol_name	= "rxe_query_qp",
	.entry_handler	= rxefix_query_entry,
	.handler	= rxefix_query_ret,
	.data_size	= sizeof(struct ib_qp_attr *),
	.maxactive	= 16,
};

/* rxe_req_notify_cq(ibcq, flags): solicited-or-next becomes next */
static int rxefix_notify_pre(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long flags = regs_get_kernel_argument(regs, 1);

#ifdef CONFIG_X86_64
	if ((flags & IB_CQ_SOLICITED_MASK) == IB_CQ_SOLICITED_MASK)
		regs->si = (flags & ~IB_CQ_SOLICITED_MASK) | IB_CQ_NEXT_COMP;
#endif
	return 0;
}

static struct kprobe rxefix_notify = {
	.symbol_name	= "rxe_req_notify_cq",
	.pre_handler	= rxefix_notify_pre,
};

static int __init rxefix_init(void)
{
	int rc;

	if (!IS_ENABLED(CONFIG_X86_64))
		return -EOPNOTSUPP;	/* regs->si: the x86-64 second argument */
	rc = register_kretprobe(&rxefix_query);
	if (rc)
		return rc;
	rc = register_kprobe(&rxefix_notify);
	if (rc)
		unregister_kretprobe(&rxefix_query);
	return rc;
}

static void __exit rxefix_exit(void)
{
	unregister_kprobe(&rxefix_notify);
	unregister_kretprobe(&rxefix_query);
}

module_init(rxefix_init);
module_exit(rxefix_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("smcx lab fixture: rdma_rxe fixes Debian 6.1 lacks");
