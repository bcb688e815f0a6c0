# SPDX-License-Identifier: GPL-2.0
"""smcctl's monitoring commands against the stock in-kernel SMC (smc.ko).

Both hosts run smc.ko configured for SMC-Rv2 over rxe0.  alpha holds one
SMC-R connection to beta open (build/tools/hold: data verified both ways,
then held idle until released, then verified again and closed; nothing is
killed mid-stream) and a second AF_SMC connection to a plain TCP server on
beta that falls back (smcctl_live.Live).  Meanwhile the test checks:
  - smcss -a shows the held socket in mode SMCR on both ends, and the
    fallback socket in mode TCP with its CLC decline code and name;
  - smcss -l shows an IPv4 and an IPv6 AF_SMC listener with the right family;
  - smcss -R shows the link: role, rxe0, port 1, both GIDs;
  - smcss -d shows buffers and cursors;
  - smcr linkgroup / link-show show a link group with the peer (-d: peer host
    name, negotiated EID), its link on eth0/rxe0, LINK_ACTIVE;
  - smcr device shows rxe0 port 1 on eth0 with the lab PNET ID;
  - smcr stats byte counters grew with the held connection's data (and grow
    again with its second exchange after the release);
  - --json of every command parses and agrees with the text output;
  - smc_dbg writes an archive holding the expected files;
  - as user nobody, admin commands fail with a permission error and a
    non-zero exit while read commands succeed.
The same live checks against smcx are in smcctl_smcx.
"""
import json

import scenarios
import smcctl_live as live
from smcctl_live import find_row, header, jout, rows, socket_rows, tool

# The stock smc.ko alone: validates the test logic (make check-reference).
TIER = "reference"
TIMEOUT = 600

SRV_PORT = 5100     # hold server on beta, the held SMC-R connection
TCP_PORT = 5101     # plain TCP server on beta: the AF_SMC client falls back
LISTEN4 = 5102      # AF_SMC IPv4 listener on beta, never connected
LISTEN6 = 5103      # AF_SMC IPv6 listener on beta, never connected

AS_NOBODY = "cd /tmp && setpriv --reuid=nobody --regid=nogroup --clear-groups "


def run(t):
    a, b = t.alpha, t.beta
    for h in (a, b):
        scenarios.setup_inkernel_smc(h)
    prof = live.INKERNEL
    with live.Live(t, SRV_PORT, TCP_PORT, (("smc", LISTEN4), ("smc6", LISTEN6))) as lv:
        live.check_smcss(t, lv, prof)
        stock_checks(t, a, b, lv.peer_smc)
        live.check_linkgroup(t, lv, prof)
        live.check_device(t, lv, prof)
        live.check_stats_live(t, lv, prof)
        dbg_and_perms(t, a, lv.peer_smc)
    live.check_stats_after(t, lv, prof)


def stock_checks(t, a, b, peer_smc):
    with t.subtest("smcss -l: IPv4 and IPv6 listeners"):
        out = b.out("%s -l" % tool("smcss"))
        t.log(out)
        rws = rows(out)
        t.check(all(r[0] == "LISTEN" for r in rws), "only listeners")
        t.check(find_row(rws, "0.0.0.0:%d" % LISTEN4) is not None, "IPv4 wildcard listener")
        t.check(find_row(rws, ":::%d" % LISTEN6) is not None, "IPv6 wildcard listener")
        t.check(find_row(socket_rows(b, ""), "0.0.0.0:%d" % LISTEN4) is None,
                "listeners are not in the default listing")

    with t.subtest("smcss -d: buffers and cursors"):
        out = a.out("%s -d" % tool("smcss"))
        t.log(out)
        for col in ("ShutD", "Token", "Sndbuf", "Rcvbuf", "Peerbuf", "txprep-Cursor",
                    "txfin-Cursor"):
            t.check(col in header(out), "smcss -d header has %s" % col)
        r = find_row(rows(out), peer_smc)
        t.check(r is not None and len(r) == 21 and r[7] == "<->",
                "SMC-R row has all 14 detail cells: %s" % r)

    with t.subtest("smcss -l --json: listener families"):
        for args in ("-l", "-a"):
            text = rows(b.out("%s %s" % (tool("smcss"), args)))
            js = jout(b, "%s %s --json" % (tool("smcss"), args))["sockets"]
            t.eq(sorted(s["inode"] for s in js), sorted(int(r[2]) for r in text),
                 "beta smcss %s: same sockets in JSON and text" % args)
        js = jout(b, "%s -l --json" % tool("smcss"))["sockets"]
        fam = {s["local"]["port"]: s["family"] for s in js}
        t.eq((fam.get(LISTEN4), fam.get(LISTEN6)), ("inet", "inet6"), "JSON: listener families")


def dbg_and_perms(t, a, peer_smc):
    with t.subtest("smc_dbg bundle"):
        res = a.run("%s -o /tmp/smcctl-dbg.tar.gz" % tool("smc_dbg"), timeout=300)
        t.eq(res.out.strip(), "/tmp/smcctl-dbg.tar.gz", "smc_dbg prints the archive path")
        names = a.out("tar -tzf /tmp/smcctl-dbg.tar.gz").split()
        files = {n.split("/", 1)[1] for n in names if "/" in n and not n.endswith("/")}
        want = {"summary.txt", "smcss_all.txt", "smcss.json", "smcr_info.txt", "smcr_stats.txt",
                "smcr_stats.json", "smcr_linkgroups.txt", "smcr_links.txt",
                "smcr_devices.txt", "pnet_table.txt", "ueid.txt", "sysctl_net_smc.txt",
                "rdma_link.txt", "rdma_resource.txt", "ip_link.txt", "ip_addr.txt",
                "modules.txt", "kernel_log.txt"}
        t.check(want <= files, "archive holds %s (missing: %s)" % (
            ", ".join(sorted(want)), ", ".join(sorted(want - files)) or "none"))
        summary = a.out("tar -xzOf /tmp/smcctl-dbg.tar.gz --wildcards '*/summary.txt'")
        t.log(summary)
        ss_all = a.out("tar -xzOf /tmp/smcctl-dbg.tar.gz --wildcards '*/smcss_all.txt'")
        t.check(peer_smc in ss_all and "SMCR" in ss_all, "bundle's smcss shows the held connection")
        sysctl = a.out("tar -xzOf /tmp/smcctl-dbg.tar.gz --wildcards '*/sysctl_net_smc.txt'")
        t.check("net.smc.wmem" in sysctl, "bundle has the net.smc sysctls")
        klog = a.out("tar -xzOf /tmp/smcctl-dbg.tar.gz --wildcards '*/kernel_log.txt'")
        t.check("smc" in klog and "rxe0" in klog, "bundle has SMC/rxe kernel log lines")
        json.loads(a.out("tar -xzOf /tmp/smcctl-dbg.tar.gz --wildcards '*/smcr_linkgroups.json'"))
        a.run("rm -f /tmp/smcctl-dbg.tar.gz")

    with t.subtest("admin commands need CAP_NET_ADMIN"):
        for cmd in ("%s -a NOBODY -I eth0" % tool("smc_pnet"),
                    "%s ueid add NOBODY-UEID" % tool("smcr"),
                    "%s ueid flush" % tool("smcr"),
                    "%s -f" % tool("smc_pnet")):
            r = a.run(AS_NOBODY + cmd, check=False)
            t.check(r.rc != 0 and "permission denied" in r.err,
                    "as nobody: %s -> rc %s: %s" % (cmd.split("/")[-1], r.rc, r.err.strip()))
        for cmd in ("%s -s" % tool("smc_pnet"), "%s ueid show" % tool("smcr"),
                    "%s info" % tool("smcr"), "%s -a stats" % tool("smcr"),
                    "%s -a" % tool("smcss"), "%s linkgroup" % tool("smcr"),
                    "%s device" % tool("smcr")):
            r = a.run(AS_NOBODY + cmd, check=False)
            t.check(r.rc == 0, "as nobody: %s works (rc %s %s)" % (
                cmd.split("/")[-1], r.rc, r.err.strip()))
        pnet = a.out("%s -s" % tool("smc_pnet"))
        t.check("NOBODY" not in pnet and scenarios.LAB_PNETID in pnet, "PNET table unchanged")
        t.check(scenarios.LAB_UEID in a.out("%s ueid show" % tool("smcr")), "UEID table unchanged")
