/* SPDX-License-Identifier: GPL-2.0 */
/* The AF_SMC protocol family: registration and proto_ops (af_smc.c). */
#ifndef SMCX_AF_SMC_H
#define SMCX_AF_SMC_H

int smcx_af_init(void);
void smcx_af_exit(void);

#endif /* SMCX_AF_SMC_H */
