# SPDX-License-Identifier: GPL-2.0
"""Building blocks shared by the selftests, the demo and the benchmarks.

Everything here takes lab hosts (smcxlab.Host) and returns plain data, so a
test can assert on it and the demo can print it.
"""
import os
import re
import time

import smcxlab

XFER = os.path.join(smcxlab.REPO, "build", "tools", "xfer")
SMCCTL_DIR = os.path.join(smcxlab.REPO, "build", "user", "smcctl")
# The lab's UEID: the in-kernel SMC proposes SMC-Rv2 only with a UEID, and
# both peers need the same one (lab notes).
LAB_UEID = "SMCX-LAB-UEID"
LAB_PNETID = "SMCXLAB"

RXE_COUNTERS = ("sent_pkts", "rcvd_pkts")


def tool(name):
    return os.path.join(SMCCTL_DIR, name)


def pytool(name):
    """The command that runs selftests/tools/@name.py in a guest (the guests
    see the repository at the host's path)."""
    return "python3 %s" % os.path.join(smcxlab.REPO, "selftests", "tools", name + ".py")


def setup_inkernel_smc(h, wire=0):
    """Load the stock smc.ko on a host and make it use SMC-Rv2 over rxe.

    Needs (lab notes): a pnet entry joining the netdev and the rxe device
    under one PNET ID, and a UEID (the same on both peers).  Configured with
    our own tool through the mainline generic netlink ABI.  On a kernel
    whose rdma_rxe lacks fixes the stock stack needs (Debian's 6.1), the
    lab's rxe fixture goes in first (selftests/tools/rxefix)."""
    fix = h.rxe_fixture()
    if fix and "rxefix" not in h.modules():
        h.run("insmod %s" % fix)
    h.modprobe("smc", "smc_diag")
    pnet = tool("smc_pnet")
    h.run("%s -a %s -I eth%d" % (pnet, LAB_PNETID, wire))
    h.run("%s -a %s -D rxe%d -P 1" % (pnet, LAB_PNETID, wire))
    h.run("%s ueid add %s" % (tool("smcr"), LAB_UEID))


def alt_subnet_addr(h):
    """The address setup_inkernel_smc_two_links() gives @h's eth1 in wire 0's
    subnet (198.18.0.101 for alpha, .102 for beta)."""
    return "198.18.0.%d" % (101 + h.index)


def setup_inkernel_smc_two_links(h):
    """setup_inkernel_smc() for a WIRES = 2 lab in which the stock smc.ko
    forms two-link groups (docs/multilink.md, "The stock peer").

    rxe1 joins the PNET ID of eth0/rxe0: the alternate-device search only
    takes a device whose port has the group's PNET ID.  eth1 also gets an
    address in eth0's subnet (noprefixroute: no route changes): an SMC-Rv2
    group's alternate device must have an IPv4 address whose subnet holds
    the group's source address.  The second link still runs on
    198.18.1.0/24, the first IPv4 RoCE GID of rxe1."""
    setup_inkernel_smc(h)
    setup_inkernel_second_link(h)


def setup_inkernel_second_link(h):
    """What setup_inkernel_smc_two_links() adds to setup_inkernel_smc()."""
    pnet = tool("smc_pnet")
    h.run("%s -a %s -I eth1" % (pnet, LAB_PNETID))
    h.run("%s -a %s -D rxe1 -P 1" % (pnet, LAB_PNETID))
    h.run("ip addr replace %s/24 dev eth1 noprefixroute" % alt_subnet_addr(h))


def rxe_snapshot(hosts, dev="rxe0"):
    """{(host name, counter): value}, one round trip per host."""
    snap = {}
    for h in hosts:
        paths = ["/sys/class/infiniband/%s/ports/1/hw_counters/%s" % (dev, c)
                 for c in RXE_COUNTERS]
        for c, p, v in zip(RXE_COUNTERS, paths, h.read_many(paths)):
            if v is None:
                raise smcxlab.LabError("%s: cannot read %s" % (h.name, p))
            snap[(h.name, c)] = int(v)
    return snap


def rxe_delta(hosts, before, dev="rxe0"):
    after = rxe_snapshot(hosts, dev)
    return {k: after[k] - before[k] for k in after}


def xfer(server, client, family="tcp", port=5000, nbytes=1 << 20, mode="send", conns=1,
         server_family=None, timeout=300, extra=""):
    """A pattern-verified transfer; returns (server Result, client Result).

    Raises CommandFailed if either side fails to move and verify every byte."""
    sfam = server_family or family
    srv = server.bg("%s server -f %s -p %d -c %d" % (XFER, sfam, port, conns))
    server.wait_port(port, job=srv)
    try:
        cli = client.run("%s client -f %s -a %s -p %d -n %d -m %s -c %d %s"
                         % (XFER, family, server.ip, port, nbytes, mode, conns, extra),
                         timeout=timeout)
    except smcxlab.CommandFailed:
        srv.kill()
        raise
    return srv.wait(timeout=60), cli


def verified(res):
    """The (connection, direction) pairs an xfer side moved and checked."""
    return set(re.findall(r"^xfer: conn (\d+) (tx|rx) bytes=\d+ fnv=[0-9a-f]+ ok$",
                          res.out, re.M))


def inkernel_stats(h):
    """SMC-R counters of the stock smc.ko (smcr stats, JSON)."""
    import json
    return json.loads(h.out("%s -j stats" % tool("smcr")))


def wait_for(pred, timeout=10, step=0.2):
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(step)
    return pred()


def ib_write_bw(server, client, args="-s 65536 -n 256", port=18515, timeout=180):
    """ib_write_bw (rdma_cm) from @client into @server; returns (server
    Result, client Result), neither checked.

    The client starts once the server says it waits: an rdma_cm listener
    has no ss entry, and a client that meets no listener may crash in
    librdmacm (general protection fault, seen 2026-12-01), which would
    read as a kernel problem on the console."""
    log = "/tmp/ib_write_bw-%d.log" % port
    cmd = "ib_write_bw -d rxe0 -R -F --report_gbits -p %d %s" % (port, args)
    srv = server.bg("set -o pipefail; stdbuf -oL %s 2>&1 | tee %s" % (cmd, log))
    if not wait_for(lambda: server.run("grep -qs 'Waiting for client' %s" % log,
                                       check=False).rc == 0, timeout=60, step=0.3):
        srv.kill()
        raise smcxlab.LabError("%s: ib_write_bw server not waiting after 60 s: %s"
                               % (server.name, server.run("cat %s" % log, check=False).out))
    cli = client.run("%s %s" % (cmd, server.ip), check=False, timeout=timeout)
    return srv.wait(timeout=60, check=False), cli


# ---------------------------------------------------------------------------
# Unmodified applications (tcp2smc and smc_run).  Each helper runs a
# server on one host and a client on the other, both behind an optional
# command prefix `wrap` (e.g. an smc_run invocation; "" under tcp2smc), moves
# checksummed data where the application allows, and returns a dict with
# "ok" plus what it saw.  Servers are stopped before returning.

PRELOAD_LIB = os.path.join(smcxlab.REPO, "build", "user", "preload", "libsmc-preload.so")
SMC_RUN_DIR = "/tmp/smcx_run"


def install_smc_run(h):
    """A private copy of smc_run + libsmc-preload.so in the guest's /tmp (a
    binary rebuilt on the host while the lab runs must not be run over 9p);
    returns the smc_run path.  smc_run finds the library next to itself."""
    h.run("mkdir -p %s && cp %s %s/smcctl && cp %s %s/ && ln -sf smcctl %s/smc_run"
          % (SMC_RUN_DIR, os.path.join(SMCCTL_DIR, "smcctl"), SMC_RUN_DIR, PRELOAD_LIB,
             SMC_RUN_DIR, SMC_RUN_DIR))
    return SMC_RUN_DIR + "/smc_run"


def _stop(job):
    """Stop a background server; one that has exited already is fine."""
    try:
        job.kill()
    except Exception:
        pass


def sha256(h, path):
    return h.out("sha256sum %s" % path).split()[0]


def _payload(h, path, nbytes):
    h.run("head -c %d /dev/urandom > %s" % (nbytes, path))
    return sha256(h, path)


def smcx_stats(h):
    """smcx's handshake counters of the reader's netns (debugfs)."""
    out = h.read("/sys/kernel/debug/smcx/stats")
    if out is None:
        raise smcxlab.LabError("%s: no /sys/kernel/debug/smcx/stats (smcx not loaded?)" % h.name)
    return {k: int(v) for k, v in (ln.split() for ln in out.splitlines())}


WWI = ("wwi_groups", "wwi_tx", "wwi_rx", "wwi_stale")


def smcx_wwi(h):
    """smcx's WRITE WITH IMMEDIATE counters (docs/wire.md) of the reader's
    netns: groups that negotiated it, writes sent, taken, dropped stale."""
    st = smcx_stats(h)
    return {k: st[k] for k in WWI}


def smcx_conn_inline(h):
    """The inline limit (bytes a send may carry in its work request) of each
    connection's link, from smcx's debugfs socks."""
    out = h.read("/sys/kernel/debug/smcx/socks") or ""
    return [int(ln.split(" inline ", 1)[1].split()[0]) for ln in out.splitlines()
            if ln.startswith("  conn token ") and " inline " in ln]


def smcx_conn_flags(h):
    """The flags of each connection line of smcx's debugfs socks, as lists
    (the group's WRITE WITH IMMEDIATE shows as "wwi")."""
    out = h.read("/sys/kernel/debug/smcx/socks") or ""
    return [ln.split(" flags ", 1)[1].split() if " flags " in ln else []
            for ln in out.splitlines() if ln.startswith("  conn token ")]


# The apps' listening address: bind=BIND_HOST gives each server the
# option that binds it to the server's IPv4 address; bind=BIND_DEFAULT
# gives each the form that listens on every address, as its users run it:
# iperf3 -s and redis-server with no bind option (iperf3 on [::],
# dual-stack: IPv4 clients arrive v4-mapped; redis on 0.0.0.0 and [::],
# its built-in "bind * -::*"), python3 -m http.server with --bind :: (its
# dual-stack form; with no option it takes getaddrinfo()'s first wildcard,
# 0.0.0.0 on Debian).  The result's "listen" is what listened
# (Host.listeners()).
BIND_HOST, BIND_DEFAULT = "host", "default"


def _bind(server, bind, opt, default=""):
    return "%s %s" % (opt, server.ip) if bind == BIND_HOST else default


def app_iperf3(server, client, wrap="", port=5201, nbytes=2 << 20, bind=BIND_HOST):
    """iperf3 -n NBYTES; ok when both ends report the test done.  (No checksum:
    iperf3 -F stops writing when the sender ends, so the file is short even
    over TCP; the other applications carry the checksummed data.)"""
    srv = server.bg("%s iperf3 -s -1 -p %d %s" % (wrap, port, _bind(server, bind, "-B")))
    try:
        server.wait_port(port, job=srv)
        listen = server.listeners(port)
        cli = client.run("%s iperf3 -c %s -p %d -n %d" % (wrap, server.ip, port, nbytes),
                         timeout=240, check=False)
        res = srv.wait(timeout=60, check=False)
    finally:
        _stop(srv)
    ok = cli.ok and "iperf Done." in cli.out and res.ok
    return {"ok": ok, "listen": listen, "client": cli.out[-600:] + cli.err[-600:]}


def app_sockperf(server, client, wrap="", port=11111, seconds=2, bind=BIND_HOST):
    """sockperf ping-pong over TCP; ok when it reports a latency.  (Its server
    needs an address: -i, whatever @bind says.)"""
    srv = server.bg("%s sockperf sr --tcp -i %s -p %d" % (wrap, server.ip, port))
    try:
        server.wait_port(port, job=srv)
        listen = server.listeners(port)
        cli = client.run("%s sockperf pp --tcp -i %s -p %d -t %d -m 64"
                         % (wrap, server.ip, port, seconds), timeout=120, check=False)
    finally:
        _stop(srv)
    m = re.search(r"Summary: Latency is ([\d.]+) usec", cli.out)
    return {"ok": cli.ok and m is not None, "latency_us": float(m.group(1)) if m else None,
            "listen": listen, "client": cli.out[-600:] + cli.err[-600:]}


def app_http(server, client, wrap="", port=8080, nbytes=3 << 20, bind=BIND_HOST):
    """curl fetching a file from python3 -m http.server; checksums compared."""
    server.run("mkdir -p /tmp/app_www")
    want = _payload(server, "/tmp/app_www/blob", nbytes)
    srv = server.bg("cd /tmp/app_www && exec %s python3 -m http.server %d %s"
                    % (wrap, port, _bind(server, bind, "--bind", "--bind ::")))
    try:
        server.wait_port(port, job=srv)
        listen = server.listeners(port)
        client.run("rm -f /tmp/app_http.dl")
        # -g: brackets are an IPv6 literal (server.ip "[fd00::2]"), not a glob
        cli = client.run("%s curl -g -sS --max-time 120 -o /tmp/app_http.dl http://%s:%d/blob"
                         % (wrap, server.ip, port), timeout=180, check=False)
    finally:
        _stop(srv)
    got = client.run("sha256sum /tmp/app_http.dl", check=False).out.split()[:1]
    return {"ok": cli.ok and got == [want], "listen": listen, "client": cli.err[-600:],
            "sha": want, "got": got}


def app_redis(server, client, wrap="", port=6400, requests=2000, bind=BIND_HOST):
    """redis-benchmark -n REQUESTS, and a 192 KiB value stored and read back."""
    srv = server.bg("%s redis-server --port %d %s --save '' --appendonly no "
                    "--protected-mode no" % (wrap, port, _bind(server, bind, "--bind")))
    try:
        server.wait_port(port, job=srv)
        listen = server.listeners(port)
        bench = client.run("%s redis-benchmark -h %s -p %d -n %d -q -t set,get"
                           % (wrap, server.ip, port, requests), timeout=240, check=False)
        client.run("head -c 147456 /dev/urandom | base64 -w0 > /tmp/app_redis.val")
        want = sha256(client, "/tmp/app_redis.val")
        put = client.run("%s redis-cli -h %s -p %d -x set blob < /tmp/app_redis.val"
                         % (wrap, server.ip, port), check=False)
        got = client.run("%s redis-cli -h %s -p %d --raw get blob | head -c $(stat -c %%s "
                         "/tmp/app_redis.val) | sha256sum" % (wrap, server.ip, port),
                         check=False).out.split()[:1]
    finally:
        _stop(srv)
    ok = bench.ok and "requests per second" in bench.out and put.ok and got == [want]
    return {"ok": ok, "listen": listen, "bench": bench.out.strip()[-300:] + bench.err[-300:],
            "got": got, "sha": want}


def app_port(fn, n):
    """The n-th distinct port for an app helper (its default port + n)."""
    import inspect
    return inspect.signature(fn).parameters["port"].default + n


APPS = {"iperf3": app_iperf3, "sockperf": app_sockperf, "http": app_http, "redis": app_redis}


def smc_option_filter(h, match, flags=0x02, prio=1, dev="eth0"):
    """A tc filter on @h's @dev (under a prio qdisc the caller set up) that
    gives the TCP segments matching @match (u32 match terms, e.g. "match ip
    dport 7300 0xffff") whose flags byte is @flags (0x02 SYN, 0x12 SYN-ACK)
    the SMC option: the timestamp option becomes kind 254, length 6, the
    SMC magic, and four NOPs; checksums are fixed.  A plain TCP socket
    then announces SMC, as a hostile or merely odd peer would."""
    h.run("tc filter add dev %s parent 1: protocol ip prio %d u32 %s "
          "match u8 0x%02x 0xff at 33 match u32 0x0402080a 0xffffffff at 44 "
          "action pedit munge offset 44 u32 set 0x0402fe06 "
          "munge offset 48 u32 set 0xe2d4c3d9 munge offset 52 u32 set 0x01010101 "
          "pipe action csum ip and tcp" % (dev, prio, match, flags))


class Capture:
    """dumpcap on @h's eth0 for one TCP port or a list of them, to @pcap.

    dumpcap reads the packet socket in blocks that the kernel hands over
    only when full or when a timer fires, and SIGINT drops a block not yet
    handed over.  So stop() first waits (bounded) until the file holds a
    FIN from both ends, i.e. the whole connection, and only then ends
    dumpcap; it returns whether the capture is complete.  stop(False) is
    for a capture whose last moments do not matter."""

    def __init__(self, h, ports, pcap):
        self.h, self.pcap, self.pidf = h, pcap, pcap + ".pid"
        ports = [ports] if isinstance(ports, int) else ports
        flt = " or ".join("tcp port %d" % p for p in ports)
        h.run("rm -f %s %s" % (pcap, self.pidf))
        self.job = h.bg("dumpcap -q -i eth0 -f '%s' -w %s & echo $! > %s; wait"
                        % (flt, pcap, self.pidf))
        self.started = bool(wait_for(lambda: h.run("test -s %s" % pcap, check=False).ok,
                                     timeout=20))
        time.sleep(1)		# the file exists before the filter is attached

    def fin_senders(self):
        out = self.h.out("tshark -r %s -Y 'tcp.flags.fin == 1' -T fields -e ip.src "
                         "2>/dev/null || true" % self.pcap)
        return set(out.split())

    def segments(self):
        """Every captured TCP segment in capture order, as (stream index,
        source port, destination port, source ip, relative seq, payload
        bytes); the capture's files are removed afterwards."""
        out = self.h.out("tshark -r %s -T fields -E 'separator=|' -e tcp.stream -e tcp.srcport "
                         "-e tcp.dstport -e ip.src -e tcp.seq -e tcp.payload 2>/dev/null"
                         % self.pcap)
        self.h.run("rm -f %s %s" % (self.pcap, self.pidf), check=False)
        segs = []
        for ln in out.splitlines():
            st, sp, dp, src, seq, pl = (ln.split("|") + [""] * 6)[:6]
            segs.append((st, int(sp), int(dp), src, int(seq),
                         bytes.fromhex(pl.replace(":", ""))))
        return segs

    def stop(self, complete=True, timeout=20):
        done = not complete or bool(wait_for(lambda: len(self.fin_senders()) >= 2,
                                             timeout=timeout, step=0.5))
        self.h.run("kill -INT $(cat %s)" % self.pidf)
        self.job.wait(timeout=30, check=False)
        return done
