// SPDX-License-Identifier: GPL-2.0
/*
 * xfer: pattern-verified bulk transfer over TCP or SMC, for the lab tests.
 *
 *   xfer server -f FAMILY -p PORT [-c CONNS] [-q]
 *   xfer client -f FAMILY -a ADDR -p PORT [-n BYTES | -t SECS]
 *               [-m send|recv|duplex] [-c CONNS] [-s SEED] [-b CHUNK] [-q]
 *
 * FAMILY: tcp, tcp6, smc (AF_SMC/SMCPROTO_SMC), smc6 (SMCPROTO_SMC6),
 * ipproto_smc, ipproto_smc6 (AF_INET/AF_INET6 with IPPROTO_SMC): fam_find()
 * of common.h.
 *
 * The client opens CONNS connections at once (a thread each) and starts every
 * one with a 24-byte header (magic, mode, byte count, seed), so the server
 * needs no per-test arguments.  Data bytes come from a seeded generator; the
 * receiving side regenerates them and compares every byte, so corruption,
 * loss, duplication and reordering are all caught, not just totals.  Each side
 * sends its data, shuts down its write side and reads until EOF, so a
 * successful exit means every byte arrived and was checked.
 *
 * With -t SECS every sending side sends CHUNK-sized writes for SECS seconds
 * (its own clock) instead of BYTES, then shuts down as above; the header
 * carries the XFER_TIMED flag and the duration in milliseconds in place of
 * the byte count, and a receiver takes whatever length ends in EOF.  The
 * pattern depends only on the byte's position, so every byte is still
 * checked; that the receiver got all of them shows in the two sides'
 * "bytes=... fnv=..." lines, which must agree.
 *
 * With -M (both sides) the data phase is marked for instruction counting
 * (scripts/perfcount): once every connection has sent or read its header,
 * QMARK_START(XFER_MARK) of qmark.h; when the last one has moved its bytes
 * (the sender saw the receiver's EOF, the receiver shut down its side),
 * QMARK_STOP(XFER_MARK).  connect(), accept() and close() stay outside.
 *
 * Output, one line per connection and direction:
 *   xfer: conn 3 rx bytes=4194304 fnv=0123456789abcdef ok
 * a summary with the elapsed time and throughput (for benchmarks), and the
 * process's own CPU time (getrusage) per byte it moved, which is what the
 * generator and verifier cost beside the stack under test:
 *   xfer: cpu user=0.123 sys=0.456 user_ns_per_byte=1.23
 * Exit status 0 only if every connection moved and verified its bytes.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "qmark.h"

#define XFER_MAGIC 0x58464552u /* "XFER" */
#define MAX_CONNS 1024
#define XFER_TIMED 0x100u /* mode flag: bytes holds a duration in ms */
#define MAX_SECS 3600
#define XFER_MARK 2	/* the plugin's window label of the data phase */

enum mode { M_SEND, M_RECV, M_DUPLEX };

struct hdr {
	uint32_t magic;
	uint32_t mode;  /* from the client's point of view, | XFER_TIMED */
	uint64_t bytes; /* or the sending time in ms with XFER_TIMED */
	uint64_t seed;
};

static const struct fam *fam;
static int quiet;
static size_t chunk = 65536;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * -M: every connection's thread passes mark_begin() once, with its header
 * exchanged or not (so that a failed one cannot hold up the others), and
 * mark_end() once after its data phase.  The second barrier keeps every
 * thread from moving data before the window has begun.
 */
static int mark;
static int mark_left;
static pthread_barrier_t mark_barrier;

static void mark_begin(void)
{
	if (!mark)
		return;
	if (pthread_barrier_wait(&mark_barrier) == PTHREAD_BARRIER_SERIAL_THREAD)
		QMARK_START(XFER_MARK);
	pthread_barrier_wait(&mark_barrier);
}

static void mark_end(void)
{
	if (mark && !__atomic_sub_fetch(&mark_left, 1, __ATOMIC_ACQ_REL))
		QMARK_STOP(XFER_MARK);
}

/* The generator: 8-byte blocks of splitmix64(seed + block index). */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/*
 * The pattern: byte pos of a stream is byte pos % 8 (bits 8k..8k+7) of
 * mix(seed + pos / 8).  One mix() per 8 bytes, stored as a little-endian
 * word where the stream is word-aligned: a ninth of the cost of one per
 * byte (natively 0.15 against 1.3 ns/B), for the same bytes.
 */
static unsigned char pat(uint64_t seed, uint64_t pos)
{
	return (unsigned char)(mix(seed + pos / 8) >> (8 * (pos % 8)));
}

static void fill(unsigned char *buf, size_t len, uint64_t seed, uint64_t off)
{
	size_t i = 0;

	while (i < len && ((off + i) % 8 || len - i < 8)) {
		buf[i] = pat(seed, off + i);
		i++;
	}
	for (; len - i >= 8; i += 8) {
		uint64_t w = htole64(mix(seed + (off + i) / 8));

		memcpy(buf + i, &w, 8);
	}
	for (; i < len; i++)
		buf[i] = pat(seed, off + i);
}

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&out_lock);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

/*
 * Send @bytes, or for @msecs milliseconds when @msecs is not 0 (the clock
 * is read about once per 64 KiB so that 1-byte writes do not pay for it).
 * *@moved is what went out.
 */
static int do_send(int fd, int id, uint64_t bytes, uint64_t msecs, uint64_t seed,
		   uint64_t *moved)
{
	unsigned char *buf = malloc(chunk);
	uint64_t off = 0, h = 0xcbf29ce484222325ull, next_check = 0;
	double end = now() + msecs / 1e3;

	if (!buf)
		return -1;
	if (msecs)
		bytes = UINT64_MAX;
	while (off < bytes) {
		size_t n = bytes - off < chunk ? bytes - off : chunk;

		if (msecs && off >= next_check) {
			if (now() >= end)
				break;
			next_check = off + 65536;
		}

		fill(buf, n, seed, off);
		h = fnv(h, buf, n);
		if (write_all(fd, buf, n)) {
			say("xfer: conn %d tx failed at %llu: %s\n", id,
			    (unsigned long long)off, strerror(errno));
			free(buf);
			return -1;
		}
		off += n;
	}
	free(buf);
	*moved = off;
	if (shutdown(fd, SHUT_WR)) {
		say("xfer: conn %d shutdown: %s\n", id, strerror(errno));
		return -1;
	}
	if (!quiet)
		say("xfer: conn %d tx bytes=%llu fnv=%016llx ok\n", id,
		    (unsigned long long)off, (unsigned long long)h);
	return 0;
}

/* Receive and check @bytes, or up to EOF when @timed; *@moved: what came. */
static int do_recv(int fd, int id, uint64_t bytes, int timed, uint64_t seed, uint64_t *moved)
{
	unsigned char *buf = malloc(chunk), *want = malloc(chunk);
	uint64_t off = 0, h = 0xcbf29ce484222325ull;
	int ret = -1;

	if (!buf || !want)
		goto out;
	if (timed)
		bytes = UINT64_MAX;
	for (;;) {
		ssize_t n = recv(fd, buf, chunk, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			say("xfer: conn %d rx failed at %llu: %s\n", id,
			    (unsigned long long)off, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		if (off + n > bytes) {
			say("xfer: conn %d rx too much: %llu > %llu\n", id,
			    (unsigned long long)(off + n), (unsigned long long)bytes);
			goto out;
		}
		fill(want, n, seed, off);
		if (memcmp(buf, want, n)) {
			for (ssize_t i = 0; i < n; i++)
				if (buf[i] != want[i]) {
					say("xfer: conn %d rx mismatch at byte %llu\n", id,
					    (unsigned long long)(off + i));
					break;
				}
			goto out;
		}
		h = fnv(h, buf, n);
		off += n;
	}
	*moved = off;
	if (!timed && off != bytes) {
		say("xfer: conn %d rx short: %llu of %llu\n", id,
		    (unsigned long long)off, (unsigned long long)bytes);
		goto out;
	}
	if (!quiet)
		say("xfer: conn %d rx bytes=%llu fnv=%016llx ok\n", id,
		    (unsigned long long)off, (unsigned long long)h);
	ret = 0;
out:
	free(buf);
	free(want);
	return ret;
}

struct conn {
	pthread_t th;
	int fd, id, server, rc;
	struct hdr h;		/* mode without XFER_TIMED */
	uint64_t msecs;		/* sending time, 0: h.bytes each way */
	uint64_t moved;		/* bytes sent plus bytes received */
	const char *addr;
	int port;
};

struct half {
	int fd, id, rc;
	uint64_t bytes, msecs, seed, moved;
};

static void *send_thread(void *arg)
{
	struct half *hf = arg;

	hf->rc = do_send(hf->fd, hf->id, hf->bytes, hf->msecs, hf->seed, &hf->moved);
	return NULL;
}

/*
 * Run one connection's data phase.  tx/rx seeds differ per direction so a
 * reflected stream cannot pass for the expected one.
 */
static int run_data(struct conn *c, int fd, int sending, int receiving, uint64_t seed)
{
	uint64_t tx_seed = seed + (c->server ? 1 : 0), rx_seed = seed + (c->server ? 0 : 1);
	struct half hf = { fd, c->id, 0, c->h.bytes, c->msecs, tx_seed, 0 };
	uint64_t bytes = c->h.bytes, rx = 0;
	int timed = c->msecs != 0, id = c->id;
	pthread_t th;
	int rc = 0;

	c->moved = 0;
	if (sending && receiving) {
		if (pthread_create(&th, NULL, send_thread, &hf))
			return -1;
		rc |= do_recv(fd, id, bytes, timed, rx_seed, &rx);
		pthread_join(th, NULL);
		c->moved = rx + hf.moved;
		return rc | hf.rc;
	}
	if (sending) {
		char c1;

		rc = do_send(fd, id, bytes, c->msecs, tx_seed, &c->moved);
		/* wait for the receiver to finish: EOF from its close */
		while (!rc && recv(fd, &c1, 1, 0) > 0)
			;
		return rc;
	}
	if (receiving) {
		rc = do_recv(fd, id, bytes, timed, rx_seed, &c->moved);
		if (!rc && shutdown(fd, SHUT_WR))
			rc = -1;
		return rc;
	}
	return 0;
}

static void *client_thread(void *arg)
{
	struct conn *c = arg;
	struct sockaddr_storage ss;
	socklen_t len;
	struct hdr wire;
	int fd;

	c->rc = -1;
	fd = socket(fam->domain, SOCK_STREAM, fam->proto);
	if (fd < 0) {
		say("xfer: socket(%s): %s\n", fam->name, strerror(errno));
		goto out;
	}
	if (make_addr(&ss, &len, fam->addr_family, c->addr, c->port)) {
		say("xfer: bad address %s\n", c->addr);
		goto out;
	}
	if (connect(fd, (struct sockaddr *)&ss, len)) {
		say("xfer: conn %d connect: %s\n", c->id, strerror(errno));
		goto out;
	}
	wire.magic = htonl(XFER_MAGIC);
	wire.mode = htonl(c->h.mode | (c->msecs ? XFER_TIMED : 0));
	wire.bytes = htobe64(c->msecs ? c->msecs : c->h.bytes);
	wire.seed = htobe64(c->h.seed);
	if (write_all(fd, &wire, sizeof(wire))) {
		say("xfer: conn %d header: %s\n", c->id, strerror(errno));
		goto out;
	}
	mark_begin();
	c->rc = run_data(c, fd, c->h.mode != M_RECV, c->h.mode != M_SEND, c->h.seed);
	mark_end();
	close(fd);
	return NULL;
out:
	mark_begin();
	mark_end();
	if (fd >= 0)
		close(fd);
	return NULL;
}

static void *server_thread(void *arg)
{
	struct conn *c = arg;
	struct hdr wire;
	int bad = read_all(c->fd, &wire, sizeof(wire)) || ntohl(wire.magic) != XFER_MAGIC;

	c->rc = -1;
	mark_begin();
	if (bad) {
		say("xfer: conn %d: bad or missing header\n", c->id);
		goto out;
	}
	c->h.mode = ntohl(wire.mode) & ~XFER_TIMED;
	c->h.bytes = be64toh(wire.bytes);
	c->h.seed = be64toh(wire.seed);
	c->msecs = 0;
	if (ntohl(wire.mode) & XFER_TIMED) {
		c->msecs = c->h.bytes;
		c->h.bytes = 0;
		if (!c->msecs || c->msecs > MAX_SECS * 1000ull) {
			say("xfer: conn %d: bad duration %llu ms\n", c->id,
			    (unsigned long long)c->msecs);
			goto out;
		}
	}
	if (c->h.mode > M_DUPLEX) {
		say("xfer: conn %d: bad mode %u\n", c->id, c->h.mode);
		goto out;
	}
	c->rc = run_data(c, c->fd, c->h.mode != M_SEND, c->h.mode != M_RECV, c->h.seed);
out:
	mark_end();
	close(c->fd);
	return NULL;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: xfer server -f FAMILY -p PORT [-c CONNS] [-l BACKLOG] [-q]\n"
		"       xfer client -f FAMILY -a ADDR -p PORT [-n BYTES | -t SECS]\n"
		"                   [-m send|recv|duplex] [-c CONNS] [-s SEED] [-b CHUNK] [-q]\n"
		"-M (both): mark the data phase for scripts/perfcount\n"
		"FAMILY: tcp tcp6 smc smc6 ipproto_smc ipproto_smc6\n"
		"BACKLOG: listen() backlog (default CONNS + 16)\n"
		"SECS: each sending side sends for SECS seconds (1..%d) instead of BYTES\n",
		MAX_SECS);
	exit(2);
}

static uint64_t parse_size(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);

	switch (*end) {
	case 'k': case 'K': v <<= 10; break;
	case 'm': case 'M': v <<= 20; break;
	case 'g': case 'G': v <<= 30; break;
	case 0: break;
	default: usage();
	}
	return v;
}

int main(int argc, char **argv)
{
	int server, port = 0, nconns = 1, backlog = 0, opt, ok = 0;
	const char *addr = NULL, *mode = "send";
	uint64_t bytes = 1 << 20, seed = 1, msecs = 0;
	struct conn *conns;
	struct rusage ru;
	double t0, user, sys;

	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "server"))
		server = 1;
	else if (!strcmp(argv[1], "client"))
		server = 0;
	else
		usage();
	optind = 2;
	while ((opt = getopt(argc, argv, "f:a:p:n:m:c:s:b:l:t:qM")) != -1) {
		switch (opt) {
		case 'f':
			fam = fam_find(optarg);
			if (!fam)
				usage();
			break;
		case 'a': addr = optarg; break;
		case 'p': port = atoi(optarg); break;
		case 'n': bytes = parse_size(optarg); break;
		case 'm': mode = optarg; break;
		case 'c': nconns = atoi(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'b': chunk = parse_size(optarg); break;
		case 'l': backlog = atoi(optarg); break;
		case 't':
			msecs = strtoull(optarg, NULL, 0) * 1000ull;
			if (!msecs || msecs > MAX_SECS * 1000ull)
				usage();
			break;
		case 'q': quiet = 1; break;
		case 'M': mark = 1; break;
		default: usage();
		}
	}
	if (!fam || !port || nconns < 1 || nconns > MAX_CONNS || !chunk || (!server && !addr))
		usage();
	conns = calloc(nconns, sizeof(*conns));
	if (!conns)
		return 1;
	mark_left = nconns;
	if (mark && pthread_barrier_init(&mark_barrier, NULL, nconns))
		return 1;
	t0 = now();
	if (server) {
		struct sockaddr_storage ss;
		socklen_t len;
		int one = 1, lfd = socket(fam->domain, SOCK_STREAM, fam->proto);

		if (lfd < 0) {
			fprintf(stderr, "xfer: socket(%s): %s\n", fam->name, strerror(errno));
			return 1;
		}
		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		make_addr(&ss, &len, fam->addr_family, NULL, port);
		if (bind(lfd, (struct sockaddr *)&ss, len) || listen(lfd, backlog > 0 ? backlog : nconns + 16)) {
			fprintf(stderr, "xfer: bind/listen %d: %s\n", port, strerror(errno));
			return 1;
		}
		say("xfer: listening on %d (%s)\n", port, fam->name);
		for (int i = 0; i < nconns; i++) {
			conns[i].id = i;
			conns[i].server = 1;
			conns[i].fd = accept(lfd, NULL, NULL);
			if (conns[i].fd < 0) {
				fprintf(stderr, "xfer: accept: %s\n", strerror(errno));
				return 1;
			}
			if (i == 0)
				t0 = now();
			if (pthread_create(&conns[i].th, NULL, server_thread, &conns[i]))
				return 1;
		}
		close(lfd);
	} else {
		uint32_t m = !strcmp(mode, "send") ? M_SEND : !strcmp(mode, "recv") ? M_RECV :
			     !strcmp(mode, "duplex") ? M_DUPLEX : 99;

		if (m == 99)
			usage();
		for (int i = 0; i < nconns; i++) {
			conns[i] = (struct conn){ .id = i, .addr = addr, .port = port,
						  .h = { 0, m, bytes, seed + 2 * i },
						  .msecs = msecs };
			if (pthread_create(&conns[i].th, NULL, client_thread, &conns[i]))
				return 1;
		}
	}
	uint64_t total = 0;

	for (int i = 0; i < nconns; i++) {
		pthread_join(conns[i].th, NULL);
		if (!conns[i].rc) {
			ok++;
			total += conns[i].moved;
		}
	}
	double secs = now() - t0;

	say("xfer: %s %d/%d connections ok, %llu bytes in %.3fs, %.2f MB/s\n",
	    server ? "server" : "client", ok, nconns, (unsigned long long)total, secs,
	    secs > 0 ? total / secs / 1e6 : 0.0);
	/* all threads, from exec: the tool's cost beside the stack's */
	if (!getrusage(RUSAGE_SELF, &ru)) {
		user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
		sys = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
		say("xfer: cpu user=%.3f sys=%.3f user_ns_per_byte=%.2f\n", user, sys,
		    total ? user * 1e9 / total : 0.0);
	}
	free(conns);
	return ok == nconns ? 0 : 1;
}
