# SPDX-License-Identifier: GPL-2.0
"""Failover between the two links of an smcx <-> smcx link group (issue 15).

One lab of two wires, smcx on both hosts.  beta's first connection to
alpha gives a SYMMETRIC link group, one link on each wire.  Then, for each
wire, both ways to pull it and both directions of the data:
  - 4 streams of 32 MiB each run (xfer, verified byte for byte, the data
    from beta, or to it); once a quarter of it arrived the wire is pulled:
    "down" takes its netdev down on one host only (the other one learns it
    from our DELETE_LINK or from its own QP), "drop" drops every packet of
    it on both hosts with tc, and neither host is told;
  - every stream completes and verifies; the connections that were on the
    pulled link moved (debugfs link_failovers grows by at least their
    number, on the side that sends) and made progress again (the time to
    that is logged);
  - the wire comes back and the second link is added again: at once on the
    port event after "down", by the server's retry (SMCX_ADD_RETRY, 10 s)
    after "drop"; a new connection then has both links to use.
Last, idle connections: 6 connections are held open (hold, data verified),
net.smc.smcr_testlink_time is 3 s, and a wire is dropped under them.  No
data moves, so only TEST_LINK can find the dead link: within
smcr_testlink_time + 10 s the group is down to one link, on both hosts,
and the held connections that were on it moved; after the wire is back
every held connection passes its second exchange of data.
"""
import time

import failover
import scenarios
import smcr_cases
import stacks

TIMEOUT = 900
WIRES = 2
NBYTES = 32 << 20
CONNS = 4
PORT = 5700
TESTLINK = 3


def stats(h):
    out = h.out("cat %s/stats" % stacks.SMCX_DEBUGFS)
    return {k: int(v) for k, v in (ln.split() for ln in out.splitlines())}


def link_stats(a, b):
    keys = ("link_added", "link_down", "link_failovers", "link_testlink_timeouts")
    return " / ".join("%s %s" % (h.name, {k: stats(h).get(k) for k in keys}) for h in (a, b))


# (wire, how, side: the host whose netdev goes down, mode: xfer's -m as
# seen from beta, the client: send = beta sends, recv = alpha sends)
CASES = (
    (1, "down", "alpha", "send"),
    (0, "down", "beta", "recv"),
    (1, "drop", None, "recv"),
    (0, "drop", None, "send"),
)


def pulled_stream(t, a, b, wire, how, side, mode, port):
    hosts = {"alpha": a, "beta": b}
    sender = b if mode == "send" else a
    before = stats(sender).get("link_failovers", 0)
    res = failover.cycle(t, a, b, wire, how, port, NBYTES, CONNS,
                         side=hosts.get(side), mode=mode, recover_timeout=40)
    t.log("moved %d connection(s) from link on rxe%d; all progressed again %s s after the pull"
          % (len(res["moved"]), wire, "%.1f" % res["failover"]
             if res["failover"] is not None else "never"))
    t.check(res["ok"], "%d streams of %d MiB verified through the pull\n%s\n%s"
            % (CONNS, NBYTES >> 20, res["text"], res.get("cursors", "")))
    # the kernel's count is the evidence; the sampler's view (smcss -R
    # every 0.1 s) can miss the last moment before the pull
    moved = stats(sender).get("link_failovers", 0) - before
    t.check(moved >= max(1, len(res["moved"])),
            "%s: connections moved off the pulled link (link_failovers +%d; the samples"
            " saw %d on it, unfinished, at the pull: %s)\n%s"
            % (sender.name, moved, len(res["moved"]), res["moved"], res["after_pull"]))
    if res["moved"]:
        t.check(res["failover"] is not None,
                "every connection of the pulled link made progress again")
    t.check(res["recovery"] is not None,
            "the second link is back %s s after the wire\n%s"
            % ("%.1f" % res["recovery"] if res["recovery"] is not None else "-",
               res["after_restore"]))
    t.log(link_stats(a, b))


def idle_failover(t, a, b):
    for h in (a, b):
        h.run("sysctl -qw net.smc.smcr_testlink_time=%d" % TESTLINK)
    try:
        with smcr_cases.Held(t, b, a, PORT + 50, 6, 64 << 10) as held:
            g = failover.group_of(a, "SERV")
            on1 = [ln["conns"] for ln in g["links"] if ln["ib_device"] == "rxe1"]
            t.log("held connections per link: %s" % failover.describe_groups(a))
            before = stats(a).get("link_failovers", 0) + stats(b).get("link_failovers", 0)
            t0 = failover.pull((a, b), 1, "drop")
            down = failover.wait_links((a, b), 1, timeout=TESTLINK + 10)
            t.check(down is not None,
                    "idle: one link left on both hosts within smcr_testlink_time + 10 s"
                    " (%s s)\n%s\n%s" % ("%.1f" % down if down is not None else "-",
                                        failover.describe_groups(a),
                                        failover.describe_groups(b)))
            after = stats(a).get("link_failovers", 0) + stats(b).get("link_failovers", 0)
            t.check(after - before >= 2 * (on1[0] if on1 else 0),
                    "idle: the held connections on rxe1 moved on both hosts (%d of them,"
                    " link_failovers +%d)" % (on1[0] if on1 else 0, after - before))
            t.log("TEST_LINK timeouts: %s" % link_stats(a, b))
            failover.restore((a, b), 1, "drop")
            t.log("held: %d connections; the wire was gone %.1f s"
                  % (held.conns, time.time() - t0))
        # leaving the block checked phase 2 on every held connection
    finally:
        for h in (a, b):
            h.run("sysctl -qw net.smc.smcr_testlink_time=30", check=False)


def run(t):
    a, b = t.alpha, t.beta
    smcr_cases.need_tools(t, smcr_cases.HOLD, scenarios.XFER)
    a.insmod_smcx()
    b.insmod_smcx()
    srv = a.bg("%s server -f smc -p %d -c 1 -q" % (scenarios.XFER, PORT))
    a.wait_port(PORT)
    b.run("%s client -f smc -a %s -p %d -n 64K -c 1 -q" % (scenarios.XFER, a.ip, PORT),
          timeout=60)
    srv.wait(timeout=30)
    took = failover.wait_links((a, b), 2, timeout=20, devices={"rxe0", "rxe1"})
    t.check(took is not None, "two links, on rxe0 and rxe1\n%s\n%s"
            % (failover.describe_groups(a), failover.describe_groups(b)))
    port = PORT + 1
    for wire, how, side, mode in CASES:
        with t.subtest("wire %d %s%s, data %s" % (wire, how, " on " + side if side else "",
                                                  "beta -> alpha" if mode == "send"
                                                  else "alpha -> beta")):
            pulled_stream(t, a, b, wire, how, side, mode, port)
        port += 1
    with t.subtest("idle connections: TEST_LINK finds the dropped wire"):
        idle_failover(t, a, b)
