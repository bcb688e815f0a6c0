# SPDX-License-Identifier: GPL-2.0
"""Scope rules (smcctl policy): which sockets of tcp2smc try SMC at all.

With net.smc.tcp2smc=1 on alpha (client) and beta (server), each case
makes connections from alpha to beta and tells by both hosts' handshake
counters how each went: SMC-R, TCP for POLICY on alpha (beta, offered no
SMC, sees PEERNOSMC), or, for a server rule, PEERNOSMC on alpha; the data
of every connection crosses intact.
- port: `client port P action tcp` sends P out as TCP (smcss on alpha
  says TCP 0x03ff0001 while it is open), another port goes SMC-R;
- comm: `comm curl action tcp`: curl against python3 -m http.server stays
  TCP, redis-cli against redis-server goes SMC-R;
- uid: `uid 1000 action tcp`: uid 1000 (setpriv) TCP, root SMC-R;
- cgroup: `cgroup /smcxtest action tcp`: a client in /smcxtest/sub TCP,
  one outside SMC-R;
- CIDR: a rule for another prefix leaves it SMC-R, one for beta/32 TCP;
- server: `server port P action tcp` on beta makes a listener on P plain
  TCP, a listener on another port stays SMC-R;
- hits count the sockets each rule decided, first match wins, `policy
  flush` brings SMC back;
- a client's flight record names the rule that decided;
- rules are per network namespace, and go with it;
- an unprivileged user gets EPERM for add, del and flush and can list;
  bad requests (raw netlink) fail with EINVAL/ENOENT and a message that
  names the problem, and add nothing.
"""
import json
import os
import shlex
import struct

import scenarios
import smcxlab

TIMEOUT = 600
COST = 47

TOOLS = os.path.join(smcxlab.REPO, "selftests", "tools")
PEER = "python3 " + os.path.join(TOOLS, "policy_peer.py")
GENLREQ = "python3 " + os.path.join(TOOLS, "genlreq.py")
SMCCTL = scenarios.tool("smcctl")
USER = "setpriv --reuid=1000 --regid=1000 --clear-groups "
N = 200000
ECHO = (7401, 7402, 7403, 7404)
HTTP, REDIS = 8081, 6401
HOLD = "/tmp/smcx_policy.hold"

# what the handshake counters say a connection became
SMCR, POLICY, SRVPOLICY = "smcr", "policy", "peernosmc"


def policy(h, args, check=True):
    return h.run("%s policy %s" % (SMCCTL, args), check=check)


def rules(h):
    return json.loads(h.out("%s policy list --json" % SMCCTL))["policy"]


def outcome(a, b, fn):
    """Runs fn(); returns its result and what the connections it made
    became: {SMCR: n, POLICY: n, SRVPOLICY: n, "other": n}."""
    sa, sb = scenarios.smcx_stats(a), scenarios.smcx_stats(b)
    res = fn()
    na, nb = scenarios.smcx_stats(a), scenarios.smcx_stats(b)

    def d(s, n, *keys):
        return sum(n.get(k, 0) - s.get(k, 0) for k in keys)

    got = {SMCR: d(sa, na, "clnt_success_v1", "clnt_success_v2"),
           POLICY: d(sa, na, "clnt_fallback_POLICY"),
           SRVPOLICY: d(sa, na, "clnt_fallback_PEERNOSMC")}
    got["other"] = d(sa, na, "clnt_fallback") - got[POLICY] - got[SRVPOLICY]
    # the server's view of the same connections
    got["beta"] = (d(sb, nb, "srv_success_v1", "srv_success_v2"),
                   d(sb, nb, "srv_fallback_PEERNOSMC"))
    return res, got


def want(kind, n=1):
    w = {SMCR: 0, POLICY: 0, SRVPOLICY: 0, "other": 0}
    w[kind] = n
    # beta: SMC-R, or offered no SMC (PEERNOSMC); a plain TCP listener counts nothing
    w["beta"] = {SMCR: (n, 0), POLICY: (0, n), SRVPOLICY: (0, 0)}[kind]
    return w


def echo(t, a, b, port, kind, what, prefix=""):
    """One policy_peer connection from alpha to beta's @port, expected to
    become @kind, with its bytes echoed intact."""
    r, got = outcome(a, b, lambda: a.run("%s%s connect %s %d %d" % (prefix, PEER, b.ip, port, N),
                                         check=False, timeout=120))
    t.check(r.ok and r.out.strip() == "ok %d" % N, "%s: data intact: %s" % (what, r.describe()))
    t.eq(got, want(kind), "%s: the connection went %s" % (what, kind))


def hits(h):
    return {r["id"]: r["hits"] for r in rules(h)}


def nla(atype, payload):
    return struct.pack("=HH", 4 + len(payload), atype) + payload + \
        b"\0" * ((4 - len(payload) % 4) % 4)


def parse_nla(buf):
    """{type: payload} of a run of attributes (a repeated one: the last)."""
    out = {}
    while len(buf) >= 4:
        alen, atype = struct.unpack_from("=HH", buf)
        if alen < 4:
            break
        out[atype & 0x3fff] = buf[4:alen]
        buf = buf[(alen + 3) & ~3:]
    return out


def hs_policy_ids(h, port):
    """The scope rule each flight record of a client connection to @port
    names (SMCX_HS_A_POLICY_ID), oldest first, with its reason."""
    r = json.loads(h.out("%s SMCX 1 --dump" % GENLREQ))
    got = []
    for m in r["msgs"]:
        for atype, val in m["attrs"]:
            rec = parse_nla(bytes.fromhex(val)) if atype == 1 else {}
            if rec.get(5) == b"\0" and struct.unpack("=H", rec[14])[0] == port:
                got.append((struct.unpack("=I", rec[35])[0], struct.unpack("=I", rec[7])[0]))
    return got


def bad_requests(t, a):
    """Raw ADD/DEL requests smcctl would refuse to send: each fails with a
    message that names the problem, and no rule is added."""
    v4 = b"\0" * 10 + b"\xff\xff" + bytes([198, 18, 0, 2])
    act = nla(3, b"\2")                        # SMCX_POLICY_A_ACTION: TCP
    cases = (
        ("prefix 200", act + nla(9, b"\2") + nla(10, v4) + nla(11, bytes([200])),
         22, "the prefix is 0..128 bits"),
        ("IPv4 prefix below 96", act + nla(9, b"\2") + nla(10, v4) + nla(11, bytes([64])),
         22, "an IPv4 address is v4-mapped"),
        ("port_min > port_max", act + nla(12, struct.pack("=H", 30)) +
         nla(13, struct.pack("=H", 20)), 22, "the lowest port is above the highest"),
        ("unknown action", nla(3, b"\7"), 22, "the action is SMCX_POLICY_SMC"),
        ("no action", nla(12, struct.pack("=H", 1)), 22, "the action is SMCX_POLICY_SMC"),
        ("unknown role", act + nla(4, b"\5"), 22, "the role is ANY"),
        ("comm of 16", act + nla(6, b"sixteen-chars-xy\0"), 22, "a command name has 1..15"),
        ("empty comm", act + nla(6, b"\0"), 22, "a command name has 1..15"),
        ("server rule with an address", act + nla(4, b"\2") + nla(9, b"\2") + nla(10, v4),
         22, "a server rule has no destination address"),
        ("missing cgroup", act + nla(5, b"/smcx-no-such-cgroup\0"), 2,
         "no such cgroup v2 directory"),
        ("uid_min > uid_max", act + nla(7, struct.pack("=I", 9)) + nla(8, struct.pack("=I", 1)),
         22, "the lowest uid is above the highest"),
    )
    lines = ["SMCX 4 %d=hex:%s" % (0x8000 | 2, body.hex()) for _, body, _, _ in cases]
    lines += ["SMCX 4", "SMCX 5 %d=hex:%s" % (0x8000 | 2, nla(2, struct.pack("=I", 999)).hex())]
    out = a.run("%s --batch" % GENLREQ, input="\n".join(lines) + "\n").out.splitlines()
    ans = [json.loads(ln) for ln in out]
    t.eq(len(ans), len(lines), "one answer per request")
    for (what, _, errno, msg), r in zip(cases, ans):
        t.check(r["errno"] == errno and msg in (r["extack"] or ""),
                "%s: errno %d, extack %r: %r" % (what, errno, msg, r))
    t.check(ans[-2]["errno"] == 22 and "SMCX_A_POLICY is required" in (ans[-2]["extack"] or ""),
            "ADD without a rule: %r" % ans[-2])
    t.check(ans[-1]["errno"] == 2 and "no rule with this id" in (ans[-1]["extack"] or ""),
            "DEL of an unknown id: %r" % ans[-1])
    t.eq(rules(a), [], "no rule was added")


def run(t):
    a, b = t.alpha, t.beta
    for h in (a, b):
        h.insmod_smcx()
        h.run("sysctl -qw net.smc.tcp2smc=1")
    cg = a.out("awk '$3 == \"cgroup2\" {print $2; exit}' /proc/mounts").strip()
    mounted = not cg
    if mounted:
        cg = "/tmp/smcx_cg2"
        a.run("mkdir -p %s && mount -t cgroup2 none %s" % (cg, cg))
    srv = b.bg("exec %s serve %s" % (PEER, " ".join(str(p) for p in ECHO)))
    apps = []
    try:
        for p in ECHO:
            b.wait_port(p, job=srv)
        run_cases(t, a, b, cg, apps)
    finally:
        for job in [srv] + apps:
            try:
                job.kill()
            except Exception:
                pass
        a.run("rm -f %s; rmdir %s/smcxtest/sub %s/smcxtest" % (HOLD, cg, cg), check=False)
        if mounted:
            a.run("umount %s" % cg, check=False)
        for h in (a, b):
            h.run("%s policy flush; sysctl -qw net.smc.tcp2smc=0" % SMCCTL, check=False)


def clean(a, b):
    """No rule left by an earlier subtest that failed halfway."""
    for h in (a, b):
        policy(h, "flush")
    a.run("rm -f %s" % HOLD)


def run_cases(t, a, b, cg, apps):
    with t.subtest("port: a client rule sends that port out as TCP"):
        clean(a, b)
        t.eq(rules(a), [], "no rule at first")
        policy(a, "add client port %d action tcp" % ECHO[0])
        echo(t, a, b, ECHO[1], SMCR, "port %d" % ECHO[1])
        # held open: smcss shows the reason
        job = a.bg("POLICY_HOLD=%s exec %s connect %s %d %d" % (HOLD, PEER, b.ip, ECHO[0], N))
        scenarios.wait_for(lambda: a.run("test -e %s" % HOLD, check=False).ok, timeout=30)
        ss = a.out(scenarios.tool("smcss"))
        a.run("rm -f %s" % HOLD)
        r = job.wait(timeout=60, check=False)
        t.check(r.out.strip() == "ok %d" % N, "held connection: data intact: " + r.describe())
        line = [ln for ln in ss.splitlines() if ":%d " % ECHO[0] in ln + " "]
        t.check(line and "TCP 0x03ff0001" in line[0],
                "smcss: port %d is TCP, reason POLICY (0x03ff0001):\n%s" % (ECHO[0], ss))
        echo(t, a, b, ECHO[0], POLICY, "port %d" % ECHO[0])
        t.eq(list(hits(a).values()), [2], "the rule's hits: both connections to its port")
        policy(a, "flush")

    with t.subtest("comm: curl stays TCP, redis-cli goes SMC-R"):
        clean(a, b)
        b.run("mkdir -p /tmp/pol_www && head -c %d /dev/urandom > /tmp/pol_www/blob" % N)
        wsum = scenarios.sha256(b, "/tmp/pol_www/blob")
        apps.append(b.bg("cd /tmp/pol_www && exec python3 -m http.server %d --bind %s"
                         % (HTTP, b.ip)))
        apps.append(b.bg("exec redis-server --port %d --bind %s --save '' --appendonly no "
                         "--protected-mode no" % (REDIS, b.ip)))
        b.wait_port(HTTP, job=apps[0])
        b.wait_port(REDIS, job=apps[1])
        policy(a, "add client comm curl action tcp")
        r, got = outcome(a, b, lambda: a.run(
            "curl -sS --max-time 60 -o /tmp/pol.dl http://%s:%d/blob && sha256sum /tmp/pol.dl"
            % (b.ip, HTTP), check=False, timeout=120))
        t.check(r.ok and r.out.split()[:1] == [wsum], "curl: the file arrives intact: "
                + r.describe())
        t.eq(got, want(POLICY), "curl: the connection went TCP")
        a.run("head -c 65536 /dev/urandom | base64 -w0 > /tmp/pol.val")
        vsum = scenarios.sha256(a, "/tmp/pol.val")
        r, got = outcome(a, b, lambda: a.run(
            "redis-cli -h %s -p %d -x set blob < /tmp/pol.val && redis-cli -h %s -p %d --raw "
            "get blob | head -c $(stat -c %%s /tmp/pol.val) | sha256sum"
            % (b.ip, REDIS, b.ip, REDIS), check=False, timeout=120))
        t.check(r.ok and vsum in r.out, "redis-cli: the value comes back intact: "
                + r.describe())
        t.eq(got, want(SMCR, 2), "redis-cli: both connections went SMC-R")
        t.eq(list(hits(a).values()), [1], "the curl rule decided curl's one connection")
        policy(a, "flush")

    with t.subtest("uid: uid 1000's connections stay TCP, root's go SMC-R"):
        clean(a, b)
        policy(a, "add uid 1000 action tcp")
        echo(t, a, b, ECHO[1], POLICY, "uid 1000", prefix=USER)
        echo(t, a, b, ECHO[1], SMCR, "root")
        policy(a, "flush")

    with t.subtest("cgroup: a client in /smcxtest (or below) stays TCP"):
        clean(a, b)
        a.run("mkdir -p %s/smcxtest/sub" % cg)
        policy(a, "add client cgroup /smcxtest action tcp")
        inside = "sh -c 'echo $$ > %s/smcxtest/sub/cgroup.procs && exec \"$0\" \"$@\"' " % cg
        echo(t, a, b, ECHO[1], POLICY, "in /smcxtest/sub", prefix=inside)
        echo(t, a, b, ECHO[1], SMCR, "outside /smcxtest")
        r = policy(a, "add cgroup /smcx-no-such-cgroup action tcp", check=False)
        t.check(r.rc == 1 and "no cgroup v2 directory" in r.err,
                "a cgroup that does not exist is refused: " + r.describe())
        t.eq(len(rules(a)), 1, "and not added")
        policy(a, "flush")

    with t.subtest("CIDR: first match wins, by destination prefix"):
        clean(a, b)
        policy(a, "add dst 10.99.0.0/16 action tcp")
        echo(t, a, b, ECHO[1], SMCR, "a rule for another prefix")
        policy(a, "add dst %s/32 port %d action smc" % (b.ip, ECHO[2]))
        policy(a, "add client dst %s action tcp" % b.ip)
        echo(t, a, b, ECHO[1], POLICY, "beta/32")
        echo(t, a, b, ECHO[2], SMCR, "an earlier rule that says smc")
        t.eq(list(hits(a).values()), [0, 1, 1], "hits: 10.99/16, beta port, beta")
        ids = [r["id"] for r in rules(a)]
        t.eq(hs_policy_ids(a, ECHO[1])[-1:], [(ids[2], 0x03ff0001)],
             "the flight record of the TCP one names its rule, reason POLICY")
        t.eq(hs_policy_ids(a, ECHO[2])[-1:], [(ids[1], 0)],
             "the record of the SMC-R one names the rule that said smc")
        policy(a, "del %d" % rules(a)[1]["id"])
        echo(t, a, b, ECHO[2], POLICY, "after del of the smc rule")
        policy(a, "flush")
        echo(t, a, b, ECHO[2], SMCR, "after flush")

    with t.subtest("server: a server rule makes the listener plain TCP"):
        clean(a, b)
        policy(b, "add server port %d action tcp" % (ECHO[3] + 100))
        job = b.bg("exec %s serve %d %d" % (PEER, ECHO[3] + 100, ECHO[3] + 101))
        apps.append(job)
        b.wait_port(ECHO[3] + 100, job=job)
        b.wait_port(ECHO[3] + 101, job=job)
        echo(t, a, b, ECHO[3] + 100, SRVPOLICY, "the listener the rule matched")
        echo(t, a, b, ECHO[3] + 101, SMCR, "another listener")
        st = scenarios.smcx_stats(b)
        t.eq(st.get("srv_fallback_POLICY", 0), 1, "beta counts one POLICY listener")
        t.eq(list(hits(b).values()), [1], "the server rule decided one listen()")
        policy(b, "flush")

    with t.subtest("unprivileged users read the rules and cannot change them"):
        clean(a, b)
        policy(a, "add port 1 action tcp")
        for args in ("add port 2 action tcp", "del %d" % rules(a)[0]["id"], "flush"):
            r = a.run(USER + "%s policy %s" % (SMCCTL, args), check=False)
            t.check(r.rc == 1 and "permission denied" in r.err,
                    "uid 1000: policy %s: EPERM: %s" % (args, r.describe()))
        r = a.run(USER + "%s policy list" % SMCCTL, check=False)
        t.check(r.ok and "port 1 action tcp" in r.out, "uid 1000 lists: " + r.describe())
        t.eq(len(rules(a)), 1, "the rule is still there")
        policy(a, "flush")

    with t.subtest("rules are per network namespace"):
        clean(a, b)
        a.run("ip netns del smcx_pol_ns 2>/dev/null; ip netns add smcx_pol_ns")
        try:
            policy(a, "add port 3 action tcp")
            ns = "ip netns exec smcx_pol_ns "
            t.eq(a.out(ns + "%s policy list" % SMCCTL), "", "another namespace has none")
            a.run(ns + "%s policy add cgroup / comm x action smc" % SMCCTL)
            a.run(ns + "%s policy add dst fd00::/8 action tcp" % SMCCTL)
            t.check("comm x" in a.out(ns + "%s policy list" % SMCCTL), "its own rule")
            t.eq([r["port_min"] for r in rules(a)], [3], "the first namespace keeps its one")
        finally:
            # its rules (one holding a cgroup) go with it
            a.run("ip netns del smcx_pol_ns")
        policy(a, "flush")

    with t.subtest("bad requests fail with a message and add nothing"):
        clean(a, b)
        bad_requests(t, a)
        r = a.run("%s policy add comm %s action tcp" % (SMCCTL, shlex.quote("x" * 16)),
                  check=False)
        t.check(r.rc == 2 and "1 to 15 characters" in r.err, "smcctl: comm of 16: "
                + r.describe())
