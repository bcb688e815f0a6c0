/* SPDX-License-Identifier: GPL-2.0 */
/* The AF_SMC protocol family: registration and proto_ops (af_smc.c). */
#ifndef SMCX_AF_SMC_H
#define SMCX_AF_SMC_H

/* the ops of IPPROTO_SMC sockets (inet.c): AF_SMC's with .family changed */
extern const struct proto_ops smcx_inet_proto_ops;
extern const struct proto_ops smcx_inet6_proto_ops;

int smcx_af_init(void);
void smcx_af_exit(void);

#endif /* SMCX_AF_SMC_H */
