# SPDX-License-Identifier: GPL-2.0
"""Unmodified programs over smcx SMC-R, via tcp2smc and via smc_run, with RDMA evidence.

iperf3 (-n 2 MiB), sockperf ping-pong, curl + python3 -m http.server
(a few MiB, checksummed) and redis-server + redis-benchmark -n 2000 run,
each server listening on every address as its users run it (iperf3 -s and
http.server --bind :: on [::], dual-stack, so that alpha's IPv4 client
arrives v4-mapped; redis with no bind option on 0.0.0.0 and [::], its
"bind * -::*"; checked off /proc/net/tcp6),
  - with net.smc.tcp2smc=1 on both hosts, and
  - under smc_run (AF_SMC and IPPROTO_SMC),
and each must become SMC-R: smcx's success counters grow on both hosts, no
fallback, rxe packet counters grow both ways.

Buffer sizes (smcss -d, JSON and text, on both hosts, data verified by
hold): SO_SNDBUF/SO_RCVBUF set before connect() and before listen() size
the client's and the accepted connection's send buffer and RMB (rounded up
to 16 KiB << n), for AF_SMC, for tcp2smc sockets and under smc_run -t/-r;
net.smc.wmem/rmem of 1 MiB/2 MiB, written before a connection, give
buffers of that size (past the old 512 KiB cap); wmem/rmem of 512 MiB
(far more than one contiguous allocation can be) still give SMC-R, with
smaller buffers and the downgrades counted.

smcx_tcp2smc covers the conversion itself (which sockets, sysctl, netns),
and smc_run_inkernel the same preload library against the stock smc.ko.
"""
import contextlib
import json

import scenarios
import smcr_cases
import stacks

TIMEOUT = 1500
COST = 76


def success(h):
    s = scenarios.smcx_stats(h)
    return {k: v for k, v in s.items() if "success" in k or "fallback" in k}


# Where each app listens with scenarios.BIND_DEFAULT, on
# beta: the dual-stack ones on [::] serve alpha's IPv4 client
# through a v4-mapped AF_INET6 socket, redis through its 0.0.0.0 one.
# sockperf's server needs -i, so it listens on beta's address.
DEFAULT_LISTEN = {"iperf3": ["[::]"], "sockperf": ["198.18.0.2"], "http": ["[::]"],
                  "redis": ["0.0.0.0", "[::]"]}


def check_app(t, a, b, name, fn, wrap, label, n):
    """@fn with its @n-th port: a server killed in the previous subtest may
    still be closing its connections (and holding its port) when the next
    one starts.  Each server listens where it does by default."""
    sa, sb = scenarios.smcx_stats(a), scenarios.smcx_stats(b)
    rxe = scenarios.rxe_snapshot((a, b))
    r = fn(b, a, wrap=wrap, port=scenarios.app_port(fn, n), bind=scenarios.BIND_DEFAULT)
    t.check(r["ok"], "%s %s works, data verified: %r" % (label, name, r))
    t.eq(r["listen"], DEFAULT_LISTEN[name], "%s %s: listens on every address, as its users run it"
         % (label, name))
    na, nb = scenarios.smcx_stats(a), scenarios.smcx_stats(b)
    t.check(na["clnt_success_v2"] > sa["clnt_success_v2"], "%s %s: alpha SMC-Rv2 client" % (label, name))
    t.check(nb["srv_success_v2"] > sb["srv_success_v2"], "%s %s: beta SMC-Rv2 server" % (label, name))
    t.eq((na["clnt_fallback"] - sa["clnt_fallback"], nb["srv_fallback"] - sb["srv_fallback"]),
         (0, 0), "%s %s: no fallback" % (label, name))
    d = scenarios.rxe_delta((a, b), rxe)
    t.check(all(v > 0 for v in d.values()), "%s %s: rxe packets both ways %r" % (label, name, d))


def held_sizes(t, a, b, cases):
    """Hold connections alpha -> beta, all open at once, one per case
    (label, port, pre, kw): @pre() (or None) runs before its connection is
    made, @kw goes to smcr_cases.Held.  Each must be SMC-R on both hosts;
    {label: {host: (send buffer, RMB, the peer's RMB)}} from smcss -d
    --json, checked against the smcss -d text row."""
    got = {label: {} for label, _, _, _ in cases}
    with contextlib.ExitStack() as held:
        for label, port, pre, kw in cases:
            if pre:
                pre()
            held.enter_context(smcr_cases.Held(t, a, b, port, 1, kw.pop("nbytes", 300000), **kw))
        for h in (a, b):
            js = json.loads(h.out("%s -a -d --json" % scenarios.tool("smcss")))["sockets"]
            text = [ln.split() for ln in h.out("%s -a -d" % scenarios.tool("smcss")).splitlines()]
            for label, port, _, _ in cases:
                socks = [x for x in js if x["state"] == "ACTIVE" and port in (
                    (x.get("local") or {}).get("port"), (x.get("peer") or {}).get("port"))]
                t.eq([x["mode"] for x in socks], ["SMCR"],
                     "%s, %s: the held connection" % (label, h.name))
                ci = (socks[0]["conninfo"] if socks else None) or {}
                sizes = (ci.get("sndbuf_size"), ci.get("rmbe_size"), ci.get("peer_rmbe_size"))
                tok = "%08x" % ci.get("token", 0)
                rows = [f for f in text if tok in f and any(x.endswith(":%d" % port) for x in f)]
                row = rows[0] if len(rows) == 1 else []
                i = row.index(tok) if row else 0
                t.eq(tuple(int(x) for x in row[i + 1:i + 4]), sizes,
                     "%s, %s: smcss -d text agrees with JSON" % (label, h.name))
                got[label][h.name] = sizes
    return got


def buf_stats(h):
    """smcr -a -j stats: (RMB, send buffer) downgrades."""
    r = json.loads(h.out("%s -a -j stats" % stacks.smcr()))["smcr"]
    return (r["rx"]["buffer"]["downgrade"], r["tx"]["buffer"]["downgrade"])


def bufsize_cases(t, a, b):
    """SO_SNDBUF/SO_RCVBUF, 1 MiB and 512 MiB buffers."""
    port = 5610
    with t.subtest("SO_SNDBUF/SO_RCVBUF size the buffers: AF_SMC, tcp2smc, smc_run -t/-r"):
        run_a = scenarios.install_smc_run(a)
        scenarios.install_smc_run(b)
        for h in (a, b):
            h.run("sysctl -qw net.smc.tcp2smc=1")
        try:
            # the client asks before connect(), the listener before
            # listen(), an accepted connection takes the listener's; all
            # rounded up to 16K << n.  Beside: net.core.wmem_max (208K)
            # caps SO_SNDBUF.
            got = held_sizes(t, a, b, [
                ("AF_SMC", port, None, dict(client_opts="-S 20000 -B 100000",
                                            server_opts="-S 100000 -B 20000")),
                ("tcp2smc", port + 1, None, dict(family="tcp", client_opts="-S 40000 -B 200000",
                                                 server_opts="-S 200000 -B 40000")),
                ("smc_run", port + 2, None, dict(family="tcp",
                                                 wrap="%s -t 20000 -r 200000 " % run_a))])
        finally:
            for h in (a, b):
                h.run("sysctl -qw net.smc.tcp2smc=0")
        # (send buffer, RMB, peer RMB) on alpha (client) and beta (server)
        t.eq(got, {"AF_SMC": {"alpha": (32768, 131072, 32768), "beta": (131072, 32768, 131072)},
                   "tcp2smc": {"alpha": (65536, 262144, 65536),
                               "beta": (262144, 65536, 262144)},
                   "smc_run": {"alpha": (32768, 262144, 262144),
                               "beta": (32768, 262144, 262144)}},
             "buffer sizes: AF_SMC -S 20000 -B 100000 / listener -S 100000 -B 20000, "
             "tcp2smc -S 40000 -B 200000 / listener -S 200000 -B 40000, "
             "smc_run -t 20000 -r 200000 on both")

    with t.subtest("wmem/rmem 1M/2M: buffers of that size; 512M: smaller ones, still SMC-R"):
        saved = {h.name: h.out("sysctl -n net.smc.wmem net.smc.rmem").split() for h in (a, b)}
        before = {h.name: buf_stats(h) for h in (a, b)}

        def mem(w, r):
            return lambda: [h.run("sysctl -qw net.smc.wmem=%d net.smc.rmem=%d" % (w, r))
                            for h in (a, b)]
        try:
            # a socket takes wmem/rmem when it is made: the 1 MiB
            # connection is open before they change to 512 MiB
            got = held_sizes(t, a, b, [("1M/2M", port + 3, mem(1 << 20, 2 << 20),
                                        dict(nbytes=3 << 20)),
                                       ("512M", port + 4, mem(512 << 20, 512 << 20), {})])
        finally:
            for h in (a, b):
                h.run("sysctl -qw net.smc.wmem=%s net.smc.rmem=%s" % tuple(saved[h.name]),
                      check=False)
        t.eq(got["1M/2M"], {"alpha": (1 << 20, 2 << 20, 2 << 20),
                            "beta": (1 << 20, 2 << 20, 2 << 20)},
             "wmem 1M, rmem 2M: (send buffer, RMB, peer RMB), data verified past a wrap")
        big = got["512M"]
        for h, peer in ((a, b), (b, a)):
            snd, rmb, prmb = big.get(h.name, (0, 0, 0))
            t.check(all(16384 <= x < (512 << 20) and not x & (x - 1) for x in (snd, rmb)),
                    "%s: 512M asked, send buffer %d and RMB %d: smaller, powers of two from 16K"
                    % (h.name, snd, rmb))
            t.eq(prmb, big.get(peer.name, (0, 0, 0))[1], "%s: the peer's RMB as the peer has it"
                 % h.name)
            after = buf_stats(h)
            t.check(all(x > y for x, y in zip(after, before[h.name])),
                    "%s: downgrades counted (RMB, send buffer): %r -> %r"
                    % (h.name, before[h.name], after))


def run(t):
    a, b = t.alpha, t.beta
    for h in (a, b):
        h.insmod_smcx()

    with t.subtest("tcp2smc"):
        for h in (a, b):
            h.run("sysctl -qw net.smc.tcp2smc=1")
        try:
            for name, fn in scenarios.APPS.items():
                check_app(t, a, b, name, fn, "", "tcp2smc", 0)
        finally:
            for h in (a, b):
                h.run("sysctl -qw net.smc.tcp2smc=0")

    for n, mode in enumerate(("afsmc", "ipproto"), 1):
        with t.subtest("smc_run -m %s" % mode):
            run_a = scenarios.install_smc_run(a)
            scenarios.install_smc_run(b)
            for name, fn in scenarios.APPS.items():
                check_app(t, a, b, name, fn, "%s -m %s" % (run_a, mode), "smc_run/" + mode, n)

    bufsize_cases(t, a, b)
