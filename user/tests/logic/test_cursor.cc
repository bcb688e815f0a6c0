// SPDX-License-Identifier: GPL-2.0
// include/smcx/cursor.h: RFC 7609 cursors (wrap, count) and the monotonic
// byte counts the kernel keeps them as.
#include <gtest/gtest.h>

#include <smcx/cursor.h>

#include <algorithm>
#include <cstdint>

namespace {

constexpr std::uint32_t kRmbe = 16384;                      // smallest buffer size
constexpr std::uint64_t kLaps = std::uint64_t{kRmbe} << 16; // one whole wrap counter cycle

smcx_cdc_cursor curs(std::uint16_t wrap, std::uint32_t count) {
    smcx_cdc_cursor c{};
    c.wrap = wrap;
    c.count = count;
    return c;
}

smcx_cdc_cursor from_count(std::uint64_t n, std::uint32_t size = kRmbe) {
    smcx_cdc_cursor c = curs(0xdead, 0xdeadbeef);
    smcx_curs_from_count(n, size, &c);
    return c;
}

std::uint64_t to_count(std::uint64_t last, std::uint16_t wrap, std::uint32_t count,
                       std::uint32_t size = kRmbe) {
    const smcx_cdc_cursor c = curs(wrap, count);
    return smcx_curs_to_count(last, size, &c);
}

} // namespace

TEST(CursorFromCount, StartOfStreamIsZeroZero) {
    const auto c = from_count(0);
    EXPECT_EQ(c.wrap, 0);
    EXPECT_EQ(c.count, 0u);
}

TEST(CursorFromCount, LastByteOfFirstLapAndTheWrap) {
    auto c = from_count(kRmbe - 1);
    EXPECT_EQ(c.wrap, 0);
    EXPECT_EQ(c.count, kRmbe - 1);
    c = from_count(kRmbe); // the buffer end: wrap 1, count 0, never count == size
    EXPECT_EQ(c.wrap, 1);
    EXPECT_EQ(c.count, 0u);
    c = from_count(3 * kRmbe + 17);
    EXPECT_EQ(c.wrap, 3);
    EXPECT_EQ(c.count, 17u);
}

TEST(CursorFromCount, WrapCounterOverflowsAtSixteenBits) {
    auto c = from_count(kLaps - 1);
    EXPECT_EQ(c.wrap, 0xffff);
    EXPECT_EQ(c.count, kRmbe - 1);
    c = from_count(kLaps);
    EXPECT_EQ(c.wrap, 0);
    EXPECT_EQ(c.count, 0u);
    c = from_count(kLaps + kRmbe + 5);
    EXPECT_EQ(c.wrap, 1);
    EXPECT_EQ(c.count, 5u);
}

TEST(CursorFromCount, OtherRingSizes) {
    auto c = from_count(1000000, 524288); // 512 KiB, the largest buffer
    EXPECT_EQ(c.wrap, 1);
    EXPECT_EQ(c.count, 1000000u - 524288u);
    c = from_count(10, 3); // not a power of two: plain division
    EXPECT_EQ(c.wrap, 3);
    EXPECT_EQ(c.count, 1u);
}

TEST(CursorToCount, MovesForwardWithinTheLap) {
    EXPECT_EQ(to_count(0, 0, 100), 100u);
    EXPECT_EQ(to_count(100, 0, 150), 150u);
}

TEST(CursorToCount, EqualCursorIsNoMove) {
    EXPECT_EQ(to_count(0, 0, 0), 0u);
    EXPECT_EQ(to_count(5 * kRmbe + 7, 5, 7), 5 * kRmbe + 7);
}

TEST(CursorToCount, FullBufferIsExactlyOneRmbe) {
    EXPECT_EQ(to_count(0, 1, 0), std::uint64_t{kRmbe});
    EXPECT_EQ(to_count(100, 1, 100), 100u + kRmbe);
}

TEST(CursorToCount, MoreThanOneRmbeIsRefused) {
    EXPECT_EQ(to_count(0, 1, 1), 0u);
    EXPECT_EQ(to_count(100, 1, 101), 100u);
    EXPECT_EQ(to_count(100, 7, 0), 100u);
}

TEST(CursorToCount, BackwardsIsRefused) {
    EXPECT_EQ(to_count(200, 0, 100), 200u);
    EXPECT_EQ(to_count(kRmbe + 10, 0, 20), kRmbe + 10); // the wrap went back
}

TEST(CursorToCount, AcrossTheBufferEnd) {
    // last at count 16000 of lap 2, the peer wrote past the ring's end
    EXPECT_EQ(to_count(2 * kRmbe + 16000, 3, 100), 3 * kRmbe + 100);
}

TEST(CursorToCount, WrapCounterOverflowStillMovesForward) {
    const std::uint64_t last = 0xffffull * kRmbe + 16000; // wrap 0xffff
    EXPECT_EQ(to_count(last, 0, 100), kLaps + 100);
    EXPECT_EQ(to_count(last, 0, 100), 1073741924u);
    // many cycles of the wrap counter later, the count keeps growing
    EXPECT_EQ(to_count(3 * kLaps + 10, 0, 20), 3 * kLaps + 20);
    EXPECT_EQ(to_count(3 * kLaps - 1, 0, 0), 3 * kLaps);
}

TEST(CursorToCount, CountAtOrBeyondTheRingIsNoPosition) {
    // a writer's count goes back to 0 at the ring's end: (0, 16384) is not
    // (1, 0), and (0, 16385) is not 16385 (hostile rdma seed 2 case 1322)
    EXPECT_EQ(to_count(0, 0, kRmbe), 0u);
    EXPECT_EQ(to_count(0, 0, kRmbe + 1), 0u);
    EXPECT_EQ(to_count(1000, 0, kRmbe + 1), 1000u);
    EXPECT_EQ(to_count(kRmbe - 1, 0, kRmbe), kRmbe - 1u);
    // (0xffff, 16384 + 50) would be 50 bytes past the wrap counter's cycle
    EXPECT_EQ(to_count(0, 0xffff, kRmbe + 50), 0u);
    // a count of 0xffffffff must not overflow the arithmetic
    EXPECT_EQ(to_count(0, 0, 0xffffffffu), 0u);
    EXPECT_EQ(to_count(0, 0xffff, 0xffffffffu), 0u);
}

TEST(CursorToCount, RoundTripsEveryDistanceUpToOneRmbe) {
    const std::uint32_t size = 64;
    const std::uint64_t bases[] = {
        0, 63, 64, 1000, (std::uint64_t{size} << 16) - 3, (std::uint64_t{size} << 16) * 5 + 1};
    for (std::uint64_t last : bases)
        for (std::uint64_t d = 0; d <= size; ++d) {
            const auto c = from_count(last + d, size);
            ASSERT_EQ(smcx_curs_to_count(last, size, &c), last + d) << last << "+" << d;
        }
}

TEST(Ring, OffsetIsTheCount) {
    EXPECT_EQ(smcx_ring_off(0, kRmbe), 0u);
    EXPECT_EQ(smcx_ring_off(kRmbe - 1, kRmbe), kRmbe - 1);
    EXPECT_EQ(smcx_ring_off(kRmbe, kRmbe), 0u);
    EXPECT_EQ(smcx_ring_off(kLaps + 3, kRmbe), 3u);
}

TEST(Ring, ChunkStopsAtTheBufferEnd) {
    EXPECT_EQ(smcx_ring_chunk(16380, kRmbe, 10), 4u);
    EXPECT_EQ(smcx_ring_chunk(16384, kRmbe, 10), 10u);
    EXPECT_EQ(smcx_ring_chunk(kRmbe - 1, kRmbe, 1), 1u);
    EXPECT_EQ(smcx_ring_chunk(5, kRmbe, kRmbe), kRmbe - 5);
    EXPECT_EQ(smcx_ring_chunk(0, kRmbe, kRmbe), kRmbe); // a full ring in one piece
    EXPECT_EQ(smcx_ring_chunk(0, kRmbe, 1ull << 40), kRmbe);
}

TEST(Ring, ChunkOfNothingIsNothing) {
    EXPECT_EQ(smcx_ring_chunk(0, kRmbe, 0), 0u);
    EXPECT_EQ(smcx_ring_chunk(16383, kRmbe, 0), 0u);
}

TEST(Ring, TwoRingsSplitAtTheNearerEnd) {
    // send buffer 64 KiB, peer RMBE 16 KiB: a write from 40000 stops at 49152
    const std::uint64_t pos = 40000;
    const std::uint32_t l = smcx_ring_chunk(pos, kRmbe, smcx_ring_chunk(pos, 65536, 1 << 20));
    EXPECT_EQ(l, 9152u);
    // and the rest, from the peer's ring start, at the send buffer's end
    EXPECT_EQ(smcx_ring_chunk(pos + l, kRmbe, smcx_ring_chunk(pos + l, 65536, 1 << 20)), 16384u);
    EXPECT_EQ(smcx_ring_off(pos + l, kRmbe), 0u);
}

TEST(Space, EmptyPartlyFullAndFull) {
    EXPECT_EQ(smcx_curs_space(kRmbe, 500, 500), std::uint64_t{kRmbe});
    EXPECT_EQ(smcx_curs_space(kRmbe, 501, 500), kRmbe - 1u);
    EXPECT_EQ(smcx_curs_space(kRmbe, 500 + kRmbe, 500), 0u);
}

TEST(Space, CountsThatWrappedSixtyFourBits) {
    const std::uint64_t cons = ~std::uint64_t{0} - 9; // 10 bytes before 2^64
    EXPECT_EQ(smcx_curs_space(kRmbe, cons + 15, cons), kRmbe - 15u);
}

namespace {

enum smcx_curs_move rx_prod(std::uint16_t wrap, std::uint32_t count, std::uint64_t prod,
                            std::uint64_t cons, std::uint64_t* n) {
    const smcx_cdc_cursor c = curs(wrap, count);
    return smcx_curs_rx_prod(&c, kRmbe, prod, cons, n);
}

enum smcx_curs_move rx_cons(std::uint16_t wrap, std::uint32_t count, std::uint64_t cons,
                            std::uint64_t sent, std::uint64_t* n) {
    const smcx_cdc_cursor c = curs(wrap, count);
    return smcx_curs_rx_cons(&c, kRmbe, cons, sent, n);
}

} // namespace

TEST(ProducerUpdate, ForwardAndAtMostOneRmbe) {
    std::uint64_t n = 7;
    EXPECT_EQ(rx_prod(0, 101, 100, 100, &n), SMCX_CURS_FWD);
    EXPECT_EQ(n, 101u);
    EXPECT_EQ(rx_prod(1, 100, 100, 100, &n), SMCX_CURS_FWD); // fills the ring
    EXPECT_EQ(n, 100u + kRmbe);
    EXPECT_EQ(rx_prod(0, 100, 100, 50, &n), SMCX_CURS_SAME); // equal: no update
    // the limit counts from the consumer cursor, not the old producer
    EXPECT_EQ(rx_prod(1, 50, 1000, 50, &n), SMCX_CURS_FWD);
    EXPECT_EQ(n, 50u + kRmbe);
}

TEST(ProducerUpdate, EveryImpossibleCursorIsAProtocolError) {
    std::uint64_t n = 7;
    EXPECT_EQ(rx_prod(1, 101, 100, 100, &n), SMCX_CURS_BAD); // one byte beyond a full ring
    EXPECT_EQ(rx_prod(0, 99, 100, 50, &n), SMCX_CURS_BAD);   // backwards
    EXPECT_EQ(rx_prod(1, 51, 1000, 50, &n), SMCX_CURS_BAD);  // overwrites unread bytes
    EXPECT_EQ(rx_prod(7, 0, 100, 100, &n), SMCX_CURS_BAD);   // laps ahead
    // counts that name no position, even where the reduced one would fit
    EXPECT_EQ(rx_prod(0, kRmbe, 0, 0, &n), SMCX_CURS_BAD);
    EXPECT_EQ(rx_prod(0, kRmbe + 1, 0, 0, &n), SMCX_CURS_BAD);
    EXPECT_EQ(rx_prod(0, kRmbe + 1, 1000, 1000, &n), SMCX_CURS_BAD);
    EXPECT_EQ(rx_prod(0xffff, kRmbe + 50, 0, 0, &n), SMCX_CURS_BAD);
    EXPECT_EQ(rx_prod(0, 0xffffffffu, 0, 0, &n), SMCX_CURS_BAD);
    EXPECT_EQ(n, 7u); // untouched
}

TEST(ProducerUpdate, ValidSequenceAcrossTheWrapCounterNeverFails) {
    // a writer that fills and a reader that empties the ring, lap after lap
    std::uint64_t prod = 0, cons = 0, n = 0;
    const std::uint64_t steps[] = {1, kRmbe - 1, kRmbe, 17, 4096};
    for (int i = 0; i < 70000 * 2; ++i) {
        const std::uint64_t want = prod + steps[i % 5];
        const smcx_cdc_cursor c = from_count(want);
        ASSERT_EQ(smcx_curs_rx_prod(&c, kRmbe, prod, cons, &n), SMCX_CURS_FWD) << i;
        ASSERT_EQ(n, want);
        prod = cons = n;
    }
}

TEST(ConsumerUpdate, ForwardAndNotPastWhatWasSent) {
    std::uint64_t n = 7;
    EXPECT_EQ(rx_cons(0, 10, 0, 10, &n), SMCX_CURS_FWD);
    EXPECT_EQ(n, 10u);
    EXPECT_EQ(rx_cons(0, 1, 0, 10, &n), SMCX_CURS_FWD);
    EXPECT_EQ(n, 1u);
    EXPECT_EQ(rx_cons(0, 0, 0, 10, &n), SMCX_CURS_SAME); // equal
    EXPECT_EQ(rx_cons(0, 0, 0, 0, &n), SMCX_CURS_SAME);  // nothing sent yet
}

TEST(ConsumerUpdate, EveryImpossibleCursorIsAProtocolError) {
    std::uint64_t n = 7;
    EXPECT_EQ(rx_cons(0, 11, 0, 10, &n), SMCX_CURS_BAD); // past what was sent
    EXPECT_EQ(rx_cons(0, 4, 5, 10, &n), SMCX_CURS_BAD);  // backwards
    EXPECT_EQ(rx_cons(0, 2, 0, 0, &n), SMCX_CURS_BAD);   // nothing was sent
    EXPECT_EQ(rx_cons(0, kRmbe, 0, 2 * kRmbe, &n), SMCX_CURS_BAD);
    EXPECT_EQ(rx_cons(0x1234, 0xffffffffu, 0, 2 * kRmbe, &n), SMCX_CURS_BAD);
    EXPECT_EQ(n, 7u);
}

// the peer's RMB view full: only the limit counts
TEST(ConsumerUpdate, DueAtTheLimit) {
    for (bool blocked : {false, true}) {
        EXPECT_FALSE(smcx_curs_update_due(16384, 1637, 0, 16384, 1638, blocked));
        EXPECT_TRUE(smcx_curs_update_due(16384, 1638, 0, 16384, 1638, blocked));
        EXPECT_TRUE(smcx_curs_update_due(17384, 5000, 1000, 16384, 1638, blocked));
        EXPECT_FALSE(smcx_curs_update_due(17384, 1000, 1000, 16384, 1, blocked));
        EXPECT_TRUE(smcx_curs_update_due(17384, 1000, 1000, 16384, 0, blocked));
    }
}

// the peer still sees half the RMB or more free: no update for it
TEST(ConsumerUpdate, NotWhileThePeerHasHalfTheRmbFree) {
    const std::uint32_t size = 1 << 20, limit = size / 10;
    // 200 KiB written and read: the peer sees 200 KiB unread of 1 MiB
    EXPECT_FALSE(smcx_curs_update_due(200 << 10, 200 << 10, 0, size, limit, false));
    // 512 KiB written: half full in its view
    EXPECT_TRUE(smcx_curs_update_due(512 << 10, 200 << 10, 0, size, limit, false));
    EXPECT_FALSE(smcx_curs_update_due((512 << 10) - 1, 200 << 10, 0, size, limit, false));
    // counts past 4 GiB (cursors are 64-bit byte counts)
    const std::uint64_t base = 5ull << 32;
    EXPECT_TRUE(smcx_curs_update_due(base + size, base + limit, base, size, limit, false));
    EXPECT_FALSE(smcx_curs_update_due(base + size, base + limit - 1, base, size, limit, false));
}

// a blocked peer gets the update once the limit is passed, not before:
// one CDC per receive call was twice what a stock receiver sends
TEST(ConsumerUpdate, BlockedPeerWaitsForTheLimitOnly) {
    const std::uint32_t size = 1 << 20, limit = size / 10;
    // 64 KiB read of a full RMB, the peer's view older than our last update
    EXPECT_FALSE(smcx_curs_update_due(300 << 10, 64 << 10, 0, size, limit, true));
    EXPECT_TRUE(smcx_curs_update_due(300 << 10, 128 << 10, 0, size, limit, true));
    EXPECT_FALSE(smcx_curs_update_due(300 << 10, 128 << 10, 0, size, limit, false));
    // nothing read since the last update: never, even when asked
    EXPECT_FALSE(smcx_curs_update_due(size, 0, 0, size, limit, true));
}

// no stall: whatever emptied the RMB a blocked writer filled (it stated a
// producer cursor one RMBE past what we last sent) makes the update due,
// for every buffer size and the limit the kernel derives from it
TEST(ConsumerUpdate, EmptyingWhatABlockedWriterFilledIsAlwaysDue) {
    constexpr std::uint32_t kMinSndbufHalf = 2304; // SOCK_MIN_SNDBUF / 2, x86-64
    for (std::uint32_t size = kRmbe; size && size <= (512u << 20); size <<= 1) {
        const std::uint32_t limit = std::max(size / 10, kMinSndbufHalf);
        for (std::uint64_t sent :
             {std::uint64_t{0}, std::uint64_t{12345}, std::uint64_t{7} << 32}) {
            for (bool blocked : {false, true}) {
                const std::uint64_t prod = sent + size;
                EXPECT_TRUE(smcx_curs_update_due(prod, prod, sent, size, limit, blocked))
                    << size << " " << sent;
            }
        }
    }
}

// CDC sequence numbers: serial arithmetic over 16 bits
TEST(CdcSeq, OlderIsBeforeAcrossTheWrap) {
    EXPECT_TRUE(smcx_cdc_seq_before(1, 2));
    EXPECT_FALSE(smcx_cdc_seq_before(2, 1));
    EXPECT_FALSE(smcx_cdc_seq_before(7, 7)); // a repeat is not older
    EXPECT_TRUE(smcx_cdc_seq_before(0xffff, 0));
    EXPECT_TRUE(smcx_cdc_seq_before(0xfff0, 0x0010));
    EXPECT_FALSE(smcx_cdc_seq_before(0x0010, 0xfff0));
}

// mainline's failover validation names the peer's last completed CDC
TEST(CdcSeq, ValidationLostOnlyWhenItNamesOneWeDidNotTake) {
    EXPECT_FALSE(smcx_cdc_validation_lost(true, 7, 7));           // the one we took last
    EXPECT_FALSE(smcx_cdc_validation_lost(true, 7, 5));           // older: we have more
    EXPECT_TRUE(smcx_cdc_validation_lost(true, 7, 8));            // one we never saw
    EXPECT_FALSE(smcx_cdc_validation_lost(true, 0x0002, 0xfffe)); // across the wrap
    EXPECT_TRUE(smcx_cdc_validation_lost(true, 0xfffe, 0x0002));
    EXPECT_FALSE(smcx_cdc_validation_lost(false, 0, 0)); // none sent, none taken
    EXPECT_TRUE(smcx_cdc_validation_lost(false, 0, 1));  // the first one was lost
}

TEST(CdcSeq, HalfTheSpaceDecides) {
    EXPECT_FALSE(smcx_cdc_seq_before(0x7fff, 0)); // ahead by 0x7fff
    EXPECT_TRUE(smcx_cdc_seq_before(0x8000, 0));  // the midpoint counts as older
    EXPECT_TRUE(smcx_cdc_seq_before(0x8001, 0));
    EXPECT_FALSE(smcx_cdc_seq_before(0, 0x8001));
    // a long stream: each number is after the one before, every wrap included
    for (unsigned int i = 0; i < 3 * 65536; i++) {
        std::uint16_t a = static_cast<std::uint16_t>(i), b = static_cast<std::uint16_t>(i + 1);
        ASSERT_TRUE(smcx_cdc_seq_before(a, b)) << i;
        ASSERT_FALSE(smcx_cdc_seq_before(b, a)) << i;
    }
}
