/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hostile: shared declarations of hostile.c (CLC attacks, the case
 * generator, the victim server) and hostile_ib.c (the RDMA side).
 */
#ifndef HOSTILE_H
#define HOSTILE_H

#include <stdint.h>
#include <stdarg.h>
#include <stddef.h>

#include <smcx/wire.h>

/* outcome classes of a case (what the tool saw); see hostile.c */
enum houtcome {
	HO_DECLINE,		/* a CLC Decline, then the stream is TCP */
	HO_FALLBACK,		/* no CLC from the victim: TCP from the start */
	HO_RESET,		/* the victim (or we) reset the connection */
	HO_LGR_TERM,		/* an SMC-R connection's link group ended */
	HO_SMCR,		/* an SMC-R connection came up and was closed */
	HO_KNOWN,		/* a symptom of a known bug the caller left out */
	HO_UNEXPECTED,		/* a finding: see the case's message */
	HO_MAX
};

/* splitmix64: the one random source; a case's state is seeded from
 * (run seed, case number) so any case runs alone with the same bytes
 */
struct hrng {
	uint64_t s;
};

static inline uint64_t hr_next(struct hrng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* uniform in [0, n), n > 0 */
static inline uint32_t hr_below(struct hrng *r, uint32_t n)
{
	return (uint32_t)(hr_next(r) % n);
}

static inline int hr_chance(struct hrng *r, unsigned int percent)
{
	return hr_below(r, 100) < percent;
}

static inline void hr_fill(struct hrng *r, uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)hr_next(r);
}

/* hostile.c's helpers, shared with hostile_ib.c */
#define HOSTILE_OUR_EID "SMCX-DEFAULT-UEID"	/* smcx's default user EID */
int64_t now_ms(void);
void sleep_ms(int ms);
int tcp_connect(const char *addr, int port, int ms);
/* the same from the local address @src (NULL: any; our GID follows it) */
int tcp_connect_from(const char *src, const char *addr, int port, int ms);
int send_all(int fd, const uint8_t *p, size_t n);
size_t rd_exact(int fd, uint8_t *buf, size_t n, int64_t deadline, int *why);
void eid_set(uint8_t *eid, const char *s);
/* append a blank and a formatted note to the case's text @what of @size */
void note_append(char *what, size_t size, const char *fmt, va_list ap);

/*
 * hostile_ib.c: the RDMA cases (hostile rdma); @hold: seconds to keep the
 * connection of an unexpected case open before it is closed, to look at
 * the victim's state (debugfs socks)
 */
int hostile_rdma(const char *addr, int port, uint64_t seed, uint64_t first, uint64_t count,
		 int verbose, const char *skip, const char *keep, int hold);
/*
 * hostile_ib.c: a slow acknowledger (hostile slowack): from @src, a first
 * contact whose receives come back one per @ms, then @n connections at
 * once claiming the group; runs @secs in all
 */
int hostile_slowack(const char *addr, int port, const char *src, int n, int secs, int ms);

#endif /* HOSTILE_H */
