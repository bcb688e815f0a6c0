# SPDX-License-Identifier: GPL-2.0
"""Unmodified programs over smcx SMC-R, via tcp2smc and via smc_run, with RDMA evidence.

iperf3 (-n 2 MiB), sockperf ping-pong, curl + python3 -m http.server
(a few MiB, checksummed) and redis-server + redis-benchmark -n 2000 run
  - with net.smc.tcp2smc=1 on both hosts, and
  - under smc_run (AF_SMC and IPPROTO_SMC),
and each must become SMC-R: smcx's success counters grow on both hosts, no
fallback, rxe packet counters grow both ways.  Also: net.smc.wmem/rmem
written before a connection show up as its buffer sizes (smcss -D/-j).

smcx_tcp2smc covers the conversion itself (which sockets, sysctl, netns),
and smc_run_inkernel the same preload library against the stock smc.ko.
"""
import json

import scenarios
import smcr_cases

TIMEOUT = 1500


def success(h):
    s = scenarios.smcx_stats(h)
    return {k: v for k, v in s.items() if "success" in k or "fallback" in k}


def check_app(t, a, b, name, fn, wrap, label, n):
    """@fn with its @n-th port: a server killed in the previous subtest may
    still be closing its connections (and holding its port) when the next
    one starts."""
    sa, sb = scenarios.smcx_stats(a), scenarios.smcx_stats(b)
    rxe = scenarios.rxe_snapshot((a, b))
    r = fn(b, a, wrap=wrap, port=scenarios.app_port(fn, n))
    t.check(r["ok"], "%s %s works, data verified: %r" % (label, name, r))
    na, nb = scenarios.smcx_stats(a), scenarios.smcx_stats(b)
    t.check(na["clnt_success_v2"] > sa["clnt_success_v2"], "%s %s: alpha SMC-Rv2 client" % (label, name))
    t.check(nb["srv_success_v2"] > sb["srv_success_v2"], "%s %s: beta SMC-Rv2 server" % (label, name))
    t.eq((na["clnt_fallback"] - sa["clnt_fallback"], nb["srv_fallback"] - sb["srv_fallback"]),
         (0, 0), "%s %s: no fallback" % (label, name))
    d = scenarios.rxe_delta((a, b), rxe)
    t.check(all(v > 0 for v in d.values()), "%s %s: rxe packets both ways %r" % (label, name, d))


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

    with t.subtest("wmem/rmem take effect on new connections"):
        port = 5600
        saved = {h.name: h.out("sysctl -n net.smc.wmem net.smc.rmem").split() for h in (a, b)}
        for h in (a, b):
            h.run("sysctl -qw net.smc.wmem=131072 net.smc.rmem=262144")
        try:
            with smcr_cases.Held(t, a, b, port, 1, 300000):
                for h in (a, b):
                    socks = [x for x in json.loads(h.out("%s -a -d --json"
                                                         % scenarios.tool("smcss")))["sockets"]
                             if x["state"] == "ACTIVE" and port in (
                                 (x.get("local") or {}).get("port"),
                                 (x.get("peer") or {}).get("port"))]
                    t.eq([x["mode"] for x in socks], ["SMCR"], "%s: the held connection" % h.name)
                    ci = socks[0]["conninfo"] or {}
                    t.eq((ci.get("sndbuf_size"), ci.get("rmbe_size"), ci.get("peer_rmbe_size")),
                         (131072, 262144, 262144),
                         "%s: send buffer 128K, RMB 256K, the peer's RMB 256K (smcss -d)" % h.name)
        finally:
            for h in (a, b):
                h.run("sysctl -qw net.smc.wmem=%s net.smc.rmem=%s" % tuple(saved[h.name]),
                      check=False)
