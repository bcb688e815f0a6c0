// SPDX-License-Identifier: GPL-2.0
#include "addr.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>

namespace smcctl {

namespace {

constexpr std::array<std::uint8_t, 12> v4_mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

} // namespace

std::optional<ParsedAddr> parse_addr(std::string_view text) {
    const std::string s(text);
    ParsedAddr a;
    in_addr v4{};
    if (inet_pton(AF_INET, s.c_str(), &v4) == 1) {
        std::copy(v4_mapped.begin(), v4_mapped.end(), a.bytes.begin());
        std::memcpy(a.bytes.data() + 12, &v4, 4);
        a.family = AF_INET;
        return a;
    }
    if (inet_pton(AF_INET6, s.c_str(), a.bytes.data()) == 1) {
        a.family = AF_INET6;
        return a;
    }
    return std::nullopt;
}

bool is_v4_mapped(std::span<const std::uint8_t> b) {
    return b.size() == 16 && std::equal(v4_mapped.begin(), v4_mapped.end(), b.begin());
}

std::string addr_text(std::span<const std::uint8_t> b) {
    if (b.size() != 16)
        return "?";
    Addr16 a{};
    std::copy(b.begin(), b.end(), a.begin());
    return addr_text(a, is_v4_mapped(b) ? AF_INET : AF_INET6);
}

std::string addr_text(const Addr16& b, int family) {
    char buf[INET6_ADDRSTRLEN] = {};
    if (family == AF_INET)
        inet_ntop(AF_INET, b.data() + 12, buf, sizeof(buf));
    else
        inet_ntop(AF_INET6, b.data(), buf, sizeof(buf));
    return buf;
}

std::variant<HostPort, SplitError> split_host_port(std::string_view s) {
    HostPort hp;
    if (!s.empty() && s.front() == '[') {
        const auto close = s.find(']');
        if (close == std::string_view::npos)
            return SplitError::no_close;
        hp.host = s.substr(1, close - 1);
        const auto rest = s.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':')
                return SplitError::junk_after_close;
            hp.port = std::string(rest.substr(1));
        }
    } else if (std::count(s.begin(), s.end(), ':') == 1) {
        const auto colon = s.find(':');
        hp.host = s.substr(0, colon);
        hp.port = std::string(s.substr(colon + 1));
    } else {
        hp.host = s;
    }
    return hp;
}

} // namespace smcctl
