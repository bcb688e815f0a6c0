# SPDX-License-Identifier: GPL-2.0
"""An AF_SMC socket of smcx behaves like a TCP socket, case by case.

The socket-semantics suite (build/tools/sockapi, docs/sockapi.md) runs once
over plain TCP, the oracle, and once over AF_SMC served by smcx.ko on both
hosts; every case is a subtest and must observe exactly what TCP observed
(only SO_DOMAIN/SO_PROTOCOL and default buffer sizes are exempt, reported
as known-different).  Then the same for IPv6 (tcp6 against smc6, on
v4-mapped addresses).  No exemptions: this is the product's promise.

If smcx does not register AF_SMC the test fails: socket(AF_SMC) then either
fails with EAFNOSUPPORT or autoloads the in-kernel smc.ko, which must not
stand in for smcx.
"""
import os

import sockapi_lib as L

TIMEOUT = 1200


def smcx_family(t, family):
    for h in (t.alpha, t.beta):
        ok, txt = L.probe(h, family)
        t.check(ok, "%s: smcx provides %s sockets: %s" % (h.name, family, txt))
        t.check(not h.loaded("smc"),
                "%s: %s is served by smcx, not by the autoloaded in-kernel smc.ko" % (
                    h.name, family))


def run(t):
    a, b = t.alpha, t.beta
    t.check(os.path.exists(L.TOOL), "%s is built (make tools)" % L.TOOL)
    t.check(os.path.exists(t.smcx_path()), "smcx.ko is built")
    L.install_tool((a, b))
    for h in (a, b):
        L.modules_clear(h)
    port = L.base_port()

    tcp = L.run_suite(t, "tcp", port)
    bad = [n for n, ln in tcp.cases.items() if ln.startswith("FAIL")]
    t.check(not bad, "the TCP oracle passes every case (failed: %s)" % ", ".join(bad))

    for h in (a, b):
        h.insmod_smcx()
    smcx_family(t, "smc")
    smc = L.run_suite(t, "smc", port + 10)
    L.compare(t, tcp, smc, prefix="smc/")
    t.check(not a.loaded("smc") and not b.loaded("smc"), "in-kernel smc.ko never loaded")

    tcp6 = L.run_suite(t, "tcp6", port + 20)
    smcx_family(t, "smc6")
    smc6 = L.run_suite(t, "smc6", port + 30)
    L.compare(t, tcp6, smc6, prefix="smc6/")
