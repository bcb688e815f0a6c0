# SPDX-License-Identifier: GPL-2.0
"""sock_diag for AF_SMC and the SMC-R statistics, answered by smcx.

smcx on both hosts.  With smcr=0 (decline, TCP): a listener and a held
connection that fell back to TCP, seen by smcss (text and --json): state,
mode TCP with the local reason and the peer's diagnosis.  Then with smcr=1
on both hosts: a held SMC-R connection shows mode SMCR, -R the link on rxe0
with the peer's GID and the roles, -d the buffer sizes and the cursors
after the payload; smcr -j stats counts the SMC-Rv2 successes and the
payload bytes and calls both ways.  JSON and text must agree.

Close states (smcr=1): an SMC-R connection half closed step by step shows
mainline's close states in smcss on both hosts: the client's shutdown(WR)
makes it PEERCLW1 and the server APPLCLW1; the server's makes them PEERCLW2
and APPLCLW2; once the server closed, the client is APPLFINCLW.

IPv6 and dump size, on alpha alone over ::1 (no RDMA device on lo: the
connections fall back, the sockets stay AF_SMC): SMCPROTO_SMC6 sockets
appear in smcss with their IPv6 addresses; with MANY connections held (twice
that many sockets; the hold server closes its listener once all are in) a raw sock_diag dump spans several
netlink reads, ends with NLMSG_DONE and carries every socket exactly once,
and smcss --json lists the same sockets.
"""
import json

import scenarios
import smcr_cases
import stacks

TIMEOUT = 900
COST = 23
PORT = 6450
NBYTES = 200000		# phase-1 bytes each way: three wraps of a 64 KiB RMB


def smcss(t, h, args):
    return h.out("%s %s" % (stacks.smcss(), args))


def smcss_json(t, h, args, port):
    socks = json.loads(smcss(t, h, args + " --json"))["sockets"]
    return [s for s in socks if port in ((s.get("local") or {}).get("port"),
                                         (s.get("peer") or {}).get("port"))]


def text_rows(out, port):
    """Rows of smcss text output that mention @port, split into fields."""
    return [ln.split() for ln in out.splitlines()[1:] if (":%d" % port) in ln]


def load_all(t, params=""):
    for h in t.hosts:
        stacks.clear(h)
        h.insmod_smcx(params)


def fallback_case(t):
    a, b, port = t.alpha, t.beta, PORT
    srv = b.bg("%s server -f smc -p %d -c 1" % (smcr_cases.HOLD, port))
    try:
        b.wait_port(port)
        ls = smcss_json(t, b, "-l", port)
        t.eq([(s["state"], s["mode"], s["local"]["port"]) for s in ls],
             [("LISTEN", "SMCR", port)], "beta: the listener (smcss -l --json)")
        t.check(ls[0]["inode"] > 0, "beta: listener has the application socket's inode")
        rows = text_rows(smcss(t, b, "-l"), port)
        t.check(len(rows) == 1 and rows[0][0] == "LISTEN" and
                str(ls[0]["inode"]) in rows[0], "beta: listener in smcss -l text: %s" % rows)
        t.eq(smcss_json(t, b, "", port), [], "beta: smcss without -a hides listeners")
    finally:
        smcr_cases.finish(srv, kill=True)

    with smcr_cases.Held(t, a, b, port + 1, 1, 4096):
        for h, reason in ((a, "PEERDECL"), (b, "NOSMCRDEV")):
            socks = [s for s in smcss_json(t, h, "-a", port + 1) if s["state"] != "LISTEN"]
            t.eq([(s["state"], s["mode"]) for s in socks], [("ACTIVE", "TCP")],
                 "%s: the held connection (smcss -a --json)" % h.name)
            s = socks[0]
            fb = s["fallback"]
            t.eq((fb["reason"] or {}).get("name"), reason, "%s: fallback reason" % h.name)
            if h is a:
                t.eq((fb["peer_diagnosis"] or {}).get("name"), "NOSMCRDEV",
                     "alpha: the peer's diagnosis")
            t.check(s["conninfo"] is None and s["link"] is None,
                    "%s: a fallback socket has no conninfo and no link" % h.name)
            t.check(s["uid"] == 0 and s["inode"] > 0, "%s: uid and inode" % h.name)
            want_local = h.ip
            t.eq(s["local"]["address"], want_local, "%s: local address" % h.name)
            rows = text_rows(smcss(t, h, "-a"), port + 1)
            t.check(len(rows) == 1 and rows[0][0] == "ACTIVE" and "TCP" in rows[0] and
                    any(reason in f for f in rows[0]) and str(s["inode"]) in rows[0],
                    "%s: smcss text agrees with JSON: %s" % (h.name, rows))


def smcr_case(t):
    a, b, port = t.alpha, t.beta, PORT + 2
    before = {h.name: stacks.stats(h) for h in t.hosts}
    with smcr_cases.Held(t, a, b, port, 1, NBYTES):
        for h, peer, role in ((a, b, "CLNT"), (b, a, "SERV")):
            socks = [s for s in smcss_json(t, h, "-a -R -d", port) if s["state"] != "LISTEN"]
            t.eq([(s["state"], s["mode"]) for s in socks], [("ACTIVE", "SMCR")],
                 "%s: the held connection (smcss -a -R -d --json)" % h.name)
            s = socks[0]
            ln = s["link"] or {}
            t.eq((ln.get("role"), ln.get("ib_device"), ln.get("ib_port")), (role, "rxe0", 1),
                 "%s: role, RDMA device and port (-R)" % h.name)
            t.eq((ln.get("gid"), ln.get("peer_gid")),
                 (stacks.gid_of(h), stacks.gid_of(peer)),
                 "%s: GID and peer GID (-R)" % h.name)
            ci = s["conninfo"] or {}
            t.eq((ci.get("sndbuf_size"), ci.get("rmbe_size"), ci.get("peer_rmbe_size")),
                 (65536, 65536, 65536), "%s: buffer sizes (-d)" % h.name)
            t.check(ci.get("token", 0) != 0, "%s: a connection token" % h.name)
            rx = ci["rx_cons"]["wrap"] * 65536 + ci["rx_cons"]["count"]
            tx = ci["tx_fin"]["wrap"] * 65536 + ci["tx_fin"]["count"]
            t.check(rx >= NBYTES and tx >= NBYTES,
                    "%s: cursors past the payload (rx_cons %d, tx_fin %d >= %d)"
                    % (h.name, rx, tx, NBYTES))
            t.eq(ci["rx_prod"], ci["rx_cons"], "%s: everything received was consumed" % h.name)
            t.eq((ci["tx_prep"], ci["tx_sent"]), (ci["tx_fin"], ci["tx_fin"]),
                 "%s: everything written was sent and completed" % h.name)
            rows = text_rows(smcss(t, h, "-R"), port)
            t.check(len(rows) == 1 and "SMCR" in rows[0] and "rxe0" in rows[0] and
                    stacks.gid_of(peer) in rows[0] and role in rows[0],
                    "%s: smcss -R text agrees: %s" % (h.name, rows))
            rows = text_rows(smcss(t, h, "-d"), port)
            t.check(len(rows) == 1 and "%08x" % ci["token"] in rows[0] and
                    "%d:%d" % (ci["tx_fin"]["wrap"], ci["tx_fin"]["count"]) in rows[0],
                    "%s: smcss -d text agrees: %s" % (h.name, rows))
        after = {h.name: stacks.stats(h) for h in t.hosts}
    for h, role in ((a, "clnt"), (b, "srv")):
        bf, af = before[h.name], after[h.name]
        t.eq((af[role + "_v2"] - bf[role + "_v2"], af[role + "_fallback"] - bf[role + "_fallback"]),
             (1, 0), "%s: smcr -j stats: %s SMC-Rv2 successes +1, no fallback" % (h.name, role))
        for k in ("tx_bytes", "rx_bytes"):
            t.check(af[k] is not None and af[k] - bf[k] >= NBYTES,
                    "%s: smcr -j stats %s grew by the payload (%s -> %s)"
                    % (h.name, k, bf[k], af[k]))
    js = json.loads(a.out("%s -j stats" % stacks.smcr()))
    t.check(js["smcr"]["tx"]["cnt"] > 0 and js["smcr"]["rx"]["cnt"] > 0,
            "alpha: SMC-R send and receive calls counted (%d, %d)"
            % (js["smcr"]["tx"]["cnt"], js["smcr"]["rx"]["cnt"]))


def conn_states(t, h, port):
    """(state, mode) of @h's connections on @port (listeners left out)."""
    return [(s["state"], s["mode"]) for s in smcss_json(t, h, "-a", port)
            if s["state"] != "LISTEN"]


def close_states_case(t):
    a, b, port = t.alpha, t.beta, PORT + 4
    tags = {a.name: "/tmp/diag-hc-cli", b.name: "/tmp/diag-hc-srv"}
    for h in (a, b):
        h.run("rm -f %s.shut %s.close" % (tags[h.name], tags[h.name]))
    tool = scenarios.pytool("halfclose")

    def seen():
        return {h.name: conn_states(t, h, port) for h in (a, b)}

    def expect(want, what):
        """Wait until alpha and beta show @want, then assert it."""
        scenarios.wait_for(lambda: seen() == want, timeout=30, step=0.5)
        t.eq(seen(), want, what)

    srv = b.bg("%s server 0 %d %s" % (tool, port, tags[b.name]))
    cli, results = None, []
    try:
        b.wait_port(port)
        cli = a.bg("%s client %s %d %s" % (tool, b.ip, port, tags[a.name]))

        expect({a.name: [("ACTIVE", "SMCR")], b.name: [("ACTIVE", "SMCR")]},
               "both ends ACTIVE over SMC-R")
        a.run("touch %s.shut" % tags[a.name])
        expect({a.name: [("PEERCLW1", "SMCR")], b.name: [("APPLCLW1", "SMCR")]},
               "client shutdown(WR): client PEERCLW1, server APPLCLW1")
        b.run("touch %s.shut" % tags[b.name])
        expect({a.name: [("PEERCLW2", "SMCR")], b.name: [("APPLCLW2", "SMCR")]},
               "server shutdown(WR) too: client PEERCLW2, server APPLCLW2")
        b.run("touch %s.close" % tags[b.name])
        expect({a.name: [("APPLFINCLW", "SMCR")], b.name: []},
               "server closed: client APPLFINCLW, the server's socket gone")
        a.run("touch %s.close" % tags[a.name])
        expect({a.name: [], b.name: []}, "client closed: no socket left")
    finally:
        for h in (a, b):
            h.run("touch %s.shut %s.close" % (tags[h.name], tags[h.name]), check=False)
        results = [p.wait(timeout=120, check=False) for p in (cli, srv) if p]
    for r in results:
        t.check(r.rc == 0 and "ok" in r.out,
                "halfclose: rc %d %s" % (r.rc, (r.out + r.err).strip()[-400:]))


MANY = 300

def ipv6_many_case(t):
    a, port = t.alpha, PORT + 10
    hold = smcr_cases.HOLD
    ready, release = "/tmp/diag6.ready", "/tmp/diag6.release"
    a.run("rm -f %s %s" % (ready, release))
    srv = a.bg("%s server -f smc6 -p %d -c %d -q" % (hold, port, MANY))
    cli = None
    try:
        a.wait_port(port)
        cli = a.bg("%s client -f smc6 -a ::1 -p %d -c %d -n 1000 -R %s -r %s -t 600 -q"
                   % (hold, port, MANY, ready, release))
        got = scenarios.wait_for(
            lambda: a.run("cat %s 2>/dev/null" % ready, check=False).out.strip(),
            timeout=600, step=2)
        t.check(got and int(got.split()[0]) == MANY, "%d connections over ::1 open: %s"
                % (MANY, got))
        socks = [s for s in smcss_json(t, a, "-a", port)]
        mine = [s for s in socks if s["family"] == "inet6"]
        t.eq(len(mine), len(socks), "every socket of port %d is inet6" % port)
        conns = [s for s in socks if s["state"] != "LISTEN"]
        t.eq(len(conns), 2 * MANY, "smcss -a --json: 2 x %d connected sockets" % MANY)
        t.check(all(s["local"]["address"] == "::1" for s in socks) and
                all((s.get("peer") or {}).get("address") == "::1"
                    for s in socks if s["state"] != "LISTEN"),
                "local and peer addresses are ::1")
        t.eq(len({s["inode"] for s in socks}), len(socks), "smcss: no socket twice")
        rows = text_rows(smcss(t, a, "-a"), port)
        t.check(len(rows) == len(socks) and
                any(("::1:%d" % port) in r for r in rows),
                "smcss -a text: %d rows with ::1:%d (smc-tools' form)" % (len(rows), port))
        dump = json.loads(a.out(scenarios.pytool("smc_diag_dump")))
        raw = [x for x in dump["socks"] if port in (x[0], x[1])]
        t.log("raw dump: %d reads, %d sockets, %d of port %d"
              % (dump["reads"], len(dump["socks"]), len(raw), port))
        t.check(dump["done"] and dump["reads"] >= 2,
                "the dump spans several reads (%d) and ends with NLMSG_DONE" % dump["reads"])
        t.eq(len(raw), len(socks), "raw dump: as many sockets of the port as smcss")
        t.eq(len({(x[2], x[3]) for x in dump["socks"]}), len(dump["socks"]),
             "raw dump: every socket exactly once")
        t.eq(sorted(x[2] for x in raw), sorted(s["inode"] for s in socks),
             "raw dump and smcss list the same sockets")
    finally:
        a.run("touch %s" % release, check=False)
        for p in (cli, srv):
            if p:
                r = p.wait(timeout=300, check=False)
                if r.rc != 0:
                    t.log("hold: rc %d %s" % (r.rc, (r.out + r.err).strip()[-400:]))


def run(t):
    load_all(t, "smcr=0")
    with t.subtest("smcr=0: listener and fallback connection in smcss"):
        fallback_case(t)
    load_all(t, "smcr=1")
    with t.subtest("smcr=1: SMC-R connection in smcss -R/-d and smcr stats"):
        smcr_case(t)
    with t.subtest("smcr=1: close states of a half-closed SMC-R connection in smcss"):
        close_states_case(t)
    with t.subtest("IPv6 (SMCPROTO_SMC6 over ::1) and a multipart dump of %d sockets"
                   % (2 * MANY)):
        ipv6_many_case(t)
