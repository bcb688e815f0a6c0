# SPDX-License-Identifier: GPL-2.0
"""smc_run + libsmc-preload.so against the stock smc.ko over SMC-Rv2 (RDMA).

Both hosts run smc.ko configured for SMC-Rv2 over rxe (scenarios.
setup_inkernel_smc).  Unmodified iperf3 (-n 2 MiB), sockperf
ping-pong, curl fetching a few MiB from python3 -m http.server (checksummed)
and redis-server + redis-benchmark -n 2000 (plus a value stored and read
back) run under smc_run in its AF_SMC mode (smc-tools' behaviour).  This
is the reference cell for the applications: smcx_apps runs them over smcx
in both modes (AF_SMC and IPPROTO_SMC); here one mode keeps the suite
inside its time budget (both took 158 s of a slow lab day).  Evidence of RDMA for every
application: smc.ko's SMC-Rv2 connection counters grow on both hosts, its
SMC-R tx/rx byte counters grow, no connection fell back, and rxe's packet
counters grow in both directions.
"""
import scenarios

# The stock smc.ko alone: validates the test logic (make check-reference).
TIER = "reference"
TIMEOUT = 1500


def has_ipproto_smc(h):
    r = h.run("python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM, 256)'",
              check=False)
    return r.ok


def counters(h):
    st = scenarios.inkernel_stats(h)
    return {"clnt": st["smcr"]["v2"]["clnt_success"], "srv": st["smcr"]["v2"]["srv_success"],
            "fb_clnt": st["fallbacks"]["clnt"], "fb_srv": st["fallbacks"]["srv"],
            "tx": st["smcr"]["tx"]["bytes"], "rx": st["smcr"]["rx"]["bytes"]}


def run(t):
    a, b = t.alpha, t.beta
    for h in (a, b):
        scenarios.setup_inkernel_smc(h)
    modes = ["afsmc"]
    t.log("smc.ko %s IPPROTO_SMC; the reference runs AF_SMC mode only"
          % ("has" if has_ipproto_smc(a) and has_ipproto_smc(b) else "lacks"))
    runs = {h.name: scenarios.install_smc_run(h) for h in (a, b)}

    for n, mode in enumerate(modes):
        for name, fn in scenarios.APPS.items():
            with t.subtest("%s under smc_run -m %s" % (name, mode)):
                ca, cb = counters(a), counters(b)
                rxe = scenarios.rxe_snapshot((a, b))
                # one wrap string for both hosts: the copies live at the same path
                # a fresh port per mode: the previous mode's listener may
                # still hold its port while the SMC close finishes
                r = fn(b, a, wrap="%s -m %s" % (runs["alpha"], mode),
                       port=scenarios.app_port(fn, n))
                t.check(r["ok"], "%s works over smc_run, data verified: %r" % (name, r))
                na, nb = counters(a), counters(b)
                d = scenarios.rxe_delta((a, b), rxe)
                t.check(na["clnt"] > ca["clnt"], "alpha: SMC-Rv2 client connections +%d"
                        % (na["clnt"] - ca["clnt"]))
                t.check(nb["srv"] > cb["srv"], "beta: SMC-Rv2 server connections +%d"
                        % (nb["srv"] - cb["srv"]))
                t.eq((na["fb_clnt"] - ca["fb_clnt"], nb["fb_srv"] - cb["fb_srv"]), (0, 0),
                     "no TCP fallback")
                t.check(na["tx"] > ca["tx"] and nb["rx"] > cb["rx"],
                        "SMC-R byte counters moved (alpha tx +%d, beta rx +%d)"
                        % (na["tx"] - ca["tx"], nb["rx"] - cb["rx"]))
                t.check(all(d[(h.name, c)] > 0 for h in (a, b) for c in scenarios.RXE_COUNTERS),
                        "rxe packets both ways: %r" % d)
