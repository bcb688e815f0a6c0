# SPDX-License-Identifier: GPL-2.0
"""An AF_SMC socket of smcx behaves like a TCP socket, case by case.

The socket-semantics suite (build/tools/sockapi, docs/sockapi.md) runs over
plain TCP, the oracle, and over AF_SMC served by smcx.ko on both hosts;
every case is a subtest and must observe exactly what TCP observed (only
SO_DOMAIN/SO_PROTOCOL and default buffer sizes are exempt, reported as
known-different).  No exemptions beyond those: this is the product's promise.

  fallback/  smcx with smcr=0 (declines every proposal): the CLC handshake
             ends in a fallback to TCP (the TCP socket is grafted under the
             file);
  smc/       the same, smcx configured like the stock smc for SMC-Rv2 over
             rxe (pnet entry, UEID; needs the smcctl tools);
  smc6/      the same with SMCPROTO_SMC6 against tcp6 (v4-mapped addresses).
sockapi_smcr runs the smc/ and smc6/ passes over the SMC-R data path.
The smcx handshake counters of each pass are logged, so it is visible which
path the cases exercised.

If smcx does not register AF_SMC the test fails: socket(AF_SMC) then either
fails with EAFNOSUPPORT or autoloads the in-kernel smc.ko, which must not
stand in for smcx.
"""
import os

import scenarios
import sockapi_lib as L

TIMEOUT = 1500
STATS = "/sys/kernel/debug/smcx/stats"


def smcx_family(t, family):
    for h in (t.alpha, t.beta):
        ok, txt = L.probe(h, family)
        t.check(ok, "%s: smcx provides %s sockets: %s" % (h.name, family, txt))
        t.check(not h.loaded("smc"),
                "%s: %s is served by smcx, not by the autoloaded in-kernel smc.ko" % (
                    h.name, family))


def stats(h):
    r = h.run("cat %s" % STATS, check=False)
    return {p[0]: int(p[1]) for p in (ln.split() for ln in r.out.splitlines())
            if len(p) == 2 and p[1].isdigit()}


def smcx_pass(t, oracle, family, port, prefix):
    a, b = t.alpha, t.beta
    smcx_family(t, family)
    before = {h.name: stats(h) for h in (a, b)}
    run = L.run_suite(t, family, port)
    for h in (a, b):
        after = stats(h)
        d = {k: after.get(k, 0) - before[h.name].get(k, 0) for k in after}
        t.log("%s smcx handshakes in this pass: %s" % (
            h.name, " ".join("%s=%d" % (k, v) for k, v in sorted(d.items()) if v)))
    L.compare(t, oracle, run, prefix=prefix)


def run(t):
    run_passes(t, smcr=False)


def run_passes(t, smcr):
    """The TCP oracle, then smcx's passes: with @smcr False smcx declines
    every proposal (smcr=0: fallback/, smc/ configured, smc6/); with @smcr
    True (sockapi_smcr) every case runs over the SMC-R data path (smc/,
    smc6/)."""
    a, b = t.alpha, t.beta
    t.check(os.path.exists(L.TOOL), "%s is built (make tools)" % L.TOOL)
    t.check(os.path.exists(t.smcx_path()), "smcx.ko is built")
    L.install_tool((a, b))
    for h in (a, b):
        L.modules_clear(h)
    port = L.base_port()

    tcp = L.oracle(t, "tcp", port)
    bad = [n for n, ln in tcp.cases.items() if ln.startswith("FAIL")]
    t.check(not bad, "the TCP oracle passes every case (failed: %s)" % ", ".join(bad))

    for h in (a, b):
        h.insmod_smcx("smcr=%d" % smcr)
    if not smcr:
        smcx_pass(t, tcp, "smc", port + 10, "fallback/")
        if os.path.exists(scenarios.tool("smc_pnet")):
            for h in (a, b):
                pnet, smcr_tool = scenarios.tool("smc_pnet"), scenarios.tool("smcr")
                h.run("%s -a %s -I eth0" % (pnet, scenarios.LAB_PNETID))
                h.run("%s -a %s -D rxe0 -P 1" % (pnet, scenarios.LAB_PNETID))
                h.run("%s ueid add %s" % (smcr_tool, scenarios.LAB_UEID))
            smcx_pass(t, tcp, "smc", port + 20, "smc/")
        else:
            with t.subtest("smc"):
                t.skip("smcctl tools not built (make user): no configured pass")
    else:
        smcx_pass(t, tcp, "smc", port + 20, "smc/")

    tcp6 = L.oracle(t, "tcp6", port + 30)
    smcx_pass(t, tcp6, "smc6", port + 40, "smc6/")
    t.check(not a.loaded("smc") and not b.loaded("smc"), "in-kernel smc.ko never loaded")
