// SPDX-License-Identifier: GPL-2.0
// include/smcx/llc_flow.h: which LLC message in the link's mailbox answers
// our request.  Answers are made the way Linux 6.12 makes them: our request
// encoded, the response flag (and, for a refusal, its flags) set in the
// bytes, decoded as the kernel decodes a received message.
#include <gtest/gtest.h>

#include <smcx/llc_flow.h>
#include <smcx/wire.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

smcx_llc_msg msg(std::uint8_t version, std::uint8_t type) {
    smcx_llc_msg m;
    std::memset(&m, 0, sizeof(m));
    m.version = version;
    m.type = type;
    return m;
}

smcx_llc_msg confirm_rkey(std::uint32_t rkey, std::uint64_t vaddr) {
    smcx_llc_msg m = msg(SMCX_LLC_V2, SMCX_LLC_CONFIRM_RKEY);
    m.u.confirm_rkey.rt[0].rkey = rkey;
    m.u.confirm_rkey.rt[0].vaddr = vaddr;
    return m;
}

// the peer's answer to @req: @req's bytes sent back with @flags added
smcx_llc_msg echo(const smcx_llc_msg& req, std::uint8_t flags) {
    std::vector<std::uint8_t> b(SMCX_LLC_V2_MAX_LEN);
    int len = smcx_llc_encode(&req, b.data(), b.size());
    EXPECT_GT(len, 3);
    b.resize(len > 3 ? len : 4);
    b[3] |= flags;
    smcx_llc_msg in;
    EXPECT_EQ(smcx_llc_decode(b.data(), b.size(), &in, SMCX_WIRE_LAX_RSVD), 0);
    return in;
}

} // namespace

TEST(LlcFlow, ConfirmRkeyAnswerEchoesTheRkey) {
    smcx_llc_msg req = confirm_rkey(0xa001, 0x100000);
    smcx_llc_msg ans = echo(req, SMCX_LLC_FLAG_RESP);
    EXPECT_TRUE(smcx_llc_answers(&req, &ans));
    // a refusal answers it too (the caller reads the flag)
    smcx_llc_msg neg =
        echo(req, SMCX_LLC_FLAG_RESP | SMCX_LLC_FLAG_RKEY_NEG | SMCX_LLC_FLAG_RKEY_RETRY);
    EXPECT_TRUE(smcx_llc_answers(&req, &neg));
}

TEST(LlcFlow, LateAnswerToAnEarlierConfirmRkeyIsNotOurs) {
    smcx_llc_msg first = confirm_rkey(0xa001, 0x100000);
    smcx_llc_msg second = confirm_rkey(0xa002, 0x200000);
    smcx_llc_msg late = echo(first, SMCX_LLC_FLAG_RESP);
    EXPECT_FALSE(smcx_llc_answers(&second, &late));
    // the rkey decides, not the address
    smcx_llc_msg same_addr = confirm_rkey(0xa003, 0x100000);
    EXPECT_FALSE(smcx_llc_answers(&same_addr, &late));
    smcx_llc_msg ans = echo(second, SMCX_LLC_FLAG_RESP);
    EXPECT_TRUE(smcx_llc_answers(&second, &ans));
}

TEST(LlcFlow, RequestsAndOtherTypesAreNoAnswer) {
    smcx_llc_msg req = confirm_rkey(0xa001, 0x100000);
    // the peer's own CONFIRM_RKEY request for the same key
    smcx_llc_msg peer_req = echo(req, 0);
    EXPECT_FALSE(smcx_llc_answers(&req, &peer_req));
    // a response of another type, either way round
    smcx_llc_msg del = msg(SMCX_LLC_V2, SMCX_LLC_DELETE_RKEY);
    smcx_llc_msg del_ans = echo(del, SMCX_LLC_FLAG_RESP);
    EXPECT_FALSE(smcx_llc_answers(&req, &del_ans));
    smcx_llc_msg add = msg(SMCX_LLC_V2, SMCX_LLC_ADD_LINK);
    smcx_llc_msg rkey_ans = echo(req, SMCX_LLC_FLAG_RESP);
    EXPECT_FALSE(smcx_llc_answers(&add, &rkey_ans));
}

TEST(LlcFlow, TestLinkAnswerEchoesUserData) {
    smcx_llc_msg req = msg(SMCX_LLC_V2, SMCX_LLC_TEST_LINK);
    std::memset(req.u.test_link.user_data, 0x5a, sizeof(req.u.test_link.user_data));
    smcx_llc_msg ans = echo(req, SMCX_LLC_FLAG_RESP);
    EXPECT_TRUE(smcx_llc_answers(&req, &ans));
    ans.u.test_link.user_data[15] ^= 1;
    EXPECT_FALSE(smcx_llc_answers(&req, &ans));
}

TEST(LlcFlow, OtherRequestsMatchByTypeAndResponseFlag) {
    for (std::uint8_t type : {SMCX_LLC_CONFIRM_LINK, SMCX_LLC_ADD_LINK, SMCX_LLC_DELETE_LINK}) {
        smcx_llc_msg req = msg(SMCX_LLC_V2, type);
        smcx_llc_msg ans = msg(SMCX_LLC_V2, type);
        ans.flags = SMCX_LLC_FLAG_RESP;
        EXPECT_TRUE(smcx_llc_answers(&req, &ans)) << int(type);
        ans.flags = 0;
        EXPECT_FALSE(smcx_llc_answers(&req, &ans)) << int(type);
    }
}

// ---- the link's mailbox ------------------------------------------------

namespace {

smcx_llc_mbox mbox() {
    smcx_llc_mbox mb;
    std::memset(&mb, 0, sizeof(mb)); // as the kernel's zeroed link
    return mb;
}

smcx_llc_msg confirm_link(std::uint8_t flags) {
    smcx_llc_msg m = msg(SMCX_LLC_V2, SMCX_LLC_CONFIRM_LINK);
    m.flags = flags;
    m.u.confirm_link.link_num = 1;
    m.u.confirm_link.qpn = 0x123;
    return m;
}

} // namespace

// seed 2, case 1257: the peer's CONFIRM_LINK response and, in the same
// receive poll, a DELETE_LINK response nobody asked for
TEST(LlcMbox, UnsolicitedResponseDoesNotReplaceTheAnswer) {
    smcx_llc_mbox mb = mbox();
    smcx_llc_msg req = confirm_link(SMCX_LLC_FLAG_NO_RMBE_EYEC);
    smcx_llc_mbox_arm(&mb, &req);
    smcx_llc_msg ans = echo(req, SMCX_LLC_FLAG_RESP);
    ans.u.confirm_link.qpn = 0x456;
    EXPECT_TRUE(smcx_llc_mbox_put(&mb, &ans));
    smcx_llc_msg del = msg(SMCX_LLC_V2, SMCX_LLC_DELETE_LINK);
    del.flags = SMCX_LLC_FLAG_RESP;
    EXPECT_FALSE(smcx_llc_mbox_put(&mb, &del));
    smcx_llc_msg out;
    ASSERT_TRUE(smcx_llc_mbox_take(&mb, &out));
    EXPECT_EQ(out.type, SMCX_LLC_CONFIRM_LINK);
    EXPECT_EQ(out.u.confirm_link.qpn, 0x456u);
    EXPECT_FALSE(smcx_llc_mbox_take(&mb, &out));
}

TEST(LlcMbox, FirstAnswerStaysUntilTaken) {
    smcx_llc_mbox mb = mbox();
    smcx_llc_msg req = confirm_rkey(0xa001, 0x100000);
    smcx_llc_mbox_arm(&mb, &req);
    smcx_llc_msg ok = echo(req, SMCX_LLC_FLAG_RESP);
    smcx_llc_msg neg = echo(req, SMCX_LLC_FLAG_RESP | SMCX_LLC_FLAG_RKEY_NEG);
    EXPECT_TRUE(smcx_llc_mbox_put(&mb, &ok));
    // a second answer to the same request does not replace the first
    EXPECT_FALSE(smcx_llc_mbox_put(&mb, &neg));
    smcx_llc_msg out;
    ASSERT_TRUE(smcx_llc_mbox_take(&mb, &out));
    EXPECT_EQ(out.flags & SMCX_LLC_FLAG_RKEY_NEG, 0);
    // taken: the mailbox is empty, still armed for the same request
    EXPECT_TRUE(smcx_llc_mbox_put(&mb, &neg));
}

TEST(LlcMbox, ArmedTakesOnlyTheAnswer) {
    smcx_llc_mbox mb = mbox();
    smcx_llc_msg req = confirm_rkey(0xa002, 0x200000);
    smcx_llc_mbox_arm(&mb, &req);
    smcx_llc_msg late = echo(confirm_rkey(0xa001, 0x100000), SMCX_LLC_FLAG_RESP);
    smcx_llc_msg peer_req = echo(req, 0);
    smcx_llc_msg cl_req = confirm_link(0);
    smcx_llc_msg test_ans = echo(msg(SMCX_LLC_V2, SMCX_LLC_TEST_LINK), SMCX_LLC_FLAG_RESP);
    EXPECT_FALSE(smcx_llc_mbox_put(&mb, &late));
    EXPECT_FALSE(smcx_llc_mbox_put(&mb, &peer_req));
    EXPECT_FALSE(smcx_llc_mbox_put(&mb, &cl_req));
    EXPECT_FALSE(smcx_llc_mbox_put(&mb, &test_ans));
    smcx_llc_msg out;
    EXPECT_FALSE(smcx_llc_mbox_take(&mb, &out));
    smcx_llc_msg ans = echo(req, SMCX_LLC_FLAG_RESP);
    EXPECT_TRUE(smcx_llc_mbox_put(&mb, &ans));
}

TEST(LlcMbox, UnarmedTakesOnlyTheConfirmLinkRequest) {
    // a client's first contact: the request may come before the wait
    smcx_llc_mbox mb = mbox();
    smcx_llc_msg resp = confirm_link(SMCX_LLC_FLAG_RESP);
    smcx_llc_msg del = msg(SMCX_LLC_V2, SMCX_LLC_DELETE_LINK);
    del.flags = SMCX_LLC_FLAG_RESP;
    EXPECT_FALSE(smcx_llc_mbox_put(&mb, &resp));
    EXPECT_FALSE(smcx_llc_mbox_put(&mb, &del));
    smcx_llc_msg req = confirm_link(SMCX_LLC_FLAG_NO_RMBE_EYEC);
    EXPECT_TRUE(smcx_llc_mbox_put(&mb, &req));
    // a response behind it does not replace it either
    EXPECT_FALSE(smcx_llc_mbox_put(&mb, &del));
    smcx_llc_msg out;
    ASSERT_TRUE(smcx_llc_mbox_take(&mb, &out));
    EXPECT_EQ(out.type, SMCX_LLC_CONFIRM_LINK);
    EXPECT_EQ(out.flags & SMCX_LLC_FLAG_RESP, 0);
}

TEST(LlcMbox, ArmingDropsWhatTheLastFlowLeft) {
    smcx_llc_mbox mb = mbox();
    smcx_llc_msg first = confirm_rkey(0xa001, 0x100000);
    smcx_llc_mbox_arm(&mb, &first);
    // the answer came after the flow's timeout: nobody took it
    smcx_llc_msg late = echo(first, SMCX_LLC_FLAG_RESP);
    EXPECT_TRUE(smcx_llc_mbox_put(&mb, &late));
    smcx_llc_mbox_arm(&mb, nullptr);
    smcx_llc_msg out;
    EXPECT_FALSE(smcx_llc_mbox_take(&mb, &out));
    // disarmed: a late answer is no one's
    EXPECT_FALSE(smcx_llc_mbox_put(&mb, &late));
    smcx_llc_msg second = confirm_rkey(0xa002, 0x200000);
    smcx_llc_mbox_arm(&mb, &second);
    EXPECT_FALSE(smcx_llc_mbox_put(&mb, &late));
    smcx_llc_msg ans = echo(second, SMCX_LLC_FLAG_RESP);
    EXPECT_TRUE(smcx_llc_mbox_put(&mb, &ans));
    ASSERT_TRUE(smcx_llc_mbox_take(&mb, &out));
    EXPECT_EQ(out.u.confirm_rkey.rt[0].rkey, 0xa002u);
}
