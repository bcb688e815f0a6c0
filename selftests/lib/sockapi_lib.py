# SPDX-License-Identifier: GPL-2.0
"""The socket-semantics suite, shared by selftests/sockapi*.py.

build/tools/sockapi (selftests/tools/sockapi.c) runs every case once with
plain TCP (the oracle) and once with an AF_SMC family, alpha serving and beta
driving; each case prints one normalized line.  Here the two runs are
compared case by case, each case a TAP subtest.  See docs/sockapi.md.

Line format:  case NAME: key=value ... [| known-different: key=value ...]
The "known-different" part (SO_DOMAIN, SO_PROTOCOL, default buffer sizes)
legitimately differs between TCP and AF_SMC and is only reported.

run_passes() is the whole of sockapi and sockapi_smcr: the TCP oracle,
then smcx's passes (smcx_pass(), cork_pass()).
"""
import os
import random

import smcxlab

TOOL = os.path.join(smcxlab.REPO, "build", "tools", "sockapi")
# The guests see the host's files through 9p; a binary rebuilt while a lab is
# up can be mapped stale there.  Each run executes its own copy.
GUEST_TOOL = "/tmp/sockapi-run"
KNOWN_SEP = " | known-different: "
# the oracle for each family under test
ORACLE = {"smc": "tcp", "smc6": "tcp6", "ipproto_smc": "tcp", "ipproto_smc6": "tcp6",
          "tcp": "tcp", "tcp6": "tcp6"}


class Run:
    """One run of the suite: family, per-case lines, raw output."""

    def __init__(self, family, out, err=""):
        self.family = family
        self.raw = out
        self.err = err
        self.cases = {}
        self.order = []
        for line in out.splitlines():
            if not line.startswith("case "):
                continue
            name, _, rest = line[5:].partition(": ")
            self.cases[name] = rest
            self.order.append(name)

    def line(self, name):
        return self.cases.get(name)


def split_line(rest):
    """(compared tokens, known-different text, failed?) of a case line."""
    main, _, known = rest.partition(KNOWN_SEP)
    failed = main.startswith("FAIL")
    return main.split(), known, failed


def tokens_without(tokens, allowed):
    out = []
    for tok in tokens:
        key = tok.split("=", 1)[0]
        if key not in allowed:
            out.append(tok)
    return out


def token_diff(a, b):
    """Human-readable differences of two token lists (in order)."""
    lines = []
    n = max(len(a), len(b))
    for i in range(n):
        x = a[i] if i < len(a) else "(missing)"
        y = b[i] if i < len(b) else "(missing)"
        if x != y:
            lines.append("  %-40s | %s" % (x, y))
    return lines


def install_tool(hosts):
    for h in hosts:
        h.run("cp %s %s.tmp && mv %s.tmp %s" % (TOOL, GUEST_TOOL, GUEST_TOOL, GUEST_TOOL))


def probe(h, family):
    """(ok, text) of socket() for a family on a host."""
    r = h.run("%s probe -f %s" % (GUEST_TOOL, family), check=False)
    return r.rc == 0, (r.out + r.err).strip()


def run_suite(t, family, port, cases=None, timeout=900, local=None):
    """Run the suite for one family: server on alpha, client on beta; or
    both on the host @local, over 127.0.0.1."""
    a, b = (local, local) if local else (t.alpha, t.beta)
    addr = "127.0.0.1" if local else a.ip
    srv = a.bg("exec %s server -f %s -p %d" % (GUEST_TOOL, family, port),
               name="sockapi-srv-%d" % port)
    try:
        a.wait_port(port + 1, timeout=30)
        only = " -c %s" % ",".join(cases) if cases else ""
        r = b.run("%s client -f %s -a %s -p %d%s" % (GUEST_TOOL, family, addr, port, only),
                  timeout=timeout, check=False)
    finally:
        b.run("%s quit -f %s -a %s -p %d" % (GUEST_TOOL, family, addr, port), check=False)
        rs = srv.wait(timeout=30, check=False)
        if rs.rc is None:
            srv.kill()
    if rs.err.strip():
        t.log("sockapi server (%s) said:\n%s" % (family, rs.err.strip()[-3000:]))
    run = Run(family, r.out, r.err)
    try:
        with open(os.path.join(t.lab.rundir, "sockapi-%s-%d.txt" % (family, port)), "w") as f:
            f.write(r.out)
    except OSError:
        pass
    if r.timed_out:
        t.log("sockapi client (%s) timed out after %ds" % (family, timeout))
    if not run.cases:
        raise AssertionError("sockapi client (%s) printed no case lines:\n%s"
                             % (family, r.describe()))
    t.log("sockapi %s: %d case(s), %d FAIL line(s)" % (
        family, len(run.cases), sum(1 for c in run.cases.values() if c.startswith("FAIL"))))
    return run


# TCP oracles already run in this runner process, by (family, cases): the
# guests' TCP answers every case the same way in every lab boot (the cases
# print no ports or addresses), so sockapi and sockapi_smcr share one run
# of each instead of paying for it twice.
_ORACLES = {}


def oracle(t, family, port, cases=None, local=None):
    """The TCP (or TCP6) run of the suite, run once per runner process (and
    once more over 127.0.0.1 on one host: @local)."""
    key = (family, tuple(cases or ()), bool(local))
    if key in _ORACLES:
        run, by = _ORACLES[key]
        t.log("sockapi %s oracle: the run of %s (%d cases), not run again"
              % (family, by, len(run.cases)))
        return run
    run = run_suite(t, family, port, cases=cases, local=local)
    _ORACLES[key] = (run, t.name)
    return run


def compare(t, oracle, other, prefix="", allowed=None, require_all=True):
    """One subtest per case: other must observe what oracle observed.

    allowed: {case: set of keys that may differ, or "*" for the whole case,
    with a reason} for documented differences of a reference implementation
    (the in-kernel smc); never used for smcx."""
    allowed = allowed or {}
    names = list(oracle.order)
    for n in other.order:
        if n not in oracle.cases:
            names.append(n)
    known = []
    for name in names:
        with t.subtest(prefix + name):
            o = oracle.line(name)
            s = other.line(name)
            if o is None:
                raise AssertionError("no %s (oracle) line for this case" % oracle.family)
            ot, ok_, ofail = split_line(o)
            if ofail:
                raise AssertionError("the %s oracle itself failed:\n  %s" % (oracle.family, o))
            if s is None:
                raise AssertionError("no %s line for this case (oracle: %s)" % (other.family, o))
            st, sk, sfail = split_line(s)
            if ok_ or sk:
                known.append("%s: %s=[%s] %s=[%s]" % (name, oracle.family, ok_, other.family, sk))
            rule = allowed.get(name)
            keys, why = (rule if rule else (set(), ""))
            if keys == "*" and (sfail or st != ot):
                t.log("%s: differs as documented for this implementation (%s)" % (name, why))
                t.log("  %s: %s" % (oracle.family, o))
                t.log("  %s: %s" % (other.family, s))
                continue
            if sfail:
                raise AssertionError("%s failed:\n  %s: %s\n  %s: %s"
                                     % (other.family, oracle.family, o, other.family, s))
            if st == ot:
                continue
            if keys and keys != "*" and tokens_without(st, keys) == tokens_without(ot, keys):
                t.log("%s: differs only in %s, as documented (%s)"
                      % (name, ",".join(sorted(keys)), why))
                for ln in token_diff(ot, st):
                    t.log(ln)
                continue
            raise AssertionError(
                "%s observes something else than %s:\n  %s: %s\n  %s: %s\n"
                "  differing (%s | %s):\n%s"
                % (other.family, oracle.family, oracle.family, o, other.family, s,
                   oracle.family, other.family, "\n".join(token_diff(ot, st))))
    if known:
        t.log("known-different values (reported, not compared):")
        for k in known:
            t.log("  " + k)


def stability(t, first, second):
    """The oracle must be deterministic: two TCP runs, line for line."""
    compare(t, first, second, prefix="stable/")


def base_port():
    """A fresh port range per test run (TIME_WAIT of a previous run must not
    meet the next one: reuseaddr_rebind observes TIME_WAIT on purpose).

    Below the ephemeral range (32768..60999): a client connection's
    TIME_WAIT lingers 60 s on its ephemeral port without SO_REUSEADDR, and
    blocks a bind there even with SO_REUSEADDR.  Earlier tests in the same
    boot leave hundreds of them; one on base + 4 failed the TCP oracle of
    a CI run ("bind listener port +4: EADDRINUSE").  Each run takes 50
    ports; 20000..20999 is smcx_listen_stress's."""
    return 21000 + random.randrange(0, 117) * 100


def modules_clear(h):
    """Neither smcx nor the in-kernel smc loaded."""
    for m in ("smcx", "smc_diag", "smc"):
        if h.loaded(m):
            h.run("rmmod %s" % m)


# smcx's passes, shared by sockapi (fallback/, smc6/ with smcr=0) and
# sockapi_smcr (smc/, cork/, smc6/, ipproto6/ over the SMC-R data path).
STATS = "/sys/kernel/debug/smcx/stats"


def smcx_family(t, family):
    for h in (t.alpha, t.beta):
        ok, txt = probe(h, family)
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
    run = run_suite(t, family, port)
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
    compare(t, oracle, run, prefix=prefix)


# cork/: case -> pushes with data the sender (beta) makes in it
CORK_PUSHES = {"cork_uncork": 1, "cork_nodelay": 1, "cork_close": 1,
               "cork_shutdown": 1, "msg_more": 1, "msg_more_close": 1}
AUTOCORK_SENDS = 256            # case autocork's sends (sockapi.c)


def counted(t, case, port):
    """Run one case alone over AF_SMC: (its line, beta's stats delta)."""
    before = stats(t.beta)
    run = run_suite(t, "smc", port, cases=[case])
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


def run_passes(t, smcr):
    """The TCP oracle, then smcx's passes: with @smcr False smcx declines
    every proposal (smcr=0: fallback/, smc/ configured, smc6/); with @smcr
    True (sockapi_smcr) every case runs over the SMC-R data path (smc/,
    smc6/)."""
    a, b = t.alpha, t.beta
    t.check(os.path.exists(TOOL), "%s is built (make tools)" % TOOL)
    t.check(os.path.exists(t.smcx_path()), "smcx.ko is built")
    install_tool((a, b))
    for h in (a, b):
        modules_clear(h)
    port = base_port()

    tcp = oracle(t, "tcp", port)
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

    tcp6 = oracle(t, "tcp6", port + 30)
    # v4-mapped addresses: IPv4 on the wire, so SMC-R as AF_INET
    smcx_pass(t, tcp6, "smc6", port + 40, "smc6/", smcr=smcr)
    if smcr:
        # the same through socket(AF_INET6, SOCK_STREAM, IPPROTO_SMC)
        smcx_pass(t, tcp6, "ipproto_smc6", port + 60, "ipproto6/", smcr=True)
    t.check(not a.loaded("smc") and not b.loaded("smc"), "in-kernel smc.ko never loaded")
