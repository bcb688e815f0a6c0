# SPDX-License-Identifier: GPL-2.0
"""smcctl's monitoring commands against smcx itself.

smcx with smcr=1 on both hosts.  alpha holds one SMC-R connection to beta
open (build/tools/hold, data verified both ways before and after the hold)
and a second AF_SMC connection to a plain TCP server on beta that falls back
(smcctl_live.Live, the same setup and checks as smcctl_inkernel runs against
smc.ko).  While they are held:
  - smcss -a shows the held socket as SMCR on both ends and the fallback
    socket as TCP with PEER_NO_SMC; smcss -R its link (role, rxe0, port 1,
    both GIDs); --json has the same sockets, modes, link and reason;
  - smcr linkgroup (-d: SMC 2.1, peer host, smcx's default user EID; no PNET
    ID, smcx needs no pnet table) and -dd link-show (eth0/rxe0, LINK_ACTIVE,
    link UIDs, GIDs), text and --json alike;
  - smcr device: rxe0 port 1 on eth0, ACTIVE, the link counted, no PNET ID;
  - smcr stats: SMC-R byte counters grew by the held connection's first
    exchange, the fallback is counted, text equals --json; after the release
    they grow again by the second exchange.
smcx_diag covers smcss -d (cursors, buffer sizes), smcx_stats every
statistics counter, smcx_netlink the device table without connections.
"""
import smcctl_live as live
import stacks

TIMEOUT = 600
COST = 13
SMCX_PARAMS = "smcr=1"

SRV_PORT = 5110     # hold server on beta, the held SMC-R connection
TCP_PORT = 5111     # plain TCP server on beta: the AF_SMC client falls back


def run(t):
    for h in t.hosts:
        stacks.clear(h)
        h.insmod_smcx(SMCX_PARAMS)
    prof = live.SMCX
    with live.Live(t, SRV_PORT, TCP_PORT) as lv:
        live.check_smcss(t, lv, prof)
        live.check_linkgroup(t, lv, prof)
        live.check_device(t, lv, prof)
        live.check_stats_live(t, lv, prof)
    live.check_stats_after(t, lv, prof)
