// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz: throw malformed generic netlink requests at families and check
 * that every one of them is answered.
 *
 *   nlfuzz [-n COUNT] [-s SEED] [-t MS] [-v] FAMILY...
 *
 * The families are resolved through the nlctrl family.  Each request is a
 * well-formed netlink message (its length field matches what is sent and is
 * at least a netlink header, since the kernel drops anything else without a
 * word) carrying NLM_F_REQUEST | NLM_F_ACK, so the kernel owes an answer:
 * an NLMSG_ERROR (error or ACK) for a plain request, NLMSG_DONE or
 * NLMSG_ERROR for a dump.  Everything inside is fair game: command numbers,
 * version, reserved field, truncated generic netlink headers, attributes
 * with bad lengths, lengths past the end, zero-length and oversized
 * attributes, random types and flags, nested garbage, strings without NUL,
 * and mutations of valid requests.  Replies are matched by sequence number.
 *
 * Exit status: 0 when every request was answered within the timeout, 1 if
 * any was not, 2 on usage or setup errors.  A summary goes to stdout.
 * libc and raw netlink only.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#define MAX_MSG		(60 * 1024)
#define MAX_FAM		8

struct family {
	const char *name;
	uint16_t id;
	unsigned int nops;
	struct { uint8_t cmd; uint32_t flags; } ops[64];	/* from nlctrl */
	unsigned long sent, acks, errors, dones, lost;
	unsigned long errno_hist[134];
};

static int sk;
static uint32_t seq = 1;
static uint64_t rng;
static int timeout_ms = 5000;
static bool verbose;
static uint8_t rxbuf[1 << 17];

static uint32_t rnd(void)
{
	/* xorshift64*: reproducible from the seed */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 2685821657736338717ULL) >> 32);
}

static uint32_t below(uint32_t n)
{
	return n ? rnd() % n : 0;
}

/* -- message building --------------------------------------------------- */

struct buf {
	uint8_t d[MAX_MSG];
	size_t len;
};

static bool room(struct buf *b, size_t n)
{
	return b->len + n <= sizeof(b->d);
}

static void put(struct buf *b, const void *p, size_t n)
{
	if (!room(b, n))
		return;
	memcpy(b->d + b->len, p, n);
	b->len += n;
}

static void pad4(struct buf *b)
{
	static const uint8_t z[4];

	put(b, z, (4 - b->len % 4) % 4);
}

/* an attribute whose header tells the truth */
static void attr(struct buf *b, uint16_t type, const void *p, size_t n)
{
	struct nlattr a = { .nla_len = (uint16_t)(NLA_HDRLEN + n), .nla_type = type };

	if (!room(b, NLA_ALIGN(NLA_HDRLEN + n)))
		return;
	put(b, &a, sizeof(a));
	put(b, p, n);
	pad4(b);
}

static void random_bytes(uint8_t *p, size_t n, bool printable)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = printable ? (uint8_t)("ABCXYZaz09.- _/"[below(15)]) : (uint8_t)rnd();
}

static size_t random_len(void)
{
	static const size_t lens[] = { 0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 19,
				       20, 31, 32, 33, 34, 63, 64, 65, 255,
				       256, 1000, 4096 };

	return lens[below(sizeof(lens) / sizeof(lens[0]))];
}

static uint16_t random_type(void)
{
	switch (below(8)) {
	case 0:
		return (uint16_t)rnd();			/* anything, flags included */
	case 1:
		return (uint16_t)(below(8) | NLA_F_NESTED);
	default:
		return (uint16_t)below(12);		/* around the real ones */
	}
}

static void random_attr(struct buf *b, int depth)
{
	uint8_t p[4096];
	size_t n = random_len();

	switch (below(depth < 2 ? 6 : 5)) {
	case 0:		/* a string, NUL terminated */
		random_bytes(p, n, true);
		if (n)
			p[n - 1] = 0;
		attr(b, random_type(), p, n);
		break;
	case 1:		/* a string without its NUL */
		random_bytes(p, n, true);
		attr(b, random_type(), p, n);
		break;
	case 2:		/* integers of every width */
		random_bytes(p, 8, false);
		attr(b, random_type(), p, (size_t[]){ 1, 2, 4, 8 }[below(4)]);
		break;
	case 3:		/* raw bytes */
		random_bytes(p, n, false);
		attr(b, random_type(), p, n);
		break;
	case 4: {	/* a header that lies about its length */
		struct nlattr a = { .nla_type = random_type() };

		a.nla_len = below(2) ? (uint16_t)below(NLA_HDRLEN) :
				       (uint16_t)(NLA_HDRLEN + 8 + below(5000));
		put(b, &a, sizeof(a));
		random_bytes(p, 8, false);
		put(b, p, below(9));
		break;
	}
	default: {	/* nested garbage */
		size_t at = b->len, i, k = below(5);
		struct nlattr a = { .nla_type = (uint16_t)(below(12) | NLA_F_NESTED) };

		put(b, &a, sizeof(a));
		for (i = 0; i < k; i++)
			random_attr(b, depth + 1);
		a.nla_len = (uint16_t)(b->len - at);
		memcpy(b->d + at, &a, sizeof(a));
		break;
	}
	}
}

/* requests the families accept, for the mutation mode */
static void valid_attrs(struct buf *b)
{
	static const char *const names[] = { "NET1", "net2", " PN3 ", "eth0",
					     "rxe0", "lo", "" };
	char eid[33];
	uint8_t port = (uint8_t)below(4);

	switch (below(4)) {
	case 0:
		attr(b, 1, names[below(7)], 5);
		attr(b, 2, names[below(7)], 5);
		break;
	case 1:
		attr(b, 1, names[below(7)], 5);
		attr(b, 3, names[below(7)], 5);
		attr(b, 4, &port, 1);
		break;
	case 2:
		memset(eid, ' ', 32);
		memcpy(eid, "FUZZ-EID", 8);
		eid[8] = (char)('0' + below(10));
		eid[32] = 0;
		attr(b, 1, eid, 33);
		break;
	default:
		attr(b, 1, names[below(7)], 5);
		break;
	}
}

static size_t build(struct buf *b, const struct family *f, bool *dump)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)b->d;
	struct genlmsghdr g = {
		.cmd = (uint8_t)(below(4) ? below(20) : rnd()),
		.version = (uint8_t)(below(4) ? 1 : rnd()),
		.reserved = (uint16_t)(below(8) ? 0 : rnd()),
	};
	size_t i, k;
	uint8_t junk[64];

	memset(b->d, 0, NLMSG_HDRLEN);
	b->len = NLMSG_HDRLEN;
	nlh->nlmsg_type = f->id;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	*dump = below(2);
	/* mostly real commands, asked the way they can be answered */
	if (f->nops && below(4)) {
		i = below(f->nops);
		g.cmd = f->ops[i].cmd;
		if (below(10))
			*dump = f->ops[i].flags & GENL_CMD_CAP_DUMP;
	}
	if (*dump)
		nlh->nlmsg_flags |= NLM_F_DUMP;
	else if (!below(8))
		nlh->nlmsg_flags |= (uint16_t)(below(2) ? NLM_F_ROOT : NLM_F_MATCH);
	nlh->nlmsg_seq = ++seq;

	switch (below(10)) {
	case 0:		/* a truncated generic netlink header */
		put(b, &g, below(GENL_HDRLEN));
		break;
	case 1:		/* header only */
		put(b, &g, sizeof(g));
		break;
	case 2:		/* one oversized attribute */
		put(b, &g, sizeof(g));
		{
			static uint8_t big[50000];

			random_bytes(big, sizeof(big), below(2));
			attr(b, (uint16_t)below(6), big,
			     8000 + below(sizeof(big) - 8000));
		}
		break;
	case 3:		/* valid attributes, then flipped bits */
	case 4:
		put(b, &g, sizeof(g));
		valid_attrs(b);
		k = below(4);
		for (i = 0; i < k && b->len > NLMSG_HDRLEN; i++) {
			size_t at = NLMSG_HDRLEN + below(b->len - NLMSG_HDRLEN);

			b->d[at] ^= (uint8_t)(1u << below(8));
		}
		break;
	case 5:		/* trailing bytes that are no attribute */
		put(b, &g, sizeof(g));
		random_bytes(junk, sizeof(junk), false);
		put(b, junk, 1 + below(3));
		break;
	default:	/* random attributes */
		put(b, &g, sizeof(g));
		k = below(9);
		for (i = 0; i < k; i++)
			random_attr(b, 0);
		break;
	}
	nlh->nlmsg_len = (uint32_t)b->len;
	*dump = (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	return b->len;
}

/* -- answers -------------------------------------------------------------- */

/*
 * Read until the answer to @want arrives: returns 0 for an ACK or a
 * finished dump, a positive errno, or -1 on timeout.  Messages of earlier
 * requests (a reply's late ACK) are skipped.
 */
static int answer(uint32_t want, bool dump)
{
	struct timespec t0, now;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd pfd = { .fd = sk, .events = POLLIN };
		long left;
		ssize_t n;
		struct nlmsghdr *h;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = timeout_ms - ((now.tv_sec - t0.tv_sec) * 1000 +
				     (now.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			return -1;
		n = recv(sk, rxbuf, sizeof(rxbuf), 0);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			if (errno == ENOBUFS)	/* overrun: answers lost, say so */
				return -1;
			return -1;
		}
		for (h = (struct nlmsghdr *)rxbuf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != want)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				return -e->error;
			}
			if (h->nlmsg_type == NLMSG_DONE && dump)
				return 0;
		}
	}
}

/* CTRL_ATTR_OPS: a nest per op with its command and DO/DUMP capability */
static void parse_ops(struct family *f, uint8_t *p, int len)
{
	while (len >= NLA_HDRLEN && f->nops < 64) {
		struct nlattr *op = (struct nlattr *)p;
		uint8_t *q = p + NLA_HDRLEN;
		int ql = op->nla_len - NLA_HDRLEN;

		if (op->nla_len < NLA_HDRLEN || op->nla_len > len)
			break;
		f->ops[f->nops].cmd = 0;
		f->ops[f->nops].flags = 0;
		while (ql >= NLA_HDRLEN) {
			struct nlattr *a = (struct nlattr *)q;

			if (a->nla_len < NLA_HDRLEN)
				break;
			if (a->nla_type == CTRL_ATTR_OP_ID)
				f->ops[f->nops].cmd = (uint8_t)*(uint32_t *)(q + NLA_HDRLEN);
			if (a->nla_type == CTRL_ATTR_OP_FLAGS)
				f->ops[f->nops].flags = *(uint32_t *)(q + NLA_HDRLEN);
			ql -= NLA_ALIGN(a->nla_len);
			q += NLA_ALIGN(a->nla_len);
		}
		f->nops++;
		len -= NLA_ALIGN(op->nla_len);
		p += NLA_ALIGN(op->nla_len);
	}
}

static int resolve(struct family *f, const char *name)
{
	struct {
		struct nlmsghdr n;
		struct genlmsghdr g;
		uint8_t a[64];
	} req = {
		.n = { .nlmsg_type = GENL_ID_CTRL,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK },
		.g = { .cmd = CTRL_CMD_GETFAMILY, .version = 1 },
	};
	struct nlattr *a = (struct nlattr *)req.a;
	size_t nl = strlen(name) + 1;
	struct nlmsghdr *h;
	int id = -1;
	ssize_t n;

	if (nl > sizeof(req.a) - NLA_HDRLEN)
		return -1;
	a->nla_type = CTRL_ATTR_FAMILY_NAME;
	a->nla_len = (uint16_t)(NLA_HDRLEN + nl);
	memcpy(req.a + NLA_HDRLEN, name, nl);
	req.n.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + GENL_HDRLEN + NLA_ALIGN(a->nla_len));
	req.n.nlmsg_seq = ++seq;
	if (send(sk, &req, req.n.nlmsg_len, 0) < 0)
		return -1;
	/* the family message, then the ACK we asked for */
	while ((n = recv(sk, rxbuf, sizeof(rxbuf), 0)) > 0) {
		for (h = (struct nlmsghdr *)rxbuf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			uint8_t *p = (uint8_t *)NLMSG_DATA(h) + GENL_HDRLEN;
			int len = (int)h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;

			if (h->nlmsg_seq != req.n.nlmsg_seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR)
				return id;
			if (h->nlmsg_type != GENL_ID_CTRL)
				continue;
			while (len >= NLA_HDRLEN) {
				struct nlattr *x = (struct nlattr *)p;

				if (x->nla_len < NLA_HDRLEN)
					break;
				if ((x->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
					id = *(uint16_t *)(p + NLA_HDRLEN);
				if ((x->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_OPS)
					parse_ops(f, p + NLA_HDRLEN,
						  x->nla_len - NLA_HDRLEN);
				len -= NLA_ALIGN(x->nla_len);
				p += NLA_ALIGN(x->nla_len);
			}
		}
	}
	return -1;
}

int main(int argc, char **argv)
{
	static struct buf b;
	struct family fams[MAX_FAM];
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };
	unsigned long count = 2000, lost = 0, i;
	int nfam = 0, opt, bufsz = 1 << 20, one = 1;
	unsigned long seed = (unsigned long)time(NULL);

	while ((opt = getopt(argc, argv, "n:s:t:v")) != -1) {
		switch (opt) {
		case 'n': count = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 't': timeout_ms = atoi(optarg); break;
		case 'v': verbose = true; break;
		default:
			fprintf(stderr, "usage: nlfuzz [-n COUNT] [-s SEED] [-t MS] [-v] FAMILY...\n");
			return 2;
		}
	}
	if (optind >= argc || argc - optind > MAX_FAM) {
		fprintf(stderr, "nlfuzz: name 1 to %d generic netlink families\n", MAX_FAM);
		return 2;
	}
	rng = seed * 0x9E3779B97F4A7C15ULL + 1;
	sk = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (sk < 0 || bind(sk, (struct sockaddr *)&me, sizeof(me)) < 0) {
		perror("nlfuzz: netlink socket");
		return 2;
	}
	/* big answers (echoed oversized requests) must not overrun us */
	if (setsockopt(sk, SOL_SOCKET, SO_RCVBUFFORCE, &bufsz, sizeof(bufsz)))
		setsockopt(sk, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof(bufsz));
	setsockopt(sk, SOL_SOCKET, SO_SNDBUF, &bufsz, sizeof(bufsz));
	setsockopt(sk, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));

	for (; optind < argc; optind++) {
		struct family *f = &fams[nfam];
		int id;

		memset(f, 0, sizeof(*f));
		id = resolve(f, argv[optind]);
		if (id < 0) {
			fprintf(stderr, "nlfuzz: no generic netlink family %s\n", argv[optind]);
			return 2;
		}
		f->name = argv[optind];
		f->id = (uint16_t)id;
		nfam++;
	}
	printf("nlfuzz: seed %lu, %lu requests, families:", seed, count);
	for (opt = 0; opt < nfam; opt++)
		printf(" %s=%u (%u ops)", fams[opt].name, fams[opt].id, fams[opt].nops);
	printf("\n");

	for (i = 0; i < count; i++) {
		struct family *f = &fams[below((uint32_t)nfam)];
		bool dump;
		size_t len = build(&b, f, &dump);
		uint32_t s = ((struct nlmsghdr *)b.d)->nlmsg_seq;
		int rc;

		if (send(sk, b.d, len, 0) < 0) {
			fprintf(stderr, "nlfuzz: send (%zu bytes): %s\n", len, strerror(errno));
			return 2;
		}
		f->sent++;
		rc = answer(s, dump);
		if (verbose)
			printf("  %s cmd %u len %zu%s -> %d\n", f->name,
			       b.len > NLMSG_HDRLEN ? b.d[NLMSG_HDRLEN] : 0, len,
			       dump ? " dump" : "", rc);
		if (rc < 0) {
			f->lost++;
			lost++;
			fprintf(stderr, "nlfuzz: request %lu (seq %u, %s, %zu bytes%s) not answered\n",
				i, s, f->name, len, dump ? ", dump" : "");
		} else if (rc == 0) {
			if (dump)
				f->dones++;
			else
				f->acks++;
		} else {
			f->errors++;
			f->errno_hist[rc < 134 ? rc : 0]++;
		}
	}

	for (opt = 0; opt < nfam; opt++) {
		struct family *f = &fams[opt];
		int e;

		printf("%s: sent %lu, acked %lu, dumps done %lu, errors %lu, unanswered %lu\n",
		       f->name, f->sent, f->acks, f->dones, f->errors, f->lost);
		for (e = 0; e < 134; e++)
			if (f->errno_hist[e])
				printf("  %-8lu %s\n", f->errno_hist[e], e ? strerror(e) : "other");
	}
	printf("nlfuzz: %s\n", lost ? "FAIL: requests went unanswered" : "all requests answered");
	return lost ? 1 : 0;
}
