// SPDX-License-Identifier: GPL-2.0
// include/smcx/sniff.h: the server's look at the first bytes of a client
// that announced SMC.  Each test is a sequence of passes (a peek, then the
// socket's error and receive shutdown) as smcx_clc_sniff() makes them.
#include <gtest/gtest.h>

#include <smcx/sniff.h>

#include <cstdint>
#include <vector>

namespace {

const std::vector<std::uint8_t> kSmcr = {0xe2, 0xd4, 0xc3, 0xd9};
const std::vector<std::uint8_t> kSmcd = {0xe2, 0xd4, 0xc3, 0xc4};
// a v1 Decline, as the hostile client's decline-first cases send it
const std::vector<std::uint8_t> kDecline = {0xe2, 0xd4, 0xc3, 0xd9, 0x04, 0x00, 0x1c, 0x10};

smcx_sniff_verdict pass(const std::vector<std::uint8_t>& q, unsigned int n, int* final,
                        int shut = 0, int err = 0, int eof = 0) {
    smcx_sniff_pass p{};
    p.b = q.data();
    p.n = n;
    p.eof = eof;
    p.err = err;
    p.shut = shut;
    return smcx_sniff_step(&p, final);
}

TEST(Sniff, WholeEyecatcherIsClc) {
    int final = 0;
    EXPECT_EQ(pass(kSmcr, 4, &final), SMCX_SNIFF_CLC);
    EXPECT_EQ(pass(kSmcd, 4, &final), SMCX_SNIFF_CLC);
    // a FIN behind a whole message does not matter: the message is read
    EXPECT_EQ(pass(kDecline, 4, &final, 1), SMCX_SNIFF_CLC);
}

TEST(Sniff, OtherFirstByteIsTcp) {
    int final = 0;
    const std::vector<std::uint8_t> get = {'G', 'E', 'T', ' '};
    EXPECT_EQ(pass(get, 1, &final), SMCX_SNIFF_TCP);
    const std::vector<std::uint8_t> late = {0xe2, 0xd4, 0x00, 0x00};
    EXPECT_EQ(pass(late, 3, &final), SMCX_SNIFF_TCP);
}

TEST(Sniff, NothingQueuedWaits) {
    int final = 0;
    EXPECT_EQ(pass(kSmcr, 0, &final), SMCX_SNIFF_WAIT);
    EXPECT_EQ(pass(kSmcr, 2, &final), SMCX_SNIFF_WAIT);
    EXPECT_EQ(final, 0);
}

TEST(Sniff, FinBeforeAnyByteIsTcp) {
    int final = 0;
    EXPECT_EQ(pass(kSmcr, 0, &final, 1, 0, 1), SMCX_SNIFF_TCP);
}

TEST(Sniff, ErrorEndsIt) {
    int final = 0;
    EXPECT_EQ(pass(kSmcr, 2, &final, 1, 104), SMCX_SNIFF_ERR);
}

// make hostile, seed 20261202, decline-first cases 1025, 4241, 83661 and
// prop-dup case 66420: the peek finds nothing queued, then the Decline,
// the probe and the FIN arrive before the shutdown check.  The stream is
// CLC: a look once more must find the eyecatcher, not call it TCP (which
// handed the Decline to the application).
TEST(Sniff, FinSeenAfterAnEmptyPeekPeeksAgain) {
    int final = 0;
    EXPECT_EQ(pass(kDecline, 0, &final, 1), SMCX_SNIFF_PEEK);
    EXPECT_EQ(pass(kDecline, 4, &final, 1), SMCX_SNIFF_CLC);
}

// seed 1, cases 1536 and 1707: part of the eyecatcher peeked, then the
// rest of the Proposal and the FIN
TEST(Sniff, FinSeenAfterAPartialPeekPeeksAgain) {
    int final = 0;
    EXPECT_EQ(pass(kSmcr, 2, &final, 1), SMCX_SNIFF_PEEK);
    EXPECT_EQ(pass(kSmcr, 4, &final, 1), SMCX_SNIFF_CLC);
}

// F1: 1-3 eyecatcher bytes, then FIN: after the second look the queue is
// final and those bytes are the application's
TEST(Sniff, PartialEyecatcherThenFinIsTcpOnTheSecondLook) {
    for (unsigned int n = 0; n < 4; n++) {
        int final = 0;
        EXPECT_EQ(pass(kSmcd, n, &final, 1), SMCX_SNIFF_PEEK) << n;
        EXPECT_EQ(pass(kSmcd, n, &final, 1), SMCX_SNIFF_TCP) << n;
    }
}

} // namespace
