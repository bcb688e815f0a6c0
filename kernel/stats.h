/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-netns statistics: handshakes, fallbacks and the data path.
 *
 * A struct smcx_stats is one technology's block (mainline's struct
 * smc_stats_tech, plus the namespace-wide counters); each namespace has
 * two, SMC-R and SMC-D (enum smcx_tech).  Every counter that takes a
 * @net counts in the SMC-R block: handshake starts and errors, fallbacks
 * and their reasons, link and reuse events, which the netlink dump
 * reports once for the namespace (as mainline's top-level counters).
 * The rest take a block: a socket's data path, socket options and splice
 * count through smc->stats, which points at the SMC-R block from its
 * creation and is switched to the SMC-D block when an SMC-D handshake
 * succeeds (smcx_stats_set_smcd(), join_d.c); buffers count in their
 * group's block (smcx_lgr_stats()).
 *
 * The counters are per CPU and only ever incremented with this_cpu_inc(), so
 * the fast path takes no lock and touches no shared cache line.  Readers fold
 * all CPUs into a struct smcx_stats snapshot (not atomic across counters,
 * like every per-CPU statistic in the kernel).
 */
#ifndef SMCX_STATS_H
#define SMCX_STATS_H

#include <linux/percpu.h>
#include <linux/socket.h>
#include <linux/sockptr.h>
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

/*
 * Size histograms, the buckets of the uapi's SMC_NLA_STATS_PLOAD_*: bucket 0
 * counts sizes up to 8 KiB, bucket i sizes in (8K << (i - 1), 8K << i], the
 * last one everything above 1 MiB.
 */
#define SMCX_STATS_BUCKETS	9

/* the technology a block counts (SMC_NLA_STATS_SMCR_TECH / _SMCD_TECH) */
enum smcx_tech {
	SMCX_TECH_R,
	SMCX_TECH_D,
	SMCX_TECHS
};

enum smcx_dir {
	SMCX_RX,	/* receive side: RMBs, recvmsg */
	SMCX_TX,	/* send side: send buffers, sendmsg */
	SMCX_DIRS
};

/* one direction's buffer events, the uapi's SMC_NLA_STATS_RMB_* */
struct smcx_stats_buf {
	u64 size_small_peer;	/* TX: send call larger than the peer's RMB */
	u64 size_small;		/* send/receive call larger than our buffer */
	u64 full_peer;		/* TX: data waited for room in the peer's RMB */
	u64 full;		/* TX: send buffer full; RX: RMB full */
	u64 reuse;		/* buffer taken from the link group's pool */
	u64 alloc;		/* buffer newly allocated */
	u64 dgrade;		/* smaller buffer than wanted (allocation failed) */
};

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
	/* per direction: calls by requested size, buffers by size, events */
	u64 pload[SMCX_DIRS][SMCX_STATS_BUCKETS];
	u64 bufsize[SMCX_DIRS][SMCX_STATS_BUCKETS];
	struct smcx_stats_buf buf[SMCX_DIRS];
	/* bytes of buffers held by connections now (adds and subtracts) */
	u64 buf_usage[SMCX_DIRS];
	/* special socket calls on SMC-R connections */
	u64 splice_cnt;
	u64 cork_cnt;		/* TCP_CORK released (corked data pushed) */
	u64 ndly_cnt;		/* TCP_NODELAY switched on */
	u64 urg_data_cnt;	/* send calls with MSG_OOB */
	/* send side pushes (tx.c): those that wrote data, sends held back */
	u64 tx_data_push;
	u64 tx_corked;
	/* server link group reuse (smcx/reuse.h): failed, and groups skipped */
	u64 reuse_failed;
	u64 reuse_refused;
	/* server: Proposals whose GID is not the client's address (no reuse) */
	u64 gid_not_peer;
	/* first contacts refused: link groups per peer or netns (lgr.h) */
	u64 lgr_capped[SMCX_ROLES];
	/* links of SMC-R link groups, see enum smcx_link_ev */
	u64 link_ev[7];
	/* receive busy polls: data came while spinning (hit) or not (miss) */
	u64 busy_poll_hit;
	u64 busy_poll_miss;
	/* RDMA WRITE WITH IMMEDIATE (smcx/wwi.h), see enum smcx_wwi_ev */
	u64 wwi_ev[4];
	/* pushes a completion asked for (smcx_tx_kick), see smcx_kick_ev */
	u64 kick_ev[3];
	/*
	 * RMBs not given back to the pool because the peer might still
	 * write into them (smcx_buf_retire(), review N2)
	 */
	u64 rmb_retire;
};

/* what happened to a link, counted per namespace (debugfs "stats") */
enum smcx_link_ev {
	SMCX_LINK_ADDED,	/* a second link confirmed (ADD_LINK flow) */
	SMCX_LINK_ADD_FAILED,	/* an ADD_LINK flow that made no link */
	SMCX_LINK_REJECTED,	/* the peer (or we) rejected an ADD_LINK */
	SMCX_LINK_DOWN,		/* a link went down, the group stayed */
	SMCX_LINK_TESTLINK_TMO,	/* no answer to our TEST_LINK */
	SMCX_LINK_FAILOVER,	/* a connection moved to another link */
	SMCX_LINK_CLEAR_HELD,	/* a link cleared while a send slot was out */
	SMCX_LINK_EVS
};

/* WRITE WITH IMMEDIATE between smcx hosts, per namespace (debugfs "stats") */
enum smcx_wwi_ev {
	SMCX_WWI_GROUPS,	/* a new link group negotiated it */
	SMCX_WWI_TX,		/* a push went as one WRITE WITH IMMEDIATE */
	SMCX_WWI_RX,		/* one was received and taken */
	SMCX_WWI_STALE,		/* one came on a link its connection left */
	SMCX_WWI_EVS
};

/* where a push that a completion asked for ran (tx.c smcx_tx_kick()) */
enum smcx_kick_ev {
	SMCX_KICK_BH,		/* in the completion (softirq) */
	SMCX_KICK_OWNER,	/* left to the task owning the send side */
	SMCX_KICK_WORK,		/* in tx_work: no send slot was free */
	SMCX_KICK_EVS
};

void smcx_stats_hs_started(struct net *net, enum smcx_role role);
void smcx_stats_hs_error(struct net *net, enum smcx_role role);
void smcx_stats_fallback(struct net *net, enum smcx_role role, u32 reason);
void smcx_stats_reuse_failed(struct net *net);
void smcx_stats_reuse_refused(struct net *net);
void smcx_stats_gid_not_peer(struct net *net);
void smcx_stats_lgr_capped(struct net *net, int role);
void smcx_stats_link(struct net *net, enum smcx_link_ev ev);
/*
 * The SMC-R counters of @net.  A socket keeps the pointer for its data path
 * (smcx_sock.stats): it holds a reference on its namespace, whose exit
 * hook frees the counters, so they outlive the socket.
 */
struct smcx_stats __percpu *smcx_stats_of(struct net *net);
/* the counters of @net for @tech (same lifetime) */
struct smcx_stats __percpu *smcx_stats_of_tech(struct net *net,
					       enum smcx_tech tech);

/*
 * An SMC-D handshake succeeded: the socket's data path counts as SMC-D
 * from now on.  @stats is the socket's smc->stats, @net its namespace.
 * The handshake runs before the connection is up, so no send or receive
 * of the socket counts yet; a reader that races sees the old block or
 * the new one, never a torn pointer.
 */
static inline void smcx_stats_set_smcd(struct smcx_stats __percpu **stats,
				       struct net *net)
{
	WRITE_ONCE(*stats, smcx_stats_of_tech(net, SMCX_TECH_D));
}

/*
 * A handshake succeeded, counted in the block @s: a socket's own
 * (smc->stats), so that an SMC-D connection counts as SMC-D.
 */
void smcx_stats_success_in(struct smcx_stats __percpu *s, enum smcx_role role,
			   u8 version);

/* bucket of @size in a size histogram */
static inline unsigned int smcx_stats_bucket(u64 size)
{
	unsigned int i = 0;

	/* the first bucket whose upper bound (8K << i) holds @size */
	while (i < SMCX_STATS_BUCKETS - 1 && size > (8192ULL << i))
		i++;
	return i;
}

/*
 * A send (@dir SMCX_TX) or receive call that asked for @len bytes moved
 * @bytes: the payload counters of its direction, nothing for 0 bytes
 */
static inline void smcx_stats_moved(struct smcx_stats __percpu *s,
				    enum smcx_dir dir, size_t len, size_t bytes)
{
	if (!bytes)
		return;
	if (dir == SMCX_TX) {
		this_cpu_add(s->tx_bytes, bytes);
		this_cpu_inc(s->tx_cnt);
	} else {
		this_cpu_add(s->rx_bytes, bytes);
		this_cpu_inc(s->rx_cnt);
	}
	this_cpu_inc(s->pload[dir][smcx_stats_bucket(len)]);
}

/*
 * Data path hooks, inline on a socket's counters (@s), each one line at
 * its call site: they run once per send, receive or push.
 *
 * One send call of an SMC-R connection that asked for @len bytes and
 * moved @bytes, with @flags its MSG_ flags: a call that moved nothing
 * counts only whether @len was larger than our send buffer @sndbuf or
 * the peer's RMB @peer_rmb (each 0 while unknown) and MSG_OOB.  The
 * payload histogram is by the requested size, like mainline's.
 */
static inline void smcx_stats_send(struct smcx_stats __percpu *s, size_t len,
				   size_t bytes, u32 sndbuf, u32 peer_rmb,
				   int flags)
{
	if (unlikely(sndbuf && len > sndbuf))
		this_cpu_inc(s->buf[SMCX_TX].size_small);
	if (unlikely(peer_rmb && len > peer_rmb))
		this_cpu_inc(s->buf[SMCX_TX].size_small_peer);
	if (unlikely(flags & MSG_OOB))
		this_cpu_inc(s->urg_data_cnt);
	smcx_stats_moved(s, SMCX_TX, len, bytes);
}

/* per message between smcx hosts: WRITE WITH IMMEDIATE events */
static inline void smcx_stats_wwi(struct smcx_stats __percpu *s,
				  enum smcx_wwi_ev ev)
{
	this_cpu_inc(s->wwi_ev[ev]);
}

/* a push a completion asked for ran where @ev says */
static inline void smcx_stats_tx_kick(struct smcx_stats __percpu *s,
				      enum smcx_kick_ev ev)
{
	this_cpu_inc(s->kick_ev[ev]);
}

/* a send call waits for room in its send buffer */
static inline void smcx_stats_tx_full(struct smcx_stats __percpu *s)
{
	this_cpu_inc(s->buf[SMCX_TX].full);
}

/*
 * a push found @pending bytes to write and @space room in the peer's RMB,
 * and writes @n of them
 */
static inline void smcx_stats_tx_push(struct smcx_stats __percpu *s,
				      u64 pending, u64 space, u64 n)
{
	if (pending && !space)
		this_cpu_inc(s->buf[SMCX_TX].full_peer);
	if (n)
		this_cpu_inc(s->tx_data_push);
}

/* a send call left its data in the send buffer (corking) */
static inline void smcx_stats_tx_corked(struct smcx_stats __percpu *s)
{
	this_cpu_inc(s->tx_corked);
}

/*
 * One receive call of an SMC-R connection that asked for @len bytes and
 * moved @bytes; a call that moved nothing is not counted.
 */
static inline void smcx_stats_rx(struct smcx_stats __percpu *s, size_t len,
				 size_t bytes)
{
	smcx_stats_moved(s, SMCX_RX, len, bytes);
}

/*
 * A receive call of @len bytes finding @avail bytes in the RMB of @rmb
 * bytes (0: none yet)
 */
static inline void smcx_stats_rx_call(struct smcx_stats __percpu *s,
				      size_t len, u32 rmb, u64 avail)
{
	if (!rmb)
		return;
	if (unlikely(len > rmb))
		this_cpu_inc(s->buf[SMCX_RX].size_small);
	if (unlikely(avail >= rmb))
		this_cpu_inc(s->buf[SMCX_RX].full);
}

/*
 * A connection took a buffer of @size (@reused from the pool; @dgrade:
 * smaller than it wanted), or gave it back.
 */
void smcx_stats_buf_get(struct smcx_stats __percpu *s, bool rmb, u32 size,
			bool reused, bool dgrade);
void smcx_stats_buf_put(struct smcx_stats __percpu *s, bool rmb, u32 size);
/* ... and an RMB given back was retired, not pooled (buf.c) */
void smcx_stats_rmb_retire(struct smcx_stats __percpu *s);
/*
 * Socket calls, in the socket's block (smc->stats); counted only while the
 * socket runs over SMC (@smcr: SMC-R or SMC-D), as mainline does.
 */
void smcx_stats_splice(struct smcx_stats __percpu *s, bool smcr);
/* a receive busy poll ended, with data (@hit) or without */
void smcx_stats_busy_poll(struct net *net, bool hit);
void smcx_stats_sockopt(struct smcx_stats __percpu *s, bool smcr, int level,
			int optname, sockptr_t optval, unsigned int optlen,
			int rc);

/* sum of all CPUs for @net: its SMC-R block, or the @tech block */
void smcx_stats_fold(struct net *net, struct smcx_stats *out);
void smcx_stats_fold_tech(struct net *net, enum smcx_tech tech,
			  struct smcx_stats *out);
/* reason code of slot @i, 0 for the "other" slot or an unused one */
u32 smcx_stats_rsn_code(unsigned int i);

int smcx_stats_init(void);
void smcx_stats_exit(void);

#endif /* SMCX_STATS_H */
