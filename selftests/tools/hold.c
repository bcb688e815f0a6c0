// SPDX-License-Identifier: GPL-2.0
/*
 * hold: open many connections at once, verify data on each, keep them all
 * open until told to let go, verify data again, close.  For the lab tests
 * that look at a live link group (smcr_many_conns: 64 connections on one).
 *
 *   hold server -f FAMILY -p PORT [-c CONNS] [-S SNDBUF] [-B RCVBUF] [-q]
 *   hold client -f FAMILY -a ADDR -p PORT [-c CONNS] [-n BYTES] [-R READY]
 *               [-r RELEASE] [-t SECONDS] [-S SNDBUF] [-B RCVBUF] [-q]
 *
 * FAMILY: tcp, tcp6, smc (AF_SMC/SMCPROTO_SMC), smc6 (SMCPROTO_SMC6),
 * ipproto_smc, ipproto_smc6 (AF_INET/AF_INET6 with IPPROTO_SMC): fam_find()
 * of common.h.
 *
 * The client starts CONNS threads that connect at the same moment (a
 * barrier; with -s one after the other), each sends a 24-byte header (magic, byte count, seed) and then:
 *
 *   phase 1: client sends BYTES, the server checks them and answers BYTES;
 *   hold:    when every connection has passed phase 1 the client prints
 *            "hold: N of M connections open" and creates the file READY (if
 *            -R) holding "N M" (connections that passed phase 1, all of them),
 *            then waits until the file RELEASE exists (if -r; else at once),
 *            at most SECONDS (default 600; then it fails);
 *   phase 2: the same exchange again with other seeds, so a connection that
 *            broke while held is caught;
 *   close:   the client shuts down its write side, the server reads EOF and
 *            closes, the client reads EOF and closes.
 *
 * -S / -B set SO_SNDBUF / SO_RCVBUF (bytes, K/M suffix) on every client
 * socket before connect() and on the server's listener before listen().
 *
 * Data is the seeded generator of xfer.c (8-byte blocks of splitmix64), a
 * different seed per connection, direction and phase; every byte is compared.
 * Output: one line per failure, "hold: conn I ...", and a summary
 *   hold: client 64/64 connections ok
 * Exit status 0 only if every connection passed both phases and closed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define HOLD_MAGIC 0x484f4c44u /* "HOLD" */
#define MAX_CONNS 1024
#define CHUNK 65536

struct hdr {
	uint32_t magic;
	uint32_t pad;
	uint64_t bytes;
	uint64_t seed;
};

static const struct fam *fam;
static int quiet;
static int serial;		/* -s: one connect() at a time */
static int sndbuf, rcvbuf;	/* -S, -B; 0: not set */
static pthread_mutex_t connect_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t start_bar, held_bar, go_bar;

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

/* -S / -B before connect() or listen(); a refusal is reported, not fatal */
static void set_bufs(int fd)
{
	if (sndbuf && setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)))
		say("hold: SO_SNDBUF %d: %s\n", sndbuf, strerror(errno));
	if (rcvbuf && setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)))
		say("hold: SO_RCVBUF %d: %s\n", rcvbuf, strerror(errno));
}

/* bytes with an optional K or M suffix; -1 if not a size that fits an int */
static int parse_bufsize(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 0);

	if (v <= 0 || v > 0x7fffffff)
		return -1;
	if (*end == 'k' || *end == 'K')
		v <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		v <<= 20, end++;
	return *end || v <= 0 || v > 0x7fffffff ? -1 : (int)v;
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static void fill(unsigned char *buf, size_t len, uint64_t seed, uint64_t off)
{
	for (size_t i = 0; i < len; i++) {
		uint64_t pos = off + i;

		buf[i] = (unsigned char)(mix(seed + pos / 8) >> (8 * (pos % 8)));
	}
}

static int send_pattern(int fd, int id, uint64_t bytes, uint64_t seed, const char *what)
{
	unsigned char buf[CHUNK];

	for (uint64_t off = 0; off < bytes;) {
		size_t n = bytes - off < CHUNK ? bytes - off : CHUNK;

		fill(buf, n, seed, off);
		if (write_all(fd, buf, n)) {
			say("hold: conn %d %s send failed at %llu: %s\n", id, what,
			    (unsigned long long)off, strerror(errno));
			return -1;
		}
		off += n;
	}
	return 0;
}

static int recv_pattern(int fd, int id, uint64_t bytes, uint64_t seed, const char *what)
{
	static __thread unsigned char buf[CHUNK], want[CHUNK];

	for (uint64_t off = 0; off < bytes;) {
		size_t n = bytes - off < CHUNK ? bytes - off : CHUNK;

		if (read_all(fd, buf, n)) {
			say("hold: conn %d %s recv failed at %llu: %s\n", id, what,
			    (unsigned long long)off, errno ? strerror(errno) : "early EOF");
			return -1;
		}
		fill(want, n, seed, off);
		if (memcmp(buf, want, n)) {
			say("hold: conn %d %s data mismatch near byte %llu\n", id, what,
			    (unsigned long long)off);
			return -1;
		}
		off += n;
	}
	return 0;
}

static int expect_eof(int fd, int id)
{
	char c;
	ssize_t n;

	do
		n = recv(fd, &c, 1, 0);
	while (n < 0 && errno == EINTR);
	if (n != 0) {
		say("hold: conn %d expected EOF, got %zd (%s)\n", id, n,
		    n < 0 ? strerror(errno) : "data");
		return -1;
	}
	return 0;
}

struct conn {
	pthread_t th;
	int fd, id, rc, ok1;
	struct hdr h;
	const char *addr;
	int port;
};

/*
 * Seeds: seed+0 client phase 1, +1 server phase 1, +2 client phase 2,
 * +3 server phase 2; connections are 4 apart.
 */
static void *client_thread(void *arg)
{
	struct conn *c = arg;
	struct sockaddr_storage ss;
	socklen_t len;
	struct hdr wire;
	int fd = -1;

	c->rc = -1;
	pthread_barrier_wait(&start_bar);
	fd = socket(fam->domain, SOCK_STREAM, fam->proto);
	if (fd < 0) {
		say("hold: conn %d socket(%s): %s\n", c->id, fam->name, strerror(errno));
		goto held;
	}
	set_bufs(fd);
	if (serial)
		pthread_mutex_lock(&connect_mu);
	if (make_addr(&ss, &len, fam->addr_family, c->addr, c->port) ||
	    connect(fd, (struct sockaddr *)&ss, len)) {
		say("hold: conn %d connect: %s\n", c->id, strerror(errno));
		if (serial)
			pthread_mutex_unlock(&connect_mu);
		goto held;
	}
	if (serial)
		pthread_mutex_unlock(&connect_mu);
	wire.magic = htonl(HOLD_MAGIC);
	wire.pad = 0;
	wire.bytes = htobe64(c->h.bytes);
	wire.seed = htobe64(c->h.seed);
	if (write_all(fd, &wire, sizeof(wire))) {
		say("hold: conn %d header: %s\n", c->id, strerror(errno));
		goto held;
	}
	if (send_pattern(fd, c->id, c->h.bytes, c->h.seed, "phase1") ||
	    recv_pattern(fd, c->id, c->h.bytes, c->h.seed + 1, "phase1"))
		goto held;
	c->ok1 = 1;
held:
	/* everybody reaches the barriers, failed or not, or the others hang */
	pthread_barrier_wait(&held_bar);
	pthread_barrier_wait(&go_bar);
	if (!c->ok1)
		goto out;
	if (send_pattern(fd, c->id, c->h.bytes, c->h.seed + 2, "phase2") ||
	    recv_pattern(fd, c->id, c->h.bytes, c->h.seed + 3, "phase2"))
		goto out;
	if (shutdown(fd, SHUT_WR)) {
		say("hold: conn %d shutdown: %s\n", c->id, strerror(errno));
		goto out;
	}
	if (expect_eof(fd, c->id))
		goto out;
	c->rc = 0;
out:
	if (fd >= 0 && close(fd)) {
		say("hold: conn %d close: %s\n", c->id, strerror(errno));
		c->rc = -1;
	}
	return NULL;
}

static void *server_thread(void *arg)
{
	struct conn *c = arg;
	struct hdr wire;

	c->rc = -1;
	if (read_all(c->fd, &wire, sizeof(wire)) || ntohl(wire.magic) != HOLD_MAGIC) {
		say("hold: conn %d: bad or missing header\n", c->id);
		goto out;
	}
	c->h.bytes = be64toh(wire.bytes);
	c->h.seed = be64toh(wire.seed);
	if (recv_pattern(c->fd, c->id, c->h.bytes, c->h.seed, "phase1") ||
	    send_pattern(c->fd, c->id, c->h.bytes, c->h.seed + 1, "phase1") ||
	    recv_pattern(c->fd, c->id, c->h.bytes, c->h.seed + 2, "phase2") ||
	    send_pattern(c->fd, c->id, c->h.bytes, c->h.seed + 3, "phase2") ||
	    expect_eof(c->fd, c->id))
		goto out;
	c->rc = 0;
out:
	if (close(c->fd)) {
		say("hold: conn %d close: %s\n", c->id, strerror(errno));
		c->rc = -1;
	}
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: hold server -f FAMILY -p PORT [-c CONNS] [-S SNDBUF] [-B RCVBUF] [-q]\n"
		"       hold client -f FAMILY -a ADDR -p PORT [-c CONNS] [-n BYTES]\n"
		"                   [-R READY_FILE] [-r RELEASE_FILE] [-t SECONDS] [-q] [-s]\n"
		"                   [-S SNDBUF] [-B RCVBUF]\n"
		"-s: connect one connection at a time (data still concurrent)\n"
		"-S, -B: SO_SNDBUF, SO_RCVBUF before connect() / listen() (K, M suffix)\n"
		"FAMILY: tcp tcp6 smc smc6 ipproto_smc ipproto_smc6\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *addr = NULL, *ready = NULL, *release = NULL;
	int server, port = 0, nconns = 1, opt, ok = 0, timeout = 600, late = 0;
	uint64_t bytes = 4096;
	struct conn *conns;

	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "server"))
		server = 1;
	else if (!strcmp(argv[1], "client"))
		server = 0;
	else
		usage();
	optind = 2;
	while ((opt = getopt(argc, argv, "f:a:p:c:n:R:r:t:qsS:B:")) != -1) {
		switch (opt) {
		case 'f':
			fam = fam_find(optarg);
			if (!fam)
				usage();
			break;
		case 'a': addr = optarg; break;
		case 'p': port = atoi(optarg); break;
		case 'c': nconns = atoi(optarg); break;
		case 'n': bytes = strtoull(optarg, NULL, 0); break;
		case 'R': ready = optarg; break;
		case 'r': release = optarg; break;
		case 't': timeout = atoi(optarg); break;
		case 'q': quiet = 1; break;
		case 's': serial = 1; break;
		case 'S':
			sndbuf = parse_bufsize(optarg);
			if (sndbuf < 0)
				usage();
			break;
		case 'B':
			rcvbuf = parse_bufsize(optarg);
			if (rcvbuf < 0)
				usage();
			break;
		default: usage();
		}
	}
	if (!fam || !port || nconns < 1 || nconns > MAX_CONNS || (!server && !addr))
		usage();
	conns = calloc(nconns, sizeof(*conns));
	if (!conns)
		return 1;
	if (server) {
		struct sockaddr_storage ss;
		socklen_t len;
		int one = 1, lfd = socket(fam->domain, SOCK_STREAM, fam->proto);

		if (lfd < 0) {
			fprintf(stderr, "hold: socket(%s): %s\n", fam->name, strerror(errno));
			return 1;
		}
		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		set_bufs(lfd);
		make_addr(&ss, &len, fam->addr_family, NULL, port);
		if (bind(lfd, (struct sockaddr *)&ss, len) || listen(lfd, nconns + 16)) {
			fprintf(stderr, "hold: bind/listen %d: %s\n", port, strerror(errno));
			return 1;
		}
		if (!quiet)
			say("hold: listening on %d (%s)\n", port, fam->name);
		for (int i = 0; i < nconns; i++) {
			conns[i].id = i;
			conns[i].fd = accept(lfd, NULL, NULL);
			if (conns[i].fd < 0) {
				fprintf(stderr, "hold: accept: %s\n", strerror(errno));
				return 1;
			}
			if (pthread_create(&conns[i].th, NULL, server_thread, &conns[i]))
				return 1;
		}
		close(lfd);
	} else {
		pthread_barrier_init(&start_bar, NULL, nconns);
		pthread_barrier_init(&held_bar, NULL, nconns + 1);
		pthread_barrier_init(&go_bar, NULL, nconns + 1);
		if (release)
			unlink(release);
		for (int i = 0; i < nconns; i++) {
			conns[i] = (struct conn){ .id = i, .addr = addr, .port = port,
						  .h = { 0, 0, bytes, 1000 + 4 * (uint64_t)i } };
			if (pthread_create(&conns[i].th, NULL, client_thread, &conns[i]))
				return 1;
		}
		int open1 = 0;

		pthread_barrier_wait(&held_bar);
		for (int i = 0; i < nconns; i++)
			open1 += conns[i].ok1;
		say("hold: %d of %d connections open\n", open1, nconns);
		if (ready) {
			char tmp[4096];
			FILE *f;

			/* write, then rename: a reader never sees a half-written file */
			snprintf(tmp, sizeof(tmp), "%s.tmp", ready);
			f = fopen(tmp, "w");
			if (!f || fprintf(f, "%d %d\n", open1, nconns) < 0 || fclose(f) ||
			    rename(tmp, ready)) {
				fprintf(stderr, "hold: %s: %s\n", ready, strerror(errno));
				return 1;
			}
		}
		if (release) {
			double end = now() + timeout;
			struct stat st;

			while (stat(release, &st)) {
				if (now() > end) {
					say("hold: no %s after %ds, letting go anyway\n", release,
					    timeout);
					late = 1;
					break;
				}
				usleep(100000);
			}
		}
		pthread_barrier_wait(&go_bar);
	}
	for (int i = 0; i < nconns; i++) {
		pthread_join(conns[i].th, NULL);
		if (!conns[i].rc)
			ok++;
	}
	say("hold: %s %d/%d connections ok\n", server ? "server" : "client", ok, nconns);
	free(conns);
	return ok == nconns && !late ? 0 : 1;
}
