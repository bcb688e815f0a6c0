/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sock_diag for AF_SMC (smc_diag's ABI): what smcss and ss --smc read.
 */
#ifndef SMCX_DIAG_H
#define SMCX_DIAG_H

int smcx_diag_init(void);
void smcx_diag_exit(void);

#endif /* SMCX_DIAG_H */
