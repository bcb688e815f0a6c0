// SPDX-License-Identifier: GPL-2.0
// IP addresses as the tool reads and writes them: text to the kernel's 16-byte form (IPv6 as
// is, IPv4 v4-mapped) and back, and the split of "HOST[:PORT]" and "[V6][:PORT]" into their
// parts.  Pure functions, for the tests.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace smcctl {

// An address as the kernel keeps it: IPv6, or IPv4 as ::ffff:a.b.c.d.
using Addr16 = std::array<std::uint8_t, 16>;

struct ParsedAddr {
    Addr16 bytes{};
    int family = 0; // AF_INET or AF_INET6: the family the text spells

    bool operator==(const ParsedAddr&) const = default;
};

// "10.1.2.3" (dotted quad) or "fd00::1" (any IPv6 spelling inet_pton takes, including
// "::ffff:10.1.2.3", which stays AF_INET6); nullopt for anything else.
std::optional<ParsedAddr> parse_addr(std::string_view text);

// Whether 16 bytes hold an IPv4 address v4-mapped.
bool is_v4_mapped(std::span<const std::uint8_t> b);

// 16 bytes as text: the IPv4 address when v4-mapped, else IPv6 ("fd00::1"); "?" when the
// span is not 16 bytes long.
std::string addr_text(std::span<const std::uint8_t> b);
// 16 bytes as text in a family: AF_INET, the last four bytes; any other, IPv6 of all 16
// (so "::ffff:10.0.0.1" stays as the text spelled it).
std::string addr_text(const Addr16& b, int family);

// The parts of "HOST", "HOST:PORT", "[HOST]" or "[HOST]:PORT".  Without brackets, text with
// exactly one ':' splits there; with none or more than one it is all host (a bare IPv6
// address).  Neither part is checked: the host may be empty or a name.
struct HostPort {
    std::string host;
    std::optional<std::string> port; // the text after the ':', as given (possibly empty)

    bool operator==(const HostPort&) const = default;
};

enum class SplitError : std::uint8_t {
    no_close,         // "[" without "]"
    junk_after_close, // "]" followed by something other than ":"
};

std::variant<HostPort, SplitError> split_host_port(std::string_view s);

} // namespace smcctl
