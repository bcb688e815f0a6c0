# SPDX-License-Identifier: GPL-2.0
"""smcctl doctor finds each misconfiguration the lab can produce and says how
to fix it.

Both hosts run smcx.  `smcctl doctor -j` (the JSON is what is checked; the
text form once) on:
  - a clean lab: no check fails on alpha or beta (exit 0); smcx owns AF_SMC,
    eth0's address has its RoCE v2 GID on rxe0;
  (a) net.smc.tcp2smc: 0 (the default) warns with `sysctl -w
      net.smc.tcp2smc=1`; 1 is ok;
  (b) the user EID table flushed: the ueid check fails (rxe has RoCE v2 GIDs
      only) with `smcr ueid add SMCX-DEFAULT-UEID`; the EID is added back;
  (c) rxe0 deleted: rdma and gid fail with `rdma link add rxe0 type rxe
      netdev eth0`; rxe0 is added back and its GID waited for;
  (e) the probe: against beta's `smc_chk -S` SMC-R over rxe0 (exit 0), with
      the flight recorder's step and CLC exchange of the probe's handshake;
      against a plain TCP server on beta a TCP fallback PEER_NO_SMC that
      fails the probe with smc_chk's hint (exit 1);
  (d) the stock smc.ko loaded on alpha instead of smcx: the module check
      fails, names smc and says `modprobe -r smc_diag smc && modprobe smcx`.
Each step's doctor runs in the same lab round trip as the change and its undo.
"""
import json
import os

import stacks

TIMEOUT = 300
COST = 18
TIER = "main"

SMC_PORT = 5410     # smc_chk -S on beta
TCP_PORT = 5411     # a plain TCP server on beta
BIN = "/tmp/smcx_doctor_bin"
EID = stacks.SMCX_DEFAULT_UEID
PEER_NO_SMC = "PEER_NO_SMC (0x03010000)"
# rxe adds its GIDs from a work item after `rdma link add`
WAIT_GID = ("for i in $(seq 1 100); do grep -qs c612:0001 "
            "/sys/class/infiniband/rxe0/ports/1/gids/* && exit 0; sleep 0.1; done; exit 1")


def install(t, h):
    """A copy of smcctl in the guest's tmpfs (the repository is mounted
    without a cache, so each run of the build tree's binary reads it again)."""
    h.run("mkdir -p %s && cp %s %s/smcctl && for n in smc_chk smcr; do "
          "ln -sf smcctl %s/$n; done" % (BIN, t.tool("smcctl"), BIN, BIN))


def doctor(args=""):
    return "%s/smcctl doctor %s" % (BIN, args)


def steps(h, cmds):
    """Run shell commands on @h in one round trip; [[rc, stdout]] of each."""
    sep = "\036"
    script = "".join("( %s ) 2>&1; printf '%s%%d%s' $?; " % (c, sep, sep) for c in cmds)
    parts = h.run(script, timeout=120).out.split(sep)
    res = [[int(parts[i + 1]), parts[i]] for i in range(0, len(parts) - 1, 2)]
    if len(res) != len(cmds):
        raise AssertionError("%s: %d results for %d commands: %r"
                             % (h.name, len(res), len(cmds), parts[:6]))
    return res


def report(t, what, res, want_rc):
    rc, out = res
    t.eq(rc, want_rc, "%s: exit code (output %r)" % (what, out[-300:]))
    return json.loads(out)


def facts(rep, name):
    return [f for c in rep["checks"] if c["name"] == name for f in c["facts"]]


def level(rep, name):
    return [c["level"] for c in rep["checks"] if c["name"] == name][0]


def finding(t, rep, name, needle, want_level, want_fix=None):
    """The fact of check @name whose text has @needle: its level and fix."""
    hits = [f for f in facts(rep, name) if needle in f["text"]]
    t.check(len(hits) == 1, "%s: one fact mentions %r: %s" % (name, needle, facts(rep, name)))
    f = hits[0]
    t.eq(f["level"], want_level, "%s: %r level" % (name, needle))
    if want_fix is not None:
        t.eq(f["fix"], want_fix, "%s: %r fix" % (name, needle))
    return f


def run(t):
    a, b = t.alpha, t.beta
    for h in t.hosts:       # the runner leaves no SMC module loaded
        install(t, h)
        h.insmod_smcx(stacks.SMCX_PARAMS)

    with t.subtest("clean lab: nothing fails on alpha and beta; (a) tcp2smc"):
        ra = steps(a, [doctor("-j"), doctor(),
                       "sysctl -qw net.smc.tcp2smc=1 && " + doctor("-j") +
                       "; r=$?; sysctl -qw net.smc.tcp2smc=0; exit $r"])
        rb = steps(b, [doctor("-j")])
        for h, res in ((a, ra[0]), (b, rb[0])):
            rep = report(t, "%s: doctor" % h.name, res, 0)
            t.eq(rep["failed"], 0, "%s: no check failed" % h.name)
            finding(t, rep, "module", "smcx is loaded and owns AF_SMC", "ok")
            finding(t, rep, "gid", "eth0 %s: RoCE v2 GID" % h.ip, "ok")
            finding(t, rep, "rdma", "rxe0 port 1: ACTIVE", "ok")
            finding(t, rep, "ueid", EID, "ok")
        rep = json.loads(ra[0][1])
        finding(t, rep, "sysctl", "net.smc.tcp2smc = 0", "warn", "sysctl -w net.smc.tcp2smc=1")
        rc, text = ra[1]
        t.check(rc == 0 and "warn  sysctl  net.smc.tcp2smc = 0" in text
                and "Fix: sysctl -w net.smc.tcp2smc=1" in text
                and "0 failed" in text, "text form:\n" + text)
        rep = report(t, "tcp2smc=1", ra[2], 0)
        finding(t, rep, "sysctl", "net.smc.tcp2smc = 1", "ok")

    with t.subtest("(b) user EID table flushed; (c) rxe0 deleted"):
        smcr = "%s/smcr" % BIN
        res = steps(a, [
            "%s ueid flush && %s; r=$?; %s ueid add %s; exit $r" % (smcr, doctor("-j"), smcr, EID),
            "rdma link del rxe0 && %s; r=$?; rdma link add rxe0 type rxe netdev eth0; exit $r"
            % doctor("-j"),
            WAIT_GID, doctor("-j")])
        rep = report(t, "ueid flushed", res[0], 1)
        t.eq(rep["failed"], 1, "only the ueid check fails")
        f = finding(t, rep, "ueid", "user EID table is empty", "fail")
        t.check(f["fix"].startswith("smcr ueid add %s" % EID), "fix: %s" % f["fix"])

        rep = report(t, "rxe0 deleted", res[1], 1)
        t.eq((level(rep, "rdma"), level(rep, "gid")), ("fail", "fail"), "rdma and gid fail")
        fix = "rdma link add rxe0 type rxe netdev eth0"
        finding(t, rep, "rdma", "no RDMA device", "fail", fix)
        finding(t, rep, "gid", "eth0 (%s)" % a.ip, "warn", fix)
        finding(t, rep, "gid", "no egress netdev has a RoCE v2 GID", "fail", fix)

        t.eq(res[2][0], 0, "rxe0's GID is back")
        rep = report(t, "restored", res[3], 0)
        finding(t, rep, "gid", "eth0 %s: RoCE v2 GID" % a.ip, "ok")

    with t.subtest("(e) probe: smcx server SMC-R, plain TCP server PEER_NO_SMC"):
        srv = b.bg("%s/smc_chk -S -p %d -n 1" % (BIN, SMC_PORT))
        b.wait_port(SMC_PORT, job=srv)
        sink = b.bg("python3 %s %d 1" % (os.path.join(t.repo, "selftests", "tools",
                                                      "tcp_sink.py"), TCP_PORT))
        b.wait_port(TCP_PORT, job=sink)
        res = steps(a, [doctor("-j %s:%d" % (b.ip, SMC_PORT)),
                        doctor("-j %s:%d" % (b.ip, TCP_PORT))])
        rep = report(t, "probe smcx server", res[0], 0)
        finding(t, rep, "probe", "connection to %s:%d: SMC-R over rxe0 port 1"
                % (b.ip, SMC_PORT), "ok")
        # the flight recorder's account of the same handshake
        finding(t, rep, "probe", "handshake decided at Confirm", "ok")
        finding(t, rep, "probe", "CLC exchange: -> Proposal v2", "ok")
        rep = report(t, "probe TCP server", res[1], 1)
        f = finding(t, rep, "probe", "TCP fallback, reason " + PEER_NO_SMC, "fail")
        t.check("smc_run" in f["fix"], "the fix names smc_run: %s" % f["fix"])
        srv.wait(timeout=60)
        sink.wait(timeout=60)

    with t.subtest("(d) the stock smc.ko owns AF_SMC"):
        stacks.clear(a)
        a.modprobe("smc", "smc_diag")
        rep = report(t, "smc.ko", steps(a, [doctor("-j")])[0], 1)
        f = finding(t, rep, "module", "the stock smc is loaded and owns AF_SMC", "fail",
                    "modprobe -r smc_diag smc && modprobe smcx")
        t.log(f["text"])
        stacks.clear(a)
