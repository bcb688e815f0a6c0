# SPDX-License-Identifier: GPL-2.0
"""The socket-semantics suite over smcx's SMC-R data path (issue 5).

The same cases as sockapi (build/tools/sockapi, docs/sockapi.md), TCP the
oracle, smcx loaded with its data path (smcr=1) and nothing configured on
both hosts, so every AF_SMC connection of the smc/ and smc6/ passes runs
over RDMA.  Every case must observe exactly what TCP observed.
"""
import importlib.util
import os

_spec = importlib.util.spec_from_file_location(
    "sockapi_test", os.path.join(os.path.dirname(os.path.abspath(__file__)), "sockapi.py"))
_sockapi = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_sockapi)

TIMEOUT = _sockapi.TIMEOUT
COST = 95


def run(t):
    _sockapi.run_passes(t, smcr=True)
