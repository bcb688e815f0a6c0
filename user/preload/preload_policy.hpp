// SPDX-License-Identifier: GPL-2.0
// The decisions of libsmc-preload.so, free of any system call so that the unit
// tests can check them: which socket() calls become SMC, and how.
#pragma once

#include <cstddef>

namespace smcx::preload {

enum class Mode { afsmc, ipproto };

inline constexpr int af_smc = 43;       // AF_SMC
inline constexpr int smcproto_smc = 0;  // SMCPROTO_SMC: IPv4 addresses
inline constexpr int smcproto_smc6 = 1; // SMCPROTO_SMC6: IPv6 addresses
inline constexpr int ipproto_smc = 256; // IPPROTO_SMC (Linux 6.11+)

struct Call {
    int domain;
    int type;
    int protocol;
};

// Configuration read once from the environment (see parse_*).
struct Config {
    Mode mode = Mode::afsmc;
    int sndbuf = 0; // 0: leave the default
    int rcvbuf = 0;
    bool debug = false;
};

// Is this a TCP stream socket of an inet family (the only kind we convert)?
bool is_tcp(const Call& c) noexcept;

// The socket() call that makes the SMC equivalent of @c in @mode.
Call smc_call(const Call& c, Mode mode) noexcept;

// "afsmc" / "ipproto" (also "af_smc", "ipproto_smc", "256"); null/empty: afsmc.
// Returns false for anything else.
bool parse_mode(const char* s, Mode& out) noexcept;

// A positive byte count with an optional K/M/G suffix (binary); false if
// malformed, zero, or above INT_MAX / 2 (what SO_*BUF accept).
bool parse_size(const char* s, int& out) noexcept;

} // namespace smcx::preload
