# SPDX-License-Identifier: GPL-2.0
"""An AF_SMC socket of smcx behaves like a TCP socket, case by case.

The socket-semantics suite (build/tools/sockapi, docs/sockapi.md) runs over
plain TCP, the oracle, and over AF_SMC served by smcx.ko on both hosts;
every case is a subtest and must observe exactly what TCP observed (only
SO_DOMAIN/SO_PROTOCOL and default buffer sizes are exempt, reported as
known-different).  No exemptions beyond those: this is the product's promise.

  fallback/  smcx with smcr=0 (declines every proposal): the CLC handshake
             ends in a fallback to TCP (the TCP socket is grafted under the
             file);
  smc6/      the same with SMCPROTO_SMC6 against tcp6 (v4-mapped addresses).
sockapi_smcr runs smc/ (AF_SMC over the SMC-R data path), smc6/
(SMCPROTO_SMC6 with v4-mapped addresses: IPv4 on the wire, so SMC-R v2 as
well) and ipproto6/ (socket(AF_INET6, SOCK_STREAM, IPPROTO_SMC), the same
addresses), each checked to have ended every handshake in SMC-R v2, and
cork/: each corking case again alone, with smcx's pushes that wrote data
counted on the sending host around it (debugfs stats tx_data_pushes): the
16 small sends that TCP_CORK or MSG_MORE held leave in one push; 256 small
sends with autocorking leave in fewer pushes than sends, and in exactly
one push each with net.smc.autocorking_size 0.
The smcx handshake counters of each pass are logged, so it is visible which
path the cases exercised.

If smcx does not register AF_SMC the test fails: socket(AF_SMC) then either
fails with EAFNOSUPPORT or autoloads the in-kernel smc.ko, which must not
stand in for smcx.
"""
import sockapi_lib as L

TIMEOUT = 1500
COST = 109


def run(t):
    L.run_passes(t, smcr=False)
