/* SPDX-License-Identifier: GPL-2.0 */
/* IPPROTO_SMC: smcx sockets with AF_INET/AF_INET6 addresses (inet.c). */
#ifndef SMCX_INET_H
#define SMCX_INET_H

int smcx_inet_init(void);
void smcx_inet_exit(void);

#endif /* SMCX_INET_H */
