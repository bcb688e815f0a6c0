// SPDX-License-Identifier: GPL-2.0
// include/smcx/wwi.h: the WRITE WITH IMMEDIATE extension between smcx
// hosts: who negotiates it, when a push may be one, and what a receiver
// does with one.
#include <gtest/gtest.h>

#include <smcx/wwi.h>

#include <cstdint>

namespace {

struct Prop {
    std::uint8_t oui[3];
    std::uint8_t exp[5];
};

Prop prop(bool on) {
    Prop p{};
    smcx_wwi_prop_mark(p.oui, p.exp, on);
    return p;
}

constexpr std::uint32_t K64 = 65536;

// a push that may be an imm write, with one thing changed by the caller
struct Push {
    bool on = true;
    bool news = false;
    std::uint64_t n = 100;
    bool here = true;
    std::uint64_t stated = 1000;
    std::uint64_t sent = 1000;
    std::uint32_t ssz = K64;
    std::uint32_t psz = K64;

    bool ok() const { return smcx_wwi_tx_ok(on, news, n, here, stated, sent, ssz, psz); }
};

struct Rx {
    smcx_wwi_rx rc;
    std::uint64_t n;
};

Rx rx(bool on, bool taken, std::uint8_t last, std::uint8_t link, std::uint32_t len,
      std::uint32_t size, std::uint64_t stated, std::uint64_t cons) {
    Rx r{SMCX_WWI_RX_BAD, 0};
    r.rc = smcx_wwi_rx_judge(on, taken, last, link, len, size, stated, cons, &r.n);
    return r;
}

} // namespace

TEST(WwiNegotiation, ProposalMarkIsTheDocumentedBytes) {
    Prop p = prop(true);
    EXPECT_EQ(p.oui[0], 0x02);
    EXPECT_EQ(p.oui[1], 'S');
    EXPECT_EQ(p.oui[2], 'X');
    const std::uint8_t exp[5] = {0x01, 0, 0, 0, 0x01};
    for (int i = 0; i < 5; i++)
        EXPECT_EQ(p.exp[i], exp[i]) << i;
    EXPECT_TRUE(smcx_wwi_prop_offers(p.oui, p.exp));
    // off: mainline's zeros
    Prop z = prop(false);
    for (auto b : z.oui)
        EXPECT_EQ(b, 0);
    for (auto b : z.exp)
        EXPECT_EQ(b, 0);
    EXPECT_FALSE(smcx_wwi_prop_offers(z.oui, z.exp));
}

TEST(WwiNegotiation, OtherVendorBytesOfferNothing) {
    Prop p = prop(true);
    p.oui[0] = 0x00; // a real vendor's OUI
    EXPECT_FALSE(smcx_wwi_prop_offers(p.oui, p.exp));
    p = prop(true);
    p.exp[0] = 2; // a marker version we do not know
    EXPECT_FALSE(smcx_wwi_prop_offers(p.oui, p.exp));
    p = prop(true);
    p.exp[4] = 0x02; // our marker, another feature only
    EXPECT_FALSE(smcx_wwi_prop_offers(p.oui, p.exp));
}

TEST(WwiNegotiation, ServerSaysYesOnlyToAnOfferWhenOn) {
    Prop on = prop(true), off = prop(false);
    EXPECT_TRUE(smcx_wwi_srv(true, on.oui, on.exp));
    EXPECT_FALSE(smcx_wwi_srv(false, on.oui, on.exp));  // sysctl off
    EXPECT_FALSE(smcx_wwi_srv(true, off.oui, off.exp)); // stock client
    EXPECT_EQ(smcx_wwi_opts(true), 0x53580001u);
    EXPECT_EQ(smcx_wwi_opts(false), 0u);
}

TEST(WwiNegotiation, ClientTakesOnlyAYesItAskedFor) {
    EXPECT_TRUE(smcx_wwi_clnt(true, 0x53580001u));
    EXPECT_FALSE(smcx_wwi_clnt(true, 0));            // stock server
    EXPECT_FALSE(smcx_wwi_clnt(false, 0x53580001u)); // not offered
    EXPECT_FALSE(smcx_wwi_clnt(true, 0x00000001u));  // someone else's bit
    EXPECT_FALSE(smcx_wwi_clnt(true, 0x53580002u));  // our marker, no imm
    EXPECT_TRUE(smcx_wwi_clnt(true, 0x53580003u));   // more features later
}

TEST(WwiNegotiation, ConfirmMustRepeatTheAccept) {
    EXPECT_TRUE(smcx_wwi_confirm_ok(true, 0x53580001u));
    EXPECT_TRUE(smcx_wwi_confirm_ok(false, 0));
    EXPECT_FALSE(smcx_wwi_confirm_ok(true, 0));
    EXPECT_FALSE(smcx_wwi_confirm_ok(false, 0x53580001u));
}

TEST(WwiNegotiation, FromTheStartNeedsBothEndsAndImm) {
    Prop p{};
    smcx_vx_prop_mark(p.oui, p.exp, SMCX_WWI_F_IMM | SMCX_WWI_F_FIRST);
    EXPECT_EQ(p.exp[4], 0x05); // bits 0 and 2, big endian, last byte
    EXPECT_TRUE(smcx_wwi_first_srv(true, p.oui, p.exp));
    EXPECT_FALSE(smcx_wwi_first_srv(false, p.oui, p.exp)); // no imm: nothing
    Prop old = prop(true);                                 // an smcx of before
    EXPECT_TRUE(smcx_wwi_srv(true, old.oui, old.exp));
    EXPECT_FALSE(smcx_wwi_first_srv(true, old.oui, old.exp));
    // the server's Accept, and what a client takes of it
    const std::uint32_t both = smcx_vx_opts(SMCX_WWI_F_IMM | SMCX_WWI_F_FIRST);
    EXPECT_EQ(both, 0x53580005u);
    EXPECT_TRUE(smcx_wwi_first_clnt(true, true, both));
    EXPECT_FALSE(smcx_wwi_first_clnt(true, false, both));       // not offered
    EXPECT_FALSE(smcx_wwi_first_clnt(false, true, both));       // imm refused
    EXPECT_FALSE(smcx_wwi_first_clnt(true, true, 0x53580001u)); // older server
    EXPECT_FALSE(smcx_wwi_first_clnt(true, true, 0x00000005u)); // no marker
    // an older smcx client still gets imm from a newer server
    EXPECT_TRUE(smcx_wwi_clnt(true, both));
    // the Confirm repeats bit 2 exactly
    EXPECT_TRUE(smcx_wwi_first_confirm_ok(true, both));
    EXPECT_TRUE(smcx_wwi_first_confirm_ok(false, 0x53580001u));
    EXPECT_TRUE(smcx_wwi_first_confirm_ok(false, 0));
    EXPECT_FALSE(smcx_wwi_first_confirm_ok(true, 0x53580001u));
    EXPECT_FALSE(smcx_wwi_first_confirm_ok(false, both));
    EXPECT_TRUE(smcx_wwi_confirm_ok(true, both)); // bit 0 unaffected
}

TEST(WwiSend, InOnePieceAfterAStatedCount) {
    EXPECT_TRUE(Push{}.ok());
    Push p;
    p.on = false; // group without it (a stock peer)
    EXPECT_FALSE(p.ok());
    p = Push{};
    p.news = true; // urgent, close, abort, forced, consumer cursor owed
    EXPECT_FALSE(p.ok());
    p = Push{};
    p.n = 0;
    EXPECT_FALSE(p.ok());
    p = Push{};
    p.here = false; // first message on this link (after a failover)
    EXPECT_FALSE(p.ok());
    p = Push{};
    p.stated = 900; // tx_sent moved without a message (peer's cons)
    EXPECT_FALSE(p.ok());
}

TEST(WwiSend, NoWrapInEitherRing) {
    Push p;
    p.sent = p.stated = K64 - 50; // 100 bytes wrap both rings
    EXPECT_FALSE(p.ok());
    p.psz = 2 * K64; // only our send buffer wraps
    EXPECT_FALSE(p.ok());
    p.psz = K64;
    p.ssz = 2 * K64; // only the peer's RMBE wraps
    EXPECT_FALSE(p.ok());
    p.ssz = p.psz = 2 * K64;
    EXPECT_TRUE(p.ok());
    p.sent = p.stated = K64 - 100; // ends exactly at the ring's end
    p.ssz = p.psz = K64;
    EXPECT_TRUE(p.ok());
    p.n = K64; // a whole ring from its start
    p.sent = p.stated = 3 * std::uint64_t(K64);
    EXPECT_TRUE(p.ok());
}

TEST(WwiReceive, MovesOnFromTheStatedCount) {
    Rx r = rx(true, true, 1, 1, 100, K64, 5000, 4000);
    EXPECT_EQ(r.rc, SMCX_WWI_RX_OK);
    EXPECT_EQ(r.n, 5100u);
    // exactly filling the RMBE from our consumer cursor
    r = rx(true, true, 0, 0, K64 - 1000, K64, 5000, 4000);
    EXPECT_EQ(r.rc, SMCX_WWI_RX_OK);
    EXPECT_EQ(r.n, 4000u + K64);
}

TEST(WwiReceive, AnotherLinkIsStale) {
    EXPECT_EQ(rx(true, true, 0, 1, 100, K64, 5000, 4000).rc, SMCX_WWI_RX_STALE);
    EXPECT_EQ(rx(true, true, 1, 0, 100, K64, 5000, 4000).rc, SMCX_WWI_RX_STALE);
}

TEST(WwiReceive, ProtocolErrors) {
    // not negotiated: a peer that sends it anyway is broken
    EXPECT_EQ(rx(false, true, 0, 0, 100, K64, 5000, 4000).rc, SMCX_WWI_RX_BAD);
    // the first message on a link is a CDC
    EXPECT_EQ(rx(true, false, 0, 0, 100, K64, 0, 0).rc, SMCX_WWI_RX_BAD);
    EXPECT_EQ(rx(true, true, 0, 0, 0, K64, 5000, 4000).rc, SMCX_WWI_RX_BAD);
    // past what our consumer cursor frees: overwrote unread bytes
    EXPECT_EQ(rx(true, true, 0, 0, K64 - 999, K64, 5000, 4000).rc, SMCX_WWI_RX_BAD);
    EXPECT_EQ(rx(true, true, 0, 0, K64 + 1, K64, 0, 0).rc, SMCX_WWI_RX_BAD);
    EXPECT_EQ(rx(true, true, 0, 0, 0xffffffffu, K64, 0, 0).rc, SMCX_WWI_RX_BAD);
}

TEST(WwiReceive, AFullRmbeMeansTheSenderWaits) {
    // it filled our RMBE up to the consumer count we sent last
    EXPECT_TRUE(smcx_wwi_rx_blocked(4000 + K64, 4000, K64));
    EXPECT_FALSE(smcx_wwi_rx_blocked(4000 + K64 - 1, 4000, K64));
    EXPECT_FALSE(smcx_wwi_rx_blocked(4000, 4000, K64));
    // our newer update in flight: it could not use it yet, and it frees it
    EXPECT_FALSE(smcx_wwi_rx_blocked(4000 + K64, 5000, K64));
}

// feature bit 1: native IPv6 GIDs between smcx hosts (docs/wire.md)
namespace {

constexpr std::uint8_t GID6[16] = {0xfd, 0x53, 0x4d, 0x43, 0x58, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
constexpr std::uint8_t GID4[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 18, 0, 2};

Prop mark(std::uint32_t feats) {
    Prop p{};
    smcx_vx_prop_mark(p.oui, p.exp, feats);
    return p;
}

} // namespace

TEST(Ip6Negotiation, ProposalMarkCarriesBitOne) {
    Prop p = mark(SMCX_WWI_F_IP6);
    const std::uint8_t want[5] = {0x01, 0, 0, 0, 0x02};
    for (int i = 0; i < 5; i++)
        EXPECT_EQ(p.exp[i], want[i]) << i;
    EXPECT_EQ(p.oui[0], 0x02);
    EXPECT_EQ(smcx_vx_prop_feats(p.oui, p.exp), SMCX_WWI_F_IP6);
    EXPECT_FALSE(smcx_wwi_prop_offers(p.oui, p.exp)); // IPv6 without imm
    p = mark(SMCX_WWI_F_IP6 | SMCX_WWI_F_IMM);
    EXPECT_EQ(p.exp[4], 0x03);
    EXPECT_TRUE(smcx_wwi_prop_offers(p.oui, p.exp));
    // the whole word is big endian in exp[1..4]
    p = mark(0x01020304u);
    const std::uint8_t word[5] = {0x01, 0x01, 0x02, 0x03, 0x04};
    for (int i = 0; i < 5; i++)
        EXPECT_EQ(p.exp[i], word[i]) << i;
    EXPECT_EQ(smcx_vx_prop_feats(p.oui, p.exp), 0x01020304u);
    // no feature: mainline's zeros, which say nothing
    Prop z = mark(0);
    for (auto b : z.oui)
        EXPECT_EQ(b, 0);
    for (auto b : z.exp)
        EXPECT_EQ(b, 0);
    EXPECT_EQ(smcx_vx_prop_feats(z.oui, z.exp), 0u);
    // another OUI or marker version: no features
    p = mark(SMCX_WWI_F_IP6);
    p.oui[2] = 0x59;
    EXPECT_EQ(smcx_vx_prop_feats(p.oui, p.exp), 0u);
    p = mark(SMCX_WWI_F_IP6);
    p.exp[0] = 2;
    EXPECT_EQ(smcx_vx_prop_feats(p.oui, p.exp), 0u);
}

TEST(Ip6Negotiation, OptionsCarryBitOne) {
    EXPECT_EQ(smcx_vx_opts(SMCX_WWI_F_IP6), 0x53580002u);
    EXPECT_EQ(smcx_vx_opts(SMCX_WWI_F_IP6 | SMCX_WWI_F_IMM), 0x53580003u);
    EXPECT_EQ(smcx_vx_opts(0), 0u);
    EXPECT_EQ(smcx_vx_opts(0x00010000u), 0u); // no room above the low half
    EXPECT_EQ(smcx_vx_opts_feats(0x53580002u), SMCX_WWI_F_IP6);
    EXPECT_EQ(smcx_vx_opts_feats(0x00000002u), 0u); // not our marker
    EXPECT_EQ(smcx_vx_opts_feats(0), 0u);
    // the imm rules do not read bit 1
    EXPECT_FALSE(smcx_wwi_opts_say(0x53580002u));
    EXPECT_TRUE(smcx_wwi_confirm_ok(false, 0x53580002u));
    EXPECT_TRUE(smcx_wwi_confirm_ok(true, 0x53580003u));
}

TEST(Ip6Negotiation, GidFamily) {
    EXPECT_TRUE(smcx_ip6_gid_v4(GID4));
    EXPECT_FALSE(smcx_ip6_gid_v4(GID6));
    std::uint8_t g[16] = {};
    g[10] = 0xff; // half a v4-mapped prefix
    EXPECT_FALSE(smcx_ip6_gid_v4(g));
}

TEST(Ip6Negotiation, ServerServesNativeIpv6OnlyWithBitOne) {
    Prop on = mark(SMCX_WWI_F_IP6), imm = mark(SMCX_WWI_F_IMM), off = mark(0);
    EXPECT_TRUE(smcx_ip6_srv_ok(true, on.oui, on.exp, GID6));
    EXPECT_TRUE(smcx_ip6_srv_ok(true, mark(0x03).oui, mark(0x03).exp, GID6));
    EXPECT_FALSE(smcx_ip6_srv_ok(true, imm.oui, imm.exp, GID6)); // no bit 1
    EXPECT_FALSE(smcx_ip6_srv_ok(true, off.oui, off.exp, GID6)); // stock-like
    EXPECT_FALSE(smcx_ip6_srv_ok(true, on.oui, on.exp, GID4));   // wrong family
    // an IPv4 connection is judged as before: not by these rules
    EXPECT_TRUE(smcx_ip6_srv_ok(false, off.oui, off.exp, GID4));
    EXPECT_TRUE(smcx_ip6_srv_ok(false, on.oui, on.exp, GID4));
    EXPECT_TRUE(smcx_ip6_srv_ok(false, off.oui, off.exp, GID6));
}

TEST(Ip6Negotiation, ClientTakesOnlyAnIpv6Yes) {
    // native IPv6 proposed: first contact needs bit 1 and an IPv6 GID
    EXPECT_TRUE(smcx_ip6_clnt_ok(true, true, 0x53580002u, GID6));
    EXPECT_TRUE(smcx_ip6_clnt_ok(true, true, 0x53580003u, GID6));
    EXPECT_FALSE(smcx_ip6_clnt_ok(true, true, 0, GID6));           // no yes
    EXPECT_FALSE(smcx_ip6_clnt_ok(true, true, 0x00000002u, GID6)); // not ours
    EXPECT_FALSE(smcx_ip6_clnt_ok(true, true, 0x53580001u, GID6)); // imm only
    EXPECT_FALSE(smcx_ip6_clnt_ok(true, true, 0x53580002u, GID4)); // family
    EXPECT_TRUE(smcx_ip6_clnt_ok(true, false, 0, GID6));           // reuse
    EXPECT_FALSE(smcx_ip6_clnt_ok(true, false, 0, GID4));
    // IPv4 proposed: not judged by these rules
    EXPECT_TRUE(smcx_ip6_clnt_ok(false, true, 0, GID4));
    EXPECT_TRUE(smcx_ip6_clnt_ok(false, true, 0x53580001u, GID4));
    EXPECT_TRUE(smcx_ip6_clnt_ok(false, false, 0, GID6));
}

TEST(Ip6Negotiation, ConfirmMustRepeatBitOne) {
    EXPECT_TRUE(smcx_ip6_confirm_ok(true, 0x53580002u, GID6));
    EXPECT_TRUE(smcx_ip6_confirm_ok(true, 0x53580003u, GID6));
    EXPECT_FALSE(smcx_ip6_confirm_ok(true, 0, GID6));
    EXPECT_FALSE(smcx_ip6_confirm_ok(true, 0x53580001u, GID6));
    EXPECT_FALSE(smcx_ip6_confirm_ok(true, 0x53580002u, GID4));
    // an IPv4 group: not judged by these rules
    EXPECT_TRUE(smcx_ip6_confirm_ok(false, 0, GID4));
    EXPECT_TRUE(smcx_ip6_confirm_ok(false, 0x53580001u, GID4));
}
