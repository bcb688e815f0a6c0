# SPDX-License-Identifier: GPL-2.0
"""64 concurrent SMC-R connections share one link group: smcx <-> smcx,
smcx client -> in-kernel server, in-kernel client -> smcx server.

Per cell: 64 connections opened at once (hold), each verifying 100000 bytes
each way, held open while both hosts are checked: exactly one link group,
holding all 64 (smcr linkgroup), 64 SMCR sockets on rxe0 on one link (smcss),
SMC-Rv2 successes +64; then each verifies the same again, closes, and the
link group's connection count returns to zero.  The same body runs now
between two in-kernel hosts (smcr_many_conns_inkernel).
"""
import smcr_cases

# Measured 2026-11-29: 4 of 6 runs pass, all three cells.  In the other two
# the smcx client's QP went to the error state about 5 s into the storm
# of 64 connects (only flush completions seen, first on an RDMA WRITE; no
# error completion and nothing on the peer), the link group terminated
# ("smcx: link group ...: terminating: RDMA WRITE error"), connections
# still in their handshake fell back (ERR_REGBUF) and the open ones were
# reset.  Suspect: an RMB written by the peer before its REG_MR completed
# (a registration that timed out leaves its completion to the next one).
PENDING = ("issue 5: under 64 simultaneous connects the smcx client's QP sometimes "
           "goes to error (2 of 6 runs)")
TIMEOUT = 1800


def run(t):
    smcr_cases.run_many(t, smcr_cases.SMCX_CELLS, 6300)
