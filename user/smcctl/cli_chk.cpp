// SPDX-License-Identifier: GPL-2.0
// smc_chk: connect, serve, or look up a PNET ID, and tell whether SMC is used.
#include <charconv>

#include <arpa/inet.h>

#include "addr.hpp"
#include "cli_parse.hpp"
#include "names.hpp"

namespace smcctl::cli {

namespace {

// The usage text below names the defaults.
static_assert(chk_default_port == 37373 && chk_default_timeout == 10);

constexpr OptSpec chk_opts[] = {
    {"connect", 'C', true, "ADDRESS",
     "connect to a server over AF_SMC and report whether\n"
     "the connection uses SMC-R/SMC-D or fell back to TCP"},
    {"server", 'S', false, {}, "run an AF_SMC server that reports each connection"},
    {"pnetid", 'i', true, "IFACE", "show the PNET ID of an interface"},
    {"port", 'p', true, "PORT",
     "port to connect to or listen on (default 37373;\n"
     "-S takes the next free port if it is in use)"},
    {"ipv6", '6', false, {}, "use IPv6"},
    {"timeout", 't', true, "SECONDS", "-C: give up after this long (default 10)"},
    {"count", 'n', true, "N", "-S: stop after N connections"},
    {"debug", 'd', false, {}, "also the addresses, the link and the link group"},
    {"json", 'j', false, {}, "JSON output"},
    {"version", 'v', false, {}, "show the version"},
    {"help", 'h', false, {}, "this text"},
};
constexpr OptionSet chk_set{chk_opts, 25};

// The options as given, before they are checked against each other.
struct ChkArgs {
    std::optional<std::string> connect, port, pnetid_if, timeout, count;
    bool server = false, ipv6 = false;
    CommonOptions common;

    void apply(const Context& c, char id, std::optional<std::string> value) {
        if (common.apply(c, id))
            return;
        switch (id) {
        case 'C':
            connect = std::move(value);
            break;
        case 'S':
            server = true;
            break;
        case 'p':
            port = std::move(value);
            break;
        case 'i':
            pnetid_if = std::move(value);
            break;
        case '6':
            ipv6 = true;
            break;
        case 'd':
            add_detail(c.opt, 1);
            break;
        case 't':
            timeout = std::move(value);
            break;
        case 'n':
            count = std::move(value);
            break;
        }
    }
};

// A decimal number in [lo, hi], else a usage error naming `what`.
unsigned parse_number(const Context& c, const std::string& s, std::string_view what, unsigned lo,
                      unsigned hi) {
    unsigned v = 0;
    const char* end = s.data() + s.size();
    const auto r = std::from_chars(s.data(), end, v);
    if (s.empty() || r.ec != std::errc() || r.ptr != end || v < lo || v > hi)
        c.fail("invalid " + std::string(what) + " '" + s + "' (" + std::to_string(lo) + " to " +
               std::to_string(hi) + ")");
    return v;
}

void check_modes(const Context& c, const ChkArgs& k) {
    const int modes = (k.connect ? 1 : 0) + (k.server ? 1 : 0) + (k.pnetid_if ? 1 : 0);
    if (modes == 0)
        c.fail("one of -C ADDRESS, -S or -i INTERFACE is needed");
    if (modes > 1)
        c.fail("only one of -C, -S and -i may be given");
    if (k.timeout && !k.connect)
        c.fail("-t applies to -C only");
    if (k.count && !k.server)
        c.fail("-n applies to -S only");
}

cmd::ChkConnect connect_command(const Context& c, const ChkArgs& k, std::uint16_t port) {
    cmd::ChkConnect cc;
    cc.address = *k.connect;
    cc.port = port;
    if (cc.address.empty())
        c.fail("empty address");
    // An address literal settles the family; a name is resolved in the family -6 selects.
    const auto literal = parse_addr(cc.address);
    const bool is_v4 = literal && literal->family == AF_INET;
    const bool is_v6 = literal && literal->family == AF_INET6;
    if (k.ipv6 && is_v4)
        c.fail("-6 given, but " + cc.address + " is an IPv4 address");
    cc.ipv6 = k.ipv6 || is_v6;
    if (k.timeout)
        cc.timeout = parse_number(c, *k.timeout, "timeout", 1, 3600);
    return cc;
}

} // namespace

Command parse_chk(const Context& c) {
    ChkArgs k;
    parse_options(c, chk_set, [&](char id, std::optional<std::string> value) {
        k.apply(c, id, std::move(value));
    });
    if (auto answer = k.common.answer(c))
        return *answer;
    check_modes(c, k);
    if (k.pnetid_if) {
        if (k.port || k.ipv6)
            c.fail("-i takes neither -p nor -6");
        c.checked([&] { check_ifname(*k.pnetid_if); });
        return cmd::ChkPnetid{*k.pnetid_if};
    }
    const std::uint16_t port =
        k.port ? static_cast<std::uint16_t>(parse_number(c, *k.port, "port", 1, 65535))
               : chk_default_port;
    if (!k.server)
        return connect_command(c, k, port);
    cmd::ChkServe s;
    s.port = port;
    s.ipv6 = k.ipv6;
    if (k.count)
        s.count = parse_number(c, *k.count, "connection count", 1, 1000000);
    return s;
}

std::string chk_usage(Personality) {
    return "Usage: smc_chk -C ADDRESS [-p PORT] [-6] [-t SECONDS] [-d] [-j]\n"
           "       smc_chk -S [-p PORT] [-6] [-n COUNT] [-d] [-j]\n"
           "       smc_chk -i INTERFACE [-j]\n" +
           options_usage(chk_set) +
           "Exit status: 0 SMC used, 1 TCP fallback, 2 bad command line, 3 no test possible.\n";
}

} // namespace smcctl::cli
