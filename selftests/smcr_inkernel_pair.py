# SPDX-License-Identifier: GPL-2.0
"""SMC-R data path, in-kernel client -> in-kernel server (the reference cell
of the smcr_interop matrix).

The body of smcr_interop run between two stock smc.ko hosts: it validates the
test logic against the stack that already does SMC-Rv2 in the lab.  One held
connection (smcss: SMCR on rxe0 both ends, one link group, the server's RMB
size), then 0 B, 1 B, 4 KiB, one RMB, RMB+1 and 4 MiB each in send, recv and
duplex mode, pattern-verified, each with its evidence (SMC-Rv2 success +1,
no fallback, rxe0 packets per KiB of payload, no TCP-sized eth0 traffic).
See selftests/lib/smcr_cases.py.
"""
import smcr_cases

# The stock smc.ko alone: validates the test logic (make check-reference).
TIER = "reference"
TIMEOUT = 900


def run(t):
    smcr_cases.run_matrix(t, smcr_cases.INKERNEL_PAIR, 6000)
