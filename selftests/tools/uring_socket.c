// SPDX-License-Identifier: GPL-2.0
/*
 * uring_socket: a socket made by io_uring's IORING_OP_SOCKET, for the
 * tcp2smc lab test (io_uring sockets are converted like socket(2) ones).
 *
 *   uring_socket probe  [-f FAMILY] [-t TYPE] [-N] [-P PROTO]
 *   uring_socket server [-f FAMILY] [-P PROTO] -p PORT [-c CONNS]
 *   uring_socket client [-f FAMILY] [-P PROTO] -a ADDR -p PORT [-n BYTES]
 *
 * FAMILY: inet (default) or inet6; TYPE: stream (default) or dgram; -N adds
 * SOCK_NONBLOCK to the type; PROTO: the protocol number (default 0).
 *
 * Raw system calls only (io_uring_setup, the SQ/CQ rings and SQEs mapped
 * by hand, io_uring_enter; no liburing).  Every mode makes its socket with
 * one IORING_OP_SOCKET and prints
 *   uring_socket: socket so_protocol=P so_domain=D
 * (SO_PROTOCOL 256 is IPPROTO_SMC, i.e. tcp2smc converted it; 6 is TCP).
 * probe stops there.  The rest uses ordinary system calls:
 *   - server: bind to PORT on the any address, listen, then for each of
 *     CONNS connections (default 1) accept, print
 *       uring_socket: accepted so_protocol=P so_domain=D
 *     read to EOF checking the pattern, echo every byte back, close and
 *     print "uring_socket: conn N verified BYTES";
 *   - client: connect, send BYTES (default 65536) of the pattern from a
 *     second thread, then shut down the write side; read the echo to EOF,
 *     check it and print "uring_socket: verified BYTES".
 * The pattern is a function of the byte's offset, so a lost, repeated or
 * reordered chunk does not pass.
 *
 * Exit status: 0 when every byte was verified (probe: the socket was
 * made), 1 on any failure, 2 on a usage error, 4 when io_uring or its
 * socket op is not available (ENOSYS, EPERM or EACCES from io_uring_setup,
 * as with kernel.io_uring_disabled; or a kernel without IORING_OP_SOCKET):
 * the caller skips.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"

#define EXIT_USAGE 2
#define EXIT_SKIP 4
#define CHUNK 65536

struct ring {
	int fd;
	void *sq_map, *cq_map;
	size_t sq_len, cq_len;
	struct io_uring_sqe *sqes;
	size_t sqes_len;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_cqe *cqes;
};

static int sys_setup(unsigned int entries, struct io_uring_params *p)
{
	return (int)syscall(__NR_io_uring_setup, entries, p);
}

static int sys_enter(int fd, unsigned int submit, unsigned int min_complete)
{
	return (int)syscall(__NR_io_uring_enter, fd, submit, min_complete,
			    IORING_ENTER_GETEVENTS, NULL, 0);
}

static int sys_register(int fd, unsigned int op, void *arg, unsigned int n)
{
	return (int)syscall(__NR_io_uring_register, fd, op, arg, n);
}

static void ring_close(struct ring *r)
{
	if (r->sqes)
		munmap(r->sqes, r->sqes_len);
	if (r->cq_map && r->cq_map != r->sq_map)
		munmap(r->cq_map, r->cq_len);
	if (r->sq_map)
		munmap(r->sq_map, r->sq_len);
	if (r->fd >= 0)
		close(r->fd);
}

/* 0, or an exit status: EXIT_SKIP when io_uring is not there, else 1 */
static int ring_open(struct ring *r)
{
	struct io_uring_params p;
	char *sq, *cq;

	memset(r, 0, sizeof(*r));
	memset(&p, 0, sizeof(p));
	r->fd = sys_setup(4, &p);
	if (r->fd < 0) {
		int e = errno;

		fprintf(stderr, "uring_socket: io_uring_setup: %s\n",
			strerror(e));
		if (e == ENOSYS || e == EPERM || e == EACCES) {
			printf("uring_socket: io_uring unavailable (%s)\n",
			       strerror(e));
			return EXIT_SKIP;
		}
		return 1;
	}
	r->sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	r->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP) {
		if (r->cq_len > r->sq_len)
			r->sq_len = r->cq_len;
		r->cq_len = r->sq_len;
	}
	r->sq_map = mmap(NULL, r->sq_len, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
	if (r->sq_map == MAP_FAILED) {
		r->sq_map = NULL;
		goto fail;
	}
	if (p.features & IORING_FEAT_SINGLE_MMAP) {
		r->cq_map = r->sq_map;
	} else {
		r->cq_map = mmap(NULL, r->cq_len, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_POPULATE, r->fd,
				 IORING_OFF_CQ_RING);
		if (r->cq_map == MAP_FAILED) {
			r->cq_map = NULL;
			goto fail;
		}
	}
	r->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	r->sqes = mmap(NULL, r->sqes_len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED) {
		r->sqes = NULL;
		goto fail;
	}
	sq = r->sq_map;
	cq = r->cq_map;
	r->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)(sq + p.sq_off.array);
	r->cq_head = (unsigned int *)(cq + p.cq_off.head);
	r->cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	return 0;
fail:
	perror("uring_socket: mmap of the rings");
	ring_close(r);
	return 1;
}

/* whether this kernel has IORING_OP_SOCKET (IORING_REGISTER_PROBE) */
static int ring_has_socket_op(struct ring *r)
{
	size_t len = sizeof(struct io_uring_probe) +
		     256 * sizeof(struct io_uring_probe_op);
	struct io_uring_probe *pr = calloc(1, len);
	int ok;

	if (!pr)
		return 0;
	ok = sys_register(r->fd, IORING_REGISTER_PROBE, pr, 256) == 0 &&
	     pr->last_op >= IORING_OP_SOCKET &&
	     (pr->ops[IORING_OP_SOCKET].flags & IO_URING_OP_SUPPORTED);
	free(pr);
	return ok;
}

/* One IORING_OP_SOCKET: the new fd, or -errno. */
static int ring_socket(struct ring *r, int domain, int type, int protocol)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	unsigned int tail, head, idx;
	int rc;

	tail = *r->sq_tail;
	idx = tail & *r->sq_mask;
	sqe = &r->sqes[idx];
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_SOCKET;
	sqe->fd = domain;
	sqe->off = (unsigned int)type;
	sqe->len = (unsigned int)protocol;
	sqe->user_data = 0x50434b54; /* "SOCK" */
	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);

	do {
		rc = sys_enter(r->fd, 1, 1);
	} while (rc < 0 && errno == EINTR);
	if (rc < 0)
		return -errno;

	head = *r->cq_head;
	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return -EIO;	/* min_complete 1 returned without a CQE */
	cqe = &r->cqes[head & *r->cq_mask];
	rc = cqe->user_data == 0x50434b54 ? cqe->res : -EIO;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return rc;
}

static unsigned char pattern(uint64_t off)
{
	return (unsigned char)((off ^ (off >> 8) ^ (off >> 16)) * 37 + 11);
}

static int report(const char *what, int fd)
{
	int proto = -1, domain = -1;
	socklen_t len = sizeof(proto);

	if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) < 0) {
		perror("uring_socket: SO_PROTOCOL");
		return -1;
	}
	len = sizeof(domain);
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0) {
		perror("uring_socket: SO_DOMAIN");
		return -1;
	}
	printf("uring_socket: %s so_protocol=%d so_domain=%d\n", what, proto,
	       domain);
	fflush(stdout);
	return 0;
}

/*
 * Read @fd to EOF, checking the pattern from offset 0; if @echo, write every
 * chunk back.  The number of bytes verified, or -1.
 */
static int64_t drain(int fd, int echo)
{
	static unsigned char buf[CHUNK];
	uint64_t off = 0;

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			perror("uring_socket: read");
			return -1;
		}
		if (n == 0)
			return (int64_t)off;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != pattern(off + (uint64_t)i)) {
				fprintf(stderr,
					"uring_socket: byte %llu is %#x, want %#x\n",
					(unsigned long long)(off + (uint64_t)i),
					buf[i], pattern(off + (uint64_t)i));
				return -1;
			}
		}
		if (echo && write_all(fd, buf, (size_t)n) < 0) {
			perror("uring_socket: echo");
			return -1;
		}
		off += (uint64_t)n;
	}
}

struct sender {
	int fd;
	uint64_t bytes;
	int rc;
};

static void *send_pattern(void *arg)
{
	struct sender *s = arg;
	static unsigned char buf[CHUNK];
	uint64_t off = 0;

	s->rc = 0;
	while (off < s->bytes) {
		size_t n = s->bytes - off < CHUNK ? s->bytes - off : CHUNK;

		for (size_t i = 0; i < n; i++)
			buf[i] = pattern(off + i);
		if (write_all(s->fd, buf, n) < 0) {
			perror("uring_socket: send");
			s->rc = -1;
			break;
		}
		off += n;
	}
	if (shutdown(s->fd, SHUT_WR) < 0) {
		perror("uring_socket: shutdown");
		s->rc = -1;
	}
	return NULL;
}

static int blocking(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		perror("uring_socket: fcntl");
		return -1;
	}
	return 0;
}

static int run_server(int fd, int family, int port, int conns)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int one = 1;

	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    make_addr(&ss, &len, family, NULL, port) < 0 ||
	    bind(fd, (struct sockaddr *)&ss, len) < 0 || listen(fd, 8) < 0) {
		perror("uring_socket: bind/listen");
		return 1;
	}
	for (int i = 0; i < conns; i++) {
		int64_t got;
		int c;

		do {
			c = accept(fd, NULL, NULL);
		} while (c < 0 && errno == EINTR);
		if (c < 0) {
			perror("uring_socket: accept");
			return 1;
		}
		if (report("accepted", c) < 0) {
			close(c);
			return 1;
		}
		got = drain(c, 1);
		close(c);
		if (got < 0)
			return 1;
		printf("uring_socket: conn %d verified %lld\n", i,
		       (long long)got);
		fflush(stdout);
	}
	return 0;
}

static int run_client(int fd, int family, const char *addr, int port,
		      uint64_t bytes)
{
	struct sender s = { .fd = fd, .bytes = bytes };
	struct sockaddr_storage ss;
	socklen_t len;
	pthread_t th;
	int64_t got;
	int rc;

	if (make_addr(&ss, &len, family, addr, port) < 0) {
		fprintf(stderr, "uring_socket: bad address %s\n", addr);
		return EXIT_USAGE;
	}
	if (connect(fd, (struct sockaddr *)&ss, len) < 0) {
		perror("uring_socket: connect");
		return 1;
	}
	rc = pthread_create(&th, NULL, send_pattern, &s);
	if (rc) {
		fprintf(stderr, "uring_socket: pthread_create: %s\n",
			strerror(rc));
		return 1;
	}
	got = drain(fd, 0);
	pthread_join(th, NULL);
	if (s.rc < 0 || got < 0)
		return 1;
	if ((uint64_t)got != bytes) {
		fprintf(stderr, "uring_socket: echo %lld bytes, sent %llu\n",
			(long long)got, (unsigned long long)bytes);
		return 1;
	}
	printf("uring_socket: verified %lld\n", (long long)got);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: uring_socket probe  [-f inet|inet6] [-t stream|dgram] [-N] [-P PROTO]\n"
		"       uring_socket server [-f inet|inet6] [-P PROTO] -p PORT [-c CONNS]\n"
		"       uring_socket client [-f inet|inet6] [-P PROTO] -a ADDR -p PORT [-n BYTES]\n");
}

static int parse_num(const char *s, long long min, long long max,
		     long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 0);
	return errno || end == s || *end || *out < min || *out > max ? -1 : 0;
}

int main(int argc, char **argv)
{
	int family = AF_INET, type = SOCK_STREAM, proto = 0, port = -1;
	long long conns = 1, bytes = 65536, v;
	const char *mode, *addr = NULL;
	struct ring r;
	int opt, fd, rc;

	if (argc < 2) {
		usage();
		return EXIT_USAGE;
	}
	mode = argv[1];
	if (strcmp(mode, "probe") && strcmp(mode, "server") &&
	    strcmp(mode, "client")) {
		usage();
		return EXIT_USAGE;
	}
	optind = 2;
	while ((opt = getopt(argc, argv, "f:t:NP:p:c:a:n:")) != -1) {
		switch (opt) {
		case 'f':
			if (!strcmp(optarg, "inet"))
				family = AF_INET;
			else if (!strcmp(optarg, "inet6"))
				family = AF_INET6;
			else
				goto bad;
			break;
		case 't':
			if (!strcmp(optarg, "stream"))
				type = (type & ~0xf) | SOCK_STREAM;
			else if (!strcmp(optarg, "dgram"))
				type = (type & ~0xf) | SOCK_DGRAM;
			else
				goto bad;
			break;
		case 'N':
			type |= SOCK_NONBLOCK;
			break;
		case 'P':
			if (parse_num(optarg, 0, 65535, &v))
				goto bad;
			proto = (int)v;
			break;
		case 'p':
			if (parse_num(optarg, 1, 65535, &v))
				goto bad;
			port = (int)v;
			break;
		case 'c':
			if (parse_num(optarg, 1, 1000000, &conns))
				goto bad;
			break;
		case 'a':
			addr = optarg;
			break;
		case 'n':
			if (parse_num(optarg, 0, 1LL << 40, &bytes))
				goto bad;
			break;
		default:
			goto bad;
		}
	}
	if (optind != argc || (strcmp(mode, "probe") && port < 0) ||
	    (!strcmp(mode, "client") && !addr))
		goto bad;
	if (strcmp(mode, "probe") && (type & 0xf) != SOCK_STREAM)
		goto bad;

	rc = ring_open(&r);
	if (rc)
		return rc;
	if (!ring_has_socket_op(&r)) {
		printf("uring_socket: io_uring has no IORING_OP_SOCKET here\n");
		ring_close(&r);
		return EXIT_SKIP;
	}
	fd = ring_socket(&r, family, type, proto);
	ring_close(&r);
	if (fd < 0) {
		fprintf(stderr, "uring_socket: IORING_OP_SOCKET: %s\n",
			strerror(-fd));
		return 1;
	}
	if (report("socket", fd) < 0) {
		close(fd);
		return 1;
	}
	if (!strcmp(mode, "probe"))
		rc = 0;
	else if (blocking(fd) < 0)
		rc = 1;
	else if (!strcmp(mode, "server"))
		rc = run_server(fd, family, port, (int)conns);
	else
		rc = run_client(fd, family, addr, port, (uint64_t)bytes);
	close(fd);
	return rc;
bad:
	usage();
	return EXIT_USAGE;
}
