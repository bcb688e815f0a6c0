#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Attribute one smcprof window dump to functions, modules and groups.

    attrib.py [--per N] [--unit NAME] [--stacks smcx,smc] [--top 25]
              [--json FILE] DUMP KALLSYMS

DUMP is one PREFIX.<seq>.<label>.tbs file of smcprof.so, KALLSYMS the text
of /proc/kallsyms of the same boot, read as root (real addresses; module
symbols end in [module]).  Each translated block goes to the function
whose range [symbol, next symbol) holds its start address; addresses below
0xffff800000000000 go to `user`.  A function's calls are the executions of
the blocks that begin at its first address.  Every figure is divided by
--per (per round trip, per MB, ...).  README.md describes the figures and
the JSON.
"""

import argparse
import bisect
import fnmatch
import json
import sys

KERNEL_BASE = 0xffff800000000000

# The groups: a kernel function is in a group when its module matches one
# of "modules", or when it is in the core kernel (vmlinux) and its name
# matches one of "functions" (fnmatch patterns).
GROUPS = {
    # rxe's emulated NIC and what it runs on: RDMA core, UDP/IP, the
    # net device and skbs, virtio-net, CRC/ICRC and kernel memcpy/memset
    "rxe_side": {
        "modules": ["rdma_rxe", "ib_core", "ib_uverbs", "virtio_net",
                    "udp_tunnel", "ip6_udp_tunnel", "crc32*", "libcrc32c"],
        "functions": ["udp*", "ip_*", "ip6*", "__ip*", "dev_*", "__dev_*",
                      "netif_*", "__netif*", "net_rx_action", "skb_*",
                      "__skb*", "kfree_skb*", "*virtqueue*", "vring*",
                      "virtio*", "crc32*", "crypto_*", "shash*", "memcpy*",
                      "memset*", "__memcpy", "__memset", "sg_*"],
    },
    # copies between user and kernel space
    "copy_user": {
        "modules": [],
        "functions": ["rep_movs_alternative", "copy_user*",
                      "*copy_to_user*", "*copy_from_user*"],
    },
}

# functions whose calls are reported as events
EVENTS = [
    "rxe_post_send", "rxe_post_recv", "rxe_poll_cq", "rxe_req_notify_cq",
    "ib_poll_handler", "rxe_sched_task", "try_to_wake_up", "__schedule",
    "__queue_work", "mutex_lock", "lock_sock_nested", "_raw_spin_lock",
    "_raw_spin_lock_bh", "_raw_spin_lock_irqsave", "tasklet_action_common",
]

FLAG_REP_STRING = 0x1
PFX = "__pfx_"


def fail(msg):
    sys.exit("attrib.py: " + msg)


def read_dump(path):
    """(label, seq, [(vaddr, n_insns, execs, atomics, flags)])"""
    label, seq, total, recs = None, None, None, []
    with open(path) as f:
        if f.readline().split() != ["#", "smcprof", "1"]:
            fail("%s: not an smcprof 1 dump" % path)
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "#":
                if len(w) >= 5 and w[1] == "label" and w[3] == "seq":
                    label, seq = w[2], int(w[4])
                elif len(w) >= 5 and w[1] == "insns" and w[3] == "atomics":
                    total = (int(w[2]), int(w[4]))
                continue
            if len(w) != 5:
                fail("%s: bad line: %s" % (path, line.rstrip()))
            recs.append((int(w[0], 16), int(w[1]), int(w[2]), int(w[3]),
                         int(w[4])))
    if total is None or label is None:
        fail("%s: no label or totals header" % path)
    got = (sum(r[1] * r[2] for r in recs), sum(r[3] * r[2] for r in recs))
    if got != total:
        fail("%s: the lines sum to %s, the header says %s" % (path, got, total))
    return label, seq, recs


def read_kallsyms(path):
    """Sorted text symbols: ([addr], [(name, module)]); the first name
    listed at an address wins, and __pfx_NAME padding joins NAME."""
    syms = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) < 3 or w[1] not in ("t", "T", "w", "W"):
                continue
            addr = int(w[0], 16)
            mod = w[3].strip("[]") if len(w) > 3 else "vmlinux"
            if addr not in syms:
                syms[addr] = (w[2], mod)
    if syms and max(syms) == 0:
        fail("%s: all addresses are 0 (read /proc/kallsyms as root)" % path)
    addrs = sorted(syms)
    return addrs, [syms[a] for a in addrs]


def attribute(recs, addrs, names):
    """{(name, module): [insns, atomics, calls, rep_execs]}, user figures"""
    funcs = {}
    user = [0, 0]
    for vaddr, n, execs, atomics, flags in recs:
        if vaddr < KERNEL_BASE:
            user[0] += n * execs
            user[1] += atomics * execs
            continue
        i = bisect.bisect_right(addrs, vaddr) - 1
        if i < 0:
            key, start = ("?", "unknown"), None
        else:
            key, start = names[i], addrs[i]
            if key[0].startswith(PFX):
                key = (key[0][len(PFX):], key[1])
        f = funcs.setdefault(key, [0, 0, 0, 0])
        f[0] += n * execs
        f[1] += atomics * execs
        if vaddr == start:
            f[2] += execs
        if flags & FLAG_REP_STRING:
            f[3] += execs
    return funcs, user


def in_group(group, name, mod):
    g = GROUPS[group]
    if any(fnmatch.fnmatchcase(mod, p) for p in g["modules"]):
        return True
    return mod == "vmlinux" and any(fnmatch.fnmatchcase(name, p)
                                    for p in g["functions"])


def figures(label, recs, addrs, names, per, unit, stacks, top):
    funcs, user = attribute(recs, addrs, names)

    def d(v):
        return v if per == 1 else v / per

    total = sum(r[1] * r[2] for r in recs)
    atomics = sum(r[3] * r[2] for r in recs)
    kernel = total - user[0]
    modules = {}
    groups = {"rxe_side": 0, "copy_user": 0, "copy_iters": 0}
    events = dict.fromkeys(EVENTS, 0)
    for (name, mod), (ins, atom, calls, reps) in funcs.items():
        m = modules.setdefault(mod, [0, 0])
        m[0] += ins
        m[1] += atom
        if in_group("rxe_side", name, mod):
            groups["rxe_side"] += ins
        if in_group("copy_user", name, mod):
            groups["copy_user"] += ins
            groups["copy_iters"] += reps
        if name in events:
            events[name] += calls
    groups["K_nr"] = (kernel - groups["rxe_side"] -
                      sum(modules.get(s, [0])[0] for s in stacks))
    out = {
        "label": label,
        "per": int(per) if per == int(per) else per,
        "unit": unit,
        "insns": d(total),
        "atomics": d(atomics),
        "user": d(user[0]),
        "kernel": d(kernel),
        "kernel_atomics": d(atomics - user[1]),
        "modules": {m: {"insns": d(v[0]), "atomics": d(v[1])}
                    for m, v in sorted(modules.items())},
        "groups": {g: d(v) for g, v in groups.items()},
        "events": {e: d(v) for e, v in events.items()},
        "stacks": {},
    }
    for s in stacks:
        own = sorted(((v[0], name) for (name, mod), v in funcs.items()
                      if mod == s), key=lambda t: (-t[0], t[1]))
        m = modules.get(s, [0, 0])
        out["stacks"][s] = {
            "insns": d(m[0]), "atomics": d(m[1]),
            "top": [[name, d(ins), d(funcs[(name, s)][2])]
                    for ins, name in own[:top]],
        }
    kfuncs = sorted(((v[0], name, mod, v[2]) for (name, mod), v in
                     funcs.items()), key=lambda t: (-t[0], t[1], t[2]))
    out["_top_kernel"] = [[n, m, d(i), d(c)] for i, n, m, c in kfuncs[:top]]
    return out


def fmt(v):
    if isinstance(v, int) or float(v).is_integer():
        return "{:,}".format(int(v))
    return "{:,.2f}".format(v)


def summary(fig, seq):
    per = "" if fig["per"] == 1 else " per %s %s" % (fmt(fig["per"]),
                                                     fig["unit"])
    print("smcprof window %s (dump %s), figures%s" % (
        fig["label"], seq, per or " for the whole window"))
    print("  insns %s: user %s, kernel %s; atomics %s (kernel %s)" % (
        fmt(fig["insns"]), fmt(fig["user"]), fmt(fig["kernel"]),
        fmt(fig["atomics"]), fmt(fig["kernel_atomics"])))
    print("modules (insns, atomics):")
    for m, v in sorted(fig["modules"].items(), key=lambda t: -t[1]["insns"]):
        print("  %-24s %14s %10s" % (m, fmt(v["insns"]), fmt(v["atomics"])))
    print("groups:")
    for g, v in fig["groups"].items():
        print("  %-24s %14s" % (g, fmt(v)))
    print("events (calls):")
    for e, v in fig["events"].items():
        print("  %-24s %14s" % (e, fmt(v)))
    for s, v in fig["stacks"].items():
        print("stack %s: insns %s, atomics %s; top functions (insns, calls):"
              % (s, fmt(v["insns"]), fmt(v["atomics"])))
        for name, ins, calls in v["top"]:
            print("  %-40s %12s %10s" % (name, fmt(ins), fmt(calls)))
    print("top kernel functions (insns, calls):")
    for name, mod, ins, calls in fig["_top_kernel"]:
        print("  %-40s %-12s %12s %10s" % (name, mod, fmt(ins), fmt(calls)))


def main():
    ap = argparse.ArgumentParser(
        description="Attribute an smcprof dump to functions, modules and "
        "groups through the same boot's /proc/kallsyms.")
    ap.add_argument("dump", help="PREFIX.<seq>.<label>.tbs of smcprof.so")
    ap.add_argument("kallsyms", help="the guest's /proc/kallsyms, read as root")
    ap.add_argument("--per", type=float, default=1,
                    help="divide every figure by N (default 1)")
    ap.add_argument("--unit", default="window",
                    help="name of the unit of --per (default: window)")
    ap.add_argument("--stacks", default="smcx,smc",
                    help="modules that are SMC stacks (default smcx,smc)")
    ap.add_argument("--top", type=int, default=25,
                    help="functions listed per stack (default 25)")
    ap.add_argument("--json", metavar="FILE", help="write the figures here")
    a = ap.parse_args()
    if a.per <= 0:
        fail("--per must be positive")
    stacks = [s for s in a.stacks.split(",") if s]
    label, seq, recs = read_dump(a.dump)
    addrs, names = read_kallsyms(a.kallsyms)
    fig = figures(label, recs, addrs, names, a.per, a.unit, stacks, a.top)
    summary(fig, seq)
    del fig["_top_kernel"]
    if a.json:
        with open(a.json, "w") as f:
            json.dump(fig, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
