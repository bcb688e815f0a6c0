# SPDX-License-Identifier: GPL-2.0
"""Failover between the two links of an smcx <-> smcx link group.

One lab of two wires, smcx on both hosts.  beta's first connection to
alpha gives a SYMMETRIC link group, one link on each wire.  Then, for each
wire, both ways to pull it and both directions of the data:
  - 4 streams of 16 MiB each run (xfer, verified byte for byte, the data
    from beta, or to it); once a quarter of it arrived the wire is pulled:
    "down" takes its netdev down on one host only (the other one learns it
    from our DELETE_LINK or from its own QP), "drop" drops every packet of
    it on both hosts with tc, and neither host is told;
  - every stream completes and verifies; the connections that were on the
    pulled link moved (debugfs link_failovers grows by at least their
    number, on the side that sends) and made progress again (the time to
    that is logged);
  - the sender sent the data as RDMA WRITE WITH IMMEDIATE (debugfs
    wwi_tx grows; the receiver's taken and stale counts are logged);
  - the wire comes back and the second link is added again: at once on the
    port event after "down", by the server's retry (SMCX_ADD_RETRY, 10 s)
    after "drop"; a new connection then has both links to use.
Last, idle connections: 6 connections are held open (hold, data verified),
net.smc.smcr_testlink_time is 3 s, and a wire is dropped under them.  No
data moves, so only TEST_LINK can find the dead link: within
smcr_testlink_time + 10 s the group is down to one link, on both hosts,
and the held connections that were on it moved; after the wire is back
every held connection passes its second exchange of data.
Then review N3, a link cleared under a sender that holds one of its send
slots: alpha's senders sleep 1.5 s between taking a slot and writing
into it (the module's fault_slot_delay_us), a new connection makes
alpha's handshake send CONFIRM_RKEY on the link of rxe1, and a watcher
on alpha deletes rxe1 the moment that thread's stack shows it sleeping.  debugfs
link_clear_held must move (the window was hit), both links come back,
data crosses, and neither console has a memory-check report (a module
that frees the slot buffers at once panics on "Poison overwritten").
Then connections closed while their wire drops silently: the close CDC
is lost with the link, the failover says it again, and the peer reads
each connection to its end (not a reset when the close wait runs out).
Last, the same with an urgent byte sent before each close: the CDC that
marked it is lost as well, and the peer still reads it by MSG_OOB, not in
band (TCP's semantics, which smcx keeps).
"""
import os
import time

import failover
import scenarios
import smcr_cases
import smcxlab
import stacks

TIMEOUT = 900
COST = 180
WIRES = 2
NBYTES = 16 << 20
CONNS = 4
PORT = 5700
TESTLINK = 3


def stats(h):
    out = h.out("cat %s/stats" % stacks.SMCX_DEBUGFS)
    return {k: int(v) for k, v in (ln.split() for ln in out.splitlines())}


def failovers(a, b):
    """Both hosts' link_failovers, summed."""
    return stats(a).get("link_failovers", 0) + stats(b).get("link_failovers", 0)


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
    receiver = a if sender is b else b
    before = stats(sender).get("link_failovers", 0)
    wwi0 = {h.name: scenarios.smcx_wwi(h) for h in (a, b)}
    res = failover.cycle(t, a, b, wire, how, port, NBYTES, CONNS,
                         side=hosts.get(side), mode=mode, recover_timeout=40)
    if res["moved"]:
        t.log("moved %d connection(s) from link on rxe%d; all progressed again %s s after"
              " the pull" % (len(res["moved"]), wire, "%.1f" % res["failover"]
                             if res["failover"] is not None else "never"))
    else:
        t.log("the samples saw no unfinished connection on rxe%d at the pull" % wire)
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
                "every connection of the pulled link made progress again\n%s"
                % res.get("stuck", ""))
    t.check(res["recovery"] is not None,
            "the second link is back %s s after the wire\n%s"
            % ("%.1f" % res["recovery"] if res["recovery"] is not None else "-",
               res["after_restore"]))
    t.log(link_stats(a, b))
    # the data went as WRITE WITH IMMEDIATE (docs/wire.md), through the pull
    wwi = {h.name: {k: v - wwi0[h.name][k] for k, v in scenarios.smcx_wwi(h).items()}
           for h in (a, b)}
    t.check(wwi[sender.name]["wwi_tx"] > 0,
            "%s sent the streams as WRITE WITH IMMEDIATE (+%d; %s took +%d, dropped +%d"
            " stale)" % (sender.name, wwi[sender.name]["wwi_tx"], receiver.name,
                         wwi[receiver.name]["wwi_rx"], wwi[receiver.name]["wwi_stale"]))


def idle_failover(t, a, b):
    with smcr_cases.Held(t, b, a, PORT + 50, 6, 64 << 10) as held:
        g = failover.group_of(a, "SERV")
        on1 = [ln["conns"] for ln in g["links"] if ln["ib_device"] == "rxe1"]
        t.log("held connections per link: %s" % failover.describe_groups(a))
        before = failovers(a, b)
        t0 = failover.pull((a, b), 1, "drop")
        down = failover.wait_links((a, b), 1, timeout=TESTLINK + 10)
        t.check(down is not None,
                "idle: one link left on both hosts within smcr_testlink_time + 10 s"
                " (%s s)\n%s\n%s" % ("%.1f" % down if down is not None else "-",
                                    failover.describe_groups(a),
                                    failover.describe_groups(b)))
        # the moves follow the link's state: each host's down work
        # clears the link first
        want = before + 2 * (on1[0] if on1 else 0)
        scenarios.wait_for(lambda: failovers(a, b) >= want, timeout=10, step=0.5)
        after = failovers(a, b)
        t.check(after >= want,
                "idle: the held connections on rxe1 moved on both hosts (%d of them,"
                " link_failovers +%d)" % (on1[0] if on1 else 0, after - before))
        t.log("TEST_LINK timeouts: %s" % link_stats(a, b))
        failover.restore((a, b), 1, "drop")
        t.log("held: %d connections; the wire was gone %.1f s"
              % (held.conns, time.time() - t0))
    # leaving the block checked phase 2 on every held connection


# held_slot_clear: alpha's senders that may sleep sleep this long between
# taking a send slot and writing into it (smcx's test knob; below the
# clear's 2 s wait for slot holders)
SLOT_DELAY_US = 1500000
SLOT_DELAY = "/sys/module/smcx/parameters/fault_slot_delay_us"
HELD_TRIES = 2
# a kernel stack with this frame: the sleeper of held_slot_clear()
SLEEPER = "smcx_llc_confirm_rkey"


def rxe1_conns(a):
    """Connections on alpha's server group's link on rxe1, or None."""
    g = failover.group_of(a, "SERV")
    on1 = [ln["conns"] for ln in (g["links"] if g else []) if ln["ib_device"] == "rxe1"]
    return on1[0] if on1 else None


def rxe1_cycle(t, a, b):
    """rxe1 deleted on alpha and added again; both links back."""
    a.run("rdma link delete rxe1")
    a.run("rdma link add rxe1 type rxe netdev eth1")
    return failover.wait_links((a, b), 2, timeout=40)


def held_slot_clear(t, a, b):
    """Review N3: a link cleared while a sender holds one of its send
    slots and has not written into it yet.  alpha's senders sleep
    SLOT_DELAY_US after taking a slot.  One held connection sits on the
    link of rxe0 (the group's home device, whose removal ends the group),
    so a new connection takes the link of rxe1 (the one with fewer), and
    its RMB size, new to alpha, makes alpha's handshake send CONFIRM_RKEY
    on that link, which sleeps so.  A watcher on alpha sees that thread's
    stack and deletes rxe1 at once (a removal destroys the link without
    waiting for its port).  alpha's debugfs link_clear_held (link clears
    that found a slot still held) must move: the window was hit.  The
    clear must wait for the sleeper: a module that frees the slot buffers
    at once lets it write into freed memory, which the guests' memory
    checks report when the object is handed out again (slub: "Poison
    overwritten", a panic in the lab)."""
    t.check(failover.wait_links((a, b), 2, timeout=40) is not None,
            "two links to start with\n%s\n%s"
            % (failover.describe_groups(a), failover.describe_groups(b)))
    pos = {h.name: smcr_cases.console_size(h) for h in (a, b)}
    before = stats(a).get("link_clear_held", 0)
    rmem = a.out("sysctl -n net.smc.rmem").strip()
    hit = 0
    with smcr_cases.Held(t, b, a, PORT + 55, 1, 64 << 10):
        if rxe1_conns(a):
            # the held connection moves to rxe0's link
            t.check(rxe1_cycle(t, a, b) is not None, "rxe1's link back after a cycle")
        t.eq(rxe1_conns(a), 0, "alpha: the held connection is not on rxe1's link\n%s"
             % failover.describe_groups(a))
        for i in range(HELD_TRIES):
            port = PORT + 80 + i
            a.run("sysctl -qw net.smc.rmem=%d" % (128 << (10 + i)))
            a.run("echo %d > %s" % (SLOT_DELAY_US, SLOT_DELAY))
            try:
                watch = a.bg("timeout 60 sh -c 'until grep -qs %s /proc/[0-9]*/stack; do :;"
                             " done; rdma link delete rxe1'" % SLEEPER)
                srv = a.bg("%s server -f smc -p %d -c 1 -q" % (scenarios.XFER, port))
                a.wait_port(port, job=srv)
                # the connection may fail: its link goes while it is set up
                b.run("%s client -f smc -a %s -p %d -n 64K -c 1 -q"
                      % (scenarios.XFER, a.ip, port), timeout=60, check=False)
                srv.kill()
                w = watch.wait(timeout=70, check=False)
            finally:
                a.run("echo 0 > %s" % SLOT_DELAY)
            t.check(w.rc == 0, "try %d: alpha's watcher saw the sleeper and deleted rxe1"
                    " (rc %s)" % (i + 1, w.rc))
            a.run("test -e /sys/class/infiniband/rxe1 || "
                  "rdma link add rxe1 type rxe netdev eth1")
            back = failover.wait_links((a, b), 2, timeout=40)
            hit = stats(a).get("link_clear_held", 0) - before
            t.log("try %d: rxe1 deleted under alpha's CONFIRM_RKEY; two links again after %s s;"
                  " link_clear_held +%d" % (i + 1, back, hit))
            if hit or back is None or w.rc:
                break
    a.run("sysctl -qw net.smc.rmem=%s" % rmem)
    t.check(hit > 0, "alpha cleared a link while its handshake held a send slot"
                     " (link_clear_held +%d in %d tries)" % (hit, i + 1))
    t.check(failover.wait_links((a, b), 2, timeout=40) is not None,
            "the second link is back\n%s\n%s"
            % (failover.describe_groups(a), failover.describe_groups(b)))
    # the new link allocated its slot buffers: a freed object the sleeper
    # wrote is reported by now; and SMC-R still carries data
    srv = a.bg("%s server -f smc -p %d -c 1 -q" % (scenarios.XFER, PORT + 90))
    a.wait_port(PORT + 90, job=srv)
    b.run("%s client -f smc -a %s -p %d -n 256K -c 1 -q" % (scenarios.XFER, a.ip, PORT + 90),
          timeout=60)
    srv.wait(timeout=30)
    for h in (a, b):
        bad = smcr_cases.console_bad(h, pos[h.name])
        t.check(not bad, "%s: no kernel problem%s"
                % (h.name, (":\n  " + "\n  ".join(bad[:30])) if bad else ""))


# closing_failover (close_peers.py): beta's connections, 1000 bytes sent
# each, closed at its word (with "oob": after "abc", an urgent "X" and
# "def"); alpha reads each to its end, taking an urgent byte when one is
# signalled, and says how it ended (eof:<bytes in band>[:<urgent byte>])
CLOSE_PEERS = os.path.join(smcxlab.REPO, "selftests", "tools", "close_peers.py")
CLOSE_CONNS = 4


def closing_failover(t, a, b, oob=False):
    """Connections closed while their link is silently dead: the close
    CDC goes with the link; after TEST_LINK found it, the failover must say
    it again over the other link, so that the peer reads its end of data,
    as it would over TCP, instead of a reset SMCX_CLOSE_WAIT (30 s) later.
    With @oob each sends "abc", an urgent "X" and "def" before its close:
    the CDC that marked the urgent byte is lost too, and the failover must
    mark it again (TCP's reading: "abcdef" in band, "X" by MSG_OOB)."""
    t.check(failover.wait_links((a, b), 2, timeout=40) is not None,
            "two links to start with\n%s\n%s"
            % (failover.describe_groups(a), failover.describe_groups(b)))
    port = PORT + (70 if oob else 60)
    ready, go = "/tmp/smcx-close-%d.ready" % port, "/tmp/smcx-close-%d.go" % port
    b.run("rm -f %s %s" % (ready, go))
    srv = a.bg("python3 %s server %d %d" % (CLOSE_PEERS, port, CLOSE_CONNS))
    a.wait_port(port, job=srv)
    cli = b.bg("python3 %s client %s %d %d %s %s%s"
               % (CLOSE_PEERS, a.ip, port, CLOSE_CONNS, ready, go, " oob" if oob else ""))
    t.check(scenarios.wait_for(lambda: b.run("test -e %s" % ready, check=False).rc == 0,
                               timeout=60, step=0.5),
            "%d connections open, 1000 bytes sent on each" % CLOSE_CONNS)
    on1 = [ln["conns"] for ln in failover.group_of(b, "CLNT")["links"]
           if ln["ib_device"] == "rxe1"]
    t.check(on1 and on1[0] > 0, "some of them on the link of wire 1\n%s"
            % failover.describe_groups(b))
    failover.pull((a, b), 1, "drop")
    try:
        t0 = time.time()
        b.run("touch %s" % go)
        t.eq(cli.wait(timeout=60).out.strip(), "closed %d" % CLOSE_CONNS,
             "beta closed them all with the wire dropped")
        res = srv.wait(timeout=90)
        secs = time.time() - t0
        t.eq(res.out.strip(), " ".join(["eof:1006:X" if oob else "eof:1000"] * CLOSE_CONNS),
             "alpha read every connection to its end%s (%d on the dropped wire; %.1f s)"
             % (", the urgent byte by MSG_OOB" if oob else "", on1[0], secs))
        left = scenarios.wait_for(
            lambda: all(stacks.smcx_objects(h).get("conns", 0) == 0 for h in (a, b)),
            timeout=15, step=0.5)
        t.check(left, "no connection left on either host: alpha %s, beta %s"
                % (stacks.smcx_objects(a), stacks.smcx_objects(b)))
    finally:
        failover.restore((a, b), 1, "drop")
    t.check(failover.wait_links((a, b), 2, timeout=40) is not None,
            "the second link is back\n%s\n%s"
            % (failover.describe_groups(a), failover.describe_groups(b)))


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
    for h in (a, b):
        h.run("sysctl -qw net.smc.smcr_testlink_time=%d" % TESTLINK)
    try:
        with t.subtest("idle connections: TEST_LINK finds the dropped wire"):
            idle_failover(t, a, b)
        with t.subtest("a link cleared under a sender that holds a send slot"):
            held_slot_clear(t, a, b)
        with t.subtest("connections closed on a dropped wire end in order"):
            closing_failover(t, a, b)
        with t.subtest("urgent data sent into a dropped wire stays urgent"):
            closing_failover(t, a, b, oob=True)
    finally:
        for h in (a, b):
            h.run("sysctl -qw net.smc.smcr_testlink_time=30", check=False)
