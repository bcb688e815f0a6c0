# SPDX-License-Identifier: GPL-2.0
"""Native IPv6 over SMC-R: IPv6 addresses on the wire.

Both hosts get a ULA /64 on eth0 (fd53:4d43:5800::1 and ::2, nodad) and
the test waits until rxe0's GID table holds each as a RoCE v2 GID; the
addresses go again at the end.  Connections are `hold` connections of
SMCPROTO_SMC6 sockets to the peer's ULA (1 connection, 64 KiB each way,
twice, verified), held open while smcss and smcr look at them:

1. smcx <-> smcx, alpha the client: SMC-R v2 on both ends, no fallback
   (stats); smcss shows SMCR with the two ULAs as addresses and as the
   link's GIDs; one link group per host (of those with connections) whose
   one link has the ULA GIDs; the rxe0 counters cover the payload
   (smcr_cases.check_smcr_run).
2. smcx <-> smcx, beta the client (the other roles), an IPv4 and an IPv6
   connection at once: the same evidence for both, and two link groups
   on each host, one with v4-mapped GIDs and one with the ULAs.
3. unmodified servers under tcp2smc on every address (python3 -m
   http.server --bind ::, redis-server with its built-in "bind * -::*"),
   clients (curl, redis-benchmark, redis-cli) over IPv4 and over IPv6:
   each SMC-R v2 on both hosts with rxe evidence, data verified.
4. smcx client -> stock smc.ko server and stock client -> smcx server: the
   fallback with its reason on each end (IPV6_EXPECT, as measured on 6.12
   smc.ko), smcss showing TCP and the reason, data verified over TCP.
"""
import ipaddress

import scenarios
import smcr_cases
import stacks

TIMEOUT = 600
COST = 52
TIER = "main"
WIRES = 1
PORT = 6700
NBYTES = 64 * 1024
PREFIX = "fd53:4d43:5800::"
ULA = {"alpha": PREFIX + "1", "beta": PREFIX + "2"}
GIDS = "/sys/class/infiniband/rxe0/ports/1"
GID_WAIT = 30
GID_SCAN = 16		# the addresses of eth0 come first in the table

# (client stack, server stack) -> (client outcome, server outcome) of a
# native IPv6 connection (smcr_cases.conn_outcome: SMCR or TCP:REASON)
IPV6_EXPECT = {
    (stacks.SMCX, stacks.SMCX): ("SMCR", "SMCR"),
    # smc.ko finds no IPv4 route to our IPv6 GID (its SMC-R v2 device
    # choice takes v4-mapped GIDs only) and declines the Proposal
    (stacks.SMCX, stacks.INKERNEL): ("TCP:clnt_PEERDECL", "TCP:srv_NOSMCRDEV"),
    # smc.ko proposes SMC-R v2 only from an AF_INET socket: it declines
    # in place of a Proposal
    (stacks.INKERNEL, stacks.SMCX): ("TCP:clnt_NOSMCDEV", "TCP:srv_PEERDECL"),
}
# the peer diagnosis the declined end keeps (smcss "peer_diagnosis")
PEER_DIAG = {
    (stacks.SMCX, stacks.INKERNEL): ("NOSMCRDEV", None),
    (stacks.INKERNEL, stacks.SMCX): (None, "NOSMCDEV"),
}


class At:
    """A host seen at another address (smcr_cases.Held connects to .ip)."""

    def __init__(self, h, ip):
        self._h, self.ip = h, ip

    def __getattr__(self, k):
        return getattr(self._h, k)


def addr(s):
    """An address or GID as smcss/smcr print it, normalized (None if not one)."""
    if not s:
        return None
    s = s.strip()
    if len(s) == 32 and all(c in "0123456789abcdefABCDEF" for c in s):
        s = ":".join(s[i:i + 4] for i in range(0, 32, 4))
    try:
        return ipaddress.ip_address(s)
    except ValueError:
        return None


def v4gid(ip):
    return ipaddress.ip_address("::ffff:" + ip)


def gid_table(h):
    """{address: gid type} of the first GID_SCAN entries of rxe0's port 1,
    filled ones only (read without a process: the table has hundreds of
    entries, and a process per file costs seconds under TCG)."""
    paths = []
    for i in range(GID_SCAN):
        paths += ["%s/gids/%d" % (GIDS, i), "%s/gid_attrs/types/%d" % (GIDS, i)]
    files = h.read_many(paths)
    out = {}
    for g, typ in zip(files[0::2], files[1::2]):
        a = addr(g)
        if a and a != ipaddress.ip_address("::") and typ:
            out[a] = typ.strip()
    return out


def add_ula(t, h):
    h.run("sysctl -qw net.ipv6.conf.eth0.disable_ipv6=0")
    h.run("ip -6 addr replace %s/64 dev eth0 nodad" % ULA[h.name])
    want = ipaddress.ip_address(ULA[h.name])
    got = smcr_cases.scenarios.wait_for(
        lambda: "v2" in gid_table(h).get(want, "").lower() or None, timeout=GID_WAIT, step=0.5)
    t.check(got, "%s: rxe0 has %s as a RoCE v2 GID (table: %s)"
            % (h.name, want, {str(k): v for k, v in gid_table(h).items()}))


def del_ula(h):
    h.run("ip -6 addr del %s/64 dev eth0" % ULA[h.name], check=False)


def smcss_lines(h, port):
    r = h.run("%s -a | grep -E 'State|:%d( |$)'" % (stacks.smcss(), port), check=False)
    return r.out.rstrip()


def reason_name(f, key):
    v = (f or {}).get(key)
    return v and (v.get("name") or v.get("hex"))


def check_held(t, c, s, cs, ss, port, v6=True):
    """The held connection's smcss rows (and link groups) on both ends."""
    expect = IPV6_EXPECT[(cs, ss)] if v6 else ("SMCR", "SMCR")
    for h, peer, role, out, diag in ((c, s, "CLNT", expect[0], 0), (s, c, "SERV", expect[1], 1)):
        socks = smcr_cases.active(stacks.sockets(h, port))
        t.log("%s smcss (port %d):\n%s" % (h.name, port, smcss_lines(h, port)))
        t.eq(len(socks), 1, "%s: one connected AF_SMC socket of port %d" % (h.name, port))
        if not socks:
            continue
        sk = socks[0]
        mine = ipaddress.ip_address(ULA[h.name]) if v6 else v4gid(h.ip)
        theirs = ipaddress.ip_address(ULA[peer.name]) if v6 else v4gid(peer.ip)
        if v6:
            t.eq((sk["family"], addr(sk["local"]["address"]), addr(sk["peer"]["address"])),
                 ("inet6", mine, theirs), "%s: smcss family and addresses" % h.name)
        if out == "SMCR":
            ln = sk.get("link") or {}
            t.eq((sk["mode"], ln.get("role"), ln.get("ib_device")), ("SMCR", role, "rxe0"),
                 "%s: smcss mode, role, device" % h.name)
            t.eq((addr(ln.get("gid")), addr(ln.get("peer_gid"))), (mine, theirs),
                 "%s: smcss link GIDs are the connection's addresses" % h.name)
        else:
            f = sk.get("fallback")
            t.eq(sk["mode"], "TCP", "%s: smcss mode of a fallback" % h.name)
            t.eq("TCP:%s_%s" % ("clnt" if role == "CLNT" else "srv", reason_name(f, "reason")),
                 out, "%s: smcss fallback reason" % h.name)
            want = PEER_DIAG.get((cs, ss), (None, None))[diag]
            if want:
                t.eq(reason_name(f, "peer_diagnosis"), want,
                     "%s: smcss peer diagnosis" % h.name)


def groups_by_family(h):
    """@h's link groups that carry connections, as (IPv6 GIDs, v4-mapped
    GIDs, both) by their links' GIDs (an empty group of an earlier case
    lingers, and is left out)."""
    v6, v4, mixed = [], [], []
    for lg in stacks.linkgroups(h):
        if not lg["conns"]:
            continue
        gids = [addr(ln.get("gid")) for ln in lg.get("links", [])]
        fam = set(g.ipv4_mapped is None for g in gids if g and g.version == 6)
        (mixed if len(fam) > 1 else v6 if fam == {True} else v4).append(lg)
    return v6, v4, mixed


def run_case(t, c, cs, s, ss, port):
    """One native IPv6 connection c -> s: outcome, smcss, counters."""
    what = "%s -> %s over IPv6" % (c.name, s.name)
    expect = IPV6_EXPECT[(cs, ss)]
    bc, bs = stacks.snapshot(c), stacks.snapshot(s)
    with smcr_cases.Held(t, c, At(s, ULA[s.name]), port, 1, NBYTES, family="smc6",
                         timeout=120):
        check_held(t, c, s, cs, ss, port)
        if expect == ("SMCR", "SMCR"):
            for h in (c, s):
                v6, _, mixed = groups_by_family(h)
                t.eq((len(v6), len(mixed)), (1, 0),
                     "%s: one link group with IPv6 GIDs, none mixed" % h.name)
                for lg in v6:
                    t.eq([ln["state"] for ln in lg["links"]], ["LINK_ACTIVE"],
                         "%s: the IPv6 group has one active link" % h.name)
    dc = stacks.delta(bc, stacks.snapshot(c))
    ds = stacks.delta(bs, stacks.snapshot(s))
    got = (smcr_cases.conn_outcome(dc, "clnt"), smcr_cases.conn_outcome(ds, "srv"))
    t.log("%s: client %s, server %s" % (what, got[0], got[1]))
    t.eq(got, expect, "%s: outcome (client, server)" % what)
    if expect[0] == "SMCR":
        smcr_cases.check_smcr_run(t, what + " (client)", dc, 1, "clnt", 2 * NBYTES, 2 * NBYTES)
        smcr_cases.check_smcr_run(t, what + " (server)", ds, 1, "srv", 2 * NBYTES, 2 * NBYTES)
    return got


def mixed_case(t, c, s, port):
    """smcx <-> smcx: an IPv4 and an IPv6 connection c -> s held at once."""
    bc, bs = stacks.snapshot(c), stacks.snapshot(s)
    with smcr_cases.Held(t, c, s, port, 1, NBYTES, family="smc", timeout=120):
        with smcr_cases.Held(t, c, At(s, ULA[s.name]), port + 1, 1, NBYTES, family="smc6",
                             timeout=120):
            check_held(t, c, s, stacks.SMCX, stacks.SMCX, port, v6=False)
            check_held(t, c, s, stacks.SMCX, stacks.SMCX, port + 1)
            for h in (c, s):
                v6, v4, mixed = groups_by_family(h)
                t.eq((len(v6), len(v4), len(mixed)), (1, 1, 0),
                     "%s: link groups with IPv6 GIDs, with IPv4 GIDs, mixed" % h.name)
                t.check(all(lg["conns"] == 1 for lg in v6 + v4),
                        "%s: each group carries its one connection: %s"
                        % (h.name, [lg["conns"] for lg in v6 + v4]))
    what = "%s -> %s, IPv4 and IPv6" % (c.name, s.name)
    dc = stacks.delta(bc, stacks.snapshot(c))
    ds = stacks.delta(bs, stacks.snapshot(s))
    smcr_cases.check_smcr_run(t, what + " (client)", dc, 2, "clnt", 2 * NBYTES, 2 * NBYTES)
    smcr_cases.check_smcr_run(t, what + " (server)", ds, 2, "srv", 2 * NBYTES, 2 * NBYTES)


def ipv6_groups(h):
    """@h's link groups with IPv6 GIDs, idle ones too."""
    return [lg for lg in stacks.linkgroups(h)
            if any((lambda g: g and g.version == 6 and g.ipv4_mapped is None)(
                addr(ln.get("gid"))) for ln in lg.get("links", []))]


def apps_case(t, c, s, port):
    """Unmodified servers under tcp2smc, on every address as their users
    run them, with clients over IPv4 and over IPv6: python3 -m
    http.server --bind :: (dual-stack; curl fetches 1 MiB, checksummed)
    and redis-server with no bind option (its "bind * -::*": 0.0.0.0 and
    [::] with IPV6_V6ONLY; redis-benchmark and a 192 KiB value stored and
    read back).  Each run: SMC-R v2 on both hosts, no fallback, rxe0
    packets both ways; after the IPv6 runs a link group with IPv6 GIDs on
    both hosts."""
    apps = (("http", scenarios.app_http, dict(nbytes=1 << 20), "[%s]"),
            ("redis", scenarios.app_redis, dict(requests=300), "%s"))
    for h in (c, s):
        h.run("sysctl -qw net.smc.tcp2smc=1")
    try:
        for n, (name, fn, kw, v6form) in enumerate(apps):
            for fam, where in (("IPv4", s), ("IPv6", At(s, v6form % ULA[s.name]))):
                what = "tcp2smc %s, %s client" % (name, fam)
                sc, ss = scenarios.smcx_stats(c), scenarios.smcx_stats(s)
                rxe = scenarios.rxe_snapshot((c, s))
                r = fn(where, c, port=port + n, bind=scenarios.BIND_DEFAULT, **kw)
                t.check(r["ok"], "%s: works, data verified: %r" % (what, r))
                t.log("%s: listening on %s" % (what, " ".join(r["listen"])))
                nc, ns = scenarios.smcx_stats(c), scenarios.smcx_stats(s)
                t.check(nc["clnt_success_v2"] > sc["clnt_success_v2"] and
                        ns["srv_success_v2"] > ss["srv_success_v2"],
                        "%s: SMC-Rv2 on both hosts (client +%d, server +%d)"
                        % (what, nc["clnt_success_v2"] - sc["clnt_success_v2"],
                           ns["srv_success_v2"] - ss["srv_success_v2"]))
                t.eq((nc["clnt_fallback"] - sc["clnt_fallback"],
                      ns["srv_fallback"] - ss["srv_fallback"]), (0, 0),
                     "%s: fallbacks (client, server)" % what)
                d = scenarios.rxe_delta((c, s), rxe)
                t.check(all(v > 0 for v in d.values()), "%s: rxe0 packets both ways %r"
                        % (what, d))
                if fam == "IPv6":
                    for h in (c, s):
                        t.check(ipv6_groups(h), "%s: %s has a link group with IPv6 GIDs"
                                % (what, h.name))
    finally:
        for h in (c, s):
            h.run("sysctl -qw net.smc.tcp2smc=0", check=False)
    # the servers were killed with up to 100 connections open: a close
    # that waits for its peer takes up to smcx's 30 s close wait, longer
    # than the settle check after every case allows (smcr_cases)
    for h in (c, s):
        smcr_cases.wait_conn_objects(h, timeout=60)


def run(t):
    smcr_cases.need_tools(t, smcr_cases.HOLD)
    a, b = t.alpha, t.beta
    SX, IK = stacks.SMCX, stacks.INKERNEL
    # (subtest, client stack, server stack, body(port)); a cell loads its
    # pair when its stacks differ from the last one's
    cases = [
        ("IPv6: smcx client -> smcx server", SX, SX,
         lambda p: run_case(t, a, SX, b, SX, p)),
        # roles swapped: beta is the client of both
        ("IPv4 and IPv6 at once, beta -> alpha: two link groups", SX, SX,
         lambda p: mixed_case(t, b, a, p)),
        ("tcp2smc: http.server --bind :: and redis, clients over IPv4 and IPv6", SX, SX,
         lambda p: apps_case(t, a, b, p)),
        ("IPv6: " + stacks.describe(SX, IK), SX, IK, lambda p: run_case(t, a, SX, b, IK, p)),
        ("IPv6: " + stacks.describe(IK, SX), IK, SX, lambda p: run_case(t, a, IK, b, SX, p)),
    ]
    loaded = None
    try:
        for h in (a, b):
            add_ula(t, h)
        for i, (name, cs, ss, body) in enumerate(cases):
            with t.subtest(name):
                if loaded != (cs, ss):
                    loaded = None
                    smcr_cases.clear_hosts(t)
                    stacks.setup_pair(a, cs, b, ss)
                    loaded = (cs, ss)
                got = body(PORT + 10 * i)
                if got:
                    t.log("outcome: %s: client %s, server %s" % (name, got[0], got[1]))
                for h in (a, b):
                    smcr_cases.settle_objects(t, h)
    finally:
        for h in (a, b):
            del_ula(h)
