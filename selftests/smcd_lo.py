# SPDX-License-Identifier: GPL-2.0
"""SMC-D over smcx's loopback device: sockets of one host (docs/loopback.md).

smcx loaded on both hosts with nothing configured; alpha runs both ends
unless a subtest says otherwise.

- sockapi/: the socket-semantics suite over 127.0.0.1, TCP on 127.0.0.1
  the oracle, every AF_SMC handshake ending in SMC-D and none in a
  fallback, no RoCE packet sent;
- tcp2smc/: two network namespaces joined by a veth pair, net.smc.tcp2smc=1
  in both and nothing else: unmodified applications (python's http.server
  and curl, redis-server and redis-cli) talk over SMC-D, verified byte for
  byte; sock_diag in each namespace says SMCD for a connection it sees;
  deleting the namespaces ends their idle SMC-D groups at once (a group
  holds no reference on its namespace);
- ipv6/: AF_SMC over ::1 is SMC-D too (native IPv6, no v4-mapped form);
- reach/: the host's own eth0 address (its route is lo's) and smc_run
  (unmodified TCP programs, preloaded) reach SMC-D as well;
- fallback/: a TCP-only server on this host (the client falls back,
  data intact); net.smc.smcx_loopback=0 in the server's namespace (TCP:
  127.0.0.1 has no RoCE device); a peer on the other host still gets SMC-R;
- close/: the close orderings of smcr_close over SMC-D (closer), every
  ordering ok on both sides, the abortive ones seen as a reset;
- abort/: a listener closed with SMC-D connections in its accept queue
  whose clients keep writing, then a new listener: its connection's
  reader sees only its own bytes (smcx_abort's server case, one host);
- isolation/: a stranger that speaks CLC by hand over 127.0.0.1
  (clc_client's steal: a plain TCP socket whose SYN a tc pedit filter on lo
  gives the SMC option) cannot aim smcx's copies at another connection's
  DMB.  While a victim SMC-D connection (hold) is open, the stranger's
  SMC-Dv2 Proposal (the loopback GID read from the victim's
  SMC_DIAG_DMBINFO, CHID ffff, the default user EID) gets an SMC-D Accept
  (checked field by field: the server's own new DMB token, in the victim
  server's group), and its Confirm, that Accept with the type changed and
  the token replaced, names a random token, the victim client's DMB and
  the victim server's DMB in turn.  Each time the server resets the
  connection at the Confirm: the stranger reads a reset and no byte, the
  server's flight record is Proposal in, Accept out, Confirm in, then
  EPROTO (no Decline), and the stranger's AF_SMC listener accepts nothing.
  The victim stays SMC-D and its second exchange is verified byte for
  byte; the connection object and DMB counts return to where they were;
- kill/: kill -9 of either end during a transfer ends the other end's
  calls with an error or EOF, never a hang;
- unload/: rmmod with a live SMC-D connection is refused and the
  connection still works; afterwards every object count returns to zero
  (the runner checks that too).
"""
import json
import os
import random
import re
import time

import scenarios
import smcr_cases
import smcxlab
import sockapi_lib as L
import stacks

TIMEOUT = 1500
COST = 235
PORT = 23500
NS = ("smcd_ns1", "smcd_ns2")
NS_ADDR = ("10.77.0.1", "10.77.0.2")
XFER = scenarios.XFER
HOLD = os.path.join(os.path.dirname(scenarios.XFER), "hold")
DEBUGFS_STATS = "/sys/kernel/debug/smcx/stats"
# Over 127.0.0.1 (lo's MTU is 64 KiB) TCP bounds its MSS by half the largest
# window the peer advertised; TCP_MAXSEG of an SMC socket is its CLC
# connection's (as mainline's), whose peer advertised another window than
# the data-carrying TCP connection of the oracle.  Between the lab's hosts
# (MTU 1500) both are 1448, and sockapi/sockapi_smcr compare it.
LO_ALLOWED = {"opt_misc": ({"maxseg"}, "TCP_MAXSEG over lo: the CLC connection's window bound")}


class Local:
    """@h seen as a peer at @ip: the two ends of a helper that runs a
    server on one host object and a client on another share one guest."""

    def __init__(self, h, ip):
        self._h = h
        self.ip = ip

    def __getattr__(self, name):
        return getattr(self._h, name)


def until(fn, timeout=30, what="the condition"):
    """@fn()'s first true value, polled every 0.2 s for @timeout seconds."""
    end = time.time() + timeout
    while True:
        v = fn()
        if v:
            return v
        if time.time() > end:
            raise AssertionError("timed out after %ds waiting for %s" % (timeout, what))
        time.sleep(0.2)


def nsx(ns, cmd):
    """@cmd in the network namespace @ns.  nsenter, not ip netns exec,
    which mounts a sysfs of its own over /sys, without debugfs."""
    return "nsenter --net=/run/netns/%s %s" % (ns, cmd) if ns else cmd


def modes(h, port, ns=None):
    """{(local port, peer port): mode} of the connected AF_SMC sockets at
    @port (a listener has no mode of its own to show)."""
    r = h.run(nsx(ns, "%s -a --json" % stacks.smcss()), check=False)
    if r.rc:
        raise AssertionError("smcss: %s" % r.describe())
    out = {}
    for s in json.loads(r.out)["sockets"]:
        lp = (s.get("local") or {}).get("port")
        pp = (s.get("peer") or {}).get("port")
        if port in (lp, pp) and pp:
            out[(lp, pp)] = s.get("mode")
    return out


def jout(h, cmd):
    return json.loads(h.out(cmd))


def hs(h, ns=None):
    """The handshake counters of @h's namespace (debugfs: the reader's)."""
    text = h.run(nsx(ns, "cat %s" % DEBUGFS_STATS)).out
    d = {}
    for ln in text.splitlines():
        p = ln.split()
        if len(p) == 2 and p[1].isdigit():
            d[p[0]] = int(p[1])
    return d


def hs_delta(before, after):
    return {k: v - before.get(k, 0) for k, v in after.items() if v != before.get(k, 0)}


def success(d, role):
    """SMC handshakes of @role that ended in SMC (either technology)."""
    return sum(v for k, v in d.items() if role in k and "success" in k)


def fallbacks(d):
    return {k: v for k, v in d.items() if "fallback" in k and v}


def rxe_sent(h):
    return int(h.read("/sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts") or 0)


def xfer_pair(t, h, family, port, nbytes, srv_ns=None, cli_ns=None, addr="127.0.0.1",
              watch=None):
    """One verified transfer (xfer's FNV check, both directions' ends ok);
    @watch(port) runs while it goes.  Returns the client's output."""
    srv = h.bg(nsx(srv_ns, "%s server -f %s -p %d -q" % (XFER, family, port)))
    try:
        h.wait_port(port) if not srv_ns else h.run(
            nsx(srv_ns, "sh -c 'for i in $(seq 50); do ss -ltn | grep -q :%d && exit 0;"
                " sleep 0.1; done; exit 1'" % port))
        if watch:
            cli = h.bg(nsx(cli_ns, "%s client -f %s -a %s -p %d -t 3 -q"
                           % (XFER, family, addr, port)))
            watch(port)
            c = cli.wait(timeout=120)
        else:
            c = h.run(nsx(cli_ns, "%s client -f %s -a %s -p %d -n %d -q"
                          % (XFER, family, addr, port, nbytes)), timeout=300)
        s = srv.wait(timeout=60)
    except BaseException:
        srv.kill()
        raise
    t.check("1/1 connections ok" in c.out + c.err,
            "xfer client ok: %s" % (c.out + c.err).strip()[-300:])
    t.check("1/1 connections ok" in s.out + s.err,
            "xfer server: every byte verified: %s" % (s.out + s.err)[-200:])
    return c.out + c.err


def sockapi_pass(t, a):
    port = L.base_port()
    L.install_tool((a,))
    tcp = L.oracle(t, "tcp", port, local=a)
    bad = [n for n, ln in tcp.cases.items() if ln.startswith("FAIL")]
    t.check(not bad, "the TCP oracle on 127.0.0.1 passes every case (failed: %s)"
            % ", ".join(bad))
    before, sent = hs(a), rxe_sent(a)
    run = L.run_suite(t, "smc", port + 20, local=a)
    d = hs_delta(before, hs(a))
    t.log("handshakes of the pass: %s" % d)
    with t.subtest("sockapi/over SMC-D"):
        t.check(success(d, "clnt") > 0 and success(d, "srv") > 0,
                "the pass's handshakes ended in SMC (%s)" % d)
        t.eq(fallbacks(d), {}, "no handshake fell back to TCP")
        t.eq(rxe_sent(a) - sent, 0, "no RoCE packet: the data went through the loopback device")
    L.compare(t, tcp, run, prefix="sockapi/", allowed=LO_ALLOWED)


def netns_up(h):
    netns_down(h)
    h.run("ip netns add %s && ip netns add %s" % NS)
    h.run("ip link add smcdv1 netns %s type veth peer name smcdv2 netns %s" % NS)
    for ns, dev, ip in ((NS[0], "smcdv1", NS_ADDR[0]), (NS[1], "smcdv2", NS_ADDR[1])):
        h.run(nsx(ns, "sh -c 'ip addr add %s/24 dev %s && ip link set %s up"
                      " && ip link set lo up && sysctl -qw net.smc.tcp2smc=1'" % (ip, dev, dev)))


def netns_down(h):
    for ns in NS:
        h.run("ip netns del %s" % ns, check=False)


def tcp2smc_pass(t, a):
    netns_up(a)
    try:
        with t.subtest("tcp2smc/xfer across namespaces, sock_diag says SMCD"):
            seen = {}

            def watch(port):
                h_srv = until(
                    lambda: modes(a, port, NS[0]) or None, timeout=20, what="server socket")
                seen["srv"] = h_srv
                seen["cli"] = modes(a, port, NS[1])
            before = hs(a, NS[0])
            xfer_pair(t, a, "tcp", PORT, 0, srv_ns=NS[0], cli_ns=NS[1], addr=NS_ADDR[0],
                      watch=watch)
            t.log("modes: %s" % seen)
            t.check(seen.get("srv") and set(seen["srv"].values()) == {"SMCD"},
                    "the server namespace's sock_diag: SMCD (%s)" % seen.get("srv"))
            t.check(seen.get("cli") and set(seen["cli"].values()) == {"SMCD"},
                    "the client namespace's sock_diag: SMCD (%s)" % seen.get("cli"))
            d = hs_delta(before, hs(a, NS[0]))
            t.check(success(d, "srv") >= 1 and not fallbacks(d),
                    "server namespace: SMC, no fallback (%s)" % d)
        with t.subtest("tcp2smc/http.server and curl"):
            a.run("rm -rf /tmp/smcd-http && mkdir /tmp/smcd-http && "
                  "head -c 3M /dev/urandom > /tmp/smcd-http/blob")
            want = a.out("sha256sum /tmp/smcd-http/blob").split()[0]
            before = hs(a, NS[0])
            srv = a.bg(nsx(NS[0], "python3 -m http.server -b %s -d /tmp/smcd-http 8080"
                           % NS_ADDR[0]))
            try:
                until(lambda: "8080" in a.out(nsx(NS[0], "ss -ltn")), timeout=30,
                      what="http.server listening")
                got = a.out(nsx(NS[1], "sh -c 'curl -sS http://%s:8080/blob | sha256sum'"
                                % NS_ADDR[0])).split()[0]
            finally:
                srv.kill()
            t.eq(got, want, "curl got the file byte for byte")
            d = hs_delta(before, hs(a, NS[0]))
            t.check(success(d, "srv") >= 1 and not fallbacks(d),
                    "http.server's connection was SMC (%s)" % d)
        with t.subtest("tcp2smc/redis-server and redis-cli"):
            t.check(os.path.exists("/usr/bin/redis-server"),
                    "redis-server is installed (scripts/setup)")
            a.run("head -c 300000 /dev/urandom | base64 -w0 > /tmp/smcd-redis-v")
            before = hs(a, NS[0])
            # not protected mode: the client is another host to it
            srv = a.bg(nsx(NS[0], "redis-server --bind %s --port 6390 --save '' "
                           "--appendonly no --protected-mode no" % NS_ADDR[0]))
            try:
                until(lambda: "6390" in a.out(nsx(NS[0], "ss -ltn")), timeout=30,
                      what="redis listening")
                cli = nsx(NS[1], "redis-cli -h %s -p 6390" % NS_ADDR[0])
                t.eq(a.out("%s -x SET k < /tmp/smcd-redis-v" % cli).strip(), "OK",
                     "redis-cli SET")
                a.run("%s --raw GET k | head -c -1 > /tmp/smcd-redis-g" % cli)
            finally:
                srv.kill()
            want, got = (a.out("sha256sum < %s" % f).split()[0]
                         for f in ("/tmp/smcd-redis-v", "/tmp/smcd-redis-g"))
            t.eq(got, want, "redis returned the 400,000-byte value (base64 of 300,000 random bytes) byte for byte")
            d = hs_delta(before, hs(a, NS[0]))
            t.check(success(d, "srv") >= 2 and not fallbacks(d),
                    "redis connections were SMC (%s)" % d)
        with t.subtest("tcp2smc/the namespaces go, and their groups with them"):
            # idle groups linger 10 minutes, but hold no namespace
            smcd = scenarios.tool("smcd")
            groups = sum(len(jout(a, nsx(ns, "%s -j linkgroup" % smcd))["linkgroups"])
                         for ns in NS)
            t.eq(groups, 2, "an SMC-D group in each namespace, idle")
            before = stacks.smcx_objects(a)["lgrs"]
            netns_down(a)
            until(lambda: stacks.smcx_objects(a)["lgrs"] == before - 2, timeout=60,
                  what="the namespaces' two groups ended (lgrs %d -> %d)"
                  % (before, before - 2))
    finally:
        netns_down(a)


def ipv6_pass(t, a):
    with t.subtest("ipv6/AF_SMC over ::1"):
        seen = {}
        xfer_pair(t, a, "smc6", PORT + 5, 0, addr="::1",
                  watch=lambda p: seen.update(until(lambda: modes(a, p), what="the connection")))
        t.check(seen and set(seen.values()) == {"SMCD"}, "::1: SMCD (%s)" % seen)


def reach_pass(t, a):
    """The other ways in: the host's own address, and smc_run's preload."""
    with t.subtest("reach/AF_SMC to the host's own address"):
        seen = {}
        xfer_pair(t, a, "smc", PORT + 6, 0, addr=a.ip,
                  watch=lambda p: seen.update(until(lambda: modes(a, p), what="the connection")))
        t.check(seen and set(seen.values()) == {"SMCD"}, "%s: SMCD (%s)" % (a.ip, seen))
    with t.subtest("reach/smc_run: unmodified TCP programs"):
        run = scenarios.tool("smc_run")
        port, seen = PORT + 7, {}
        srv = a.bg("%s %s server -f tcp -p %d -q" % (run, XFER, port))
        try:
            a.wait_port(port)
            cli = a.bg("%s %s client -f tcp -a 127.0.0.1 -p %d -t 3 -q" % (run, XFER, port))
            seen = until(lambda: (lambda m: m if len(m) >= 2 else None)(modes(a, port)),
                         what="both ends of the connection")
            c = cli.wait(timeout=120)
            s = srv.wait(timeout=60)
        except BaseException:
            srv.kill()
            raise
        t.check("1/1 connections ok" in s.out + s.err,
                "every byte verified: %s" % (c.out + c.err + s.out + s.err).strip()[-300:])
        t.check(seen and set(seen.values()) == {"SMCD"}, "smc_run over 127.0.0.1: SMCD (%s)" % seen)


def fallback_pass(t, a, b):
    with t.subtest("fallback/TCP-only server on this host"):
        before = hs(a)
        srv = a.bg("%s server -f tcp -p %d -q" % (XFER, PORT + 1))
        try:
            a.wait_port(PORT + 1)
            c = a.run("%s client -f smc -a 127.0.0.1 -p %d -n 1000000 -q" % (XFER, PORT + 1))
            srv.wait(timeout=60)
        except BaseException:
            srv.kill()
            raise
        t.check(" ok" in c.out + c.err, "data intact: %s" % (c.out + c.err).strip()[-200:])
        d = hs_delta(before, hs(a))
        t.check(fallbacks(d), "the client fell back to TCP (%s)" % d)
    with t.subtest("fallback/net.smc.smcx_loopback=0"):
        a.run("sysctl -qw net.smc.smcx_loopback=0")
        try:
            before = hs(a)
            seen = {}
            xfer_pair(t, a, "smc", PORT + 2, 0,
                      watch=lambda p: seen.update(
                          until(lambda: modes(a, p), what="the connection")))
            d = hs_delta(before, hs(a))
        finally:
            a.run("sysctl -qw net.smc.smcx_loopback=1")
        t.check(seen and "SMCD" not in seen.values(), "no SMC-D socket (%s)" % seen)
        t.check(fallbacks(d) and not success(d, "srv"), "TCP: fell back (%s)" % d)
    with t.subtest("fallback/the other host still gets SMC-R"):
        seen = {}
        srv = b.bg("%s server -f smc -p %d -q" % (XFER, PORT + 3))
        try:
            b.wait_port(PORT + 3)
            cli = a.bg("%s client -f smc -a %s -p %d -t 3 -q" % (XFER, b.ip, PORT + 3))
            until(lambda: modes(a, PORT + 3) or None, timeout=30,
                               what="client socket")
            seen = modes(a, PORT + 3)
            c = cli.wait(timeout=120)
            srv.wait(timeout=60)
        except BaseException:
            srv.kill()
            raise
        t.check(" ok" in c.out + c.err, "data intact: %s" % (c.out + c.err).strip()[-200:])
        t.eq(set(seen.values()), {"SMCR"}, "alpha -> beta: SMC-R (%s)" % seen)


def close_pass(t, a):
    status, observed, _, _ = smcr_cases.closer_run(t, a, Local(a, "127.0.0.1"), "smc",
                                                   PORT + 10)
    for o in smcr_cases.ORDERS:
        with t.subtest("close/" + o):
            t.eq(status[o], ("ok", "ok"), "SMC-D %s: client / server" % o)
            if o.startswith("unread-"):
                t.check(smcr_cases.reset_seen(observed.get(o)),
                        "the peer sees a reset, cannot send: %s" % observed.get(o))


ABORT_PEERS = scenarios.pytool("abort_peers")


def listener_pass(t, a):
    """smcx_abort's server case on one host: a listener closed with SMC-D
    connections in its accept queue, whose clients keep writing, then a
    new listener's connection: its reader must see only its own bytes
    (the old connections' DMBs may serve the new one by then)."""
    ports, nconn, nb = (PORT + 40, PORT + 41), 3, 200000
    go_a, ready_b, go_b = "/tmp/smcdab_go_a", "/tmp/smcdab_ready_b", "/tmp/smcdab_go_b"
    a.run("rm -f /tmp/smcdab_*")
    hold = a.bg("%s hold %d %s" % (ABORT_PEERS, ports[0], go_a))
    a.wait_port(ports[0], job=hold)
    cli = a.bg("%s clients 127.0.0.1 %d %d %s %s %d %d"
               % (ABORT_PEERS, ports[0], nconn, ready_b, go_b, ports[1], nb))
    until(lambda: a.run("test -e " + ready_b, check=False).rc == 0, timeout=60,
          what="%d clients connected" % nconn)
    t.log("queued: %s" % modes(a, ports[0]))
    rd = a.bg("%s reader %d %d" % (ABORT_PEERS, ports[1], nb))
    a.wait_port(ports[1], job=rd)
    a.run("touch " + go_a)
    closed = json.loads(hold.wait(timeout=60).out)
    a.run("touch " + go_b)
    res = json.loads(cli.wait(timeout=120).out)
    got = json.loads(rd.wait(timeout=120).out)
    t.log("clients: %s; reader: %s" % (res, got))
    t.check(closed["closed"] < 1, "close() of the listener returned at once")
    for i, c in enumerate(res["conns"]):
        t.check(c["end"] in ("ECONNRESET", "EOF", "EPIPE") and c["secs"] <= 5,
                "client %d's recv() ended by %s %.2f s after the close"
                % (i, c["end"], c["secs"]))
    t.check(got["bad"] == 0 and got["end"] == "EOF",
            "the new listener's reader saw only its own bytes (%d others, first at %d)"
            % (got["bad"], got["first_bad"]))
    t.eq(got["bytes"], nb, "bytes the new listener's reader got")


CLC_CLIENT = scenarios.pytool("clc_client")
ISO_NBYTES = 1 << 20
EPROTO = 71


def iso_steal(t, a, port, gid, gid_ext, tokens):
    """clc_client's strangers at @port, one per token of @tokens: {"accept":
    [the Accepts' fields], "steal": {token: (outcome, data)}, "lured": n}."""
    r = a.run("%s 127.0.0.1 %d steal %s %s %s"
              % (CLC_CLIENT, port, gid, gid_ext, " ".join(tokens)), timeout=180)
    t.log(r.out.strip())
    got = {"accept": [], "steal": {}, "lured": 0}
    for ln in r.out.splitlines():
        w = ln.split()
        if w[:2] == ["steal", "accept"]:
            got["accept"].append(dict(zip(w[2::2], w[3::2])))
        elif w[:1] == ["steal"]:
            got["steal"][w[1]] = (w[2], w[3])
        elif w[:2] == ["lure", "accepted"]:
            got["lured"] = max(got["lured"], int(w[2]))
    return got


def iso_pass(t, a):
    """A stranger that speaks CLC by hand over 127.0.0.1 (a plain TCP socket
    whose SYN tc gives the SMC option on lo) names a DMB token in its
    Confirm: a random one, then each of a live victim connection's two.
    The server resets every one of them at the Confirm (the DMB attaches
    only to the far end of its owner's CLC socket, kernel/lo.c)."""
    lure, vport = PORT + 50, PORT + 51
    base = stacks.smcx_objects(a)
    lo = Local(a, "127.0.0.1")
    got, names = {}, {}
    a.modprobe("sch_prio", "cls_u32", "act_pedit", "act_csum")
    a.run("tc qdisc del dev lo root 2>/dev/null; tc qdisc add dev lo root handle 1: prio")
    try:
        # clc_client's strangers bind source ports 0x5000-0x5fff
        scenarios.smc_option_filter(
            a, "match ip sport 0x5000 0xf000 match ip dport %d 0xffff" % lure, dev="lo")
        with t.subtest("isolation/the victim: SMC-D, every byte verified before and after"):
            with smcr_cases.Held(t, lo, lo, vport, 1, ISO_NBYTES, family="smc", timeout=120):
                held = [s for s in stacks.sockets(a, vport) if s.get("state") != "LISTEN"]
                t.eq(sorted(s.get("mode") for s in held), ["SMCD", "SMCD"],
                     "the victim connection is SMC-D")
                vc = [s["dmb"] for s in held if s["peer"]["port"] == vport]
                vs = [s["dmb"] for s in held if s["local"]["port"] == vport]
                t.check(len(vc) == 1 and len(vs) == 1 and vc[0] and vs[0],
                        "both victim ends with their DMBs: %s" % held)
                vc, vs = vc[0], vs[0]
                t.eq((vc["token"], vc["peer_token"]), (vs["peer_token"], vs["token"]),
                     "the victim ends name each other's DMB")
                rnd = "%016x" % random.getrandbits(64)
                while rnd in (vc["token"], vs["token"], "0" * 16):
                    rnd = "%016x" % random.getrandbits(64)
                names = {rnd: "a random token", vc["token"]: "the victim client's DMB",
                         vs["token"]: "the victim server's DMB"}
                got = iso_steal(t, a, lure, vc["gid"], vc["gid_ext"], list(names))
                got.update(victim=vs, gid=(vc["gid"], vc["gid_ext"]), after=modes(a, vport))
                got["recs"] = [r for r in json.loads(
                    a.out("%s why -j -a" % scenarios.tool("smcctl")))["handshakes"]
                    if r["role"] == "server" and r["local_port"] == lure]
            # Held's exit: the victim's second exchange, every byte compared
            t.eq(sorted(got["after"].values()), ["SMCD", "SMCD"],
                 "the victim was still SMC-D after the strangers")
    finally:
        a.run("tc qdisc del dev lo root", check=False)
    if not got.get("accept"):
        raise AssertionError("no stranger got through: %s" % got)
    with t.subtest("isolation/the strangers reached the SMC-D Accept"):
        acc, vs = got["accept"], got["victim"]
        t.eq(len(acc), len(names), "an Accept for each stranger's Proposal")
        for x in acc:
            t.eq((x.get("eye"), x.get("type"), x.get("ver"), x.get("path"), x.get("first"),
                  x.get("len"), x.get("chid")), ("e2d4c3c4", "2", "2", "1", "0", "78", "ffff"),
                 "SMC-D v2 Accept, no first contact")
            t.eq((x.get("gid"), x.get("gidext"), x.get("eid"), x.get("linkid")),
                 got["gid"] + (stacks.SMCX_DEFAULT_UEID, str(vs["linkid"])),
                 "the loopback GID, the default user EID, the victim server's group")
            t.check(x.get("token") not in (None, "0" * 16) and x["token"] not in names,
                    "the Accept names the server's own new DMB (%s)" % x.get("token"))
        t.eq(len({x.get("token") for x in acc}), len(acc), "a new DMB each")
    for tok, name in names.items():
        with t.subtest("isolation/a Confirm naming %s is reset" % name):
            t.eq(got["steal"].get(tok), ("reset", "data=-"),
                 "the stranger's end after its Confirm (reset, no byte read)")
    with t.subtest("isolation/the server took each Confirm and failed it"):
        t.eq(len(got["recs"]), len(names), "a server record per stranger")
        for r in got["recs"]:
            msgs = [(m["type"], m["out"], m["len"]) for m in r["messages"]]
            t.eq((r["result"], r["errno"], msgs),
                 ("FAILED", EPROTO, [(1, False, 224), (2, True, 78), (3, False, 78)]),
                 "Proposal in, Accept out, Confirm in, then EPROTO (no Decline: a reset)")
    with t.subtest("isolation/the lure accepted nothing"):
        t.eq(got["lured"], 0, "connections the stranger's listener accepted")
    with t.subtest("isolation/nothing left behind"):
        keys = smcxlab.CONN_OBJECTS + ("dmbs",)
        until(lambda: all(stacks.smcx_objects(a).get(k) == base.get(k) for k in keys),
              timeout=30, what="objects back to %s" % {k: base.get(k) for k in keys})


def kill_pass(t, a):
    for victim in ("client", "server"):
        with t.subtest("kill/kill -9 of the %s" % victim):
            port = PORT + 20 + (victim == "server")
            srv = a.bg("exec %s server -f smc -p %d -q" % (XFER, port))
            a.wait_port(port)
            cli = a.bg("exec %s client -f smc -a 127.0.0.1 -p %d -t 30 -q" % (XFER, port))
            until(lambda: len(modes(a, port)) >= 2 or None, timeout=30,
                               what="both ends connected")
            (cli if victim == "client" else srv).kill()
            other = srv if victim == "client" else cli
            r = other.wait(timeout=60, check=False)
            t.check(r.rc is not None, "the %s's end returned (rc %s): %s"
                    % ("server" if victim == "client" else "client", r.rc,
                       (r.out + r.err).strip()[-200:]))
            if r.rc is None:
                other.kill()
            until(lambda: not modes(a, port) or None, timeout=60,
                               what="every socket of port %d gone" % port)


def unload_pass(t, a):
    with t.subtest("unload/rmmod with a live SMC-D connection"):
        port = PORT + 30
        srv = a.bg("exec %s server -f smc -p %d -q" % (XFER, port))
        a.wait_port(port)
        cli = a.bg("exec %s client -f smc -a 127.0.0.1 -p %d -t 4 -q" % (XFER, port))
        until(lambda: len(modes(a, port)) >= 2 or None, timeout=30,
                           what="both ends connected")
        r = a.run("rmmod smcx", check=False)
        t.check(r.rc != 0, "rmmod refused while the connection lives: %s" % r.describe())
        c = cli.wait(timeout=120)
        srv.wait(timeout=60)
        t.check(" ok" in c.out + c.err,
                "the connection still worked: %s" % (c.out + c.err).strip()[-200:])
        objs = until(
            lambda: (lambda o: o if o.get("conns") == 0 and o.get("dmbs") == 0 else None)(
                stacks.smcx_objects(a)), timeout=60, what="connections and DMBs gone")
        t.log("objects after: %s" % objs)


def run(t):
    a, b = t.alpha, t.beta
    for h in (a, b):
        stacks.clear(h)
        h.insmod_smcx(stacks.SMCX_PARAMS)
    sockapi_pass(t, a)
    tcp2smc_pass(t, a)
    ipv6_pass(t, a)
    reach_pass(t, a)
    fallback_pass(t, a, b)
    close_pass(t, a)
    with t.subtest("abort/listener closed with queued SMC-D connections"):
        listener_pass(t, a)
    iso_pass(t, a)
    kill_pass(t, a)
    unload_pass(t, a)
    t.check(re.search(r"BUG|WARNING|Oops", a.run("dmesg").out) is None,
            "no kernel warning on alpha")
