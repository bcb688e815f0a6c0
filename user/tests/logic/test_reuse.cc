// SPDX-License-Identifier: GPL-2.0
// include/smcx/reuse.h: the meter of a server link group's failed reuses
// (F11).  Times are the milliseconds the kernel passes (a 64-bit clock).
#include <gtest/gtest.h>

#include <smcx/reuse.h>

namespace {

constexpr unsigned int kEvery = SMCX_REUSE_EVERY_MS;
constexpr unsigned int kHold = SMCX_REUSE_HOLD_MS;

// failures at @now until one closes the meter; how many it took
unsigned int failures_to_close(smcx_reuse_meter* m, unsigned long long now,
                               unsigned long long step) {
    for (unsigned int n = 1; n <= 100; n++, now += step)
        if (smcx_reuse_failed(m, now))
            return n;
    return 0;
}

TEST(Reuse, NewMeterIsOpen) {
    smcx_reuse_meter m{};
    EXPECT_TRUE(smcx_reuse_open(&m, 0));
    EXPECT_TRUE(smcx_reuse_open(&m, 1ull << 40));
}

TEST(Reuse, BurstClosesAtItsLastFailure) {
    smcx_reuse_meter m{};
    EXPECT_EQ(failures_to_close(&m, 1000, 0), SMCX_REUSE_BURST);
    EXPECT_FALSE(smcx_reuse_open(&m, 1000));
    // the same for failures a few milliseconds apart
    smcx_reuse_meter n{};
    EXPECT_EQ(failures_to_close(&n, 5, 10), SMCX_REUSE_BURST);
}

TEST(Reuse, SteadyRateAtTheLimitStaysOpen) {
    smcx_reuse_meter m{};
    EXPECT_EQ(failures_to_close(&m, 0, kEvery), 0u);
    EXPECT_TRUE(smcx_reuse_open(&m, 100 * kEvery));
    // slower than the limit: the meter drains between failures
    smcx_reuse_meter n{};
    EXPECT_EQ(failures_to_close(&n, 0, 3 * kEvery), 0u);
}

TEST(Reuse, SteadyRateAboveTheLimitCloses) {
    // 10% faster than allowed: after k failures the meter is one period
    // plus (k - 1) * 250 ms ahead, more than (burst - 1) periods once
    // (k - 1) * 250 ms > (burst - 2) periods: k = 22
    smcx_reuse_meter m{};
    unsigned int n = failures_to_close(&m, 0, kEvery * 9 / 10);
    EXPECT_EQ(n, (SMCX_REUSE_BURST - 2) * kEvery / (kEvery / 10) + 2);
    EXPECT_EQ(n, 22u);
}

TEST(Reuse, ClosedForTheHoldThenOpenAndEmpty) {
    smcx_reuse_meter m{};
    const unsigned int t = 7000;
    ASSERT_EQ(failures_to_close(&m, t, 0), SMCX_REUSE_BURST);
    EXPECT_FALSE(smcx_reuse_open(&m, t + kHold - 1));
    // a reuse offered before the close that fails later does not extend it
    EXPECT_EQ(smcx_reuse_failed(&m, t + 10), 0);
    EXPECT_FALSE(smcx_reuse_open(&m, t + kHold - 1));
    EXPECT_TRUE(smcx_reuse_open(&m, t + kHold));
    // reopened with nothing counted: a whole burst again
    EXPECT_EQ(failures_to_close(&m, t + kHold, 0), SMCX_REUSE_BURST);
}

TEST(Reuse, BurstRefillsAfterQuiet) {
    smcx_reuse_meter m{};
    for (unsigned int i = 0; i + 1 < SMCX_REUSE_BURST; i++)
        EXPECT_EQ(smcx_reuse_failed(&m, 100), 0);
    // quiet for (burst - 1) periods: a full burst is allowed again
    EXPECT_EQ(failures_to_close(&m, 100 + (SMCX_REUSE_BURST - 1) * kEvery, 0), SMCX_REUSE_BURST);
}

TEST(Reuse, LongIdleMeterStartsAfresh) {
    smcx_reuse_meter m{};
    for (unsigned int i = 0; i + 1 < SMCX_REUSE_BURST; i++)
        EXPECT_EQ(smcx_reuse_failed(&m, 0), 0);
    // days later: a whole burst again
    EXPECT_EQ(failures_to_close(&m, 3ull * 86400 * 1000, 0), SMCX_REUSE_BURST);
}

} // namespace
