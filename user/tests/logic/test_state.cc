// SPDX-License-Identifier: GPL-2.0
// include/smcx/state.h: AF_SMC socket states (Linux's numbers, which
// sock_diag reports) and the close protocol's transitions.
#include <gtest/gtest.h>

#include <smcx/state.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <iterator>

namespace {

using Ev = smcx_close_ev;

// Feed @events to @state, each with the (released, peer_closed) that the
// kernel would hold at that moment; the state after each step.
struct Step {
    Ev ev;
    bool released;
    bool peer_closed;
    std::uint8_t want;
};

void walk(std::uint8_t state, std::initializer_list<Step> steps) {
    int i = 0;
    for (const Step& s : steps) {
        state = smcx_close_next(state, s.ev, s.released, s.peer_closed);
        EXPECT_EQ(state, s.want) << "step " << i;
        ++i;
    }
}

constexpr std::uint8_t kAll[] = {
    SMCX_ACTIVE,           SMCX_INIT,           SMCX_CLOSED,
    SMCX_LISTEN,           SMCX_PEERCLOSEWAIT1, SMCX_PEERCLOSEWAIT2,
    SMCX_APPCLOSEWAIT1,    SMCX_APPCLOSEWAIT2,  SMCX_APPFINCLOSEWAIT,
    SMCX_PEERFINCLOSEWAIT, SMCX_PEERABORTWAIT,  SMCX_PROCESSABORT,
};
constexpr Ev kEvents[] = {
    SMCX_CLOSE_EV_SHUT_WR,   SMCX_CLOSE_EV_CLOSE,       SMCX_CLOSE_EV_ABORT,
    SMCX_CLOSE_EV_PEER_DONE, SMCX_CLOSE_EV_PEER_CLOSED, SMCX_CLOSE_EV_PEER_ABORT,
    SMCX_CLOSE_EV_GONE,
};

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
    walk(SMCX_ACTIVE, {{SMCX_CLOSE_EV_CLOSE, false, false, SMCX_PEERCLOSEWAIT1},
                       {SMCX_CLOSE_EV_CLOSE, true, false, SMCX_PEERCLOSEWAIT1},
                       {SMCX_CLOSE_EV_PEER_DONE, true, false, SMCX_PEERCLOSEWAIT2},
                       {SMCX_CLOSE_EV_PEER_CLOSED, true, true, SMCX_CLOSED}});
}

TEST(CloseOrderly, PeerClosesFirst) {
    // one CDC with done writing and closed: PEER_DONE, then PEER_CLOSED
    walk(SMCX_ACTIVE, {{SMCX_CLOSE_EV_PEER_DONE, false, true, SMCX_APPCLOSEWAIT1},
                       {SMCX_CLOSE_EV_PEER_CLOSED, false, true, SMCX_APPCLOSEWAIT1},
                       {SMCX_CLOSE_EV_CLOSE, false, true, SMCX_CLOSED}});
}

TEST(CloseOrderly, HalfCloseThenPeerCloses) {
    // shutdown(SHUT_WR) here, the peer reads EOF, writes, closes; then close()
    walk(SMCX_ACTIVE, {{SMCX_CLOSE_EV_SHUT_WR, false, false, SMCX_PEERCLOSEWAIT1},
                       {SMCX_CLOSE_EV_PEER_DONE, false, false, SMCX_PEERCLOSEWAIT2},
                       {SMCX_CLOSE_EV_PEER_CLOSED, false, true, SMCX_APPFINCLOSEWAIT},
                       {SMCX_CLOSE_EV_CLOSE, false, true, SMCX_CLOSED}});
}

TEST(CloseOrderly, PeerHalfClosesThenWeClose) {
    walk(SMCX_ACTIVE, {{SMCX_CLOSE_EV_PEER_DONE, false, false, SMCX_APPCLOSEWAIT1},
                       {SMCX_CLOSE_EV_SHUT_WR, false, false, SMCX_APPCLOSEWAIT2},
                       {SMCX_CLOSE_EV_CLOSE, false, false, SMCX_PEERFINCLOSEWAIT},
                       {SMCX_CLOSE_EV_PEER_CLOSED, true, true, SMCX_CLOSED}});
    // close() without shutdown first: APPCLOSEWAIT1 goes the same way
    walk(SMCX_APPCLOSEWAIT1, {{SMCX_CLOSE_EV_CLOSE, false, false, SMCX_PEERFINCLOSEWAIT}});
}

TEST(CloseOrderly, ClosesCross) {
    // both close at once: the peer's closed may arrive before close() ends
    walk(SMCX_ACTIVE, {{SMCX_CLOSE_EV_CLOSE, false, false, SMCX_PEERCLOSEWAIT1},
                       {SMCX_CLOSE_EV_PEER_DONE, false, true, SMCX_PEERCLOSEWAIT2},
                       {SMCX_CLOSE_EV_PEER_CLOSED, false, true, SMCX_APPFINCLOSEWAIT},
                       {SMCX_CLOSE_EV_CLOSE, true, true, SMCX_CLOSED}});
}

TEST(CloseOrderly, RepeatedFlagsChangeNothing) {
    // every later CDC repeats the flags
    EXPECT_EQ(smcx_close_next(SMCX_PEERCLOSEWAIT2, SMCX_CLOSE_EV_PEER_DONE, false, false),
              SMCX_PEERCLOSEWAIT2);
    EXPECT_EQ(smcx_close_next(SMCX_APPCLOSEWAIT2, SMCX_CLOSE_EV_PEER_DONE, false, false),
              SMCX_APPCLOSEWAIT2);
    EXPECT_EQ(smcx_close_next(SMCX_APPFINCLOSEWAIT, SMCX_CLOSE_EV_PEER_CLOSED, false, true),
              SMCX_APPFINCLOSEWAIT);
    EXPECT_EQ(smcx_close_next(SMCX_PEERCLOSEWAIT1, SMCX_CLOSE_EV_SHUT_WR, false, false),
              SMCX_PEERCLOSEWAIT1);
    EXPECT_EQ(smcx_close_next(SMCX_PEERFINCLOSEWAIT, SMCX_CLOSE_EV_CLOSE, true, false),
              SMCX_PEERFINCLOSEWAIT);
}

TEST(CloseAbort, PeerAborts) {
    walk(SMCX_ACTIVE, {{SMCX_CLOSE_EV_PEER_ABORT, false, false, SMCX_PROCESSABORT},
                       {SMCX_CLOSE_EV_CLOSE, true, false, SMCX_CLOSED}});
    // after our shutdown: the application still has to close
    EXPECT_EQ(smcx_close_next(SMCX_PEERCLOSEWAIT1, SMCX_CLOSE_EV_PEER_ABORT, false, false),
              SMCX_PROCESSABORT);
    // after our close: nothing is left to do
    EXPECT_EQ(smcx_close_next(SMCX_PEERCLOSEWAIT2, SMCX_CLOSE_EV_PEER_ABORT, true, false),
              SMCX_CLOSED);
    EXPECT_EQ(smcx_close_next(SMCX_APPCLOSEWAIT1, SMCX_CLOSE_EV_PEER_ABORT, false, false),
              SMCX_PROCESSABORT);
    EXPECT_EQ(smcx_close_next(SMCX_APPCLOSEWAIT2, SMCX_CLOSE_EV_PEER_ABORT, false, false),
              SMCX_CLOSED);
    EXPECT_EQ(smcx_close_next(SMCX_APPFINCLOSEWAIT, SMCX_CLOSE_EV_PEER_ABORT, false, true),
              SMCX_PROCESSABORT);
    EXPECT_EQ(smcx_close_next(SMCX_PEERFINCLOSEWAIT, SMCX_CLOSE_EV_PEER_ABORT, true, false),
              SMCX_CLOSED);
}

TEST(CloseAbort, WeAbort) {
    // close() with unread data: the abort goes out, the peer answers with its own
    walk(SMCX_ACTIVE, {{SMCX_CLOSE_EV_ABORT, false, false, SMCX_PEERABORTWAIT},
                       {SMCX_CLOSE_EV_CLOSE, true, false, SMCX_PEERABORTWAIT},
                       {SMCX_CLOSE_EV_PEER_DONE, true, true, SMCX_PEERABORTWAIT},
                       {SMCX_CLOSE_EV_PEER_ABORT, true, true, SMCX_CLOSED}});
    // the peer never closed after ours (close work)
    walk(SMCX_PEERFINCLOSEWAIT, {{SMCX_CLOSE_EV_ABORT, true, false, SMCX_PEERABORTWAIT},
                                 {SMCX_CLOSE_EV_GONE, true, false, SMCX_CLOSED}});
    EXPECT_EQ(smcx_close_next(SMCX_APPFINCLOSEWAIT, SMCX_CLOSE_EV_ABORT, false, true), SMCX_CLOSED);
    EXPECT_EQ(smcx_close_next(SMCX_PROCESSABORT, SMCX_CLOSE_EV_ABORT, false, false), SMCX_CLOSED);
}

TEST(CloseEnd, GoneClosesEveryConnectionState) {
    for (std::uint8_t s : kAll)
        for (bool rel : {false, true})
            EXPECT_EQ(smcx_close_next(s, SMCX_CLOSE_EV_GONE, rel, rel),
                      s == SMCX_LISTEN ? SMCX_LISTEN : SMCX_CLOSED)
                << int(s);
}

TEST(CloseEnd, ClosedAndListenNeverMove) {
    for (std::uint8_t s : {std::uint8_t{SMCX_CLOSED}, std::uint8_t{SMCX_LISTEN}})
        for (Ev ev : kEvents)
            for (bool rel : {false, true})
                for (bool pc : {false, true})
                    EXPECT_EQ(smcx_close_next(s, ev, rel, pc), s) << int(s) << " " << ev;
}

TEST(CloseEnd, EveryResultIsAState) {
    for (std::uint8_t s : kAll)
        for (Ev ev : kEvents)
            for (bool rel : {false, true})
                for (bool pc : {false, true}) {
                    const std::uint8_t n = smcx_close_next(s, ev, rel, pc);
                    EXPECT_NE(std::find(std::begin(kAll), std::end(kAll), n), std::end(kAll))
                        << int(s) << " " << ev << " -> " << int(n);
                    EXPECT_NE(n, SMCX_INIT) << "no event makes a connection INIT";
                    if (s != SMCX_LISTEN) {
                        EXPECT_NE(n, SMCX_LISTEN);
                    }
                }
}
