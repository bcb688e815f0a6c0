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
Handshakes that go wrong (docs/kernel-socket.md, "When a handshake fails"):
  - a TCP client whose SYN announces SMC (beta rewrites its SYN's timestamp
    option into the SMC option with tc pedit) and then speaks first: the
    smcx server sees no CLC eyecatcher, falls back without a Decline and
    without consuming a byte (srv reason SYNCERR); the echo comes back whole;
  - the same client shutting down its side before a byte: EOF is no CLC
    either, the server's reply arrives;
  - a silent smcx server (alpha drops its own CLC Decline): the smcx client
    fails with ETIMEDOUT after the CLC wait time (its proposal is answered
    later or never: falling back is not safe);
  - a server whose CLC reply is garbage (alpha rewrites the eyecatcher of
    its Decline): the client fails with EPROTO (its proposal already went
    into a stream that is not speaking CLC);
  - shutdown() while the CLC handshake is in progress aborts the connect as
    TCP aborts one: returns 0, SO_ERROR ECONNRESET, at once.
The runner then checks that smcx left no object behind and unloads.
"""
import os
import re

import scenarios
import smcxlab

TIMEOUT = 300
COST = 41
PORT = 5300
SMC_OPT = "fe06e2d4c3d9"		# kind 254, len 6, SMC magic (EBCDIC "SMCR")
EYECATCHER = "e2d4c3d9"
XFER_MAGIC = "58464552"			# xfer's header magic, "XFER" in network order


def stats(h):
    out = h.out("cat /sys/kernel/debug/smcx/stats")
    return {k: int(v) for k, v in (ln.split() for ln in out.splitlines())}


def delta(before, after, key):
    return after.get(key, 0) - before.get(key, 0)


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


# the peers of the failed handshakes: an AF_SMC echo server, a TCP client
# and an AF_SMC client
PEERS = os.path.join(smcxlab.REPO, "selftests", "tools", "fallback_peers.py")


def tc_reset(h):
    h.run("tc qdisc del dev eth0 root 2>/dev/null; tc qdisc add dev eth0 root handle 1: prio")


def tc_clear(h):
    h.run("tc qdisc del dev eth0 root", check=False)


def kv(out, key):
    m = re.search(r"%s=(-?\d+)" % key, out)
    return int(m.group(1)) if m else None


def failed_connect(t, a, b, port, errno):
    """beta's blocking AF_SMC connect to alpha's @port must fail with @errno."""
    r = b.run("python3 %s smc-client %s %d block" % (PEERS, a.ip, port),
              timeout=60, check=False)
    t.log(r.out.strip())
    t.eq((kv(r.out, "connect"), kv(r.out, "errno")), (-1, errno), "connect, errno")
    return r


def handshake_failures(t, a, b):
    """The cases of docs/kernel-socket.md "When a handshake fails"."""
    port = PORT + 10
    srv = a.bg("python3 %s echo-server %d 2" % (PEERS, port))
    a.wait_port(port)
    # beta's SYNs to the port: SACK_PERM kept, the timestamp option turned
    # into the SMC option (kind 254, len 6, magic) and four NOPs
    b.modprobe("sch_prio", "cls_u32", "act_pedit", "act_csum")
    tc_reset(b)
    scenarios.smc_option_filter(b, "match ip dport %d 0xffff" % port)
    try:
        for mode, want in (("data", "echo:hello smcx\\n"), ("eof", "eof\\n")):
            name = {"data": "TCP client announcing SMC speaks first: server falls back",
                    "eof": "TCP client announcing SMC sends FIN first: server falls back"}[mode]
            with t.subtest(name):
                before = stats(a)
                r = b.run("python3 %s tcp-client %s %d %s" % (PEERS, a.ip, port, mode),
                          timeout=60, check=False)
                t.eq(r.out.strip(), "reply b'%s'" % want, "client got the whole reply")
                after = stats(a)
                t.eq(delta(before, after, "srv_hs_started"), 1,
                     "server saw the SMC option (handshake started)")
                t.eq(delta(before, after, "srv_fallback_SYNCERR"), 1, "SYNCERR fallbacks")
                t.eq(delta(before, after, "srv_hs_errors"), 0, "failed handshakes")
    finally:
        tc_clear(b)
        srv.kill()

    b.insmod_smcx("smcr=0")
    # the cases below break the handshake on purpose and check how the
    # connect fails; the peer cache would turn the next one to the same
    # server into plain TCP (docs/why.md, tested in smcx_why)
    b.run("sysctl -qw net.smc.smcx_peer_ttl=0")
    port += 1
    srv = a.bg("python3 %s echo-server %d 3" % (PEERS, port))
    a.wait_port(port)
    a.modprobe("sch_prio", "cls_u32", "act_gact", "act_pedit", "act_csum")
    try:
        # alpha's CLC Decline (PSH from the port) never leaves alpha
        tc_reset(a)
        a.run("tc filter add dev eth0 parent 1: protocol ip prio 1 u32 "
              "match ip sport %d 0xffff match u8 0x08 0x08 at 33 action drop" % port)
        with t.subtest("silent server: client fails with ETIMEDOUT after the CLC wait"):
            before = stats(b)
            r = failed_connect(t, a, b, port, 110)
            m = re.search(r"secs=([\d.]+)", r.out)
            t.check(m and 5.0 <= float(m.group(1)) <= 15.0,
                    "failed after the CLC wait time (6 s): %s" % r.out.strip())
            after = stats(b)
            t.eq(delta(before, after, "clnt_hs_errors"), 1, "client failed handshakes")
            t.eq(delta(before, after, "clnt_fallback"), 0, "client fallbacks")
        with t.subtest("shutdown during the CLC handshake aborts the connect, as TCP"):
            before = stats(b)
            r = b.run("python3 %s smc-client %s %d shutdown" % (PEERS, a.ip, port),
                      timeout=60, check=False)
            t.log(r.out.strip())
            t.eq(kv(r.out, "connect"), -1, "non-blocking connect in progress")
            m = re.search(r"shutdown=(-?\d+) errno=(\d+)", r.out)
            t.eq(m and (int(m.group(1)), int(m.group(2))), (0, 0),
                 "shutdown returns 0 (TCP disconnects a connect in progress)")
            t.eq(kv(r.out, "so_error"), 104, "SO_ERROR ECONNRESET")
            m = re.search(r"shutdown=.*secs=([\d.]+)", r.out)
            t.check(m and float(m.group(1)) < 2.0, "shutdown did not wait for the CLC timeout")
            t.eq(delta(before, after=stats(b), key="clnt_hs_errors"), 1,
                 "client failed handshakes")
        # alpha's CLC Decline leaves with its eyecatcher overwritten
        tc_reset(a)
        a.run("tc filter add dev eth0 parent 1: protocol ip prio 1 u32 "
              "match ip sport %d 0xffff match u32 0xe2d4c3d9 0xffffffff at 52 "
              "action pedit munge offset 52 u32 set 0x47415242 pipe action csum ip and tcp"
              % port)
        with t.subtest("garbage CLC reply: client fails with EPROTO"):
            before = stats(b)
            failed_connect(t, a, b, port, 71)
            t.eq(delta(before, stats(b), "clnt_hs_errors"), 1, "client failed handshakes")
    finally:
        tc_clear(a)
        srv.kill()


def run(t):
    a, b = t.alpha, t.beta
    # smcr=0: alpha declines every proposal, so in the silent-server case
    # (its Decline dropped) only the client's CLC timer runs.  With the
    # data path alpha would send an Accept and time out waiting for the
    # Confirm, and its reset raced the client's timeout (ECONNRESET once
    # in CI instead of ETIMEDOUT).
    a.insmod_smcx("smcr=0")
    pcap = "/tmp/smcx_fallback.pcap"

    with t.subtest("smcx client -> plain TCP server"):
        before = stats(a)
        cap = scenarios.Capture(a, PORT, pcap)
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
        cap = scenarios.Capture(a, PORT + 1, pcap)
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

    handshake_failures(t, a, b)

    a.run("rm -f %s %s.pid" % (pcap, pcap), check=False)
    a.rmmod("smcx")
    t.check(not a.loaded("smcx"), "smcx unloads after the test")
    assert os.path.exists(t.smcx_path())
