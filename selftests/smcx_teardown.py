# SPDX-License-Identifier: GPL-2.0
"""Teardown under live SMC-R connections: module unload, RDMA device
removal and a silent peer.

smcx on both hosts, alpha the client, beta the server, each case on its own
connection:

- rmmod with a live connection is refused (the sockets hold the module) and
  changes nothing: the connection still works afterwards.
- RDMA device removal on the host with unread data (F4): `rdma link delete
  rxe0` returns, the peer's blocked recv() returns ECONNRESET, and a recv()
  after the removal reads the bytes the peer had written and then reports
  ECONNRESET (before the fix it synced the RMB through the freed ib_device).
- a peer that goes silent (its RoCE packets dropped, as a killed host): a
  connection with nothing in flight, blocked in recv(), still ends with
  ECONNRESET (the link is probed with TEST_LINK once it heard nothing for
  net.smc.smcr_testlink_time, 5 s here) instead of waiting forever.

The runner then checks for warnings, leaked objects and the unload.
"""
import os
import time

import scenarios
import smcxlab

TIMEOUT = 120
COST = 20
PORT = 7300
RECV_TIMEOUT = 60	# a recv() that sees nothing in this long counts as hung

# one smcx connection end: server PORT GO | client PORT ADDR NBYTES, then
# the recv() timeout; it prints "rx BYTES END SECONDS"
PEER = os.path.join(smcxlab.REPO, "selftests", "tools", "smc_endpoint.py")


def peer(h, *args):
    return h.bg("python3 %s %s %d" % (PEER, " ".join(str(a) for a in args), RECV_TIMEOUT))


def wait_up(t, hosts, port):
    for h in hosts:
        t.check(scenarios.wait_for(lambda: h.read("/tmp/td-%d.up" % port) is not None,
                                   timeout=60),
                "%s: connection on port %d up" % (h.name, port))


def result(t, job, what):
    r = job.wait(timeout=RECV_TIMEOUT + 30, check=False)
    t.log("%s: %s %s" % (what, r.out.strip(), r.err.strip()[-300:]))
    f = r.out.split()
    return (int(f[1]), f[2]) if len(f) >= 3 and f[0] == "rx" else (None, r.out + r.err)


def rxe_back(t, h):
    """rxe0 added again once the old one is gone, and ACTIVE."""
    gone = scenarios.wait_for(lambda: h.read("/sys/class/infiniband/rxe0/node_type") is None,
                              timeout=30)
    active = "rdma link show rxe0/1 2>/dev/null | grep -q 'state ACTIVE'"
    ok = gone and scenarios.wait_for(
        lambda: h.run("%s || { rdma link add rxe0 type rxe netdev eth0; %s; }"
                      % (active, active), check=False).rc == 0, timeout=30, step=1)
    if not ok:
        t.log(h.run("rdma link show; ls /sys/class/infiniband; dmesg | tail -25",
                    check=False).out)
    t.check(ok, "%s: rxe0 back and ACTIVE" % h.name)


def run(t):
    a, b = t.alpha, t.beta
    for h in (a, b):
        h.insmod_smcx()
        h.run("rm -f /tmp/td-*")

    with t.subtest("rmmod with a live connection is refused"):
        port = PORT
        srv = peer(b, "server", port, "-")
        b.wait_port(port, job=srv)
        cli = peer(a, "client", port, b.ip, 1000)
        wait_up(t, (a, b), port)
        r = a.run("rmmod smcx", check=False)
        t.check(r.rc != 0, "rmmod refused: %s" % (r.out + r.err).strip())
        t.check(a.loaded("smcx"), "smcx still loaded")
        b.run("rmmod smcx", check=False)
        t.check(b.loaded("smcx"), "smcx still loaded on the server")
        # the server's recv() got the 1000 bytes; the client ends it
        cli.kill()
        got, end = result(t, srv, "server")
        t.eq((got, end), (1000, "eof"), "the connection carried its data and closed in order")

    with t.subtest("device removal with unread data (F4)"):
        port = PORT + 1
        go = "/tmp/td-%d.go" % port
        srv = peer(b, "server", port, go)
        b.wait_port(port, job=srv)
        cli = peer(a, "client", port, b.ip, 32768)
        wait_up(t, (a, b), port)
        time.sleep(1)		# the 32 KiB are in beta's RMB
        try:
            b.run("rdma link delete rxe0", timeout=60)
            got, end = result(t, cli, "client")
            t.eq(end, "ECONNRESET", "the peer's blocked recv() ends with a reset")
            b.run("touch %s" % go)
            got, end = result(t, srv, "server")
            t.eq((got, end), (32768, "ECONNRESET"),
                 "recv() after the removal: the written bytes, then the reset")
        finally:
            rxe_back(t, b)

    with t.subtest("a peer gone silent ends an idle connection"):
        port = PORT + 2
        srv = peer(b, "server", port, "-")
        b.wait_port(port, job=srv)
        for h in (a, b):
            h.run("sysctl -qw net.smc.smcr_testlink_time=5")
        cli = peer(a, "client", port, b.ip, 1)
        wait_up(t, (a, b), port)
        b.modprobe("sch_prio", "cls_u32", "act_gact")
        b.run("tc qdisc del dev eth0 root 2>/dev/null; tc qdisc add dev eth0 root handle 1: prio")
        try:
            # every RoCEv2 packet beta sends: its ACKs and its answers
            b.run("tc filter add dev eth0 parent 1: protocol ip prio 1 u32 "
                  "match ip protocol 17 0xff match ip dport 4791 0xffff action drop")
            got, end = result(t, cli, "client")
            t.eq(end, "ECONNRESET", "alpha's recv() on the silent peer ends with a reset")
        finally:
            b.run("tc qdisc del dev eth0 root", check=False)
        got, end = result(t, srv, "server")
        t.check(end in ("ECONNRESET", "eof"), "beta's side ends too: %s" % end)
