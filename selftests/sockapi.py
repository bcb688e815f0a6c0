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
  smc6/      the same with SMCPROTO_SMC6 against tcp6 (v4-mapped addresses).
sockapi_smcr runs smc/ (AF_SMC over the SMC-R data path), smc6/
(SMCPROTO_SMC6 with v4-mapped addresses: IPv4 on the wire, so SMC-R v2 as
well) and ipproto6/ (socket(AF_INET6, SOCK_STREAM, IPPROTO_SMC), the same
addresses), each checked to have ended every handshake in SMC-R v2, and
cork/: each corking case again alone, with smcx's pushes that wrote data
counted on the sending host around it (debugfs stats tx_data_pushes): the
16 small sends that TCP_CORK or MSG_MORE held leave in one push; 256 small
sends with autocorking leave in fewer pushes than sends, and in exactly
one push each with net.smc.autocorking_size 0.
The smcx handshake counters of each pass are logged, so it is visible which
path the cases exercised.

If smcx does not register AF_SMC the test fails: socket(AF_SMC) then either
fails with EAFNOSUPPORT or autoloads the in-kernel smc.ko, which must not
stand in for smcx.
"""
import os

import sockapi_lib as L

TIMEOUT = 1500
COST = 119
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


def smcx_pass(t, oracle, family, port, prefix, smcr=False):
    """One pass of the suite over @family; with @smcr every handshake of it
    must end in SMC-R v2 (alpha serves, beta connects), none in a fallback."""
    a, b = t.alpha, t.beta
    smcx_family(t, family)
    before = {h.name: stats(h) for h in (a, b)}
    run = L.run_suite(t, family, port)
    delta = {}
    for h in (a, b):
        after = stats(h)
        d = {k: after.get(k, 0) - before[h.name].get(k, 0) for k in after}
        delta[h.name] = d
        t.log("%s smcx handshakes in this pass: %s" % (
            h.name, " ".join("%s=%d" % (k, v) for k, v in sorted(d.items()) if v)))
    if smcr:
        with t.subtest(prefix + "over SMC-R"):
            da, db = delta[a.name], delta[b.name]
            t.check(da.get("srv_success_v2", 0) > 0 and db.get("clnt_success_v2", 0) > 0,
                    "%s handshakes ended in SMC-R v2 (server %d, client %d)"
                    % (family, da.get("srv_success_v2", 0), db.get("clnt_success_v2", 0)))
            fb = {"%s.%s" % (n, k): v for n, d in delta.items() for k, v in d.items()
                  if "fallback" in k and v}
            t.eq(fb, {}, "%s: no handshake fell back to TCP" % family)
    L.compare(t, oracle, run, prefix=prefix)


# cork/: case -> pushes with data the sender (beta) makes in it
CORK_PUSHES = {"cork_uncork": 1, "cork_nodelay": 1, "cork_close": 1,
               "cork_shutdown": 1, "msg_more": 1, "msg_more_close": 1}
AUTOCORK_SENDS = 256            # case autocork's sends (sockapi.c)


def counted(t, case, port):
    """Run one case alone over AF_SMC: (its line, beta's stats delta)."""
    before = stats(t.beta)
    run = L.run_suite(t, "smc", port, cases=[case])
    after = stats(t.beta)
    line = run.line(case) or "FAIL no line"
    return line, {k: v - before.get(k, 0) for k, v in after.items()}


def cork_pass(t, port):
    """cork/: corking took effect, counted in pushes, not timed.  One port
    for all runs (the listener takes it again with SO_REUSEADDR; the cases
    use port and port + 1 only), inside the test's range of 50."""
    for case, want in sorted(CORK_PUSHES.items()):
        with t.subtest("cork/" + case):
            line, d = counted(t, case, port)
            t.check("verify=ok" in line and not line.startswith("FAIL"),
                    "every byte reached the peer in order: %s" % line)
            t.eq(d.get("tx_data_pushes"), want,
                 "pushes with data for %s (corked sends: %s)" % (case, d.get("tx_corked")))
    sysctl = "/proc/sys/net/smc/autocorking_size"
    for size, more in (("65536", True), ("0", False)):
        with t.subtest("cork/autocork_size_%s" % size):
            t.beta.run("echo %s > %s" % (size, sysctl))
            try:
                line, d = counted(t, "autocork", port)
            finally:
                t.beta.run("echo 65536 > %s" % sysctl)
            t.check("verify=ok" in line and not line.startswith("FAIL"),
                    "every byte reached the peer in order: %s" % line)
            n = d.get("tx_data_pushes")
            t.log("autocorking_size %s: %s sends, %s pushes, %s corked" % (
                size, AUTOCORK_SENDS, n, d.get("tx_corked")))
            if more:
                t.check(n is not None and 0 < n < AUTOCORK_SENDS,
                        "autocork joins sends made while a CDC is in flight "
                        "(%s pushes for %d sends)" % (n, AUTOCORK_SENDS))
            else:
                t.eq(n, AUTOCORK_SENDS, "autocorking off: one push per send")


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
        # (a pass with pnet entry and UEID configured, but smcr=0, ran
        # here too: its handshakes ended exactly as these, reason for
        # reason, so it only cost time; sockapi_smcr is the configured pass)
        smcx_pass(t, tcp, "smc", port + 10, "fallback/")
    else:
        smcx_pass(t, tcp, "smc", port + 20, "smc/", smcr=True)
        cork_pass(t, port + 46)

    tcp6 = L.oracle(t, "tcp6", port + 30)
    # v4-mapped addresses: IPv4 on the wire, so SMC-R as AF_INET (issue 17)
    smcx_pass(t, tcp6, "smc6", port + 40, "smc6/", smcr=smcr)
    if smcr:
        # the same through socket(AF_INET6, SOCK_STREAM, IPPROTO_SMC)
        smcx_pass(t, tcp6, "ipproto_smc6", port + 60, "ipproto6/", smcr=True)
    t.check(not a.loaded("smc") and not b.loaded("smc"), "in-kernel smc.ko never loaded")
