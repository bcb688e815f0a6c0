# SPDX-License-Identifier: GPL-2.0
"""SMC-R data path interop matrix (issue 5): smcx <-> smcx, smcx client ->
in-kernel server, in-kernel client -> smcx server.

Per cell: one held connection (smcss: SMCR on rxe0 both ends, one link group,
the server's RMB size), then 0 B, 1 B, 4 KiB, one RMB, RMB+1 and 4 MiB each
in send, recv and duplex mode, pattern-verified, each with its evidence
(SMC-Rv2 success +1, no fallback, rxe0 packets per KiB of payload, no
TCP-sized eth0 traffic).  The same body runs now between two in-kernel hosts
(smcr_inkernel_pair).  See selftests/lib/smcr_cases.py.
"""
import smcr_cases

TIMEOUT = 1800


def run(t):
    smcr_cases.run_matrix(t, smcr_cases.SMCX_CELLS, 6100)
