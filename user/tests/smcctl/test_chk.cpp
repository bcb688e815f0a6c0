// SPDX-License-Identifier: GPL-2.0
// smc_chk: command line, the reason -> hint table, the advice for a fallback, finding the link
// group of a connection, and the reports as text and JSON.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app.hpp"
#include "chk.hpp"
#include "cli_util.hpp"
#include "names.hpp"

using namespace smcctl;
using namespace smcctl::test;

namespace {

constexpr std::uint32_t peer_no_smc = 0x03010000;
constexpr std::uint32_t peerdecl = 0x05000000;
constexpr std::uint32_t nosmcrdev = 0x03030002;

LinkInfo sample_link() {
    LinkInfo l;
    l.role = 0;
    l.link_id = 1;
    l.ibdev = "rxe0";
    l.ibport = 1;
    l.gid = "0000:0000:0000:0000:0000:ffff:c612:0001";
    l.peer_gid = "0000:0000:0000:0000:0000:ffff:c612:0002";
    return l;
}

chk::Report smcr_report() {
    chk::Report r;
    r.sock.mode = static_cast<std::uint8_t>(SocketMode::smcr);
    r.sock.state = 1;
    r.sock.local_addr = "198.18.0.1";
    r.sock.local_port = 40000;
    r.sock.peer_addr = "198.18.0.2";
    r.sock.peer_port = 5000;
    r.sock.fallback = FallbackInfo{0, 0};
    r.sock.link = sample_link();
    LinkGroup g;
    g.id = 0x7e165b15;
    LgrV2 v2;
    v2.version = 2;
    v2.release = 1;
    v2.peer_host = "beta";
    v2.negotiated_eid = "SMCX-DEFAULT-UEID";
    g.v2 = v2;
    r.linkgroup = g;
    return r;
}

chk::Report fallback_report(std::uint32_t reason, std::uint32_t peer) {
    chk::Report r;
    r.sock.mode = static_cast<std::uint8_t>(SocketMode::tcp);
    r.sock.state = 1;
    r.sock.local_addr = "198.18.0.1";
    r.sock.local_port = 40001;
    r.sock.peer_addr = "198.18.0.2";
    r.sock.peer_port = 5001;
    r.sock.fallback = FallbackInfo{reason, peer};
    return r;
}

} // namespace

// ---- command line ---------------------------------------------------------------------------

TEST(ChkCli, Connect) {
    const auto c = as<cmd::ChkConnect>(parse({"smc_chk", "-C", "198.18.0.2", "-p", "5000"}));
    EXPECT_EQ(c.address, "198.18.0.2");
    EXPECT_EQ(c.port, 5000);
    EXPECT_FALSE(c.ipv6);
    EXPECT_EQ(c.timeout, chk_default_timeout);
    EXPECT_EQ(as<cmd::ChkConnect>(parse({"smc_chk", "--connect=host1"})).port, chk_default_port);
    EXPECT_EQ(as<cmd::ChkConnect>(parse({"smc_chk", "-C", "h", "--timeout", "3"})).timeout, 3u);
    // an IPv6 literal is IPv6 by itself; a name with -6 is resolved as IPv6
    EXPECT_TRUE(as<cmd::ChkConnect>(parse({"smc_chk", "-C", "fe80::1"})).ipv6);
    EXPECT_TRUE(as<cmd::ChkConnect>(parse({"smc_chk", "-6", "-C", "beta"})).ipv6);
    EXPECT_FALSE(as<cmd::ChkConnect>(parse({"smc_chk", "-C", "beta"})).ipv6);
    auto inv = parse({"smc_chk", "-dj", "-C", "10.0.0.1"});
    EXPECT_TRUE(inv.opt.json);
    EXPECT_TRUE(inv.opt.details);
    EXPECT_TRUE(parse({"smc_chk", "-C", "10.0.0.1", "--json"}).opt.json);
}

TEST(ChkCli, Server) {
    const auto s = as<cmd::ChkServe>(parse({"smc_chk", "-S"}));
    EXPECT_EQ(s.port, chk_default_port);
    EXPECT_FALSE(s.ipv6);
    EXPECT_FALSE(s.count);
    const auto t = as<cmd::ChkServe>(parse({"smc_chk", "--server", "-p6000", "-6", "-n", "2"}));
    EXPECT_EQ(t.port, 6000);
    EXPECT_TRUE(t.ipv6);
    EXPECT_EQ(t.count, 2u);
}

TEST(ChkCli, Pnetid) {
    EXPECT_EQ(as<cmd::ChkPnetid>(parse({"smc_chk", "-i", "eth0"})).interface, "eth0");
    EXPECT_EQ(as<cmd::ChkPnetid>(parse({"smc_chk", "--pnetid=eth1"})).interface, "eth1");
}

TEST(ChkCli, VersionAndHelp) {
    EXPECT_TRUE(std::holds_alternative<cmd::Version>(parse({"smc_chk", "-v"}).command));
    const auto h = as<cmd::Help>(parse({"smc_chk", "--help"}));
    EXPECT_TRUE(contains(h.text, "Usage: smc_chk -C ADDRESS"));
    EXPECT_TRUE(contains(h.text, "Exit status"));
}

TEST(ChkCli, Errors) {
    EXPECT_TRUE(contains(usage_error_of({"smc_chk"}), "one of -C"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-C", "a", "-S"}), "only one"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-S", "-i", "eth0"}), "only one"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-C", "a", "-p", "0"}), "invalid port"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-C", "a", "-p", "65536"}), "invalid port"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-C", "a", "-p", "12x"}), "invalid port"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-C", "a", "-t", "0"}), "invalid timeout"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-S", "-t", "5"}), "-t applies to -C"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-C", "a", "-n", "1"}), "-n applies to -S"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-S", "-n", "0"}), "invalid connection count"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-6", "-C", "10.0.0.1"}), "IPv4 address"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-i", "eth0", "-p", "1"}), "-i takes"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-i", "a/b"}), "interface name"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-C", ""}), "empty address"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-C"}), "needs a value"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-x"}), "unknown option"));
    EXPECT_TRUE(contains(usage_error_of({"smc_chk", "-S", "extra"}), "unexpected argument"));
}

// ---- hints ----------------------------------------------------------------------------------

TEST(ChkHints, EveryKnownReasonHasItsOwnHint) {
    const auto codes = decline_codes();
    ASSERT_GE(codes.size(), 30u);
    std::set<std::string_view> hints;
    for (const auto code : codes) {
        const auto hint = decline_hint(code);
        EXPECT_FALSE(hint.empty()) << hex_code(code);
        EXPECT_FALSE(decline_name(code).empty()) << hex_code(code);
        // a hint says what to do, not the code's description again
        EXPECT_NE(hint, decline_text(code)) << hex_code(code);
        EXPECT_EQ(hint.find('\n'), std::string_view::npos) << hex_code(code);
        hints.insert(hint);
    }
    EXPECT_EQ(hints.size(), codes.size()) << "two codes share a hint";
    EXPECT_TRUE(decline_hint(0x7f000001).empty());
}

TEST(ChkHints, TheCommonOnesPointAtTheTools) {
    EXPECT_TRUE(contains(std::string(decline_hint(peer_no_smc)), "smc_run"));
    EXPECT_TRUE(contains(std::string(decline_hint(peer_no_smc)), "tcp2smc"));
    EXPECT_TRUE(contains(std::string(decline_hint(nosmcrdev)), "smc_rnics"));
    EXPECT_TRUE(contains(std::string(decline_hint(nosmcrdev)), "smc_pnet"));
    EXPECT_TRUE(contains(std::string(decline_hint(0x03030008)), "ueid add"));
}

TEST(ChkAdvice, ForEachKindOfSocket) {
    EXPECT_FALSE(chk::advice(smcr_report().sock));

    auto a = chk::advice(fallback_report(peer_no_smc, 0).sock);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->code, peer_no_smc);
    EXPECT_FALSE(a->peer);
    EXPECT_EQ(a->hint, decline_hint(peer_no_smc));

    // the peer declined: its diagnosis explains the fallback
    a = chk::advice(fallback_report(peerdecl, nosmcrdev).sock);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->code, nosmcrdev);
    EXPECT_TRUE(a->peer);

    // declined without (a known) diagnosis: the decline itself
    a = chk::advice(fallback_report(peerdecl, 0).sock);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->code, peerdecl);
    EXPECT_FALSE(a->peer);
    a = chk::advice(fallback_report(peerdecl, 0x7f000001).sock);
    EXPECT_EQ(a->code, peerdecl);

    a = chk::advice(fallback_report(0x7f000001, 0).sock);
    ASSERT_TRUE(a);
    EXPECT_TRUE(contains(a->hint, "no hint for this code"));
    a = chk::advice(fallback_report(0, 0).sock);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->code, 0u);
    EXPECT_TRUE(contains(a->hint, "without a reason code"));
}

// ---- link group -----------------------------------------------------------------------------

TEST(ChkLinkgroup, MatchesRoleAndLink) {
    LinkGroupTable t;
    LinkGroup server; // same GIDs, other role: not ours
    server.id = 0x100;
    server.role = 1;
    Link l;
    l.id = 1;
    l.ibdev = "rxe0";
    l.ibport = 1;
    l.gid = sample_link().gid;
    l.peer_gid = sample_link().peer_gid;
    server.links.push_back(l);
    LinkGroup other = server; // our role, another peer
    other.id = 0x200;
    other.role = 0;
    other.links[0].peer_gid = "0000:0000:0000:0000:0000:ffff:c612:0009";
    LinkGroup ours = server;
    ours.id = 0x300;
    ours.role = 0;
    t.groups = {server, other, ours};
    const auto g = chk::find_linkgroup(t, sample_link());
    ASSERT_TRUE(g);
    EXPECT_EQ(g->id, 0x300u);
    LinkInfo wrong = sample_link();
    wrong.link_id = 2;
    EXPECT_FALSE(chk::find_linkgroup(t, wrong));
}

// ---- reports --------------------------------------------------------------------------------

TEST(ChkReport, SmcrText) {
    const auto r = smcr_report();
    EXPECT_TRUE(r.smc());
    EXPECT_EQ(chk::to_text(r, false), "Connection to 198.18.0.2 port 5000: SMC-R\n");
    const std::string d = chk::to_text(r, true);
    EXPECT_TRUE(contains(d, "  Local: 198.18.0.1:40000  Peer: 198.18.0.2:5000\n")) << d;
    EXPECT_TRUE(contains(d, "  Link: rxe0 port 1, link id 1, GID 0000:")) << d;
    EXPECT_TRUE(contains(d, "  Link group: 7e165b15 (CLNT), SMC 2.1, peer host beta, EID "
                            "SMCX-DEFAULT-UEID\n"))
        << d;
    EXPECT_FALSE(contains(d, "Hint")) << d;
}

TEST(ChkReport, FallbackText) {
    auto r = fallback_report(peer_no_smc, 0);
    EXPECT_FALSE(r.smc());
    EXPECT_EQ(chk::to_text(r, false),
              "Connection to 198.18.0.2 port 5001: TCP fallback (SMC not used)\n"
              "  Reason: PEER_NO_SMC (0x03010000) peer did not offer SMC\n"
              "  Hint: " +
                  std::string(decline_hint(peer_no_smc)) + "\n");
    r = fallback_report(peerdecl, nosmcrdev);
    r.role = chk::Report::Role::server;
    const std::string t = chk::to_text(r, false);
    EXPECT_TRUE(contains(t, "Connection from 198.18.0.2 port 5001: TCP fallback")) << t;
    EXPECT_TRUE(contains(t, "  Reason: PEERDECL (0x05000000) peer declined\n")) << t;
    EXPECT_TRUE(contains(t, "  Peer's reason: NOSMCRDEV (0x03030002) no SMC-R device found\n"))
        << t;
    EXPECT_TRUE(contains(t, "  Hint (for the peer): no RoCE device")) << t;
}

TEST(ChkReport, Json) {
    const std::string s = chk::to_json(smcr_report());
    for (const char* key :
         {"\"role\": \"client\"", "\"family\": \"inet\"", "\"mode\": \"SMCR\"", "\"smc\": true",
          "\"fallback\": null", "\"hint\": null", "\"ib_device\": \"rxe0\"",
          "\"id_hex\": \"7e165b15\"", "\"smc_version\": \"2.1\"", "\"peer_host\": \"beta\"",
          "\"local\": {\n    \"address\": \"198.18.0.1\",\n    \"port\": 40000\n  }"})
        EXPECT_TRUE(contains(s, key)) << key << "\n" << s;

    auto r = fallback_report(peerdecl, nosmcrdev);
    r.role = chk::Report::Role::server;
    const std::string f = chk::to_json(r);
    for (const char* key :
         {"\"role\": \"server\"", "\"mode\": \"TCP\"", "\"smc\": false", "\"link\": null",
          "\"linkgroup\": null", "\"name\": \"PEERDECL\"", "\"name\": \"NOSMCRDEV\"",
          "\"for\": \"peer\"", "\"code\": \"0x03030002\""})
        EXPECT_TRUE(contains(f, key)) << key << "\n" << f;
}

TEST(ChkReport, Pnetid) {
    chk::PnetidReport r{"eth0", "", ""};
    EXPECT_EQ(chk::to_text(r), "eth0 has no PNET ID\n");
    EXPECT_EQ(chk::to_json(r),
              "{\n  \"interface\": \"eth0\",\n  \"pnetid\": null,\n  \"source\": null\n}\n");
    r.pnetid = "SMCXLAB";
    r.source = "pnet table";
    EXPECT_EQ(chk::to_text(r), "SMCXLAB\n");
    EXPECT_TRUE(contains(chk::to_json(r), "\"source\": \"pnet table\""));
}

TEST(ChkApp, NoSuchInterfaceCannotBeTested) {
    std::ostringstream out, err;
    EXPECT_EQ(main_entry({"smc_chk", "-i", "nosuchif0"}, out, err), chk::exit_untestable);
    EXPECT_TRUE(contains(err.str(), "smc_chk: no interface nosuchif0")) << err.str();
    EXPECT_TRUE(out.str().empty());
}
