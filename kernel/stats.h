/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-netns handshake statistics.
 *
 * The counters are per CPU and only ever incremented with this_cpu_inc(), so
 * the fast path takes no lock and touches no shared cache line.  Readers fold
 * all CPUs into a struct smcx_stats snapshot (not atomic across counters,
 * like every per-CPU statistic in the kernel).
 */
#ifndef SMCX_STATS_H
#define SMCX_STATS_H

#include <linux/types.h>

struct net;

enum smcx_role {
	SMCX_CLNT,
	SMCX_SRV,
	SMCX_ROLES
};

/*
 * Fallback reasons are counted per known decline code (the codec's reason
 * table, looked up once per fallback); one extra slot counts codes outside
 * the table.
 */
#define SMCX_STATS_RSN_SLOTS	48

struct smcx_stats {
	u64 hs_started[SMCX_ROLES];	/* CLC handshakes begun (both sides SMC) */
	u64 hs_errors[SMCX_ROLES];	/* handshakes that killed the connection */
	u64 success_v1[SMCX_ROLES];	/* connections that became SMC-R v1 */
	u64 success_v2[SMCX_ROLES];	/* ... SMC-R v2 */
	u64 fallback[SMCX_ROLES];	/* connections that continued as TCP */
	u64 fallback_rsn[SMCX_ROLES][SMCX_STATS_RSN_SLOTS];
	/* SMC-R data path: payload bytes and calls that moved data */
	u64 rx_bytes;
	u64 tx_bytes;
	u64 rx_cnt;
	u64 tx_cnt;
};

void smcx_stats_hs_started(struct net *net, enum smcx_role role);
void smcx_stats_hs_error(struct net *net, enum smcx_role role);
void smcx_stats_success(struct net *net, enum smcx_role role, u8 version);
void smcx_stats_fallback(struct net *net, enum smcx_role role, u32 reason);
/* one send or receive call of an SMC-R connection that moved @bytes > 0 */
void smcx_stats_tx(struct net *net, size_t bytes);
void smcx_stats_rx(struct net *net, size_t bytes);

/* sum of all CPUs for @net */
void smcx_stats_fold(struct net *net, struct smcx_stats *out);
/* reason code of slot @i, 0 for the "other" slot or an unused one */
u32 smcx_stats_rsn_code(unsigned int i);

int smcx_stats_init(void);
void smcx_stats_exit(void);

#endif /* SMCX_STATS_H */
