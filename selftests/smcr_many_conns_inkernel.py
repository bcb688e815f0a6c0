# SPDX-License-Identifier: GPL-2.0
"""64 concurrent SMC-R connections share one link group, in-kernel pair.

64 connections opened at once (hold), each verifying 100000 bytes each way,
held open while both hosts are checked: exactly one link group, holding all
64 (smcr linkgroup), 64 SMCR sockets on rxe0 on one link (smcss), SMC-Rv2
successes +64; then each verifies the same again, closes, and the link
group's connection count returns to zero.  Validates the body that
smcr_many_conns runs for smcx.  See selftests/lib/smcr_cases.py.
"""
import smcr_cases

# The stock smc.ko alone: validates the test logic (make check-reference).
TIER = "reference"
TIMEOUT = 900


def run(t):
    smcr_cases.run_many(t, smcr_cases.INKERNEL_PAIR, 6200)
