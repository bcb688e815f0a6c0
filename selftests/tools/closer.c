// SPDX-License-Identifier: GPL-2.0
/*
 * closer: connection close orderings, each with verified data, for the lab
 * tests (smcr_close*).
 *
 *   closer server -f FAMILY -p PORT [-c CONNS]
 *   closer client -f FAMILY -a ADDR -p PORT -o ORDER[,ORDER...] [-n BYTES]
 *                 [-u UNREAD_BYTES]
 *
 * FAMILY: tcp, tcp6, smc (AF_SMC/SMCPROTO_SMC), smc6 (SMCPROTO_SMC6),
 * ipproto_smc, ipproto_smc6 (AF_INET/AF_INET6 with IPPROTO_SMC): fam_find()
 * of common.h.
 * The client runs the orders one after the other, a new connection each,
 * announcing the order in a 16-byte header (magic, order, byte count); the
 * server serves CONNS connections one after the other.  D is BYTES of the
 * seeded pattern of xfer.c (client data seed 1, server data seed 2),
 * checked byte for byte.  "A" is the side that closes first:
 *
 *   client-first      A=client: A sends D and close()s at once (its close
 *   server-first      A=server  must still deliver all of D); B reads D,
 *                     reads EOF, closes.
 *   both              both send D while reading the peer's D, exchange one
 *                     byte, and close() without waiting for anything else:
 *                     the two closes cross on the wire.
 *   unread-client     A=client: B sends UNREAD_BYTES (default 4096, at most
 *   unread-server     A=server  64 KiB: it must fit the buffers); A waits until
 *                     they have all arrived (MSG_PEEK)
 *                     and close()s without reading it.  B then records what
 *                     it observes: a blocking recv(), then SO_ERROR (which
 *                     it clears), and two send()s of one byte 300 ms apart:
 *                       closer: unread-client observed recv=ECONNRESET so_error=0 send1=EPIPE send2=EPIPE
 *                     (values: EOF, DATA, ok, timeout, 0 or the errno name).
 *                     This order only fails on a hang or a broken exchange;
 *                     what the peer sees (TCP: a reset) is for the test to judge.
 *   halfclose-client  A=client: A sends D and shutdown(SHUT_WR)s; B reads D
 *   halfclose-server  A=server  and EOF, then sends its own D the other way
 *                     and closes; A reads that D and EOF, closes.
 *
 * Every side prints "closer: ORDER ROLE ok" (ROLE client or server) or
 * "closer: ORDER ROLE FAIL reason"; exit status 0 only if all were ok.
 * Every blocking call is bounded (SO_RCVTIMEO/SO_SNDTIMEO 30 s).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define CLOSER_MAGIC 0x434c4f53u /* "CLOS" */
#define CHUNK 65536
#define IO_TIMEOUT_S 30

enum order { CLIENT_FIRST, SERVER_FIRST, BOTH, UNREAD_CLIENT, UNREAD_SERVER,
	     HALFCLOSE_CLIENT, HALFCLOSE_SERVER, NORDERS };

static const char *const order_names[NORDERS] = {
	"client-first", "server-first", "both", "unread-client", "unread-server",
	"halfclose-client", "halfclose-server",
};

struct hdr {
	uint32_t magic;
	uint32_t order;
	uint64_t bytes;
};

static const struct fam *fam;

/* the failure of the current order, for the summary line */
static char why[256];

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;

	if (why[0])
		return;		/* keep the first reason */
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
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

static const char *errname(int e)
{
	switch (e) {
	case ECONNRESET: return "ECONNRESET";
	case EPIPE: return "EPIPE";
	case ENOTCONN: return "ENOTCONN";
	case ECONNABORTED: return "ECONNABORTED";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EAGAIN: return "timeout";
	case EBADF: return "EBADF";
	case EINVAL: return "EINVAL";
	default: return strerror(e);
	}
}

static int send_data(int fd, uint64_t bytes, uint64_t seed)
{
	static __thread unsigned char buf[CHUNK];

	for (uint64_t off = 0; off < bytes;) {
		size_t n = bytes - off < CHUNK ? bytes - off : CHUNK;

		fill(buf, n, seed, off);
		if (write_all(fd, buf, n)) {
			fail("send failed at byte %llu: %s", (unsigned long long)off,
			     errname(errno));
			return -1;
		}
		off += n;
	}
	return 0;
}

static int recv_data(int fd, uint64_t bytes, uint64_t seed)
{
	static __thread unsigned char buf[CHUNK], want[CHUNK];

	for (uint64_t off = 0; off < bytes;) {
		size_t n = bytes - off < CHUNK ? bytes - off : CHUNK;

		if (read_all(fd, buf, n)) {
			fail("recv failed at byte %llu of %llu: %s", (unsigned long long)off,
			     (unsigned long long)bytes, errno ? errname(errno) : "early EOF");
			return -1;
		}
		fill(want, n, seed, off);
		if (memcmp(buf, want, n)) {
			fail("data mismatch near byte %llu", (unsigned long long)off);
			return -1;
		}
		off += n;
	}
	return 0;
}

static int expect_eof(int fd)
{
	char c;
	ssize_t n;

	do
		n = recv(fd, &c, 1, 0);
	while (n < 0 && errno == EINTR);
	if (n != 0) {
		fail("expected EOF, got %s", n > 0 ? "data" : errname(errno));
		return -1;
	}
	return 0;
}

static int do_close(int fd)
{
	if (close(fd)) {
		fail("close: %s", errname(errno));
		return -1;
	}
	return 0;
}

/* wait until @bytes are readable without reading them */
static int wait_arrived(int fd, uint64_t bytes)
{
	static __thread unsigned char buf[CHUNK];
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		poll(&p, 1, 1000);
		n = recv(fd, buf, bytes < CHUNK ? bytes : CHUNK, MSG_PEEK | MSG_DONTWAIT);
		if (n >= 0 && (uint64_t)n >= (bytes < CHUNK ? bytes : CHUNK))
			return 0;
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			fail("peek: %s", errname(errno));
			return -1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > IO_TIMEOUT_S) {
			fail("data did not arrive (peeked %zd of %llu)", n,
			     (unsigned long long)bytes);
			return -1;
		}
		usleep(10000);
	}
}

struct sender {
	int fd, rc;
	uint64_t bytes, seed;
};

static void *send_thread(void *arg)
{
	struct sender *s = arg;

	s->rc = send_data(s->fd, s->bytes, s->seed);
	return NULL;
}

/* One side of one order.  @server: this side's role; @fd is closed here. */
static int run_order(int fd, enum order o, uint64_t bytes, int server)
{
	uint64_t my_seed = server ? 2 : 1, peer_seed = server ? 1 : 2;
	int first;	/* this side is A, the one that closes first */
	char c = 'C';

	switch (o) {
	case CLIENT_FIRST:
	case SERVER_FIRST:
		first = (o == SERVER_FIRST) == server;
		if (first) {
			if (send_data(fd, bytes, my_seed))
				goto fail;
			return do_close(fd);
		}
		if (recv_data(fd, bytes, peer_seed) || expect_eof(fd))
			goto fail;
		return do_close(fd);
	case BOTH: {
		struct sender s = { fd, 0, bytes, my_seed };
		pthread_t th;
		int rc;

		if (pthread_create(&th, NULL, send_thread, &s)) {
			fail("pthread_create");
			goto fail;
		}
		rc = recv_data(fd, bytes, peer_seed);
		pthread_join(th, NULL);
		if (rc || s.rc)
			goto fail;
		if (write_all(fd, &c, 1) || read_all(fd, &c, 1) || c != 'C') {
			fail("sync byte: %s", errno ? errname(errno) : "EOF or bad byte");
			goto fail;
		}
		return do_close(fd);
	}
	case UNREAD_CLIENT:
	case UNREAD_SERVER: {
		const char *res[3], *soerr;
		socklen_t elen = sizeof(int);
		int err = 0;
		ssize_t n;

		first = (o == UNREAD_SERVER) == server;
		if (first) {
			if (wait_arrived(fd, bytes))
				goto fail;
			return do_close(fd);
		}
		if (send_data(fd, bytes, my_seed))
			goto fail;
		do
			n = recv(fd, &c, 1, 0);
		while (n < 0 && errno == EINTR);
		res[0] = n == 0 ? "EOF" : n > 0 ? "DATA" : errname(errno);
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen))
			soerr = "getsockopt-failed";
		else
			soerr = err ? errname(err) : "0";
		for (int i = 1; i < 3; i++) {
			usleep(300000);
			n = send(fd, &c, 1, MSG_NOSIGNAL);
			res[i] = n == 1 ? "ok" : n < 0 ? errname(errno) : "short";
		}
		printf("closer: %s observed recv=%s so_error=%s send1=%s send2=%s\n",
		       order_names[o], res[0], soerr, res[1], res[2]);
		if (!strcmp(res[0], "timeout")) {
			fail("the peer's close never showed (recv timed out)");
			goto fail;
		}
		return do_close(fd);
	}
	case HALFCLOSE_CLIENT:
	case HALFCLOSE_SERVER:
		first = (o == HALFCLOSE_SERVER) == server;
		if (first) {
			if (send_data(fd, bytes, my_seed))
				goto fail;
			if (shutdown(fd, SHUT_WR)) {
				fail("shutdown(SHUT_WR): %s", errname(errno));
				goto fail;
			}
			if (recv_data(fd, bytes, peer_seed) || expect_eof(fd))
				goto fail;
			return do_close(fd);
		}
		if (recv_data(fd, bytes, peer_seed) || expect_eof(fd) ||
		    send_data(fd, bytes, my_seed))
			goto fail;
		return do_close(fd);
	default:
		fail("unknown order %d", o);
	}
fail:
	close(fd);
	return -1;
}

static void set_timeouts(int fd)
{
	struct timeval tv = { IO_TIMEOUT_S, 0 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static void report(enum order o, int server, int rc)
{
	if (rc)
		printf("closer: %s %s FAIL %s\n", o < NORDERS ? order_names[o] : "?",
		       server ? "server" : "client", why[0] ? why : "?");
	else
		printf("closer: %s %s ok\n", order_names[o], server ? "server" : "client");
	fflush(stdout);
	why[0] = 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: closer server -f FAMILY -p PORT [-c CONNS]\n"
		"       closer client -f FAMILY -a ADDR -p PORT -o ORDER[,ORDER...] [-n BYTES]\n"
		"                     [-u UNREAD_BYTES]\n"
		"FAMILY: tcp tcp6 smc smc6 ipproto_smc ipproto_smc6\nORDER:");
	for (int i = 0; i < NORDERS; i++)
		fprintf(stderr, " %s", order_names[i]);
	fprintf(stderr, "\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *addr = NULL;
	char *orders = NULL;
	int server, port = 0, nconns = 1, opt, bad = 0;
	uint64_t bytes = 1 << 20, unread = 4096;
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
	while ((opt = getopt(argc, argv, "f:a:p:c:n:o:u:")) != -1) {
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
		case 'o': orders = optarg; break;
		case 'u': unread = strtoull(optarg, NULL, 0); break;
		default: usage();
		}
	}
	if (!fam || !port || nconns < 1 || unread > CHUNK || (!server && (!addr || !orders)))
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (server) {
		int one = 1, lfd = socket(fam->domain, SOCK_STREAM, fam->proto);

		if (lfd < 0) {
			fprintf(stderr, "closer: socket(%s): %s\n", fam->name, strerror(errno));
			return 1;
		}
		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		make_addr(&ss, &len, fam->addr_family, NULL, port);
		if (bind(lfd, (struct sockaddr *)&ss, len) || listen(lfd, 16)) {
			fprintf(stderr, "closer: bind/listen %d: %s\n", port, strerror(errno));
			return 1;
		}
		for (int i = 0; i < nconns; i++) {
			struct hdr h;
			int rc, fd = accept(lfd, NULL, NULL);
			enum order o;

			if (fd < 0) {
				fprintf(stderr, "closer: accept: %s\n", strerror(errno));
				return 1;
			}
			set_timeouts(fd);
			if (read_all(fd, &h, sizeof(h)) || ntohl(h.magic) != CLOSER_MAGIC ||
			    ntohl(h.order) >= NORDERS) {
				printf("closer: conn %d: bad or missing header\n", i);
				close(fd);
				bad++;
				continue;
			}
			o = ntohl(h.order);
			rc = run_order(fd, o, be64toh(h.bytes), 1);
			if (rc)
				bad++;
			report(o, 1, rc);
		}
		close(lfd);
		return bad ? 1 : 0;
	}
	for (char *tok = strtok(orders, ","); tok; tok = strtok(NULL, ",")) {
		enum order o = NORDERS;
		struct hdr h;
		int fd, rc = -1;

		for (int i = 0; i < NORDERS; i++)
			if (!strcmp(tok, order_names[i]))
				o = i;
		if (o == NORDERS)
			usage();
		fd = socket(fam->domain, SOCK_STREAM, fam->proto);
		if (fd < 0) {
			fail("socket: %s", errname(errno));
			goto done;
		}
		set_timeouts(fd);
		if (make_addr(&ss, &len, fam->addr_family, addr, port) || connect(fd, (struct sockaddr *)&ss, len)) {
			fail("connect: %s", errname(errno));
			close(fd);
			goto done;
		}
		h.magic = htonl(CLOSER_MAGIC);
		h.order = htonl(o);
		h.bytes = htobe64(o == UNREAD_CLIENT || o == UNREAD_SERVER ? unread : bytes);
		if (write_all(fd, &h, sizeof(h))) {
			fail("header: %s", errname(errno));
			close(fd);
			goto done;
		}
		rc = run_order(fd, o, be64toh(h.bytes), 0);
done:
		report(o, 0, rc);
		if (rc)
			bad++;
	}
	return bad ? 1 : 0;
}
