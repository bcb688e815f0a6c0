/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The kernel's names that the shared headers of include/smcx/ use, for the
 * places they compile outside the kernel (C11 and C++20).
 *
 * In the kernel (SMCX_KERNEL) they come from the kernel's own headers.  In
 * user space u8 ... u64 name the very types that <stdint.h> calls uint8_t
 * ... uint64_t (both are the compiler's __UINT<n>_TYPE__), so the two
 * spellings mix freely in user-space code, pointers included; ARRAY_SIZE
 * is the plain division (the kernel's also rejects a pointer).
 */
#ifndef SMCX_COMPAT_H
#define SMCX_COMPAT_H

#ifdef SMCX_KERNEL
#include <linux/types.h>
#include <linux/kernel.h>
#else
#include <stddef.h>
#include <stdint.h>

typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#endif

#endif /* SMCX_COMPAT_H */
