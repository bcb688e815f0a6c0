// SPDX-License-Identifier: GPL-2.0
/*
 * smcx module entry: ordered init with goto unwinding, exact reverse exit.
 * Each layer registers itself here once; nothing else registers globally.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/init.h>

#include <smcx/version.h>

static int __init smcx_init(void)
{
	pr_info("smcx " SMCX_VERSION " loaded\n");
	return 0;
}

static void __exit smcx_exit(void)
{
	pr_info("smcx " SMCX_VERSION " unloaded\n");
}

module_init(smcx_init);
module_exit(smcx_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("SMC-R over ib_core verbs (AF_SMC)");
MODULE_VERSION(SMCX_VERSION);
MODULE_AUTHOR("smcx developers");
