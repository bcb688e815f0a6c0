# SPDX-License-Identifier: GPL-2.0
"""A connection dropped by one side without its application is aborted
towards the peer, and its RMB never carries the peer's late bytes to
another reader (review N2).  smcx on both hosts, SMC-R over rxe0; the
guest side is selftests/tools/abort_peers.py.

  server   alpha listens on L1 and never accepts; beta opens 3 SMC-R
           clients that write 1000 bytes each and block in recv(); alpha
           closes L1 (close() returns at once).  Every beta recv() must
           return (ECONNRESET or EOF) within BOUND seconds.  Meanwhile
           beta keeps writing "A" on the old sockets while a new client
           writes NB bytes "B" to a second listener L2 on alpha (same
           buffer sizes: a pooled RMB of L1's children serves it); alpha's
           reader of L2 must get exactly NB bytes, all "B".
  client   beta's connects to alpha are closed after a growing delay, so
           some of them end after their join (alpha's RoCE packets are
           delayed 300 ms, which holds beta's first contact in its LLC
           wait after its Confirm: the window).  alpha's server writes a
           banner ("Z" every 20 ms) on every connection it accepts and
           reads: each of its connections must end (EOF or ECONNRESET)
           within BOUND seconds, and beta's next connection (to an echo
           server on alpha) must never see a "Z".  alpha frees idle link
           groups at once here (lgr_linger_ms=0), so each round starts a
           new one.
  reset    a quiet SMC-R connection (nothing sent either way, so the peer
           has sent no CDC yet) whose CLC TCP connection the other host
           destroys (ss -K: a reset, as a server whose join failed after
           it read the Confirm sends, or a child dropped before it could
           say anything): the victim's recv() must end by ECONNRESET
           within BOUND seconds, with alpha as the victim (the server's
           watch) and with beta (the client's); the killer's own recv()
           ends too (a destroyed CLC socket aborts the connection) and
           both sides free it within DRAIN seconds.

Evidence printed: smcx's debugfs objects and stats (rmb_retired, the
RMBs not pooled because the peer might still write them), rxe packet
counters, sock_diag (smcss) mode of the connections involved.

The module before the N2 fix failed the server variant (2026-12-05): every
client's recv() still blocked when the tool gave up, beta's sockets took
241,152 late "A" bytes, and L2's reader got 504 of them, the first at
offset 107,496 of the 200,000 "B" bytes.  Its client variant is built to
fail the same way (alpha's banner connections end only when the tool's
20 s recv() wait ends).
"""
import json

import scenarios
import smcr_cases
import stacks

TIMEOUT = 600
COST = 84
TIER = "main"

TOOL = scenarios.pytool("abort_peers")
PORT1, PORT2, PORT3, PORT4, PORT5 = 7610, 7611, 7612, 7613, 7614
NCONN = 3
NB = 200000		# "B" bytes of the new connection (20 s at 1000 / 10 ms)
BOUND = 5		# seconds a peer may take to see the abort
DRAIN = 15		# seconds to free both sides (SMCX_ABORT_WAIT is 10 s)
ROUNDS = 10
SLOW_ROCE = ("tc qdisc add dev eth0 root handle 1: prio &&"
             " tc qdisc add dev eth0 parent 1:3 handle 30: netem delay 300ms &&"
             " tc filter add dev eth0 parent 1: protocol ip prio 1 u32"
             " match ip protocol 17 0xff match ip dport 4791 0xffff flowid 1:3")
UNSLOW = "tc qdisc del dev eth0 root"
STOP = "/tmp/abort_stop_a"

def evidence(t, what):
    for h in t.hosts:
        o = stacks.smcx_objects(h)
        st = scenarios.smcx_stats(h)
        t.log("%s %s: objects %s; stats rmb_retired %s; rxe sent %d rcvd %d"
              % (h.name, what, " ".join("%s=%d" % kv for kv in sorted(o.items()) if kv[1]),
                 st.get("rmb_retired"), h.rxe_counter("sent_pkts"),
                 h.rxe_counter("rcvd_pkts")))


def modes(t, h, port):
    try:
        socks = stacks.sockets(h, port)
    except stacks.DiagUnavailable as e:
        t.log("%s: %s" % (h.name, e))
        return
    t.log("%s port %d: %s" % (h.name, port, [(s["state"], s["mode"]) for s in socks]))


def server_variant(t):
    a, b = t.alpha, t.beta
    go_a, ready_b, go_b = "/tmp/abort_go_a", "/tmp/abort_ready_b", "/tmp/abort_go_b"
    for h in t.hosts:
        h.run("rm -f /tmp/abort_*")
    hold = a.bg("%s hold %d %s" % (TOOL, PORT1, go_a))
    a.wait_port(PORT1, job=hold)
    cli = b.bg("%s clients %s %d %d %s %s %d %d"
               % (TOOL, a.ip, PORT1, NCONN, ready_b, go_b, PORT2, NB))
    if not scenarios.wait_for(lambda: b.run("test -e " + ready_b, check=False).rc == 0,
                              timeout=60, step=0.5):
        t.check(False, "beta: %d clients connected (%s)" % (NCONN, cli.kill().describe()))
    modes(t, a, PORT1)
    modes(t, b, PORT1)
    evidence(t, "before the listener's close")
    rd = a.bg("%s reader %d %d" % (TOOL, PORT2, NB))
    a.wait_port(PORT2, job=rd)
    a.run("touch " + go_a)
    closed = json.loads(hold.wait(timeout=60).out)
    b.run("touch " + go_b)
    t.log("alpha: listener close() took %.3f s" % closed["closed"])
    res = json.loads(cli.wait(timeout=120).out)
    got = json.loads(rd.wait(timeout=120).out)
    t.log("beta clients: %s" % res)
    t.log("alpha reader of L2: %s" % got)
    modes(t, b, PORT1)
    evidence(t, "after")
    t.check(closed["closed"] < 1, "alpha: close() of the listener returned at once")
    for i, c in enumerate(res["conns"]):
        t.check(c["end"] in ("ECONNRESET", "EOF", "EPIPE") and c["secs"] <= BOUND,
                "beta: client %d's recv() ended by %s %.2f s after the close (bound %d s)"
                % (i, c["end"], c["secs"], BOUND))
    t.check(got["bad"] == 0 and got["end"] == "EOF",
            "alpha: L2's reader saw only \"B\" (%d bytes not \"B\", first at %d; end %s)"
            % (got["bad"], got["first_bad"], got["end"]))
    t.eq(got["bytes"], NB, "alpha: bytes L2's reader got")


def client_variant(t):
    a, b = t.alpha, t.beta
    a.run("echo 0 > /sys/module/smcx/parameters/lgr_linger_ms")
    a.run(SLOW_ROCE)
    try:
        a.run("rm -f " + STOP)
        srv = a.bg("%s banner %d %d %s" % (TOOL, PORT3, ROUNDS * 20, STOP))
        echo = a.bg("%s echo %d %d %s" % (TOOL, PORT4, ROUNDS * 20, STOP))
        a.wait_port(PORT3, job=srv)
        a.wait_port(PORT4, job=echo)
        cli = json.loads(b.out("%s abortconn %s %d %d %d" % (TOOL, a.ip, PORT3, PORT4, ROUNDS),
                               timeout=ROUNDS * 20))
        modes(t, a, PORT3)
        evidence(t, "after the aborted connects")
        a.run("touch " + STOP)
        got = json.loads(srv.wait(timeout=60).out)
        echo.wait(timeout=60)
    finally:
        a.run(UNSLOW, check=False)
    t.log("beta rounds: %s" % cli["rounds"])
    t.log("alpha banner connections: %s" % got["conns"])
    done = sum(1 for r in cli["rounds"] if r["done"])
    hits = len(got["conns"]) - done
    t.log("connects closed after their join while in progress: %d (accepted %d, completed %d)"
          % (hits, len(got["conns"]), done))
    t.check(hits >= 1, "some connect was closed after its join (the scenario was reached)")
    for i, c in enumerate(got["conns"]):
        t.check(c["end"] in ("ECONNRESET", "EOF", "EPIPE") and c["secs"] <= BOUND + 1,
                "alpha: banner connection %d ended by %s after %.2f s (bound %d s)"
                % (i, c["end"], c["secs"], BOUND + 1))
    t.eq(cli["z_seen"], 0, "beta: banner bytes seen by later connections")


def reset_case(t, victim, killer, kill, port):
    """@victim holds a quiet SMC-R connection of @port (nothing sent either
    way); @kill destroys @killer's CLC TCP socket of it (ss -K: a reset to
    the victim).  The victim's recv() must end by ECONNRESET within BOUND."""
    a, b = t.alpha, t.beta
    for h in t.hosts:
        h.run("rm -f /tmp/abort_q*")
    srv = a.bg("%s quietsrv %d /tmp/abort_qr /tmp/abort_qg" % (TOOL, port))
    a.wait_port(port, job=srv)
    cli = b.bg("%s quiet %s %d /tmp/abort_qr /tmp/abort_qg" % (TOOL, a.ip, port))
    for h in t.hosts:
        if not scenarios.wait_for(lambda: h.run("test -e /tmp/abort_qr", check=False).rc == 0,
                                  timeout=60, step=0.5):
            t.check(False, "%s: the quiet connection is up" % h.name)
            return
    try:
        socks = stacks.sockets(victim, port)
        t.check(any(x["mode"] == "SMCR" for x in socks),
                "%s: the connection is SMC-R (%s)"
                % (victim.name, [(x["state"], x["mode"]) for x in socks]))
    except stacks.DiagUnavailable as e:
        t.log("%s: %s" % (victim.name, e))
    killer.run(kill)
    for h in t.hosts:
        h.run("touch /tmp/abort_qg")
    jobs = {a.name: srv, b.name: cli}
    res = json.loads(jobs[victim.name].wait(timeout=60).out)
    t.check(res["end"] == "ECONNRESET" and res["secs"] <= BOUND,
            "%s: recv() ended by %s %.2f s after %s's reset (bound %d s)"
            % (victim.name, res["end"], res["secs"], killer.name, BOUND))
    res = json.loads(jobs[killer.name].wait(timeout=60).out)
    t.check(res["end"] in ("ECONNRESET", "EPIPE") and res["secs"] <= BOUND,
            "%s: its own recv() ended by %s %.2f s after the destroy (bound %d s)"
            % (killer.name, res["end"], res["secs"], BOUND))
    # the victim answers nothing (it may have freed the connection before
    # our abort came), so the killer's side waits out its abort wait
    for h in t.hosts:
        left = {k: v for k, v in smcr_cases.wait_conn_objects(h, timeout=DRAIN).items() if v}
        t.check(not left, "%s: the connection freed within %d s (left: %s)"
                % (h.name, DRAIN, left))


def reset_variant(t):
    a, b = t.alpha, t.beta
    kill = "ss -K -t state established %s = :%d"
    reset_case(t, a, b, kill % ("dport", PORT5), PORT5)
    reset_case(t, b, a, kill % ("sport", PORT5 + 1), PORT5 + 1)


def run(t):
    for h in t.hosts:
        stacks.clear(h)
        h.insmod_smcx(stacks.SMCX_PARAMS)
    with t.subtest("server: listener closed with queued SMC-R connections"):
        server_variant(t)
    with t.subtest("client: connect closed after its join"):
        client_variant(t)
    with t.subtest("a reset of the CLC connection before the peer's first CDC"):
        reset_variant(t)
