# SPDX-License-Identifier: GPL-2.0
"""Lab smoke for the edit loop (`make check-fast`): smcx <-> smcx over SMC-R.

One held connection shows SMCR on rxe0 at both ends in one link group, then
1 MiB each way in duplex mode, pattern-verified, with the evidence every
SMC-R test uses (SMC-Rv2 success, no fallback, rxe0 packets per KiB of
payload, no TCP-sized eth0 traffic).  smcr_interop covers the same and far
more in `make check`, so this test is in the fast tier only.
"""
import smcr_cases
import scenarios
import stacks

TIER = "fast"
TIMEOUT = 300
PORT = 6900
NBYTES = 1 << 20


def cell(t, cs, ss, port, eids):
    a, b = t.alpha, t.beta
    before = stacks.snapshot(a)
    with smcr_cases.Held(t, a, b, port, 1, 4 * smcr_cases.KIB):
        smcr_cases.check_linkgroup(t, a, 1, "CLNT", eids)
        smcr_cases.check_linkgroup(t, b, 1, "SERV", eids)
        smcr_cases.check_sockets(t, b, port, 1, "SERV")
        smcr_cases.check_sockets(t, a, port, 1, "CLNT")
    smcr_cases.check_smcr_run(t, "held connection", stacks.delta(before, stacks.snapshot(a)),
                              1, "clnt", 8 * smcr_cases.KIB, 8 * smcr_cases.KIB)
    snap = stacks.snapshot(a)
    srv, cli = scenarios.xfer(b, a, family="smc", port=port + 1, nbytes=NBYTES,
                              mode="duplex", timeout=smcr_cases.XFER_WAIT)
    t.eq(scenarios.verified(cli), {("0", "tx"), ("0", "rx")}, "client moved and verified 1 MiB")
    t.eq(scenarios.verified(srv), {("0", "tx"), ("0", "rx")}, "server moved and verified 1 MiB")
    smcr_cases.check_smcr_run(t, "1 MiB duplex", stacks.delta(snap, stacks.snapshot(a)),
                              1, "clnt", NBYTES, NBYTES)
    t.log("1 MiB duplex: %s" % cli.out.strip().splitlines()[-1])


def run(t):
    smcr_cases.need_tools(t, smcr_cases.XFER, smcr_cases.HOLD)
    smcr_cases.run_cells(t, [(stacks.SMCX, stacks.SMCX)], cell, PORT)
