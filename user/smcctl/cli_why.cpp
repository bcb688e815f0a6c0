// SPDX-License-Identifier: GPL-2.0
// smcctl why (the handshake flight recorder) and smcctl peers (the peer cache).
#include <stdexcept>

#include "cli_parse.hpp"
#include "why.hpp"

namespace smcctl::cli {

namespace {

constexpr WordOption why_options[] = {
    {"json", 'j'},
    {"verbose", 'v'},
    {"number", 'n'},
    {"all", 'a'},
};

unsigned parse_count(const Context& c, const std::string& s) {
    std::size_t used = 0;
    unsigned long v = 0;
    try {
        v = std::stoul(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != s.size() || v > 100000)
        c.fail("-n needs a number of handshakes (0: all), not '" + s + "'");
    return static_cast<unsigned>(v);
}

} // namespace

Command parse_why(const Context& c) {
    cmd::WhyShow w;
    while (!c.args.empty()) {
        const std::string tok = c.args.take();
        if (tok.size() > 1 && tok[0] == '-') {
            const auto ids = word_option(tok, why_options, "jvna");
            if (!ids)
                c.fail("unknown option '" + tok + "'");
            for (const char id : *ids) {
                if (id == 'j')
                    c.opt.json = true;
                else if (id == 'v')
                    w.verbose = true;
                else if (id == 'a')
                    w.last = 0;
                else if (id == 'n') {
                    if (c.args.empty())
                        c.fail("-n needs a number");
                    w.last = parse_count(c, c.args.take());
                }
            }
            continue;
        }
        if (tok == "help")
            return c.help();
        if (tok == "flush") {
            c.expect_end();
            return cmd::WhyFlush{};
        }
        if (w.filter)
            c.fail("one ADDR[:PORT] only, not '" + tok + "' too");
        c.checked([&] { return parse_why_filter(tok); });
        w.filter = tok;
    }
    return w;
}

std::string why_usage(Personality p) {
    const std::string also = "       " + std::string(personality_name(p)) + " why ";
    return object_prefix(p) + "why [ADDR[:PORT]] [-n N | -a] [-v] [-j]\n" + also +
           "flush\n"
           "Explains the recent handshakes of this network namespace: SMC or TCP, the\n"
           "step that decided it, and what would change it.  ADDR[:PORT] ([V6]:PORT for\n"
           "IPv6) matches either end.  -n N: the newest N (default 20), -a: all, -v: each\n"
           "CLC message too.  Without CAP_NET_ADMIN only your own connections show.\n";
}

Command parse_peers(const Context& c) {
    if (c.args.empty())
        return cmd::PeersShow{};
    const std::string word = c.args.take();
    if (word == "-j" || word == "--json") {
        c.opt.json = true;
        c.expect_end();
        return cmd::PeersShow{};
    }
    const auto verb = match_word(word, {"show", "delete", "flush", "help"});
    if (!verb)
        c.fail("unknown peers command '" + word + "'");
    if (*verb == "help")
        return c.help();
    if (*verb == "show") {
        c.expect_end();
        return cmd::PeersShow{};
    }
    if (*verb == "flush") {
        c.expect_end();
        return cmd::PeersFlush{};
    }
    if (c.args.empty())
        c.fail("peers delete needs ADDR:PORT");
    const std::string peer = c.args.take();
    c.expect_end();
    const WhyFilter f = c.checked([&] { return parse_why_filter(peer); });
    if (!f.addr || !f.port)
        c.fail("peers delete needs ADDR:PORT ([V6]:PORT for IPv6), not '" + peer + "'");
    return cmd::PeersDel{peer};
}

std::string peers_usage(Personality p) {
    const std::string also = "       " + std::string(personality_name(p)) + " peers ";
    return object_prefix(p) + "peers [show] [-j]\n" + also + "delete ADDR:PORT\n" + also +
           "flush\n"
           "The peer cache: servers that broke an SMC handshake (or declined every time)\n"
           "get plain TCP for net.smc.smcx_peer_ttl seconds.\n";
}

} // namespace smcctl::cli
