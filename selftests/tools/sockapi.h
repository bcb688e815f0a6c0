/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sockapi: shared helpers of the socket-semantics suite (see sockapi.c and
 * docs/sockapi.md).  Everything here is about making an observation print
 * the same way on every run: errno names, poll masks, address descriptions
 * without the parts (ephemeral ports) that change from run to run.
 */
#ifndef SOCKAPI_H
#define SOCKAPI_H

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>

#ifndef POLLRDHUP
#define POLLRDHUP 0x2000
#endif

/* Rotating static buffers: several results may be formatted in one printf. */
static inline char *rbuf(void)
{
	static char bufs[16][256];
	static unsigned int i;

	return bufs[i++ % 16];
}

static inline const char *ename(int e)
{
	const char *n = e ? strerrorname_np(e) : "0";
	char *b;

	if (n)
		return n;
	b = rbuf();
	snprintf(b, 256, "E%d", e);
	return b;
}

/* A system call result: "N" for success, "-1:ENAME" for failure. */
static inline const char *rv_str(long r, int e)
{
	char *b = rbuf();

	if (r < 0)
		snprintf(b, 256, "%ld:%s", r, ename(e));
	else
		snprintf(b, 256, "%ld", r);
	return b;
}


static inline const char *pmask(int m)
{
	static const struct { int bit; const char *name; } names[] = {
		{ POLLIN, "POLLIN" }, { POLLPRI, "POLLPRI" }, { POLLOUT, "POLLOUT" },
		{ POLLERR, "POLLERR" }, { POLLHUP, "POLLHUP" }, { POLLNVAL, "POLLNVAL" },
		{ POLLRDHUP, "POLLRDHUP" },
	};
	char *b = rbuf();
	size_t i;

	if (m < 0)
		return "pollfail";
	b[0] = 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(m & names[i].bit))
			continue;
		if (b[0])
			strcat(b, "|");
		strcat(b, names[i].name);
		m &= ~names[i].bit;
	}
	if (m)
		snprintf(b + strlen(b), 64, "%s0x%x", b[0] ? "|" : "", m);
	if (!b[0])
		strcpy(b, "0");
	return b;
}

static inline const char *emask(unsigned int m)
{
	static const struct { unsigned int bit; const char *name; } names[] = {
		{ EPOLLIN, "EPOLLIN" }, { EPOLLPRI, "EPOLLPRI" }, { EPOLLOUT, "EPOLLOUT" },
		{ EPOLLERR, "EPOLLERR" }, { EPOLLHUP, "EPOLLHUP" },
		{ EPOLLRDHUP, "EPOLLRDHUP" },
	};
	char *b = rbuf();
	size_t i;

	b[0] = 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(m & names[i].bit))
			continue;
		if (b[0])
			strcat(b, "|");
		strcat(b, names[i].name);
		m &= ~names[i].bit;
	}
	if (m)
		snprintf(b + strlen(b), 64, "%s0x%x", b[0] ? "|" : "", m);
	if (!b[0])
		strcpy(b, "0");
	return b;
}

static inline long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static inline void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The data pattern: byte i of every stream, so that loss, duplication and
 * reordering all show as a mismatch at a known offset. */
static inline unsigned char pat(uint64_t i)
{
	uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull;

	return (unsigned char)((x >> 57) ^ (i >> 9) ^ (i >> 17));
}

static inline void pat_fill(unsigned char *b, uint64_t off, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = pat(off + i);
}

/* Index of the first byte that is not the pattern, or n. */
static inline size_t pat_check(const unsigned char *b, uint64_t off, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != pat(off + i))
			return i;
	return n;
}

/* FNV-1a, continued over a stream. */
static inline uint32_t fnv(uint32_t h, const unsigned char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= 16777619u;
	}
	return h;
}

#define FNV_INIT 2166136261u

#endif
