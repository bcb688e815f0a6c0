// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong: request/response latency over TCP or AF_SMC, for scripts/bench.
 *
 *   pingpong server -f FAMILY -p PORT [-c CONNS]
 *   pingpong client -f FAMILY -a ADDR -p PORT [-s SIZE] [-n ROUNDS] [-w WARMUP]
 *   pingpong client -C -f FAMILY -a ADDR -p PORT [-s SIZE] [-n CONNS | -t SECS]
 *   pingpong client -C -c N -f FAMILY -a ADDR -p PORT [-s SIZE]
 *
 * -B USEC (either side) sets SO_BUSY_POLL on its connections: a receive
 * spins up to USEC microseconds for data before it sleeps.
 *
 * -M (either side) marks the timed round trips for instruction counting
 * (scripts/perfcount): QMARK_START/QMARK_STOP of qmark.h, label PP_MARK,
 * around the last ROUNDS round trips.  The client's header carries WARMUP
 * and ROUNDS, so the server marks the same round trips from its side: from
 * before it reads the first timed request to after it wrote the last echo.
 * With -C the client marks its timed connections, label CRR_MARK.
 *
 * FAMILY: tcp, tcp6, smc (AF_SMC/SMCPROTO_SMC), smc6 (SMCPROTO_SMC6),
 * ipproto_smc, ipproto_smc6 (AF_INET/AF_INET6 with IPPROTO_SMC): fam_find()
 * of common.h.
 *
 * One connection: the client sends a 16-byte header (magic, SIZE), then
 * WARMUP + ROUNDS times sends SIZE bytes and waits for the server to echo
 * them back; every round trip of the last ROUNDS is timed on its own
 * (CLOCK_MONOTONIC).  Both sides set TCP_NODELAY (AF_SMC passes it to its
 * CLC socket; a refusal is ignored).  The server serves CONNS connections one
 * after the other, then exits.
 *
 * Output (client), times in microseconds; "lat" is half the round trip,
 * the one-way latency that sockperf and ib_send_lat/ib_write_lat report:
 *   pingpong: family=smc size=1 rounds=2000 rtt_min=... rtt_p50=... rtt_p99=...
 *             rtt_max=... rtt_mean=... lat_p50=... lat_p99=...
 *
 * With -C every round is a connection of its own, SMC's known weak point
 * against TCP: socket, connect, one write of the header and SIZE request
 * bytes, read the SIZE-byte echo, close; timed from socket() to close().
 * It runs CONNS rounds (-n) or for SECS seconds (-t), after WARMUP (default
 * 0 with -C) untimed ones.  The server (CONNS 0: until killed) serves one
 * connection after the other, each until the client closes.  Output:
 *   pingpong: family=smc size=1024 conns=N secs=S conn_rate=R crr_p50=...
 *             crr_p99=... crr_max=... connect_p50=... rr_p50=... close_p50=...
 * conn_rate is connections per second over the timed rounds; the last three
 * split a round into socket() and connect(), the request and its echo, and
 * close().
 *
 * -C -c N (N > 1) is a burst: N threads each make one such connection, all
 * released at once; burst_us is the wall time from the release to the
 * last close, conn_* the connections' own times (socket() to close()):
 *   pingpong: family=smc size=1024 burst=N burst_us=... conn_p50=...
 *             conn_max=...
 *
 * -H (client, ping-pong) adds a line with every timed round trip in a
 * histogram, RTT in microseconds: LOW:COUNT for each bucket that has any,
 * in ascending order.  A bucket is 1 us wide below 1000 us and keeps 3
 * significant digits above (10 us wide from 1000, 100 us from 10000 ...),
 * so it stays short for any number of rounds:
 *   pingpong: rtt_hist_us=812:3,815:1,...,1230:17,...
 *
 * Exit status 0 if every round trip returned the bytes sent.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "qmark.h"

#define PP_MAGIC 0x50494e47u /* "PING" */
#define MAX_SIZE (1 << 20)
#define PP_MARK 1	/* the plugin's window labels: the timed round trips, */
#define CRR_MARK 3	/* the timed connections of -C (xfer.c has 2) */

struct hdr {
	uint32_t magic;
	uint32_t size;
	uint64_t plan;	/* big-endian WARMUP << 32 | ROUNDS; 0 with -C */
};

static const struct fam *fam;
static int hist;	/* -H: print the round trips' histogram */

static int busy_poll;	/* -B: SO_BUSY_POLL microseconds, 0: leave the default */
static int mark;	/* -M: mark the timed round trips */

static void nodelay(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (busy_poll && setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &busy_poll,
				    sizeof(busy_poll))) {
		fprintf(stderr, "pingpong: SO_BUSY_POLL %d: %s\n", busy_poll, strerror(errno));
		exit(1);
	}
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* nearest-rank percentile of sorted @v */
static double pct(const double *v, int n, double p)
{
	int k = (int)(p / 100.0 * n + 0.999999);

	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return v[k - 1];
}

static void usage(void)
{
	fprintf(stderr,
		"usage: pingpong server -f FAMILY -p PORT [-c CONNS]\n"
		"       pingpong client -f FAMILY -a ADDR -p PORT [-s SIZE] [-n ROUNDS] [-w WARMUP]\n"
		"       pingpong client -C -f FAMILY -a ADDR -p PORT [-s SIZE] [-n CONNS | -t SECS]\n"
		"       pingpong client -C -c N -f FAMILY -a ADDR -p PORT [-s SIZE]: a burst of N\n"
		"       -H (client): also the round trips' histogram (us)\n"
		"       -B USEC (both): SO_BUSY_POLL on the connections\n"
		"       -M (both): mark the timed round trips for scripts/perfcount\n"
		"FAMILY: tcp tcp6 smc smc6 ipproto_smc ipproto_smc6\n");
	exit(2);
}

static int serve(int fd)
{
	struct hdr h;
	uint64_t warmup, rounds;
	char *buf;
	uint32_t size;

	nodelay(fd);
	if (read_all(fd, &h, sizeof(h)) || ntohl(h.magic) != PP_MAGIC) {
		fprintf(stderr, "pingpong: bad or missing header\n");
		return -1;
	}
	size = ntohl(h.size);
	if (!size || size > MAX_SIZE)
		return -1;
	warmup = be64toh(h.plan) >> 32;
	rounds = mark ? (uint32_t)be64toh(h.plan) : 0;
	buf = malloc(size);
	if (!buf)
		return -1;
	for (uint64_t n = 0;; n++) {
		if (rounds && n == warmup)
			QMARK_START(PP_MARK);
		if (read_all(fd, buf, size) || write_all(fd, buf, size))
			break;
		if (rounds && n + 1 == warmup + rounds)
			QMARK_STOP(PP_MARK);
	}
	free(buf);
	return 0;
}

/* a -C round's phases, each from the end of the one before (us) */
enum { PH_CONNECT, PH_RR, PH_CLOSE, PH_N };

/*
 * one -C round: a connection of its own; 0 when the echo came back intact.
 * @ph (may be NULL) gets the time socket()+connect(), the request and its
 * response, and close() took.
 */
static int crr_round(const struct sockaddr_storage *ss, socklen_t len, char *req,
		     uint32_t size, char *in, double *ph)
{
	double t0 = now_us(), t1 = 0, t2 = 0;
	int fd = socket(fam->domain, SOCK_STREAM, fam->proto), rc = -1;

	if (fd < 0) {
		fprintf(stderr, "pingpong: socket(%s): %s\n", fam->name, strerror(errno));
		return -1;
	}
	nodelay(fd);
	if (connect(fd, (const struct sockaddr *)ss, len))
		fprintf(stderr, "pingpong: connect: %s\n", strerror(errno));
	else if (t1 = now_us(), write_all(fd, req, sizeof(struct hdr) + size) ||
		 read_all(fd, in, size))
		fprintf(stderr, "pingpong: request: %s\n", errno ? strerror(errno) : "EOF");
	else if (memcmp(req + sizeof(struct hdr), in, size))
		fprintf(stderr, "pingpong: echo differs\n");
	else
		rc = 0;
	t2 = now_us();
	close(fd);
	if (ph) {
		ph[PH_CONNECT] = t1 - t0;
		ph[PH_RR] = t2 - t1;
		ph[PH_CLOSE] = now_us() - t2;
	}
	return rc;
}

/* a -C round's request: the header and @size request bytes; NULL: no memory */
static char *crr_request(uint32_t size)
{
	struct hdr h = { htonl(PP_MAGIC), htonl(size), 0 };
	char *req = malloc(sizeof(h) + size);

	if (req) {
		memcpy(req, &h, sizeof(h));
		memset(req + sizeof(h), 'q', size);
	}
	return req;
}

/* -C: connect, request, response, close per round (see the top) */
static int crr(const char *addr, int port, uint32_t size, int conns, int secs, int warmup)
{
	int cap = conns ? conns : 1 << 16, n = 0;
	double *t = calloc(cap, sizeof(double)), start, end, ph[PH_N];
	double *pht = calloc((size_t)cap * PH_N, sizeof(double));
	char *req = crr_request(size), *in = malloc(size);
	struct sockaddr_storage ss;
	socklen_t len;

	if (!t || !pht || !req || !in || make_addr(&ss, &len, fam->addr_family, addr, port))
		return 1;
	for (int i = 0; i < warmup; i++)
		if (crr_round(&ss, len, req, size, in, NULL))
			return 1;
	if (mark)
		QMARK_START(CRR_MARK);
	start = now_us();
	end = start + secs * 1e6;
	while (n < cap && (conns ? n < conns : now_us() < end)) {
		double t0 = now_us();

		if (crr_round(&ss, len, req, size, in, ph)) {
			fprintf(stderr, "pingpong: connection %d failed\n", n);
			return 1;
		}
		for (int p = 0; p < PH_N; p++)
			pht[p * cap + n] = ph[p];
		t[n++] = now_us() - t0;
	}
	end = now_us();
	if (mark)
		QMARK_STOP(CRR_MARK);
	qsort(t, n, sizeof(double), cmp_double);
	for (int p = 0; p < PH_N; p++)
		qsort(pht + p * cap, n, sizeof(double), cmp_double);
	printf("pingpong: family=%s size=%u conns=%d secs=%.3f conn_rate=%.2f crr_p50=%.1f "
	       "crr_p99=%.1f crr_max=%.1f connect_p50=%.1f rr_p50=%.1f close_p50=%.1f\n",
	       fam->name, size, n, (end - start) / 1e6, n / ((end - start) / 1e6),
	       pct(t, n, 50), pct(t, n, 99), t[n - 1], pct(pht + PH_CONNECT * cap, n, 50),
	       pct(pht + PH_RR * cap, n, 50), pct(pht + PH_CLOSE * cap, n, 50));
	free(pht);
	free(t);
	free(req);
	free(in);
	return 0;
}

/* -H: the histogram line of sorted @rtt (see the top) */
static void print_hist(const double *rtt, int n)
{
	const char *sep = "";

	printf("pingpong: rtt_hist_us=");
	for (int i = 0, j; i < n; i = j) {
		long low = (long)rtt[i], w = 1, count = 0;

		for (long x = low; x >= 1000; x /= 10)
			w *= 10;
		low = low / w * w;
		for (j = i; j < n && (long)rtt[j] < low + w; j++)
			count++;
		printf("%s%ld:%ld", sep, low, count);
		sep = ",";
	}
	printf("\n");
}

struct burst_conn {
	pthread_t tid;
	pthread_barrier_t *go;
	const struct sockaddr_storage *ss;
	socklen_t len;
	char *req;
	uint32_t size;
	double t;	/* this connection's time, socket() to close() */
	int rc;
};

static void *burst_one(void *arg)
{
	struct burst_conn *c = arg;
	char *in = malloc(c->size);
	double t0;

	pthread_barrier_wait(c->go);
	t0 = now_us();
	c->rc = in ? crr_round(c->ss, c->len, c->req, c->size, in, NULL) : -1;
	c->t = now_us() - t0;
	free(in);
	return NULL;
}

/* -C -c N: N connections at once, one thread each (see the top) */
static int burst(const char *addr, int port, uint32_t size, int n)
{
	struct burst_conn *c = calloc(n, sizeof(*c));
	char *req = crr_request(size);
	struct sockaddr_storage ss;
	pthread_barrier_t go;
	double *t = calloc(n, sizeof(double)), start;
	int failed = 0;
	socklen_t len;

	if (!c || !req || !t || make_addr(&ss, &len, fam->addr_family, addr, port) ||
	    pthread_barrier_init(&go, NULL, n + 1))
		return 1;
	for (int i = 0; i < n; i++) {
		c[i] = (struct burst_conn){ .go = &go, .ss = &ss, .len = len, .req = req,
					    .size = size };
		if (pthread_create(&c[i].tid, NULL, burst_one, &c[i])) {
			fprintf(stderr, "pingpong: thread %d: %s\n", i, strerror(errno));
			exit(1);
		}
	}
	pthread_barrier_wait(&go);
	start = now_us();
	for (int i = 0; i < n; i++) {
		pthread_join(c[i].tid, NULL);
		t[i] = c[i].t;
		failed += !!c[i].rc;
	}
	start = now_us() - start;
	if (failed) {
		fprintf(stderr, "pingpong: %d of %d connections of the burst failed\n", failed, n);
		return 1;
	}
	qsort(t, n, sizeof(double), cmp_double);
	printf("pingpong: family=%s size=%u burst=%d burst_us=%.1f conn_p50=%.1f conn_max=%.1f\n",
	       fam->name, size, n, start, pct(t, n, 50), t[n - 1]);
	return 0;
}

int main(int argc, char **argv)
{
	int server, port = 0, nconns = 1, rounds = 2000, warmup = -1, opt, fd;
	int per_conn = 0, secs = 0;
	const char *addr = NULL;
	uint32_t size = 1;
	struct sockaddr_storage ss;
	socklen_t len;

	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "server"))
		server = 1;
	else if (!strcmp(argv[1], "client"))
		server = 0;
	else
		usage();
	optind = 2;
	while ((opt = getopt(argc, argv, "f:a:p:c:s:n:w:Ct:B:HM")) != -1) {
		switch (opt) {
		case 'f':
			fam = fam_find(optarg);
			if (!fam)
				usage();
			break;
		case 'a': addr = optarg; break;
		case 'p': port = atoi(optarg); break;
		case 'c': nconns = atoi(optarg); break;
		case 's': size = strtoul(optarg, NULL, 0); break;
		case 'n': rounds = atoi(optarg); break;
		case 'w': warmup = atoi(optarg); break;
		case 'C': per_conn = 1; break;
		case 'H': hist = 1; break;
		case 't': secs = atoi(optarg); break;
		case 'B': busy_poll = atoi(optarg); break;
		case 'M': mark = 1; break;
		default: usage();
		}
	}
	if (warmup < 0)
		warmup = per_conn ? 0 : 200;
	if (!fam || !port || nconns < 0 || (!server && !nconns) || !size || size > MAX_SIZE ||
	    rounds < 1 || secs < 0 || (secs && !per_conn) || (!server && !addr))
		usage();
	if (!server && per_conn && nconns > 1)
		return burst(addr, port, size, nconns);
	if (!server && per_conn)
		return crr(addr, port, size, secs ? 0 : rounds, secs, warmup);
	if (server) {
		int one = 1, lfd = socket(fam->domain, SOCK_STREAM, fam->proto);

		if (lfd < 0) {
			fprintf(stderr, "pingpong: socket(%s): %s\n", fam->name, strerror(errno));
			return 1;
		}
		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		make_addr(&ss, &len, fam->addr_family, NULL, port);
		/* room for a burst (-C -c N): SMC drops a SYN beyond the backlog */
		if (bind(lfd, (struct sockaddr *)&ss, len) || listen(lfd, 128)) {
			fprintf(stderr, "pingpong: bind/listen %d: %s\n", port, strerror(errno));
			return 1;
		}
		for (int i = 0; !nconns || i < nconns; i++) {
			fd = accept(lfd, NULL, NULL);
			if (fd < 0) {
				fprintf(stderr, "pingpong: accept: %s\n", strerror(errno));
				return 1;
			}
			serve(fd);
			close(fd);
		}
		return 0;
	}

	struct hdr h = { htonl(PP_MAGIC), htonl(size),
			 htobe64((uint64_t)warmup << 32 | (uint32_t)rounds) };
	double *rtt = calloc(rounds, sizeof(double)), sum = 0;
	char *out = malloc(size), *in = malloc(size);

	if (!rtt || !out || !in)
		return 1;
	fd = socket(fam->domain, SOCK_STREAM, fam->proto);
	if (fd < 0) {
		fprintf(stderr, "pingpong: socket(%s): %s\n", fam->name, strerror(errno));
		return 1;
	}
	nodelay(fd);
	if (make_addr(&ss, &len, fam->addr_family, addr, port) || connect(fd, (struct sockaddr *)&ss, len)) {
		fprintf(stderr, "pingpong: connect %s:%d: %s\n", addr, port, strerror(errno));
		return 1;
	}
	if (write_all(fd, &h, sizeof(h))) {
		fprintf(stderr, "pingpong: header: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 0; i < warmup + rounds; i++) {
		double t0;

		memset(out, 'a' + i % 26, size);
		if (mark && i == warmup)
			QMARK_START(PP_MARK);
		t0 = now_us();
		if (write_all(fd, out, size) || read_all(fd, in, size)) {
			fprintf(stderr, "pingpong: round %d: %s\n", i,
				errno ? strerror(errno) : "EOF");
			return 1;
		}
		if (i >= warmup)
			rtt[i - warmup] = now_us() - t0;
		if (memcmp(out, in, size)) {
			fprintf(stderr, "pingpong: round %d: echo differs\n", i);
			return 1;
		}
	}
	if (mark)
		QMARK_STOP(PP_MARK);
	close(fd);
	for (int i = 0; i < rounds; i++)
		sum += rtt[i];
	qsort(rtt, rounds, sizeof(double), cmp_double);
	printf("pingpong: family=%s size=%u rounds=%d rtt_min=%.1f rtt_p50=%.1f rtt_p99=%.1f "
	       "rtt_max=%.1f rtt_mean=%.1f lat_p50=%.1f lat_p99=%.1f\n",
	       fam->name, size, rounds, rtt[0], pct(rtt, rounds, 50), pct(rtt, rounds, 99),
	       rtt[rounds - 1], sum / rounds, pct(rtt, rounds, 50) / 2, pct(rtt, rounds, 99) / 2);
	if (hist)
		print_hist(rtt, rounds);
	return 0;
}
