// SPDX-License-Identifier: GPL-2.0
// include/smcx/rtoken.h: the peer's RMB keys of a link group, per link.
#include <gtest/gtest.h>

#include <memory>

#include <smcx/rtoken.h>

namespace {

std::unique_ptr<smcx_rtoks> table() {
    return std::make_unique<smcx_rtoks>();
}

TEST(Rtoken, ClcKeyThenOtherLinkByConfirmRkey) {
    auto t = table();
    int i = smcx_rtok_get(t.get(), 0, 0x1111, 0x1000);
    ASSERT_GE(i, 0);
    unsigned int rkey = 0;
    unsigned long long addr = 0;
    EXPECT_EQ(smcx_rtok_key(t.get(), i, 0, &rkey, &addr), 0);
    EXPECT_EQ(rkey, 0x1111u);
    EXPECT_EQ(addr, 0x1000ull);
    EXPECT_EQ(smcx_rtok_key(t.get(), i, 1, &rkey, &addr), -1);
    EXPECT_EQ(smcx_rtok_learn(t.get(), 0, 0x1111, 1, 0x2222, 0x2000), 0);
    EXPECT_EQ(smcx_rtok_key(t.get(), i, 1, &rkey, &addr), 0);
    EXPECT_EQ(rkey, 0x2222u);
    EXPECT_EQ(addr, 0x2000ull);
    // the same RMB is found by its key on either link
    EXPECT_EQ(smcx_rtok_find(t.get(), 1, 0x2222), i);
    EXPECT_EQ(smcx_rtok_find(t.get(), 0, 0x1111), i);
}

TEST(Rtoken, ReusedRmbFindsItsOtherKeys) {
    auto t = table();
    // announced (CONFIRM_RKEY), used, released
    int i = smcx_rtok_add(t.get(), 0, 7, 0x70);
    ASSERT_GE(i, 0);
    ASSERT_EQ(smcx_rtok_learn(t.get(), 0, 7, 1, 8, 0x80), 0);
    EXPECT_EQ(smcx_rtok_get(t.get(), 0, 7, 0x70), i);
    smcx_rtok_put(t.get(), i);
    // a later connection names it on link 1 only: link 0's key is known
    EXPECT_EQ(smcx_rtok_get(t.get(), 1, 8, 0x80), i);
    unsigned int rkey = 0;
    unsigned long long addr = 0;
    EXPECT_EQ(smcx_rtok_key(t.get(), i, 0, &rkey, &addr), 0);
    EXPECT_EQ(rkey, 7u);
}

TEST(Rtoken, RecycledKeyWithNewAddressForgetsOtherLinks) {
    auto t = table();
    int i = smcx_rtok_add(t.get(), 0, 7, 0x70);
    ASSERT_EQ(smcx_rtok_learn(t.get(), 0, 7, 1, 8, 0x80), 0);
    EXPECT_EQ(smcx_rtok_add(t.get(), 0, 7, 0x7000), i);
    unsigned int rkey = 0;
    unsigned long long addr = 0;
    EXPECT_EQ(smcx_rtok_key(t.get(), i, 1, &rkey, &addr), -1);
    EXPECT_EQ(smcx_rtok_key(t.get(), i, 0, &rkey, &addr), 0);
    EXPECT_EQ(addr, 0x7000ull);
}

TEST(Rtoken, LearnOfUnknownKeyAddsNothing) {
    auto t = table();
    EXPECT_EQ(smcx_rtok_learn(t.get(), 0, 99, 1, 100, 0x100), -1);
    EXPECT_EQ(smcx_rtok_find(t.get(), 1, 100), -1);
}

TEST(Rtoken, LinksOutOfRangeAreRefused) {
    auto t = table();
    EXPECT_EQ(smcx_rtok_add(t.get(), SMCX_RTOK_LINKS, 1, 1), -1);
    int i = smcx_rtok_add(t.get(), 0, 1, 1);
    EXPECT_EQ(smcx_rtok_learn(t.get(), 0, 1, SMCX_RTOK_LINKS, 2, 2), -1);
    unsigned int rkey;
    unsigned long long addr;
    EXPECT_EQ(smcx_rtok_key(t.get(), i, SMCX_RTOK_LINKS, &rkey, &addr), -1);
    EXPECT_EQ(smcx_rtok_key(t.get(), -1, 0, &rkey, &addr), -1);
    EXPECT_EQ(smcx_rtok_key(t.get(), SMCX_RTOK_MAX, 0, &rkey, &addr), -1);
    smcx_rtok_put(t.get(), -1); // no effect, no crash
    smcx_rtok_put(t.get(), SMCX_RTOK_MAX);
    smcx_rtok_drop_link(t.get(), SMCX_RTOK_LINKS);
}

TEST(Rtoken, FullTableEvictsOnlyUnreferenced) {
    auto t = table();
    for (unsigned int k = 0; k < SMCX_RTOK_MAX; k++)
        ASSERT_EQ(smcx_rtok_get(t.get(), 0, 1000 + k, k), static_cast<int>(k));
    // every entry referred to: no room
    EXPECT_EQ(smcx_rtok_add(t.get(), 0, 5000, 1), -1);
    EXPECT_EQ(smcx_rtok_get(t.get(), 0, 5000, 1), -1);
    // one released: it is the one reused
    smcx_rtok_put(t.get(), 17);
    EXPECT_EQ(smcx_rtok_get(t.get(), 0, 5000, 1), 17);
    EXPECT_EQ(smcx_rtok_find(t.get(), 0, 1000 + 17), -1);
}

TEST(Rtoken, FreeEntryPreferredOverUnreferenced) {
    auto t = table();
    int a = smcx_rtok_add(t.get(), 0, 1, 1); // known, unreferenced
    int b = smcx_rtok_add(t.get(), 0, 2, 2);
    EXPECT_NE(a, b);
    EXPECT_EQ(smcx_rtok_find(t.get(), 0, 1), a); // b did not evict a
}

TEST(Rtoken, DropLinkKeepsOtherLinksAndRefs) {
    auto t = table();
    int i = smcx_rtok_get(t.get(), 0, 1, 0x10);
    ASSERT_EQ(smcx_rtok_learn(t.get(), 0, 1, 1, 2, 0x20), 0);
    smcx_rtok_drop_link(t.get(), 0);
    unsigned int rkey = 0;
    unsigned long long addr = 0;
    EXPECT_EQ(smcx_rtok_key(t.get(), i, 0, &rkey, &addr), -1);
    EXPECT_EQ(smcx_rtok_key(t.get(), i, 1, &rkey, &addr), 0);
    EXPECT_EQ(rkey, 2u);
    // still referred to: a new RMB does not take its place
    smcx_rtok_drop_link(t.get(), 1);
    EXPECT_NE(smcx_rtok_add(t.get(), 0, 3, 0x30), i);
}

TEST(Rtoken, DeleteRkeyForgetsEveryLink) {
    auto t = table();
    int i = smcx_rtok_add(t.get(), 0, 1, 0x10);
    ASSERT_EQ(smcx_rtok_learn(t.get(), 0, 1, 1, 2, 0x20), 0);
    EXPECT_EQ(smcx_rtok_del(t.get(), 1, 2), 0);
    EXPECT_EQ(smcx_rtok_find(t.get(), 0, 1), -1);
    EXPECT_EQ(smcx_rtok_del(t.get(), 0, 1), -1);
    // the entry is free again
    EXPECT_EQ(smcx_rtok_add(t.get(), 0, 9, 0x90), i);
}

} // namespace
