# SPDX-License-Identifier: GPL-2.0
"""smcctl's monitoring commands against the stock in-kernel SMC (smc.ko).

Both hosts run smc.ko configured for SMC-Rv2 over rxe0.  While a long SMC-R
transfer runs from alpha to beta (and a second AF_SMC connection from alpha
falls back to TCP, because its server is plain TCP), the test checks:
  - smcss -a shows the transfer's socket in mode SMCR on both ends, and the
    fallback socket (its server accepts and never reads, so it stays
    connected) in mode TCP with its CLC decline code and name;
  - smcss -l shows an IPv4 and an IPv6 AF_SMC listener with the right family;
  - smcss -R shows the link: role, rxe0, port 1, the peer's GID;
  - smcr linkgroup / link-show show a link group with the peer (-d: peer host
    name, negotiated EID), its link on eth0/rxe0, LINK_ACTIVE;
  - smcr device shows rxe0 port 1 on eth0 with the lab PNET ID;
  - smcr stats byte counters grow between two reads;
  - --json of every command parses and agrees with the text output;
  - smc_dbg writes an archive holding the expected files;
  - as user nobody, admin commands fail with a permission error and a
    non-zero exit while read commands succeed.
"""
import json
import time

import scenarios

TIMEOUT = 600

SRV_PORT = 5100     # SMC server on beta, the long transfer
TCP_PORT = 5101     # plain TCP server on beta: the AF_SMC client falls back
LISTEN4 = 5102      # AF_SMC IPv4 listener on beta, never connected
LISTEN6 = 5103      # AF_SMC IPv6 listener on beta, never connected

AS_NOBODY = "cd /tmp && setpriv --reuid=nobody --regid=nogroup --clear-groups "


def tool(name):
    return scenarios.tool(name)


def rows(text):
    """Data rows of a column table, each split on whitespace."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return [ln.split() for ln in lines[1:]]


def header(text):
    return text.splitlines()[0] if text.strip() else ""


def jout(h, cmd):
    return json.loads(h.out(cmd))


def socket_rows(h, args):
    return rows(h.out("%s %s" % (tool("smcss"), args)))


def find_row(rws, *needles):
    for r in rws:
        if all(n in r for n in needles):
            return r
    return None


# Two CI-style runs out of five lost a guest in this test with only the stock
# smc.ko loaded (an "Oops: double fault" in kmem_cache_alloc_node from an
# interrupt on the server, and once a single-step #DB WARN), while every other
# in-kernel SMC-R test stayed clean.  Suspect: killing the 4 GiB / 1 KiB-chunk
# SMC-R stream below mid-flight.  Until the test holds its connection with
# build/tools/hold instead, it runs only with --pending.
PENDING = ("issue 7: rework the live-transfer setup (aborting a 1 KiB-chunk SMC-R "
           "stream crashed the stock smc.ko guest twice)")


def run(t):
    a, b = t.alpha, t.beta
    for h in (a, b):
        scenarios.setup_inkernel_smc(h)

    xfer = scenarios.XFER
    jobs = []
    try:
        jobs.append(b.bg("%s server -f smc -p %d -c 1" % (xfer, SRV_PORT)))
        # A plain TCP server that accepts and never reads: the AF_SMC client falls back to
        # TCP, fills the window and then sits there, connected, until killed.
        jobs.append(b.bg("python3 -c 'import socket, time\n"
                         "s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, "
                         "socket.SO_REUSEADDR, 1)\n"
                         "s.bind((\"\", %d)); s.listen(1); c = s.accept(); time.sleep(3600)'"
                         % TCP_PORT))
        jobs.append(b.bg("%s server -f smc -p %d -c 1" % (xfer, LISTEN4)))
        jobs.append(b.bg("%s server -f smc6 -p %d -c 1" % (xfer, LISTEN6)))
        for p in (SRV_PORT, TCP_PORT, LISTEN4, LISTEN6):
            b.wait_port(p)
        # Long enough to outlast the checks at TCG speed (small chunks, 4 GiB); killed after.
        jobs.append(a.bg("%s client -f smc -a %s -p %d -n 4G -b 1K -m send"
                         % (xfer, b.ip, SRV_PORT)))
        jobs.append(a.bg("%s client -f smc -a %s -p %d -n 1G -m send"
                         % (xfer, b.ip, TCP_PORT)))
        peer_smc = "%s:%d" % (b.ip, SRV_PORT)
        peer_tcp = "%s:%d" % (b.ip, TCP_PORT)

        def both_up():
            r = socket_rows(a, "-a")
            return find_row(r, peer_smc) and find_row(r, peer_tcp)
        t.check(scenarios.wait_for(both_up, timeout=60),
                "alpha: both AF_SMC connections appear in smcss -a")
        checks(t, a, b, peer_smc, peer_tcp)
    finally:
        for j in jobs:
            j.kill()


def checks(t, a, b, peer_smc, peer_tcp):
    with t.subtest("smcss shows SMC-R and fallback sockets"):
        out = a.out("%s -a" % tool("smcss"))
        t.log(out)
        hdr = header(out)
        for col in ("State", "UID", "Inode", "Local Address", "Peer Address", "Intf", "Mode"):
            t.check(col in hdr, "smcss header has %s" % col)
        r = find_row(rows(out), peer_smc)
        t.check(r is not None and r[0] == "ACTIVE" and r[6] == "SMCR",
                "alpha: transfer socket ACTIVE in mode SMCR: %s" % r)
        r = find_row(rows(out), peer_tcp)
        t.check(r is not None and r[0] == "ACTIVE" and r[6] == "TCP" and r[7].startswith("0x"),
                "alpha: fallback socket in mode TCP with its decline code: %s" % r)
        t.check("(PEER_NO_SMC)" in r, "fallback reason named PEER_NO_SMC: %s" % r)
        # The server side of the transfer.
        rb = find_row(socket_rows(b, ""), "%s:%d" % (b.ip, SRV_PORT))
        t.check(rb is not None and rb[0] == "ACTIVE" and rb[6] == "SMCR",
                "beta: accepted socket ACTIVE in mode SMCR: %s" % rb)

    with t.subtest("smcss -l: IPv4 and IPv6 listeners"):
        out = b.out("%s -l" % tool("smcss"))
        t.log(out)
        rws = rows(out)
        t.check(all(r[0] == "LISTEN" for r in rws), "only listeners")
        t.check(find_row(rws, "0.0.0.0:%d" % LISTEN4) is not None, "IPv4 wildcard listener")
        t.check(find_row(rws, "[::]:%d" % LISTEN6) is not None, "IPv6 wildcard listener")
        t.check(find_row(socket_rows(b, ""), "0.0.0.0:%d" % LISTEN4) is None,
                "listeners are not in the default listing")

    with t.subtest("smcss -R: the link of the socket"):
        out = a.out("%s -R" % tool("smcss"))
        t.log(out)
        for col in ("Role", "IB-Device", "Port", "Linkid", "GID", "Peer-GID"):
            t.check(col in header(out), "smcss -R header has %s" % col)
        r = find_row(rows(out), peer_smc)
        t.check(r is not None and r[7:10] == ["CLNT", "rxe0", "1"],
                "alpha: client link on rxe0 port 1: %s" % r)
        t.check(r[-1].endswith("c612:0002"), "alpha: peer GID is beta's (198.18.0.2)")
        t.check(find_row(rows(out), peer_tcp) is None, "-R leaves out the fallback socket")
        rb = find_row(socket_rows(b, "-R"), "%s:%d" % (b.ip, SRV_PORT))
        t.check(rb is not None and rb[7:9] == ["SERV", "rxe0"], "beta: server link: %s" % rb)

    with t.subtest("smcss -d: buffers and cursors"):
        out = a.out("%s -d" % tool("smcss"))
        t.log(out)
        for col in ("ShutD", "Token", "Sndbuf", "Rcvbuf", "Peerbuf", "txprep-Cursor",
                    "txfin-Cursor"):
            t.check(col in header(out), "smcss -d header has %s" % col)
        r = find_row(rows(out), peer_smc)
        t.check(r is not None and len(r) == 21 and r[7] == "<->",
                "SMC-R row has all 14 detail cells: %s" % r)

    with t.subtest("smcss --json agrees with the text"):
        for h, args in ((a, "-a"), (b, "-a"), (b, "-l"), (a, "-R")):
            text = rows(h.out("%s %s" % (tool("smcss"), args)))
            js = jout(h, "%s %s --json" % (tool("smcss"), args))["sockets"]
            t.eq(sorted(s["inode"] for s in js), sorted(int(r[2]) for r in text),
                 "%s smcss %s: same sockets in JSON and text" % (h.name, args))
        js = jout(a, "%s -a --json" % tool("smcss"))["sockets"]
        smc = [s for s in js if s["peer"]["port"] == SRV_PORT]
        fb = [s for s in js if s["peer"]["port"] == TCP_PORT]
        t.check(len(smc) == 1 and smc[0]["mode"] == "SMCR" and smc[0]["link"]["ib_device"] ==
                "rxe0" and smc[0]["conninfo"]["sndbuf_size"] > 0,
                "JSON: SMC-R socket with link and connection info")
        t.check(len(fb) == 1 and fb[0]["mode"] == "TCP" and
                fb[0]["fallback"]["reason"]["name"] == "PEER_NO_SMC",
                "JSON: fallback socket with reason PEER_NO_SMC")
        js = jout(b, "%s -l --json" % tool("smcss"))["sockets"]
        fam = {s["local"]["port"]: s["family"] for s in js}
        t.eq((fam.get(LISTEN4), fam.get(LISTEN6)), ("inet", "inet6"), "JSON: listener families")

    with t.subtest("smcr linkgroup"):
        for h, role, peer in ((a, "CLNT", "beta"), (b, "SERV", "alpha")):
            out = h.out("%s linkgroup" % tool("smcr"))
            t.log(out)
            rws = rows(out)
            t.check(len(rws) >= 1, "%s: a link group" % h.name)
            r = find_row(rws, role)
            t.check(r is not None and r[2] == "SINGLE" and int(r[4]) >= 1 and
                    r[5] == scenarios.LAB_PNETID,
                    "%s: %s link group, SINGLE, >= 1 connection, PNET ID: %s" % (h.name, role, r))
            d = rows(h.out("%s -d linkgroup" % tool("smcr")))
            rd = find_row(d, role)
            t.check(rd is not None and peer in rd and scenarios.LAB_UEID in rd and "2.1" in rd,
                    "%s: -d shows SMC 2.1, peer host %s, the UEID: %s" % (h.name, peer, rd))
            js = jout(h, "%s linkgroup --json" % tool("smcr"))["linkgroups"]
            t.eq(sorted(g["id_hex"] for g in js), sorted(r[0] for r in rws),
                 "%s: same link groups in JSON and text" % h.name)
            g = [g for g in js if g["role"] == role][0]
            t.check(g["v2"]["peer_host"] == peer and g["links"] and
                    g["links"][0]["ib_device"] == "rxe0", "%s: JSON link group with v2 and links"
                    % h.name)
        out = a.out("%s linkgroup link-show -dd" % tool("smcr"))
        t.log(out)
        r = find_row(rows(out), "CLNT")
        t.check(r is not None and r[3] == "eth0" and r[4] == "LINK_ACTIVE" and "rxe0" in r and
                r[-1].endswith("c612:0002"),
                "alpha: link on eth0/rxe0, LINK_ACTIVE, peer GID of beta: %s" % r)

    with t.subtest("smcr device"):
        for h in (a, b):
            out = h.out("%s device" % tool("smcr"))
            t.log(out)
            r = find_row(rows(out), "rxe0")
            t.check(r is not None and r[0] == "eth0" and r[2] == "1" and r[3] == "ACTIVE" and
                    r[-1] == "*" + scenarios.LAB_PNETID and int(r[-2]) >= 1,
                    "%s: rxe0 port 1 on eth0, ACTIVE, user PNET ID, in use: %s" % (h.name, r))
            js = jout(h, "%s device --json" % tool("smcr"))["devices"]
            ports = [(d["ib_device"], p["netdev"]) for d in js for p in d["ports"] if p["valid"]]
            t.eq(sorted(ports), sorted((r[1], r[0]) for r in rows(out)),
                 "%s: same device ports in JSON and text" % h.name)

    with t.subtest("smcr stats counters grow"):
        s1 = jout(a, "%s -a -j stats" % tool("smcr"))
        r1 = jout(b, "%s -a -j stats" % tool("smcr"))
        time.sleep(3)
        s2 = jout(a, "%s -a -j stats" % tool("smcr"))
        r2 = jout(b, "%s -a -j stats" % tool("smcr"))
        t.log("alpha tx %d -> %d, beta rx %d -> %d" % (
            s1["smcr"]["tx"]["bytes"], s2["smcr"]["tx"]["bytes"],
            r1["smcr"]["rx"]["bytes"], r2["smcr"]["rx"]["bytes"]))
        t.check(s2["smcr"]["tx"]["bytes"] > s1["smcr"]["tx"]["bytes"],
                "alpha: SMC-R tx bytes grow during the transfer")
        t.check(r2["smcr"]["rx"]["bytes"] > r1["smcr"]["rx"]["bytes"],
                "beta: SMC-R rx bytes grow during the transfer")
        t.check(s2["fallbacks"]["clnt"] >= 1, "alpha: the client fallback is counted")
        text = a.out("%s -a stats" % tool("smcr"))
        t.check("SMC-R" in text and "TCP fallbacks" in text, "text statistics print")

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
        t.check(peer_smc in ss_all and "SMCR" in ss_all, "bundle's smcss shows the transfer")
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
