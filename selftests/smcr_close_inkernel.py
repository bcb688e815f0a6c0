# SPDX-License-Identifier: GPL-2.0
"""SMC-R close orderings, in-kernel pair.

Over TCP (reference) and over SMC-R: client closes first, server first, both
at once, close with unread data on either side (what the peer observes is
recorded and compared: a reset, as TCP), shutdown(SHUT_WR) half-close then
data the other way (either side), each with 1 MiB verified; then every
socket must finish its close protocol and disappear from smcss, and the link
group must hold no connection.  Validates the body that smcr_close runs for
smcx.  See selftests/lib/smcr_cases.py and selftests/tools/closer.c.
"""
import smcr_cases

# The stock smc.ko alone: validates the test logic (make check-reference).
TIER = "reference"
TIMEOUT = 900


def run(t):
    smcr_cases.run_close(t, smcr_cases.INKERNEL_PAIR, 6400)
