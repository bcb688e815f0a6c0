/* SPDX-License-Identifier: GPL-2.0 */
/* tcp2smc: user TCP sockets become IPPROTO_SMC where enabled (tcp2smc.c). */
#ifndef SMCX_TCP2SMC_H
#define SMCX_TCP2SMC_H

int smcx_tcp2smc_init(void);
void smcx_tcp2smc_exit(void);

#endif /* SMCX_TCP2SMC_H */
