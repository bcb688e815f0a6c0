/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CLC handshake over the internal TCP socket (clc.c).
 *
 * Both entry points run in a work item, own the CLC socket while they run
 * and return either a positive reason code (SMCX_DECL_*: the connection
 * continues as TCP, the stream is in sync: every CLC byte either side sent
 * has been consumed by the other, and no more will come) or a negative
 * errno (the connection is unusable and must be aborted: timeout, garbage
 * after a CLC eyecatcher, reset).  Nothing else reads or writes the CLC
 * socket during the handshake.
 */
#ifndef SMCX_CLC_H
#define SMCX_CLC_H

struct smcx_sock;

int smcx_clc_client(struct smcx_sock *smc);
int smcx_clc_server(struct smcx_sock *smc);

#endif /* SMCX_CLC_H */
