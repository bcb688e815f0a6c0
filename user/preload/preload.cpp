// SPDX-License-Identifier: GPL-2.0
// libsmc-preload.so: with LD_PRELOAD, socket(AF_INET{,6}, SOCK_STREAM, 0 or
// IPPROTO_TCP) becomes an SMC socket: AF_SMC (SMCPROTO_SMC{,6}) or, with
// SMC_PRELOAD_MODE=ipproto, the same family with IPPROTO_SMC.  Addresses stay
// sockaddr_in/_in6 either way, so the program does not notice.
//
// Environment (read once, at load, before the program's threads exist):
//   SMC_PRELOAD_MODE   afsmc (default) | ipproto
//   SMC_SNDBUF         SO_SNDBUF for converted sockets (bytes, K/M suffix)
//   SMC_RCVBUF         SO_RCVBUF for converted sockets
//   SMC_DEBUG          1: one line on stderr per converted socket
//
// Rules: everything that is not an inet TCP stream socket is passed through
// untouched; if the kernel refuses the SMC socket (no SMC module, no IPv6,
// no IPPROTO_SMC before Linux 6.11) the original socket() is made instead,
// so a program never fails because of us.  The hot path allocates nothing,
// takes no lock and keeps errno as the real call leaves it; the real socket()
// is found with dlsym(RTLD_NEXT) in the constructor, and a call that arrives
// before it (another library's constructor) goes straight to the system
// call.  The environment is inherited, so children, including exec'd ones,
// are converted too.
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "preload_policy.hpp"

using namespace smcx::preload;

namespace {

using socket_fn = int (*)(int, int, int);

std::atomic<socket_fn> real_socket{nullptr};
Config cfg;

int call_real(int domain, int type, int protocol) {
    socket_fn f = real_socket.load(std::memory_order_acquire);
    if (f)
        return f(domain, type, protocol);
    return static_cast<int>(::syscall(SYS_socket, domain, type, protocol));
}

void debug_line(const char* fmt, int a, int b, int c, int fd) {
    char buf[160];
    int n = std::snprintf(buf, sizeof(buf), fmt, a, b, c, fd);
    if (n > 0) {
        const int saved = errno;
        ssize_t w = ::write(2, buf, static_cast<size_t>(n) < sizeof(buf) ? n : sizeof(buf) - 1);
        (void)w;
        errno = saved;
    }
}

__attribute__((constructor)) void smc_preload_init() {
    Mode m;
    const char* mode = std::getenv("SMC_PRELOAD_MODE");
    if (parse_mode(mode, m))
        cfg.mode = m;
    else
        std::fprintf(stderr, "libsmc-preload: unknown SMC_PRELOAD_MODE '%s', using afsmc\n", mode);
    int v;
    if (parse_size(std::getenv("SMC_SNDBUF"), v))
        cfg.sndbuf = v;
    if (parse_size(std::getenv("SMC_RCVBUF"), v))
        cfg.rcvbuf = v;
    const char* d = std::getenv("SMC_DEBUG");
    cfg.debug = d && *d && std::strcmp(d, "0") != 0;
    real_socket.store(reinterpret_cast<socket_fn>(::dlsym(RTLD_NEXT, "socket")),
                      std::memory_order_release);
}

} // namespace

extern "C" __attribute__((visibility("default"))) int socket(int domain, int type, int protocol) {
    const Call c{domain, type, protocol};
    if (!is_tcp(c))
        return call_real(domain, type, protocol);

    const Call s = smc_call(c, cfg.mode);
    const int saved = errno;
    int fd = call_real(s.domain, s.type, s.protocol);
    if (fd < 0) {
        if (cfg.debug)
            debug_line("libsmc-preload: SMC socket(%d, %d, %d) failed (errno %d), using TCP\n",
                       s.domain, s.type, s.protocol, errno);
        errno = saved;
        return call_real(domain, type, protocol);
    }
    if (cfg.sndbuf)
        ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &cfg.sndbuf, sizeof(cfg.sndbuf));
    if (cfg.rcvbuf)
        ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &cfg.rcvbuf, sizeof(cfg.rcvbuf));
    errno = saved;
    if (cfg.debug)
        debug_line("libsmc-preload: socket(%d, %d, %d) -> SMC fd %d\n", domain, type, protocol, fd);
    return fd;
}
