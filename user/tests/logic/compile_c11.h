/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SMCX_LOGIC_COMPILE_C11_H
#define SMCX_LOGIC_COMPILE_C11_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 0 when the C11 build of the headers computes the expected values */
int smcx_logic_c11_check(void);
/* smcx_curs_to_count() compiled as C11, to compare with the C++ build */
uint64_t smcx_logic_c11_to_count(uint64_t last, uint32_t size, uint16_t wrap, uint32_t count);

#ifdef __cplusplus
}
#endif

#endif
