# SPDX-License-Identifier: GPL-2.0
"""SMC-D over the loopback device as the views show it (docs/smcctl.md).

smcx on alpha alone, nothing configured; build/tools/hold holds two AF_SMC
connections over 127.0.0.1 (both ends on alpha, data verified both ways
before and after the hold), so alpha has one SMC-D client group and one
server group, two connections each.  While they are held:

- device/: smcd device lists loopback-ism (CHID ffff, in use, 2 groups),
  text and --json; smcd info says ISM v2 and one ISM device;
- linkgroup/: smcd linkgroup lists both groups with 2 connections each,
  both GIDs the same 128-bit loopback GID, CHID ffff, SMC 2, peer host
  alpha and smcx's default user EID (-d and --json), 2 x 64 KiB of DMBs
  and 1 or 2 send buffers of 64 KiB each (mainline's DMB_ALLOC,
  SNDBUF_ALLOC; an attached sender pools its own at once); smcr
  linkgroup has none of them;
- sockets/: smcss -a and smcctl ss --json say SMCD for the 4 held sockets;
- stats/: smcd stats counts the held exchange's bytes (SMC-D RX and TX
  grew by at least 2 x 1 MiB each) and smcr stats' SMC-R bytes did not
  move; text equals --json; the connections by technology: SMC-D 4,
  SMC-R 0 (a handshake's success counts in the socket's own block);
- after/: once released, SMC-D bytes grew again by the second exchange
  and SMC-R's still did not move;
- calls/: one IPPROTO_SMC connection over 127.0.0.1 by
  selftests/tools/statsxfer.py (TCP_NODELAY on, TCP_CORK on and off, one
  urgent byte, a 16-byte splice on the server): the SMC-D block counts
  nodelay, cork, urgent data and splice +1 each and both ends' buffers (2
  RMBs, 2 send buffers, pooled or new); the SMC-R block's special calls
  and buffer counters do not move;
- sysctl/: net.smc.smcx_loopback=0 in the reader's namespace still lists
  the device (the sysctl governs handshakes, not the device);
- smcr0/: with module parameter smcr=0 no device is listed and info says
  no ISM v2;
- upstream/: the smc-tools binaries, where the guest has them, list the
  same device and groups (the lab installs none: a skip says so).
"""
import json
import os
import re

import scenarios
import smcr_cases
import stacks

TIMEOUT = 420
COST = 35
PORT = 23700
CONNS = 2
NBYTES = 1 << 20
LO_CHID = 0xFFFF
BUF = 64 << 10          # net.smc.rmem / wmem, mainline's default
UEID = "SMCX-DEFAULT-UEID"


class Local:
    """alpha seen as a peer at 127.0.0.1: hold's server and client share it."""

    def __init__(self, h):
        self._h = h
        self.ip = "127.0.0.1"

    def __getattr__(self, name):
        return getattr(self._h, name)


def jout(h, cmd):
    return json.loads(h.out(cmd))


def tech_bytes(st, tech):
    return st[tech]["rx"]["bytes"], st[tech]["tx"]["bytes"]


# the special calls, and the buffers taken (alloc + reuse) per direction
CALLS = ("special_calls.nodelay", "special_calls.cork", "special_calls.urgent_data",
         "special_calls.splice", "special_calls.sendpage")


def calls_moved(st0, st1, tech):
    d = stacks.json_diff(st0[tech], st1[tech])
    taken = tuple(d.get("%s.buffer.alloc" % s, 0) + d.get("%s.buffer.reuse" % s, 0)
                  for s in ("rx", "tx"))
    return tuple(d.get(k, 0) for k in CALLS) + taken


def check_device(t, a, groups):
    smcd = scenarios.tool("smcd")
    devs = jout(a, "%s -j device" % smcd)["devices"]
    t.eq(len(devs), 1, "smcd -j device: one device")
    if not devs:
        return
    d = devs[0]
    t.eq((d["type"], d["pci"]["chid"], d["use_cnt"], d["critical"]),
         ("loopback-ism", LO_CHID, groups, groups > 0), "smcd -j device: type, chid, use, crit")
    t.eq([p["pnetid"] for p in d["ports"]], [None], "one port, no PNET ID")
    text = a.out("%s device" % smcd)
    row = re.search(r"^-\s+loopback-ism\s+-\s+ffff\s+(Yes|No)\s+(\d+)\s+-$", text, re.M)
    t.check(row and row.groups() == ("Yes" if groups else "No", str(groups)),
            "smcd device text row:\n" + text)


def check_linkgroups(t, a):
    smcd = scenarios.tool("smcd")
    lgs = jout(a, "%s -j linkgroup" % smcd)["linkgroups"]
    t.log(json.dumps(lgs))
    t.eq(sorted(g["conns"] for g in lgs), [CONNS, CONNS], "two groups, %d conns each" % CONNS)
    t.eq(len({g["id"] for g in lgs}), len(lgs), "distinct group ids")
    for g in lgs:
        t.check(g["gid"] == g["peer_gid"] and g["gid_ext"] and
                g["gid_ext"] == g["peer_gid_ext"] and g["gid"] != "0" * 16,
                "the peer is this host: both GIDs the loopback GID: %s" % g)
        t.eq((g["chid"], g["vlan"], g["pnetid"]), (LO_CHID, 0, None), "CHID ffff, no VLAN/PNET")
        t.eq(g["dmb_alloc"], CONNS * BUF, "%s: the DMB bytes of %d connections"
             % (g["id_hex"], CONNS))
        # an attached sender pools its own send buffer at once, so the
        # group's second connection may take the first one's
        t.check(g["sndbuf_alloc"] in range(BUF, CONNS * BUF + 1, BUF),
                "%s: send buffer bytes %s: 1 to %d buffers of %d"
                % (g["id_hex"], g["sndbuf_alloc"], CONNS, BUF))
        v2 = g["v2"] or {}
        t.eq((v2.get("version"), v2.get("peer_host"), v2.get("negotiated_eid")),
             (2, "alpha", UEID), "first contact facts of %s" % g["id_hex"])
    text = a.out("%s -d linkgroup" % smcd)
    for g in lgs:
        t.check(re.search(r"^%s\s+0\s+%d\s+-\s+%s%s\s+%s%s\s+ffff\s+2\.\d\s+Linux\s+alpha\s+%s$"
                          % (g["id_hex"], CONNS, g["gid"], g["gid_ext"], g["peer_gid"],
                             g["peer_gid_ext"], UEID), text, re.M),
                "smcd -d linkgroup row of %s:\n%s" % (g["id_hex"], text))
    t.eq(stacks.linkgroups(a), [], "smcr linkgroup lists no SMC-D group")
    return lgs


def run(t):
    a = t.alpha
    stacks.clear(a)
    a.insmod_smcx()
    smcd, smcr, smcctl = (scenarios.tool(n) for n in ("smcd", "smcr", "smcctl"))
    lo = Local(a)

    with t.subtest("device/idle"):
        check_device(t, a, 0)
        t.eq(jout(a, "%s -j linkgroup" % smcd)["linkgroups"], [], "no SMC-D group yet")

    before = jout(a, "%s --json stats" % smcctl)
    with smcr_cases.Held(t, lo, lo, PORT, CONNS, NBYTES, family="smc", timeout=120):
        with t.subtest("device/held"):
            check_device(t, a, 2)
            info = jout(a, "%s --json info" % smcd)
            t.eq((info.get("ism_v2"), info.get("smcd_devices"), info.get("seid")),
                 (True, 1, None), "smcd info: ISM v2, one device, no system EID")
            t.eq(jout(a, "%s -j seid" % smcd), {"seid": None, "enabled": None},
                 "smcd -j seid: none")
        with t.subtest("linkgroup"):
            check_linkgroups(t, a)
        with t.subtest("sockets"):
            socks = stacks.sockets(a, PORT)
            held = [s for s in socks if s.get("state") != "LISTEN"]
            t.eq(sorted(s["mode"] for s in held), ["SMCD"] * (2 * CONNS),
                 "smcss --json: the held sockets are SMCD")
            ss = jout(a, "%s ss -a --json" % smcctl)["sockets"]
            t.eq(len([s for s in ss if s["mode"] == "SMCD"]), 2 * CONNS, "smcctl ss --json")
            text = a.out("%s -a" % stacks.smcss())
            t.eq(len([ln for ln in text.splitlines()
                      if (":%d " % PORT) in ln and ln.rstrip().endswith("SMCD")]), 2 * CONNS,
                 "smcss -a text rows ending in SMCD:\n" + text)
        with t.subtest("stats"):
            held = jout(a, "%s --json stats" % smcctl)
            d0, d1 = tech_bytes(before, "smcd"), tech_bytes(held, "smcd")
            t.check(all(n1 - n0 >= CONNS * NBYTES for n0, n1 in zip(d0, d1)),
                    "SMC-D rx/tx bytes grew by >= %d: %s -> %s" % (CONNS * NBYTES, d0, d1))
            t.eq(tech_bytes(held, "smcr"), tech_bytes(before, "smcr"), "SMC-R bytes unmoved")
            t.eq(jout(a, "%s -j stats" % smcd)["smcd"], held["smcd"],
                 "smcd -j stats: the same SMC-D block")
            text = a.out("%s stats" % smcd)
            t.check("no SMC-D device" not in text, "no 'no device' note:\n" + text)
            dd = held["smcd"]["connections"] - before["smcd"]["connections"]
            dr = held["smcr"]["connections"] - before["smcr"]["connections"]
            t.eq((dd, dr), (2 * CONNS, 0), "connections by technology (SMC-D, SMC-R)")

    with t.subtest("after"):
        after = jout(a, "%s --json stats" % smcctl)
        d1, d2 = tech_bytes(held, "smcd"), tech_bytes(after, "smcd")
        t.check(all(n2 - n1 >= CONNS * NBYTES for n1, n2 in zip(d1, d2)),
                "second exchange counted as SMC-D: %s -> %s" % (d1, d2))
        t.eq(tech_bytes(after, "smcr"), tech_bytes(before, "smcr"), "SMC-R bytes still unmoved")

    with t.subtest("calls"):
        tool = "python3 %s" % os.path.join(t.repo, "selftests", "tools", "statsxfer.py")
        st0 = jout(a, "%s --json stats" % smcctl)
        srv = a.bg("%s server %d 65536 splice" % (tool, PORT + 1))
        a.wait_port(PORT + 1)
        cli = json.loads(a.out("%s client 127.0.0.1 %d %d" % (tool, PORT + 1, NBYTES),
                               timeout=120))
        sv = json.loads(srv.wait(timeout=120).out)
        t.eq((cli["sent"], sv["received"], cli["oob"], sv["splice"]),
             (NBYTES, NBYTES, "sent", "data"), "statsxfer over 127.0.0.1: payload, urgent, splice")
        st1 = jout(a, "%s --json stats" % smcctl)
        dd, dr = calls_moved(st0, st1, "smcd"), calls_moved(st0, st1, "smcr")
        t.log("(nodelay, cork, urgent, splice, sendpage, RMBs, send buffers) moved: "
              "SMC-D %s, SMC-R %s" % (dd, dr))
        t.eq(dd, (1, 1, 1, 1, 0, 2, 2),
             "SMC-D: nodelay, cork, urgent, splice +1; 2 RMBs and 2 send buffers taken")
        t.eq(dr, (0,) * 7, "SMC-R special calls and buffers unmoved")

    with t.subtest("sysctl"):
        a.out("sysctl -qw net.smc.smcx_loopback=0")
        try:
            # the released groups may still linger: the count is not checked
            devs = jout(a, "%s -j device" % smcd)["devices"]
            t.eq([(d["type"], d["pci"]["chid"]) for d in devs], [("loopback-ism", LO_CHID)],
                 "smcx_loopback=0: the device is still listed")
        finally:
            a.out("sysctl -qw net.smc.smcx_loopback=1")

    with t.subtest("upstream"):
        r = a.run("dpkg-query -W -f '${Version}' smc-tools", check=False)
        if r.rc != 0:
            t.skip("smc-tools is not installed in the guest: upstream binaries not run")
        dev = a.run("/usr/sbin/smcd device", check=False)
        t.check(dev.rc == 0 and "ffff" in dev.out.lower(), "upstream smcd device:\n" + dev.out)

    with t.subtest("smcr0"):
        a.rmmod("smcx")
        a.insmod_smcx("smcr=0")
        t.eq(jout(a, "%s -j device" % smcd)["devices"], [], "smcr=0: no device")
        t.eq(jout(a, "%s --json info" % smcd).get("ism_v2"), False, "smcr=0: no ISM v2")
