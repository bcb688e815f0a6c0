/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-netns sysctls under net.smc.* (sysctl.c).
 *
 * Every network namespace gets its own values, created with the namespace
 * (mainline defaults) and freed with it.  Readers use the accessors below,
 * which are lock-free (READ_ONCE of an int in the namespace's block) and
 * safe in atomic context, e.g. from the tcp2smc kretprobe.
 */
#ifndef SMCX_SYSCTL_H
#define SMCX_SYSCTL_H

#include <linux/types.h>

#include <smcx/v2x.h>

struct net;

/* mainline defaults and limits (net/smc of 6.12) */
#define SMCX_BUF_MIN_SIZE		16384
#define SMCX_WMEM_DEFAULT		(64 * 1024)
#define SMCX_RMEM_DEFAULT		(64 * 1024)
/* mainline's SMC_AUTOCORKING_DEFAULT_SIZE */
#define SMCX_AUTOCORKING_SIZE		(64 * 1024)
/* mainline's SMC_LLC_TESTLINK_DEFAULT_TIME; 0: no TEST_LINK */
#define SMCX_TESTLINK_TIME		(30 * HZ)
/* ranges: smcx/v2x.h; defaults: mainline's ..._PREFER */
#define SMCX_LINKS_PER_LGR_DEFAULT	SMCX_V2X_LINKS_MAX
#define SMCX_CONNS_PER_LGR_DEFAULT	SMCX_V2X_CONNS_MAX
/* the flight recorder and the peer cache (smcx only) */
#define SMCX_HSREC_DEFAULT		64
#define SMCX_HSREC_MAX			4096
#define SMCX_PEER_TTL_DEFAULT		300
#define SMCX_PEER_TTL_MAX		86400

struct smcx_sysctl {
	int tcp2smc;			/* 0/1: user TCP sockets become SMC */
	int wmem;			/* initial send buffer size */
	int rmem;			/* initial receive buffer (RMB) size */
	unsigned int autocorking_size;	/* max autocorked bytes, 0 = off */
	int smcr_testlink_time;		/* jiffies, 0 = no TEST_LINK: 30 s */
	int smcr_max_links_per_lgr;
	int smcr_max_conns_per_lgr;
	/*
	 * 0/1: new smcx sockets start with handshake limitation on (see
	 * listen.c); also SMC_NETLINK_{ENABLE,DISABLE}_HS_LIMITATION
	 */
	int limit_smc_hs;
	/*
	 * 0/1 (default 1): offer and accept RDMA WRITE WITH IMMEDIATE for
	 * new link groups with smcx peers (smcx/wwi.h, docs/wire.md)
	 */
	int smcx_write_imm;
	/*
	 * 0/1 (default 1): offer (client) and take (server) SMC-D over the
	 * loopback device for connections within this host (lo.h)
	 */
	int smcx_loopback;
	/*
	 * handshakes the flight recorder keeps (hsrec.c), 0: none recorded;
	 * at most SMCX_HSREC_MAX
	 */
	int smcx_hs_records;
	/*
	 * seconds a peer that broke the handshake is offered plain TCP
	 * (peers.c), 0: peers are not remembered
	 */
	int smcx_peer_ttl;
};

/* the namespace's values; never NULL for a live namespace */
const struct smcx_sysctl *smcx_sysctl(const struct net *net);

static inline bool smcx_tcp2smc_on(const struct net *net)
{
	return READ_ONCE(smcx_sysctl(net)->tcp2smc) != 0;
}

/*
 * Set by tcp2smc.c: whether the socket() hook is in place.  Without it,
 * writing 1 to net.smc.tcp2smc fails with EOPNOTSUPP instead of silently
 * doing nothing.
 */
void smcx_sysctl_set_tcp2smc_available(bool avail);

/* the netlink side of net.smc.limit_smc_hs: one value per namespace */
void smcx_sysctl_set_limit_smc_hs(struct net *net, bool on);

int smcx_sysctl_init(void);
void smcx_sysctl_exit(void);

#endif /* SMCX_SYSCTL_H */
