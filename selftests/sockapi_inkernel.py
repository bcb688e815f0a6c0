# SPDX-License-Identifier: GPL-2.0
"""The socket-semantics suite, validated against the stock in-kernel smc.

This test checks the suite itself (selftests/sockapi.py checks smcx):
  1. stable/*   the TCP oracle run twice must print the same line for every
                case: nothing in the suite may depend on timing;
  2. fallback/* AF_SMC of the stock smc.ko with nothing configured: every
                connection falls back to TCP after the CLC handshake (the
                connected socket then literally is the TCP socket), so only
                the set-up paths can differ;
  3. smcr/*     the stock smc.ko configured for SMC-Rv2 over rxe (pnet entry,
                UEID; as baseline_inkernel_smc): the data path runs on RDMA,
                every case is a real AF_SMC observation.
Where the stock smc.ko is known to differ from TCP, the differing keys are
listed below with the reason (docs/sockapi.md); a difference outside them
fails, so does a case that fails in the TCP oracle.
"""
import os

import scenarios
import sockapi_lib as L

# The stock smc.ko alone: validates the test logic (make check-reference).
TIER = "reference"
TIMEOUT = 1500

# Differences of the stock smc.ko (Linux 6.12) from TCP that the suite finds
# in both modes: the smc socket before and around connect/listen.
_SETUP = {
    "connect_nb_refused": ({"poll", "poll_after", "recv"},
                           "failed connect: poll shows only POLLERR|POLLHUP, recv ENOTCONN"),
    "connect_refused": ({"poll"}, "refused socket polls 0 instead of POLLOUT|POLLHUP"),
    "connect_timeout": ({"connect", "waited", "so_error", "recv", "connect_again"},
                        "SO_SNDTIMEO ignored: connect runs the CLC handshake on an "
                        "unconnected CLC socket and fails (EPROTO/ECONNRESET) later"),
    "unconnected_ops": ({"poll", "send", "listener_connect", "listener_shutdown",
                         "listener_poll_after", "listener_accept_after", "listen_again"},
                        "fresh socket polls 0, send ENOTCONN not EPIPE; listener: connect "
                        "EINVAL, shutdown ENOTCONN and it keeps listening (accept blocks)"),
    "listen_backlog": ({"conn3", "conn4", "accepted"},
                       "the smc listener drains its CLC socket's queue: connects beyond the "
                       "backlog complete at the client, and a varying number of them "
                       "(0..2) is accepted"),
    "shutdown_connecting": ("*", "shutdown during a connect in progress gives ENOTCONN and "
                            "leaves the connect running (TCP disconnects it: 0, ECONNRESET)"),
    "connect_nonblocking": ({"connect_done"},
                            "the CLC handshake runs in a worker: the connect after POLLOUT "
                            "may find it already done (EISCONN, TCP: 0)"),
}

FALLBACK_DIFFS = dict(_SETUP)

SMCR_DIFFS = dict(_SETUP)
SMCR_DIFFS.update({
    "msg_nosignal_epipe": ({"send1", "sigpipe", "poll_rst", "send2", "send3", "write",
                            "poll_end", "sigpipes_total"},
                           "writing after the peer closed: ECONNRESET at once, never EPIPE, "
                           "no SIGPIPE, no POLLERR|POLLHUP"),
    "sigpipe": ({"send1", "sigpipe", "poll_rst", "send2", "send3", "write", "poll_end",
                 "sigpipes_total"}, "as msg_nosignal_epipe"),
    "msg_oob_mark": ("*", "no mark: SIOCATMARK never 1 and the in-band data behind the "
                     "urgent byte is not readable (once: the sender stalled)"),
    "splice": ({"splice_nb_empty"}, "splice from a non-blocking socket blocks"),
    "shutdown_wr_halfclose": ({"shutdown_again"}, "shutdown on a closed socket returns 0"),
    "shutdown_wakes_reader": ({"reader"}, "shutdown(SHUT_RD) does not wake a blocked reader"),
    "close_unread_rst": ({"poll", "recv", "so_error", "send_after", "poll_end"},
                         "a close with unread data is not a reset: no POLLHUP, EOF not "
                         "ECONNRESET, the reset shows in SO_ERROR; a send after it fails "
                         "with EPIPE or, when the abort is still being processed, "
                         "ECONNRESET"),
    "close_unread_rst_local": ({"peer_poll", "peer_read"}, "as close_unread_rst"),
    "linger0_rst": ({"poll", "so_error", "send", "poll_end"},
                    "SO_LINGER {1,0} close is no reset: the peer sees EOF"),
    "linger0_rst_local": ({"peer_poll", "peer_read"}, "as linger0_rst"),
    "opt_bufsizes": ({"connected_sndbuf", "connected_rcvbuf"},
                     "buffers are rounded to SMC buffer sizes once connected"),
    "so_rcvlowat": ({"poll_below"}, "poll ignores SO_RCVLOWAT"),
})


# SOCKAPI_CASES=a,b (environment of selftests/run): only those cases, for a
# quick run while working on them; the suite proper runs every case
CASES = [c for c in os.environ.get("SOCKAPI_CASES", "").split(",") if c] or None


def run(t):
    a, b = t.alpha, t.beta
    t.check(os.path.exists(L.TOOL), "%s is built (make tools)" % L.TOOL)
    L.install_tool((a, b))
    for h in (a, b):
        L.modules_clear(h)
    port = L.base_port()

    tcp = L.run_suite(t, "tcp", port, cases=CASES)
    tcp2 = L.run_suite(t, "tcp", port + 10, cases=CASES)
    if CASES is None:
        L.stability(t, tcp, tcp2)
    else:
        # back to back, a few cases on the silent address meet each
        # other's ARP state: only the full suite spaces them out
        t.log("SOCKAPI_CASES: stability not checked")

    for h in (a, b):
        h.modprobe("smc")
        ok, txt = L.probe(h, "smc")
        t.check(ok, "%s: in-kernel AF_SMC socket: %s" % (h.name, txt))
    fb = L.run_suite(t, "smc", port + 20, cases=CASES)
    L.compare(t, tcp, fb, prefix="fallback/", allowed=FALLBACK_DIFFS)

    if not os.path.exists(scenarios.tool("smc_pnet")):
        with t.subtest("smcr"):
            t.skip("smcctl tools not built (make user): no SMC-R pass")
        return
    for h in (a, b):
        scenarios.setup_inkernel_smc(h)
    smcr = L.run_suite(t, "smc", port + 30, cases=CASES)
    for h, role in ((a, "srv"), (b, "clnt")):
        st = scenarios.inkernel_stats(h)
        t.log("%s in-kernel smc: SMC-Rv2 %s connections %d, fallbacks %s" % (
            h.name, role, st["smcr"]["v2"]["%s_success" % role], st["fallbacks"]))
    st = scenarios.inkernel_stats(b)
    t.check(st["smcr"]["v2"]["clnt_success"] >= (20 if CASES is None else 1),
            "the smcr pass ran on SMC-R (%d client connections)" % st["smcr"]["v2"]["clnt_success"])
    L.compare(t, tcp, smcr, prefix="smcr/", allowed=SMCR_DIFFS)
