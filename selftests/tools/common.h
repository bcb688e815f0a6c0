/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common.h: what the socket tools here (closer, hold, pingpong, sockapi,
 * uring_socket, xfer) share: the socket kinds that -f FAMILY names, whole
 * buffers in and out of a stream socket, and a sockaddr from an address
 * literal and a port.  Static inline functions only, so every tool stays a
 * single .c file that the Makefile builds without a rule of its own.
 */
#ifndef TOOLS_COMMON_H
#define TOOLS_COMMON_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

#ifndef AF_SMC
#define AF_SMC 43
#endif
#ifndef IPPROTO_SMC
#define IPPROTO_SMC 256
#endif

/* a socket kind: socket(domain, SOCK_STREAM, proto), addressed in addr_family */
struct fam {
	const char *name;
	int domain, proto, addr_family;
};

/*
 * The socket kind called @name, or NULL: tcp, tcp6, smc (AF_SMC with
 * SMCPROTO_SMC), smc6 (SMCPROTO_SMC6), ipproto_smc and ipproto_smc6
 * (AF_INET or AF_INET6 with IPPROTO_SMC).
 */
static inline const struct fam *fam_find(const char *name)
{
	static const struct fam fams[] = {
		{ "tcp", AF_INET, 0, AF_INET },
		{ "tcp6", AF_INET6, 0, AF_INET6 },
		{ "smc", AF_SMC, 0, AF_INET },
		{ "smc6", AF_SMC, 1, AF_INET6 },
		{ "ipproto_smc", AF_INET, IPPROTO_SMC, AF_INET },
		{ "ipproto_smc6", AF_INET6, IPPROTO_SMC, AF_INET6 },
	};

	for (size_t i = 0; i < sizeof(fams) / sizeof(fams[0]); i++)
		if (!strcmp(name, fams[i].name))
			return &fams[i];
	return NULL;
}

/* Send all @len bytes (no SIGPIPE); 0, or -1 with errno set. */
static inline int write_all(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len) {
		ssize_t n = send(fd, c, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Receive exactly @len bytes; 0, or -1 with errno set (0 on an early EOF). */
static inline int read_all(int fd, void *p, size_t len)
{
	char *c = p;

	while (len) {
		ssize_t n = recv(fd, c, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = 0;
			return -1;
		}
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Fill @ss and @len with @addr (an IPv4 or IPv6 literal of @family; NULL
 * for the any address) and @port.  0, or -1 if @addr does not parse.
 */
static inline int make_addr(struct sockaddr_storage *ss, socklen_t *len, int family,
			    const char *addr, int port)
{
	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
		*len = sizeof(*sin);
		if (addr && inet_pton(AF_INET, addr, &sin->sin_addr) != 1)
			return -1;
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*sin6);
		if (addr && inet_pton(AF_INET6, addr, &sin6->sin6_addr) != 1)
			return -1;
	}
	return 0;
}

#endif
