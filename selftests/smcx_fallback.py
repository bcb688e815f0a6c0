# SPDX-License-Identifier: GPL-2.0
"""smcx against a peer without SMC: instant TCP, not one CLC byte.

smcx client -> plain TCP server (beta has no SMC at all):
  - alpha's SYN carries the SMC experimental option (kind 254, magic
    e2d4c3d9), beta's SYN-ACK does not;
  - no CLC handshake is started (clnt_hs_started unchanged), the fallback is
    counted with reason PEERNOSMC;
  - the capture holds no CLC eyecatcher in any payload and the first payload
    byte alpha sends is the application's (xfer's header magic);
  - the data arrives verified both ways.
plain TCP client -> smcx server, the mirror image: srv reason PEERNOSMC, no
CLC byte from the server.
The runner then checks that smcx left no object behind and unloads.
"""
import os
import re
import time

import scenarios

TIMEOUT = 300
PORT = 5300
SMC_OPT = "fe06e2d4c3d9"		# kind 254, len 6, SMC magic (EBCDIC "SMCR")
EYECATCHER = "e2d4c3d9"
XFER_MAGIC = "58464552"			# xfer's header magic, "XFER" in network order


def stats(h):
    out = h.out("cat /sys/kernel/debug/smcx/stats")
    return {k: int(v) for k, v in (ln.split() for ln in out.splitlines())}


def delta(before, after, key):
    return after.get(key, 0) - before.get(key, 0)


class Capture:
    """dumpcap on eth0 for one port; stop() ends it cleanly (SIGINT)."""

    def __init__(self, h, port, pcap):
        self.h, self.pcap, self.pidf = h, pcap, pcap + ".pid"
        h.run("rm -f %s %s" % (pcap, self.pidf))
        self.job = h.bg("dumpcap -q -i eth0 -f 'tcp port %d' -w %s & echo $! > %s; wait"
                        % (port, pcap, self.pidf))
        scenarios.wait_for(lambda: h.run("test -s %s" % pcap, check=False).ok, timeout=20)
        time.sleep(1)		# the file exists before the filter is attached

    def stop(self):
        self.h.run("kill -INT $(cat %s)" % self.pidf)
        self.job.wait(timeout=30, check=False)


def packets(h, pcap):
    """(src, flags, options hex, payload hex) per TCP packet of a capture."""
    out = h.out("tshark -r %s -T fields -E 'separator=|' -e ip.src -e tcp.flags "
                "-e tcp.options -e tcp.payload 2>/dev/null" % pcap)
    rows = []
    for ln in out.splitlines():
        src, flags, opts, payload = (ln.split("|") + ["", "", "", ""])[:4]
        rows.append((src, int(flags, 16), opts.replace(":", ""), payload.replace(":", "")))
    return rows


def check_no_clc(t, h, pcap, smc_side, plain_side, first_sender):
    rows = packets(h, pcap)
    t.check(rows, "capture has packets")
    syn = [r for r in rows if r[1] & 0x12 == 0x02]
    synack = [r for r in rows if r[1] & 0x12 == 0x12]
    t.check(syn and synack, "capture has the SYN and the SYN-ACK")
    # the SYN announces SMC iff smcx sent it; a SYN-ACK only echoes an
    # announcing SYN, which the plain side never sends
    t.eq(SMC_OPT in syn[0][2], smc_side == syn[0][0],
         "SMC option in the SYN from %s" % syn[0][0])
    t.eq(SMC_OPT in synack[0][2], False, "SMC option in the SYN-ACK from %s" % synack[0][0])
    data = [r for r in rows if r[3]]
    t.check(data, "capture has payload")
    t.check(not any(EYECATCHER in r[3] for r in data),
            "no CLC eyecatcher in any payload on the wire")
    first = [r for r in data if r[0] == first_sender][0]
    t.check(first[3].startswith(XFER_MAGIC),
            "first payload from %s is the application's: %s..." % (first_sender, first[3][:16]))
    t.log("%d packets, SYN from %s, SYN-ACK from %s, plain side %s"
          % (len(rows), syn[0][0], synack[0][0], plain_side))


def run(t):
    a, b = t.alpha, t.beta
    a.insmod_smcx()
    pcap = "/tmp/smcx_fallback.pcap"

    with t.subtest("smcx client -> plain TCP server"):
        before = stats(a)
        cap = Capture(a, PORT, pcap)
        srv, cli = scenarios.xfer(b, a, family="smc", server_family="tcp", port=PORT,
                                  nbytes=256 << 10, mode="duplex")
        cap.stop()
        t.check(scenarios.verified(cli) == {("0", "tx"), ("0", "rx")},
                "client sent and verified both ways")
        after = stats(a)
        t.eq(delta(before, after, "clnt_fallback_PEERNOSMC"), 1, "PEERNOSMC fallbacks")
        t.eq(delta(before, after, "clnt_fallback"), 1, "client fallbacks")
        t.eq(delta(before, after, "clnt_hs_started"), 0, "CLC handshakes started")
        check_no_clc(t, a, pcap, smc_side=a.ip, plain_side=b.ip, first_sender=a.ip)

    with t.subtest("plain TCP client -> smcx server"):
        before = stats(a)
        cap = Capture(a, PORT + 1, pcap)
        srv, cli = scenarios.xfer(a, b, family="tcp", server_family="smc", port=PORT + 1,
                                  nbytes=256 << 10, mode="duplex")
        cap.stop()
        t.check(scenarios.verified(srv) == {("0", "tx"), ("0", "rx")},
                "server sent and verified both ways")
        after = stats(a)
        t.eq(delta(before, after, "srv_fallback_PEERNOSMC"), 1, "PEERNOSMC fallbacks")
        t.eq(delta(before, after, "srv_hs_started"), 0, "CLC handshakes started")
        check_no_clc(t, a, pcap, smc_side=a.ip, plain_side=b.ip, first_sender=b.ip)

    with t.subtest("connect as fast as TCP"):
        # PEERNOSMC costs no round trip: 50 connect+close cycles take about
        # as long with AF_SMC as with TCP (generous bound for TCG noise).
        srv = b.bg("%s server -f tcp -p %d -c 100" % (scenarios.XFER, PORT + 2))
        b.wait_port(PORT + 2)
        times = {}
        for fam in ("tcp", "smc"):
            r = a.run("%s client -f %s -a %s -p %d -n 1 -c 50 -q"
                      % (scenarios.XFER, fam, b.ip, PORT + 2), timeout=120)
            m = re.search(r"in ([\d.]+)s", r.out)
            times[fam] = float(m.group(1)) if m else None
        srv.wait(timeout=60)
        t.log("50 connections: %s" % times)
        t.check(times["smc"] is not None and times["tcp"] is not None and
                times["smc"] < 3 * times["tcp"] + 1.0,
                "AF_SMC to a TCP peer is not slower than TCP: %s" % times)

    a.run("rm -f %s %s.pid" % (pcap, pcap), check=False)
    a.rmmod("smcx")
    t.check(not a.loaded("smcx"), "smcx unloads after the test")
    assert os.path.exists(t.smcx_path())
