// SPDX-License-Identifier: GPL-2.0
// include/smcx/close.h: the close and abort state machine.  A table gives
// every event in every state (the facts each state has when the protocol
// reaches it), then sweeps over every input, reachable or not, check the
// invariants the kernel relies on.
#include <gtest/gtest.h>

#include <smcx/close.h>

#include <cerrno>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

namespace {

using Ev = smcx_close_ev;

constexpr std::uint32_t DW = SMCX_CA_L_DW;
constexpr std::uint32_t CL = SMCX_CA_L_CL;
constexpr std::uint32_t AB = SMCX_CA_L_AB;
constexpr std::uint32_t PUSH = SMCX_CA_PUSH;
constexpr std::uint32_t ERR = SMCX_CA_ERR;
constexpr std::uint32_t WAKE = SMCX_CA_WAKE;
constexpr std::uint32_t KICK = SMCX_CA_KICK;
constexpr std::uint32_t CW = SMCX_CA_ARM_CW;
constexpr std::uint32_t AW = SMCX_CA_ARM_AW;
constexpr std::uint32_t POOL = SMCX_CA_RMB_POOL;
constexpr std::uint32_t DISC = SMCX_CA_RMB_DISCARD;
constexpr std::uint32_t kArms = KICK | CW | AW;

constexpr std::uint8_t kStates[] = {
    SMCX_ACTIVE,           SMCX_INIT,           SMCX_CLOSED,
    SMCX_LISTEN,           SMCX_PEERCLOSEWAIT1, SMCX_PEERCLOSEWAIT2,
    SMCX_APPCLOSEWAIT1,    SMCX_APPCLOSEWAIT2,  SMCX_APPFINCLOSEWAIT,
    SMCX_PEERFINCLOSEWAIT, SMCX_PEERABORTWAIT,  SMCX_PROCESSABORT,
};

std::vector<Ev> all_events() {
    std::vector<Ev> v;
    for (int e = 0; e < SMCX_CLOSE_EVS; ++e)
        v.push_back(static_cast<Ev>(e));
    return v;
}

smcx_cdc_flags bits(unsigned v) {
    smcx_cdc_flags f{};
    f.done_writing = (v & 1) != 0;
    f.closed = (v & 2) != 0;
    f.abort = (v & 4) != 0;
    return f;
}

unsigned val(smcx_cdc_flags f) {
    return (f.done_writing ? 1u : 0u) | (f.closed ? 2u : 0u) | (f.abort ? 4u : 0u);
}

constexpr unsigned kDw = 1, kCl = 2, kAb = 4;

smcx_close mk(std::uint8_t state, unsigned local, unsigned peer, bool released, bool exposed = true,
              bool gone = false, bool app_reset = false) {
    smcx_close c{};
    c.state = state;
    c.local = bits(local);
    c.peer = bits(peer);
    c.released = released;
    c.exposed = exposed;
    c.gone = gone;
    c.app_reset = app_reset;
    return c;
}

bool same(const smcx_close& a, const smcx_close& b) {
    return a.state == b.state && val(a.local) == val(b.local) && val(a.peer) == val(b.peer) &&
           a.released == b.released && a.exposed == b.exposed && a.gone == b.gone &&
           a.app_reset == b.app_reset;
}

std::string show(const smcx_close& c) {
    return "{state " + std::to_string(c.state) + " local " + std::to_string(val(c.local)) +
           " peer " + std::to_string(val(c.peer)) + " R" + std::to_string(c.released) + " X" +
           std::to_string(c.exposed) + " gone" + std::to_string(c.gone) + " reset" +
           std::to_string(c.app_reset) + "}";
}

// Every event of every state, with the facts the protocol has in that
// state: the exhaustive table.
enum class V {
    Init,      // created, our RMB named to the peer
    InitNx,    // created, our RMB not named yet (a client before its Confirm)
    Active,    //
    Pcw1,      // after shutdown(SHUT_WR)
    Pcw1R,     // after close()
    Pcw2,      // ... and the peer is done writing
    Pcw2R,     //
    Acw1,      // the peer is done writing
    Acw1Pc,    // ... and closed
    Acw2,      // ... and we shut down
    Acw2Pc,    //
    AppFin,    // shutdown, then the peer closed
    PeerFin,   // the peer done writing, then our close()
    Paw,       // our abort (a protocol violation) while the application holds it
    PawR,      // our abort after close() (the close wait ran out)
    ProcAbort, // the peer aborted, the application holds it
    Closed,    // both closed
};

smcx_close input(V v) {
    switch (v) {
    case V::Init:
        return mk(SMCX_INIT, 0, 0, false);
    case V::InitNx:
        return mk(SMCX_INIT, 0, 0, false, false);
    case V::Active:
        return mk(SMCX_ACTIVE, 0, 0, false);
    case V::Pcw1:
        return mk(SMCX_PEERCLOSEWAIT1, kDw, 0, false);
    case V::Pcw1R:
        return mk(SMCX_PEERCLOSEWAIT1, kDw | kCl, 0, true);
    case V::Pcw2:
        return mk(SMCX_PEERCLOSEWAIT2, kDw, kDw, false);
    case V::Pcw2R:
        return mk(SMCX_PEERCLOSEWAIT2, kDw | kCl, kDw, true);
    case V::Acw1:
        return mk(SMCX_APPCLOSEWAIT1, 0, kDw, false);
    case V::Acw1Pc:
        return mk(SMCX_APPCLOSEWAIT1, 0, kDw | kCl, false);
    case V::Acw2:
        return mk(SMCX_APPCLOSEWAIT2, kDw, kDw, false);
    case V::Acw2Pc:
        return mk(SMCX_APPCLOSEWAIT2, kDw, kDw | kCl, false);
    case V::AppFin:
        return mk(SMCX_APPFINCLOSEWAIT, kDw, kDw | kCl, false);
    case V::PeerFin:
        return mk(SMCX_PEERFINCLOSEWAIT, kDw | kCl, kDw, true);
    case V::Paw:
        return mk(SMCX_PEERABORTWAIT, kAb, 0, false);
    case V::PawR:
        return mk(SMCX_PEERABORTWAIT, kDw | kCl | kAb, 0, true);
    case V::ProcAbort:
        return mk(SMCX_PROCESSABORT, kAb, kAb, false);
    case V::Closed:
        return mk(SMCX_CLOSED, kDw | kCl, kDw | kCl, true);
    }
    return {};
}

struct Row {
    V v;
    Ev ev;
    std::uint8_t want;
    std::uint32_t act;
};

constexpr Ev SHUT = SMCX_CLOSE_EV_SHUT_WR, CLOSE = SMCX_CLOSE_EV_CLOSE, ABORT = SMCX_CLOSE_EV_ABORT,
             P_DONE = SMCX_CLOSE_EV_PEER_DONE, P_CLOSED = SMCX_CLOSE_EV_PEER_CLOSED,
             P_ABORT = SMCX_CLOSE_EV_PEER_ABORT, GONE = SMCX_CLOSE_EV_GONE, UP = SMCX_CLOSE_EV_UP,
             DROP = SMCX_CLOSE_EV_DROP, VIOL = SMCX_CLOSE_EV_VIOLATION,
             P_RESET = SMCX_CLOSE_EV_PEER_RESET, RESET = SMCX_CLOSE_EV_RESET,
             TIMEOUT = SMCX_CLOSE_EV_TIMEOUT, FREE = SMCX_CLOSE_EV_FREE;

constexpr std::uint8_t INIT = SMCX_INIT, ACT = SMCX_ACTIVE, PCW1 = SMCX_PEERCLOSEWAIT1,
                       PCW2 = SMCX_PEERCLOSEWAIT2, ACW1 = SMCX_APPCLOSEWAIT1,
                       ACW2 = SMCX_APPCLOSEWAIT2, AFIN = SMCX_APPFINCLOSEWAIT,
                       PFIN = SMCX_PEERFINCLOSEWAIT, PAW = SMCX_PEERABORTWAIT,
                       PABT = SMCX_PROCESSABORT, CLOSED = SMCX_CLOSED;

// clang-format off
const Row kTable[] = {
    // INIT: only UP brings it up; an abort tells the peer if it knows us
    {V::Init, SHUT, INIT, 0},
    {V::Init, CLOSE, PAW, AB | PUSH | WAKE | AW},
    {V::Init, ABORT, PAW, AB | PUSH | WAKE | ERR},
    {V::Init, P_DONE, INIT, WAKE},
    {V::Init, P_CLOSED, INIT, WAKE},
    {V::Init, P_ABORT, PABT, AB | PUSH | WAKE | ERR},
    {V::Init, GONE, PABT, WAKE | ERR},
    {V::Init, UP, ACT, WAKE},
    {V::Init, DROP, PAW, AB | PUSH | WAKE | AW},
    {V::Init, VIOL, PAW, AB | PUSH | WAKE | ERR},
    {V::Init, P_RESET, PABT, WAKE | ERR},
    {V::Init, RESET, INIT, 0},
    {V::Init, TIMEOUT, INIT, 0},
    {V::Init, FREE, CLOSED, DISC},
    // ... not named to the peer: nothing to tell, nothing it can write
    {V::InitNx, SHUT, INIT, 0},
    {V::InitNx, CLOSE, CLOSED, WAKE | KICK},
    {V::InitNx, ABORT, PABT, WAKE | ERR},
    {V::InitNx, P_DONE, INIT, WAKE},
    {V::InitNx, P_CLOSED, INIT, WAKE},
    {V::InitNx, P_ABORT, PABT, AB | PUSH | WAKE | ERR},
    {V::InitNx, GONE, PABT, WAKE | ERR},
    {V::InitNx, UP, ACT, WAKE},
    {V::InitNx, DROP, CLOSED, WAKE | KICK},
    {V::InitNx, VIOL, PABT, WAKE | ERR},
    {V::InitNx, P_RESET, PABT, WAKE | ERR},
    {V::InitNx, RESET, INIT, 0},
    {V::InitNx, TIMEOUT, INIT, 0},
    {V::InitNx, FREE, CLOSED, POOL},
    // ACTIVE
    {V::Active, SHUT, PCW1, DW | PUSH | WAKE},
    {V::Active, CLOSE, PCW1, DW | CL | PUSH | WAKE | CW},
    {V::Active, ABORT, PAW, AB | PUSH | WAKE | ERR},
    {V::Active, P_DONE, ACW1, WAKE},
    {V::Active, P_CLOSED, ACW1, WAKE},
    {V::Active, P_ABORT, PABT, AB | PUSH | WAKE | ERR},
    {V::Active, GONE, PABT, WAKE | ERR},
    {V::Active, UP, ACT, 0},
    {V::Active, DROP, PAW, AB | PUSH | WAKE | AW},
    {V::Active, VIOL, PAW, AB | PUSH | WAKE | ERR},
    {V::Active, P_RESET, PABT, WAKE | ERR},
    {V::Active, RESET, ACT, 0},
    {V::Active, TIMEOUT, ACT, 0},
    {V::Active, FREE, CLOSED, DISC},
    // PEERCLOSEWAIT1 after shutdown
    {V::Pcw1, SHUT, PCW1, 0},
    {V::Pcw1, CLOSE, PCW1, CL | PUSH | WAKE | CW},
    {V::Pcw1, ABORT, PAW, AB | PUSH | WAKE | ERR},
    {V::Pcw1, P_DONE, PCW2, WAKE},
    {V::Pcw1, P_CLOSED, AFIN, WAKE},
    {V::Pcw1, P_ABORT, PABT, AB | PUSH | WAKE | ERR},
    {V::Pcw1, GONE, PABT, WAKE | ERR},
    {V::Pcw1, UP, PCW1, 0},
    {V::Pcw1, DROP, PAW, AB | PUSH | WAKE | AW},
    {V::Pcw1, VIOL, PAW, AB | PUSH | WAKE | ERR},
    {V::Pcw1, P_RESET, PABT, WAKE | ERR},
    {V::Pcw1, RESET, PCW1, 0},
    {V::Pcw1, TIMEOUT, PCW1, 0},
    {V::Pcw1, FREE, CLOSED, DISC},
    // PEERCLOSEWAIT1 after close(): the close wait runs
    {V::Pcw1R, SHUT, PCW1, 0},
    {V::Pcw1R, CLOSE, PCW1, 0},
    {V::Pcw1R, ABORT, PAW, AB | PUSH | WAKE | AW},
    {V::Pcw1R, P_DONE, PCW2, WAKE},
    {V::Pcw1R, P_CLOSED, CLOSED, WAKE | KICK},
    {V::Pcw1R, P_ABORT, CLOSED, AB | PUSH | WAKE | KICK},
    {V::Pcw1R, GONE, CLOSED, WAKE | KICK},
    {V::Pcw1R, UP, PCW1, 0},
    {V::Pcw1R, DROP, PAW, AB | PUSH | WAKE | AW},
    {V::Pcw1R, VIOL, PAW, AB | PUSH | WAKE | AW},
    {V::Pcw1R, P_RESET, CLOSED, WAKE | KICK},
    {V::Pcw1R, RESET, PCW1, 0},
    {V::Pcw1R, TIMEOUT, PAW, AB | PUSH | WAKE | AW},
    {V::Pcw1R, FREE, CLOSED, DISC},
    // PEERCLOSEWAIT2
    {V::Pcw2, SHUT, PCW2, 0},
    {V::Pcw2, CLOSE, PCW2, CL | PUSH | WAKE | CW},
    {V::Pcw2, ABORT, PAW, AB | PUSH | WAKE | ERR},
    {V::Pcw2, P_DONE, PCW2, 0},
    {V::Pcw2, P_CLOSED, AFIN, WAKE},
    {V::Pcw2, P_ABORT, PABT, AB | PUSH | WAKE | ERR},
    {V::Pcw2, GONE, PABT, WAKE | ERR},
    {V::Pcw2, UP, PCW2, 0},
    {V::Pcw2, DROP, PAW, AB | PUSH | WAKE | AW},
    {V::Pcw2, VIOL, PAW, AB | PUSH | WAKE | ERR},
    {V::Pcw2, P_RESET, PABT, WAKE | ERR},
    {V::Pcw2, RESET, PCW2, 0},
    {V::Pcw2, TIMEOUT, PCW2, 0},
    {V::Pcw2, FREE, CLOSED, POOL},
    {V::Pcw2R, SHUT, PCW2, 0},
    {V::Pcw2R, CLOSE, PCW2, 0},
    {V::Pcw2R, ABORT, PAW, AB | PUSH | WAKE | AW},
    {V::Pcw2R, P_DONE, PCW2, 0},
    {V::Pcw2R, P_CLOSED, CLOSED, WAKE | KICK},
    {V::Pcw2R, P_ABORT, CLOSED, AB | PUSH | WAKE | KICK},
    {V::Pcw2R, GONE, CLOSED, WAKE | KICK},
    {V::Pcw2R, UP, PCW2, 0},
    {V::Pcw2R, DROP, PAW, AB | PUSH | WAKE | AW},
    {V::Pcw2R, VIOL, PAW, AB | PUSH | WAKE | AW},
    {V::Pcw2R, P_RESET, CLOSED, WAKE | KICK},
    {V::Pcw2R, RESET, PCW2, 0},
    {V::Pcw2R, TIMEOUT, PAW, AB | PUSH | WAKE | AW},
    {V::Pcw2R, FREE, CLOSED, POOL},
    // APPCLOSEWAIT1: the peer is done writing
    {V::Acw1, SHUT, ACW2, DW | PUSH | WAKE},
    {V::Acw1, CLOSE, PFIN, DW | CL | PUSH | WAKE | CW},
    {V::Acw1, ABORT, PAW, AB | PUSH | WAKE | ERR},
    {V::Acw1, P_DONE, ACW1, 0},
    {V::Acw1, P_CLOSED, ACW1, WAKE},
    {V::Acw1, P_ABORT, PABT, AB | PUSH | WAKE | ERR},
    {V::Acw1, GONE, PABT, WAKE | ERR},
    {V::Acw1, UP, ACW1, 0},
    {V::Acw1, DROP, PAW, AB | PUSH | WAKE | AW},
    {V::Acw1, VIOL, PAW, AB | PUSH | WAKE | ERR},
    {V::Acw1, P_RESET, PABT, WAKE | ERR},
    {V::Acw1, RESET, ACW1, 0},
    {V::Acw1, TIMEOUT, ACW1, 0},
    {V::Acw1, FREE, CLOSED, POOL},
    // ... and closed: an abort waits for no answer
    {V::Acw1Pc, SHUT, ACW2, DW | PUSH | WAKE},
    {V::Acw1Pc, CLOSE, CLOSED, DW | CL | PUSH | WAKE | KICK},
    {V::Acw1Pc, ABORT, PABT, AB | PUSH | WAKE | ERR},
    {V::Acw1Pc, P_DONE, ACW1, 0},
    {V::Acw1Pc, P_CLOSED, ACW1, 0},
    {V::Acw1Pc, P_ABORT, PABT, AB | PUSH | WAKE | ERR},
    {V::Acw1Pc, GONE, PABT, WAKE | ERR},
    {V::Acw1Pc, UP, ACW1, 0},
    {V::Acw1Pc, DROP, CLOSED, AB | PUSH | WAKE | KICK},
    {V::Acw1Pc, VIOL, PABT, AB | PUSH | WAKE | ERR},
    {V::Acw1Pc, P_RESET, PABT, WAKE | ERR},
    {V::Acw1Pc, RESET, ACW1, WAKE | ERR},
    {V::Acw1Pc, TIMEOUT, ACW1, 0},
    {V::Acw1Pc, FREE, CLOSED, POOL},
    // APPCLOSEWAIT2
    {V::Acw2, SHUT, ACW2, 0},
    {V::Acw2, CLOSE, PFIN, CL | PUSH | WAKE | CW},
    {V::Acw2, ABORT, PAW, AB | PUSH | WAKE | ERR},
    {V::Acw2, P_DONE, ACW2, 0},
    {V::Acw2, P_CLOSED, ACW2, WAKE},
    {V::Acw2, P_ABORT, PABT, AB | PUSH | WAKE | ERR},
    {V::Acw2, GONE, PABT, WAKE | ERR},
    {V::Acw2, UP, ACW2, 0},
    {V::Acw2, DROP, PAW, AB | PUSH | WAKE | AW},
    {V::Acw2, VIOL, PAW, AB | PUSH | WAKE | ERR},
    {V::Acw2, P_RESET, PABT, WAKE | ERR},
    {V::Acw2, RESET, ACW2, 0},
    {V::Acw2, TIMEOUT, ACW2, 0},
    {V::Acw2, FREE, CLOSED, POOL},
    {V::Acw2Pc, SHUT, ACW2, 0},
    {V::Acw2Pc, CLOSE, CLOSED, CL | PUSH | WAKE | KICK},
    {V::Acw2Pc, ABORT, PABT, AB | PUSH | WAKE | ERR},
    {V::Acw2Pc, P_DONE, ACW2, 0},
    {V::Acw2Pc, P_CLOSED, ACW2, 0},
    {V::Acw2Pc, P_ABORT, PABT, AB | PUSH | WAKE | ERR},
    {V::Acw2Pc, GONE, PABT, WAKE | ERR},
    {V::Acw2Pc, UP, ACW2, 0},
    {V::Acw2Pc, DROP, CLOSED, AB | PUSH | WAKE | KICK},
    {V::Acw2Pc, VIOL, PABT, AB | PUSH | WAKE | ERR},
    {V::Acw2Pc, P_RESET, PABT, WAKE | ERR},
    {V::Acw2Pc, RESET, ACW2, WAKE | ERR},
    {V::Acw2Pc, TIMEOUT, ACW2, 0},
    {V::Acw2Pc, FREE, CLOSED, POOL},
    // APPFINCLOSEWAIT
    {V::AppFin, SHUT, AFIN, 0},
    {V::AppFin, CLOSE, CLOSED, CL | PUSH | WAKE | KICK},
    {V::AppFin, ABORT, PABT, AB | PUSH | WAKE | ERR},
    {V::AppFin, P_DONE, AFIN, 0},
    {V::AppFin, P_CLOSED, AFIN, 0},
    {V::AppFin, P_ABORT, PABT, AB | PUSH | WAKE | ERR},
    {V::AppFin, GONE, PABT, WAKE | ERR},
    {V::AppFin, UP, AFIN, 0},
    {V::AppFin, DROP, CLOSED, AB | PUSH | WAKE | KICK},
    {V::AppFin, VIOL, PABT, AB | PUSH | WAKE | ERR},
    {V::AppFin, P_RESET, PABT, WAKE | ERR},
    {V::AppFin, RESET, AFIN, WAKE | ERR},
    {V::AppFin, TIMEOUT, AFIN, 0},
    {V::AppFin, FREE, CLOSED, POOL},
    // PEERFINCLOSEWAIT: released, the close wait runs
    {V::PeerFin, SHUT, PFIN, 0},
    {V::PeerFin, CLOSE, PFIN, 0},
    {V::PeerFin, ABORT, PAW, AB | PUSH | WAKE | AW},
    {V::PeerFin, P_DONE, PFIN, 0},
    {V::PeerFin, P_CLOSED, CLOSED, WAKE | KICK},
    {V::PeerFin, P_ABORT, CLOSED, AB | PUSH | WAKE | KICK},
    {V::PeerFin, GONE, CLOSED, WAKE | KICK},
    {V::PeerFin, UP, PFIN, 0},
    {V::PeerFin, DROP, PAW, AB | PUSH | WAKE | AW},
    {V::PeerFin, VIOL, PAW, AB | PUSH | WAKE | AW},
    {V::PeerFin, P_RESET, CLOSED, WAKE | KICK},
    {V::PeerFin, RESET, PFIN, 0},
    {V::PeerFin, TIMEOUT, PAW, AB | PUSH | WAKE | AW},
    {V::PeerFin, FREE, CLOSED, POOL},
    // PEERABORTWAIT, the application holding it: no timer until close()
    {V::Paw, SHUT, PAW, 0},
    {V::Paw, CLOSE, PAW, AW},
    {V::Paw, ABORT, PAW, 0},
    {V::Paw, P_DONE, PABT, WAKE},
    {V::Paw, P_CLOSED, PABT, WAKE},
    {V::Paw, P_ABORT, PABT, WAKE},
    {V::Paw, GONE, PABT, WAKE},
    {V::Paw, UP, PAW, 0},
    {V::Paw, DROP, PAW, AW},
    {V::Paw, VIOL, PAW, 0},
    {V::Paw, P_RESET, PABT, WAKE},
    {V::Paw, RESET, PAW, 0},
    {V::Paw, TIMEOUT, PAW, 0},
    {V::Paw, FREE, CLOSED, DISC},
    // ... released: the abort wait runs; any sign of the peer ends it
    {V::PawR, SHUT, PAW, 0},
    {V::PawR, CLOSE, PAW, 0},
    {V::PawR, ABORT, PAW, 0},
    {V::PawR, P_DONE, CLOSED, WAKE | KICK},
    {V::PawR, P_CLOSED, CLOSED, WAKE | KICK},
    {V::PawR, P_ABORT, CLOSED, WAKE | KICK},
    {V::PawR, GONE, CLOSED, WAKE | KICK},
    {V::PawR, UP, PAW, 0},
    {V::PawR, DROP, PAW, 0},
    {V::PawR, VIOL, PAW, 0},
    {V::PawR, P_RESET, CLOSED, WAKE | KICK},
    {V::PawR, RESET, PAW, 0},
    {V::PawR, TIMEOUT, CLOSED, WAKE | KICK},
    {V::PawR, FREE, CLOSED, DISC},
    // PROCESSABORT: close() ends it
    {V::ProcAbort, SHUT, PABT, 0},
    {V::ProcAbort, CLOSE, CLOSED, WAKE | KICK},
    {V::ProcAbort, ABORT, PABT, 0},
    {V::ProcAbort, P_DONE, PABT, WAKE},
    {V::ProcAbort, P_CLOSED, PABT, WAKE},
    {V::ProcAbort, P_ABORT, PABT, 0},
    {V::ProcAbort, GONE, PABT, WAKE},
    {V::ProcAbort, UP, PABT, 0},
    {V::ProcAbort, DROP, CLOSED, WAKE | KICK},
    {V::ProcAbort, VIOL, PABT, 0},
    {V::ProcAbort, P_RESET, PABT, 0},
    {V::ProcAbort, RESET, PABT, 0},
    {V::ProcAbort, TIMEOUT, PABT, 0},
    {V::ProcAbort, FREE, CLOSED, POOL},
    // CLOSED: terminal
    {V::Closed, SHUT, CLOSED, 0},
    {V::Closed, CLOSE, CLOSED, 0},
    {V::Closed, ABORT, CLOSED, 0},
    {V::Closed, P_DONE, CLOSED, 0},
    {V::Closed, P_CLOSED, CLOSED, 0},
    {V::Closed, P_ABORT, CLOSED, 0},
    {V::Closed, GONE, CLOSED, 0},
    {V::Closed, UP, CLOSED, 0},
    {V::Closed, DROP, CLOSED, 0},
    {V::Closed, VIOL, CLOSED, 0},
    {V::Closed, P_RESET, CLOSED, 0},
    {V::Closed, RESET, CLOSED, 0},
    {V::Closed, TIMEOUT, CLOSED, 0},
    {V::Closed, FREE, CLOSED, POOL},
};
// clang-format on

constexpr V kVariants[] = {
    V::Init,    V::InitNx, V::Active, V::Pcw1,      V::Pcw1R,  V::Pcw2,
    V::Pcw2R,   V::Acw1,   V::Acw1Pc, V::Acw2,      V::Acw2Pc, V::AppFin,
    V::PeerFin, V::Paw,    V::PawR,   V::ProcAbort, V::Closed,
};

// every input: every state, every pair of wire bits, every fact
template <typename F> void for_all_inputs(F f) {
    for (std::uint8_t s : kStates)
        for (unsigned l = 0; l < 8; ++l)
            for (unsigned p = 0; p < 8; ++p)
                for (unsigned facts = 0; facts < 16; ++facts)
                    f(mk(s, l, p, facts & 1, facts & 2, facts & 4, facts & 8));
}

smcx_close step(smcx_close c, Ev ev) {
    return smcx_close_step(c, ev).next;
}

// every input reachable from a new connection (named to the peer or not)
// by any sequence of events before the free
std::vector<smcx_close> reachable() {
    std::vector<smcx_close> reach;
    std::deque<smcx_close> todo = {mk(SMCX_INIT, 0, 0, false, true),
                                   mk(SMCX_INIT, 0, 0, false, false)};
    while (!todo.empty()) {
        const smcx_close c = todo.front();
        todo.pop_front();
        bool dup = false;
        for (const smcx_close& k : reach)
            dup = dup || same(k, c);
        if (dup)
            continue;
        reach.push_back(c);
        for (Ev ev : all_events())
            if (ev != FREE)
                todo.push_back(step(c, ev));
    }
    return reach;
}

} // namespace

TEST(CloseLayout, FitsAWord) {
    // the kernel reads them whole with READ_ONCE()
    EXPECT_EQ(sizeof(smcx_cdc_flags), 1u);
    EXPECT_EQ(sizeof(smcx_close), 4u);
}

TEST(CloseTable, EveryEventInEveryState) {
    std::set<std::pair<int, int>> seen;
    for (const Row& r : kTable) {
        const smcx_close in = input(r.v);
        const smcx_close_res res = smcx_close_step(in, r.ev);
        const std::string where =
            "variant " + std::to_string(int(r.v)) + " ev " + std::to_string(r.ev) + " " + show(in);
        EXPECT_EQ(res.next.state, r.want) << where;
        EXPECT_EQ(res.act, r.act) << where;
        const int err = (r.act & ERR) == 0 ? 0 : r.ev == RESET ? EPIPE : ECONNRESET;
        EXPECT_EQ(res.err, err) << where;
        EXPECT_TRUE(seen.insert({int(r.v), r.ev}).second) << "twice: " << where;
    }
    // exhaustive: every variant with every event
    for (V v : kVariants)
        for (Ev ev : all_events())
            EXPECT_EQ(seen.count({int(v), ev}), 1u) << int(v) << " " << ev;
}

TEST(CloseTable, EveryVariantIsReachable) {
    // the table's inputs are states the protocol reaches, with their facts
    const std::vector<smcx_close> reach = reachable();
    auto known = [&](const smcx_close& c) {
        for (const smcx_close& k : reach)
            if (same(k, c))
                return true;
        return false;
    };
    for (V v : kVariants)
        EXPECT_TRUE(known(input(v))) << int(v);
}

TEST(CloseInvariant, ListenIsNoConnection) {
    for_all_inputs([](smcx_close in) {
        if (in.state != SMCX_LISTEN)
            return;
        for (Ev ev : all_events()) {
            const smcx_close_res r = smcx_close_step(in, ev);
            EXPECT_TRUE(same(r.next, in));
            EXPECT_EQ(r.act, 0u);
        }
    });
}

TEST(CloseInvariant, ClosedIsTerminalOnlyFreeActs) {
    for_all_inputs([](smcx_close in) {
        if (in.state != SMCX_CLOSED)
            return;
        for (Ev ev : all_events()) {
            const smcx_close_res r = smcx_close_step(in, ev);
            EXPECT_EQ(r.next.state, SMCX_CLOSED) << show(in) << " " << ev;
            EXPECT_EQ(val(r.next.local), val(in.local));
            EXPECT_EQ(r.next.released, in.released);
            EXPECT_EQ(r.next.app_reset, in.app_reset);
            if (ev != FREE) {
                EXPECT_EQ(r.act, 0u) << show(in) << " " << ev;
            }
        }
    });
}

TEST(CloseInvariant, FreeDecidesTheRmbAndIsIdempotent) {
    for_all_inputs([](smcx_close in) {
        if (in.state == SMCX_LISTEN)
            return;
        const smcx_close_res r = smcx_close_step(in, FREE);
        const bool quiet = in.peer.done_writing || in.peer.closed || in.peer.abort;
        const bool discard = in.exposed && !quiet && !in.gone;
        EXPECT_EQ(r.act, discard ? DISC : POOL) << show(in);
        EXPECT_EQ(smcx_close_rmb_reusable(in), !discard);
        EXPECT_EQ(r.next.state, SMCX_CLOSED);
        const smcx_close_res again = smcx_close_step(r.next, FREE);
        EXPECT_TRUE(same(again.next, r.next));
        EXPECT_EQ(again.act, r.act);
    });
}

TEST(CloseInvariant, RmbOnlyAtTheFree) {
    for_all_inputs([](smcx_close in) {
        for (Ev ev : all_events())
            if (ev != FREE) {
                EXPECT_EQ(smcx_close_step(in, ev).act & (POOL | DISC), 0u);
            }
    });
}

TEST(CloseInvariant, AbortNeverReturnsToOrderly) {
    for_all_inputs([](smcx_close in) {
        if (!smcx_close_ended(in.state))
            return;
        for (Ev ev : all_events()) {
            const smcx_close out = step(in, ev);
            EXPECT_TRUE(smcx_close_ended(out.state)) << show(in) << " " << ev;
            if (in.state != SMCX_PEERABORTWAIT) {
                EXPECT_NE(out.state, SMCX_PEERABORTWAIT);
            }
        }
    });
}

TEST(CloseInvariant, WireBitsAndFactsNeverClear) {
    for_all_inputs([](smcx_close in) {
        for (Ev ev : all_events()) {
            const smcx_close_res r = smcx_close_step(in, ev);
            const unsigned l0 = val(in.local), l1 = val(r.next.local);
            const unsigned p0 = val(in.peer), p1 = val(r.next.peer);
            EXPECT_EQ(l0 & ~l1, 0u) << show(in) << " " << ev;
            EXPECT_EQ(p0 & ~p1, 0u) << show(in) << " " << ev;
            EXPECT_GE(r.next.released, in.released);
            EXPECT_GE(r.next.gone, in.gone);
            EXPECT_GE(r.next.app_reset, in.app_reset);
            EXPECT_EQ(r.next.exposed, in.exposed) << "only the CLC code names the RMB";
            // the L_* bits are exactly the new local bits
            const unsigned nw = l1 & ~l0;
            EXPECT_EQ((r.act & DW) != 0, (nw & kDw) != 0);
            EXPECT_EQ((r.act & CL) != 0, (nw & kCl) != 0);
            EXPECT_EQ((r.act & AB) != 0, (nw & kAb) != 0);
            // a new bit is pushed, unless nothing can be sent
            EXPECT_EQ((r.act & PUSH) != 0, nw != 0 && !r.next.gone);
            // only the peer's events note its bits
            if (ev != P_DONE && ev != P_CLOSED && ev != P_ABORT) {
                EXPECT_EQ(p1, p0) << show(in) << " " << ev;
            }
            // the application's close is the only way to released
            if (!in.released && r.next.released) {
                EXPECT_TRUE(ev == CLOSE || ev == DROP) << show(in) << " " << ev;
            }
            if (r.next.state != in.state && ev != FREE) {
                EXPECT_TRUE(r.act & WAKE) << show(in) << " " << ev;
            }
        }
    });
}

TEST(CloseInvariant, CloseAfterReleaseChangesNothing) {
    // kernel/close.c raises CLOSE at release only if not released yet:
    // every reachable released state, named to the peer (the CLC code
    // may set exposed at any time) or not, is not INIT or PROCESSABORT,
    // and CLOSE changes no fact of it and acts on nothing
    for (const smcx_close& r : reachable()) {
        if (!r.released)
            continue;
        for (bool exposed : {false, true}) {
            smcx_close c = r;
            c.exposed = exposed;
            EXPECT_NE(c.state, SMCX_INIT) << show(c);
            EXPECT_NE(c.state, SMCX_PROCESSABORT) << show(c);
            const smcx_close_res res = smcx_close_step(c, CLOSE);
            EXPECT_TRUE(same(res.next, c)) << show(c);
            EXPECT_EQ(res.act, 0u) << show(c);
        }
    }
}

TEST(CloseInvariant, ErrorsOnlyForTheApplication) {
    for_all_inputs([](smcx_close in) {
        for (Ev ev : all_events()) {
            const smcx_close_res r = smcx_close_step(in, ev);
            if (r.act & ERR) {
                EXPECT_FALSE(r.next.released);
                EXPECT_TRUE(smcx_close_app_dead(r.next));
                EXPECT_TRUE(r.err == ECONNRESET || r.err == EPIPE);
            } else {
                EXPECT_EQ(r.err, 0);
            }
            // a connection that dies under the application tells it
            if (!r.next.released && !smcx_close_app_dead(in) && smcx_close_app_dead(r.next) &&
                in.state != SMCX_LISTEN && in.state != SMCX_CLOSED && ev != FREE) {
                EXPECT_TRUE(r.act & ERR) << show(in) << " " << ev;
            }
        }
    });
}

TEST(CloseInvariant, PeerAbortNeverAnsweredWithData) {
    for_all_inputs([](smcx_close in) {
        for (Ev ev : all_events()) {
            const smcx_close out = step(in, ev);
            if (out.peer.abort || out.local.abort || smcx_close_ended(out.state)) {
                EXPECT_FALSE(smcx_close_data_ok(out)) << show(out);
            }
        }
        // the peer's abort is answered with ours (unless nothing can be sent)
        const smcx_close_res r = smcx_close_step(in, P_ABORT);
        if (!in.peer.abort && !in.gone && !smcx_close_ended(in.state) && in.state != SMCX_LISTEN) {
            EXPECT_TRUE(r.next.local.abort) << show(in);
            EXPECT_EQ((r.act & PUSH) != 0, !in.local.abort) << show(in);
        }
        // a reset on the CLC socket is not: the token may serve another by now
        EXPECT_EQ(smcx_close_step(in, P_RESET).act & (AB | PUSH), 0u) << show(in);
    });
}

TEST(CloseInvariant, ReleasedAlwaysEndsWithinTwoTimeouts) {
    // boundedness: with the socket released, no state waits without an end
    for_all_inputs([](smcx_close in) {
        if (!in.released || in.state == SMCX_LISTEN)
            return;
        const smcx_close once = step(in, TIMEOUT);
        const smcx_close twice = step(once, TIMEOUT);
        EXPECT_EQ(twice.state, SMCX_CLOSED) << show(in);
        if (in.state != SMCX_CLOSED) {
            EXPECT_NE(smcx_close_timer_for(in), SMCX_CT_NONE) << show(in);
        }
    });
}

TEST(CloseInvariant, TimersFollowTheWait) {
    for_all_inputs([](smcx_close in) {
        if (in.state == SMCX_LISTEN || in.state == SMCX_CLOSED)
            return;
        for (Ev ev : all_events()) {
            if (ev == FREE)
                continue;
            const smcx_close_res r = smcx_close_step(in, ev);
            const smcx_close_timer t0 = smcx_close_timer_for(in);
            const smcx_close_timer t1 = smcx_close_timer_for(r.next);
            std::uint32_t want = 0;
            if (t1 != t0)
                want = t1 == SMCX_CT_CLOSE   ? CW
                       : t1 == SMCX_CT_ABORT ? AW
                       : t1 == SMCX_CT_FREE  ? KICK
                                             : 0;
            EXPECT_EQ(r.act & kArms, want) << show(in) << " " << ev;
            // no timer once the application let go? never
            if (r.next.released) {
                EXPECT_NE(t1, SMCX_CT_NONE);
            }
        }
    });
}

TEST(CloseReachable, FactsAgreeWithTheState) {
    const std::vector<smcx_close> reach = reachable();
    EXPECT_GT(reach.size(), 30u);
    for (const smcx_close& c : reach) {
        const std::string where = show(c);
        EXPECT_NE(c.state, SMCX_LISTEN);
        // the wire's own implications
        EXPECT_TRUE(!c.local.closed || c.local.done_writing) << where;
        EXPECT_TRUE(!c.peer.closed || c.peer.done_writing) << where;
        // CLOSED before the free only once the application closed
        if (c.state == SMCX_CLOSED) {
            EXPECT_TRUE(c.released) << where;
        }
        // released only in the waits close work ends, or CLOSED
        if (c.released) {
            EXPECT_TRUE(c.state == SMCX_PEERCLOSEWAIT1 || c.state == SMCX_PEERCLOSEWAIT2 ||
                        c.state == SMCX_PEERFINCLOSEWAIT || c.state == SMCX_PEERABORTWAIT ||
                        c.state == SMCX_CLOSED)
                << where;
        }
        if (c.gone) {
            EXPECT_TRUE(c.state == SMCX_PROCESSABORT || c.state == SMCX_CLOSED) << where;
        }
        if (c.app_reset) {
            EXPECT_TRUE(c.peer.closed) << where;
        }
        if (c.state == SMCX_PEERABORTWAIT) {
            EXPECT_TRUE(c.local.abort && c.exposed && !c.peer.closed && !c.peer.abort) << where;
        }
        if (c.state == SMCX_ACTIVE || c.state == SMCX_INIT) {
            EXPECT_EQ(val(c.local), 0u) << where;
        }
        if (c.state == SMCX_INIT) {
            EXPECT_EQ(c.peer.abort, false);
        }
        // our abort only to a peer that knows this connection or aborted it
        if (c.local.abort) {
            EXPECT_TRUE(c.exposed || c.peer.abort) << where;
        }
        // shutdown's "both done writing" from the state alone
        if (!smcx_close_ended(c.state) && c.state != SMCX_INIT) {
            EXPECT_EQ(smcx_close_shut_done(c.state), c.local.done_writing && c.peer.done_writing)
                << where;
        }
        // every state the application still holds has a way out: close()
        if (!c.released) {
            EXPECT_TRUE(step(c, CLOSE).released);
        }
    }
}

TEST(ClosePredicates, AppDeadAndDeaf) {
    for (std::uint8_t s : kStates) {
        const bool ended = s == SMCX_PEERABORTWAIT || s == SMCX_PROCESSABORT || s == SMCX_CLOSED;
        EXPECT_EQ(smcx_close_ended(s), ended);
        EXPECT_EQ(smcx_close_rx_deaf(s), ended);
        EXPECT_EQ(smcx_close_app_dead(mk(s, 0, 0, false)), ended);
        EXPECT_TRUE(smcx_close_app_dead(mk(s, 0, kDw | kCl, false, true, false, true)));
    }
}

TEST(ClosePredicates, DataOk) {
    EXPECT_TRUE(smcx_close_data_ok(input(V::Active)));
    EXPECT_TRUE(smcx_close_data_ok(input(V::Pcw1R))); // data before our close still goes
    EXPECT_TRUE(smcx_close_data_ok(input(V::Acw1)));  // the peer is done writing, still reads
    EXPECT_FALSE(smcx_close_data_ok(input(V::Acw1Pc)));
    EXPECT_FALSE(smcx_close_data_ok(input(V::AppFin)));
    EXPECT_FALSE(smcx_close_data_ok(input(V::Paw)));
    EXPECT_FALSE(smcx_close_data_ok(input(V::ProcAbort)));
    EXPECT_FALSE(smcx_close_data_ok(input(V::Closed)));
    EXPECT_FALSE(smcx_close_data_ok(mk(SMCX_ACTIVE, 0, 0, false, true, true)));
}

TEST(ClosePredicates, Owed) {
    // closed: owed until a CDC with it was posted
    EXPECT_TRUE(smcx_close_owed(input(V::Pcw1R), false, false));
    EXPECT_FALSE(smcx_close_owed(input(V::Pcw1R), true, false));
    // an abort: owed until sent; a sent abort owes no close
    EXPECT_TRUE(smcx_close_owed(input(V::PawR), true, false));
    EXPECT_FALSE(smcx_close_owed(input(V::PawR), false, true));
    // the peer's abort is answered
    EXPECT_TRUE(smcx_close_owed(input(V::ProcAbort), false, false));
    // nothing can be sent: nothing is owed
    smcx_close g = input(V::PawR);
    g.gone = true;
    EXPECT_FALSE(smcx_close_owed(g, false, false));
    EXPECT_FALSE(smcx_close_owed(input(V::Active), false, false));
    EXPECT_FALSE(smcx_close_owed(input(V::Pcw1), false, false)); // done writing only
}

TEST(ClosePredicates, Flushed) {
    const smcx_close c = input(V::Pcw1R);
    EXPECT_FALSE(smcx_close_flushed(c, false, false));
    EXPECT_FALSE(smcx_close_flushed(c, true, false));
    EXPECT_FALSE(smcx_close_flushed(c, false, true));
    EXPECT_TRUE(smcx_close_flushed(c, true, true));
    EXPECT_FALSE(smcx_close_flushed(input(V::PeerFin), false, false));
    EXPECT_TRUE(smcx_close_flushed(input(V::PawR), false, false));
    EXPECT_TRUE(smcx_close_flushed(step(c, P_CLOSED), false, false));
    EXPECT_TRUE(smcx_close_flushed(step(c, GONE), false, false));
}

TEST(ClosePredicates, MaySend) {
    EXPECT_EQ(smcx_close_may_send(input(V::Active)), SMCX_SEND_OK);
    EXPECT_EQ(smcx_close_may_send(input(V::Acw1)), SMCX_SEND_OK);
    EXPECT_EQ(smcx_close_may_send(input(V::Pcw1)), SMCX_SEND_SHUT);
    EXPECT_EQ(smcx_close_may_send(input(V::Acw1Pc)), SMCX_SEND_RESET);
    EXPECT_EQ(smcx_close_may_send(step(input(V::Acw1Pc), RESET)), SMCX_SEND_DEAD);
    EXPECT_EQ(smcx_close_may_send(input(V::ProcAbort)), SMCX_SEND_DEAD);
    EXPECT_EQ(smcx_close_may_send(input(V::Paw)), SMCX_SEND_DEAD);
}

TEST(ClosePredicates, TimerFor) {
    EXPECT_EQ(smcx_close_timer_for(input(V::Active)), SMCX_CT_NONE);
    EXPECT_EQ(smcx_close_timer_for(input(V::Paw)), SMCX_CT_NONE);
    EXPECT_EQ(smcx_close_timer_for(input(V::Pcw1R)), SMCX_CT_CLOSE);
    EXPECT_EQ(smcx_close_timer_for(input(V::PeerFin)), SMCX_CT_CLOSE);
    EXPECT_EQ(smcx_close_timer_for(input(V::PawR)), SMCX_CT_ABORT);
    EXPECT_EQ(smcx_close_timer_for(input(V::Closed)), SMCX_CT_FREE);
}

namespace {

struct Walk {
    Ev ev;
    std::uint8_t want;
    std::uint32_t act;
};

smcx_close walk(smcx_close c, std::initializer_list<Walk> steps) {
    int i = 0;
    for (const Walk& w : steps) {
        const smcx_close_res r = smcx_close_step(c, w.ev);
        EXPECT_EQ(r.next.state, w.want) << "step " << i;
        EXPECT_EQ(r.act, w.act) << "step " << i;
        c = r.next;
        ++i;
    }
    return c;
}

} // namespace

TEST(CloseScenario, ListenerDropsAQueuedChild) {
    // N2: the child's abort goes out; the peer answers: the RMB is reusable
    walk(input(V::Init), {{UP, ACT, WAKE},
                          {DROP, PAW, AB | PUSH | WAKE | AW},
                          {P_ABORT, CLOSED, WAKE | KICK},
                          {FREE, CLOSED, POOL}});
    // the peer never answers: after the abort wait the RMB is discarded
    walk(input(V::Init), {{UP, ACT, WAKE},
                          {DROP, PAW, AB | PUSH | WAKE | AW},
                          {TIMEOUT, CLOSED, WAKE | KICK},
                          {FREE, CLOSED, DISC}});
    // the link group goes meanwhile: its MRs go with it
    walk(input(V::Init), {{UP, ACT, WAKE},
                          {DROP, PAW, AB | PUSH | WAKE | AW},
                          {GONE, CLOSED, WAKE | KICK},
                          {FREE, CLOSED, POOL}});
}

TEST(CloseScenario, ConnectAbortedAfterItsJoin) {
    // the Confirm named our RMB: as a dropped child
    walk(input(V::Init), {{DROP, PAW, AB | PUSH | WAKE | AW},
                          {P_CLOSED, CLOSED, WAKE | KICK},
                          {FREE, CLOSED, POOL}});
    // before the Confirm: the peer cannot write, nothing to wait for
    walk(input(V::InitNx), {{DROP, CLOSED, WAKE | KICK}, {FREE, CLOSED, POOL}});
}

TEST(CloseScenario, PeerResetOnTheClcSocket) {
    // no answer, and the peer is not known quiet: the RMB is discarded
    walk(input(V::Active),
         {{P_RESET, PABT, WAKE | ERR}, {CLOSE, CLOSED, WAKE | KICK}, {FREE, CLOSED, DISC}});
}

TEST(CloseScenario, ViolationWhileTheApplicationHoldsIt) {
    walk(input(V::Active), {{VIOL, PAW, AB | PUSH | WAKE | ERR},
                            {CLOSE, PAW, AW},
                            {TIMEOUT, CLOSED, WAKE | KICK},
                            {FREE, CLOSED, DISC}});
}

TEST(CloseScenario, OrderlyBothWays) {
    // we close first; the close wait is armed, the peer closes: freed at once
    walk(input(V::Active), {{CLOSE, PCW1, DW | CL | PUSH | WAKE | CW},
                            {P_DONE, PCW2, WAKE},
                            {P_CLOSED, CLOSED, WAKE | KICK},
                            {FREE, CLOSED, POOL}});
    // the peer closes first (one CDC: done writing and closed)
    walk(input(V::Active), {{P_CLOSED, ACW1, WAKE},
                            {CLOSE, CLOSED, DW | CL | PUSH | WAKE | KICK},
                            {FREE, CLOSED, POOL}});
    // the peer never closes: close wait, our abort, abort wait, free
    walk(input(V::Active), {{CLOSE, PCW1, DW | CL | PUSH | WAKE | CW},
                            {TIMEOUT, PAW, AB | PUSH | WAKE | AW},
                            {TIMEOUT, CLOSED, WAKE | KICK},
                            {FREE, CLOSED, DISC}});
}

TEST(CloseScenario, SendAfterThePeerClosed) {
    // TCP's RST in CLOSE_WAIT: EPIPE, both sides shut, the state stays
    const smcx_close_res r = smcx_close_step(input(V::Acw1Pc), RESET);
    EXPECT_EQ(r.next.state, SMCX_APPCLOSEWAIT1);
    EXPECT_EQ(r.err, EPIPE);
    EXPECT_TRUE(smcx_close_app_dead(r.next));
    walk(r.next, {{CLOSE, CLOSED, DW | CL | PUSH | WAKE | KICK}});
}
