// SPDX-License-Identifier: GPL-2.0
// smcctl why and peers: the decoding of the SMCX family's records, the explanation of each
// outcome, the address filter and the command line.
#include <gtest/gtest.h>

#include <cerrno>

#include "cli.hpp"
#include "cli_util.hpp"
#include "genl_reply.hpp"
#include "uapi/linux/smcx.h"
#include "why.hpp"

using namespace smcctl;

namespace {

bool has(const std::string& s, const std::string& what) {
    return s.find(what) != std::string::npos;
}

HsRecord client_to(const char* peer, std::uint16_t port) {
    HsRecord r;
    r.laddr = "198.18.0.1";
    r.lport = 40000;
    r.paddr = peer;
    r.pport = port;
    r.syn_sent = true;
    r.comm = "curl";
    return r;
}

HsMsg msg(std::uint8_t type, bool out, std::uint32_t diag = 0) {
    HsMsg m;
    m.type = type;
    m.out = out;
    m.diag = diag;
    m.version = 2;
    return m;
}

} // namespace

TEST(WhyDecode, RecordWithMessagesAndEids) {
    test::Reply rep(SMCX_CMD_HS_GET);
    rep.begin(SMCX_A_HS)
        .u64(SMCX_HS_A_SEQ, 7)
        .u8(SMCX_HS_A_ROLE, 0)
        .u8(SMCX_HS_A_RESULT, 0)
        .u32(SMCX_HS_A_REASON, 0x05000000)
        .u32(SMCX_HS_A_PEER_REASON, 0x03030008)
        .u16(SMCX_HS_A_PPORT, 6379)
        .str(SMCX_HS_A_COMM, "redis-cli")
        .u8(SMCX_HS_A_SYN_SENT, 1)
        .u8(SMCX_HS_A_SYN_SEEN, 1)
        .str(SMCX_HS_A_PEER_EID, "SMCX-DEFAULT-UEID")
        .str(SMCX_HS_A_PEER_EID, "OTHER");
    rep.begin(SMCX_HS_A_MSG).u8(SMCX_HS_MSG_A_TYPE, 1).u8(SMCX_HS_MSG_A_OUT, 1).end();
    rep.begin(SMCX_HS_A_MSG)
        .u8(SMCX_HS_MSG_A_TYPE, 4)
        .u8(SMCX_HS_MSG_A_OUT, 0)
        .u32(SMCX_HS_MSG_A_DIAG, 0x03030008)
        .end();
    rep.end();
    const HsRecord r = wire::decode_hs(rep.hdr());
    EXPECT_EQ(r.seq, 7u);
    EXPECT_EQ(r.result, HsResult::tcp);
    EXPECT_EQ(r.pport, 6379);
    EXPECT_EQ(r.comm, "redis-cli");
    ASSERT_EQ(r.offer_eids.size(), 2u);
    EXPECT_EQ(r.offer_eids[1], "OTHER");
    ASSERT_EQ(r.msgs.size(), 2u);
    EXPECT_EQ(r.msgs[1].type, 4);
    EXPECT_EQ(r.msgs[1].diag, 0x03030008u);
    EXPECT_TRUE(r.msgs[0].out);
}

TEST(WhyDecode, MissingNestIsMalformed) {
    test::Reply rep(SMCX_CMD_HS_GET);
    EXPECT_THROW(wire::decode_hs(rep.hdr()), nl::malformed_reply);
    EXPECT_THROW(wire::decode_peer(rep.hdr()), nl::malformed_reply);
}

TEST(WhyExplain, SmcR) {
    HsRecord r = client_to("198.18.0.2", 6379);
    r.result = HsResult::smcr;
    r.dev = "rxe0";
    r.ibport = 1;
    r.first = true;
    r.lgr_id = 0xabcd;
    r.version = 2;
    r.release = 1;
    r.eid = "SMCX-DEFAULT-UEID";
    const Explanation x = explain(r);
    EXPECT_EQ(x.verdict, "SMC-R");
    EXPECT_TRUE(has(x.text, "rxe0 port 1")) << x.text;
    EXPECT_TRUE(has(x.text, "first contact")) << x.text;
    EXPECT_TRUE(has(x.text, "0000abcd")) << x.text;
    EXPECT_TRUE(x.fix.empty());
}

TEST(WhyExplain, PeerWithoutSmcClientAndServer) {
    HsRecord r = client_to("198.18.0.2", 22);
    r.result = HsResult::tcp;
    r.reason = 0x03010000;
    Explanation x = explain(r);
    EXPECT_EQ(x.step, "SYN-ACK");
    EXPECT_TRUE(has(x.text, "SYN-ACK did not announce SMC")) << x.text;
    EXPECT_TRUE(has(x.fix, "smc_run")) << x.fix;
    r.server = true;
    x = explain(r);
    EXPECT_EQ(x.step, "SYN");
    EXPECT_TRUE(has(x.text, "client's SYN")) << x.text;
}

TEST(WhyExplain, PeerDeclinedNoDeviceNamesOurEids) {
    HsRecord r = client_to("198.18.0.2", 6379);
    r.result = HsResult::tcp;
    r.reason = 0x05000000;
    r.peer_reason = 0x03030000; // what a server sends for no common EID
    r.offer_eids = {"SMCX-DEFAULT-UEID"};
    r.msgs = {msg(1, true), msg(4, false, 0x03030000)};
    const Explanation x = explain(r);
    EXPECT_EQ(x.step, "the peer's Decline");
    EXPECT_TRUE(has(x.text, "after our Proposal")) << x.text;
    EXPECT_TRUE(has(x.text, "NOSMCDEV")) << x.text;
    EXPECT_TRUE(has(x.text, "SMCX-DEFAULT-UEID")) << x.text;
    EXPECT_TRUE(has(x.fix, "smcr ueid add SMCX-DEFAULT-UEID")) << x.fix;
}

TEST(WhyExplain, ServerTellsNoCommonEidFromNoDevice) {
    HsRecord r = client_to("198.18.0.1", 40000);
    r.server = true;
    r.result = HsResult::tcp;
    r.reason = 0x03030000;
    r.offer_eids = {"SMCX-DEFAULT-UEID"};
    r.msgs = {msg(1, false), msg(4, true, 0x03030000)};
    Explanation x = explain(r, {"OTHER"});
    EXPECT_TRUE(has(x.text, "No common EID: the client offered SMCX-DEFAULT-UEID, ours are OTHER"))
        << x.text;
    EXPECT_TRUE(has(x.fix, "smcr ueid add SMCX-DEFAULT-UEID")) << x.fix;
    x = explain(r, {"SMCX-DEFAULT-UEID"});
    EXPECT_FALSE(has(x.text, "No common EID")) << x.text;
}

TEST(WhyExplain, WeDeclinedInPlaceOfTheProposal) {
    HsRecord r = client_to("198.18.0.2", 80);
    r.result = HsResult::tcp;
    r.reason = 0x03030002;
    r.msgs = {msg(4, true, 0x03030002)};
    const Explanation x = explain(r);
    EXPECT_EQ(x.step, "our Proposal");
    EXPECT_TRUE(has(x.text, "nothing to offer")) << x.text;
    EXPECT_TRUE(has(x.fix, "smc_rnics")) << x.fix;
}

TEST(WhyExplain, PolicyAndPeerCache) {
    HsRecord r = client_to("198.18.0.2", 22);
    r.syn_sent = false;
    r.result = HsResult::tcp;
    r.reason = 0x03ff0001;
    r.policy_id = 3;
    Explanation x = explain(r);
    EXPECT_EQ(x.step, "scope rule");
    EXPECT_TRUE(has(x.text, "scope rule 3")) << x.text;
    EXPECT_TRUE(has(x.fix, "policy del 3")) << x.fix;
    r.reason = 0x03ff0002;
    x = explain(r);
    EXPECT_EQ(x.step, "peer cache");
    EXPECT_TRUE(has(x.fix, "peers del 198.18.0.2:22")) << x.fix;
}

TEST(WhyExplain, BrokenPeerAfterTheProposal) {
    HsRecord r = client_to("198.18.0.2", 8080);
    r.syn_seen = true;
    r.result = HsResult::failed;
    r.msgs = {msg(1, true), msg(1, false)};
    r.err = EPROTO;
    const Explanation echo = explain(r);
    EXPECT_EQ(echo.step, "the answer to our Proposal");
    EXPECT_TRUE(has(echo.text, "sent our Proposal back")) << echo.text;
    r.msgs = {msg(1, true)};
    for (auto [err, words] :
         {std::pair{EPROTO, "no CLC message"}, std::pair{ETIMEDOUT, "never answered"},
          std::pair{ECONNRESET, "reset the connection"}}) {
        r.err = static_cast<std::uint32_t>(err);
        const Explanation x = explain(r);
        EXPECT_EQ(x.verdict, "failed");
        EXPECT_EQ(x.step, "the answer to our Proposal");
        EXPECT_TRUE(has(x.text, words)) << x.text;
        EXPECT_TRUE(has(x.fix, "peer cache")) << x.fix;
    }
}

TEST(WhyExplain, TcpConnectFailureIsNotSmcs) {
    HsRecord r = client_to("198.18.0.2", 9);
    r.result = HsResult::failed;
    r.err = ECONNREFUSED;
    const Explanation x = explain(r);
    EXPECT_EQ(x.step, "TCP connect");
    EXPECT_TRUE(has(x.text, "SMC played no part")) << x.text;
}

TEST(WhyExplain, ServerSyncErr) {
    HsRecord r = client_to("198.18.0.2", 5000);
    r.server = true;
    r.result = HsResult::tcp;
    r.reason = 0x04000000;
    const Explanation x = explain(r);
    EXPECT_EQ(x.step, "the client's first bytes");
}

TEST(WhyFilter, ParsesAndMatchesEitherEnd) {
    const HsRecord r = client_to("198.18.0.2", 6379);
    EXPECT_TRUE(parse_why_filter("198.18.0.2").matches(r));
    EXPECT_TRUE(parse_why_filter("198.18.0.2:6379").matches(r));
    EXPECT_TRUE(parse_why_filter(":40000").matches(r));
    EXPECT_TRUE(parse_why_filter("198.18.0.1:40000").matches(r));
    EXPECT_FALSE(parse_why_filter("198.18.0.2:6380").matches(r));
    EXPECT_FALSE(parse_why_filter("198.18.0.3").matches(r));
    HsRecord v6 = r;
    v6.paddr = "fd00::2";
    EXPECT_TRUE(parse_why_filter("[fd00:0::2]:6379").matches(v6));
    EXPECT_TRUE(parse_why_filter("fd00::2").matches(v6));
    EXPECT_THROW(parse_why_filter("nonsense"), std::invalid_argument);
    EXPECT_THROW(parse_why_filter("1.2.3.4:0"), std::invalid_argument);
    EXPECT_THROW(parse_why_filter("1.2.3.4:70000"), std::invalid_argument);
    EXPECT_THROW(parse_why_filter("[::1"), std::invalid_argument);
}

TEST(WhyFilter, KernelSpellingAndMessages) {
    // the address as the kernel spells it; v4-mapped text stays IPv6 text
    EXPECT_EQ(parse_why_filter("0::1").addr, "::1");
    EXPECT_EQ(parse_why_filter("[0:0::1]:22").addr, "::1");
    EXPECT_EQ(parse_why_filter("::ffff:198.18.0.2").addr, "::ffff:198.18.0.2");
    EXPECT_EQ(parse_why_filter("198.18.0.2:").port, std::nullopt);
    EXPECT_EQ(parse_why_filter("[]:22").addr, std::nullopt);
    const auto error_of = [](const std::string& s) {
        return test::invalid_argument_of([&] { parse_why_filter(s); });
    };
    EXPECT_EQ(error_of("[::1"), "missing ']' in [::1");
    EXPECT_EQ(error_of("[::1]22"), "expected ':PORT' after ']' in [::1]22");
    EXPECT_EQ(error_of("fd00::2:x"), "not an IP address: fd00::2:x");
    EXPECT_EQ(error_of("host:22"), "not an IP address: host");
    EXPECT_EQ(error_of("[::1]:x"), "not a port (1-65535): x");
}

TEST(WhyCli, Parses) {
    auto inv = parse_command_line({"smcctl", "why", "198.18.0.2:6379", "-n", "5", "-v"});
    const auto& w = std::get<cmd::WhyShow>(inv.command);
    EXPECT_EQ(w.filter, "198.18.0.2:6379");
    EXPECT_EQ(w.last, 5u);
    EXPECT_TRUE(w.verbose);
    inv = parse_command_line({"smcctl", "why", "-a", "-j"});
    EXPECT_EQ(std::get<cmd::WhyShow>(inv.command).last, 0u);
    EXPECT_TRUE(inv.opt.json);
    EXPECT_TRUE(std::holds_alternative<cmd::WhyFlush>(
        parse_command_line({"smcctl", "why", "flush"}).command));
    EXPECT_THROW(parse_command_line({"smcctl", "why", "bogus"}), usage_error);
    EXPECT_THROW(parse_command_line({"smcctl", "why", "-n", "x"}), usage_error);
    EXPECT_TRUE(
        std::holds_alternative<cmd::PeersShow>(parse_command_line({"smcctl", "peers"}).command));
    EXPECT_EQ(std::get<cmd::PeersDel>(
                  parse_command_line({"smcctl", "peers", "del", "10.0.0.1:80"}).command)
                  .peer,
              "10.0.0.1:80");
    EXPECT_THROW(parse_command_line({"smcctl", "peers", "del", "10.0.0.1"}), usage_error);
    EXPECT_TRUE(std::holds_alternative<cmd::PeersFlush>(
        parse_command_line({"smcctl", "peers", "flush"}).command));
}

TEST(WhyText, EmptyAndVerbose) {
    EXPECT_TRUE(has(why_text({}, false), "No handshake recorded"));
    HsRecord r = client_to("198.18.0.2", 6379);
    r.result = HsResult::tcp;
    r.reason = 0x05000000;
    r.peer_reason = 0x03030008;
    r.msgs = {msg(1, true), msg(4, false, 0x03030008)};
    const std::string t = why_text({r}, true);
    EXPECT_TRUE(has(t, "To change it:")) << t;
    EXPECT_TRUE(has(t, "-> our Proposal")) << t;
    EXPECT_TRUE(has(t, "<- the peer's Decline")) << t;
    const std::string j = why_json({r});
    EXPECT_TRUE(has(j, "\"result\": \"TCP\"")) << j;
    EXPECT_TRUE(has(j, "\"peer_reason_name\": \"NOUEID\"")) << j;
}
