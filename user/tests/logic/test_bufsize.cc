// SPDX-License-Identifier: GPL-2.0
// include/smcx/bufsize.h: the CLC's compressed buffer size (16 KiB << n,
// n 0..15) and the size a socket's sk_sndbuf / sk_rcvbuf asks for.
#include <gtest/gtest.h>

#include <smcx/bufsize.h>
#include <smcx/cursor.h>

#include <climits>
#include <cstdint>

namespace {

constexpr std::uint32_t kMiB = 1u << 20;

std::uint32_t for_sock(int skbuf) {
    return smcx_bufsize_uncompress(smcx_bufsize_for_sock(skbuf));
}

} // namespace

TEST(BufSize, CompressRoundsUpToTheNextPowerOfTwo) {
    EXPECT_EQ(smcx_bufsize_compress(0), 0);
    EXPECT_EQ(smcx_bufsize_compress(1), 0);
    EXPECT_EQ(smcx_bufsize_compress(16384), 0);
    EXPECT_EQ(smcx_bufsize_compress(16385), 1);
    EXPECT_EQ(smcx_bufsize_compress(32768), 1);
    EXPECT_EQ(smcx_bufsize_compress(65536), 2);
    EXPECT_EQ(smcx_bufsize_compress(100000), 3);
    EXPECT_EQ(smcx_bufsize_compress(512 * 1024), 5);
    EXPECT_EQ(smcx_bufsize_compress(512 * 1024 + 1), 6);
    EXPECT_EQ(smcx_bufsize_compress(kMiB), 6);
    EXPECT_EQ(smcx_bufsize_compress(256 * kMiB + 1), 15);
    EXPECT_EQ(smcx_bufsize_compress(512 * kMiB), 15);
}

TEST(BufSize, CompressStopsAt512MiB) {
    EXPECT_EQ(smcx_bufsize_compress(512ull * kMiB + 1), 15);
    EXPECT_EQ(smcx_bufsize_compress(UINT64_MAX), 15);
}

TEST(BufSize, UncompressIsSixteenKiBShifted) {
    for (std::uint8_t n = 0; n <= 15; ++n) {
        EXPECT_EQ(smcx_bufsize_uncompress(n), 16384u << n) << int(n);
        EXPECT_EQ(smcx_bufsize_compress(smcx_bufsize_uncompress(n)), n) << int(n);
    }
    EXPECT_EQ(SMCX_BUFSIZE_MAX, 512 * kMiB);
}

TEST(BufSize, UncompressOfAnOutOfRangeValueIsTheMaximum) {
    // a 4-bit wire field cannot carry more; no undefined shift if it did
    EXPECT_EQ(smcx_bufsize_uncompress(16), SMCX_BUFSIZE_MAX);
    EXPECT_EQ(smcx_bufsize_uncompress(255), SMCX_BUFSIZE_MAX);
}

TEST(BufSize, SocketAsksForHalfItsSkBuf) {
    // SO_SNDBUF N stores 2 N: the buffer is N rounded up
    EXPECT_EQ(for_sock(2 * 65536), 65536u); // net.smc.wmem default
    EXPECT_EQ(for_sock(2 * 20000), 32768u);
    EXPECT_EQ(for_sock(2 * 100000), 131072u);
    EXPECT_EQ(for_sock(2 * 200000), 262144u);
    EXPECT_EQ(for_sock(2 * static_cast<int>(kMiB)), kMiB);
    EXPECT_EQ(for_sock(2 * 212992), 262144u); // net.core.wmem_max's default
}

TEST(BufSize, SocketExtremes) {
    EXPECT_EQ(for_sock(4608), 16384u); // SOCK_MIN_SNDBUF: the minimum
    EXPECT_EQ(for_sock(0), 16384u);
    EXPECT_EQ(for_sock(-1), 16384u);
    EXPECT_EQ(for_sock(INT_MAX), SMCX_BUFSIZE_MAX); // 2 x sysctl max (INT_MAX / 2)
    EXPECT_EQ(for_sock(2 * (INT_MAX / 2)), SMCX_BUFSIZE_MAX);
}

TEST(BufSize, CursorsOfA512MiBRing) {
    // the largest ring: counts, wraps and distances stay exact
    const std::uint32_t size = SMCX_BUFSIZE_MAX;
    const std::uint64_t n = (std::uint64_t{0xffff} * size) + size - 1;
    smcx_cdc_cursor c{};
    smcx_curs_from_count(n, size, &c);
    EXPECT_EQ(c.wrap, 0xffff);
    EXPECT_EQ(c.count, size - 1);
    EXPECT_EQ(smcx_curs_to_count(n - size + 1, size, &c), n);
    smcx_curs_from_count(n + 1, size, &c);
    EXPECT_EQ(c.wrap, 0);
    EXPECT_EQ(c.count, 0u);
    EXPECT_EQ(smcx_curs_to_count(n, size, &c), n + 1);
    EXPECT_EQ(smcx_ring_chunk(n, size, 4096), 1u);
    EXPECT_EQ(smcx_curs_space(size, n + 1, n + 1 - size), 0u);
    std::uint64_t got = 0;
    EXPECT_EQ(smcx_curs_judge(&c, size, n, n + 1, &got), SMCX_CURS_FWD);
    EXPECT_EQ(got, n + 1);
    c.count = size; // not a position
    EXPECT_EQ(smcx_curs_judge(&c, size, n, n + size, &got), SMCX_CURS_BAD);
}
