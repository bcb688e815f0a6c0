# SPDX-License-Identifier: GPL-2.0
"""SMC-R close orderings: smcx <-> smcx, smcx client -> in-kernel server,
in-kernel client -> smcx server.

Per cell, over TCP (reference) and over SMC-R: client closes first, server
first, both at once, close with unread data on either side (the peer must
observe what it observes with mainline SMC and TCP: a reset), shutdown(WR)
half-close then data the other way (either side), each with 1 MiB verified;
then every socket must finish its close protocol and disappear from smcss,
and the link group must hold no connection.  The same body runs now between
two in-kernel hosts (smcr_close_inkernel).
"""
import smcr_cases

TIMEOUT = 1800
COST = 32


def run(t):
    smcr_cases.run_close(t, smcr_cases.SMCX_CELLS, 6500)
