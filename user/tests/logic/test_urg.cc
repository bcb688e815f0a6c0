// SPDX-License-Identifier: GPL-2.0
// include/smcx/urg.h: where the urgent byte and the mark lie relative to
// the cursors (MSG_OOB, SIOCATMARK, SIOCINQ, POLLIN, the sender's cut).
#include <gtest/gtest.h>

#include <smcx/cursor.h>
#include <smcx/urg.h>

#include <cstdint>

namespace {
constexpr std::uint32_t kRmbe = 16384;
constexpr std::uint8_t kPending = SMCX_CDC_PF_URG_PENDING;
constexpr std::uint8_t kPresent = SMCX_CDC_PF_URG_PRESENT;
} // namespace

TEST(UrgCdc, PresentFlagNamesTheByteBeforeTheProducer) {
    std::uint64_t pos = 77;
    EXPECT_TRUE(smcx_urg_cdc_pos(kPresent, 100, &pos));
    EXPECT_EQ(pos, 99u);
    EXPECT_TRUE(smcx_urg_cdc_pos(0xff, 1, &pos)); // other flags do not matter
    EXPECT_EQ(pos, 0u);
}

TEST(UrgCdc, NoPresentFlagOrNothingWrittenIsNoUrgentByte) {
    std::uint64_t pos = 77;
    EXPECT_FALSE(smcx_urg_cdc_pos(0, 100, &pos));
    EXPECT_FALSE(smcx_urg_cdc_pos(kPending, 100, &pos));
    EXPECT_FALSE(smcx_urg_cdc_pos(SMCX_CDC_PF_WRITE_BLOCKED, 100, &pos));
    EXPECT_FALSE(smcx_urg_cdc_pos(kPresent, 0, &pos));
    EXPECT_EQ(pos, 77u); // untouched
}

TEST(UrgCdc, MarkAtTheWrapPoint) {
    std::uint64_t pos = 0;
    // producer exactly at the buffer end: the urgent byte is the ring's last
    ASSERT_TRUE(smcx_urg_cdc_pos(kPresent, kRmbe, &pos));
    EXPECT_EQ(pos, kRmbe - 1u);
    EXPECT_EQ(smcx_ring_off(pos, kRmbe), kRmbe - 1u);
    // one byte into the next lap: the urgent byte is the ring's first
    ASSERT_TRUE(smcx_urg_cdc_pos(kPresent, kRmbe + 1, &pos));
    EXPECT_EQ(smcx_ring_off(pos, kRmbe), 0u);
    // at the wrap counter's overflow
    ASSERT_TRUE(smcx_urg_cdc_pos(kPresent, (std::uint64_t{kRmbe} << 16), &pos));
    EXPECT_EQ(smcx_ring_off(pos, kRmbe), kRmbe - 1u);
}

TEST(UrgAtmark, OnlyWithAnUrgentByteAndAtItsPosition) {
    EXPECT_TRUE(smcx_urg_is_atmark(SMCX_URG_VALID, 50, 50));
    EXPECT_TRUE(smcx_urg_is_atmark(SMCX_URG_READ, 50, 50)); // read by OOB, mark stays
    EXPECT_FALSE(smcx_urg_is_atmark(SMCX_URG_NONE, 50, 50));
    EXPECT_FALSE(smcx_urg_is_atmark(SMCX_URG_VALID, 50, 49));
    EXPECT_FALSE(smcx_urg_is_atmark(SMCX_URG_VALID, 50, 51));
    EXPECT_TRUE(smcx_urg_is_atmark(SMCX_URG_VALID, kRmbe, kRmbe)); // at the wrap
}

TEST(UrgInq, CountsUpToTheMarkWithoutOobinline) {
    EXPECT_EQ(smcx_urg_inq_len(SMCX_URG_VALID, false, 110, 100, 200, 100), 10u);
    EXPECT_EQ(smcx_urg_inq_len(SMCX_URG_READ, false, 110, 100, 200, 100), 10u);
    EXPECT_EQ(smcx_urg_inq_len(SMCX_URG_VALID, false, 100, 100, 200, 100), 0u); // at mark
    EXPECT_EQ(smcx_urg_inq_len(SMCX_URG_VALID, false, 199, 100, 200, 100), 99u);
}

TEST(UrgInq, EverythingOtherwise) {
    EXPECT_EQ(smcx_urg_inq_len(SMCX_URG_VALID, true, 110, 100, 200, 100), 100u);
    EXPECT_EQ(smcx_urg_inq_len(SMCX_URG_NONE, false, 110, 100, 200, 100), 100u);
    EXPECT_EQ(smcx_urg_inq_len(SMCX_URG_VALID, false, 99, 100, 200, 100), 100u);  // behind
    EXPECT_EQ(smcx_urg_inq_len(SMCX_URG_VALID, false, 200, 100, 200, 100), 100u); // not here
    EXPECT_EQ(smcx_urg_inq_len(SMCX_URG_VALID, false, 5, 5, 5, 0), 0u);           // empty
}

TEST(UrgPoll, TheUrgentByteAloneIsNotReadable) {
    EXPECT_EQ(smcx_urg_poll_need(true, false, 1), 2u);
    EXPECT_EQ(smcx_urg_poll_need(true, true, 1), 1u);
    EXPECT_EQ(smcx_urg_poll_need(false, false, 1), 1u);
    EXPECT_EQ(smcx_urg_poll_need(true, false, 0), 1u);
}

TEST(UrgRead, StopsBeforeTheMark) {
    bool skip = true;
    EXPECT_EQ(smcx_urg_rx_limit(SMCX_URG_VALID, 110, 100, 100, false, false, &skip), 10u);
    EXPECT_FALSE(skip);
    EXPECT_EQ(smcx_urg_rx_limit(SMCX_URG_VALID, 110, 100, 5, false, false, &skip), 5u);
    EXPECT_EQ(smcx_urg_rx_limit(SMCX_URG_READ, 110, 100, 100, true, true, &skip), 10u);
    EXPECT_FALSE(skip);
}

TEST(UrgRead, AtTheMarkWithDataCopiedStops) {
    bool skip = true;
    EXPECT_EQ(smcx_urg_rx_limit(SMCX_URG_VALID, 100, 100, 50, true, false, &skip), 0u);
    EXPECT_FALSE(skip);
    EXPECT_EQ(smcx_urg_rx_limit(SMCX_URG_VALID, 100, 100, 50, true, true, &skip), 0u);
}

TEST(UrgRead, AtTheMarkFirstSkipsUnlessInline) {
    bool skip = false;
    EXPECT_EQ(smcx_urg_rx_limit(SMCX_URG_VALID, 100, 100, 50, false, false, &skip), 50u);
    EXPECT_TRUE(skip);
    EXPECT_EQ(smcx_urg_rx_limit(SMCX_URG_VALID, 100, 100, 50, false, true, &skip), 50u);
    EXPECT_FALSE(skip);
    // the urgent byte is the ring's last byte: same rule at the wrap point
    EXPECT_EQ(smcx_urg_rx_limit(SMCX_URG_READ, kRmbe - 1, kRmbe - 1, 9, false, false, &skip), 9u);
    EXPECT_TRUE(skip);
}

TEST(UrgRead, NoMarkOrMarkBehindReadsAll) {
    bool skip = true;
    EXPECT_EQ(smcx_urg_rx_limit(SMCX_URG_NONE, 110, 100, 100, false, false, &skip), 100u);
    EXPECT_FALSE(skip);
    skip = true;
    EXPECT_EQ(smcx_urg_rx_limit(SMCX_URG_VALID, 99, 100, 100, false, false, &skip), 100u);
    EXPECT_FALSE(skip);
    EXPECT_EQ(smcx_urg_rx_limit(SMCX_URG_VALID, 99, 100, 0, false, false, &skip), 0u);
}

TEST(UrgRead, MarkPassedOnlyAfterTheByte) {
    EXPECT_FALSE(smcx_urg_passed(SMCX_URG_VALID, 100, 100));
    EXPECT_TRUE(smcx_urg_passed(SMCX_URG_VALID, 100, 101));
    EXPECT_TRUE(smcx_urg_passed(SMCX_URG_READ, 100, 5000));
    EXPECT_FALSE(smcx_urg_passed(SMCX_URG_NONE, 100, 101));
}

TEST(UrgSend, NothingPendingChangesNothing) {
    bool pend = false;
    std::uint8_t flags = 0;
    EXPECT_EQ(smcx_urg_tx_limit(&pend, 0, 9, 100, &flags), 100u);
    EXPECT_EQ(flags, 0);
    EXPECT_FALSE(pend);
}

TEST(UrgSend, CutRightAfterTheUrgentByte) {
    bool pend = true;
    std::uint8_t flags = SMCX_CDC_PF_WRITE_BLOCKED;
    EXPECT_EQ(smcx_urg_tx_limit(&pend, 0, 9, 100, &flags), 10u);
    EXPECT_EQ(flags, SMCX_CDC_PF_WRITE_BLOCKED | kPending | kPresent);
    EXPECT_FALSE(pend);
}

TEST(UrgSend, ExactlyUpToTheUrgentByte) {
    bool pend = true;
    std::uint8_t flags = 0;
    EXPECT_EQ(smcx_urg_tx_limit(&pend, 9, 9, 1, &flags), 1u);
    EXPECT_EQ(flags, kPending | kPresent);
    EXPECT_FALSE(pend);
}

TEST(UrgSend, ShortOfTheUrgentByteStaysPending) {
    bool pend = true;
    std::uint8_t flags = 0;
    EXPECT_EQ(smcx_urg_tx_limit(&pend, 0, 9, 5, &flags), 5u);
    EXPECT_EQ(flags, kPending);
    EXPECT_TRUE(pend);
    flags = 0; // nothing to write (peer's RMBE full): still pending
    EXPECT_EQ(smcx_urg_tx_limit(&pend, 5, 9, 0, &flags), 0u);
    EXPECT_EQ(flags, kPending);
    EXPECT_TRUE(pend);
}

TEST(UrgSend, AlreadyWrittenGoesOutUnannounced) {
    bool pend = true;
    std::uint8_t flags = 0;
    EXPECT_EQ(smcx_urg_tx_limit(&pend, 10, 9, 100, &flags), 100u);
    EXPECT_EQ(flags, kPending);
    EXPECT_FALSE(pend);
}

TEST(UrgSend, TheCutEndsAtTheBufferEndAndTheReceiverFindsTheByte) {
    // sender: urgent byte is the last of the peer's first lap
    bool pend = true;
    std::uint8_t flags = 0;
    const std::uint64_t n = smcx_urg_tx_limit(&pend, kRmbe - 100, kRmbe - 1, 4096, &flags);
    EXPECT_EQ(n, 100u);
    // receiver: the CDC's producer cursor after that write is (1, 0)
    smcx_cdc_cursor prod{};
    smcx_curs_from_count(kRmbe - 100 + n, kRmbe, &prod);
    EXPECT_EQ(prod.wrap, 1);
    EXPECT_EQ(prod.count, 0u);
    const std::uint64_t v = smcx_curs_to_count(kRmbe - 100, kRmbe, &prod);
    std::uint64_t pos = 0;
    ASSERT_TRUE(smcx_urg_cdc_pos(flags, v, &pos));
    EXPECT_EQ(pos, kRmbe - 1u);
    EXPECT_EQ(smcx_ring_off(pos, kRmbe), kRmbe - 1u);
}

TEST(UrgFailover, AByteInTheRewoundRangeIsMarkedAgain) {
    // sent up to 120, rewound to 100: the byte at 110 went with the link
    EXPECT_TRUE(smcx_urg_tx_rewound(true, 110, 100, 120));
    EXPECT_TRUE(smcx_urg_tx_rewound(true, 100, 100, 120));
    EXPECT_TRUE(smcx_urg_tx_rewound(true, 119, 100, 120));
}

TEST(UrgFailover, AByteOutsideTheRangeOrNoneIsNot) {
    EXPECT_FALSE(smcx_urg_tx_rewound(true, 99, 100, 120));  // completed before
    EXPECT_FALSE(smcx_urg_tx_rewound(true, 120, 100, 120)); // not written yet
    EXPECT_FALSE(smcx_urg_tx_rewound(true, 110, 120, 120)); // nothing rewound
    EXPECT_FALSE(smcx_urg_tx_rewound(false, 0, 0, 120));    // none was ever sent
}

TEST(UrgFailover, TheRepeatedMarkEndsTheFirstCdcOfTheRewrite) {
    // after the rewind the byte is pending again: the rewrite is cut after it
    bool pend = smcx_urg_tx_rewound(true, 110, 100, 120);
    std::uint8_t flags = 0;
    EXPECT_EQ(smcx_urg_tx_limit(&pend, 100, 110, 20, &flags), 11u);
    EXPECT_EQ(flags, kPending | kPresent);
    EXPECT_FALSE(pend);
}
