// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: a hostile SMC-R peer.  It attacks an smcx listener from the
 * other lab host with seeded, reproducible cases and says how each ended.
 *
 *   hostile client -a ADDR -p PORT [-s SEED] [-n CASES] [-c FIRST] [-j THREADS]
 *                  [-x CLASS,...] [-k CLASS,...] [-v]
 *   hostile rdma -a ADDR -p PORT [-s SEED] [-n CASES] [-c FIRST] [-x/-k CLASS,...] [-v]
 *   hostile slowack -a ADDR -p PORT -S SRCADDR [-n CONNS] [-t SECS] [-w MS]
 *   hostile victim -p PORT [-f smc|tcp] [-b BACKLOG]
 *   hostile dial -a ADDR -p PORT [-f smc|tcp] [-n COUNT]
 *   hostile server -p PORT [-s SEED] [-n CASES] [-c FIRST] [-v]
 *   hostile list
 *
 * rdma: the same against an SMC-R link of our own (hostile_ib.c).
 * dial: an honest client, one line echoed: "connect_secs=S echo=ok"; with
 * -n COUNT that many connections one after the other and a table.
 * server: the other role: an smcx client (hostile dial -n on its host)
 * connects, its Proposal must decode strictly, and each case answers it
 * with a mutated, cut, valid or wrong Accept, a Decline, garbage, FIN, RST
 * or silence (the SYN-ACK gets the SMC option by tc pedit).  A Decline
 * from us must make the client fall back (its line echoed by us), garbage
 * must make it reset, a valid Accept must get a Confirm that decodes.
 *
 * client: runs cases FIRST .. FIRST+CASES-1 (default 0, 1000) against the
 * listener at ADDR:PORT, THREADS at a time (default 8).  Case i's bytes and
 * timing come only from (SEED, i): "-c i -n 1" runs it again alone.  The
 * SMC option in the SYN is not ours to add (a socket cannot): the caller
 * rewrites it into the SYNs to PORT with tc pedit (selftests/smcx_hostile.py).
 * -x leaves out the named case classes (known kernel bugs), -k keeps only
 * the named ones.  Output: one line per case with -v or when a case is
 * unexpected, then a table "outcome CLASS COUNT" and a summary line.
 * Exit 0: every case ended as its oracle allows; 1: a finding; 2: usage.
 *
 * victim: the application on the smcx host, an echo server (AF_SMC by
 * default) with a large backlog; it echoes what it reads and closes on EOF.
 * The cases use the echo to see whether a stream fell back to TCP and which
 * bytes the victim's application got: after a Decline (or a fallback) the
 * application must get exactly the bytes behind the last CLC message the
 * victim consumed, never a byte of a CLC message.
 *
 * How a case is judged: the case's stream is run through the same codec the
 * kernel decodes with (include/smcx/wire, lax reserved fields and host
 * names), which says what a correct victim does with it:
 *   - not a CLC eyecatcher at the start: fallback, every byte echoed;
 *   - a Proposal that decodes: a Decline (or an Accept, when it offers our
 *     EID), then the bytes after it echoed;
 *   - a Decline that decodes: fallback (the victim sends nothing), the bytes
 *     after it echoed;
 *   - anything else (bad header, wrong type, undecodable body, a message
 *     cut short by FIN or silence): a reset, at the latest after the
 *     victim's CLC wait (6 s).
 * An Accept starts stage 2: a Confirm (valid or mutated), a Decline,
 * garbage, a cut Confirm, FIN, RST or silence, judged the same way.
 * Outcomes: decline, fallback, reset, unexpected (no answer within 20 s,
 * a CLC message from the victim that does not decode strictly, echoed bytes
 * that differ from the oracle's, an answer the oracle does not allow).
 * The review's attacks (issue 30) add their own rules: a Proposal whose GID
 * is not our source address never gets a reuse Accept (oos-stranger,
 * first-contact-flood), a guessed Confirm gets a Decline or a reset
 * (reuse-guess), and no more first contacts from us are held at once than
 * the victim's cap per peer (first-contact-flood).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "hostile.h"

#ifndef AF_SMC
#define AF_SMC 43
#endif

#define TXMAX		(48 * 1024)
#define RXMAX		(TXMAX + 256)
#define ANSWER_MS	20000	/* the victim's CLC wait (6 s) plus TCG slack */
#define PROBE		"HOSTILE-PROBE\n"
#define OUR_EID		HOSTILE_OUR_EID
/*
 * first-contact-flood: more first contacts at once than the victim serves
 * one peer address (kernel/lgr.h: SMCX_LGR_PER_PEER link groups, N4)
 */
#define LGR_PER_PEER	32
#define FC_FLOOD_MIN	(LGR_PER_PEER + 1)
#define FC_FLOOD_MAX	48
#define FC_HELD_MS	5000	/* Accepts in this time all coexist (CLC wait 6 s) */

static const char *const outcome_names[HO_MAX] = {
	"decline", "fallback", "reset", "lgr-term", "smcr", "known-bug", "unexpected",
};

enum hend { END_PROBE, END_FIN, END_RST, END_SILENT };
static const char *const end_names[] = { "probe", "fin", "rst", "silent" };

/* what a correct victim answers to a stream (see the header comment) */
enum hreply { R_ECHO, R_CLC, R_RESET };

struct hcase {
	uint64_t no;
	struct hrng r;
	int cls;
	uint8_t tx[TXMAX];
	size_t txlen;
	int end;
	int slow;		/* one byte per second */
	char what[256];		/* what the generator did */
	/* oracle */
	int reply;
	size_t consumed;	/* bytes of tx the victim takes as CLC */
	int may_accept;		/* the proposal offers our EID */
	/* result */
	int outcome;
	char msg[256];
	uint8_t rx[RXMAX];
	uint8_t fake_gid[16];
	unsigned int flood;	/* connections of a flood case */
	int locked;		/* holds first_contact_lock */
	int point;		/* oos-stranger: where its Decline goes */
};

struct hopts {
	const char *addr;
	int port;
	uint64_t seed;
	uint64_t first, count;
	int threads;
	int verbose;
	unsigned long long skip_mask, keep_mask;
};

static struct hopts O = { .seed = 1, .count = 1000, .threads = 8 };

/* ------------------------------------------------------------ helpers */

int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

void note_append(char *what, size_t size, const char *fmt, va_list ap)
{
	size_t l = strlen(what);

	if (l >= size - 2)
		return;
	if (l)
		what[l++] = ' ';
	vsnprintf(what + l, size - l, fmt, ap);
}

static void note(struct hcase *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	note_append(c->what, sizeof(c->what), fmt, ap);
	va_end(ap);
}

static int fail(struct hcase *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->msg, sizeof(c->msg), fmt, ap);
	va_end(ap);
	c->outcome = HO_UNEXPECTED;
	return -1;
}

int tcp_connect(const char *addr, int port, int ms)
{
	return tcp_connect_from(NULL, addr, port, ms);
}

int tcp_connect_from(const char *src, const char *addr, int port, int ms)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct sockaddr_in me = { .sin_family = AF_INET };
	struct pollfd p;
	int fd, one = 1, err = 0;
	socklen_t l = sizeof(err);

	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1 ||
	    (src && inet_pton(AF_INET, src, &me.sin_addr) != 1))
		return -EINVAL;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if ((src && bind(fd, (struct sockaddr *)&me, sizeof(me))) ||
	    (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) && errno != EINPROGRESS)) {
		err = errno;
		close(fd);
		return -err;
	}
	p.fd = fd;
	p.events = POLLOUT;
	if (poll(&p, 1, ms) != 1) {
		close(fd);
		return -ETIMEDOUT;
	}
	getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &l);
	if (err) {
		close(fd);
		return -err;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

/* all of @n bytes; 0 or -errno */
int send_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Read exactly @n bytes before @deadline.  Returns @n, or the count read so
 * far with *@why set: 0 EOF, -errno (-ETIMEDOUT at the deadline).
 */
size_t rd_exact(int fd, uint8_t *buf, size_t n, int64_t deadline, int *why)
{
	size_t got = 0;

	*why = 0;
	while (got < n) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t left = deadline - now_ms();
		ssize_t r;

		if (left <= 0) {
			*why = -ETIMEDOUT;
			return got;
		}
		if (poll(&p, 1, (int)left) == 0)
			continue;
		r = recv(fd, buf + got, n - got, MSG_DONTWAIT);
		if (r > 0) {
			got += (size_t)r;
			continue;
		}
		if (r == 0) {
			*why = 0;
			return got;
		}
		if (errno == EAGAIN || errno == EINTR)
			continue;
		*why = -errno;
		return got;
	}
	return got;
}

static void rst_close(int fd)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };

	setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	close(fd);
}

/* ------------------------------------------------------ message builders */

void eid_set(uint8_t *eid, const char *s)
{
	size_t l = strlen(s);

	memset(eid, ' ', SMCX_EID_LEN);
	memcpy(eid, s, l > SMCX_EID_LEN ? SMCX_EID_LEN : l);
}

/* a printable EID that is not ours */
static void eid_random(struct hrng *r, uint8_t *eid)
{
	char s[SMCX_EID_LEN + 1];
	unsigned int i, n = 1 + hr_below(r, SMCX_EID_LEN);

	for (i = 0; i < n; i++)
		s[i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-"[hr_below(r, 38)];
	s[n] = 0;
	if (!strcmp(s, OUR_EID))
		s[0] = 'Q';
	eid_set(eid, s);
}

static void fake_gid(struct hcase *c)
{
	/* fe80::/64 with random bits: never the GID of a real link group */
	memset(c->fake_gid, 0, 16);
	c->fake_gid[0] = 0xfe;
	c->fake_gid[1] = 0x80;
	hr_fill(&c->r, c->fake_gid + 8, 8);
}

/*
 * A proposal from base variant @v:
 *   0 smcx's own offer: v2, SMC-R v2 only, our EID (the victim accepts it)
 *   1 the same with an EID that is not ours (declined NOSMCDEV)
 *   2 v2 offering SMC-R v1 too (ip area, IPv6 prefixes), foreign EIDs
 *   3 v1, SMC-R with an ip area
 *   4 v2, SMC-D v1 and v2 with ISM GIDs and a system EID, foreign EID
 */
static void prop_base(struct hcase *c, int v, struct smcx_clc_proposal *p)
{
	struct hrng *r = &c->r;
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->hdr.eyecatcher = SMCX_EYE_SMCR;
	p->hdr.version = SMCX_CLC_V2;
	p->hdr.typev1 = SMCX_TYPE_N;
	p->hdr.typev2 = SMCX_TYPE_R;
	p->has_smcd_area = 1;
	p->release = SMCX_RELEASE_1;
	p->max_conns = 255;
	p->max_links = 2;
	p->eid_cnt = 1;
	memcpy(p->roce_gid, c->fake_gid, 16);
	hr_fill(r, p->peer_id, sizeof(p->peer_id));
	eid_set(p->user_eid[0], OUR_EID);
	switch (v) {
	case 0:
		break;
	case 1:
		eid_random(r, p->user_eid[0]);
		break;
	case 2:
		p->hdr.typev1 = SMCX_TYPE_R;
		hr_fill(r, p->gid, 16);
		hr_fill(r, p->mac, 6);
		p->ipv4_subnet = 0xc6120000;
		p->ipv4_prefix_len = 24;
		p->ipv6_cnt = (u8)hr_below(r, SMCX_CLC_MAX_V6_PREFIX + 1);
		for (i = 0; i < p->ipv6_cnt; i++) {
			hr_fill(r, p->ipv6[i].prefix, 16);
			p->ipv6[i].len = (u8)hr_below(r, 129);
		}
		p->eid_cnt = (u8)(1 + hr_below(r, SMCX_CLC_MAX_UEID));
		for (i = 0; i < p->eid_cnt; i++)
			eid_random(r, p->user_eid[i]);
		break;
	case 3:
		memset(p, 0, sizeof(*p));
		p->hdr.eyecatcher = SMCX_EYE_SMCR;
		p->hdr.version = SMCX_CLC_V1;
		p->hdr.typev1 = SMCX_TYPE_R;
		hr_fill(r, p->peer_id, 8);
		hr_fill(r, p->gid, 16);
		hr_fill(r, p->mac, 6);
		p->has_smcd_area = (u8)hr_below(r, 2);
		p->ipv4_subnet = 0xc6120000;
		p->ipv4_prefix_len = 24;
		p->ipv6_cnt = (u8)hr_below(r, 3);
		for (i = 0; i < p->ipv6_cnt; i++) {
			hr_fill(r, p->ipv6[i].prefix, 16);
			p->ipv6[i].len = 64;
		}
		break;
	default:
		p->hdr.eyecatcher = SMCX_EYE_SMCD;
		p->hdr.typev1 = SMCX_TYPE_D;
		p->hdr.typev2 = SMCX_TYPE_B;
		p->ipv4_subnet = 0xc6120000;
		p->ipv4_prefix_len = 24;
		p->ism_gid = hr_next(r);
		p->ism_chid = (u16)hr_next(r);
		eid_random(r, p->user_eid[0]);
		eid_random(r, p->system_eid);
		p->seid = 1;
		p->ism_gid_cnt = (u8)hr_below(r, SMCX_CLC_MAX_ISM_GIDS + 1);
		for (i = 0; i < p->ism_gid_cnt; i++) {
			p->ism[i].gid = hr_next(r);
			p->ism[i].chid = (u16)hr_next(r);
		}
		break;
	}
}

/* ---------------------------------------------------------- the fields */

struct hfield {
	const char *name;
	uint16_t off, len;
};

#define MAXF 64

static int fld(struct hfield *f, int n, const char *name, size_t off, size_t len)
{
	if (n < MAXF) {
		f[n].name = name;
		f[n].off = (uint16_t)off;
		f[n].len = (uint16_t)len;
	}
	return n + 1;
}

static int hdr_fields(struct hfield *f, size_t len)
{
	int n = 0;

	n = fld(f, n, "eyecatcher", 0, 4);
	n = fld(f, n, "type", 4, 1);
	n = fld(f, n, "length", 5, 2);
	n = fld(f, n, "version|types", 7, 1);
	n = fld(f, n, "trailer", len - 4, 4);
	return n;
}

/* every field of an encoded proposal @p (offsets as the encoder puts them) */
static int prop_fields(const struct smcx_clc_proposal *p, size_t len, struct hfield *f)
{
	int n = hdr_fields(f, len);
	size_t pos = SMCX_CLC_PROP_BASE_LEN, v2 = 0;
	unsigned int i;

	n = fld(f, n, "peer_id", 8, 8);
	n = fld(f, n, "gid", 16, 16);
	n = fld(f, n, "mac", 32, 6);
	n = fld(f, n, "ip_area_offset", 38, 2);
	if (p->has_smcd_area) {
		n = fld(f, n, "ism_gid", pos, 8);
		n = fld(f, n, "ism_chid", pos + 8, 2);
		n = fld(f, n, "v2ext_offset", pos + 10, 2);
		n = fld(f, n, "vendor_oui", pos + 12, 3);
		n = fld(f, n, "vendor_exp", pos + 15, 5);
		n = fld(f, n, "smcd_area_reserved", pos + 20, 20);
		pos += SMCX_CLC_SMCD_AREA_LEN;
	}
	if (p->hdr.version == SMCX_CLC_V1 || p->hdr.typev1 != SMCX_TYPE_N) {
		n = fld(f, n, "ipv4_subnet", pos, 4);
		n = fld(f, n, "ipv4_prefix_len", pos + 4, 1);
		n = fld(f, n, "ip_area_reserved", pos + 5, 2);
		n = fld(f, n, "ipv6_count", pos + 7, 1);
		pos += 8;
		for (i = 0; i < p->ipv6_cnt; i++) {
			n = fld(f, n, "ipv6_prefix", pos, 16);
			n = fld(f, n, "ipv6_prefix_len", pos + 16, 1);
			pos += 17;
		}
	}
	if (p->hdr.version == SMCX_CLC_V2 && p->hdr.typev2 != SMCX_TYPE_N) {
		v2 = pos;
		n = fld(f, n, "eid_count", pos, 1);
		n = fld(f, n, "ism_gid_count", pos + 1, 1);
		n = fld(f, n, "v2ext_reserved", pos + 2, 1);
		n = fld(f, n, "release|seid", pos + 3, 1);
		n = fld(f, n, "v2ext_reserved2", pos + 4, 2);
		n = fld(f, n, "smcd_v2ext_offset", pos + 6, 2);
		n = fld(f, n, "roce_gid", pos + 8, 16);
		n = fld(f, n, "max_conns", pos + 24, 1);
		n = fld(f, n, "max_links", pos + 25, 1);
		n = fld(f, n, "feature_mask", pos + 26, 2);
		n = fld(f, n, "v2ext_reserved3", pos + 28, 12);
		pos += SMCX_CLC_V2_EXT_LEN;
		for (i = 0; i < p->eid_cnt; i++, pos += SMCX_EID_LEN)
			n = fld(f, n, "user_eid", pos, SMCX_EID_LEN);
		if (p->hdr.typev2 == SMCX_TYPE_D || p->hdr.typev2 == SMCX_TYPE_B) {
			n = fld(f, n, "system_eid", pos, SMCX_EID_LEN);
			n = fld(f, n, "smcd_v2ext_reserved", pos + 32, 16);
			pos += SMCX_CLC_SMCD_V2_EXT_LEN;
			for (i = 0; i < p->ism_gid_cnt; i++, pos += 10) {
				n = fld(f, n, "ismv2_gid", pos, 8);
				n = fld(f, n, "ismv2_chid", pos + 8, 2);
			}
		}
	}
	(void)v2;
	return n < MAXF ? n : MAXF;
}

/* every field of an encoded accept/confirm of @len bytes */
static int acc_fields(size_t len, struct hfield *f)
{
	int n = hdr_fields(f, len);

	n = fld(f, n, "peer_id", 8, 8);
	n = fld(f, n, "gid", 16, 16);
	n = fld(f, n, "mac", 32, 6);
	n = fld(f, n, "qpn", 38, 3);
	n = fld(f, n, "rmb_rkey", 41, 4);
	n = fld(f, n, "rmbe_idx", 45, 1);
	n = fld(f, n, "alert_token", 46, 4);
	n = fld(f, n, "rmbe_size|mtu", 50, 1);
	n = fld(f, n, "reserved51", 51, 1);
	n = fld(f, n, "rmb_addr", 52, 8);
	n = fld(f, n, "reserved60", 60, 1);
	n = fld(f, n, "psn", 61, 3);
	if (len <= SMCX_CLC_ACC_V1_LEN)
		return n;
	n = fld(f, n, "eid", 64, 32);
	n = fld(f, n, "reserved96", 96, 8);
	if (len <= SMCX_CLC_ACC_V2_LEN)
		return n;
	n = fld(f, n, "v2_direct", 104, 1);
	n = fld(f, n, "os|release", 105, 1);
	n = fld(f, n, "fce_reserved", 106, 2);
	n = fld(f, n, "hostname", 108, 32);
	if (len <= 144)
		return n;
	n = fld(f, n, "max_conns", 140, 1);
	n = fld(f, n, "max_links", 141, 1);
	n = fld(f, n, "feature_mask", 142, 2);
	n = fld(f, n, "vendor_options", 144, 4);
	n = fld(f, n, "fce_reserved2", 148, 8);
	if (len <= 160)
		return n;
	n = fld(f, n, "gid_count", 156, 1);
	n = fld(f, n, "gle_reserved", 157, 3);
	n = fld(f, n, "gid_list", 160, len - 164);
	return n;
}

static int decl_fields(size_t len, struct hfield *f)
{
	int n = hdr_fields(f, len);

	n = fld(f, n, "peer_id", 8, 8);
	n = fld(f, n, "diagnosis", 16, 4);
	n = fld(f, n, "os_type", 20, 1);
	n = fld(f, n, "reserved21", 21, 3);
	if (len > SMCX_CLC_DECL_V1_LEN)
		n = fld(f, n, "diag_v2", 24, 16);
	return n;
}

/* one mutation of field @f of @buf: the kinds of wrong a field can be */
static void mutate_field(struct hcase *c, uint8_t *buf, const struct hfield *f)
{
	struct hrng *r = &c->r;
	uint8_t *p = buf + f->off;
	unsigned int i, k = hr_below(r, 8);
	static const char *const kinds[] = {
		"random", "zero", "ones", "bitflip", "plus1", "minus1", "byte", "small",
	};

	switch (k) {
	case 0:
		hr_fill(r, p, f->len);
		break;
	case 1:
		memset(p, 0, f->len);
		break;
	case 2:
		memset(p, 0xff, f->len);
		break;
	case 3:
		i = hr_below(r, f->len * 8u);
		p[i / 8] ^= (uint8_t)(1u << (i % 8));
		break;
	case 4:	/* big-endian +1 */
		for (i = f->len; i-- > 0;)
			if (++p[i])
				break;
		break;
	case 5:
		for (i = f->len; i-- > 0;)
			if (p[i]--)
				break;
		break;
	case 6:
		p[hr_below(r, f->len)] = (uint8_t)hr_next(r);
		break;
	default:	/* a small number, right-aligned */
		memset(p, 0, f->len);
		p[f->len - 1] = (uint8_t)hr_below(r, 16);
		break;
	}
	note(c, "%s:%s", f->name, kinds[k]);
}

static void mutate_fields(struct hcase *c, uint8_t *buf, const struct hfield *f, int nf)
{
	unsigned int m = hr_chance(&c->r, 80) ? 1 : 2 + hr_below(&c->r, 3);

	while (m--)
		mutate_field(c, buf, &f[hr_below(&c->r, (uint32_t)nf)]);
}

/* ------------------------------------------------------------ the oracle */

static int eye_prefix(const uint8_t *p, size_t n)
{
	if (n > 4)
		n = 4;
	return !memcmp(p, smcx_eye_smcr, n) || !memcmp(p, smcx_eye_smcd, n);
}

/*
 * What the victim does with @n bytes at @p when it awaits @want (PROPOSAL
 * in stage 1, CONFIRM in stage 2; a DECLINE is always allowed): sets
 * c->reply, c->consumed, c->may_accept.  Returns whether the bytes hold a
 * whole message (else the victim waits for more).
 */
static int oracle(struct hcase *c, const uint8_t *p, size_t n, int want, int stage1)
{
	struct smcx_clc_hdr h;
	static __thread union {
		struct smcx_clc_proposal prop;
		struct smcx_clc_accept acc;
		struct smcx_clc_decline dcl;
	} m;
	unsigned int i;

	c->consumed = 0;
	c->may_accept = 0;
	c->reply = R_RESET;
	if (stage1 && n && !eye_prefix(p, n)) {
		c->reply = R_ECHO;	/* not CLC: fallback, nothing consumed */
		return 1;
	}
	if (stage1 && !n) {
		c->reply = R_ECHO;	/* FIN first is "not CLC"; silence resets */
		return 0;
	}
	if (n < SMCX_CLC_HDR_LEN)
		return 0;
	if (smcx_clc_peek(p, SMCX_CLC_HDR_LEN, &h))
		return 1;
	if (h.length < SMCX_CLC_HDR_LEN + SMCX_CLC_TRL_LEN || h.length > SMCX_CLC_MAX_LEN)
		return 1;
	if (n < h.length)
		return 0;
	c->consumed = h.length;
	if (h.type == SMCX_CLC_DECLINE) {
		if (!smcx_clc_decode_decline(p, h.length, &m.dcl, SMCX_WIRE_LAX_RSVD))
			c->reply = R_ECHO;
		return 1;
	}
	if (h.type != want)
		return 1;
	if (want == SMCX_CLC_PROPOSAL) {
		if (smcx_clc_decode_proposal(p, h.length, &m.prop, SMCX_WIRE_LAX_RSVD))
			return 1;
		c->reply = R_CLC;
		if (m.prop.hdr.version == SMCX_CLC_V2 && smcx_type_has_r(m.prop.hdr.typev2))
			for (i = 0; i < m.prop.eid_cnt; i++) {
				uint8_t e[SMCX_EID_LEN];

				eid_set(e, OUR_EID);
				if (!memcmp(e, m.prop.user_eid[i], SMCX_EID_LEN))
					c->may_accept = 1;
			}
		return 1;
	}
	/* as the victim decodes it: the host name may hold any byte (F16) */
	if (smcx_clc_decode_accept(p, h.length, SMCX_CLC_CONFIRM, &m.acc,
				   SMCX_WIRE_LAX_RSVD | SMCX_WIRE_LAX_TEXT) ||
	    m.acc.hdr.version != SMCX_CLC_V2 || !smcx_clc_first_contact(&m.acc.hdr))
		return 1;
	/* a Confirm the victim takes: the link to our fake QP fails (reset),
	 * or the v2.1 values are refused (Decline)
	 */
	c->reply = R_CLC;
	return 1;
}

/* ------------------------------------------------------------- classes */

enum {
	K_PROP_VALID, K_PROP_STRUCT, K_PROP_FIELD, K_PROP_TRUNC, K_PROP_LEN,
	K_PROP_DUP, K_DECLINE_FIRST, K_WRONG_TYPE, K_GARBAGE_EYE, K_GARBAGE_TCP,
	K_PARTIAL_EYE_FIN, K_PARTIAL_EYE_RST, K_PARTIAL_EYE_SILENT, K_FIN_FIRST,
	K_RST_FIRST, K_SILENT_FIRST, K_FLOOD_CONNS, K_FLOOD_BYTES, K_FIRST_CONTACT,
	K_FIRST_CONTACT_SILENT, K_FIRST_CONTACT_PAR, K_OOS_STRANGER, K_REUSE_GUESS,
	K_FC_FLOOD, K_SLOW, K_MAX
};

struct hclass {
	const char *name;
	unsigned int weight;	/* per mille; K_SLOW is placed by case number */
	const char *what;
};

static const struct hclass classes[K_MAX] = {
	[K_PROP_VALID] = { "prop-valid", 30, "a valid proposal we are declined for" },
	[K_PROP_STRUCT] = { "prop-struct", 110, "proposal with extreme, encodable values" },
	[K_PROP_FIELD] = { "prop-field", 345, "proposal, one to four fields mutated" },
	[K_PROP_TRUNC] = { "prop-trunc", 90, "proposal cut short, then FIN, RST or silence" },
	[K_PROP_LEN] = { "prop-len", 60, "proposal with a wrong length field" },
	[K_PROP_DUP] = { "prop-dup", 40, "two messages back to back" },
	[K_DECLINE_FIRST] = { "decline-first", 40, "a (mutated) decline instead of a proposal" },
	[K_WRONG_TYPE] = { "wrong-type", 40, "accept, confirm or an unknown type first" },
	[K_GARBAGE_EYE] = { "garbage-eye", 50, "an eyecatcher, then random bytes" },
	[K_GARBAGE_TCP] = { "garbage-tcp", 30, "random bytes that are no CLC" },
	[K_PARTIAL_EYE_FIN] = { "partial-eye-fin", 10, "1-3 eyecatcher bytes, then FIN" },
	[K_PARTIAL_EYE_RST] = { "partial-eye-rst", 10, "1-3 eyecatcher bytes, then RST" },
	[K_PARTIAL_EYE_SILENT] = { "partial-eye-silent", 3, "1-3 eyecatcher bytes, then silence" },
	[K_FIN_FIRST] = { "fin-first", 10, "FIN before any byte" },
	[K_RST_FIRST] = { "rst-first", 10, "RST before any byte" },
	[K_SILENT_FIRST] = { "silent-first", 2, "connect and say nothing" },
	[K_FLOOD_CONNS] = { "flood-conns", 10, "8-32 proposals on parallel connections" },
	[K_FLOOD_BYTES] = { "flood-bytes", 15, "a declined proposal and 32 KiB behind it" },
	[K_FIRST_CONTACT] = { "first-contact", 10, "our EID: accept, then a hostile stage 2" },
	[K_FIRST_CONTACT_SILENT] = { "first-contact-silent", 0,
				     "our EID, accept, then silence (only with -k)" },
	[K_FIRST_CONTACT_PAR] = { "first-contact-parallel", 10,
				  "first-contact, several at once (not serialised by us)" },
	[K_OOS_STRANGER] = { "oos-stranger", 15,
			     "a GID not ours, an out-of-sync decline at each point" },
	[K_REUSE_GUESS] = { "reuse-guess", 1,
			    "our own GID, a confirm with guessed QPN, MAC, rkey" },
	[K_FC_FLOOD] = { "first-contact-flood", 2,
			 "33-48 first contacts at once, a fake GID each" },
	[K_SLOW] = { "slow", 0, "a proposal at one byte per second" },
};

static int class_by_name(const char *s, size_t n)
{
	int k;

	for (k = 0; k < K_MAX; k++)
		if (strlen(classes[k].name) == n && !strncmp(classes[k].name, s, n))
			return k;
	return -1;
}

static int pick_class(struct hcase *c)
{
	unsigned int total = 0, x;
	int k;

	if (c->no % 1000 == 500 && !(O.skip_mask & (1ull << K_SLOW)) &&
	    (!O.keep_mask || (O.keep_mask & (1ull << K_SLOW))))
		return K_SLOW;
	for (k = 0; k < K_MAX; k++)
		if (!(O.skip_mask & (1ull << k)) && (!O.keep_mask || (O.keep_mask & (1ull << k))))
			total += classes[k].weight;
	if (!total) {	/* -k of classes that are never drawn: the first */
		for (k = 0; k < K_MAX; k++)
			if (O.keep_mask & (1ull << k))
				return k;
		return -1;
	}
	x = hr_below(&c->r, total);
	for (k = 0; k < K_MAX; k++) {
		if ((O.skip_mask & (1ull << k)) || (O.keep_mask && !(O.keep_mask & (1ull << k))))
			continue;
		if (x < classes[k].weight)
			return k;
		x -= classes[k].weight;
	}
	return -1;
}

static size_t put_prop(struct hcase *c, uint8_t *out, size_t room, int v,
		       struct smcx_clc_proposal *p)
{
	int len;

	prop_base(c, v, p);
	len = smcx_clc_encode_proposal(p, out, room);
	return len > 0 ? (size_t)len : 0;
}

static size_t put_decline(struct hcase *c, uint8_t *out, int v1)
{
	struct smcx_clc_decline d = { 0 };
	int len;

	d.hdr.eyecatcher = SMCX_EYE_SMCR;
	d.hdr.version = v1 ? SMCX_CLC_V1 : SMCX_CLC_V2;
	d.hdr.typev1 = SMCX_TYPE_R;
	d.diag = (uint32_t)hr_next(&c->r);
	d.os_type = v1 ? 0 : SMCX_CLC_OS_LINUX;
	hr_fill(&c->r, d.peer_id, 8);
	len = smcx_clc_encode_decline(&d, out, 64);
	return len > 0 ? (size_t)len : 0;
}

/* an accept or confirm from us in @a: fake QP, rkey, token and buffer */
static void acc_fill(struct hcase *c, struct smcx_clc_accept *ap, uint8_t type, int first,
		     const struct smcx_clc_accept *theirs)
{
	struct smcx_clc_accept a = { 0 };
	struct hrng *r = &c->r;

	a.hdr.eyecatcher = SMCX_EYE_SMCR;
	a.hdr.version = SMCX_CLC_V2;
	a.hdr.typev1 = SMCX_TYPE_R;
	a.hdr.typev2 = first ? SMCX_CLC_FIRST_CONTACT : 0;
	hr_fill(r, a.peer_id, 8);
	memcpy(a.gid, c->fake_gid, 16);
	hr_fill(r, a.mac, 6);
	a.mac[0] &= 0xfe;
	a.qpn = (uint32_t)hr_next(r) & 0xffffff;
	a.rmb_rkey = (uint32_t)hr_next(r);
	a.rmbe_idx = 1;
	a.rmbe_alert_token = (uint32_t)hr_next(r);
	a.rmbe_size = (uint8_t)hr_below(r, 16);
	a.qp_mtu = 3;
	a.rmb_dma_addr = hr_next(r);
	a.psn = (uint32_t)hr_next(r) & 0xffffff;
	if (theirs)
		memcpy(a.eid, theirs->eid, SMCX_EID_LEN);
	else
		eid_set(a.eid, OUR_EID);
	a.fce_v2x = 1;
	a.v2_direct = 1;
	a.os_type = SMCX_CLC_OS_LINUX;
	a.release = theirs ? theirs->release : 1;
	memset(a.hostname, ' ', SMCX_HOSTNAME_LEN);
	memcpy(a.hostname, "hostile", 7);
	a.max_conns = theirs ? theirs->max_conns : 255;
	a.max_links = theirs ? theirs->max_links : 2;
	if (type == SMCX_CLC_CONFIRM) {
		a.gid_cnt = 1;
		memcpy(a.gids[0], c->fake_gid, 16);
	}
	*ap = a;
}

static size_t put_acc(struct hcase *c, uint8_t *out, uint8_t type, int first,
		      const struct smcx_clc_accept *theirs)
{
	struct smcx_clc_accept a;
	int len;

	acc_fill(c, &a, type, first, theirs);
	len = smcx_clc_encode_accept(&a, type, out, 512);
	return len > 0 ? (size_t)len : 0;
}

/* ------------------------------------ issue 30: N1, N4 and F11's remainder */

/*
 * Our own address toward the victim as a RoCE v2 GID (::ffff:a.b.c.d), and
 * the MAC of the interface that holds it (anyone on the segment sees it by
 * ARP): what the victim takes as the CLC connection's peer.  Found once
 * before the cases, from a UDP socket's route.  0, or -1 (no route).
 */
static uint8_t our_gid[16], our_mac[6];
static int our_mac_ok;

static int find_our_addr(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(O.port) }, me;
	socklen_t l = sizeof(me);
	struct ifaddrs *ifa, *i;
	int fd;

	if (inet_pton(AF_INET, O.addr, &sa.sin_addr) != 1)
		return -1;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(fd, (struct sockaddr *)&me, &l)) {
		close(fd);
		return -1;
	}
	close(fd);
	memset(our_gid, 0, sizeof(our_gid));
	our_gid[10] = 0xff;
	our_gid[11] = 0xff;
	memcpy(our_gid + 12, &me.sin_addr, 4);
	if (getifaddrs(&ifa))
		return 0;	/* no MAC: the cases draw one */
	for (i = ifa; i; i = i->ifa_next) {
		char path[96];
		FILE *f;

		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET ||
		    ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr != me.sin_addr.s_addr)
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/address", i->ifa_name);
		f = fopen(path, "r");
		if (f) {
			our_mac_ok = fscanf(f, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &our_mac[0],
					    &our_mac[1], &our_mac[2], &our_mac[3], &our_mac[4],
					    &our_mac[5]) == 6;
			fclose(f);
		}
		break;
	}
	freeifaddrs(ifa);
	return 0;
}

/*
 * oos-stranger: a GID in c->fake_gid that is not our source address's:
 * a random link-local one, a neighbour's on our subnet (our address with
 * another last byte), or the victim's own address.  The victim must not
 * take it for us (N1): a first contact at most, never a reuse.
 */
static void stranger_gid(struct hcase *c)
{
	struct in_addr va;

	switch (hr_below(&c->r, 3)) {
	case 0:
		note(c, "random GID");
		break;		/* fake_gid(): fe80::/64, random */
	case 1:
		memcpy(c->fake_gid, our_gid, 16);
		c->fake_gid[15] ^= (uint8_t)(1 + hr_below(&c->r, 255));
		note(c, "a neighbour's GID");
		break;
	default:
		memcpy(c->fake_gid, our_gid, 16);
		if (inet_pton(AF_INET, O.addr, &va) == 1)
			memcpy(c->fake_gid + 12, &va, 4);
		note(c, "the victim's own GID");
		break;
	}
}

/* an "out of sync" Decline: v2, typev2 bit 1, diagnosis SYNCERR */
static size_t put_oos_decline(struct hcase *c, uint8_t *out)
{
	struct smcx_clc_decline d = { 0 };
	int len;

	d.hdr.eyecatcher = SMCX_EYE_SMCR;
	d.hdr.version = SMCX_CLC_V2;
	d.hdr.typev1 = SMCX_TYPE_R;
	d.hdr.typev2 = SMCX_CLC_FIRST_CONTACT;	/* a Decline's "out of sync" */
	d.diag = SMCX_DECL_SYNCERR;
	d.os_type = SMCX_CLC_OS_LINUX;
	hr_fill(&c->r, d.peer_id, 8);
	len = smcx_clc_encode_decline(&d, out, 64);
	return len > 0 ? (size_t)len : 0;
}

/* random end for a stream the victim must wait on; silence is rare (6 s) */
static int end_incomplete(struct hcase *c)
{
	unsigned int x = hr_below(&c->r, 100);

	return x < 3 ? END_SILENT : x < 55 ? END_FIN : END_RST;
}

static void gen_struct(struct hcase *c, struct smcx_clc_proposal *p)
{
	struct hrng *r = &c->r;
	unsigned int i;

	prop_base(c, hr_chance(r, 10) ? 0 : 1 + hr_below(r, 4), p);
	switch (hr_below(r, 8)) {
	case 0:
		if (p->hdr.version == SMCX_CLC_V2 && p->hdr.typev2 != SMCX_TYPE_N) {
			p->eid_cnt = (u8)hr_below(r, SMCX_CLC_MAX_UEID + 1);
			for (i = 0; i < p->eid_cnt; i++)
				eid_random(r, p->user_eid[i]);
			if (p->eid_cnt && hr_chance(r, 30))
				eid_set(p->user_eid[hr_below(r, p->eid_cnt)], OUR_EID);
			note(c, "eid_cnt=%u", p->eid_cnt);
		}
		break;
	case 1:
		if (p->hdr.version == SMCX_CLC_V2) {
			p->release = (u8)hr_below(r, 16);
			note(c, "release=%u", p->release);
		}
		break;
	case 2: {
		static const u8 v[] = { 0, 1, 2, 3, 16, 254, 255 };

		p->max_conns = v[hr_below(r, sizeof(v))];
		p->max_links = v[hr_below(r, sizeof(v))];
		note(c, "max_conns=%u max_links=%u", p->max_conns, p->max_links);
		break;
	}
	case 3:
		p->feature_mask = (u16)hr_next(r);
		p->seid = (u8)hr_below(r, 2);
		note(c, "features=%#x seid=%u", p->feature_mask, p->seid);
		break;
	case 4:
		if (p->hdr.version == SMCX_CLC_V1 || p->hdr.typev1 != SMCX_TYPE_N) {
			p->ipv6_cnt = SMCX_CLC_MAX_V6_PREFIX;
			for (i = 0; i < p->ipv6_cnt; i++) {
				hr_fill(r, p->ipv6[i].prefix, 16);
				p->ipv6[i].len = (u8)hr_below(r, 129);
			}
			p->ipv4_prefix_len = (u8)hr_below(r, 33);
			p->ipv4_subnet = (u32)hr_next(r);
			note(c, "ipv6_cnt=8");
		}
		break;
	case 5:
		hr_fill(r, p->roce_gid, 16);
		note(c, "random roce_gid");
		break;
	case 6:
		p->hdr.eyecatcher = (u8)hr_below(r, 2);
		p->hdr.typev1 = (u8)hr_below(r, 4);
		if (p->hdr.version == SMCX_CLC_V2)
			p->hdr.typev2 = (u8)hr_below(r, 4);
		note(c, "eye=%u typev1=%u typev2=%u", p->hdr.eyecatcher, p->hdr.typev1,
		     p->hdr.typev2);
		break;
	default:
		p->ism_gid = hr_next(r);
		hr_fill(r, p->vendor_oui, 3);
		hr_fill(r, p->vendor_exp, 5);
		note(c, "vendor fields");
		break;
	}
}

/* stage 1 of a case: c->tx, c->end, c->slow */
static void generate(struct hcase *c)
{
	static __thread struct smcx_clc_proposal p;
	struct hfield f[MAXF];
	struct hrng *r = &c->r;
	size_t l, l2, k;
	int nf, len;

	c->end = END_PROBE;
	switch (c->cls) {
	case K_PROP_VALID:
		c->txlen = put_prop(c, c->tx, TXMAX, 1 + hr_below(r, 4), &p);
		if (hr_chance(r, 30))
			c->end = END_FIN;
		break;
	case K_PROP_STRUCT:
		gen_struct(c, &p);
		len = smcx_clc_encode_proposal(&p, c->tx, TXMAX);
		if (len <= 0) {	/* a combination the encoder refuses: send base */
			note(c, "(unencodable: base)");
			len = (int)put_prop(c, c->tx, TXMAX, 1, &p);
		}
		c->txlen = (size_t)len;
		break;
	case K_PROP_FIELD:
	case K_FIRST_CONTACT:
	case K_FIRST_CONTACT_SILENT:
	case K_FIRST_CONTACT_PAR:
		c->txlen = put_prop(c, c->tx, TXMAX, c->cls != K_PROP_FIELD ? 0 :
				    hr_chance(r, 4) ? 0 : 1 + hr_below(r, 4), &p);
		if (c->cls == K_PROP_FIELD) {
			nf = prop_fields(&p, c->txlen, f);
			mutate_fields(c, c->tx, f, nf);
		}
		if (c->cls != K_FIRST_CONTACT_SILENT && hr_chance(r, 10))
			c->end = END_FIN;
		break;
	case K_PROP_TRUNC:
		l = put_prop(c, c->tx, TXMAX, hr_below(r, 5), &p);
		c->txlen = 4 + hr_below(r, (uint32_t)(l - 4));
		c->end = end_incomplete(c);
		note(c, "cut at %zu of %zu", c->txlen, l);
		break;
	case K_PROP_LEN: {
		static const uint16_t v[] = { 0, 1, 8, 11, 12, 13, 67, 68, 0x7fff, 0xffff };
		uint16_t nl;

		l = put_prop(c, c->tx, TXMAX / 2, 1 + hr_below(r, 4), &p);
		nl = hr_chance(r, 50) ? v[hr_below(r, sizeof(v) / 2)] :
		     (uint16_t)(l + hr_below(r, 9) - 4);
		c->tx[5] = (uint8_t)(nl >> 8);
		c->tx[6] = (uint8_t)nl;
		/* some bytes behind it, so a longer length finds some */
		k = hr_below(r, 64);
		hr_fill(r, c->tx + l, k);
		c->txlen = l + k;
		note(c, "length=%u real=%zu extra=%zu", nl, l, k);
		break;
	}
	case K_PROP_DUP:
		l = put_prop(c, c->tx, TXMAX / 2, 1 + hr_below(r, 4), &p);
		switch (hr_below(r, 3)) {
		case 0:
			memcpy(c->tx + l, c->tx, l);
			l2 = l;
			note(c, "proposal twice");
			break;
		case 1:
			l2 = put_decline(c, c->tx + l, hr_below(r, 2));
			note(c, "proposal, decline");
			break;
		default:
			memmove(c->tx + 64, c->tx, l);
			l2 = l;
			l = put_decline(c, c->tx, hr_below(r, 2));
			memmove(c->tx + l, c->tx + 64, l2);
			note(c, "decline, proposal");
			break;
		}
		c->txlen = l + l2;
		break;
	case K_DECLINE_FIRST:
		c->txlen = put_decline(c, c->tx, hr_below(r, 2));
		if (hr_chance(r, 60)) {
			nf = decl_fields(c->txlen, f);
			mutate_fields(c, c->tx, f, nf);
		}
		break;
	case K_WRONG_TYPE:
		fake_gid(c);
		switch (hr_below(r, 3)) {
		case 0:
			c->txlen = put_acc(c, c->tx, SMCX_CLC_ACCEPT, hr_below(r, 2), NULL);
			note(c, "accept");
			break;
		case 1:
			c->txlen = put_acc(c, c->tx, SMCX_CLC_CONFIRM, hr_below(r, 2), NULL);
			note(c, "confirm");
			break;
		default:
			c->txlen = put_prop(c, c->tx, TXMAX, 1, &p);
			c->tx[4] = (uint8_t)(5 + hr_below(r, 251));
			note(c, "type %u", c->tx[4]);
			break;
		}
		break;
	case K_GARBAGE_EYE:
		c->txlen = 4 + hr_below(r, 2048);
		hr_fill(r, c->tx, c->txlen);
		memcpy(c->tx, hr_chance(r, 50) ? smcx_eye_smcr : smcx_eye_smcd, 4);
		if (hr_chance(r, 50)) {	/* a plausible header */
			c->tx[4] = (uint8_t)(1 + hr_below(r, 4));
			c->tx[7] = (uint8_t)(hr_below(r, 3) << 4 | hr_below(r, 16));
		}
		c->end = hr_chance(r, 50) ? END_FIN : END_PROBE;
		note(c, "%zu bytes", c->txlen);
		break;
	case K_GARBAGE_TCP:
		c->txlen = 1 + hr_below(r, 4096);
		hr_fill(r, c->tx, c->txlen);
		if (c->tx[0] == 0xe2)
			c->tx[0] = 0x47;
		c->end = hr_chance(r, 50) ? END_FIN : END_PROBE;
		note(c, "%zu bytes", c->txlen);
		break;
	case K_PARTIAL_EYE_FIN:
	case K_PARTIAL_EYE_RST:
	case K_PARTIAL_EYE_SILENT:
		c->txlen = 1 + hr_below(r, 3);
		memcpy(c->tx, hr_chance(r, 50) ? smcx_eye_smcr : smcx_eye_smcd, 4);
		c->end = c->cls == K_PARTIAL_EYE_FIN ? END_FIN :
			 c->cls == K_PARTIAL_EYE_RST ? END_RST : END_SILENT;
		note(c, "%zu bytes", c->txlen);
		break;
	case K_FIN_FIRST:
		c->end = END_FIN;
		break;
	case K_RST_FIRST:
		c->end = END_RST;
		break;
	case K_SILENT_FIRST:
		c->end = END_SILENT;
		break;
	case K_FLOOD_CONNS:
		c->txlen = put_prop(c, c->tx, TXMAX, 1 + hr_below(r, 4), &p);
		c->flood = 8 + hr_below(r, 25);
		note(c, "%u conns", c->flood);
		break;
	case K_FLOOD_BYTES:
		l = put_prop(c, c->tx, TXMAX, 1 + hr_below(r, 4), &p);
		hr_fill(r, c->tx + l, 32768);
		c->txlen = l + 32768;
		break;
	case K_OOS_STRANGER:
		/*
		 * the Decline instead of the Proposal (point 0), right
		 * behind it (1), or after the victim's Accept with our
		 * probe (2) or FIN (3) behind it
		 */
		stranger_gid(c);
		c->point = (int)hr_below(r, 4);
		if (!c->point) {
			c->txlen = put_oos_decline(c, c->tx);
			note(c, "out-of-sync decline first");
			break;
		}
		c->txlen = put_prop(c, c->tx, TXMAX, 0, &p);
		if (c->point == 1) {
			c->txlen += put_oos_decline(c, c->tx + c->txlen);
			note(c, "proposal and out-of-sync decline at once");
		} else {
			note(c, "out-of-sync decline after the accept%s",
			     c->point == 3 ? ", FIN" : "");
		}
		break;
	case K_REUSE_GUESS:
		memcpy(c->fake_gid, our_gid, 16);
		c->txlen = put_prop(c, c->tx, TXMAX, 0, &p);
		note(c, "our own GID");
		break;
	case K_FC_FLOOD:
		c->flood = FC_FLOOD_MIN + hr_below(r, FC_FLOOD_MAX - FC_FLOOD_MIN + 1);
		note(c, "%u first contacts", c->flood);
		break;
	case K_SLOW:
		put_prop(c, c->tx, TXMAX, 1, &p);
		c->txlen = 11;	/* the victim gives up after 6 */
		c->slow = 1;
		c->end = END_FIN;
		break;
	}
}

/* ------------------------------------------------------------ the run */

/*
 * The application's echo after a fallback is not our bytes behind the
 * consumed ones (c->rx holds @want bytes): say where it differs and what
 * it got, and whether that is our stream from its start (the victim took
 * none of the CLC message: it treated the stream as not CLC or TCP).
 */
static int echo_differs(struct hcase *c, const uint8_t *sent, size_t n, size_t want)
{
	static __thread uint8_t exp[RXMAX];
	char hex[3 * 16 + 1] = "";
	size_t i, at = 0, tail = want - (n - c->consumed);
	int whole;

	memcpy(exp, sent + c->consumed, n - c->consumed);
	memcpy(exp + n - c->consumed, PROBE, tail);
	while (at < want && c->rx[at] == exp[at])
		at++;
	for (i = 0; i < 16 && i < want; i++)
		snprintf(hex + 3 * i, 4, "%02x ", c->rx[i]);
	whole = c->consumed && !memcmp(c->rx, sent, want < n ? want : n);
	return fail(c, "fallback: the application got other bytes than ours after %zu, "
		    "from byte %zu: %s%s", c->consumed, at, hex,
		    whole ? "(our stream from byte 0: the CLC message was not consumed)" : "");
}

/*
 * Read the victim's answer as the oracle says it comes (c->reply) and
 * check it.  @fd is open; @sent/@n is the stream, c->end how it ended.
 * Returns the accept (stage 2 needed) as 1, done as 0.
 */
static int judge(struct hcase *c, int fd, const uint8_t *sent, size_t n, int complete,
		 struct smcx_clc_accept *acc)
{
	int64_t deadline = now_ms() + ANSWER_MS;
	size_t want, got, l;
	struct smcx_clc_hdr h;
	int why, rc;

	if (c->end == END_RST) {
		c->outcome = HO_RESET;
		return 0;
	}
	if (!complete && c->cls == K_PARTIAL_EYE_FIN) {
		/* not CLC (the bytes echoed, EOF) or an error (reset): both fine */
		got = rd_exact(fd, c->rx, n, deadline, &why);
		if (!got && why != -ETIMEDOUT) {
			c->outcome = HO_RESET;
			return 0;
		}
		if (got != n || memcmp(c->rx, sent, n))
			return fail(c, "partial eyecatcher, FIN: %zu bytes back (%s)", got,
				    why ? strerror(-why) : "EOF");
		rd_exact(fd, c->rx, 1, deadline, &why);
		if (why == -ETIMEDOUT)
			return fail(c, "partial eyecatcher, FIN: no EOF after the echo");
		c->outcome = HO_FALLBACK;
		return 0;
	}
	if (!complete)
		c->reply = c->reply == R_ECHO && c->end == END_FIN && !n ? R_ECHO : R_RESET;
	if (c->reply == R_ECHO) {
		/* fallback: our bytes behind the consumed ones come back */
		want = n - c->consumed;
		if (c->end == END_PROBE) {
			if (send_all(fd, (const uint8_t *)PROBE, strlen(PROBE)) ||
			    shutdown(fd, SHUT_WR))
				return fail(c, "fallback expected, send failed: %s", strerror(errno));
			want += strlen(PROBE);
		}
		got = rd_exact(fd, c->rx, want, deadline, &why);
		if (got != want)
			return fail(c, "fallback: echo of %zu bytes expected, got %zu (%s)",
				    want, got, why ? strerror(-why) : "EOF");
		if (memcmp(c->rx, sent + c->consumed, n - c->consumed) ||
		    (c->end == END_PROBE && memcmp(c->rx + n - c->consumed, PROBE, strlen(PROBE))))
			return echo_differs(c, sent, n, want);
		if (c->end != END_SILENT) {
			got = rd_exact(fd, c->rx, 1, deadline, &why);
			if (got || why)
				return fail(c, "fallback: no EOF after the echo (%s)",
					    got ? "data" : strerror(-why));
		}
		c->outcome = c->consumed ? HO_DECLINE : HO_FALLBACK;
		return 0;
	}
	/* a CLC message, or nothing and a reset */
	got = rd_exact(fd, c->rx, SMCX_CLC_HDR_LEN, deadline, &why);
	if (got < SMCX_CLC_HDR_LEN) {
		if (why == -ETIMEDOUT)
			return fail(c, "no answer within %d ms (%zu bytes)", ANSWER_MS, got);
		if (got)
			return fail(c, "%zu bytes, then %s", got, why ? strerror(-why) : "EOF");
		if (c->reply == R_CLC && !c->may_accept)
			return fail(c, "reset (%s) where a Decline was due",
				    why ? strerror(-why) : "EOF");
		c->outcome = HO_RESET;
		return 0;
	}
	if (c->reply == R_RESET)
		return fail(c, "answer where a reset was due: %02x%02x%02x%02x type %u",
			    c->rx[0], c->rx[1], c->rx[2], c->rx[3], c->rx[4]);
	if (smcx_clc_peek(c->rx, SMCX_CLC_HDR_LEN, &h) || h.length > RXMAX ||
	    h.length < SMCX_CLC_HDR_LEN + SMCX_CLC_TRL_LEN)
		return fail(c, "victim's CLC header does not decode");
	l = rd_exact(fd, c->rx + SMCX_CLC_HDR_LEN, h.length - SMCX_CLC_HDR_LEN, deadline, &why);
	if (l != (size_t)h.length - SMCX_CLC_HDR_LEN)
		return fail(c, "victim's CLC message cut short");
	if (h.type == SMCX_CLC_DECLINE) {
		struct smcx_clc_decline d;

		rc = smcx_clc_decode_decline(c->rx, h.length, &d, 0);
		if (rc)
			return fail(c, "victim's decline: %s", smcx_wire_errname(rc));
		note(c, "-> decline %#x", d.diag);
		c->reply = R_ECHO;
		return judge(c, fd, sent, n, 1, acc);
	}
	if (h.type != SMCX_CLC_ACCEPT || !c->may_accept)
		return fail(c, "victim sent CLC type %u", h.type);
	rc = smcx_clc_decode_accept(c->rx, h.length, SMCX_CLC_ACCEPT, acc, 0);
	if (rc)
		return fail(c, "victim's accept: %s", smcx_wire_errname(rc));
	if (acc->hdr.version != SMCX_CLC_V2)
		return fail(c, "victim's accept is not v2");
	return 1;
}

/* send @n bytes of @p (one a second when slow), then end as c->end says */
static int send_stream(struct hcase *c, int fd, const uint8_t *p, size_t n)
{
	size_t i;
	int rc = 0;

	if (c->slow) {
		for (i = 0; i < n && !rc; i++) {
			rc = send_all(fd, p + i, 1);
			if (!rc && i + 1 < n)
				sleep_ms(1000);
		}
	} else {
		rc = send_all(fd, p, n);
	}
	if (rc)
		return rc;
	if (c->end == END_FIN)
		shutdown(fd, SHUT_WR);
	return 0;
}

static void stage2(struct hcase *c, int fd, const struct smcx_clc_accept *acc)
{
	static __thread uint8_t buf[1024];
	struct hrng *r = &c->r;
	struct hfield f[MAXF];
	size_t n = 0;
	int nf, complete, first = smcx_clc_first_contact(&acc->hdr);
	unsigned int x = hr_below(r, 100);

	c->end = END_PROBE;
	if (c->cls == K_FIRST_CONTACT_SILENT) {
		c->end = END_SILENT;
	} else if (x < 40) {
		n = put_acc(c, buf, SMCX_CLC_CONFIRM, first, acc);
		nf = acc_fields(n, f);
		mutate_fields(c, buf, f, nf);
	} else if (x < 43) {
		n = put_acc(c, buf, SMCX_CLC_CONFIRM, first, acc);
		note(c, "valid confirm (no QP behind it)");
	} else if (x < 58) {
		n = put_acc(c, buf, SMCX_CLC_CONFIRM, first, acc);
		n = hr_below(r, (uint32_t)n);
		c->end = end_incomplete(c);
		note(c, "confirm cut at %zu", n);
	} else if (x < 73) {
		n = put_decline(c, buf, 0);
		note(c, "decline");
	} else if (x < 83) {
		n = 4 + hr_below(r, 200);
		hr_fill(r, buf, n);
		memcpy(buf, smcx_eye_smcr, 4);
		note(c, "garbage");
	} else if (x < 90) {
		struct smcx_clc_proposal p;

		n = put_prop(c, buf, sizeof(buf), 0, &p);
		note(c, "proposal again");
	} else {
		c->end = x < 95 ? END_FIN : END_RST;
	}
	note(c, "stage2 %s", end_names[c->end]);
	c->slow = 0;
	complete = oracle(c, buf, n, SMCX_CLC_CONFIRM, 0);
	if (!complete && c->end == END_PROBE)
		c->end = END_FIN;
	c->may_accept = c->reply == R_CLC;	/* a reset is as good as a decline */
	if (send_stream(c, fd, buf, n)) {
		c->outcome = HO_RESET;
		return;
	}
	if (judge(c, fd, buf, n, complete, NULL) == 1)
		fail(c, "a second accept");
}

static void flood_conns(struct hcase *c)
{
	unsigned int i, k = c->flood;
	int fds[32], why;
	size_t got;
	int64_t deadline;

	c->outcome = HO_DECLINE;
	for (i = 0; i < k; i++) {
		fds[i] = tcp_connect(O.addr, O.port, ANSWER_MS);
		if (fds[i] < 0) {
			fail(c, "flood connect %u: %s", i, strerror(-fds[i]));
			k = i;
			break;
		}
	}
	for (i = 0; i < k; i++)
		if (send_all(fds[i], c->tx, c->txlen))
			fail(c, "flood send %u", i);
	deadline = now_ms() + ANSWER_MS;
	for (i = 0; i < k; i++) {
		got = rd_exact(fds[i], c->rx, SMCX_CLC_DECL_V1_LEN, deadline, &why);
		if (got < SMCX_CLC_DECL_V1_LEN || c->rx[4] != SMCX_CLC_DECLINE)
			fail(c, "flood conn %u: no decline (%zu bytes)", i, got);
		close(fds[i]);
	}
}

/*
 * oos-stranger after the victim's Accept: it must be a first contact (the
 * GID is not ours: no reuse), and the out-of-sync Decline a fallback of
 * this connection only.  Whether a group ended is the caller's to see
 * (smcx_hostile.py: "peer out of sync" in the victim's kernel log).
 */
static void oos_after_accept(struct hcase *c, int fd, const struct smcx_clc_accept *acc)
{
	static __thread uint8_t buf[64];
	size_t n;

	if (!smcx_clc_first_contact(&acc->hdr)) {
		fail(c, "a reuse accept for a GID that is not the connection's source address");
		return;
	}
	if (c->point == 1) {
		/* the Decline went with the Proposal: the victim took both */
		c->consumed = c->txlen;
		c->reply = R_ECHO;
		judge(c, fd, c->tx, c->txlen, 1, NULL);
		return;
	}
	n = put_oos_decline(c, buf);
	c->end = c->point == 3 ? END_FIN : END_PROBE;
	oracle(c, buf, n, SMCX_CLC_CONFIRM, 0);	/* a Decline: fallback */
	if (send_stream(c, fd, buf, n)) {
		c->outcome = HO_RESET;
		return;
	}
	judge(c, fd, buf, n, 1, NULL);
}

/*
 * reuse-guess after the victim's Accept for our own GID: a Confirm that
 * names what a stranger would have to guess to pass the reuse check (F11:
 * the Confirm's GID, MAC and QPN must be the link's): a QPN near the
 * victim's (rxe numbers QPs one after the other on every host), a low one
 * or a random one, our MAC (ARP shows it) or another, and rkey and buffer
 * address of a buffer we do not have.  No QP of ours is behind any of it,
 * so the victim must decline or reset: a reuse never becomes a
 * connection, a first contact finds no peer QP.  The group the victim may
 * have with us (none in the CLC part: we have no RDMA there) must live on,
 * which the RDMA part's echo would show; here: nothing but a Decline or a
 * reset comes back, and nothing reaches the application.
 */
static void guess_after_accept(struct hcase *c, int fd, const struct smcx_clc_accept *acc)
{
	static __thread uint8_t buf[512];
	struct smcx_clc_accept a;
	struct hrng *r = &c->r;
	int first = smcx_clc_first_contact(&acc->hdr), len;

	acc_fill(c, &a, SMCX_CLC_CONFIRM, first, acc);
	switch (hr_below(r, 3)) {
	case 0:
		a.qpn = (acc->qpn + (hr_chance(r, 50) ? 1 + hr_below(r, 8) :
				     0xffffff - hr_below(r, 8))) & 0xffffff;
		note(c, "qpn %u near the victim's %u", a.qpn, acc->qpn);
		break;
	case 1:
		a.qpn = 16 + hr_below(r, 256);
		note(c, "low qpn %u", a.qpn);
		break;
	default:
		note(c, "random qpn %u", a.qpn);
		break;
	}
	if (our_mac_ok && hr_chance(r, 70))
		memcpy(a.mac, our_mac, 6);
	note(c, "%s, %s", first ? "first contact" : "reuse",
	     our_mac_ok && !memcmp(a.mac, our_mac, 6) ? "our mac" : "random mac");
	len = smcx_clc_encode_accept(&a, SMCX_CLC_CONFIRM, buf, sizeof(buf));
	if (len <= 0) {
		fail(c, "reuse-guess: confirm does not encode");
		return;
	}
	c->end = END_PROBE;
	c->reply = R_CLC;	/* a Decline, or a reset */
	c->may_accept = 1;	/* (a reset is as good as a Decline) */
	c->consumed = (size_t)len;
	if (send_all(fd, buf, (size_t)len)) {
		c->outcome = HO_RESET;
		return;
	}
	if (judge(c, fd, buf, (size_t)len, 1, NULL) == 1)
		fail(c, "a second accept");
}

/*
 * first-contact-flood: c->flood Proposals with our EID, a fake GID each,
 * on parallel connections, all sent before any answer is read.  Each must
 * get a first-contact Accept (never a reuse: the GIDs are made up), a
 * Decline (MEM when the victim's cap on groups per peer is reached) or a
 * reset.  All Accepts read within FC_HELD_MS of the sends are of groups
 * that exist at once (we hold every connection, the victim waits 6 s for
 * each Confirm): more of them than LGR_PER_PEER is a finding.  Then each
 * accepted connection ends with RST, FIN, or a Confirm naming a QP that
 * does not exist, and FIN.
 */
static void fc_flood(struct hcase *c)
{
	static __thread uint8_t buf[1024];
	static __thread struct smcx_clc_proposal p;
	unsigned int i, k = c->flood, accepts = 0, mem = 0, other = 0, resets = 0;
	int fds[FC_FLOOD_MAX], acc[FC_FLOOD_MAX], why;
	struct smcx_clc_accept a;
	struct smcx_clc_decline d;
	struct smcx_clc_hdr h;
	int64_t t0, last = 0, deadline;
	size_t n, got;

	c->outcome = HO_RESET;
	for (i = 0; i < k; i++) {
		acc[i] = 0;
		fds[i] = tcp_connect(O.addr, O.port, ANSWER_MS);
		if (fds[i] < 0) {
			fail(c, "flood connect %u: %s", i, strerror(-fds[i]));
			k = i;
			goto out;
		}
	}
	t0 = now_ms();
	for (i = 0; i < k; i++) {
		fake_gid(c);
		n = put_prop(c, buf, sizeof(buf), 0, &p);
		send_all(fds[i], buf, n);	/* a reset shows below */
	}
	/* under TCG the victim may make the groups one after the other */
	deadline = now_ms() + ANSWER_MS + 500 * (int64_t)k;
	for (i = 0; i < k; i++) {
		got = rd_exact(fds[i], buf, SMCX_CLC_HDR_LEN, deadline, &why);
		if (!got && why != -ETIMEDOUT) {
			resets++;
			continue;
		}
		if (got < SMCX_CLC_HDR_LEN) {
			fail(c, "flood conn %u: %zu bytes, then %s", i, got,
			     why == -ETIMEDOUT ? "no answer" : why ? strerror(-why) : "EOF");
			continue;
		}
		if (smcx_clc_peek(buf, SMCX_CLC_HDR_LEN, &h) || h.length > sizeof(buf) ||
		    h.length < SMCX_CLC_HDR_LEN + SMCX_CLC_TRL_LEN ||
		    rd_exact(fds[i], buf + SMCX_CLC_HDR_LEN, h.length - SMCX_CLC_HDR_LEN, deadline,
			     &why) != (size_t)h.length - SMCX_CLC_HDR_LEN) {
			fail(c, "flood conn %u: the victim's answer does not decode", i);
			continue;
		}
		if (h.type == SMCX_CLC_DECLINE && !smcx_clc_decode_decline(buf, h.length, &d, 0)) {
			if (d.diag == SMCX_DECL_MEM)
				mem++;
			else
				other++;
			continue;
		}
		if (h.type != SMCX_CLC_ACCEPT ||
		    smcx_clc_decode_accept(buf, h.length, SMCX_CLC_ACCEPT, &a, 0)) {
			fail(c, "flood conn %u: victim sent CLC type %u that does not decode", i,
			     h.type);
			continue;
		}
		if (!smcx_clc_first_contact(&a.hdr)) {
			fail(c, "flood conn %u: a reuse accept for a made-up GID", i);
			continue;
		}
		acc[i] = 1;
		accepts++;
		last = now_ms();
	}
	note(c, "accepted %u, declined %u (MEM) %u (other), reset %u; last accept after %lld ms",
	     accepts, mem, other, resets, (long long)(accepts ? last - t0 : 0));
	if (accepts > LGR_PER_PEER && last - t0 < FC_HELD_MS)
		fail(c, "%u first contacts from one peer accepted at once (the cap is %d)",
		     accepts, LGR_PER_PEER);
out:
	for (i = 0; i < k; i++) {
		switch (acc[i] ? hr_below(&c->r, 3) : 0) {
		case 1:
			close(fds[i]);		/* FIN */
			break;
		case 2:
			n = put_acc(c, buf, SMCX_CLC_CONFIRM, 1, NULL);
			send_all(fds[i], buf, n);
			close(fds[i]);
			break;
		default:
			rst_close(fds[i]);
			break;
		}
	}
	if (c->outcome != HO_UNEXPECTED)
		c->outcome = mem + other ? HO_DECLINE : HO_RESET;
}

/*
 * Cases that may make a first contact run one at a time unless their class
 * says otherwise: the victim serialises first contacts across network
 * waits (REVIEW F10), so several at once wait on each other for longer
 * than a case's answer time.
 */
static pthread_mutex_t first_contact_lock = PTHREAD_MUTEX_INITIALIZER;

static void run_case_fc(struct hcase *c);

static void run_case(struct hcase *c)
{
	c->txlen = 0;
	c->may_accept = 0;
	run_case_fc(c);
}

static void run_case_fc(struct hcase *c)
{
	static __thread struct smcx_clc_accept acc;
	int fd, complete;

	memset(c->what, 0, sizeof(c->what));
	c->msg[0] = 0;
	c->outcome = HO_UNEXPECTED;
	c->txlen = 0;
	c->slow = 0;
	c->r.s = O.seed * 0x9e3779b97f4a7c15ull ^ (c->no + 1) * 0xd1b54a32d192ed03ull;
	hr_next(&c->r);
	fake_gid(c);
	c->cls = pick_class(c);
	if (c->cls < 0) {
		fail(c, "no class left to run");
		return;
	}
	generate(c);
	if (c->cls == K_FLOOD_CONNS) {
		flood_conns(c);
		return;
	}
	if (c->cls == K_FC_FLOOD) {	/* one at a time, as first contacts */
		pthread_mutex_lock(&first_contact_lock);
		fc_flood(c);
		pthread_mutex_unlock(&first_contact_lock);
		return;
	}
	complete = oracle(c, c->tx, c->txlen, SMCX_CLC_PROPOSAL, 1);
	if (!complete && c->end == END_PROBE)
		c->end = END_FIN;	/* a probe would become part of the message */
	note(c, "%s", end_names[c->end]);
	if (c->may_accept && c->cls != K_FIRST_CONTACT_PAR && !c->locked) {
		c->locked = 1;
		pthread_mutex_lock(&first_contact_lock);
		run_case_fc(c);
		c->locked = 0;
		pthread_mutex_unlock(&first_contact_lock);
		return;
	}
	fd = tcp_connect(O.addr, O.port, ANSWER_MS);
	if (fd < 0) {
		fail(c, "connect: %s", strerror(-fd));
		return;
	}
	if (send_stream(c, fd, c->tx, c->txlen)) {
		/* the victim reset us before we were through: fine if allowed */
		c->outcome = HO_RESET;
		if (!c->slow && complete && c->reply != R_RESET)
			fail(c, "reset while sending");
		close(fd);
		return;
	}
	if (c->end == END_RST) {
		rst_close(fd);
		c->outcome = HO_RESET;
		return;
	}
	if (judge(c, fd, c->tx, c->txlen, complete, &acc) == 1) {
		if (c->cls == K_OOS_STRANGER) {
			oos_after_accept(c, fd, &acc);
		} else if (c->cls == K_REUSE_GUESS) {
			guess_after_accept(c, fd, &acc);
		} else if (c->txlen != c->consumed) {
			fail(c, "accepted with bytes behind the proposal");
		} else if (c->end != END_PROBE) {
			int why;

			rd_exact(fd, c->rx, 1, now_ms() + ANSWER_MS, &why);
			c->outcome = HO_RESET;
			if (why == -ETIMEDOUT)
				fail(c, "accept, FIN: no reset within %d ms", ANSWER_MS);
		} else {
			stage2(c, fd, &acc);
		}
	}
	if (c->end == END_RST)
		rst_close(fd);
	else
		close(fd);
}

/* ------------------------------------------------------- the client loop */

static atomic_ullong next_case;
static atomic_ullong counts[K_MAX][HO_MAX];
static atomic_int findings;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
	struct hcase *c = calloc(1, sizeof(*c));

	(void)arg;
	if (!c)
		return NULL;
	for (;;) {
		uint64_t i = atomic_fetch_add(&next_case, 1);
		int64_t t0;

		if (i >= O.count)
			break;
		c->no = O.first + i;
		t0 = now_ms();
		run_case(c);
		if (c->cls >= 0)
			atomic_fetch_add(&counts[c->cls][c->outcome], 1);
		if (c->outcome == HO_UNEXPECTED)
			atomic_fetch_add(&findings, 1);
		if (O.verbose || c->outcome == HO_UNEXPECTED) {
			pthread_mutex_lock(&out_lock);
			printf("case %llu seed %llu class %s: %s [%s] %lld ms%s%s\n",
			       (unsigned long long)c->no, (unsigned long long)O.seed,
			       c->cls >= 0 ? classes[c->cls].name : "?",
			       outcome_names[c->outcome], c->what,
			       (long long)(now_ms() - t0), c->msg[0] ? ": " : "", c->msg);
			fflush(stdout);
			pthread_mutex_unlock(&out_lock);
		}
	}
	free(c);
	return NULL;
}

static int parse_classes(const char *s, unsigned long long *mask)
{
	while (*s) {
		size_t n = strcspn(s, ",");
		int k = class_by_name(s, n);

		if (k < 0) {
			fprintf(stderr, "hostile: unknown class '%.*s' (hostile list)\n", (int)n, s);
			return -1;
		}
		*mask |= 1ull << k;
		s += n;
		if (*s)
			s++;
	}
	return 0;
}

static int cmd_client(void)
{
	pthread_t th[256];
	int64_t t0 = now_ms();
	unsigned long long tot[HO_MAX] = { 0 }, n = 0;
	int i, k, o;

	if (!O.addr || !O.port || O.threads < 1 || O.threads > 256) {
		fprintf(stderr, "hostile client: -a ADDR -p PORT needed, -j 1..256\n");
		return 2;
	}
	if (find_our_addr()) {
		fprintf(stderr, "hostile client: no route to %s\n", O.addr);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	for (i = 0; i < O.threads; i++)
		if (pthread_create(&th[i], NULL, worker, NULL)) {
			fprintf(stderr, "hostile: pthread_create failed\n");
			return 2;
		}
	for (i = 0; i < O.threads; i++)
		pthread_join(th[i], NULL);
	for (k = 0; k < K_MAX; k++)
		for (o = 0; o < HO_MAX; o++) {
			unsigned long long v = atomic_load(&counts[k][o]);

			if (!v)
				continue;
			printf("class %-20s %-10s %llu\n", classes[k].name, outcome_names[o], v);
			tot[o] += v;
			n += v;
		}
	for (o = 0; o < HO_MAX; o++)
		printf("outcome %-10s %llu\n", outcome_names[o], tot[o]);
	printf("hostile: client cases=%llu first=%llu seed=%llu threads=%d secs=%.1f rate=%.1f/s findings=%d\n",
	       n, (unsigned long long)O.first, (unsigned long long)O.seed, O.threads,
	       (now_ms() - t0) / 1000.0, n * 1000.0 / (double)(now_ms() - t0 + 1),
	       atomic_load(&findings));
	return atomic_load(&findings) ? 1 : 0;
}

/* ------------------------------------------------------------ victim */

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int cmd_victim(const char *family, int backlog)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(O.port) };
	int af = strcmp(family, "tcp") ? AF_SMC : AF_INET;
	int lfd, ep, one = 1;
	unsigned long long accepted = 0, bytes = 0, dropped = 0;
	static uint8_t buf[65536];
	int64_t t0;
	struct epoll_event ev = { .events = EPOLLIN };

	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	lfd = socket(af, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (lfd < 0) {
		perror("hostile victim: socket");
		return 2;
	}
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, backlog)) {
		perror("hostile victim: bind/listen");
		return 2;
	}
	ep = epoll_create1(0);
	ev.data.fd = lfd;
	epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
	printf("hostile: victim listening family=%s port=%d backlog=%d\n", family, O.port,
	       backlog);
	fflush(stdout);
	while (!stop) {
		struct epoll_event evs[64];
		int i, n = epoll_wait(ep, evs, 64, 200);

		for (i = 0; i < n; i++) {
			int fd = evs[i].data.fd;
			ssize_t r;

			if (fd == lfd) {
				int cfd;

				while ((cfd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
					struct epoll_event e = { .events = EPOLLIN, .data.fd = cfd };

					accepted++;
					epoll_ctl(ep, EPOLL_CTL_ADD, cfd, &e);
				}
				continue;
			}
			r = recv(fd, buf, sizeof(buf), 0);
			if (r > 0) {
				bytes += (unsigned long long)r;
				/* the peer reads its echo: a full buffer is a peer gone */
				if (send(fd, buf, (size_t)r, MSG_DONTWAIT | MSG_NOSIGNAL) != r) {
					dropped++;
					close(fd);
				}
				continue;
			}
			if (r < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			close(fd);	/* EOF or error: closes the epoll entry too */
		}
	}
	t0 = now_ms();
	close(lfd);
	printf("hostile: victim accepted=%llu bytes=%llu dropped=%llu close_ms=%lld\n", accepted,
	       bytes, dropped, (long long)(now_ms() - t0));
	return 0;
}

/*
 * An honest client: connect (AF_SMC by default) -n times (default 1), one
 * line echoed on each.  Output: "connect_secs=S echo=ok" for one, a table
 * of results for more ("dial ok N", "dial ECONNRESET N", ...).
 */
static int cmd_dial(const char *family, int many)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(O.port) };
	int af = strcmp(family, "tcp") ? AF_SMC : AF_INET;
	const char line[] = "honest peer\n";
	unsigned long long ok = 0, bad = 0, errs[200] = { 0 }, i;
	int64_t t0 = now_ms(), t1 = 0;
	uint8_t buf[64];

	if (!O.addr || !O.port || inet_pton(AF_INET, O.addr, &sa.sin_addr) != 1) {
		fprintf(stderr, "hostile dial: -a ADDR -p PORT [-f smc|tcp] [-n COUNT]\n");
		return 2;
	}
	for (i = 0; i < (many ? O.count : 1); i++) {
		int fd = socket(af, SOCK_STREAM, 0), why;
		size_t got;

		t0 = now_ms();
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
			errs[errno < 200 ? errno : 0]++;
			if (!many)
				printf("hostile: dial connect failed: %s secs=%.2f\n", strerror(errno),
				       (now_ms() - t0) / 1000.0);
			if (fd >= 0)
				close(fd);
			continue;
		}
		t1 = now_ms();
		got = 0;
		if (!send_all(fd, (const uint8_t *)line, sizeof(line) - 1) && !shutdown(fd, SHUT_WR))
			got = rd_exact(fd, buf, sizeof(line) - 1, now_ms() + 30000, &why);
		close(fd);
		if (got == sizeof(line) - 1 && !memcmp(buf, line, got))
			ok++;
		else
			bad++;
	}
	if (!many) {
		if (ok + bad)
			printf("hostile: dial family=%s connect_secs=%.2f echo=%s\n", family,
			       (t1 - t0) / 1000.0, ok ? "ok" : "BAD");
		return ok ? 0 : 1;
	}
	printf("dial ok %llu\ndial echo-bad %llu\n", ok, bad);
	for (i = 0; i < 200; i++)
		if (errs[i])
			printf("dial %s %llu\n", strerror((int)i), errs[i]);
	return 0;
}

/* ------------------------------------------------- server role (smcx client) */

enum {
	SK_ACC_FIELD, SK_ACC_VALID, SK_ACC_NOFIRST, SK_ACC_V1, SK_ACC_TRUNC, SK_DECLINE,
	SK_DECLINE_FIELD, SK_GARBAGE_EYE, SK_GARBAGE_TCP, SK_WRONG_TYPE, SK_FIN, SK_RST,
	SK_SILENT, SK_PARTIAL_EYE, SK_MAX
};

static const struct hclass sclasses[SK_MAX] = {
	[SK_ACC_FIELD] = { "srv-accept-field", 150, "an accept with fields mutated" },
	[SK_ACC_VALID] = { "srv-accept-valid", 10, "a valid first-contact accept, fake QP" },
	[SK_ACC_NOFIRST] = { "srv-accept-reuse", 60, "an accept for a group that does not exist" },
	[SK_ACC_V1] = { "srv-accept-v1", 30, "a v1 accept to a v2-only offer" },
	[SK_ACC_TRUNC] = { "srv-accept-trunc", 100, "an accept cut short, then FIN or RST" },
	[SK_DECLINE] = { "srv-decline", 100, "a valid decline: fallback" },
	[SK_DECLINE_FIELD] = { "srv-decline-field", 100, "a decline with fields mutated" },
	[SK_GARBAGE_EYE] = { "srv-garbage-eye", 80, "an eyecatcher and random bytes" },
	[SK_GARBAGE_TCP] = { "srv-garbage-tcp", 60, "random bytes, no CLC" },
	[SK_WRONG_TYPE] = { "srv-wrong-type", 60, "proposal or confirm instead of accept" },
	[SK_FIN] = { "srv-fin", 40, "FIN instead of an answer" },
	[SK_RST] = { "srv-rst", 40, "RST instead of an answer" },
	[SK_SILENT] = { "srv-silent", 5, "no answer at all (the client's CLC wait)" },
	[SK_PARTIAL_EYE] = { "srv-partial-eye", 10, "1-3 eyecatcher bytes, then FIN" },
};

/* what the smcx client did with our answer, from our side */
static void srv_judge(struct hcase *c, int fd, const uint8_t *sent, size_t n, int complete)
{
	int64_t deadline = now_ms() + ANSWER_MS;
	static __thread union {
		struct smcx_clc_accept acc;
		struct smcx_clc_decline dcl;
	} m;
	const char line[] = "honest peer\n";
	struct smcx_clc_hdr h;
	size_t got;
	int why, dcl_ok = 0, acc_ok = 0;

	if (complete && n >= SMCX_CLC_HDR_LEN && !smcx_clc_peek(sent, n, &h) && h.length == n) {
		if (h.type == SMCX_CLC_DECLINE)
			dcl_ok = !smcx_clc_decode_decline(sent, n, &m.dcl, SMCX_WIRE_LAX_RSVD);
		if (h.type == SMCX_CLC_ACCEPT)
			acc_ok = !smcx_clc_decode_accept(sent, n, SMCX_CLC_ACCEPT, &m.acc,
							 SMCX_WIRE_LAX_RSVD |
							 SMCX_WIRE_LAX_TEXT);
	}
	if (c->end == END_RST) {
		c->outcome = HO_RESET;
		return;
	}
	got = rd_exact(fd, c->rx, SMCX_CLC_HDR_LEN, deadline, &why);
	if (got < SMCX_CLC_HDR_LEN) {
		if (dcl_ok && got == 0)
			return (void)fail(c, "fallback expected, got %s", why ? strerror(-why) : "EOF");
		if (why == -ETIMEDOUT)
			return (void)fail(c, "smcx client silent for %d ms", ANSWER_MS);
		if (dcl_ok && got && !memcmp(c->rx, line, got)) {
			/* the application's line: fallback */
			got += rd_exact(fd, c->rx + got, sizeof(line) - 1 - got, deadline, &why);
			if (got == sizeof(line) - 1 && !memcmp(c->rx, line, got)) {
				send_all(fd, c->rx, got);
				c->outcome = HO_FALLBACK;
				return;
			}
		}
		if (got)
			return (void)fail(c, "%zu bytes from the smcx client, then %s", got,
					  why ? strerror(-why) : "EOF");
		c->outcome = HO_RESET;
		return;
	}
	if (dcl_ok) {
		/* after our decline only the application's bytes may come */
		got += rd_exact(fd, c->rx + got, sizeof(line) - 1 - got, deadline, &why);
		if (got != sizeof(line) - 1 || memcmp(c->rx, line, got))
			return (void)fail(c, "after our decline: not the application's line");
		send_all(fd, c->rx, got);
		c->outcome = HO_FALLBACK;
		return;
	}
	if (smcx_clc_peek(c->rx, SMCX_CLC_HDR_LEN, &h) || h.length > RXMAX ||
	    h.length < SMCX_CLC_HDR_LEN + SMCX_CLC_TRL_LEN ||
	    rd_exact(fd, c->rx + SMCX_CLC_HDR_LEN, h.length - SMCX_CLC_HDR_LEN, deadline, &why) !=
	    (size_t)h.length - SMCX_CLC_HDR_LEN)
		return (void)fail(c, "smcx client sent bytes that are no CLC message");
	if (!acc_ok)
		return (void)fail(c, "smcx client answered (type %u) what it cannot decode", h.type);
	if (h.type == SMCX_CLC_DECLINE) {
		if (smcx_clc_decode_decline(c->rx, h.length, &m.dcl, 0))
			return (void)fail(c, "smcx client's decline does not decode");
		note(c, "-> decline %#x", m.dcl.diag);
		got = rd_exact(fd, c->rx, sizeof(line) - 1, deadline, &why);
		if (got == sizeof(line) - 1 && !memcmp(c->rx, line, got)) {
			send_all(fd, c->rx, got);
			c->outcome = HO_DECLINE;
			return;
		}
		return (void)fail(c, "after its decline: not the application's line (%zu)", got);
	}
	if (h.type != SMCX_CLC_CONFIRM)
		return (void)fail(c, "smcx client sent CLC type %u", h.type);
	if (smcx_clc_decode_accept(c->rx, h.length, SMCX_CLC_CONFIRM, &m.acc, 0))
		return (void)fail(c, "smcx client's confirm does not decode");
	note(c, "-> confirm");
	/* its CONFIRM_LINK wait on our fake QP ends in a reset */
	got = rd_exact(fd, c->rx, 1, now_ms() + ANSWER_MS, &why);
	if (got || why == -ETIMEDOUT)
		return (void)fail(c, "after its confirm: %s", got ? "data" : "no reset");
	c->outcome = HO_RESET;
}

static void srv_case(struct hcase *c, int fd)
{
	static __thread struct smcx_clc_proposal prop;
	static __thread uint8_t buf[1024];
	struct smcx_clc_accept theirs;
	struct hfield f[MAXF];
	struct smcx_clc_hdr h;
	struct hrng *r = &c->r;
	size_t n = 0, got;
	int why, complete = 1, nf;

	memset(c->what, 0, sizeof(c->what));
	c->msg[0] = 0;
	c->outcome = HO_UNEXPECTED;
	c->r.s = O.seed * 0x9e3779b97f4a7c15ull ^ (c->no + 1) * 0xd1b54a32d192ed03ull ^ 0x5352ull;
	hr_next(r);
	fake_gid(c);
	{
		unsigned int tot = 0, x;
		int k;

		for (k = 0; k < SK_MAX; k++)
			tot += sclasses[k].weight;
		x = hr_below(r, tot);
		for (k = 0; k < SK_MAX; k++) {
			if (x < sclasses[k].weight)
				break;
			x -= sclasses[k].weight;
		}
		c->cls = k;
	}
	/* the smcx client's proposal: it must decode strictly */
	got = rd_exact(fd, c->rx, SMCX_CLC_HDR_LEN, now_ms() + ANSWER_MS, &why);
	if (got < SMCX_CLC_HDR_LEN || smcx_clc_peek(c->rx, SMCX_CLC_HDR_LEN, &h) ||
	    h.length > RXMAX || h.length < SMCX_CLC_HDR_LEN + SMCX_CLC_TRL_LEN ||
	    rd_exact(fd, c->rx + SMCX_CLC_HDR_LEN, h.length - SMCX_CLC_HDR_LEN,
		     now_ms() + ANSWER_MS, &why) != (size_t)h.length - SMCX_CLC_HDR_LEN) {
		fail(c, "no CLC message from the smcx client");
		return;
	}
	if (h.type != SMCX_CLC_PROPOSAL || smcx_clc_decode_proposal(c->rx, h.length, &prop, 0)) {
		fail(c, "the smcx client's first message is no valid proposal (type %u)", h.type);
		return;
	}
	memset(&theirs, 0, sizeof(theirs));
	if (prop.eid_cnt)
		memcpy(theirs.eid, prop.user_eid[0], SMCX_EID_LEN);
	theirs.release = prop.release;
	theirs.max_conns = prop.max_conns;
	theirs.max_links = prop.max_links;
	/* silence after a whole answer: the client's reply decides, and our
	 * echo of its line after a fallback can still be sent
	 */
	c->end = END_SILENT;
	switch (c->cls) {
	case SK_ACC_FIELD:
		n = put_acc(c, buf, SMCX_CLC_ACCEPT, 1, &theirs);
		nf = acc_fields(n, f);
		mutate_fields(c, buf, f, nf);
		break;
	case SK_ACC_VALID:
		n = put_acc(c, buf, SMCX_CLC_ACCEPT, 1, &theirs);
		c->end = END_SILENT;
		break;
	case SK_ACC_NOFIRST:
		n = put_acc(c, buf, SMCX_CLC_ACCEPT, 0, &theirs);
		break;
	case SK_ACC_V1:
		n = put_acc(c, buf, SMCX_CLC_ACCEPT, 1, &theirs);
		buf[7] = (uint8_t)((buf[7] & 0x0f) | 0x10);
		note(c, "v1");
		break;
	case SK_ACC_TRUNC:
		n = put_acc(c, buf, SMCX_CLC_ACCEPT, 1, &theirs);
		n = 1 + hr_below(r, (uint32_t)n - 1);
		complete = 0;
		c->end = hr_chance(r, 50) ? END_FIN : END_RST;
		note(c, "cut at %zu", n);
		break;
	case SK_DECLINE:
		n = put_decline(c, buf, hr_below(r, 2));
		c->end = END_SILENT;
		break;
	case SK_DECLINE_FIELD:
		n = put_decline(c, buf, hr_below(r, 2));
		nf = decl_fields(n, f);
		mutate_fields(c, buf, f, nf);
		c->end = END_SILENT;
		break;
	case SK_GARBAGE_EYE:
		n = 8 + hr_below(r, 512);
		hr_fill(r, buf, n);
		memcpy(buf, smcx_eye_smcr, 4);
		c->end = END_FIN;	/* a long length field would wait 6 s */
		break;
	case SK_GARBAGE_TCP:
		n = 1 + hr_below(r, 512);
		hr_fill(r, buf, n);
		if (buf[0] == 0xe2)
			buf[0] = 0x41;
		c->end = END_FIN;
		break;
	case SK_WRONG_TYPE:
		if (hr_chance(r, 50)) {
			n = put_prop(c, buf, sizeof(buf), 1, &prop);
			note(c, "proposal");
		} else {
			n = put_acc(c, buf, SMCX_CLC_CONFIRM, 1, &theirs);
			note(c, "confirm");
		}
		break;
	case SK_FIN:
		c->end = END_FIN;
		break;
	case SK_RST:
		c->end = END_RST;
		break;
	case SK_SILENT:
		c->end = END_SILENT;
		complete = 0;
		break;
	default:
		n = 1 + hr_below(r, 3);
		memcpy(buf, smcx_eye_smcr, 4);
		complete = 0;
		c->end = END_FIN;
		break;
	}
	note(c, "%s", end_names[c->end]);
	if (send_stream(c, fd, buf, n)) {
		c->outcome = HO_RESET;
		return;
	}
	if (c->end == END_RST) {
		c->outcome = HO_RESET;
		return;
	}
	srv_judge(c, fd, buf, n, complete);
}

static int cmd_server(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(O.port) };
	unsigned long long cnt[SK_MAX][HO_MAX] = { { 0 } }, tot[HO_MAX] = { 0 }, n = 0;
	int lfd, one = 1, findings = 0, k, o;
	int64_t t0 = now_ms();
	struct hcase *c = calloc(1, sizeof(*c));

	signal(SIGPIPE, SIG_IGN);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (!c || lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 64)) {
		perror("hostile server");
		return 2;
	}
	printf("hostile: server listening port=%d\n", O.port);
	fflush(stdout);
	for (n = 0; n < O.count; n++) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };
		int fd;

		if (poll(&p, 1, 60000) != 1)
			break;		/* the dialer is done */
		fd = accept(lfd, NULL, NULL);
		if (fd < 0)
			break;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		c->no = O.first + n;
		srv_case(c, fd);
		if (c->end == END_RST)
			rst_close(fd);
		else
			close(fd);
		cnt[c->cls][c->outcome]++;
		if (c->outcome == HO_UNEXPECTED)
			findings++;
		if (O.verbose || c->outcome == HO_UNEXPECTED)
			printf("server case %llu seed %llu class %s: %s [%s]%s%s\n",
			       (unsigned long long)c->no, (unsigned long long)O.seed,
			       sclasses[c->cls].name, outcome_names[c->outcome], c->what,
			       c->msg[0] ? ": " : "", c->msg);
		fflush(stdout);
	}
	for (k = 0; k < SK_MAX; k++)
		for (o = 0; o < HO_MAX; o++)
			if (cnt[k][o]) {
				printf("class %-20s %-10s %llu\n", sclasses[k].name, outcome_names[o],
				       cnt[k][o]);
				tot[o] += cnt[k][o];
			}
	for (o = 0; o < HO_MAX; o++)
		printf("outcome %-10s %llu\n", outcome_names[o], tot[o]);
	printf("hostile: server cases=%llu seed=%llu secs=%.1f findings=%d\n", n,
	       (unsigned long long)O.seed, (now_ms() - t0) / 1000.0, findings);
	free(c);
	return findings ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: hostile client -a ADDR -p PORT [-s SEED] [-n CASES] [-c FIRST] [-j THREADS]\n"
		"                      [-x CLASS,...] [-k CLASS,...] [-v]\n"
		"       hostile rdma -a ADDR -p PORT [-s SEED] [-n CASES] [-c FIRST] [-x/-k CLASS,...] [-v]\n"
		"                    [-H SECS]\n"
		"       hostile slowack -a ADDR -p PORT -S SRCADDR [-n CONNS] [-t SECS] [-w MS]\n"
		"       hostile victim -p PORT [-f smc|tcp] [-b BACKLOG]\n"
		"       hostile dial -a ADDR -p PORT [-f smc|tcp] [-n COUNT]\n"
		"       hostile server -p PORT [-s SEED] [-n CASES] [-c FIRST] [-v]\n"
		"       hostile list\n");
}

int main(int argc, char **argv)
{
	const char *cmd, *family = "smc", *skip_arg = NULL, *keep_arg = NULL;
	int opt, backlog = 1024, k, count_given = 0, hold = 0, secs = 60, wait_ms = 5000;
	const char *src = NULL;

	if (argc < 2) {
		usage();
		return 2;
	}
	cmd = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "a:p:s:n:c:j:x:k:vf:b:H:S:t:w:")) != -1) {
		switch (opt) {
		case 'a': O.addr = optarg; break;
		case 'p': O.port = atoi(optarg); break;
		case 's': O.seed = strtoull(optarg, NULL, 0); break;
		case 'n':
			O.count = strtoull(optarg, NULL, 0);
			count_given = 1;
			break;
		case 'c': O.first = strtoull(optarg, NULL, 0); break;
		case 'j': O.threads = atoi(optarg); break;
		case 'x':
			skip_arg = optarg;
			if (!strcmp(cmd, "rdma"))
				break;
			if (parse_classes(optarg, &O.skip_mask))
				return 2;
			break;
		case 'k':
			keep_arg = optarg;
			if (!strcmp(cmd, "rdma"))
				break;
			if (parse_classes(optarg, &O.keep_mask))
				return 2;
			break;
		case 'v': O.verbose = 1; break;
		case 'f': family = optarg; break;
		case 'b': backlog = atoi(optarg); break;
		case 'H': hold = atoi(optarg); break;
		case 'S': src = optarg; break;
		case 't': secs = atoi(optarg); break;
		case 'w': wait_ms = atoi(optarg); break;
		default:
			usage();
			return 2;
		}
	}
	if (!strcmp(cmd, "client"))
		return cmd_client();
	if (!strcmp(cmd, "rdma")) {
		if (!O.addr || !O.port) {
			usage();
			return 2;
		}
		signal(SIGPIPE, SIG_IGN);
		return hostile_rdma(O.addr, O.port, O.seed, O.first, O.count, O.verbose,
				    skip_arg, keep_arg, hold);
	}
	if (!strcmp(cmd, "slowack")) {
		if (!O.addr || !O.port || !src) {
			usage();
			return 2;
		}
		signal(SIGPIPE, SIG_IGN);
		return hostile_slowack(O.addr, O.port, src, count_given ? (int)O.count : 30,
				       secs, wait_ms);
	}
	if (!strcmp(cmd, "dial"))
		return cmd_dial(family, count_given);
	if (!strcmp(cmd, "server"))
		return cmd_server();
	if (!strcmp(cmd, "victim"))
		return cmd_victim(family, backlog);
	if (!strcmp(cmd, "list")) {
		for (k = 0; k < K_MAX; k++)
			printf("%-20s %3u/1000  %s\n", classes[k].name, classes[k].weight,
			       classes[k].what);
		return 0;
	}
	usage();
	return 2;
}
