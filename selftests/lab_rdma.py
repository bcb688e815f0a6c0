# SPDX-License-Identifier: GPL-2.0
"""The lab itself: RDMA between alpha and beta works over soft-RoCE.

rping exchanges RDMA READ/WRITE/SEND over rdma_cm; ib_write_bw moves a short
stream of RDMA WRITEs.  The rxe counters on both hosts must move by at least
the number of packets those tools need, proving the traffic went through rxe0
on the virtual wire and not somewhere else.

First the emulator itself: the guest CPU either has no CMPXCHG16B or keeps
EFLAGS across it (build/tools/cx16flags).  QEMU 7.2's TCG does not, which
killed guests in rxe's allocations (docs/guest-deaths.md); the lab's CPU
model leaves the instruction out, and this check fails if a LAB_CPU or
LAB_QEMU brings the bug back.
"""
import os
import time

import scenarios

WIRES = 1
TIMEOUT = 240
COST = 10


def run(t):
    a, b = t.alpha, t.beta
    cx16 = os.path.join(t.repo, "build", "tools", "cx16flags")
    for h in (a, b):
        r = h.run(cx16, check=False)
        t.check(r.rc in (0, 4), "%s: emulator keeps EFLAGS across CMPXCHG16B or has none: %s"
                % (h.name, (r.out + r.err).strip()))
    for h in (a, b):
        t.check("rxe0/1 state ACTIVE" in h.out("rdma link show rxe0/1"),
                "%s: rxe0 port active" % h.name)
    b_sent0 = b.rxe_counter("sent_pkts")
    a_rcvd0 = a.rxe_counter("rcvd_pkts")

    srv = a.bg("rping -s -a %s -C 10 -S 1024 -v" % a.ip, name="rping-srv")
    r = None
    for _ in range(20):  # rdma_cm listener has no ss entry; retry the client
        r = b.run("rping -c -a %s -C 10 -S 1024 -v" % a.ip, check=False, timeout=60)
        # rping can exit 0 after a CM reject (server not listening yet)
        if r.rc == 0 and r.out.count("ping data") == 10:
            break
        time.sleep(0.5)
    t.check(r.rc == 0 and r.out.count("ping data") == 10,
            "rping client: 10 pings verified\n" + r.describe())
    rs = srv.wait(timeout=30)
    t.check(rs.out.count("server ping data") == 10, "rping server: 10 pings seen")

    # ib_write_bw: 256 x 64 KiB RDMA WRITEs over an RC QP (rdma_cm connect)
    rs, r = scenarios.ib_write_bw(a, b)
    t.check(r.rc == 0, "ib_write_bw client ok\n" + r.describe())
    t.check(rs.rc == 0, "ib_write_bw server ok\n" + rs.describe())
    line = [ln for ln in r.out.splitlines() if ln.strip().startswith("65536")]
    t.check(bool(line), "ib_write_bw reported a 64 KiB result line")
    t.log("ib_write_bw: " + line[0].strip())

    sent = b.rxe_counter("sent_pkts") - b_sent0
    rcvd = a.rxe_counter("rcvd_pkts") - a_rcvd0
    t.log("rxe packets: beta sent %d, alpha received %d" % (sent, rcvd))
    # The client (beta) writes 256 x 64 KiB into alpha; at the 1024-byte path
    # MTU rxe uses on a 1500 wire that is at least 16384 packets.
    t.check(sent >= 16384 and rcvd >= 16384,
            "rxe counters moved by the RDMA WRITE stream (sent %d, rcvd %d)" % (sent, rcvd))
