# SPDX-License-Identifier: GPL-2.0
"""The lab's optional second wire: eth1/rxe1 on 198.18.1.0/24 carries RDMA.

Tests that need two links (failover) declare WIRES = 2; this proves such a lab
has two independent RoCE paths: rping over each wire moves that wire's rxe
counters and not the other's.
"""
import time

WIRES = 2
TIMEOUT = 240
COST = 33


def rping(t, a, b, wire):
    srv = a.bg("rping -s -a %s -C 5 -v" % a.addr(wire))
    for _ in range(20):
        r = b.run("rping -c -a %s -C 5 -v" % a.addr(wire), check=False, timeout=60)
        if r.rc == 0:
            break
        time.sleep(0.5)
    t.check(r.rc == 0 and r.out.count("ping data") == 5,
            "rping over wire %d (%s)\n%s" % (wire, a.addr(wire), r.describe()))
    srv.wait(timeout=30)


def run(t):
    a, b = t.alpha, t.beta
    for h in (a, b):
        links = h.out("rdma link show")
        t.check("rxe0/1 state ACTIVE" in links and "rxe1/1 state ACTIVE" in links,
                "%s: rxe0 and rxe1 active" % h.name)
        t.check(h.addr(1) in h.out("ip -br addr show eth1"), "%s: eth1 has %s" % (h.name, h.addr(1)))
    for wire in (0, 1):
        other = "rxe%d" % (1 - wire)
        mine = "rxe%d" % wire
        before = {d: b.rxe_counter("sent_pkts", d) for d in (mine, other)}
        rping(t, a, b, wire)
        moved = b.rxe_counter("sent_pkts", mine) - before[mine]
        still = b.rxe_counter("sent_pkts", other) - before[other]
        t.check(moved > 0 and still == 0,
                "wire %d: %s sent %d packets, %s sent %d" % (wire, mine, moved, other, still))
