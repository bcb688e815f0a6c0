# SPDX-License-Identifier: GPL-2.0
"""smc_chk against three servers; smc_rnics, smcd and seid against live kernels.

alpha runs smcx throughout and checks with `smc_chk -C` (JSON, and text once):
  (a) beta runs smcx and `smc_chk -S -n 1`: alpha's connection is SMC-R (exit 0)
      on rxe0 port 1, in a link group of SMC 2.1 with peer host beta; the
      server reports the accepted connection as SMC-R too (exit 0);
  (c) a plain TCP server on beta (smcx still loaded there): TCP fallback with
      reason PEER_NO_SMC and a hint naming smc_run (exit 1);
  (b) beta runs the stock smc.ko (pnet table and EIDs as stacks.load sets
      them) and `smc_chk -S -n 1`: SMC-R again (exit 0).
  A closed port cannot be tested (exit 3).
Against the live kernels, cheaply:
  - smc_rnics: rxe0 port 1 on eth0, LinkUp/ACTIVE, soft-RoCE, usable by SMC
    (smcx on alpha, no PNET ID; on beta under smc.ko the PNET ID *SMCXLAB);
  - smcd device: smcx lists its loopback device (loopback-ism, CHID ffff,
    unused) and smcd stats has no no-device note; smc.ko says in words that
    there is no SMC-D device; smcd -j linkgroup lists none;
  - smcd -j seid: no system EID; seid enable is refused with the kernel's
    EOPNOTSUPP explained (exit 1);
  - smc_chk -i eth0: no PNET ID under smcx (exit 1), SMCXLAB under smc.ko (0).
The read-only checks of a host run in one lab round trip (batch()), with a
copy of smcctl in the guest's tmpfs.
"""
import json
import os
import re

import stacks

TIMEOUT = 300
COST = 46
TIER = "main"

SMC_PORT = 5400     # smc_chk -S on beta (smcx, then smc.ko)
TCP_PORT = 5401     # a plain TCP server on beta
CLOSED_PORT = 5402  # nothing listens here

BIN = "/tmp/smc_chk_bin"

PEER_NO_SMC = 0x03010000
NO_SMCD = "No SMC-D device: the kernel reports no ISM device"

def install(t, h):
    """A copy of smcctl in the guest's tmpfs, linked under the names used here:
    the lab mounts the host over 9p without a cache, so every run of the
    build tree's binary reads its 16 MB again."""
    h.run("mkdir -p %s && cp %s %s/smcctl && for n in smc_chk smcd smc_rnics; do "
          "ln -sf smcctl %s/$n; done" % (BIN, t.tool("smcctl"), BIN, BIN))


def tool(t, name):
    return "%s/%s" % (BIN, name)


def batch(h, cmds):
    """Run shell commands on @h in one lab round trip (each costs seconds under
    TCG); returns [[rc, stdout, stderr]] in order."""
    tmp = "/tmp/smc_chk_batch"
    run = "".join("{ %s; } >%s.%d.o 2>%s.%d.e; echo $? >%s.%d.r; " % (c, tmp, i, tmp, i, tmp, i)
                  for i, c in enumerate(cmds))
    show = ("for i in $(seq 0 %d); do printf '\\036'; cat %s.$i.r; printf '\\037'; "
            "cat %s.$i.o; printf '\\037'; cat %s.$i.e; done; rm -f %s.*"
            % (len(cmds) - 1, tmp, tmp, tmp, tmp))
    out = h.run(run + show, timeout=120).out
    res = []
    for rec in out.split("\036")[1:]:
        rc, o, e = rec.split("\037")
        res.append([int(rc), o, e])
    if len(res) != len(cmds):
        raise AssertionError("%s: batch returned %d results for %d commands: %r"
                             % (h.name, len(res), len(cmds), out[:400]))
    return res


def chk_json(t, port, want_rc, res=None):
    """alpha's `smc_chk -C beta -p PORT -j` (or its batch result @res): the
    report, exit code checked."""
    if res is None:
        r = t.alpha.run(chk_cmd(t, port, "-j"), check=False, timeout=60)
        res = [r.rc, r.out, r.err]
    rc, out, err = res
    t.eq(rc, want_rc, "smc_chk -C %s -p %d exit code (stderr %r)" % (t.beta.ip, port, err.strip()))
    rep = json.loads(out)
    t.eq((rep["role"], rep["peer"]["address"], rep["peer"]["port"]),
         ("client", t.beta.ip, port), "report names the connection")
    return rep


def chk_cmd(t, port, opts=""):
    return "%s -C %s -p %d %s" % (tool(t, "smc_chk"), t.beta.ip, port, opts)


def check_smcr(t, rep, peer_host):
    t.eq((rep["mode"], rep["smc"], rep["fallback"], rep["hint"]), ("SMCR", True, None, None),
         "mode SMC-R, no fallback")
    link = rep["link"] or {}
    t.eq((link.get("ib_device"), link.get("ib_port"), link.get("role")), ("rxe0", 1, "CLNT"),
         "the link: rxe0 port 1, client")
    lg = rep["linkgroup"] or {}
    t.eq((lg.get("smc_version"), lg.get("peer_host")), ("2.1", peer_host),
         "the link group: SMC 2.1 with the peer")


def serve(t, h):
    """`smc_chk -S -n 1 -j` on @h; returns the job once it listens."""
    job = h.bg("%s -S -p %d -n 1 -j" % (tool(t, "smc_chk"), SMC_PORT))
    h.wait_port(SMC_PORT, job=job)
    return job


def check_served(t, job):
    r = job.wait(timeout=60, check=False)
    t.eq(r.rc, 0, "server exits 0 after one SMC connection (stderr %r)" % r.err.strip())
    rep = json.loads(r.out)
    t.eq((rep["role"], rep["mode"], rep["peer"]["address"]), ("server", "SMCR", t.alpha.ip),
         "server reports the accepted connection as SMC-R")


def check_rnics(t, h, res, pnetid):
    """smc_rnics (text) on @h: rxe0 port 1 on eth0, ACTIVE, usable, @pnetid."""
    rc, out, err = res
    t.check(rc == 0 and re.search(r"^rxe0\s+1\s+eth0\s+LinkUp\s+ACTIVE\s+soft-RoCE\s+-\s+%s"
                                  r"\s+yes$" % re.escape(pnetid), out, re.M),
            "%s: smc_rnics: rxe0 port 1 on eth0, ACTIVE, PNET ID %s, usable\n%s"
            % (h.name, pnetid, out))
    t.eq(err, "", "%s: smc_rnics has no note (SMC answered)" % h.name)


def check_smcx_host(t, h):
    """smc_rnics, smcd, seid and smc_chk -i on an smcx host, in one round trip."""
    rnics, smcd, chk = tool(t, "smc_rnics"), tool(t, "smcd"), tool(t, "smc_chk")
    (rn, rnj, dev, lgrj, stats, seid, enable, pnet) = batch(h, [
        rnics, rnics + " -j", smcd + " device", smcd + " -j linkgroup", smcd + " stats",
        smcd + " -j seid", smcd + " seid enable", chk + " -i eth0"])
    n = h.name
    check_rnics(t, h, rn, "-")
    d = json.loads(rnj[1])
    dev0 = [x for x in d["devices"] if x["ib_device"] == "rxe0"]
    t.check(d["smc_loaded"] and len(dev0) == 1, "%s: smc_rnics -j lists rxe0 once" % n)
    p = dev0[0]["ports"][0]
    t.eq((p["port"], p["netdev"], p["state"], p["roce"], (p["smc"] or {}).get("valid")),
         (1, "eth0", "ACTIVE", True, True), "%s: smc_rnics -j port 1" % n)

    # smcx's loopback device (smcd_views checks it with connections)
    t.check(dev[0] == 0 and re.search(r"^-\s+loopback-ism\s+-\s+ffff\s+No\s+0\s+-$", dev[1], re.M),
            "%s: smcd device lists loopback-ism: %s" % (n, dev[1]))
    t.eq([lgrj[0], json.loads(lgrj[1])], [0, {"linkgroups": []}], "%s: smcd -j linkgroup" % n)
    t.check(stats[0] == 0 and "SMC-D\n" in stats[1] and "no SMC-D device" not in stats[1],
            "%s: smcd stats has an SMC-D section without the no-device note" % n)

    t.eq([seid[0], json.loads(seid[1])], [0, {"seid": None, "enabled": None}],
         "%s: smcd -j seid" % n)
    t.eq(enable[0], 1, "%s: smcd seid enable exit code" % n)
    t.check("seid enable: not supported by the running kernel" in enable[2]
            and "ISMv2" in enable[2],
            "%s: seid enable: the kernel's EOPNOTSUPP explained: %s" % (n, enable[2].strip()))
    t.eq(pnet[:2], [1, "eth0 has no PNET ID\n"], "%s: smc_chk -i eth0 (none)" % n)


def check_inkernel_host(t, h):
    """The same, briefly, under the stock smc.ko: its PNET ID, no SMC-D."""
    rn, dev, pnet = batch(h, [tool(t, "smc_rnics"), tool(t, "smcd") + " device",
                              tool(t, "smc_chk") + " -i eth0"])
    check_rnics(t, h, rn, "*SMCXLAB")
    t.check(dev[0] == 0 and dev[1].startswith(NO_SMCD), "%s: smcd device: %s" % (h.name, dev[1]))
    t.eq(pnet[:2], [0, "SMCXLAB\n"], "%s: smc_chk -i eth0" % h.name)


def run(t):
    a, b = t.alpha, t.beta
    for h in t.hosts:       # the runner leaves no SMC module loaded
        install(t, h)
        h.insmod_smcx(stacks.SMCX_PARAMS)

    with t.subtest("smcx: smc_rnics, smcd, seid, smc_chk -i"):
        check_smcx_host(t, a)

    with t.subtest("(a) smcx server: SMC-R"):
        job = serve(t, b)
        check_smcr(t, chk_json(t, SMC_PORT, 0), "beta")
        check_served(t, job)

    with t.subtest("(c) plain TCP server: PEER_NO_SMC fallback; closed port"):
        srv = b.bg("python3 %s %d 2" % (os.path.join(t.repo, "selftests", "tools",
                                                     "tcp_sink.py"), TCP_PORT))
        b.wait_port(TCP_PORT, job=srv)
        js, text, closed = batch(a, [chk_cmd(t, TCP_PORT, "-j"), chk_cmd(t, TCP_PORT),
                                     chk_cmd(t, CLOSED_PORT)])
        rep = chk_json(t, TCP_PORT, 1, js)
        t.eq((rep["mode"], rep["smc"], rep["link"]), ("TCP", False, None), "mode TCP")
        t.eq(rep["fallback"]["reason"]["code"], PEER_NO_SMC, "reason PEER_NO_SMC")
        t.check(rep["hint"]["for"] == "local" and "smc_run" in rep["hint"]["text"],
                "hint names smc_run: %s" % rep["hint"])
        t.eq(text[0], 1, "text form exit code")
        t.check("TCP fallback" in text[1] and "Reason: PEER_NO_SMC (0x03010000)" in text[1]
                and "Hint: the peer does not use SMC" in text[1], "text form:\n" + text[1])
        t.eq(closed[0], 3, "closed port: no test possible")
        t.check("Connection refused" in closed[2], "closed port: says why: %s" % closed[2])
        srv.wait(timeout=60)

    stacks.load(b, stacks.INKERNEL, a, stacks.SMCX)
    with t.subtest("(b) stock smc.ko server: SMC-R"):
        job = serve(t, b)
        check_smcr(t, chk_json(t, SMC_PORT, 0), "beta")
        check_served(t, job)

    with t.subtest("smc.ko: smc_rnics, smcd, smc_chk -i"):
        check_inkernel_host(t, b)
