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

TIMEOUT = 1800


def run(t):
    smcr_cases.run_many(t, smcr_cases.SMCX_CELLS, 6300)
