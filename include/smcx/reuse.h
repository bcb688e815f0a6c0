/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx pure logic: how many failed reuses a server's link group takes
 * before the server stops offering it.
 *
 * A server offers a client an existing link group (a reuse) when the
 * client's Proposal names the GID of the group's peer.  Nothing in the
 * Proposal proves that: anyone reaching the listener can name that GID.
 * Before its Accept the server registers the connection's RMB on the
 * group's link and announces it to the group's peer (REG_MR, CONFIRM_RKEY;
 * a new buffer each time all of the pool's are in use), and only the
 * client's Confirm shows whether the client is that peer (kernel/join.c,
 * smcx_join_same_peer()).  A stranger's reuse fails there, or when it
 * never confirms, after it made the real peer's link do that work.
 *
 * The limit: the failed reuses of one group are metered by the generic
 * cell rate algorithm.  Each failure moves the meter's theoretical
 * arrival time (@tat) SMCX_REUSE_EVERY_MS on from the later of itself and
 * now; SMCX_REUSE_BURST failures close together, or a steady rate above
 * one per SMCX_REUSE_EVERY_MS, push it more than (SMCX_REUSE_BURST - 1)
 * periods ahead, and the group closes to reuse for SMCX_REUSE_HOLD_MS.
 * Proposals naming its peer then get a first contact: a new group on a
 * new link, which only the real peer can confirm.  The closed group's
 * connections go on as before.  An honest peer's reuses do not fail, so
 * it meets the limit only when a stranger pushed the group over it, and
 * then still gets SMC-R, on a group of its own.
 *
 * Times are milliseconds of a 64-bit clock that does not wrap (the kernel:
 * jiffies64_to_msecs()).  The caller serialises the calls on one meter
 * (the kernel: smcx_lgrs_mutex).
 *
 * Header-only C that compiles in the kernel (SMCX_KERNEL), C11 and C++20.
 */
#ifndef SMCX_REUSE_H
#define SMCX_REUSE_H

/* failed reuses a group takes in a burst; the last of them closes it */
#define SMCX_REUSE_BURST	4u
/* ... and the steady rate it takes: one per period */
#define SMCX_REUSE_EVERY_MS	2500u
/* how long a group that met the limit is not offered */
#define SMCX_REUSE_HOLD_MS	60000u

struct smcx_reuse_meter {
	unsigned long long tat;	  /* theoretical arrival time of the next failure */
	unsigned long long until; /* closed: reopens then */
	unsigned char closed;
};

/* may the group be offered for reuse at @now?  Reopens a closed one. */
static inline int smcx_reuse_open(struct smcx_reuse_meter *m,
				  unsigned long long now)
{
	if (m->closed && now >= m->until) {
		m->closed = 0;
		m->tat = 0;
	}
	return !m->closed;
}

/*
 * A reuse of the group failed at @now.  1: this failure closed it.  A
 * failure while it is closed (the reuse was offered before it closed)
 * changes nothing.
 */
static inline int smcx_reuse_failed(struct smcx_reuse_meter *m,
				    unsigned long long now)
{
	if (!smcx_reuse_open(m, now))
		return 0;
	if (m->tat < now)
		m->tat = now;
	m->tat += SMCX_REUSE_EVERY_MS;
	if (m->tat - now <= (SMCX_REUSE_BURST - 1u) * SMCX_REUSE_EVERY_MS)
		return 0;
	m->closed = 1;
	m->until = now + SMCX_REUSE_HOLD_MS;
	return 1;
}

#endif /* SMCX_REUSE_H */
