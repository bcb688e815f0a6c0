// SPDX-License-Identifier: GPL-2.0
// include/smcx/state.h: AF_SMC socket states (Linux's numbers, which
// sock_diag reports), and the close states the protocol passes through
// in the orderly and abortive closes RFC 7609 describes, as the one state
// machine (smcx_close_step(), include/smcx/close.h) takes them.  Its
// every-event-in-every-state table is test_close.cc.
#include <gtest/gtest.h>

#include <smcx/close.h>
#include <smcx/state.h>

#include <cstdint>
#include <initializer_list>

namespace {

using Ev = smcx_close_ev;

struct Step {
    Ev ev;
    std::uint8_t want; // the state after it
};

// An SMC-R connection up and named to the peer, fed @steps in order.
void walk(std::initializer_list<Step> steps) {
    smcx_close c{};
    c.state = SMCX_ACTIVE;
    c.exposed = true;
    int i = 0;
    for (const Step& s : steps) {
        c = smcx_close_step(c, s.ev).next;
        EXPECT_EQ(int(c.state), int(s.want)) << "step " << i << " (event " << s.ev << ")";
        ++i;
    }
}

} // namespace

TEST(StateNumbers, AreLinuxSmcStateNumbers) {
    // net/smc/smc.h enum smc_state: smc_diag's diag_state, smcss's input
    EXPECT_EQ(SMCX_ACTIVE, 1);
    EXPECT_EQ(SMCX_INIT, 2);
    EXPECT_EQ(SMCX_CLOSED, 7);
    EXPECT_EQ(SMCX_LISTEN, 10);
    EXPECT_EQ(SMCX_PEERCLOSEWAIT1, 20);
    EXPECT_EQ(SMCX_PEERCLOSEWAIT2, 21);
    EXPECT_EQ(SMCX_APPCLOSEWAIT1, 22);
    EXPECT_EQ(SMCX_APPCLOSEWAIT2, 23);
    EXPECT_EQ(SMCX_APPFINCLOSEWAIT, 24);
    EXPECT_EQ(SMCX_PEERFINCLOSEWAIT, 25);
    EXPECT_EQ(SMCX_PEERABORTWAIT, 26);
    EXPECT_EQ(SMCX_PROCESSABORT, 27);
}

TEST(CloseOrderly, CloseFirst) {
    // close(): closed goes out; the peer's done writing, then its closed
    walk({{SMCX_CLOSE_EV_CLOSE, SMCX_PEERCLOSEWAIT1},
          {SMCX_CLOSE_EV_PEER_DONE, SMCX_PEERCLOSEWAIT2},
          {SMCX_CLOSE_EV_PEER_CLOSED, SMCX_CLOSED}});
}

TEST(CloseOrderly, PeerClosesFirst) {
    // one CDC with done writing and closed: PEER_DONE, then PEER_CLOSED
    walk({{SMCX_CLOSE_EV_PEER_DONE, SMCX_APPCLOSEWAIT1},
          {SMCX_CLOSE_EV_PEER_CLOSED, SMCX_APPCLOSEWAIT1},
          {SMCX_CLOSE_EV_CLOSE, SMCX_CLOSED}});
}

TEST(CloseOrderly, HalfCloseThenPeerCloses) {
    // shutdown(SHUT_WR) here, the peer reads EOF, writes, closes; then close()
    walk({{SMCX_CLOSE_EV_SHUT_WR, SMCX_PEERCLOSEWAIT1},
          {SMCX_CLOSE_EV_PEER_DONE, SMCX_PEERCLOSEWAIT2},
          {SMCX_CLOSE_EV_PEER_CLOSED, SMCX_APPFINCLOSEWAIT},
          {SMCX_CLOSE_EV_CLOSE, SMCX_CLOSED}});
}

TEST(CloseOrderly, PeerHalfClosesThenWeClose) {
    walk({{SMCX_CLOSE_EV_PEER_DONE, SMCX_APPCLOSEWAIT1},
          {SMCX_CLOSE_EV_SHUT_WR, SMCX_APPCLOSEWAIT2},
          {SMCX_CLOSE_EV_CLOSE, SMCX_PEERFINCLOSEWAIT},
          {SMCX_CLOSE_EV_PEER_CLOSED, SMCX_CLOSED}});
    // close() without shutdown first: APPCLOSEWAIT1 goes the same way
    walk({{SMCX_CLOSE_EV_PEER_DONE, SMCX_APPCLOSEWAIT1},
          {SMCX_CLOSE_EV_CLOSE, SMCX_PEERFINCLOSEWAIT}});
}

TEST(CloseOrderly, RepeatedFlagsChangeNothing) {
    // every later CDC repeats the flags, a second shutdown or close is a no-op
    walk({{SMCX_CLOSE_EV_SHUT_WR, SMCX_PEERCLOSEWAIT1},
          {SMCX_CLOSE_EV_SHUT_WR, SMCX_PEERCLOSEWAIT1},
          {SMCX_CLOSE_EV_PEER_DONE, SMCX_PEERCLOSEWAIT2},
          {SMCX_CLOSE_EV_PEER_DONE, SMCX_PEERCLOSEWAIT2},
          {SMCX_CLOSE_EV_PEER_CLOSED, SMCX_APPFINCLOSEWAIT},
          {SMCX_CLOSE_EV_PEER_CLOSED, SMCX_APPFINCLOSEWAIT}});
    walk({{SMCX_CLOSE_EV_PEER_DONE, SMCX_APPCLOSEWAIT1},
          {SMCX_CLOSE_EV_PEER_DONE, SMCX_APPCLOSEWAIT1},
          {SMCX_CLOSE_EV_CLOSE, SMCX_PEERFINCLOSEWAIT},
          {SMCX_CLOSE_EV_CLOSE, SMCX_PEERFINCLOSEWAIT}});
}

TEST(CloseAbort, PeerAbortsWhileTheApplicationHoldsIt) {
    walk({{SMCX_CLOSE_EV_PEER_ABORT, SMCX_PROCESSABORT}, {SMCX_CLOSE_EV_CLOSE, SMCX_CLOSED}});
    // after our shutdown, or after the peer's done writing: the same
    walk({{SMCX_CLOSE_EV_SHUT_WR, SMCX_PEERCLOSEWAIT1},
          {SMCX_CLOSE_EV_PEER_ABORT, SMCX_PROCESSABORT}});
    walk({{SMCX_CLOSE_EV_PEER_DONE, SMCX_APPCLOSEWAIT1},
          {SMCX_CLOSE_EV_PEER_ABORT, SMCX_PROCESSABORT}});
}

TEST(CloseAbort, PeerAbortsAfterOurClose) {
    // nothing is left to do
    walk({{SMCX_CLOSE_EV_CLOSE, SMCX_PEERCLOSEWAIT1}, {SMCX_CLOSE_EV_PEER_ABORT, SMCX_CLOSED}});
    walk({{SMCX_CLOSE_EV_PEER_DONE, SMCX_APPCLOSEWAIT1},
          {SMCX_CLOSE_EV_CLOSE, SMCX_PEERFINCLOSEWAIT},
          {SMCX_CLOSE_EV_PEER_ABORT, SMCX_CLOSED}});
}

TEST(CloseAbort, WeAbort) {
    // close() with unread data: the abort goes out, the peer answers with
    // its abort, or with any bit (it writes no more after it)
    walk({{SMCX_CLOSE_EV_DROP, SMCX_PEERABORTWAIT}, {SMCX_CLOSE_EV_PEER_ABORT, SMCX_CLOSED}});
    walk({{SMCX_CLOSE_EV_DROP, SMCX_PEERABORTWAIT}, {SMCX_CLOSE_EV_PEER_DONE, SMCX_CLOSED}});
    // the peer never closed after ours: the close wait ends in an abort
    walk({{SMCX_CLOSE_EV_CLOSE, SMCX_PEERCLOSEWAIT1},
          {SMCX_CLOSE_EV_TIMEOUT, SMCX_PEERABORTWAIT},
          {SMCX_CLOSE_EV_GONE, SMCX_CLOSED}});
}

TEST(CloseEnd, GoneEndsEveryConnectionState) {
    const std::initializer_list<Step> before[] = {
        {},
        {{SMCX_CLOSE_EV_SHUT_WR, SMCX_PEERCLOSEWAIT1}},
        {{SMCX_CLOSE_EV_PEER_DONE, SMCX_APPCLOSEWAIT1}},
        {{SMCX_CLOSE_EV_PEER_ABORT, SMCX_PROCESSABORT}},
    };
    for (const auto& steps : before) {
        smcx_close c{};
        c.state = SMCX_ACTIVE;
        c.exposed = true;
        for (const Step& s : steps)
            c = smcx_close_step(c, s.ev).next;
        // the application still holds it: it reads the end, then closes
        c = smcx_close_step(c, SMCX_CLOSE_EV_GONE).next;
        c = smcx_close_step(c, SMCX_CLOSE_EV_CLOSE).next;
        EXPECT_EQ(int(c.state), int(SMCX_CLOSED));
    }
}
