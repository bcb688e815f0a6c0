/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SMCX_COMPILE_C11_H
#define SMCX_COMPILE_C11_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

int smcx_c11_selftest(void);
size_t smcx_c11_sizeof_proposal(void);

#ifdef __cplusplus
}
#endif

#endif
