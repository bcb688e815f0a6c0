// SPDX-License-Identifier: GPL-2.0
#include "preload_policy.hpp"

#include <climits>
#include <netinet/in.h>
#include <sys/socket.h>

namespace smcx::preload {

namespace {
bool same(const char* a, const char* b) noexcept {
    while (*a && *a == *b) {
        ++a;
        ++b;
    }
    return *a == *b;
}
} // namespace

bool is_tcp(const Call& c) noexcept {
    if (c.domain != AF_INET && c.domain != AF_INET6)
        return false;
    // SOCK_NONBLOCK / SOCK_CLOEXEC ride along in the type
    if ((c.type & 0xf) != SOCK_STREAM)
        return false;
    return c.protocol == 0 || c.protocol == IPPROTO_TCP;
}

Call smc_call(const Call& c, Mode mode) noexcept {
    if (mode == Mode::ipproto)
        return {c.domain, c.type, ipproto_smc};
    return {af_smc, c.type, c.domain == AF_INET6 ? smcproto_smc6 : smcproto_smc};
}

bool parse_mode(const char* s, Mode& out) noexcept {
    if (!s || !*s || same(s, "afsmc") || same(s, "af_smc") || same(s, "AF_SMC")) {
        out = Mode::afsmc;
        return true;
    }
    if (same(s, "ipproto") || same(s, "ipproto_smc") || same(s, "IPPROTO_SMC") || same(s, "256")) {
        out = Mode::ipproto;
        return true;
    }
    return false;
}

bool parse_size(const char* s, int& out) noexcept {
    if (!s || !*s)
        return false;
    unsigned long long v = 0;
    const char* p = s;
    for (; *p >= '0' && *p <= '9'; ++p) {
        v = v * 10 + static_cast<unsigned>(*p - '0');
        if (v > INT_MAX)
            return false;
    }
    if (p == s)
        return false;
    unsigned shift = 0;
    switch (*p) {
    case '\0':
        break;
    case 'k':
    case 'K':
        shift = 10;
        ++p;
        break;
    case 'm':
    case 'M':
        shift = 20;
        ++p;
        break;
    case 'g':
    case 'G':
        shift = 30;
        ++p;
        break;
    default:
        return false;
    }
    if (*p == 'i' || *p == 'B' || *p == 'b') // KiB / KB
        ++p;
    if (*p == 'B' || *p == 'b')
        ++p;
    if (*p)
        return false;
    v <<= shift;
    if (v == 0 || v > INT_MAX / 2)
        return false;
    out = static_cast<int>(v);
    return true;
}

} // namespace smcx::preload
