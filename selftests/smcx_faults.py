# SPDX-License-Identifier: GPL-2.0
"""Faults in the lab: smcx on both hosts, SMC-R over rxe0, data
verified byte for byte (build/tools/xfer, hold).  One subtest per scenario;
each starts with smcx freshly loaded on both hosts and ends with it unloaded
(refused or timed-out unload fails the scenario), and the console lines of
the scenario must hold no kernel problem (the runner checks the whole test
again).

  rmmod_refused       4 connections held open: `rmmod smcx` fails on both
                      hosts, the module stays, and the connections then move
                      and verify data again and close.
  full_lgr            net.smc.smcr_max_conns_per_lgr at its minimum (16; 15
                      is refused) on the server: 16 held connections fill one
                      link group, a 17th goes to a second one (2 groups on
                      both hosts, 16 + 1 connections).
  churn               512 connections (32 rounds of 16 at once, each
                      verifying 4 KiB both ways) after a warm-up of 2
                      rounds: one link group on each host all along (sampled
                      twice a second), link/PD/CQ/QP counts the same after
                      as before, buffers and MRs no more than the pool of 2
                      rounds, socket and connection objects back at zero,
                      and no slab cache grown by a quarter of the connection
                      count (TCP's TIME_WAIT caches and vmalloc's
                      vmap_area excepted: see SLAB_SKIP).
  rdma_del_transfer   `rdma link delete rxe0` on the client during 2 duplex
                      transfers: both sides' blocked calls return (bounded),
                      the link group goes; rxe0 is added again and a new
                      transfer runs SMC-R.
  rdma_del_handshake  `rdma link delete rxe0` on the server, 4 times, while
                      the client connects in a loop (4 at once per round;
                      lgr_linger_ms=0 so that each round is a first contact
                      and groups are made and ended all the time; the
                      client's packets delayed 200 ms, so that the server
                      often waits for a Confirm when its device goes: review
                      F2): every round ends by itself, rounds succeed again
                      once rxe0 is back, and by SMC-R.
  netdev_transfer     the server's eth0 down for 8 s during 2 duplex
                      transfers (eth0 carries the CLC TCP and rxe0): every
                      blocked call returns; a new transfer runs SMC-R after.
  netdev_handshake    the server's eth0 down for 5 s while the client
                      connects in a loop: as rdma_del_handshake.
  stale_lgr           the client's rxe0 deleted while its RoCE packets are
                      dropped (tc), so the server never hears of it, then
                      added again (same GID): the server's idle group is
                      stale, as after a peer's crash and reboot.  6
                      connections one after the other all succeed, at most
                      the first by a fallback: the server ends the stale
                      group at the first sign (mainline: the client's
                      out-of-sync Decline).
  rdma_del_unread     a server that has data unread in its RMB when
                      `rdma link delete rxe0` runs on its host, then calls
                      recv(): data or an error, no crash (review F4).
  peer_killed         the server host's QEMU killed during 2 duplex
                      transfers: the client's connections fail with
                      ECONNRESET or EPIPE within PEER_GONE_BOUND (45 s),
                      its link group is freed and smcx unloads.  The
                      last scenario: the runner boots a fresh lab for
                      the next test.

SMCX_FAULTS=name,name runs only those scenarios (for bisecting a failure).
"""
import os
import re
import time

import scenarios
import smcr_cases
import smcxlab
import stacks

TIMEOUT = 900
COST = 186
TIER = "main"
KILLS = True		# peer_killed, the last scenario, kills beta

XFER = scenarios.XFER
OBJECTS = stacks.SMCX_DEBUGFS + "/objects"
# every blocking step of a scenario ends by itself within this (xfer and the
# connect rounds run under timeout(1); exit status 124 means it did not)
BOUND = 90
HS_ROUND = 30			# one connect round of 4 connections
PORT = 7400


# -- helpers ---------------------------------------------------------------

def load(t, params=""):
    for h in (t.alpha, t.beta):
        stacks.clear(h)
        h.insmod_smcx(" ".join(x for x in (stacks.SMCX_PARAMS, params) if x))
        # the scenarios break handshakes on purpose (a server's device going
        # while clients connect): the peer cache would send the rounds after
        # them out as plain TCP (docs/why.md, tested in smcx_why)
        h.run("sysctl -qw net.smc.smcx_peer_ttl=0")


def unload(t):
    """smcx unloads on both hosts (link groups torn down, nothing leaked:
    module exit logs "leaked at unload" otherwise, a console problem)."""
    for h in (t.alpha, t.beta):
        stacks.clear(h, timeout=60)
        t.check(not h.loaded("smcx"), "%s: smcx unloaded" % h.name)


def console_pos(t):
    return {h.name: smcr_cases.console_size(h) for h in t.hosts}


def console_ok(t, pos):
    """No kernel problem in either console since @pos."""
    for h in t.hosts:
        bad = smcr_cases.console_bad(h, pos[h.name])
        t.check(not bad, "%s: no kernel problem in the scenario%s"
                % (h.name, (":\n  " + "\n  ".join(bad[:30])) if bad else ""))


def objects(h):
    return stacks.smcx_objects(h)


def conn_objects_zero(t, h, timeout=30):
    kinds = [k for k in stacks.CONN_OBJECTS if k != "listeners"]
    o = smcr_cases.wait_conn_objects(h, timeout=timeout, kinds=kinds)
    left = {k: v for k, v in o.items() if v}
    t.check(not left, "%s: socket and connection objects back at zero (left: %s)"
            % (h.name, left))


def lgrs_gone(t, h, timeout=30):
    """No link group left on @h (netlink dump and object count)."""
    got = scenarios.wait_for(lambda: objects(h).get("lgrs", 0) == 0
                             and not stacks.linkgroups(h), timeout=timeout, step=1)
    t.check(got, "%s: link group freed (lgrs %s, dump %s)"
            % (h.name, objects(h).get("lgrs"), stacks.linkgroups(h)))


def rxe_ready(h):
    """rxe0 exists, its port is ACTIVE and it has the wire address's GID."""
    r = h.run("grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state &&"
              " grep -qx %s /sys/class/infiniband/rxe0/ports/1/gids/*" % stacks.gid_of(h),
              check=False)
    return r.rc == 0


def rxe_delete(t, h):
    r = h.run("timeout %d rdma link delete rxe0" % BOUND, check=False, timeout=BOUND + 30)
    t.check(r.rc == 0, "%s: rdma link delete rxe0 returned (rc %s)%s"
            % (h.name, r.rc, "" if r.rc == 0 else "\n" + r.describe() + "\n" + h.module_holders()))


def rxe_add(t, h):
    h.run("test -e /sys/class/infiniband/rxe0 || rdma link add rxe0 type rxe netdev eth0")
    t.check(scenarios.wait_for(lambda: rxe_ready(h), timeout=30, step=0.5),
            "%s: rxe0 back, port ACTIVE with its GID" % h.name)


def eth_up(t, h):
    h.run("ip link set eth0 up")
    peer = t.beta if h is t.alpha else t.alpha
    t.check(scenarios.wait_for(lambda: rxe_ready(h) and h.run(
        "ping -c1 -W1 %s" % peer.ip, check=False).rc == 0, timeout=30, step=0.5),
        "%s: eth0 up again, rxe0 ACTIVE, peer reachable" % h.name)


def diag(t):
    """Each host's non-zero handshake counters and latest smcx kernel
    messages, for the log of a scenario that failed or may fail."""
    for h in t.hosts:
        if h.name in t.lab.killed:
            continue
        r = h.run("grep -v ' 0$' %s/stats 2>/dev/null | tr '\\n' ' ';"
                  " dmesg | grep -E 'smcx|rxe' | tail -8" % stacks.SMCX_DEBUGFS, check=False)
        t.log("%s: %s" % (h.name, r.out.strip()))


def failures(res):
    """xfer's per-connection failure lines."""
    return [ln for ln in (res.out + res.err).splitlines()
            if re.match(r"xfer: (conn \d+ )?.*(failed|short|mismatch|connect|header|accept)", ln)]


def ended(t, what, res, bound=BOUND):
    """@res (a job's Result, None when lost) ended by itself."""
    t.check(res is not None and res.rc is not None and res.rc != 124 and not res.timed_out,
            "%s ended by itself within %d s (rc %s)%s"
            % (what, bound, None if res is None else res.rc,
               "" if res is None else "\n" + res.describe()))
    return res


def smcr_works(t, port):
    """A 1 MiB transfer each way, by SMC-R (SMC-Rv2 success, no fallback)."""
    a, b = t.alpha, t.beta
    sa = stacks.snapshot(a)
    scenarios.xfer(b, a, family="smc", port=port, nbytes=1 << 20, mode="duplex", timeout=BOUND)
    d = stacks.delta(sa, stacks.snapshot(a))
    t.eq((d["clnt_v2"], d["clnt_fallback"]), (1, 0),
         "SMC-R again: client SMC-Rv2 successes / fallbacks%s"
         % ((" (%s)" % stacks.fallback_reason(d)) if d["clnt_fallback"] else ""))


def start_transfer(t, port, nbytes, conns=2, bound=BOUND):
    """@conns duplex xfer connections alpha -> beta, running by SMC-R:
    (server job, client job) once the link groups hold them and rxe0
    carries their data; each job ends within @bound seconds."""
    a, b = t.alpha, t.beta
    srv = b.bg("timeout %d %s server -f smc -p %d -c %d -q" % (bound, XFER, port, conns))
    b.wait_port(port, job=srv)
    before = a.rxe_counter("sent_pkts")
    cli = a.bg("timeout %d %s client -f smc -a %s -p %d -n %d -m duplex -c %d -q"
               % (bound, XFER, b.ip, port, nbytes, conns))
    flowing = scenarios.wait_for(
        lambda: sum(g["conns"] for g in stacks.linkgroups(a)) == conns
        and a.rxe_counter("sent_pkts") - before > 200, timeout=60, step=0.5)
    if not flowing:
        for j in (cli, srv):
            smcr_cases.finish(j, kill=True)
        t.check(False, "%d SMC-R connections carrying data (link groups %s)"
                % (conns, stacks.linkgroups(a)))
    t.log("%d SMC-R connections carrying data" % conns)
    return srv, cli


class ConnectLoop:
    """Rounds of 4 connections (xfer, 1000 bytes each way) alpha -> beta,
    one after the other, until stopped; each round bounded by HS_ROUND
    seconds (exit status 124 if it was not)."""

    def __init__(self, t, port, first_contacts=True):
        self.t, self.port = t, port
        # every round a first contact: idle link groups end at once
        # (server; the client follows the server's DELETE_LINK), so a fault
        # meets link groups being made and torn down, not only one in use
        for h in (t.alpha, t.beta) if first_contacts else ():
            h.run("echo 0 > /sys/module/smcx/parameters/lgr_linger_ms")
        self.rcs = "/tmp/faults-hs-%d.rcs" % port
        self.stop = "/tmp/faults-hs-%d.stop" % port
        a, b = t.alpha, t.beta
        a.run("rm -f %s %s" % (self.rcs, self.stop))
        self.srv = b.bg("%s server -f smc -p %d -c 1024 -q" % (XFER, port))
        b.wait_port(port, job=self.srv)
        self.cli = a.bg("i=0; while [ ! -e %s ] && [ $i -lt 400 ]; do i=$((i+1));"
                        " timeout %d %s client -f smc -a %s -p %d -n 1000 -m duplex -c 4 -q"
                        " >>/tmp/faults-hs-%d.out 2>&1; echo $? >> %s; done"
                        % (self.stop, HS_ROUND, XFER, b.ip, port, port, self.rcs))

    def rounds(self):
        out = self.t.alpha.read(self.rcs) or ""
        return [int(x) for x in out.split()]

    def wait_rounds(self, n, what):
        have = len(self.rounds())
        got = scenarios.wait_for(lambda: len(self.rounds()) >= have + n,
                                 timeout=n * HS_ROUND, step=0.5)
        self.t.check(got, "%d more connect rounds %s (%d so far)" % (n, what, len(self.rounds())))

    def finish(self):
        a = self.t.alpha
        a.run("touch %s" % self.stop)
        res = smcr_cases.finish(self.cli, timeout=HS_ROUND + 30)
        ended(self.t, "the connect loop", res, HS_ROUND + 30)
        smcr_cases.finish(self.srv, kill=True)
        rcs = self.rounds()
        self.t.log("connect rounds: %d, exit codes %s" % (len(rcs), " ".join(map(str, rcs))))
        self.t.log(a.run("sort /tmp/faults-hs-%d.out | uniq -c | sort -rn | head -8"
                         % self.port, check=False).out.rstrip())
        self.t.check(124 not in rcs, "every connect round ended by itself within %d s"
                     % HS_ROUND)
        return rcs


# -- scenarios -------------------------------------------------------------

def rmmod_refused(t, port):
    a, b = t.alpha, t.beta
    with smcr_cases.Held(t, a, b, port, 4, 65536, timeout=120):
        for h in (a, b):
            r = h.run("rmmod smcx", check=False)
            t.check(r.rc != 0, "%s: rmmod smcx with live connections refused (rc %s: %s)"
                    % (h.name, r.rc, r.err.strip()))
            t.check(h.loaded("smcx"), "%s: smcx still loaded" % h.name)
            t.eq(objects(h).get("conns"), 4, "%s: connections still counted" % h.name)
    # leaving Held checked phase 2: the 4 connections moved and verified
    # 64 KiB each way after the refused rmmod, then closed
    for h in (a, b):
        conn_objects_zero(t, h)


def full_lgr(t, port):
    a, b = t.alpha, t.beta
    key = "/proc/sys/net/smc/smcr_max_conns_per_lgr"
    r = b.run("echo 15 > %s" % key, check=False)
    t.check(r.rc != 0, "smcr_max_conns_per_lgr=15 refused (below the minimum)")
    b.run("echo 16 > %s" % key)
    t.eq(b.out("cat %s" % key), "16", "server's smcr_max_conns_per_lgr")
    with smcr_cases.Held(t, a, b, port, 16, 4096, timeout=300):
        for h in (a, b):
            g = stacks.linkgroups(h)
            t.eq([x["conns"] for x in g], [16], "%s: one link group holding 16" % h.name)
        lg = stacks.linkgroups(b)[0]
        t.eq((lg.get("v2") or {}).get("max_conns"), 16, "server link group's max_conns")
        with smcr_cases.Held(t, a, b, port + 1, 1, 4096, timeout=120):
            for h in (a, b):
                g = stacks.linkgroups(h)
                t.eq(sorted(x["conns"] for x in g), [1, 16],
                     "%s: the 17th connection in a second link group" % h.name)
    for h in (a, b):
        conn_objects_zero(t, h)


CHURN_ROUNDS, CHURN_CONNS = 32, 16
POOL_ROUNDS = 2		# buffers of this many rounds may be alive at once
# caches that grow with the churn but are not smcx's: TCP's TIME_WAIT
# entries of the CLC sockets and their port buckets (60 s), and vmalloc's
# bookkeeping of the tools' thread stacks (freed areas are purged lazily;
# smcx does not vmalloc)
SLAB_SKIP = re.compile(r"^(tw_sock_TCP|request_sock_TCP|tcp_bind_bucket|tcp_bind2_bucket|"
                       r"vmap_area)")


def slabinfo(h):
    """{cache: (active objects, object size)}."""
    out = h.read("/proc/slabinfo") or ""
    caches = {}
    for ln in out.splitlines()[2:]:
        f = ln.split()
        if len(f) > 3:
            caches[f[0]] = (int(f[1]), int(f[3]))
    return caches


def churn_round(a, b, port, rounds):
    return a.run("for i in $(seq %d); do %s client -f smc -a %s -p %d -n 4096 -m duplex -c %d -q"
                 " || exit 1; done" % (rounds, XFER, b.ip, port, CHURN_CONNS),
                 timeout=rounds * 60, check=False)


def churn(t, port):
    a, b = t.alpha, t.beta
    # warm-up: the link groups and the buffer pool exist before the count
    srv = b.bg("%s server -f smc -p %d -c %d -q" % (XFER, port, POOL_ROUNDS * CHURN_CONNS))
    b.wait_port(port, job=srv)
    r = churn_round(a, b, port, POOL_ROUNDS)
    ended(t, "warm-up rounds", smcr_cases.finish(srv, timeout=60))
    t.check(r.rc == 0, "warm-up: %d rounds of %d connections\n%s"
            % (POOL_ROUNDS, CHURN_CONNS, r.describe()))
    for h in (a, b):
        conn_objects_zero(t, h)
    obj0 = {h.name: objects(h) for h in (a, b)}
    slab0 = {h.name: slabinfo(h) for h in (a, b)}
    st0 = stacks.snapshot(a)
    n = CHURN_ROUNDS * CHURN_CONNS
    sampler = {h.name: h.bg("while sleep 0.5; do awk '$1 == \"lgrs\" {print $2}' %s; done"
                            % OBJECTS) for h in (a, b)}
    srv = b.bg("%s server -f smc -p %d -c %d -q" % (XFER, port + 1, n))
    b.wait_port(port + 1, job=srv)
    t0 = time.time()
    r = churn_round(a, b, port + 1, CHURN_ROUNDS)
    t.log("%d connections in %.1fs" % (n, time.time() - t0))
    sres = smcr_cases.finish(srv, timeout=60)
    samples = {}
    for h in (a, b):
        res = smcr_cases.finish(sampler[h.name], kill=True)
        samples[h.name] = [int(x) for x in (res.out if res else "").split() if x.isdigit()]
    t.check(r.rc == 0, "%d rounds of %d connections, every byte verified\n%s"
            % (CHURN_ROUNDS, CHURN_CONNS, r.describe()))
    ended(t, "the churn server", sres)
    t.check(sres.rc == 0, "server: %d connections verified\n%s" % (n, sres.describe()))
    d = stacks.delta(st0, stacks.snapshot(a))
    t.eq((d["clnt_v2"], d["clnt_fallback"]), (n, 0), "client SMC-Rv2 successes / fallbacks")
    for h in (a, b):
        s = samples[h.name]
        t.check(s and set(s) == {1}, "%s: one link group all along (%d samples: %s)"
                % (h.name, len(s), sorted(set(s))))
        conn_objects_zero(t, h)
        o0, o1 = obj0[h.name], objects(h)
        t.log("%s: objects before %s after %s" % (h.name, o0, o1))
        for k in ("lgrs", "links", "pds", "cqs", "qps", "socks", "clcsocks", "conns",
                  "pending_handshakes"):
            t.eq(o1.get(k), o0.get(k), "%s: %s after the churn" % (h.name, k))
        pool = POOL_ROUNDS * CHURN_CONNS
        t.check(o1.get("bufs", 0) <= max(o0.get("bufs", 0), 2 * pool)
                and o1.get("mrs", 0) <= max(o0.get("mrs", 0), pool),
                "%s: buffers %s -> %s, MRs %s -> %s: within the pool of %d connections"
                % (h.name, o0.get("bufs"), o1.get("bufs"), o0.get("mrs"), o1.get("mrs"), pool))
        s0, s1 = slab0[h.name], slabinfo(h)
        grew = sorted(((s1[c][0] - s0.get(c, (0, 0))[0], c) for c in s1
                       if not SLAB_SKIP.match(c)), reverse=True)
        t.log("%s: slab caches grown most (objects): %s" % (
            h.name, ", ".join("%s +%d" % (c, g) for g, c in grew[:6])))
        big = [(c, g) for g, c in grew if g >= n // 4]
        t.check(not big, "%s: no slab cache grew by %d objects or more (%s)"
                % (h.name, n // 4, big))


def rdma_del_transfer(t, port):
    a, b = t.alpha, t.beta
    srv, cli = start_transfer(t, port, 256 << 20)
    pos = console_pos(t)
    rxe_delete(t, a)
    rc = ended(t, "client transfer", smcr_cases.finish(cli, timeout=BOUND + 30))
    rs = ended(t, "server transfer", smcr_cases.finish(srv, timeout=BOUND + 30))
    t.check(rc.rc != 0 and rs.rc != 0, "both transfers failed (they cannot complete)")
    t.log("client: %s" % failures(rc)[:4])
    t.log("server: %s" % failures(rs)[:4])
    console_ok(t, pos)
    for h in (a, b):
        conn_objects_zero(t, h)
    lgrs_gone(t, a)
    rxe_add(t, a)
    smcr_works(t, port + 1)


def rdma_del_unread(t, port):
    a, b = t.alpha, t.beta
    ready, go = "/tmp/faults-unread.ready", "/tmp/faults-unread.go"
    b.run("rm -f %s %s" % (ready, go))
    srv = b.bg("timeout %d %s %d %s %s"
               % (BOUND, scenarios.pytool("unread_server"), port, ready, go))
    b.wait_port(port, job=srv)
    cli = a.bg("timeout %d %s client -f smc -a %s -p %d -n 16384 -m send"
               % (BOUND, XFER, b.ip, port))
    t.check(scenarios.wait_for(lambda: b.run("test -e %s" % ready, check=False).rc == 0,
                               timeout=60, step=0.5),
            "server holds 16 KiB unread in its RMB")
    t.eq([g["conns"] for g in stacks.linkgroups(b)], [1], "beta: the connection is SMC-R")
    pos = console_pos(t)
    rxe_delete(t, b)
    # time for ib_core to free the device before the recv (with page
    # poisoning a use of it then faults)
    b.run("sleep 2; touch %s" % go)
    rs = ended(t, "the server's recv after the removal", smcr_cases.finish(srv, timeout=BOUND))
    t.log("server: %s" % rs.out.strip())
    rc = ended(t, "the client", smcr_cases.finish(cli, timeout=BOUND))
    t.log("client: rc %s %s" % (rc.rc, failures(rc)[:2]))
    console_ok(t, pos)
    for h in (a, b):
        conn_objects_zero(t, h)
    lgrs_gone(t, b)
    rxe_add(t, b)


# the client's packets late on the wire: a server's first contact waits that
# long for the Confirm after its Accept, the window in which a removal of
# its device must not leave it using a torn-down link (review F2)
SLOW_CLIENT = "tc qdisc add dev eth0 root netem delay 200ms"
UNSLOW_CLIENT = "tc qdisc del dev eth0 root"
RXE_DELETES = 4


def rdma_del_handshake(t, port):
    a, b = t.alpha, t.beta
    pos = console_pos(t)
    loop = ConnectLoop(t, port)
    try:
        loop.wait_rounds(4, "before the fault")
        a.run(SLOW_CLIENT)
        for _ in range(RXE_DELETES):
            loop.wait_rounds(1, "with rxe0 on beta")
            rxe_delete(t, b)
            loop.wait_rounds(1, "while beta has no rxe0")
            rxe_add(t, b)
        a.run(UNSLOW_CLIENT)
        st = stacks.snapshot(a)
        loop.wait_rounds(6, "after rxe0 is back")
    finally:
        a.run(UNSLOW_CLIENT + " 2>/dev/null", check=False)
        rcs = loop.finish()
    console_ok(t, pos)
    t.check(rcs[-3:] == [0, 0, 0], "the last connect rounds succeeded (%s)" % rcs[-3:])
    d = stacks.delta(st, stacks.snapshot(a))
    t.check(d["clnt_v2"] > 0, "SMC-R again after rxe0 is back (%d SMC-Rv2, %d fallbacks: %s)"
            % (d["clnt_v2"], d["clnt_fallback"], stacks.fallback_reason(d)))
    for h in (a, b):
        conn_objects_zero(t, h)


def netdev_transfer(t, port):
    a, b = t.alpha, t.beta
    srv, cli = start_transfer(t, port, 16 << 20)
    pos = console_pos(t)
    b.run("ip link set eth0 down; sleep 8")
    eth_up(t, b)
    rc = ended(t, "client transfer", smcr_cases.finish(cli, timeout=BOUND + 30))
    rs = ended(t, "server transfer", smcr_cases.finish(srv, timeout=BOUND + 30))
    t.log("client rc %s %s; server rc %s %s"
          % (rc.rc, failures(rc)[:4], rs.rc, failures(rs)[:4]))
    console_ok(t, pos)
    for h in (a, b):
        conn_objects_zero(t, h)
    smcr_works(t, port + 1)


def netdev_handshake(t, port):
    a, b = t.alpha, t.beta
    pos = console_pos(t)
    loop = ConnectLoop(t, port)
    try:
        loop.wait_rounds(6, "before the fault")
        b.run("ip link set eth0 down; sleep 5")
        eth_up(t, b)
        st = stacks.snapshot(a)
        loop.wait_rounds(6, "after eth0 is back")
    finally:
        rcs = loop.finish()
    console_ok(t, pos)
    t.check(rcs[-3:] == [0, 0, 0], "the last connect rounds succeeded (%s)" % rcs[-3:])
    d = stacks.delta(st, stacks.snapshot(a))
    t.check(d["clnt_v2"] > 0, "SMC-R after eth0 is back (%d SMC-Rv2, %d fallbacks: %s)"
            % (d["clnt_v2"], d["clnt_fallback"], stacks.fallback_reason(d)))
    for h in (a, b):
        conn_objects_zero(t, h)


DROP_ROCE = ("tc qdisc add dev eth0 clsact && tc filter add dev eth0 egress protocol ip"
             " flower ip_proto udp dst_port 4791 action drop")
UNDROP_ROCE = "tc qdisc del dev eth0 clsact"


def stale_lgr(t, port):
    """A link group that one side lost without the other knowing: the
    client's rxe0 deleted while its RoCE packets are dropped (its
    DELETE_LINK never arrives), then added again with the same GID.  The
    server's idle group still looks fine to it and is offered to the next
    connection; the client has no such group and declines with SYNCERR and
    the "out of sync" flag.  The server must end the stale group then
    (mainline: smc_clc_wait_msg() terminates it), so that one connection
    falls back and the next ones are SMC-R again.  (smcx confirms a reused
    first-contact RMB with CONFIRM_RKEY on the stale link, which gets no
    answer in 2 s: that failure is the first sign.)"""
    a, b = t.alpha, t.beta
    smcr_works(t, port)
    t.eq([g["conns"] for g in stacks.linkgroups(b)], [0], "beta: one idle link group")
    a.run(DROP_ROCE)
    try:
        rxe_delete(t, a)
    finally:
        a.run(UNDROP_ROCE, check=False)
    rxe_add(t, a)
    lgrs_gone(t, a)
    t.eq(len(stacks.linkgroups(b)), 1, "beta: its link group is still there (stale)")
    st = stacks.snapshot(a)
    srv = b.bg("%s server -f smc -p %d -c 6 -q" % (XFER, port + 1))
    b.wait_port(port + 1, job=srv)
    out = "/tmp/faults-stale.out"
    try:
        rcs = a.run("rm -f %s; for i in 1 2 3 4 5 6; do timeout %d %s client -f smc -a %s -p %d"
                    " -n 1000 -m duplex -q >>%s 2>&1; echo $?; done"
                    % (out, HS_ROUND, XFER, b.ip, port + 1, out),
                    timeout=7 * HS_ROUND).out.split()
    finally:
        smcr_cases.finish(srv, kill=True)
        diag(t)
    t.eq(rcs, ["0"] * 6, "6 connections, one after the other, data verified (they said: %s)"
         % a.run("grep -v ' ok' %s | sort | uniq -c" % out, check=False).out.strip())
    d = stacks.delta(st, stacks.snapshot(a))
    t.log("6 connections: %d SMC-Rv2, fallbacks: %s"
          % (d["clnt_v2"], stacks.fallback_reason(d) or "none"))
    t.check(d["clnt_fallback"] <= 1 and d["clnt_v2"] >= 5,
            "the stale group ends at its first failed use: at most one fallback"
            " (%d SMC-Rv2, %d fallbacks: %s)"
            % (d["clnt_v2"], d["clnt_fallback"], stacks.fallback_reason(d)))
    for h in (a, b):
        conn_objects_zero(t, h)


PEER_GONE = re.compile(r"(Connection reset by peer|Broken pipe)$")


# How long the client may take to learn that its peer vanished: a send
# whose completion does not come is found by the group's watchdog (every
# 5 s, a slot older than 15 s: about 20 s), but when the kill finds no
# send outstanding (the sender waits for the peer's window) only TEST_LINK
# finds it, after net.smc.smcr_testlink_time (30 s) without a message and
# its own LLC wait; seen at 30-37 s in a loaded make check, 20-22 s alone.
PEER_GONE_BOUND = 45


def peer_killed(t, port):
    a, b = t.alpha, t.beta
    srv, cli = start_transfer(t, port, 1 << 30)
    t.lab.kill_host(b.name)
    t0 = time.time()
    res = cli.wait(timeout=PEER_GONE_BOUND, check=False)
    t.check(res.rc is not None, "client's transfers ended within %d s of the kill"
            % PEER_GONE_BOUND)
    t.log("client ended %.1fs after the kill, rc %s" % (time.time() - t0, res.rc))
    fl = failures(res)
    t.log("\n".join(fl))
    for i in range(2):
        # a recv may read EOF rather than the reset ("rx short"), as with
        # mainline SMC-R (the reset is then in SO_ERROR); every failing call
        # says ECONNRESET or EPIPE, and at least one does
        mine = [ln for ln in fl if ln.startswith("xfer: conn %d " % i)]
        calls = [ln for ln in mine if " failed at " in ln]
        t.check(calls and all(PEER_GONE.search(ln) for ln in calls),
                "connection %d: ECONNRESET or EPIPE (%s)" % (i, mine))
    conn_objects_zero(t, a)
    lgrs_gone(t, a)
    stacks.clear(a, timeout=60)
    t.check(not a.loaded("smcx"), "alpha: smcx unloaded")


# scenarios whose fix has not landed: reported as SKIP with the reason
# unless the runner runs pending work (selftests/run --pending, or
# SMCX_PENDING=1); the marker goes in the commit that makes it pass
PENDING_SCENARIOS = {}

SCENARIOS = (
    ("rmmod_refused", rmmod_refused),
    ("full_lgr", full_lgr),
    ("churn", churn),
    ("rdma_del_transfer", rdma_del_transfer),
    ("rdma_del_handshake", rdma_del_handshake),
    ("netdev_transfer", netdev_transfer),
    ("netdev_handshake", netdev_handshake),
    ("stale_lgr", stale_lgr),
    ("rdma_del_unread", rdma_del_unread),
    ("peer_killed", peer_killed),
)


def run(t):
    smcr_cases.need_tools(t, XFER, smcr_cases.HOLD)
    only = [x for x in os.environ.get("SMCX_FAULTS", "").split(",") if x]
    unknown = set(only) - {n for n, _ in SCENARIOS}
    t.check(not unknown, "SMCX_FAULTS names known scenarios (%s)" % ", ".join(sorted(unknown)))
    for i, (name, fn) in enumerate(SCENARIOS):
        if only and name not in only:
            continue
        with t.subtest(name):
            if t.lab.killed:
                t.skip("a host was killed")
            if name in PENDING_SCENARIOS and not t.pending:
                t.skip("pending: %s (run with --pending)" % PENDING_SCENARIOS[name])
            pos = console_pos(t)
            try:
                load(t)
                fn(t, PORT + 10 * i)
            finally:
                # a host left without rxe0 or eth0 fails the next scenario
                # for the wrong reason: restore them whatever happened
                for h in t.hosts:
                    if h.name in t.lab.killed:
                        continue
                    try:
                        h.run("ip link set eth0 up; tc qdisc del dev eth0 clsact 2>/dev/null;"
                              " tc qdisc del dev eth0 root 2>/dev/null;"
                              " test -e /sys/class/infiniband/rxe0 ||"
                              " rdma link add rxe0 type rxe netdev eth0", check=False)
                    except smcxlab.LabError as e:
                        t.log("%s: cannot restore eth0/rxe0: %s" % (h.name, e))
            if name != "peer_killed":
                unload(t)
            console_ok(t, pos)
