# SPDX-License-Identifier: GPL-2.0
"""Which SMC stack runs on a lab host, and evidence that reads the same on both.

A stack is "smcx" (our smcx.ko) or "inkernel" (the stock smc.ko with
smc_diag).  Only one can be loaded on a host at a time: both register
AF_SMC and the generic netlink family SMC_GEN_NETLINK.

Configuration for SMC-Rv2 over the lab's rxe0:
  inkernel: scenarios.setup_inkernel_smc() (pnet entry eth0 + rxe0 under
            SMCXLAB, user EID SMCX-LAB-UEID); when the peer runs smcx it
            also gets smcx's user EID (read from the peer's module
            parameter), because SMC-Rv2 needs one EID in common.
  smcx:     insmod smcx.ko and nothing else: it ships a default user EID
            (module parameter "ueid", default SMCX-DEFAULT-UEID,
            kernel/ueid.h) and proposes the egress device's RoCE v2 GID
            without a pnet table.  The environment variable SMCX_PARAMS
            (default empty) adds module parameters, e.g. "smcr=0".
The order matters: smcx hosts are loaded first so that an in-kernel peer can
read their EID.

Evidence helpers (all through our smcctl tools, which talk the mainline ABI
to either module):
  stats(h)       SMC_GEN_NETLINK GET_STATS + GET_FBACK_STATS (`smcr -a -j
                 stats`, absolute counters); smcx implements both.  When the
                 netlink read fails on an smcx host, /sys/kernel/debug/smcx/stats
                 is used instead and the result says so (source "debugfs",
                 no byte counters).
  sockets(h)     sock_diag for AF_SMC (`smcss -a --json`): mode SMCR, link,
                 buffer sizes.  smc.ko answers through smc_diag; smcx must
                 register its own AF_SMC sock_diag handler (else
                 DiagUnavailable).
  linkgroups(h)  SMC_GEN_NETLINK GET_LGR_SMCR/GET_LINK_SMCR (`smcr -j
                 linkgroup`): link groups with their connection counts and links.
  snapshot(h)    stats + rxe0 packet counters + eth0 packet counters, for
                 before/after deltas (one process: the counters are read
                 through the agent).
"""
import json
import os
import time

import scenarios
import smcxlab

SMCX = "smcx"
INKERNEL = "inkernel"
STACKS = (SMCX, INKERNEL)
NAMES = {SMCX: "smcx", INKERNEL: "in-kernel"}

SMCX_DEFAULT_UEID = "SMCX-DEFAULT-UEID"	# kernel/ueid.h SMCX_UEID_DEFAULT
SMCX_PARAMS = os.environ.get("SMCX_PARAMS", "")
SMCX_DEBUGFS = "/sys/kernel/debug/smcx"
MODULES = ("smcx", "smc_diag", "smc")	# unload order
RXE = "/sys/class/infiniband/rxe0/ports/1/hw_counters"
ETH = "/sys/class/net/eth0/statistics"


class DiagUnavailable(smcxlab.LabError):
    """A host cannot answer an evidence query (module lacks the interface)."""


def smcr():
    return scenarios.tool("smcr")


def smcss():
    return scenarios.tool("smcss")


# -- loading -------------------------------------------------------------

def clear(h, timeout=60):
    """Unload every SMC module from a host (smcx first, then smc_diag, smc)."""
    loaded = h.modules()
    for m in MODULES:
        if m in loaded:
            r = h.run("for i in $(seq 1 %d); do rmmod %s && exit 0; sleep 1; done; exit 1"
                      % (max(1, timeout // len(MODULES)), m), check=False,
                      timeout=timeout + 30)
            if r.rc != 0:
                raise smcxlab.LabError("%s: module %s would not unload: %s\n%s"
                                       % (h.name, m, (r.err.strip().splitlines() or [""])[-1],
                                          h.module_holders(m)))


def running(h):
    """The stack loaded on a host now, or None."""
    loaded = h.modules()
    if "smcx" in loaded:
        return SMCX
    if "smc" in loaded:
        return INKERNEL
    return None


def smcx_ueid(h):
    """The user EID smcx on @h was loaded with (its module parameter)."""
    v = (h.read("/sys/module/smcx/parameters/ueid") or "").strip()
    return v.upper() or None


def load(h, stack, peer=None, peer_stack=None):
    """Make @h run @stack, configured for SMC-Rv2 over rxe0 with @peer.

    Returns the user EIDs @h offers.  With an smcx peer the peer must be
    loaded already (its EID is read from it)."""
    if stack not in STACKS:
        raise ValueError("unknown stack %r (have %s)" % (stack, ", ".join(STACKS)))
    clear(h)
    if stack == SMCX:
        h.insmod_smcx(SMCX_PARAMS)
        eid = smcx_ueid(h)
        return [eid] if eid else []
    scenarios.setup_inkernel_smc(h)
    eids = [scenarios.LAB_UEID]
    if peer_stack == SMCX:
        eid = smcx_ueid(peer)
        if not eid:
            raise smcxlab.LabError("%s: smcx loaded without a user EID; an in-kernel peer "
                                   "cannot do SMC-Rv2 with it" % peer.name)
        h.run("%s ueid add %s" % (smcr(), eid))
        eids.append(eid)
    return eids


def setup_pair(client, cstack, server, sstack):
    """Load both hosts; returns the EID the two should negotiate."""
    order = sorted(((client, cstack, server, sstack), (server, sstack, client, cstack)),
                   key=lambda x: x[1] != SMCX)		# smcx hosts first
    eids = {}
    for h, st, peer, pst in order:
        eids[h.name] = load(h, st, peer, pst)
    common = [e for e in eids[client.name] if e in eids[server.name]]
    if not common:
        raise smcxlab.LabError("no user EID in common: %s" % eids)
    return common


def describe(cstack, sstack):
    return "%s client -> %s server" % (NAMES[cstack], NAMES[sstack])


# -- statistics ----------------------------------------------------------

def _norm_netlink(d):
    r = d["smcr"]
    fb = d["fallbacks"]
    return {
        "source": "netlink",
        "clnt_v1": r["v1"]["clnt_success"], "srv_v1": r["v1"]["srv_success"],
        "clnt_v2": r["v2"]["clnt_success"], "srv_v2": r["v2"]["srv_success"],
        "clnt_fallback": fb["clnt"], "srv_fallback": fb["srv"],
        "clnt_hs_errors": d["handshake_errors"]["clnt"],
        "srv_hs_errors": d["handshake_errors"]["srv"],
        "tx_bytes": r["tx"]["bytes"], "rx_bytes": r["rx"]["bytes"],
        "fallback_reasons": {"%s_%s" % (role, x.get("name") or x.get("hex")): x["count"]
                             for role in ("clnt", "srv")
                             for x in fb.get(role + "_reasons", [])},
    }


def _norm_debugfs(text):
    kv = {}
    for ln in text.splitlines():
        p = ln.split()
        if len(p) == 2 and p[1].isdigit():
            kv[p[0]] = int(p[1])
    return {
        "source": "debugfs",
        "clnt_v1": kv.get("clnt_success_v1", 0), "srv_v1": kv.get("srv_success_v1", 0),
        "clnt_v2": kv.get("clnt_success_v2", 0), "srv_v2": kv.get("srv_success_v2", 0),
        "clnt_fallback": kv.get("clnt_fallback", 0), "srv_fallback": kv.get("srv_fallback", 0),
        "clnt_hs_errors": kv.get("clnt_hs_errors", 0), "srv_hs_errors": kv.get("srv_hs_errors", 0),
        "tx_bytes": None, "rx_bytes": None,
        "fallback_reasons": {k.replace("_fallback_", "_"): v for k, v in kv.items()
                             if "_fallback_" in k},
    }


# The counters a snapshot reads besides the statistics: files, which the
# agent reads without starting a process (a process costs 0.1-0.2 s under
# TCG, and a snapshot used to start eight: bash, smcr and six cats).
SNAP_FILES = (("rxe_sent", RXE + "/sent_pkts"), ("rxe_rcvd", RXE + "/rcvd_pkts"),
              ("eth_rx", ETH + "/rx_packets"), ("eth_tx", ETH + "/tx_packets"))


def snapshot(h):
    """{'stats': normalized stats, 'rxe_sent', 'rxe_rcvd', 'eth_pkts'}: the
    statistics (`smcr -a -j stats`, the one process; debugfs when netlink
    fails), then the packet counters, read after them."""
    r = h.run("%s -a -j stats" % smcr(), check=False)
    files = h.read_many([SMCX_DEBUGFS + "/stats"] + [p for _, p in SNAP_FILES])
    if r.rc == 0 and not r.timed_out:
        st = _norm_netlink(json.loads(r.out))
    elif files[0] and files[0].strip():
        st = _norm_debugfs(files[0])
    else:
        raise DiagUnavailable("%s: no SMC statistics: smcr stats failed (%s) and no %s/stats"
                              % (h.name, r.describe()[-200:], SMCX_DEBUGFS))
    c = {}
    for (key, path), text in zip(SNAP_FILES, files[1:]):
        if text is None or not text.strip().isdigit():
            raise smcxlab.LabError("%s: cannot read %s: %r" % (h.name, path, text))
        c[key] = int(text)
    return {"stats": st, "rxe_sent": c["rxe_sent"], "rxe_rcvd": c["rxe_rcvd"],
            "eth_pkts": c["eth_rx"] + c["eth_tx"]}


def run_then_snapshot(h, cmd, timeout=120):
    """Run @cmd on @h, then take a snapshot once it has ended.

    Returns (@cmd's Result, whatever its exit status, and the snapshot)."""
    r = h.run(cmd, timeout=timeout, check=False)
    return r, snapshot(h)


def stats(h):
    return snapshot(h)["stats"]


def json_flat(d, prefix=""):
    """{"a": {"b": 1}} -> {"a.b": 1}, numbers only (smcctl's JSON)."""
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(json_flat(v, prefix + k + "."))
        elif isinstance(v, int) and not isinstance(v, bool):
            out[prefix + k] = v
    return out


def json_diff(before, after):
    """The numbers of two JSON objects that moved: {"a.b": after - before}."""
    b, a = json_flat(before), json_flat(after)
    return {k: a[k] - b.get(k, 0) for k in a if a[k] != b.get(k, 0)}


def delta(before, after):
    """after - before for every counter of two snapshots (None stays None)."""
    d = {}
    for k in ("rxe_sent", "rxe_rcvd", "eth_pkts"):
        d[k] = after[k] - before[k]
    for k, v in after["stats"].items():
        if k == "source":
            d[k] = v
        elif k == "fallback_reasons":
            d[k] = {r: n - before["stats"][k].get(r, 0) for r, n in v.items()
                    if n != before["stats"][k].get(r, 0)}
        elif v is None or before["stats"].get(k) is None:
            d[k] = None
        else:
            d[k] = v - before["stats"][k]
    return d


def fallback_reason(d):
    """A short text for the fallbacks in a delta, or ''."""
    return ", ".join("%s x%d" % (k, n) for k, n in sorted(d.get("fallback_reasons", {}).items()))


def not_smcr(d, conns=1):
    """Why the client's delta @d is not @conns SMC-R connections without a
    fallback (the fallback reasons, or how many were counted), or ''."""
    n = d["clnt_v2"] + d["clnt_v1"]
    if not d["clnt_fallback"] and n >= conns:
        return ""
    return fallback_reason(d) or "%d of %d connections counted as SMC-R" % (n, conns)


# -- sockets and link groups ---------------------------------------------

def sockets(h, port=None):
    """AF_SMC sockets of @h (smcss JSON), those with @port at either end."""
    r = h.run("%s -a --json" % smcss(), check=False)
    if r.rc != 0:
        hint = ""
        if running(h) == SMCX:
            hint = (" (smcx must answer sock_diag for AF_SMC itself, in smc_diag's format,"
                    " for this evidence)")
        raise DiagUnavailable("%s: smcss: %s%s" % (h.name, (r.err or r.out).strip(), hint))
    socks = json.loads(r.out)["sockets"]
    if port is not None:
        socks = [s for s in socks
                 if (s.get("local") or {}).get("port") == port
                 or (s.get("peer") or {}).get("port") == port]
    return socks


def gid_of(h):
    """rxe0's IPv4-mapped RoCEv2 GID of @h's wire address, in the text form
    of sysfs, smcss and smcr (eight groups of four hex digits)."""
    a, b, c, d = (int(x) for x in h.ip.split("."))
    return "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x" % (a, b, c, d)


def linkgroups(h):
    """SMC-R link groups of @h with their links (smcr JSON)."""
    r = h.run("%s -j linkgroup" % smcr(), check=False)
    if r.rc != 0:
        raise DiagUnavailable("%s: smcr linkgroup: %s" % (h.name, (r.err or r.out).strip()))
    return json.loads(r.out)["linkgroups"]


CONN_OBJECTS = smcxlab.CONN_OBJECTS


def smcx_objects(h):
    """smcx's object counters {kind: count} ({} when smcx is not loaded)."""
    out = h.read("%s/objects" % SMCX_DEBUGFS) or ""
    return {p[0]: int(p[1]) for p in (ln.split() for ln in out.splitlines())
            if len(p) == 2 and p[1].lstrip("-").isdigit()}


def wait_quiet(h, port, timeout=60):
    """Wait until no AF_SMC socket of @port is left on @h; returns what is left."""
    deadline = time.time() + timeout
    while True:
        left = sockets(h, port)
        if not left or time.time() > deadline:
            return left
        time.sleep(1)
