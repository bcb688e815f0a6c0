// SPDX-License-Identifier: GPL-2.0
/*
 * sockapi - the socket-semantics suite: does an AF_SMC socket behave like a
 * TCP socket in every way an application can observe?
 *
 *   sockapi server -f FAMILY -p PORT
 *   sockapi client -f FAMILY -a ADDR -p PORT [-c CASE[,CASE...]] [-u SILENT_ADDR]
 *   sockapi probe  -f FAMILY
 *   sockapi list
 *
 * FAMILY: tcp | tcp6 | smc (AF_SMC, SMCPROTO_SMC) | smc6 (AF_SMC, SMCPROTO_SMC6)
 *         | ipproto_smc (AF_INET, IPPROTO_SMC) | ipproto_smc6 (AF_INET6, IPPROTO_SMC)
 *
 * The client runs each case in a child process (so a hang or a signal becomes
 * a FAIL line) and prints one line per case:
 *
 *   case NAME: key=value ... [| known-different: key=value ...]
 *
 * describing everything it observed without timing, addresses or ports, so
 * that a TCP run and an SMC run can be compared line by line.  Values after
 * "| known-different:" legitimately differ between TCP and AF_SMC (SO_DOMAIN,
 * SO_PROTOCOL, default buffer sizes) and are excluded from the comparison.
 *
 * Ports: the server listens on PORT for the data connection (family under
 * test) and on PORT+1 for the control connection (always plain TCP).
 * PORT+2 on the server is never listened on (connection refused).  PORT+3..5
 * are listened on by the client in the cases where the server connects.
 *
 * Control protocol (text lines on the control connection): the client sends
 * "case NAME", the server forks a worker that answers "ok hello" and then
 * executes one command per line on its side of the data connection
 * ("listen", "accept", "send N", "recv N", "close", ...), answering each with
 * one "ok key=value..." or "err reason" line.  The client may send several
 * commands before collecting their answers, which is how it makes the server
 * act while it itself is blocked.  See docs/sockapi.md.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "sockapi.h"

#define CASE_TIMEOUT_MS 45000	/* client: one case, all included */
#define HELLO_TIMEOUT_MS 30000	/* server worker start (previous worker may linger) */
#define PEER_TIMEOUT_MS 30000	/* one server command (its own bounds are <= 20 s) */
#define PALL (POLLIN | POLLPRI | POLLOUT | POLLRDHUP)
#define CHUNK 65536

/* ---------------------------------------------------------------- family */

static const struct fam *fam;
static int base_port;
static struct sockaddr_storage srv_ip;		/* client: the server's address */
static struct sockaddr_storage silent_ip;	/* client: an address nobody answers */
/* another one, so that the ARP state of one case never reaches the next */
static struct sockaddr_storage silent2_ip;

static int ipfam(void)
{
	return fam->addr_family;
}

/* Parse an address for the family's IP version (an IPv4 literal becomes
 * v4-mapped for the IPv6 families). */
static int parse_ip(const char *s, struct sockaddr_storage *ss)
{
	struct sockaddr_in *sin = (void *)ss;
	struct sockaddr_in6 *sin6 = (void *)ss;
	struct in_addr a4;

	memset(ss, 0, sizeof(*ss));
	if (fam->addr_family == AF_INET) {
		sin->sin_family = AF_INET;
		return inet_pton(AF_INET, s, &sin->sin_addr) == 1 ? 0 : -1;
	}
	sin6->sin6_family = AF_INET6;
	if (inet_pton(AF_INET6, s, &sin6->sin6_addr) == 1)
		return 0;
	if (inet_pton(AF_INET, s, &a4) != 1)
		return -1;
	sin6->sin6_addr.s6_addr[10] = 0xff;
	sin6->sin6_addr.s6_addr[11] = 0xff;
	memcpy(&sin6->sin6_addr.s6_addr[12], &a4, 4);
	return 0;
}

static socklen_t with_port(struct sockaddr_storage *out, const struct sockaddr_storage *ip,
			   int port)
{
	*out = *ip;
	if (ip->ss_family == AF_INET6) {
		((struct sockaddr_in6 *)out)->sin6_port = htons(port);
		return sizeof(struct sockaddr_in6);
	}
	((struct sockaddr_in *)out)->sin_port = htons(port);
	return sizeof(struct sockaddr_in);
}

static socklen_t any_addr(struct sockaddr_storage *out, int port)
{
	memset(out, 0, sizeof(*out));
	out->ss_family = ipfam();
	return with_port(out, out, port);
}

static int sa_port(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
	if (ss->ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)ss)->sin_port);
	return -1;
}

static bool sa_same_ip(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr, 16);
	return false;
}

static bool sa_is_any(const struct sockaddr_storage *a)
{
	struct sockaddr_storage any;

	any_addr(&any, 0);
	return sa_same_ip(a, &any);
}

static const char *afname(int af)
{
	char *b;

	switch (af) {
	case AF_INET: return "AF_INET";
	case AF_INET6: return "AF_INET6";
	case AF_SMC: return "AF_SMC";
	case AF_UNSPEC: return "AF_UNSPEC";
	}
	b = rbuf();
	snprintf(b, 256, "AF_%d", af);
	return b;
}

/* "AF_INET/local/len16": family, address relative to the two known
 * addresses, and the address length the kernel returned.  The port goes to
 * *port for the caller to compare. */
static const char *sa_desc(const struct sockaddr_storage *ss, socklen_t len,
			   const struct sockaddr_storage *local,
			   const struct sockaddr_storage *peer, int *port)
{
	char *b = rbuf();
	char ip[INET6_ADDRSTRLEN] = "?";
	const char *what;

	if (port)
		*port = sa_port(ss);
	if (local && sa_same_ip(ss, local))
		what = "local";
	else if (peer && sa_same_ip(ss, peer))
		what = "peer";
	else if (sa_is_any(ss))
		what = "any";
	else {
		if (ss->ss_family == AF_INET)
			inet_ntop(AF_INET, &((const struct sockaddr_in *)ss)->sin_addr, ip, sizeof(ip));
		else if (ss->ss_family == AF_INET6)
			inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)ss)->sin6_addr, ip,
				  sizeof(ip));
		what = ip;
	}
	snprintf(b, 256, "%s/%s/len%u", afname(ss->ss_family), what, (unsigned int)len);
	return b;
}

/* ---------------------------------------------------------------- signals */

static volatile sig_atomic_t sigpipes, sigurgs;

static void on_alarm(int sig)
{
	(void)sig;
}

static void on_sigpipe(int sig)
{
	(void)sig;
	sigpipes++;
}

static void on_sigurg(int sig)
{
	(void)sig;
	sigurgs++;
}

static void handle(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;	/* no SA_RESTART: a guarded call returns EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static bool guarded;

/* Bound the next blocking call: after ms it returns EINTR.  guard(0) disarms. */
static void guard(int ms)
{
	struct itimerval it;

	guarded = ms > 0;
	memset(&it, 0, sizeof(it));
	it.it_value.tv_sec = ms / 1000;
	it.it_value.tv_usec = (ms % 1000) * 1000;
	setitimer(ITIMER_REAL, &it, NULL);
}

/*
 * A call and its result as text ("N" or "-1:ENAME").  A call that TCP answers
 * at once may block in another implementation: unless a longer guard is
 * already armed, each is bounded to 3 s (then it shows as -1:EINTR).
 */
#define RV(expr) ({							\
	bool __g = !guarded;						\
	long __r;							\
	int __e;							\
	if (__g)							\
		guard(3000);						\
	errno = 0;							\
	__r = (long)(expr);						\
	__e = errno;							\
	if (__g)							\
		guard(0);						\
	rv_str(__r, __e);						\
})

/* ---------------------------------------------------------------- socket helpers */

static int fsock(int flags)
{
	return socket(fam->domain, SOCK_STREAM | flags, fam->proto);
}

static int set_int(int fd, int level, int opt, int val)
{
	return setsockopt(fd, level, opt, &val, sizeof(val));
}

/* getsockopt of an int as "value" or "-1:ERRNO". */
static const char *get_int(int fd, int level, int opt)
{
	int val = 0;
	socklen_t len = sizeof(val);
	char *b;

	if (getsockopt(fd, level, opt, &val, &len) < 0)
		return rv_str(-1, errno);
	b = rbuf();
	snprintf(b, 256, "%d", val);
	return b;
}

/* SO_ERROR as an errno name ("0" for none). */
static const char *so_error(int fd)
{
	int val = 0;
	socklen_t len = sizeof(val);

	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &val, &len) < 0)
		return rv_str(-1, errno);
	return ename(val);
}

static int pollfd1(int fd, int events, int timeout)
{
	struct pollfd p = { .fd = fd, .events = events };
	int r = poll(&p, 1, timeout);

	if (r < 0)
		return -1;
	return r ? p.revents : 0;
}

/* Wait until any of want shows in revents (or timeout); the mask then. */
static int wait_mask(int fd, int events, int want, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;
	int m;

	for (;;) {
		m = pollfd1(fd, events, 20);
		if (m < 0 || (m & want) || now_ms() >= end)
			break;
		if (!(m & ~POLLOUT) && !(want & POLLOUT))
			continue;	/* poll slept for us */
		msleep(20);
	}
	return pollfd1(fd, events, 0);
}

static int ioc(int fd, unsigned long req)
{
	int v = 0;

	if (ioctl(fd, req, &v) < 0)
		return -errno - 100000;
	return v;
}

static const char *ioc_str(int v)
{
	char *b;

	if (v <= -100000)
		return rv_str(-1, -(v + 100000));
	b = rbuf();
	snprintf(b, 256, "%d", v);
	return b;
}

/* Wait until SIOCINQ reads want (want < 0: until it is stable for 300 ms). */
static int settle_inq(int fd, int want, int timeout_ms)
{
	long long end = now_ms() + timeout_ms, stable = now_ms();
	int v = ioc(fd, SIOCINQ), last = v;

	while (now_ms() < end) {
		if (want >= 0 && v == want)
			break;
		if (want < 0 && now_ms() - stable >= 300)
			break;
		msleep(20);
		v = ioc(fd, SIOCINQ);
		if (v != last) {
			last = v;
			stable = now_ms();
		}
	}
	return v;
}

static void settle_outq0(int fd, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;

	while (now_ms() < end && (ioc(fd, SIOCOUTQ) != 0 || ioc(fd, SIOCOUTQNSD) != 0))
		msleep(20);
}

static const char *fl_str(int fd)
{
	char *b = rbuf();
	int fl = fcntl(fd, F_GETFL), fd_fl = fcntl(fd, F_GETFD);

	snprintf(b, 256, "nonblock=%d,cloexec=%d", !!(fl & O_NONBLOCK), !!(fd_fl & FD_CLOEXEC));
	return b;
}

static void set_nonblock(int fd, bool on)
{
	int fl = fcntl(fd, F_GETFL);

	fcntl(fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK);
}

/* ---------------------------------------------------------------- line reader */

struct lr {
	int fd;
	size_t n;
	char buf[4096];
};

/* One line (without newline) into out; 1 = line, 0 = timeout, -1 = EOF/error. */
static int lr_line(struct lr *r, char *out, size_t max, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;
	char *nl;
	ssize_t k;

	for (;;) {
		nl = memchr(r->buf, '\n', r->n);
		if (nl) {
			size_t len = nl - r->buf;

			if (len >= max)
				len = max - 1;
			memcpy(out, r->buf, len);
			out[len] = 0;
			r->n -= nl + 1 - r->buf;
			memmove(r->buf, nl + 1, r->n);
			return 1;
		}
		if (r->n == sizeof(r->buf))
			return -1;
		long long left = end - now_ms();

		if (left <= 0)
			return 0;
		int m = pollfd1(r->fd, POLLIN, left > 1000 ? 1000 : (int)left);

		if (m < 0 && errno != EINTR)
			return -1;
		if (m <= 0)
			continue;
		k = read(r->fd, r->buf + r->n, sizeof(r->buf) - r->n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		r->n += k;
	}
}

static int writeln(int fd, const char *fmt, va_list ap)
{
	char line[1024];
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);

	if (n < 0 || n >= (int)sizeof(line) - 1)
		return -1;
	line[n++] = '\n';
	return send(fd, line, n, MSG_NOSIGNAL) == n ? 0 : -1;
}

/* Value of "key=" in a reply line, or "?" */
static const char *kv(const char *line, const char *key)
{
	size_t kl = strlen(key);
	const char *p = line;
	char *b = rbuf();

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[kl] == '=') {
			size_t n = strcspn(p + kl + 1, " ");

			if (n > 255)
				n = 255;
			memcpy(b, p + kl + 1, n);
			b[n] = 0;
			return b;
		}
		p += kl;
	}
	return "?";
}

/* ================================================================ server */

static struct {
	struct lr ctl;
	int L, D;
	int extra[16];
	int nextra;
	uint64_t tx, rx;
	uint32_t rxsum;
	int pre_rcvbuf, pre_sndbuf;
	struct sockaddr_storage ctl_local, ctl_peer;
} S;

static void s_reply(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	writeln(S.ctl.fd, fmt, ap);
	va_end(ap);
}

static int s_presock(int flags)
{
	int fd = fsock(flags);

	if (fd < 0)
		return fd;
	if (S.pre_rcvbuf)
		set_int(fd, SOL_SOCKET, SO_RCVBUF, S.pre_rcvbuf);
	if (S.pre_sndbuf)
		set_int(fd, SOL_SOCKET, SO_SNDBUF, S.pre_sndbuf);
	return fd;
}

static void s_setdata(int fd)
{
	if (S.D >= 0 && S.nextra < 16)
		S.extra[S.nextra++] = S.D;
	S.D = fd;
	S.tx = S.rx = 0;
	S.rxsum = FNV_INIT;
}

static const char *s_names(int fd)
{
	struct sockaddr_storage a, b;
	socklen_t al = sizeof(a), bl = sizeof(b);
	char *out = rbuf();
	int ap = -1, bp = -1;
	const char *as = "?", *bs = "?";

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if (getsockname(fd, (void *)&a, &al) == 0)
		as = sa_desc(&a, al, &S.ctl_local, &S.ctl_peer, &ap);
	else
		as = rv_str(-1, errno);
	if (getpeername(fd, (void *)&b, &bl) == 0)
		bs = sa_desc(&b, bl, &S.ctl_local, &S.ctl_peer, &bp);
	else
		bs = rv_str(-1, errno);
	snprintf(out, 256, "sock=%s sport=%d peer=%s pport=%d", as, ap, bs, bp);
	return out;
}

static void s_send(long n)
{
	unsigned char *buf = malloc(CHUNK);
	long done = 0;
	int err = 0;

	guard(20000);
	while (done < n) {
		size_t k = n - done > CHUNK ? CHUNK : n - done;
		ssize_t r;

		pat_fill(buf, S.tx, k);
		r = send(S.D, buf, k, MSG_NOSIGNAL);
		if (r < 0) {
			err = errno;
			break;
		}
		S.tx += r;
		done += r;
	}
	guard(0);
	free(buf);
	s_reply("ok sent=%ld err=%s", done, ename(err));
}

/* Read n bytes (n < 0: to EOF), each step bounded by poll. */
static void s_recv(long n, int flags)
{
	unsigned char *buf = malloc(CHUNK);
	long got = 0;
	const char *end = "done";
	bool ok = true;
	uint32_t sum = FNV_INIT;

	while (n < 0 || got < n) {
		size_t k = (n < 0 || n - got > CHUNK) ? CHUNK : (size_t)(n - got);
		ssize_t r;

		if (pollfd1(S.D, POLLIN, 10000) <= 0) {
			end = "timeout";
			break;
		}
		r = recv(S.D, buf, k, flags | MSG_DONTWAIT);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r < 0) {
			end = ename(errno);
			break;
		}
		if (r == 0) {
			end = "eof";
			break;
		}
		if (ok && pat_check(buf, S.rx, r) != (size_t)r)
			ok = false;
		sum = fnv(sum, buf, r);
		S.rx += r;
		got += r;
	}
	free(buf);
	s_reply("ok got=%ld sum=%08x verify=%s end=%s", got, sum, ok ? "ok" : "bad", end);
}

static void s_connect(int port, int nb_ms)
{
	struct sockaddr_storage sa;
	socklen_t len = with_port(&sa, &S.ctl_peer, port);
	int fd = s_presock(nb_ms ? SOCK_NONBLOCK : 0), r, e;

	if (fd < 0) {
		s_reply("err socket %s", ename(errno));
		return;
	}
	guard(10000);
	r = connect(fd, (void *)&sa, len);
	e = errno;
	guard(0);
	if (nb_ms) {
		int m = r < 0 && e == EINPROGRESS ? pollfd1(fd, POLLOUT, nb_ms) : 0;
		const char *so = so_error(fd);

		s_reply("ok connect=%s poll=%s so_error=%s", rv_str(r, e), pmask(m),
			so);
	} else {
		s_reply("ok connect=%s", rv_str(r, e));
	}
	s_setdata(fd);
}

static void s_command(char *line)
{
	char cmd[64] = "", arg[64] = "";
	long n = 0, m = 0;

	sscanf(line, "%63s %ld %ld", cmd, &n, &m);
	sscanf(line, "%*s %63s", arg);
	if (!strcmp(cmd, "listen")) {
		struct sockaddr_storage sa;
		socklen_t len = any_addr(&sa, base_port);
		int fd = s_presock(0);

		if (fd < 0) {
			s_reply("err socket %s", ename(errno));
			return;
		}
		if (S.L >= 0)
			close(S.L);
		S.L = -1;
		set_int(fd, SOL_SOCKET, SO_REUSEADDR, 1);
		if (bind(fd, (void *)&sa, len) < 0 || listen(fd, n ? n : 16) < 0) {
			s_reply("err listen %s", ename(errno));
			close(fd);
			return;
		}
		S.L = fd;
		s_reply("ok");
	} else if (!strcmp(cmd, "accept")) {
		int fd;

		if (pollfd1(S.L, POLLIN, 15000) <= 0) {
			s_reply("err accept timeout");
			return;
		}
		fd = accept(S.L, NULL, NULL);
		if (fd < 0) {
			s_reply("err accept %s", ename(errno));
			return;
		}
		s_setdata(fd);
		s_reply("ok %s", s_names(fd));
	} else if (!strcmp(cmd, "connect")) {
		s_connect(n, 0);
	} else if (!strcmp(cmd, "nbconnect")) {
		s_connect(n, m ? m : 1);
	} else if (!strcmp(cmd, "names")) {
		s_reply("ok %s", s_names(S.D));
	} else if (!strcmp(cmd, "send")) {
		s_send(n);
	} else if (!strcmp(cmd, "sendoob")) {
		s_reply("ok sendoob=%s", RV(send(S.D, "!", 1, MSG_OOB | MSG_NOSIGNAL)));
	} else if (!strcmp(cmd, "recv")) {
		s_recv(n, 0);
	} else if (!strcmp(cmd, "recvall")) {
		s_recv(-1, 0);
	} else if (!strcmp(cmd, "recvoob")) {
		char c = 0;
		int pm = wait_mask(S.D, PALL, POLLPRI, 5000);
		const char *r = RV(recv(S.D, &c, 1, MSG_OOB | MSG_DONTWAIT));

		s_reply("ok poll=%s recvoob=%s byte=0x%02x", pmask(pm), r, (unsigned char)c);
	} else if (!strcmp(cmd, "eof")) {
		char c;
		int pm = wait_mask(S.D, PALL, POLLIN | POLLERR | POLLHUP | POLLRDHUP, 5000);
		const char *r = RV(recv(S.D, &c, 1, MSG_DONTWAIT));

		s_reply("ok poll=%s read=%s", pmask(pm), r);
	} else if (!strcmp(cmd, "pollwait")) {
		/* pollwait N: until POLLERR|POLLHUP (N=1) or POLLRDHUP (N=2) */
		int want = n == 1 ? POLLERR | POLLHUP : POLLRDHUP;

		s_reply("ok poll=%s", pmask(wait_mask(S.D, PALL, want, 5000)));
	} else if (!strcmp(cmd, "waitin")) {
		s_reply("ok inq=%s", ioc_str(settle_inq(S.D, n, 5000)));
	} else if (!strcmp(cmd, "shutdown")) {
		int how = !strcmp(arg, "rd") ? SHUT_RD : !strcmp(arg, "wr") ? SHUT_WR : SHUT_RDWR;

		s_reply("ok shutdown=%s", RV(shutdown(S.D, how)));
	} else if (!strcmp(cmd, "linger0")) {
		struct linger lg = { 1, 0 };

		s_reply("ok linger=%s", RV(setsockopt(S.D, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg))));
	} else if (!strcmp(cmd, "close")) {
		s_reply("ok close=%s", RV(close(S.D)));
		S.D = -1;
	} else if (!strcmp(cmd, "closelisten")) {
		s_reply("ok close=%s", RV(close(S.L)));
		S.L = -1;
	} else if (!strcmp(cmd, "closeall")) {
		int i;

		for (i = 0; i < S.nextra; i++)
			close(S.extra[i]);
		S.nextra = 0;
		if (S.D >= 0)
			close(S.D);
		S.D = -1;
		s_reply("ok");
	} else if (!strcmp(cmd, "rcvbuf")) {
		S.pre_rcvbuf = n;
		s_reply("ok");
	} else if (!strcmp(cmd, "sndbuf")) {
		S.pre_sndbuf = n;
		s_reply("ok");
	} else if (!strcmp(cmd, "sleep")) {
		msleep(n);
		s_reply("ok");
	} else if (!strcmp(cmd, "end")) {
		s_reply("ok bye");
	} else {
		s_reply("err unknown command '%s'", cmd);
	}
}

static void server_worker(int ctl)
{
	socklen_t len;
	char line[1024];
	int r;

	memset(&S, 0, sizeof(S));
	S.ctl.fd = ctl;
	S.L = S.D = -1;
	len = sizeof(S.ctl_local);
	getsockname(ctl, (void *)&S.ctl_local, &len);
	len = sizeof(S.ctl_peer);
	getpeername(ctl, (void *)&S.ctl_peer, &len);
	handle(SIGALRM, on_alarm);
	signal(SIGPIPE, SIG_IGN);
	s_reply("ok hello");
	while ((r = lr_line(&S.ctl, line, sizeof(line), 120000)) > 0)
		s_command(line);
	_exit(0);
}

static int listen_ctl(void)
{
	struct sockaddr_storage sa;
	socklen_t len = any_addr(&sa, base_port + 1);
	int fd = socket(ipfam(), SOCK_STREAM, 0);

	if (fd < 0 || set_int(fd, SOL_SOCKET, SO_REUSEADDR, 1) < 0 ||
	    bind(fd, (void *)&sa, len) < 0 || listen(fd, 16) < 0) {
		fprintf(stderr, "sockapi server: control port %d: %s\n", base_port + 1,
			strerror(errno));
		exit(1);
	}
	return fd;
}

static int server_main(void)
{
	int lfd = listen_ctl();
	pid_t worker = 0;

	signal(SIGPIPE, SIG_IGN);
	printf("sockapi server: family %s, data port %d, control port %d\n", fam->name,
	       base_port, base_port + 1);
	fflush(stdout);
	for (;;) {
		struct lr r = { .fd = -1 };
		char line[256], name[128] = "";
		int ctl = accept(lfd, NULL, NULL);

		if (ctl < 0) {
			if (errno == EINTR)
				continue;
			perror("sockapi server: accept");
			return 1;
		}
		r.fd = ctl;
		if (lr_line(&r, line, sizeof(line), 5000) <= 0 ||
		    sscanf(line, "case %127s", name) != 1) {
			close(ctl);
			continue;
		}
		/* The client only starts a case when it is done with the last one:
		 * give a lingering worker a moment, then end it. */
		if (worker > 0) {
			long long end = now_ms() + 3000;

			while (waitpid(worker, NULL, WNOHANG) == 0 && now_ms() < end)
				msleep(10);
			if (waitpid(worker, NULL, WNOHANG) == 0) {
				fprintf(stderr, "sockapi server: worker for the last case hung; killed\n");
				kill(worker, SIGKILL);
				waitpid(worker, NULL, 0);
			}
			worker = 0;
		}
		if (!strcmp(name, "__quit")) {
			send(ctl, "ok bye\n", 7, MSG_NOSIGNAL);
			close(ctl);
			return 0;
		}
		worker = fork();
		if (worker == 0) {
			close(lfd);
			server_worker(ctl);
		}
		close(ctl);
	}
}

/* ================================================================ client */

/* What a case observed, in memory shared with the parent so that a case
 * that hangs or dies still shows how far it got. */
struct shared {
	char res[12000];
	char known[2000];
	char fail[1000];
};

static struct shared *sh;
static struct {
	struct lr ctl;
	uint64_t tx, rx;
	struct sockaddr_storage local;	/* this host's address (from the control connection) */
	const char *name;
} C;

static void app(char *dst, size_t size, const char *fmt, va_list ap)
{
	size_t n = strlen(dst);

	if (n + 2 >= size)
		return;
	if (n)
		dst[n++] = ' ';
	vsnprintf(dst + n, size - n, fmt, ap);
}

static void __attribute__((format(printf, 1, 2))) out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	app(sh->res, sizeof(sh->res), fmt, ap);
	va_end(ap);
}

static void __attribute__((format(printf, 1, 2))) known(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	app(sh->known, sizeof(sh->known), fmt, ap);
	va_end(ap);
}

static void __attribute__((noreturn, format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sh->fail, sizeof(sh->fail), fmt, ap);
	va_end(ap);
	_exit(1);
}

static void __attribute__((format(printf, 1, 2))) peer_send(const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = writeln(C.ctl.fd, fmt, ap);
	va_end(ap);
	if (r < 0)
		fail("control connection: send failed (%s)", ename(errno));
}

/* The next reply of the server (one per command sent). */
static const char *peer_reply(void)
{
	static char line[8][1024];
	static unsigned int i;
	char *b = line[i++ % 8];
	int r = lr_line(&C.ctl, b, sizeof(line[0]), PEER_TIMEOUT_MS);

	if (r == 0)
		fail("server did not answer within %d ms", PEER_TIMEOUT_MS);
	if (r < 0)
		fail("control connection closed by the server");
	if (strncmp(b, "ok", 2))
		fail("server: %s", b);
	return b;
}

static const char * __attribute__((format(printf, 1, 2))) peer(const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = writeln(C.ctl.fd, fmt, ap);
	va_end(ap);
	if (r < 0)
		fail("control connection: send failed (%s)", ename(errno));
	return peer_reply();
}

static struct sockaddr_storage data_addr(int port, socklen_t *len)
{
	struct sockaddr_storage sa;

	*len = with_port(&sa, &srv_ip, port);
	return sa;
}

static int xsock(int flags)
{
	int fd = fsock(flags);

	if (fd < 0)
		fail("socket(%s): %s", fam->name, ename(errno));
	return fd;
}

/* The data connection, client to server, established (pre: options applied
 * by the caller's prep callback before connect). */
static int est_opts(int rcvbuf, int sndbuf)
{
	struct sockaddr_storage sa;
	socklen_t len;
	int fd, r;

	peer("listen");
	peer_send("accept");
	fd = xsock(0);
	if (rcvbuf)
		set_int(fd, SOL_SOCKET, SO_RCVBUF, rcvbuf);
	if (sndbuf)
		set_int(fd, SOL_SOCKET, SO_SNDBUF, sndbuf);
	sa = data_addr(base_port, &len);
	guard(10000);
	r = connect(fd, (void *)&sa, len);
	guard(0);
	if (r < 0)
		fail("connect to the server: %s", ename(errno));
	peer_reply();
	C.tx = C.rx = 0;
	return fd;
}

static int est(void)
{
	return est_opts(0, 0);
}

/* A listener on this host for the server to connect to. */
static int c_listen(int port, int backlog, bool reuse, int flags)
{
	struct sockaddr_storage sa;
	socklen_t len = any_addr(&sa, port);
	int fd = xsock(flags);

	if (reuse)
		set_int(fd, SOL_SOCKET, SO_REUSEADDR, 1);
	if (bind(fd, (void *)&sa, len) < 0)
		fail("bind listener port +%d: %s", port - base_port, ename(errno));
	if (listen(fd, backlog) < 0)
		fail("listen: %s", ename(errno));
	return fd;
}

/* Send n pattern bytes (blocking, bounded); total sent, *err the errno that
 * stopped it. */
static long c_send(int fd, long n, int flags, int *err)
{
	unsigned char *buf = malloc(CHUNK);
	long done = 0;

	*err = 0;
	guard(20000);
	while (done < n) {
		size_t k = n - done > CHUNK ? CHUNK : n - done;
		ssize_t r;

		pat_fill(buf, C.tx, k);
		r = send(fd, buf, k, flags);
		if (r < 0) {
			*err = errno;
			break;
		}
		C.tx += r;
		done += r;
	}
	guard(0);
	free(buf);
	return done;
}

struct rx {
	long got;
	uint32_t sum;
	bool ok;
	const char *end;
};

/* Receive up to n bytes (n < 0: to EOF) checking the pattern; each step
 * bounded by a poll of 10 s. */
static struct rx c_recv(int fd, long n, int flags)
{
	unsigned char *buf = malloc(CHUNK);
	struct rx x = { 0, FNV_INIT, true, "done" };

	while (n < 0 || x.got < n) {
		size_t k = (n < 0 || n - x.got > CHUNK) ? CHUNK : (size_t)(n - x.got);
		ssize_t r;

		if (pollfd1(fd, POLLIN, 10000) <= 0) {
			x.end = "timeout";
			break;
		}
		r = recv(fd, buf, k, flags | MSG_DONTWAIT);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r < 0) {
			x.end = ename(errno);
			break;
		}
		if (r == 0) {
			x.end = "eof";
			break;
		}
		if (x.ok && pat_check(buf, C.rx, r) != (size_t)r)
			x.ok = false;
		x.sum = fnv(x.sum, buf, r);
		C.rx += r;
		x.got += r;
	}
	free(buf);
	return x;
}

static const char *rx_str(struct rx x)
{
	char *b = rbuf();

	snprintf(b, 256, "%ld/%s/%s", x.got, x.ok ? "ok" : "BAD", x.end);
	return b;
}

/* Read exactly n bytes now (they are known to be there); verify. */
static const char *c_read_now(int fd, long n, int flags)
{
	unsigned char buf[4096];
	ssize_t r;
	char *b = rbuf();

	if (n > (long)sizeof(buf))
		n = sizeof(buf);
	r = recv(fd, buf, n, flags | MSG_DONTWAIT);
	if (r < 0)
		return rv_str(r, errno);
	snprintf(b, 256, "%zd%s", r, pat_check(buf, C.rx, r) == (size_t)r ? "" : "/BAD");
	if (!(flags & MSG_PEEK))
		C.rx += r;
	return b;
}

/* ---------------------------------------------------------------- cases */

static void case_bind_port0(void)
{
	struct sockaddr_storage sa, got;
	socklen_t len = any_addr(&sa, 0), gl = sizeof(got);
	int fd = xsock(0), port;
	const char *d;

	out("bind=%s", RV(bind(fd, (void *)&sa, len)));
	memset(&got, 0, sizeof(got));
	out("getsockname=%s", RV(getsockname(fd, (void *)&got, &gl)));
	d = sa_desc(&got, gl, &C.local, &srv_ip, &port);
	out("name=%s port=%s", d, port > 0 ? "nonzero" : "zero");
	out("rebind=%s", RV(bind(fd, (void *)&sa, len)));
	out("listen=%s", RV(listen(fd, 4)));
	gl = sizeof(got);
	getsockname(fd, (void *)&got, &gl);
	out("port_after_listen=%s", sa_port(&got) == port ? "same" : "changed");
	close(fd);

	/* the host's own address, port 0 */
	fd = xsock(0);
	len = with_port(&sa, &C.local, 0);
	out("bind_local=%s", RV(bind(fd, (void *)&sa, len)));
	gl = sizeof(got);
	getsockname(fd, (void *)&got, &gl);
	d = sa_desc(&got, gl, &C.local, &srv_ip, &port);
	out("name_local=%s port=%s", d, port > 0 ? "nonzero" : "zero");
	/* a port someone listens on: EADDRINUSE even with SO_REUSEADDR */
	{
		int l = c_listen(base_port + 3, 4, true, 0), f2 = xsock(0);

		set_int(f2, SOL_SOCKET, SO_REUSEADDR, 1);
		len = any_addr(&sa, base_port + 3);
		out("bind_listening_port=%s", RV(bind(f2, (void *)&sa, len)));
		close(f2);
		close(l);
	}
	close(fd);
}

static void case_reuseaddr_rebind(void)
{
	int port = base_port + 4, l, c, fd;
	struct sockaddr_storage sa;
	socklen_t len = any_addr(&sa, port);

	/* a connection on the port that this host closes first: TIME_WAIT here */
	l = c_listen(port, 4, true, 0);
	peer_send("connect %d", port);
	guard(10000);
	c = accept(l, NULL, NULL);
	guard(0);
	if (c < 0)
		fail("accept: %s", ename(errno));
	peer_reply();
	close(c);
	out("peer_eof=%s", kv(peer("eof"), "read"));
	peer("close");
	msleep(300);
	close(l);

	fd = xsock(0);
	out("bind_noreuse=%s", RV(bind(fd, (void *)&sa, len)));
	close(fd);
	fd = xsock(0);
	set_int(fd, SOL_SOCKET, SO_REUSEADDR, 1);
	out("get_reuseaddr=%s", get_int(fd, SOL_SOCKET, SO_REUSEADDR));
	out("bind_reuse=%s", RV(bind(fd, (void *)&sa, len)));
	out("listen=%s", RV(listen(fd, 4)));
	/* and it works */
	peer_send("connect %d", port);
	guard(10000);
	c = accept(fd, NULL, NULL);
	guard(0);
	out("accept=%s", c >= 0 ? "ok" : ename(errno));
	out("peer_connect=%s", kv(peer_reply(), "connect"));
	if (c >= 0)
		close(c);
	close(fd);
}

static void case_listen_backlog(void)
{
	int port = base_port + 5, l = c_listen(port, 1, true, 0), n = 0, i, fds[8];

	/* one at a time, each given 700 ms: a SYN dropped on a full queue is
	 * only retransmitted after 1 s */
	for (i = 0; i < 4; i++) {
		const char *r = peer("nbconnect %d 700", port);

		out("conn%d=%s/%s", i + 1, kv(r, "poll"), kv(r, "so_error"));
	}
	/* the peer closes them all first: no SYN retransmit can reach the
	 * queue while we count it */
	peer("closeall");
	msleep(300);
	set_nonblock(l, true);
	for (;;) {
		int fd = accept(l, NULL, NULL);

		if (fd < 0) {
			out("accept_end=%s", ename(errno));
			break;
		}
		if (n < 8)
			fds[n] = fd;
		n++;
		if (n > 8)
			break;
	}
	out("accepted=%d", n);
	for (i = 0; i < n && i < 8; i++)
		close(fds[i]);
	close(l);
}

static void accept_check_conn(int fd)
{
	/* the accepted socket works both ways */
	int err;

	out("send=%ld", c_send(fd, 10, MSG_NOSIGNAL, &err));
	out("peer_recv=%s", kv(peer("recv 10"), "verify"));
	peer("send 10");
	out("recv=%s", rx_str(c_recv(fd, 10, 0)));
}

static void case_accept_blocking(void)
{
	int port = base_port + 3, l = c_listen(port, 4, true, 0), fd;
	struct sockaddr_storage sa;
	socklen_t len = sizeof(sa);
	const char *r;
	int pp;

	peer_send("sleep 300");
	peer_send("connect %d", port);
	guard(10000);
	fd = accept(l, (void *)&sa, &len);
	guard(0);
	out("accept=%s", fd >= 0 ? "ok" : rv_str(-1, errno));
	if (fd < 0)
		fail("accept failed");
	peer_reply();
	r = peer_reply();
	out("peer_connect=%s", kv(r, "connect"));
	out("addr=%s", sa_desc(&sa, len, &C.local, &srv_ip, &pp));
	r = peer("names");
	out("port_match=%s", atoi(kv(r, "sport")) == pp ? "yes" : "no");
	out("flags=%s", fl_str(fd));
	accept_check_conn(fd);
	close(fd);
	close(l);
}

static void case_accept_nonblocking(void)
{
	int port = base_port + 3, l = c_listen(port, 4, true, SOCK_NONBLOCK), fd;

	out("accept_empty=%s", RV(accept(l, NULL, NULL)));
	out("poll_empty=%s", pmask(pollfd1(l, PALL, 0)));
	peer("connect %d", port);
	out("poll=%s", pmask(wait_mask(l, PALL, POLLIN, 5000)));
	fd = accept(l, NULL, NULL);
	out("accept=%s", fd >= 0 ? "ok" : rv_str(-1, errno));
	if (fd < 0)
		fail("accept failed");
	out("flags=%s", fl_str(fd));
	out("accept_again=%s", RV(accept(l, NULL, NULL)));
	out("poll_after=%s", pmask(pollfd1(l, PALL, 0)));
	accept_check_conn(fd);
	close(fd);
	close(l);
}

static void case_accept4_flags(void)
{
	int port = base_port + 3, l = c_listen(port, 4, true, 0), fd;
	char c;

	peer("connect %d", port);
	guard(10000);
	fd = accept4(l, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	guard(0);
	out("accept4=%s", fd >= 0 ? "ok" : rv_str(-1, errno));
	if (fd < 0)
		fail("accept4 failed");
	out("flags=%s", fl_str(fd));
	out("recv_empty=%s", RV(recv(fd, &c, 1, 0)));
	accept_check_conn(fd);
	close(fd);
	close(l);
}

static void case_connect_blocking(void)
{
	struct sockaddr_storage sa = data_addr(base_port, &(socklen_t){0});
	socklen_t len = with_port(&sa, &srv_ip, base_port);
	int fd = xsock(0);

	peer("listen");
	peer_send("accept");
	guard(10000);
	out("connect=%s", RV(connect(fd, (void *)&sa, len)));
	guard(0);
	peer_reply();
	out("so_error=%s", so_error(fd));
	out("connect_again=%s", RV(connect(fd, (void *)&sa, len)));
	out("flags=%s", fl_str(fd));
	out("poll=%s", pmask(pollfd1(fd, PALL, 0)));
	C.tx = C.rx = 0;
	accept_check_conn(fd);
	close(fd);
}

static void case_connect_nonblocking(void)
{
	struct sockaddr_storage sa;
	socklen_t len = with_port(&sa, &srv_ip, base_port);
	int fd = xsock(SOCK_NONBLOCK);

	peer("listen");
	peer_send("accept");
	/* (a second connect at once would race the SYN-ACK: EALREADY is
	 * checked against a silent address in connect_timeout) */
	out("connect=%s", RV(connect(fd, (void *)&sa, len)));
	out("poll=%s", pmask(wait_mask(fd, POLLOUT, POLLOUT | POLLERR | POLLHUP, 5000)));
	out("so_error=%s", so_error(fd));
	out("connect_done=%s", RV(connect(fd, (void *)&sa, len)));
	out("connect_done2=%s", RV(connect(fd, (void *)&sa, len)));
	peer_reply();
	set_nonblock(fd, false);
	C.tx = C.rx = 0;
	accept_check_conn(fd);
	close(fd);
}

static void case_connect_nb_refused(void)
{
	struct sockaddr_storage sa;
	socklen_t len = with_port(&sa, &srv_ip, base_port + 2);
	int fd = xsock(SOCK_NONBLOCK);
	char c;

	out("connect=%s", RV(connect(fd, (void *)&sa, len)));
	out("poll=%s", pmask(wait_mask(fd, PALL, POLLERR | POLLHUP, 5000)));
	out("so_error=%s", so_error(fd));
	out("so_error_again=%s", so_error(fd));
	out("poll_after=%s", pmask(pollfd1(fd, PALL, 0)));
	out("recv=%s", RV(recv(fd, &c, 1, 0)));
	out("send=%s", RV(send(fd, "x", 1, MSG_NOSIGNAL)));
	out("getpeername=%s", RV(getpeername(fd, (void *)&sa, &len)));
	close(fd);
}

static void case_connect_refused(void)
{
	struct sockaddr_storage sa;
	socklen_t len = with_port(&sa, &srv_ip, base_port + 2);
	int fd = xsock(0);

	guard(10000);
	out("connect=%s", RV(connect(fd, (void *)&sa, len)));
	out("so_error=%s", so_error(fd));
	out("connect_again=%s", RV(connect(fd, (void *)&sa, len)));
	guard(0);
	out("poll=%s", pmask(pollfd1(fd, PALL, 0)));
	close(fd);
}

static void case_connect_timeout(void)
{
	struct sockaddr_storage sa;
	socklen_t len = with_port(&sa, &silent_ip, base_port);
	struct timeval tv = { 2, 0 };
	int fd = xsock(0);
	long long t0;
	char c;

	/* blocking connect bounded by SO_SNDTIMEO: back after ~2 s, still in
	 * progress (ARP gives up only after 3 s) */
	out("sndtimeo=%s", RV(setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv))));
	guard(8000);
	t0 = now_ms();
	out("connect=%s", RV(connect(fd, (void *)&sa, len)));
	t0 = now_ms() - t0;
	guard(0);
	out("waited=%s", t0 >= 1500 && t0 < 3000 ? "2s" : t0 < 1500 ? "short" : "long");
	out("so_error=%s", so_error(fd));
	out("poll=%s", pmask(pollfd1(fd, PALL, 0)));
	out("recv=%s", RV(recv(fd, &c, 1, MSG_DONTWAIT)));
	out("connect_again=%s", RV(connect(fd, (void *)&sa, len)));
	close(fd);

	/* non-blocking: nothing happens within 1 s */
	fd = xsock(SOCK_NONBLOCK);
	out("nb_connect=%s", RV(connect(fd, (void *)&sa, len)));
	out("nb_connect_again=%s", RV(connect(fd, (void *)&sa, len)));
	out("nb_poll=%s", pmask(pollfd1(fd, POLLOUT, 1000)));
	out("nb_so_error=%s", so_error(fd));
	close(fd);
}

/*
 * shutdown() while a connect is in progress (SYN_SENT: a silent address,
 * not connect_timeout's, answers nothing for 3 s).  TCP aborts the connect:
 * shutdown returns 0, SO_ERROR is ECONNRESET, the socket is unconnected and
 * may connect again.
 */
static void case_shutdown_connecting(void)
{
	struct sockaddr_storage sa;
	socklen_t len = with_port(&sa, &silent2_ip, base_port);
	int fd = xsock(SOCK_NONBLOCK);
	char c;

	out("connect=%s", RV(connect(fd, (void *)&sa, len)));
	out("shutdown_wr=%s", RV(shutdown(fd, SHUT_WR)));
	out("so_error=%s", so_error(fd));
	out("poll=%s", pmask(pollfd1(fd, PALL, 0)));
	out("recv=%s", RV(recv(fd, &c, 1, MSG_DONTWAIT)));
	out("send=%s", RV(send(fd, "x", 1, MSG_NOSIGNAL | MSG_DONTWAIT)));
	out("getpeername=%s", RV(getpeername(fd, (void *)&sa, &len)));
	out("shutdown_again=%s", RV(shutdown(fd, SHUT_RDWR)));
	len = with_port(&sa, &silent2_ip, base_port);
	out("connect_again=%s", RV(connect(fd, (void *)&sa, len)));
	out("shutdown_rd=%s", RV(shutdown(fd, SHUT_RD)));
	out("so_error_again=%s", so_error(fd));
	close(fd);
}

static void case_names(void)
{
	int fd = est(), p1, p2;
	struct sockaddr_storage a;
	socklen_t al = sizeof(a);
	const char *r = peer("names");

	memset(&a, 0, sizeof(a));
	out("getsockname=%s", RV(getsockname(fd, (void *)&a, &al)));
	out("sock=%s", sa_desc(&a, al, &C.local, &srv_ip, &p1));
	out("sport=%s", p1 == atoi(kv(r, "pport")) ? "=peer.pport" : "MISMATCH");
	al = sizeof(a);
	memset(&a, 0, sizeof(a));
	out("getpeername=%s", RV(getpeername(fd, (void *)&a, &al)));
	out("peer=%s", sa_desc(&a, al, &C.local, &srv_ip, &p2));
	out("pport=%s", p2 == base_port ? "=listen" : "OTHER");
	out("srv_sock=%s srv_sport=%s srv_peer=%s", kv(r, "sock"),
	    atoi(kv(r, "sport")) == base_port ? "=listen" : "OTHER", kv(r, "peer"));
	/* short buffers: truncated, the full length reported */
	al = 4;
	out("getsockname_short=%s len=%u", RV(getsockname(fd, (void *)&a, &al)),
	    (unsigned int)al);
	close(fd);
	fd = xsock(0);
	al = sizeof(a);
	memset(&a, 0, sizeof(a));
	out("unbound_getsockname=%s", RV(getsockname(fd, (void *)&a, &al)));
	out("unbound_sock=%s", sa_desc(&a, al, &C.local, &srv_ip, &p1));
	out("unbound_port=%d", p1);
	al = sizeof(a);
	out("unconnected_getpeername=%s", RV(getpeername(fd, (void *)&a, &al)));
	close(fd);
}

static void case_unconnected_ops(void)
{
	int fd = xsock(0), l;
	struct sockaddr_storage sa;
	socklen_t len;
	char c;

	out("poll=%s", pmask(pollfd1(fd, PALL, 0)));
	out("recv=%s", RV(recv(fd, &c, 1, MSG_DONTWAIT)));
	out("send=%s", RV(send(fd, "x", 1, MSG_NOSIGNAL)));
	out("shutdown=%s", RV(shutdown(fd, SHUT_RDWR)));
	out("accept=%s", RV(accept(fd, NULL, NULL)));
	out("siocinq=%s", ioc_str(ioc(fd, SIOCINQ)));
	out("siocoutq=%s", ioc_str(ioc(fd, SIOCOUTQ)));
	out("so_error=%s", so_error(fd));
	out("sigpipe=%d", (int)sigpipes);
	close(fd);

	l = c_listen(base_port + 3, 4, true, 0);
	len = with_port(&sa, &srv_ip, base_port + 2);
	out("listener_poll=%s", pmask(pollfd1(l, PALL, 0)));
	out("listener_connect=%s", RV(connect(l, (void *)&sa, len)));
	out("listener_recv=%s", RV(recv(l, &c, 1, MSG_DONTWAIT)));
	out("listener_send=%s", RV(send(l, "x", 1, MSG_NOSIGNAL)));
	out("listener_siocinq=%s", ioc_str(ioc(l, SIOCINQ)));
	out("listener_getpeername=%s", RV(getpeername(l, (void *)&sa, &len)));
	out("listener_shutdown=%s", RV(shutdown(l, SHUT_RDWR)));
	out("listener_poll_after=%s", pmask(pollfd1(l, PALL, 0)));
	out("listener_accept_after=%s", RV(accept4(l, NULL, NULL, SOCK_NONBLOCK)));
	out("listen_again=%s", RV(listen(l, 4)));
	close(l);
}

static void case_send_recv_small(void)
{
	int fd = est();
	char buf[8];

	out("send0=%s", RV(send(fd, buf, 0, MSG_NOSIGNAL)));
	out("recv0_dontwait=%s", RV(recv(fd, buf, 0, MSG_DONTWAIT)));
	guard(500);
	out("recv0_blocking=%s", RV(recv(fd, buf, 0, 0)));
	guard(0);
	out("peer_recv0=%s", kv(peer("eof"), "read"));
	peer("send 1");
	out("poll=%s", pmask(wait_mask(fd, PALL, POLLIN, 5000)));
	out("recv0_data=%s", RV(recv(fd, buf, 0, 0)));
	out("recv1=%s", c_read_now(fd, 1, 0));
	out("recv_empty=%s", RV(recv(fd, buf, 1, MSG_DONTWAIT)));
	pat_fill((unsigned char *)buf, C.tx, 1);
	out("send1=%s", RV(send(fd, buf, 1, MSG_NOSIGNAL)));
	C.tx++;
	out("peer_recv1=%s", kv(peer("recv 1"), "verify"));
	out("write0=%s read0=%s", RV(write(fd, buf, 0)), RV(read(fd, buf, 0)));
	close(fd);
}

static void case_bulk_4m(void)
{
	const long n = 4 << 20;
	int fd = est(), err;
	const char *r;
	struct rx x;

	/* odd-sized writes and reads */
	peer_send("recv %ld", n);
	out("sent=%ld", c_send(fd, n, MSG_NOSIGNAL, &err));
	out("send_err=%s", ename(err));
	r = peer_reply();
	out("peer_got=%s peer_sum=%s peer_verify=%s", kv(r, "got"), kv(r, "sum"),
	    kv(r, "verify"));
	peer_send("send %ld", n);
	x = c_recv(fd, n, 0);
	out("got=%s sum=%08x", rx_str(x), x.sum);
	out("peer_sent=%s", kv(peer_reply(), "sent"));
	close(fd);
}

static void case_msg_dontwait(void)
{
	int fd = est();
	char c;

	out("recv_dontwait=%s", RV(recv(fd, &c, 1, MSG_DONTWAIT)));
	out("recv_peek_dontwait=%s", RV(recv(fd, &c, 1, MSG_DONTWAIT | MSG_PEEK)));
	set_nonblock(fd, true);
	out("recv_nonblock=%s", RV(recv(fd, &c, 1, 0)));
	out("read_nonblock=%s", RV(read(fd, &c, 1)));
	set_nonblock(fd, false);
	peer("send 5");
	wait_mask(fd, PALL, POLLIN, 5000);
	out("inq=%s", ioc_str(settle_inq(fd, 5, 3000)));
	out("recv_dontwait_data=%s", c_read_now(fd, 100, 0));
	out("recv_dontwait_after=%s", RV(recv(fd, &c, 1, MSG_DONTWAIT)));
	close(fd);
}

static void case_msg_peek(void)
{
	int fd = est();

	peer("send 100");
	wait_mask(fd, PALL, POLLIN, 5000);
	out("inq=%s", ioc_str(settle_inq(fd, 100, 3000)));
	out("peek50=%s", c_read_now(fd, 50, MSG_PEEK));
	out("peek200=%s", c_read_now(fd, 200, MSG_PEEK));
	out("inq_after_peek=%s", ioc_str(ioc(fd, SIOCINQ)));
	out("read30=%s", c_read_now(fd, 30, 0));
	out("peek_rest=%s", c_read_now(fd, 200, MSG_PEEK));
	out("read_rest=%s", c_read_now(fd, 200, 0));
	out("peek_empty=%s", c_read_now(fd, 10, MSG_PEEK));
	close(fd);
}

static void case_msg_trunc(void)
{
	int fd = est();
	char buf[64];

	peer("send 100");
	wait_mask(fd, PALL, POLLIN, 5000);
	out("inq=%s", ioc_str(settle_inq(fd, 100, 3000)));
	out("trunc40=%s", RV(recv(fd, NULL, 40, MSG_TRUNC | MSG_DONTWAIT)));
	out("inq_after=%s", ioc_str(ioc(fd, SIOCINQ)));
	C.rx += 40;
	out("read=%s", c_read_now(fd, 100, 0));
	out("trunc_peek=%s", RV(recv(fd, buf, 10, MSG_TRUNC | MSG_PEEK | MSG_DONTWAIT)));
	close(fd);
}

static void case_msg_waitall(void)
{
	int fd = est();
	struct rx x;
	unsigned char *buf = malloc(4000);
	ssize_t r;

	/* three pieces 100 ms apart: one recv gets them all */
	peer_send("send 1000");
	peer_send("sleep 100");
	peer_send("send 1000");
	peer_send("sleep 100");
	peer_send("send 1000");
	guard(10000);
	r = recv(fd, buf, 3000, MSG_WAITALL);
	guard(0);
	out("waitall=%s verify=%s", rv_str(r, errno),
	    r == 3000 && pat_check(buf, C.rx, 3000) == 3000 ? "ok" : "BAD");
	if (r > 0)
		C.rx += r;
	for (int i = 0; i < 5; i++)
		peer_reply();
	/* EOF ends it short */
	peer_send("send 500");
	peer_send("shutdown wr");
	guard(10000);
	r = recv(fd, buf, 1000, MSG_WAITALL);
	guard(0);
	out("waitall_eof=%s", rv_str(r, errno));
	if (r > 0)
		C.rx += r;
	peer_reply();
	peer_reply();
	x = c_recv(fd, -1, 0);
	out("after=%s", rx_str(x));
	free(buf);
	close(fd);
}

/* The peer closes; we read EOF and then write until the RST is back. */
static void epipe_common(int flags)
{
	int fd = est();
	char c = 'x';

	peer("close");
	out("poll_fin=%s", pmask(wait_mask(fd, PALL, POLLRDHUP, 5000)));
	out("recv=%s", RV(recv(fd, &c, 1, MSG_DONTWAIT)));
	out("send1=%s", RV(send(fd, &c, 1, flags)));
	out("sigpipe=%d", (int)sigpipes);
	out("poll_rst=%s", pmask(wait_mask(fd, PALL, POLLERR | POLLHUP, 5000)));
	out("send2=%s", RV(send(fd, &c, 1, flags)));
	out("sigpipe=%d", (int)sigpipes);
	out("send3=%s", RV(send(fd, &c, 1, flags)));
	out("sigpipe=%d", (int)sigpipes);
	out("write=%s", RV(write(fd, &c, 1)));
	out("sigpipe=%d", (int)sigpipes);
	out("so_error=%s", so_error(fd));
	out("recv_after=%s", RV(recv(fd, &c, 1, MSG_DONTWAIT)));
	out("poll_end=%s", pmask(pollfd1(fd, PALL, 0)));
	close(fd);
}

static void case_msg_nosignal_epipe(void)
{
	epipe_common(MSG_NOSIGNAL);
}

static void case_sigpipe(void)
{
	epipe_common(0);
}

static void case_msg_oob(void)
{
	int fd = est();
	char c = 0;
	int r;

	out("oobinline=%s", get_int(fd, SOL_SOCKET, SO_OOBINLINE));
	peer("send 3");
	out("peer_sendoob=%s", kv(peer("sendoob"), "sendoob"));
	out("poll=%s", pmask(wait_mask(fd, PALL, POLLPRI, 5000)));
	out("inq=%s", ioc_str(settle_inq(fd, -1, 3000)));
	out("atmark=%s", ioc_str(ioc(fd, SIOCATMARK)));
	r = recv(fd, &c, 1, MSG_OOB | MSG_DONTWAIT);
	out("recv_oob=%s byte=0x%02x", rv_str(r, errno), (unsigned char)c);
	out("recv_oob_again=%s", RV(recv(fd, &c, 1, MSG_OOB | MSG_DONTWAIT)));
	out("poll_after_oob=%s", pmask(pollfd1(fd, PALL, 0)));
	out("atmark_after=%s", ioc_str(ioc(fd, SIOCATMARK)));
	out("inband=%s", c_read_now(fd, 100, 0));
	out("recv_empty=%s", RV(recv(fd, &c, 1, MSG_DONTWAIT)));
	/* the other way */
	out("send_oob=%s", RV(send(fd, "#", 1, MSG_OOB | MSG_NOSIGNAL)));
	r = 0;
	{
		const char *pr = peer("recvoob");

		out("peer_poll=%s peer_recvoob=%s peer_byte=%s", kv(pr, "poll"), kv(pr, "recvoob"),
		    kv(pr, "byte"));
	}
	out("sigurg=%d", (int)sigurgs);
	close(fd);
}

static void case_msg_oob_mark(void)
{
	int fd = est();
	char c = 0;
	int r;

	/* in-band data, the urgent byte, more in-band data */
	peer("send 3");
	peer("sendoob");
	peer("send 4");
	out("poll=%s", pmask(wait_mask(fd, PALL, POLLPRI, 5000)));
	settle_inq(fd, -1, 3000);
	out("atmark=%s", ioc_str(ioc(fd, SIOCATMARK)));
	out("read_to_mark=%s", c_read_now(fd, 100, 0));
	out("atmark_at=%s", ioc_str(ioc(fd, SIOCATMARK)));
	out("poll_at_mark=%s", pmask(pollfd1(fd, PALL, 0)));
	r = recv(fd, &c, 1, MSG_OOB | MSG_DONTWAIT);
	out("recv_oob=%s byte=0x%02x", rv_str(r, errno), (unsigned char)c);
	out("read_after=%s", c_read_now(fd, 100, 0));
	out("atmark_end=%s", ioc_str(ioc(fd, SIOCATMARK)));
	/* the urgent byte inline */
	set_int(fd, SOL_SOCKET, SO_OOBINLINE, 1);
	peer("send 2");
	peer("sendoob");
	out("inline_poll=%s", pmask(wait_mask(fd, PALL, POLLPRI, 5000)));
	settle_inq(fd, -1, 3000);
	out("inline_inq=%s", ioc_str(ioc(fd, SIOCINQ)));
	out("inline_recv_oob=%s", RV(recv(fd, &c, 1, MSG_OOB | MSG_DONTWAIT)));
	{
		char buf[16];
		ssize_t k = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		out("inline_read=%s last=0x%02x", rv_str(k, errno),
		    k > 0 ? (unsigned char)buf[k - 1] : 0);
		if (k > 0)
			out("inline_read2=%s", RV(recv(fd, buf, sizeof(buf), MSG_DONTWAIT)));
	}
	close(fd);
}

static void case_readv_writev(void)
{
	int fd = est();
	unsigned char a[10], b[20], d[30], in[100];
	struct iovec iov[4] = { { a, 10 }, { b, 0 }, { b, 20 }, { d, 30 } };
	ssize_t r;

	pat_fill(a, C.tx, 10);
	pat_fill(b, C.tx + 10, 20);
	pat_fill(d, C.tx + 30, 30);
	out("writev=%s", RV(writev(fd, iov, 4)));
	C.tx += 60;
	out("peer_recv=%s", kv(peer("recv 60"), "verify"));
	peer("send 60");
	wait_mask(fd, PALL, POLLIN, 5000);
	out("inq=%s", ioc_str(settle_inq(fd, 60, 3000)));
	{
		struct iovec v[3] = { { in, 10 }, { in + 10, 20 }, { in + 30, 40 } };

		r = readv(fd, v, 3);
		out("readv=%s verify=%s", rv_str(r, errno),
		    r == 60 && pat_check(in, C.rx, 60) == 60 ? "ok" : "BAD");
		C.rx += r > 0 ? r : 0;
	}
	/* sendmsg/recvmsg with several iovecs */
	{
		struct msghdr mh;
		struct iovec v[2] = { { a, 10 }, { b, 20 } };

		pat_fill(a, C.tx, 10);
		pat_fill(b, C.tx + 10, 20);
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = v;
		mh.msg_iovlen = 2;
		out("sendmsg=%s", RV(sendmsg(fd, &mh, MSG_NOSIGNAL)));
		C.tx += 30;
		out("peer_recv2=%s", kv(peer("recv 30"), "verify"));
		peer("send 30");
		wait_mask(fd, PALL, POLLIN, 5000);
		settle_inq(fd, 30, 3000);
		v[0].iov_base = in;
		v[1].iov_base = in + 10;
		v[1].iov_len = 50;
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = v;
		mh.msg_iovlen = 2;
		r = recvmsg(fd, &mh, MSG_DONTWAIT);
		out("recvmsg=%s flags=0x%x verify=%s", rv_str(r, errno), mh.msg_flags,
		    r == 30 && pat_check(in, C.rx, 30) == 30 ? "ok" : "BAD");
	}
	close(fd);
}

static void case_sendfile(void)
{
	const long n = (1 << 20) + 123;
	char path[] = "/tmp/sockapi.XXXXXX";
	int fd = est(), f = mkstemp(path);
	unsigned char *buf = malloc(n);
	long done = 0;
	const char *r;

	if (f < 0)
		fail("mkstemp: %s", ename(errno));
	unlink(path);
	pat_fill(buf, C.tx, n);
	if (write(f, buf, n) != n)
		fail("write temp file");
	lseek(f, 0, SEEK_SET);
	peer_send("recv %ld", n);
	guard(20000);
	while (done < n) {
		ssize_t k = sendfile(fd, f, NULL, n - done);

		if (k <= 0) {
			out("sendfile_stop=%s", rv_str(k, errno));
			break;
		}
		done += k;
	}
	guard(0);
	C.tx += done;
	out("sendfile=%ld file_pos=%ld", done, (long)lseek(f, 0, SEEK_CUR));
	r = peer_reply();
	out("peer_got=%s peer_verify=%s", kv(r, "got"), kv(r, "verify"));
	/* with an explicit offset: the file position stays */
	{
		off_t off = 0;

		lseek(f, 0, SEEK_SET);
		pat_fill(buf, C.tx, 1000);
		if (pwrite(f, buf, 1000, 0) != 1000)
			fail("pwrite");
		peer_send("recv 1000");
		guard(10000);
		out("sendfile_off=%s off=%ld pos=%ld", RV(sendfile(fd, f, &off, 1000)), (long)off,
		    (long)lseek(f, 0, SEEK_CUR));
		guard(0);
		C.tx += 1000;
		out("peer_verify2=%s", kv(peer_reply(), "verify"));
	}
	free(buf);
	close(f);
	close(fd);
}

static void case_splice(void)
{
	const long n = 200000;
	int fd = est(), p[2];
	unsigned char *buf = malloc(CHUNK);
	long got = 0, calls = 0;
	bool ok = true;
	const char *end = "done";

	if (pipe(p) < 0)
		fail("pipe");
	/* socket -> pipe -> us */
	peer_send("send %ld", n);
	guard(20000);
	while (got < n) {
		ssize_t k = splice(fd, NULL, p[1], NULL, CHUNK, 0), m;

		if (k <= 0) {
			end = k ? ename(errno) : "eof";
			break;
		}
		calls++;
		while (k > 0) {
			m = read(p[0], buf, k);
			if (m <= 0)
				break;
			if (pat_check(buf, C.rx, m) != (size_t)m)
				ok = false;
			C.rx += m;
			got += m;
			k -= m;
		}
	}
	guard(0);
	peer_reply();
	out("splice_in=%ld verify=%s end=%s", got, ok ? "ok" : "BAD", end);
	/* us -> pipe -> socket */
	peer_send("recv %ld", n);
	{
		long sent = 0;

		guard(20000);
		while (sent < n) {
			long k = n - sent > 16384 ? 16384 : n - sent;
			ssize_t w, s;

			pat_fill(buf, C.tx + sent, k);
			w = write(p[1], buf, k);
			if (w != k)
				break;
			while (w > 0) {
				s = splice(p[0], NULL, fd, NULL, w, 0);
				if (s <= 0) {
					end = s ? ename(errno) : "zero";
					break;
				}
				w -= s;
				sent += s;
			}
			if (w)
				break;
		}
		guard(0);
		C.tx += sent;
		out("splice_out=%ld", sent);
	}
	out("peer_verify=%s", kv(peer_reply(), "verify"));
	/* nothing to read on a non-blocking socket */
	set_nonblock(fd, true);
	out("splice_nb_empty=%s", RV(splice(fd, NULL, p[1], NULL, 100, 0)));
	(void)calls;
	free(buf);
	close(p[0]);
	close(p[1]);
	close(fd);
}

static const char *sel_str(int fd, int tmo_ms)
{
	fd_set r, w, e;
	struct timeval tv = { tmo_ms / 1000, (tmo_ms % 1000) * 1000 };
	char *b = rbuf();
	int n;

	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_ZERO(&e);
	FD_SET(fd, &r);
	FD_SET(fd, &w);
	FD_SET(fd, &e);
	n = select(fd + 1, &r, &w, &e, &tv);
	snprintf(b, 256, "%d:%s%s%s", n, FD_ISSET(fd, &r) ? "r" : "-", FD_ISSET(fd, &w) ? "w" : "-",
		 FD_ISSET(fd, &e) ? "e" : "-");
	return b;
}

static void case_poll_select(void)
{
	int fd = est();

	out("poll=%s select=%s", pmask(pollfd1(fd, PALL, 0)), sel_str(fd, 0));
	peer("send 10");
	out("poll_data=%s", pmask(wait_mask(fd, PALL, POLLIN, 5000)));
	out("select_data=%s", sel_str(fd, 0));
	out("read=%s", c_read_now(fd, 100, 0));
	out("poll_drained=%s select_drained=%s", pmask(pollfd1(fd, PALL, 0)), sel_str(fd, 0));
	/* select with a timeout on a socket with nothing to read */
	{
		fd_set r;
		struct timeval tv = { 0, 200000 };

		FD_ZERO(&r);
		FD_SET(fd, &r);
		out("select_timeout=%d", select(fd + 1, &r, NULL, NULL, &tv));
	}
	peer("sendoob");
	out("poll_oob=%s", pmask(wait_mask(fd, PALL, POLLPRI, 5000)));
	out("select_oob=%s", sel_str(fd, 0));
	close(fd);
}

static const char *ep_str(int ep, int tmo)
{
	struct epoll_event ev[4];
	int n = epoll_wait(ep, ev, 4, tmo);
	char *b = rbuf();
	char m[200];

	if (n < 0)
		return rv_str(-1, errno);
	if (n == 0)
		return "0";
	snprintf(m, sizeof(m), "%s", emask(ev[0].events));
	snprintf(b, 256, "%d:%s", n, m);
	return b;
}

static void case_epoll_lt(void)
{
	int fd = est(), ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP };

	ev.data.fd = fd;
	out("ctl=%s", RV(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev)));
	out("wait_empty=%s", ep_str(ep, 0));
	peer("send 10");
	out("wait=%s", ep_str(ep, 5000));
	out("wait_again=%s", ep_str(ep, 0));
	out("read5=%s", c_read_now(fd, 5, 0));
	out("wait_partial=%s", ep_str(ep, 0));
	out("read_rest=%s", c_read_now(fd, 100, 0));
	out("wait_drained=%s", ep_str(ep, 100));
	ev.events = EPOLLIN | EPOLLOUT;
	out("mod_out=%s", RV(epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev)));
	out("wait_out=%s", ep_str(ep, 0));
	out("wait_out_again=%s", ep_str(ep, 0));
	close(ep);
	close(fd);
}

static void case_epoll_et(void)
{
	int fd = est(), ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET };

	set_nonblock(fd, true);
	ev.data.fd = fd;
	out("ctl=%s", RV(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev)));
	out("wait_empty=%s", ep_str(ep, 0));
	peer("send 10");
	out("wait=%s", ep_str(ep, 5000));
	out("wait_again=%s", ep_str(ep, 200));
	out("read5=%s", c_read_now(fd, 5, 0));
	out("wait_partial=%s", ep_str(ep, 0));
	out("read_rest=%s", c_read_now(fd, 100, 0));
	out("read_drained=%s", c_read_now(fd, 100, 0));
	out("wait_drained=%s", ep_str(ep, 0));
	peer("send 10");
	out("wait_second=%s", ep_str(ep, 5000));
	out("wait_second_again=%s", ep_str(ep, 0));
	/* a new arrival wakes even when the last one was not read */
	peer("send 10");
	out("wait_third_undrained=%s", ep_str(ep, 5000));
	out("read_all=%s", c_read_now(fd, 100, 0));
	out("read_drained2=%s", c_read_now(fd, 100, 0));
	/* EPOLLOUT edge: reported once on MOD, not again */
	ev.events = EPOLLOUT | EPOLLET;
	out("mod_out=%s", RV(epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev)));
	out("wait_out=%s", ep_str(ep, 0));
	out("wait_out_again=%s", ep_str(ep, 100));
	/* EPOLLONESHOT */
	ev.events = EPOLLIN | EPOLLONESHOT;
	out("mod_oneshot=%s", RV(epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev)));
	peer("send 10");
	out("wait_oneshot=%s", ep_str(ep, 5000));
	out("wait_oneshot_again=%s", ep_str(ep, 0));
	close(ep);
	close(fd);
}

static void case_rdhup_peer_shutdown(void)
{
	int fd = est(), ep = epoll_create1(0), err;
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLRDHUP };
	char c;

	ev.data.fd = fd;
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	out("poll_before=%s", pmask(pollfd1(fd, PALL, 0)));
	out("peer_shutdown=%s", kv(peer("shutdown wr"), "shutdown"));
	out("poll=%s", pmask(wait_mask(fd, PALL, POLLRDHUP, 5000)));
	out("epoll=%s", ep_str(ep, 0));
	out("recv=%s", RV(recv(fd, &c, 1, MSG_DONTWAIT)));
	out("recv_again=%s", RV(recv(fd, &c, 1, MSG_DONTWAIT)));
	out("send=%ld", c_send(fd, 10, MSG_NOSIGNAL, &err));
	out("peer_recv=%s", kv(peer("recv 10"), "verify"));
	out("shutdown_wr=%s", RV(shutdown(fd, SHUT_WR)));
	out("poll_both=%s", pmask(wait_mask(fd, PALL, POLLHUP, 2000)));
	out("epoll_both=%s", ep_str(ep, 0));
	out("peer_eof=%s", kv(peer("eof"), "read"));
	close(ep);
	close(fd);
}

static void case_hup_peer_close(void)
{
	int fd = est(), ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLRDHUP };
	char c;

	ev.data.fd = fd;
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	peer("close");
	out("poll=%s", pmask(wait_mask(fd, PALL, POLLRDHUP, 5000)));
	out("epoll=%s", ep_str(ep, 0));
	out("recv=%s", RV(recv(fd, &c, 1, MSG_DONTWAIT)));
	out("so_error=%s", so_error(fd));
	out("shutdown_wr=%s", RV(shutdown(fd, SHUT_WR)));
	out("poll_after=%s", pmask(wait_mask(fd, PALL, POLLHUP, 2000)));
	out("epoll_after=%s", ep_str(ep, 0));
	close(ep);
	close(fd);
}

static void case_shutdown_wr_halfclose(void)
{
	int fd = est();
	char c = 'x';
	struct rx x;

	out("shutdown_wr=%s", RV(shutdown(fd, SHUT_WR)));
	out("poll=%s", pmask(pollfd1(fd, PALL, 0)));
	out("peer_eof=%s", kv(peer("eof"), "read"));
	out("send=%s", RV(send(fd, &c, 1, MSG_NOSIGNAL)));
	out("sigpipe=%d", (int)sigpipes);
	peer_send("send 65536");
	peer_send("sleep 100");
	peer_send("send 1000");
	peer_send("close");
	x = c_recv(fd, -1, 0);
	out("recv=%s", rx_str(x));
	for (int i = 0; i < 4; i++)
		peer_reply();
	out("poll_end=%s", pmask(pollfd1(fd, PALL, 0)));
	out("shutdown_again=%s", RV(shutdown(fd, SHUT_WR)));
	close(fd);
}

static void case_shutdown_rd(void)
{
	int fd = est(), err;
	char buf[100];

	peer("send 10");
	wait_mask(fd, PALL, POLLIN, 5000);
	settle_inq(fd, 10, 3000);
	out("shutdown_rd=%s", RV(shutdown(fd, SHUT_RD)));
	out("poll=%s", pmask(pollfd1(fd, PALL, 0)));
	out("recv_queued=%s", c_read_now(fd, 100, 0));
	guard(2000);
	out("recv_blocking=%s", RV(recv(fd, buf, sizeof(buf), 0)));
	guard(0);
	out("peer_send=%s", kv(peer("send 10"), "sent"));
	out("inq_after=%s", ioc_str(settle_inq(fd, 10, 1500)));
	out("recv_after=%s", c_read_now(fd, 100, 0));
	out("send=%ld", c_send(fd, 10, MSG_NOSIGNAL, &err));
	out("peer_recv=%s", kv(peer("recv 10"), "verify"));
	out("shutdown_rd_again=%s", RV(shutdown(fd, SHUT_RD)));
	close(fd);
}

static void case_shutdown_rdwr(void)
{
	int fd = est();
	char c = 'x';

	out("shutdown=%s", RV(shutdown(fd, SHUT_RDWR)));
	out("poll=%s", pmask(pollfd1(fd, PALL, 0)));
	out("peer_eof=%s", kv(peer("eof"), "read"));
	out("recv=%s", RV(recv(fd, &c, 1, 0)));
	out("send=%s", RV(send(fd, &c, 1, MSG_NOSIGNAL)));
	out("shutdown_again=%s", RV(shutdown(fd, SHUT_RDWR)));
	peer("close");
	msleep(200);
	out("poll_peer_closed=%s", pmask(pollfd1(fd, PALL, 0)));
	out("shutdown_after_peer_close=%s", RV(shutdown(fd, SHUT_RDWR)));
	out("so_error=%s", so_error(fd));
	out("sigpipe=%d", (int)sigpipes);
	close(fd);
}

struct reader {
	int fd;
	ssize_t r;
	int err;
	volatile int done;
};

static void *reader_main(void *arg)
{
	struct reader *rd = arg;
	char buf[100];

	rd->r = recv(rd->fd, buf, sizeof(buf), 0);
	rd->err = errno;
	rd->done = 1;
	return NULL;
}

static void case_shutdown_wakes_reader(void)
{
	int fd = est();
	struct reader rd = { .fd = fd };
	pthread_t th;
	struct timespec ts;
	int i;

	pthread_create(&th, NULL, reader_main, &rd);
	msleep(300);
	out("blocked=%s", rd.done ? "no" : "yes");
	out("shutdown_rd=%s", RV(shutdown(fd, SHUT_RD)));
	for (i = 0; i < 150 && !rd.done; i++)
		msleep(20);
	out("reader=%s", rd.done ? rv_str(rd.r, rd.err) : "still-blocked");
	if (!rd.done) {
		shutdown(fd, SHUT_RDWR);	/* try harder, then give up */
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 2;
		if (pthread_timedjoin_np(th, NULL, &ts))
			fail("reader thread stays blocked after shutdown(SHUT_RDWR)");
	} else {
		pthread_join(th, NULL);
	}
	close(fd);
}

static void case_close_unread_rst(void)
{
	int fd = est(), err;
	char c;

	out("send=%ld", c_send(fd, 100, MSG_NOSIGNAL, &err));
	out("peer_inq=%s", kv(peer("waitin 100"), "inq"));
	peer("close");
	out("poll=%s", pmask(wait_mask(fd, PALL, POLLERR | POLLHUP, 5000)));
	out("recv=%s", RV(recv(fd, &c, 1, MSG_DONTWAIT)));
	out("recv_again=%s", RV(recv(fd, &c, 1, MSG_DONTWAIT)));
	out("so_error=%s", so_error(fd));
	out("send_after=%s", RV(send(fd, &c, 1, MSG_NOSIGNAL)));
	out("poll_end=%s", pmask(pollfd1(fd, PALL, 0)));
	close(fd);
}

static void case_close_unread_rst_local(void)
{
	int fd = est();
	const char *r;

	peer("send 100");
	wait_mask(fd, PALL, POLLIN, 5000);
	out("inq=%s", ioc_str(settle_inq(fd, 100, 3000)));
	close(fd);
	r = peer("pollwait 1");
	out("peer_poll=%s", kv(r, "poll"));
	out("peer_read=%s", kv(peer("eof"), "read"));
	out("peer_read_again=%s", kv(peer("eof"), "read"));
}

static void case_linger0_rst(void)
{
	int fd = est();
	char c;

	out("peer_linger=%s", kv(peer("linger0"), "linger"));
	peer("close");
	out("poll=%s", pmask(wait_mask(fd, PALL, POLLERR | POLLHUP, 5000)));
	out("so_error=%s", so_error(fd));
	out("recv=%s", RV(recv(fd, &c, 1, MSG_DONTWAIT)));
	out("send=%s", RV(send(fd, &c, 1, MSG_NOSIGNAL)));
	out("poll_end=%s", pmask(pollfd1(fd, PALL, 0)));
	close(fd);
}

static void case_linger0_rst_local(void)
{
	int fd = est();
	struct linger lg = { 1, 0 }, got;
	socklen_t gl = sizeof(got);

	out("set=%s", RV(setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg))));
	memset(&got, 0, sizeof(got));
	out("get=%s", RV(getsockopt(fd, SOL_SOCKET, SO_LINGER, &got, &gl)));
	out("onoff=%d linger=%d", got.l_onoff, got.l_linger);
	out("close=%s", RV(close(fd)));
	out("peer_poll=%s", kv(peer("pollwait 1"), "poll"));
	out("peer_read=%s", kv(peer("eof"), "read"));
}

static void case_peer_close_blocked_read(void)
{
	int fd = est();
	char buf[100];

	peer_send("sleep 300");
	peer_send("close");
	guard(5000);
	out("recv=%s", RV(recv(fd, buf, sizeof(buf), 0)));
	guard(0);
	peer_reply();
	peer_reply();
	/* the same with data before the FIN: data first, then 0 */
	close(fd);
	fd = est();
	peer_send("sleep 300");
	peer_send("send 10");
	peer_send("close");
	guard(5000);
	out("recv_data=%s", RV(recv(fd, buf, 10, MSG_WAITALL)));
	out("recv_eof=%s", RV(recv(fd, buf, sizeof(buf), 0)));
	guard(0);
	for (int i = 0; i < 3; i++)
		peer_reply();
	close(fd);
}

static void case_ioctl_queues(void)
{
	int fd = est(), err;

	out("inq0=%s outq0=%s nsd0=%s", ioc_str(ioc(fd, SIOCINQ)), ioc_str(ioc(fd, SIOCOUTQ)),
	    ioc_str(ioc(fd, SIOCOUTQNSD)));
	peer("send 1000");
	wait_mask(fd, PALL, POLLIN, 5000);
	out("inq=%s", ioc_str(settle_inq(fd, 1000, 3000)));
	out("fionread=%s", ioc_str(ioc(fd, FIONREAD)));
	out("read300=%s", c_read_now(fd, 300, 0));
	out("inq_after_read=%s", ioc_str(ioc(fd, SIOCINQ)));
	out("send=%ld", c_send(fd, 2000, MSG_NOSIGNAL, &err));
	out("peer_inq=%s", kv(peer("waitin 2000"), "inq"));
	settle_outq0(fd, 3000);
	out("outq=%s nsd=%s", ioc_str(ioc(fd, SIOCOUTQ)), ioc_str(ioc(fd, SIOCOUTQNSD)));
	out("peer_recv=%s", kv(peer("recv 2000"), "verify"));
	out("atmark=%s", ioc_str(ioc(fd, SIOCATMARK)));
	close(fd);
}

static void case_nb_send_full(void)
{
	int fd = est_opts(0, 16384), rounds = 0, fl;
	unsigned char *buf = malloc(16384);
	long total = 0;
	ssize_t r = 0;
	const char *rep;

	peer("names");
	set_nonblock(fd, true);
	/* fill until EAGAIN, and again until a 200 ms pause frees nothing */
	for (;;) {
		long before = total;

		for (;;) {
			pat_fill(buf, C.tx, 16384);
			r = send(fd, buf, 16384, MSG_NOSIGNAL);
			if (r <= 0)
				break;
			C.tx += r;
			total += r;
			if (total > (8L << 20))
				break;
		}
		if (total > (8L << 20))
			fail("sent 8 MiB without EAGAIN");
		if (++rounds > 1 && total == before)
			break;
		if (rounds > 40)
			break;
		msleep(200);
	}
	fl = errno;
	out("filled=%s errno=%s", r < 0 ? "yes" : "no", ename(r < 0 ? fl : 0));
	out("poll_full=%s", pmask(pollfd1(fd, PALL, 0)));
	out("send_dontwait=%s", RV(send(fd, buf, 1, MSG_DONTWAIT | MSG_NOSIGNAL)));
	rep = peer("recv %ld", total);
	out("peer_verify=%s peer_all=%s", kv(rep, "verify"),
	    atol(kv(rep, "got")) == total ? "yes" : "no");
	out("poll_drained=%s", pmask(wait_mask(fd, PALL, POLLOUT, 5000)));
	free(buf);
	close(fd);
}

static void case_opt_nodelay_cork(void)
{
	int fd = est(), u = xsock(0), err;

	out("nodelay=%s", get_int(fd, IPPROTO_TCP, TCP_NODELAY));
	out("set_nodelay=%s", RV(set_int(fd, IPPROTO_TCP, TCP_NODELAY, 1)));
	out("nodelay_on=%s", get_int(fd, IPPROTO_TCP, TCP_NODELAY));
	out("set_nodelay5=%s", RV(set_int(fd, IPPROTO_TCP, TCP_NODELAY, 5)));
	out("nodelay5=%s", get_int(fd, IPPROTO_TCP, TCP_NODELAY));
	out("cork=%s", get_int(fd, IPPROTO_TCP, TCP_CORK));
	out("set_cork=%s", RV(set_int(fd, IPPROTO_TCP, TCP_CORK, 1)));
	out("cork_on=%s", get_int(fd, IPPROTO_TCP, TCP_CORK));
	out("send=%ld", c_send(fd, 10, MSG_NOSIGNAL, &err));
	out("set_uncork=%s", RV(set_int(fd, IPPROTO_TCP, TCP_CORK, 0)));
	out("peer_recv=%s", kv(peer("recv 10"), "verify"));
	out("cork_off=%s", get_int(fd, IPPROTO_TCP, TCP_CORK));
	out("unconn_nodelay=%s", get_int(u, IPPROTO_TCP, TCP_NODELAY));
	out("set=%s", RV(set_int(u, IPPROTO_TCP, TCP_NODELAY, 1)));
	out("get=%s", get_int(u, IPPROTO_TCP, TCP_NODELAY));
	out("unconn_cork=%s", get_int(u, IPPROTO_TCP, TCP_CORK));
	out("set=%s", RV(set_int(u, IPPROTO_TCP, TCP_CORK, 1)));
	out("get=%s", get_int(u, IPPROTO_TCP, TCP_CORK));
	out("quickack_set=%s", RV(set_int(fd, IPPROTO_TCP, TCP_QUICKACK, 1)));
	out("short_optlen=%s", RV(setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, "", 1)));
	close(u);
	close(fd);
}

/*
 * Corking: small sends that TCP_CORK, MSG_MORE or autocorking hold back
 * all reach the peer, in order, when the cork is released (uncork,
 * TCP_NODELAY, a send without MSG_MORE, shutdown, close).  That they were
 * held is not visible here (no timing); sockapi_smcr counts smcx's pushes
 * around each of these cases.
 */
#define CORK_N 16
#define CORK_SZ 64

/* @n sends of @sz bytes each: how many sent all of it */
static int c_sends(int fd, int n, long sz, int flags)
{
	int ok = 0, err;

	for (int i = 0; i < n; i++)
		if (c_send(fd, sz, flags | MSG_NOSIGNAL, &err) == sz)
			ok++;
	return ok;
}

static void peer_got(const char *cmd)
{
	const char *r = peer("%s", cmd);

	out("peer_got=%s verify=%s end=%s", kv(r, "got"), kv(r, "verify"),
	    kv(r, "end"));
}

static void case_cork_uncork(void)
{
	int fd = est();

	out("cork=%s", RV(set_int(fd, IPPROTO_TCP, TCP_CORK, 1)));
	out("sends=%d", c_sends(fd, CORK_N, CORK_SZ, 0));
	out("uncork=%s", RV(set_int(fd, IPPROTO_TCP, TCP_CORK, 0)));
	peer_got("recv 1024");
	close(fd);
}

static void case_cork_nodelay(void)
{
	int fd = est();

	out("cork=%s", RV(set_int(fd, IPPROTO_TCP, TCP_CORK, 1)));
	out("sends=%d", c_sends(fd, CORK_N, CORK_SZ, 0));
	out("nodelay=%s", RV(set_int(fd, IPPROTO_TCP, TCP_NODELAY, 1)));
	peer_got("recv 1024");
	out("cork_still=%s", get_int(fd, IPPROTO_TCP, TCP_CORK));
	close(fd);
}

static void case_cork_close(void)
{
	int fd = est();

	out("cork=%s", RV(set_int(fd, IPPROTO_TCP, TCP_CORK, 1)));
	out("sends=%d", c_sends(fd, CORK_N, CORK_SZ, 0));
	out("close=%s", RV(close(fd)));
	peer_got("recvall");
}

static void case_cork_shutdown(void)
{
	int fd = est();

	out("cork=%s", RV(set_int(fd, IPPROTO_TCP, TCP_CORK, 1)));
	out("sends=%d", c_sends(fd, CORK_N, CORK_SZ, 0));
	out("shutdown=%s", RV(shutdown(fd, SHUT_WR)));
	peer_got("recvall");
	close(fd);
}

static void case_msg_more(void)
{
	int fd = est();

	out("sends_more=%d", c_sends(fd, CORK_N - 1, CORK_SZ, MSG_MORE));
	out("send=%d", c_sends(fd, 1, CORK_SZ, 0));
	peer_got("recv 1024");
	close(fd);
}

static void case_msg_more_close(void)
{
	int fd = est();

	out("sends_more=%d", c_sends(fd, CORK_N, CORK_SZ, MSG_MORE));
	out("close=%s", RV(close(fd)));
	peer_got("recvall");
}

/* many small sends, no flags: autocorking may join them, nothing is lost */
static void case_autocork(void)
{
	int fd = est();

	out("sends=%d", c_sends(fd, 256, 8, 0));
	peer_got("recv 2048");
	close(fd);
}

static void case_opt_keepalive(void)
{
	int fd = est();

	out("keepalive=%s", get_int(fd, SOL_SOCKET, SO_KEEPALIVE));
	out("set=%s", RV(set_int(fd, SOL_SOCKET, SO_KEEPALIVE, 1)));
	out("keepalive_on=%s", get_int(fd, SOL_SOCKET, SO_KEEPALIVE));
	out("idle=%s intvl=%s cnt=%s", get_int(fd, IPPROTO_TCP, TCP_KEEPIDLE),
	    get_int(fd, IPPROTO_TCP, TCP_KEEPINTVL), get_int(fd, IPPROTO_TCP, TCP_KEEPCNT));
	out("set_idle=%s set_intvl=%s set_cnt=%s", RV(set_int(fd, IPPROTO_TCP, TCP_KEEPIDLE, 30)),
	    RV(set_int(fd, IPPROTO_TCP, TCP_KEEPINTVL, 5)),
	    RV(set_int(fd, IPPROTO_TCP, TCP_KEEPCNT, 3)));
	out("idle=%s intvl=%s cnt=%s", get_int(fd, IPPROTO_TCP, TCP_KEEPIDLE),
	    get_int(fd, IPPROTO_TCP, TCP_KEEPINTVL), get_int(fd, IPPROTO_TCP, TCP_KEEPCNT));
	out("bad_idle=%s bad_cnt=%s", RV(set_int(fd, IPPROTO_TCP, TCP_KEEPIDLE, 0)),
	    RV(set_int(fd, IPPROTO_TCP, TCP_KEEPCNT, 1000)));
	out("user_timeout_set=%s", RV(set_int(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, 10000)));
	out("get=%s", get_int(fd, IPPROTO_TCP, TCP_USER_TIMEOUT));
	out("keepalive_off=%s", RV(set_int(fd, SOL_SOCKET, SO_KEEPALIVE, 0)));
	out("get=%s", get_int(fd, SOL_SOCKET, SO_KEEPALIVE));
	close(fd);
}

static void case_opt_bufsizes(void)
{
	int u = xsock(0), fd;

	known("default_sndbuf=%s default_rcvbuf=%s", get_int(u, SOL_SOCKET, SO_SNDBUF),
	      get_int(u, SOL_SOCKET, SO_RCVBUF));
	out("set_sndbuf=%s", RV(set_int(u, SOL_SOCKET, SO_SNDBUF, 65536)));
	out("get=%s", get_int(u, SOL_SOCKET, SO_SNDBUF));
	out("set_rcvbuf=%s", RV(set_int(u, SOL_SOCKET, SO_RCVBUF, 65536)));
	out("get=%s", get_int(u, SOL_SOCKET, SO_RCVBUF));
	out("set_sndbuf_tiny=%s", RV(set_int(u, SOL_SOCKET, SO_SNDBUF, 1)));
	out("get=%s", get_int(u, SOL_SOCKET, SO_SNDBUF));
	out("set_rcvbuf_tiny=%s", RV(set_int(u, SOL_SOCKET, SO_RCVBUF, 1)));
	out("get=%s", get_int(u, SOL_SOCKET, SO_RCVBUF));
	out("set_sndbuf_neg=%s", RV(set_int(u, SOL_SOCKET, SO_SNDBUF, -5)));
	out("get=%s", get_int(u, SOL_SOCKET, SO_SNDBUF));
	close(u);
	/* set before connect: still what was set once connected */
	fd = est_opts(100000, 50000);
	out("connected_sndbuf=%s connected_rcvbuf=%s", get_int(fd, SOL_SOCKET, SO_SNDBUF),
	    get_int(fd, SOL_SOCKET, SO_RCVBUF));
	out("set_connected=%s", RV(set_int(fd, SOL_SOCKET, SO_SNDBUF, 32768)));
	out("get=%s", get_int(fd, SOL_SOCKET, SO_SNDBUF));
	close(fd);
}

static void case_opt_timeouts(void)
{
	int fd = est();
	struct timeval tv = { 0, 500000 }, got;
	socklen_t gl = sizeof(got);
	long long t0;
	char buf[10];
	ssize_t r;

	memset(&got, 0, sizeof(got));
	out("rcvtimeo_get=%s", RV(getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &got, &gl)));
	out("rcvtimeo_default=%ld.%06ld", (long)got.tv_sec, (long)got.tv_usec);
	out("set_rcvtimeo=%s", RV(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))));
	gl = sizeof(got);
	getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &got, &gl);
	out("rcvtimeo=%ld.%06ld", (long)got.tv_sec, (long)got.tv_usec);
	guard(5000);
	t0 = now_ms();
	r = recv(fd, buf, sizeof(buf), 0);
	t0 = now_ms() - t0;
	guard(0);
	out("recv=%s waited=%s", rv_str(r, errno), t0 >= 400 && t0 < 2000 ? "0.5s" : "WRONG");
	/* data arriving within the timeout is returned */
	peer_send("sleep 100");
	peer_send("send 10");
	guard(5000);
	r = recv(fd, buf, sizeof(buf), MSG_WAITALL);
	guard(0);
	out("recv_data=%s", rv_str(r, errno));
	peer_reply();
	peer_reply();
	tv.tv_sec = 1;
	tv.tv_usec = 250000;
	out("set_sndtimeo=%s", RV(setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv))));
	gl = sizeof(got);
	getsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &got, &gl);
	out("sndtimeo=%ld.%06ld", (long)got.tv_sec, (long)got.tv_usec);
	tv.tv_usec = 2000000;
	out("set_bad=%s", RV(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))));
	close(fd);
}

static void case_opt_misc(void)
{
	int fd = est(), u = xsock(0), l = c_listen(base_port + 3, 4, true, 0);
	struct tcp_info ti;
	socklen_t tl = sizeof(ti);
	char cc[32] = "";
	socklen_t cl = sizeof(cc);

	out("type=%s", get_int(fd, SOL_SOCKET, SO_TYPE));
	out("error=%s", so_error(fd));
	out("acceptconn=%s listener_acceptconn=%s unconn_acceptconn=%s",
	    get_int(fd, SOL_SOCKET, SO_ACCEPTCONN), get_int(l, SOL_SOCKET, SO_ACCEPTCONN),
	    get_int(u, SOL_SOCKET, SO_ACCEPTCONN));
	known("domain=%s protocol=%s listener_domain=%s", get_int(fd, SOL_SOCKET, SO_DOMAIN),
	      get_int(fd, SOL_SOCKET, SO_PROTOCOL), get_int(l, SOL_SOCKET, SO_DOMAIN));
	out("rcvlowat=%s", get_int(fd, SOL_SOCKET, SO_RCVLOWAT));
	out("reuseaddr=%s reuseport=%s", get_int(fd, SOL_SOCKET, SO_REUSEADDR),
	    get_int(fd, SOL_SOCKET, SO_REUSEPORT));
	out("oobinline=%s dontroute=%s broadcast=%s", get_int(fd, SOL_SOCKET, SO_OOBINLINE),
	    get_int(fd, SOL_SOCKET, SO_DONTROUTE), get_int(fd, SOL_SOCKET, SO_BROADCAST));
	memset(&ti, 0, sizeof(ti));
	out("tcp_info=%s", RV(getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &tl)));
	out("state=%d", ti.tcpi_state);
	out("maxseg=%s", get_int(fd, IPPROTO_TCP, TCP_MAXSEG));
	out("congestion=%s", RV(getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, &cl)));
	out("name=%s", cc);
	out("unconn_maxseg=%s", get_int(u, IPPROTO_TCP, TCP_MAXSEG));
	memset(&ti, 0, sizeof(ti));
	tl = sizeof(ti);
	out("unconn_tcp_info=%s", RV(getsockopt(u, IPPROTO_TCP, TCP_INFO, &ti, &tl)));
	out("state=%d", ti.tcpi_state);
	memset(&ti, 0, sizeof(ti));
	tl = sizeof(ti);
	out("listener_tcp_info=%s", RV(getsockopt(l, IPPROTO_TCP, TCP_INFO, &ti, &tl)));
	out("state=%d", ti.tcpi_state);
	out("bad_level=%s", get_int(fd, 9999, 1));
	out("bad_opt=%s", get_int(fd, SOL_SOCKET, 9999));
	out("bad_tcp_opt=%s", get_int(fd, IPPROTO_TCP, 9999));
	out("fionbio=%s", RV(ioctl(fd, FIONBIO, &(int){ 1 })));
	out("flags=%s", fl_str(fd));
	close(l);
	close(u);
	close(fd);
}

static void case_so_rcvlowat(void)
{
	int fd = est();
	char buf[100];
	ssize_t r;

	out("set=%s", RV(set_int(fd, SOL_SOCKET, SO_RCVLOWAT, 20)));
	out("get=%s", get_int(fd, SOL_SOCKET, SO_RCVLOWAT));
	peer("send 10");
	msleep(300);
	out("poll_below=%s", pmask(pollfd1(fd, PALL, 0)));
	peer_send("sleep 200");
	peer_send("send 15");
	guard(5000);
	r = recv(fd, buf, sizeof(buf), 0);
	guard(0);
	out("recv=%s", rv_str(r, errno));
	peer_reply();
	peer_reply();
	close(fd);
}

struct kase {
	const char *name;
	void (*fn)(void);
};

#define K(n) { #n, case_##n }
static const struct kase cases[] = {
	K(bind_port0),
	K(reuseaddr_rebind),
	K(listen_backlog),
	K(accept_blocking),
	K(accept_nonblocking),
	K(accept4_flags),
	K(connect_blocking),
	K(connect_nonblocking),
	K(connect_nb_refused),
	K(connect_refused),
	K(connect_timeout),
	K(shutdown_connecting),
	K(names),
	K(unconnected_ops),
	K(send_recv_small),
	K(bulk_4m),
	K(msg_dontwait),
	K(msg_peek),
	K(msg_trunc),
	K(msg_waitall),
	K(msg_nosignal_epipe),
	K(sigpipe),
	K(msg_oob),
	K(msg_oob_mark),
	K(readv_writev),
	K(sendfile),
	K(splice),
	K(poll_select),
	K(epoll_lt),
	K(epoll_et),
	K(rdhup_peer_shutdown),
	K(hup_peer_close),
	K(shutdown_wr_halfclose),
	K(shutdown_rd),
	K(shutdown_rdwr),
	K(shutdown_wakes_reader),
	K(close_unread_rst),
	K(close_unread_rst_local),
	K(linger0_rst),
	K(linger0_rst_local),
	K(peer_close_blocked_read),
	K(ioctl_queues),
	K(nb_send_full),
	K(opt_nodelay_cork),
	K(cork_uncork),
	K(cork_nodelay),
	K(cork_close),
	K(cork_shutdown),
	K(msg_more),
	K(msg_more_close),
	K(autocork),
	K(opt_keepalive),
	K(opt_bufsizes),
	K(opt_timeouts),
	K(opt_misc),
	K(so_rcvlowat),
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static int ctl_connect(void)
{
	struct sockaddr_storage sa;
	socklen_t len = with_port(&sa, &srv_ip, base_port + 1);
	int fd = socket(ipfam(), SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	guard(10000);
	if (connect(fd, (void *)&sa, len) < 0) {
		guard(0);
		close(fd);
		return -1;
	}
	guard(0);
	return fd;
}

static void case_child(const struct kase *k)
{
	socklen_t len = sizeof(C.local);
	char line[256];
	int r;

	handle(SIGALRM, on_alarm);
	handle(SIGPIPE, on_sigpipe);
	handle(SIGURG, on_sigurg);
	memset(&C, 0, sizeof(C));
	C.name = k->name;
	C.ctl.fd = ctl_connect();
	if (C.ctl.fd < 0)
		fail("control connection to the server: %s", ename(errno));
	getsockname(C.ctl.fd, (void *)&C.local, &len);
	peer_send("case %s", k->name);
	r = lr_line(&C.ctl, line, sizeof(line), HELLO_TIMEOUT_MS);
	if (r <= 0 || strcmp(line, "ok hello"))
		fail("server did not take the case (%s)", r == 0 ? "timeout" : r < 0 ? "closed" : line);
	k->fn();
	if (sigpipes)
		out("sigpipes_total=%d", (int)sigpipes);
	peer("end");
	_exit(0);
}

/* Run one case in a child; print its line.  Returns 0 if it did not FAIL. */
static int run_case(const struct kase *k)
{
	long long end = now_ms() + CASE_TIMEOUT_MS;
	int status = 0;
	bool timeout = false;
	pid_t pid;

	memset(sh, 0, sizeof(*sh));
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("case %s: FAIL fork: %s\n", k->name, strerror(errno));
		return 1;
	}
	if (pid == 0)
		case_child(k);
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (now_ms() >= end) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			timeout = true;
			break;
		}
		msleep(10);
	}
	sh->res[sizeof(sh->res) - 1] = 0;
	sh->known[sizeof(sh->known) - 1] = 0;
	sh->fail[sizeof(sh->fail) - 1] = 0;
	if (timeout || sh->fail[0] || !WIFEXITED(status) || WEXITSTATUS(status)) {
		char why[1100];

		if (timeout)
			snprintf(why, sizeof(why), "timeout after %d s", CASE_TIMEOUT_MS / 1000);
		else if (sh->fail[0])
			snprintf(why, sizeof(why), "%s", sh->fail);
		else if (WIFSIGNALED(status))
			snprintf(why, sizeof(why), "killed by %s", sigabbrev_np(WTERMSIG(status)));
		else
			snprintf(why, sizeof(why), "exit %d", WEXITSTATUS(status));
		printf("case %s: FAIL %s | partial: %s\n", k->name, why, sh->res);
		fflush(stdout);
		return 1;
	}
	printf("case %s: %s", k->name, sh->res);
	if (sh->known[0])
		printf(" | known-different: %s", sh->known);
	printf("\n");
	fflush(stdout);
	return 0;
}

static int client_main(const char *only)
{
	int failed = 0, ran = 0;
	size_t i;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	printf("# sockapi client: family %s\n", fam->name);
	for (i = 0; i < NCASES; i++) {
		if (only) {
			char pad[1024];

			snprintf(pad, sizeof(pad), ",%s,", only);
			char name[160];

			snprintf(name, sizeof(name), ",%s,", cases[i].name);
			if (!strstr(pad, name))
				continue;
		}
		failed += run_case(&cases[i]);
		ran++;
	}
	printf("# sockapi client: %d case(s), %d FAIL\n", ran, failed);
	return ran ? 0 : 2;
}

static int quit_server(void)
{
	int fd = ctl_connect();
	char line[64];
	struct lr r;

	if (fd < 0) {
		fprintf(stderr, "sockapi: cannot reach the server: %s\n", strerror(errno));
		return 1;
	}
	r.fd = fd;
	r.n = 0;
	send(fd, "case __quit\n", 12, MSG_NOSIGNAL);
	lr_line(&r, line, sizeof(line), 10000);
	close(fd);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: sockapi server -f FAMILY -p PORT\n"
		"       sockapi client -f FAMILY -a ADDR -p PORT [-c CASE[,CASE..]] [-u SILENT]\n"
		"       sockapi quit -f FAMILY -a ADDR -p PORT\n"
		"       sockapi probe -f FAMILY\n"
		"       sockapi list\n"
		"FAMILY: tcp tcp6 smc smc6 ipproto_smc ipproto_smc6\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *mode, *addr = NULL, *only = NULL, *silent = NULL, *fname = "tcp";
	size_t i;
	int opt;

	if (argc < 2)
		usage();
	mode = argv[1];
	if (!strcmp(mode, "list")) {
		for (i = 0; i < NCASES; i++)
			printf("%s\n", cases[i].name);
		return 0;
	}
	optind = 2;
	while ((opt = getopt(argc, argv, "f:a:p:c:u:")) != -1) {
		switch (opt) {
		case 'f': fname = optarg; break;
		case 'a': addr = optarg; break;
		case 'p': base_port = atoi(optarg); break;
		case 'c': only = optarg; break;
		case 'u': silent = optarg; break;
		default: usage();
		}
	}
	fam = fam_find(fname);
	if (!fam) {
		fprintf(stderr, "sockapi: unknown family %s\n", fname);
		usage();
	}
	if (!strcmp(mode, "probe")) {
		int fd = fsock(0);

		if (fd < 0) {
			printf("probe %s: socket=%s\n", fam->name, rv_str(-1, errno));
			return 1;
		}
		printf("probe %s: socket=ok domain=%s protocol=%s\n", fam->name,
		       get_int(fd, SOL_SOCKET, SO_DOMAIN), get_int(fd, SOL_SOCKET, SO_PROTOCOL));
		close(fd);
		return 0;
	}
	if (base_port <= 0 || base_port > 65530)
		usage();
	if (!strcmp(mode, "server"))
		return server_main();
	if (!addr || parse_ip(addr, &srv_ip) < 0) {
		fprintf(stderr, "sockapi: bad or missing server address\n");
		usage();
	}
	if (!strcmp(mode, "quit"))
		return quit_server();
	if (strcmp(mode, "client"))
		usage();
	if (silent) {
		if (parse_ip(silent, &silent_ip) < 0)
			usage();
		silent2_ip = silent_ip;
	} else {
		/* the same /24 as the server, host .99: on the wire, nobody */
		char s[64];
		int a, b, c, d;

		if (sscanf(addr, "%d.%d.%d.%d", &a, &b, &c, &d) != 4)
			usage();
		snprintf(s, sizeof(s), "%d.%d.%d.99", a, b, c);
		parse_ip(s, &silent_ip);
		snprintf(s, sizeof(s), "%d.%d.%d.98", a, b, c);
		parse_ip(s, &silent2_ip);
	}
	return client_main(only);
}
