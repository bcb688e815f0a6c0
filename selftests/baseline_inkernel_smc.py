# SPDX-License-Identifier: GPL-2.0
"""Baseline: the stock in-kernel SMC runs SMC-Rv2 over the lab's soft-RoCE.

Both hosts load smc.ko and are configured with our own tool (pnet entry for
eth0 + rxe0, a shared UEID).  A few MiB go each way over AF_SMC at once and
are verified byte for byte; the proof that they went by RDMA and not by the
TCP fallback is threefold:
  - the in-kernel SMC statistics count one SMC-Rv2 connection on each side
    and no fallback,
  - the rxe packet counters grow by at least one packet per 1024 bytes (the
    RoCE path MTU on this wire) in each direction, which TCP through eth0
    would not touch at all,
  - the packets on eth0 that are not RoCE (eth0 packets minus rxe packets:
    the CLC socket's TCP) stay far below what TCP would need for the payload.
"""
import scenarios

# The stock smc.ko alone: validates the test logic (make check-reference).
TIER = "reference"
TIMEOUT = 300
NBYTES = 4 << 20


def eth_pkts(h):
    return int(h.out("cat /sys/class/net/eth0/statistics/rx_packets")) + \
        int(h.out("cat /sys/class/net/eth0/statistics/tx_packets"))


def run(t):
    a, b = t.alpha, t.beta
    for h in (a, b):
        scenarios.setup_inkernel_smc(h)
    show = a.out("%s -s" % scenarios.tool("smc_pnet"))
    t.check(scenarios.LAB_PNETID in show and "eth0" in show and "rxe0" in show,
            "pnet table shows eth0 and rxe0 under %s:\n%s" % (scenarios.LAB_PNETID, show))
    ueids = a.out("%s ueid show" % scenarios.tool("smcr"))
    t.check(scenarios.LAB_UEID in ueids, "UEID table holds the lab UEID")

    rxe0 = scenarios.rxe_snapshot((a, b))
    eth0 = eth_pkts(a)
    srv, cli = scenarios.xfer(a, b, family="smc", nbytes=NBYTES, mode="duplex")
    both = {("0", "tx"), ("0", "rx")}
    t.check(scenarios.verified(cli) == both and scenarios.verified(srv) == both,
            "both directions sent and verified on both ends")
    t.log(cli.out.strip().splitlines()[-1])
    delta = scenarios.rxe_delta((a, b), rxe0)
    non_roce = eth_pkts(a) - eth0 - delta[("alpha", "sent_pkts")] - delta[("alpha", "rcvd_pkts")]
    t.log("rxe0 deltas: %s; alpha eth0 packets that were not RoCE: %d" % (delta, non_roce))
    # TCP at a 1448-byte MSS needs > 2 * 2896 data segments for this payload.
    t.check(non_roce < 300, "payload did not go by TCP: %d non-RoCE packets on alpha eth0"
            % non_roce)
    per_dir = NBYTES // 1024
    for h in (a, b):
        t.check(delta[(h.name, "sent_pkts")] >= per_dir,
                "%s sent >= %d RoCE packets (%d)" % (h.name, per_dir, delta[(h.name, "sent_pkts")]))
        t.check(delta[(h.name, "rcvd_pkts")] >= per_dir,
                "%s received >= %d RoCE packets (%d)" % (h.name, per_dir, delta[(h.name, "rcvd_pkts")]))

    for h, role in ((a, "srv"), (b, "clnt")):
        st = scenarios.inkernel_stats(h)
        t.eq(st["smcr"]["v2"]["%s_success" % role], 1,
             "%s: SMC-Rv2 %s connections (smcr stats)" % (h.name, role))
        t.eq(st["smcr"]["v1"]["%s_success" % role], 0, "%s: SMC-Rv1 connections" % h.name)
        t.eq(st["fallbacks"][role], 0, "%s: TCP fallbacks" % h.name)
        t.check(st["smcr"]["tx"]["bytes"] >= NBYTES and st["smcr"]["rx"]["bytes"] >= NBYTES,
                "%s: SMC-R tx/rx byte counters cover the payload" % h.name)
