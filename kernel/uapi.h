/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way kernel code includes smcx's rendering of the SMC uapi.
 *
 * In a kbuild compile <uapi/linux/smc.h> resolves to the kernel's own copy
 * first, and ours refuses to follow it (the enums would be defined twice).
 * A path relative to this file always names ours.
 */
#ifndef SMCX_KERNEL_UAPI_H
#define SMCX_KERNEL_UAPI_H

#include "../include/uapi/linux/smc.h"
/* smcx's own family "SMCX": the flight recorder, rules, peer cache */
#include "../include/uapi/linux/smcx.h"

/* PNET IDs: 1..16 characters, stored upper case, NUL/blank terminated */
#define SMCX_PNETID_LEN		16

#endif /* SMCX_KERNEL_UAPI_H */
