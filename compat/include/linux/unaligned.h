/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernels before 6.12 keep the unaligned access helpers in
 * <asm/unaligned.h>.  This directory comes after the kernel's own include
 * directories on the command line (Kbuild), so a kernel that has
 * <linux/unaligned.h> never reads this file.
 */
#ifndef SMCX_COMPAT_LINUX_UNALIGNED_H
#define SMCX_COMPAT_LINUX_UNALIGNED_H

#include <asm/unaligned.h>

#endif
