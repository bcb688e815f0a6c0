# SPDX-License-Identifier: GPL-2.0
"""Building blocks shared by the selftests, the demo and the benchmarks.

Everything here takes lab hosts (smcxlab.Host) and returns plain data, so a
test can assert on it and the demo can print it.
"""
import os
import re
import time

import smcxlab

XFER = os.path.join(smcxlab.REPO, "build", "tools", "xfer")
SMCCTL_DIR = os.path.join(smcxlab.REPO, "build", "user", "smcctl")
# The lab's UEID: the in-kernel SMC proposes SMC-Rv2 only with a UEID, and
# both peers need the same one (lab notes).
LAB_UEID = "SMCX-LAB-UEID"
LAB_PNETID = "SMCXLAB"

RXE_COUNTERS = ("sent_pkts", "rcvd_pkts")


def tool(name):
    return os.path.join(SMCCTL_DIR, name)


def setup_inkernel_smc(h, wire=0):
    """Load the stock smc.ko on a host and make it use SMC-Rv2 over rxe.

    Needs (lab notes): a pnet entry joining the netdev and the rxe device
    under one PNET ID, and a UEID (the same on both peers).  Configured with
    our own tool through the mainline generic netlink ABI."""
    h.modprobe("smc", "smc_diag")
    pnet = tool("smc_pnet")
    h.run("%s -a %s -I eth%d" % (pnet, LAB_PNETID, wire))
    h.run("%s -a %s -D rxe%d -P 1" % (pnet, LAB_PNETID, wire))
    h.run("%s ueid add %s" % (tool("smcr"), LAB_UEID))


def rxe_snapshot(hosts, dev="rxe0"):
    return {(h.name, c): h.rxe_counter(c, dev) for h in hosts for c in RXE_COUNTERS}


def rxe_delta(hosts, before, dev="rxe0"):
    after = rxe_snapshot(hosts, dev)
    return {k: after[k] - before[k] for k in after}


def xfer(server, client, family="tcp", port=5000, nbytes=1 << 20, mode="send", conns=1,
         server_family=None, timeout=300, extra=""):
    """A pattern-verified transfer; returns (server Result, client Result).

    Raises CommandFailed if either side fails to move and verify every byte."""
    sfam = server_family or family
    srv = server.bg("%s server -f %s -p %d -c %d" % (XFER, sfam, port, conns))
    server.wait_port(port)
    try:
        cli = client.run("%s client -f %s -a %s -p %d -n %d -m %s -c %d %s"
                         % (XFER, family, server.ip, port, nbytes, mode, conns, extra),
                         timeout=timeout)
    except smcxlab.CommandFailed:
        srv.kill()
        raise
    return srv.wait(timeout=60), cli


def verified(res):
    """The (connection, direction) pairs an xfer side moved and checked."""
    return set(re.findall(r"^xfer: conn (\d+) (tx|rx) bytes=\d+ fnv=[0-9a-f]+ ok$",
                          res.out, re.M))


def throughput(res):
    """MB/s from an xfer summary line."""
    m = re.search(r"([\d.]+) MB/s", res.out)
    return float(m.group(1)) if m else None


def inkernel_stats(h):
    """SMC-R counters of the stock smc.ko (smcr stats, JSON)."""
    import json
    return json.loads(h.out("%s -j stats" % tool("smcr")))


def wait_for(pred, timeout=10, step=0.2):
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(step)
    return pred()
