// SPDX-License-Identifier: GPL-2.0
// include/smcx/v2x.h: the v2.1 negotiation of release, max conns and max
// links (server from the Proposal, client from the Accept, server's check
// of the Confirm), and what goes on the wire below release 1.
#include <gtest/gtest.h>

#include <smcx/v2x.h>
#include <smcx/wire.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

struct Neg {
    std::uint32_t reason;
    smcx_v2x n;
};

Neg srv(std::uint8_t rel, std::uint8_t conns, std::uint8_t links, unsigned my_conns = 255,
        unsigned my_links = 2) {
    Neg r{};
    r.reason = smcx_v2x_srv(&r.n, rel, conns, links, my_conns, my_links);
    return r;
}

Neg clnt(std::uint8_t rel, std::uint8_t conns, std::uint8_t links) {
    Neg r{};
    r.reason = smcx_v2x_clnt(&r.n, rel, conns, links);
    return r;
}

void expect(const Neg& got, std::uint32_t reason, std::uint8_t rel, std::uint8_t conns,
            std::uint8_t links) {
    EXPECT_EQ(got.reason, reason);
    if (reason)
        return;
    EXPECT_EQ(got.n.release, rel);
    EXPECT_EQ(got.n.max_conns, conns);
    EXPECT_EQ(got.n.max_links, links);
}

} // namespace

TEST(V2xServer, TakesTheLowerOfProposalAndSysctl) {
    expect(srv(1, 255, 2), 0, 1, 255, 2);
    expect(srv(1, 255, 2, 16, 1), 0, 1, 16, 1);
    expect(srv(1, 100, 1, 200, 2), 0, 1, 100, 1);
    expect(srv(1, 16, 2, 16, 2), 0, 1, 16, 2);
    // a peer asking for more links than exist gets what we allow
    expect(srv(1, 255, 9, 255, 2), 0, 1, 255, 2);
}

TEST(V2xServer, ReleaseIsTheLowerOne) {
    expect(srv(3, 40, 2), 0, 1, 40, 2);
    // release 0: the v2.0 counts, whatever the bytes and the sysctls say
    expect(srv(0, 0, 0, 16, 1), 0, 0, 255, 2);
    expect(srv(0, 20, 1, 16, 1), 0, 0, 255, 2);
}

TEST(V2xServer, CountsBelowTheMinimumAreDeclined) {
    expect(srv(1, 15, 2), SMCX_DECL_MAXCONNERR, 0, 0, 0);
    expect(srv(1, 0, 2), SMCX_DECL_MAXCONNERR, 0, 0, 0);
    expect(srv(1, 255, 0), SMCX_DECL_MAXLINKERR, 0, 0, 0);
    // mainline's order: connections first
    expect(srv(1, 0, 0), SMCX_DECL_MAXCONNERR, 0, 0, 0);
}

TEST(V2xClient, AdoptsTheAcceptsValues) {
    expect(clnt(1, 16, 1), 0, 1, 16, 1);
    expect(clnt(1, 255, 2), 0, 1, 255, 2);
    expect(clnt(1, 100, 2), 0, 1, 100, 2);
    // release 0: the extension's count bytes mean nothing
    expect(clnt(0, 0, 0), 0, 0, 255, 2);
    expect(clnt(0, 7, 9), 0, 0, 255, 2);
}

TEST(V2xClient, RefusesWhatItCannotUse) {
    expect(clnt(2, 255, 2), SMCX_DECL_RELEASEERR, 0, 0, 0);
    expect(clnt(1, 15, 2), SMCX_DECL_MAXCONNERR, 0, 0, 0);
    expect(clnt(1, 0, 2), SMCX_DECL_MAXCONNERR, 0, 0, 0);
    expect(clnt(1, 255, 0), SMCX_DECL_MAXLINKERR, 0, 0, 0);
    expect(clnt(1, 255, 3), SMCX_DECL_MAXLINKERR, 0, 0, 0);
}

TEST(V2xConfirm, MustRepeatTheAccept) {
    smcx_v2x n{1, 16, 1, 0, 0};
    EXPECT_EQ(smcx_v2x_confirm_check(&n, 1, 16, 1), 0u);
    EXPECT_EQ(smcx_v2x_confirm_check(&n, 0, 16, 1), SMCX_DECL_RELEASEERR);
    EXPECT_EQ(smcx_v2x_confirm_check(&n, 2, 16, 1), SMCX_DECL_RELEASEERR);
    EXPECT_EQ(smcx_v2x_confirm_check(&n, 1, 255, 1), SMCX_DECL_MAXCONNERR);
    EXPECT_EQ(smcx_v2x_confirm_check(&n, 1, 16, 2), SMCX_DECL_MAXLINKERR);
    smcx_v2x old{};
    smcx_v2x_v20(&old, 0);
    EXPECT_EQ(smcx_v2x_confirm_check(&old, 0, 0, 0), 0u);
    EXPECT_EQ(smcx_v2x_confirm_check(&old, 0, 3, 3), 0u); // reserved below 1
    EXPECT_EQ(smcx_v2x_confirm_check(&old, 1, 255, 2), SMCX_DECL_RELEASEERR);
}

TEST(V2xWire, CountBytesAreZeroBelowRelease1) {
    smcx_v2x n{1, 20, 1, 0, 0};
    EXPECT_EQ(smcx_v2x_fce_conns(&n), 20);
    EXPECT_EQ(smcx_v2x_fce_links(&n), 1);
    EXPECT_EQ(smcx_v2x_llc_conns(&n), 20);
    smcx_v2x_v20(&n, 0);
    EXPECT_EQ(n.max_conns, 255);
    EXPECT_EQ(n.max_links, 2); // CONFIRM_LINK's max links below release 1
    EXPECT_EQ(smcx_v2x_fce_conns(&n), 0);
    EXPECT_EQ(smcx_v2x_fce_links(&n), 0);
    EXPECT_EQ(smcx_v2x_llc_conns(&n), 0);
}

// Server negotiates, the values travel in an encoded Accept, the client
// adopts them from the decoded bytes and repeats them in its Confirm.
TEST(V2xWire, RoundTripThroughTheCodec) {
    for (std::uint8_t rel : {std::uint8_t{0}, std::uint8_t{1}}) {
        Neg s = srv(rel, 255, 2, 24, 1);
        ASSERT_EQ(s.reason, 0u);
        smcx_clc_accept a{};
        a.hdr.eyecatcher = SMCX_EYE_SMCR;
        a.hdr.version = SMCX_CLC_V2;
        a.hdr.typev1 = SMCX_TYPE_R;
        a.hdr.typev2 = SMCX_CLC_FIRST_CONTACT;
        std::memset(a.eid, ' ', sizeof(a.eid));
        a.eid[0] = 'E';
        std::memset(a.hostname, ' ', sizeof(a.hostname));
        a.fce_v2x = 1;
        a.release = s.n.release;
        a.max_conns = smcx_v2x_fce_conns(&s.n);
        a.max_links = smcx_v2x_fce_links(&s.n);
        std::vector<std::uint8_t> buf(SMCX_CLC_MAX_LEN);
        int len = smcx_clc_encode_accept(&a, SMCX_CLC_ACCEPT, buf.data(), buf.size());
        ASSERT_GT(len, 0);
        smcx_clc_accept d{};
        ASSERT_EQ(
            smcx_clc_decode_accept(buf.data(), static_cast<size_t>(len), SMCX_CLC_ACCEPT, &d, 0),
            0);
        Neg c = clnt(d.release, d.max_conns, d.max_links);
        EXPECT_EQ(c.reason, 0u);
        EXPECT_EQ(c.n.release, s.n.release);
        EXPECT_EQ(c.n.max_conns, rel ? 24 : 255);
        EXPECT_EQ(c.n.max_links, rel ? 1 : 2);
        EXPECT_EQ(smcx_v2x_confirm_check(&s.n, c.n.release, smcx_v2x_fce_conns(&c.n),
                                         smcx_v2x_fce_links(&c.n)),
                  0u);
    }
}
