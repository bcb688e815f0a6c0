# SPDX-License-Identifier: GPL-2.0
"""The socket-semantics suite over smcx's SMC-R data path.

The same cases as sockapi (build/tools/sockapi, docs/sockapi.md), TCP the
oracle, smcx loaded with its data path (smcr=1) and nothing configured on
both hosts, so every AF_SMC connection of the smc/ and smc6/ passes runs
over RDMA.  Every case must observe exactly what TCP observed.  The passes
(smc/, cork/, smc6/, ipproto6/) are sockapi_lib.run_passes(); sockapi's
docstring says what each checks.
"""
import sockapi_lib as L

TIMEOUT = 1500
COST = 136


def run(t):
    L.run_passes(t, smcr=True)
