# SPDX-License-Identifier: GPL-2.0
"""Who may change smcx's state, checked against mainline.

smcx.ko runs on alpha, the stock smc.ko on beta; the same probe runs on
both as four identities: root; nobody; the root of a user namespace that
nobody made together with a network namespace (`unshare -Urn`, done by
build/tools/userns_run since the guests run chrooted); and the
root of a user namespace nobody made in the initial network namespace
(`unshare -Ur`).  The probe sends every state-changing generic netlink
command (PNET ADD/DEL/FLUSH, UEID ADD/REMOVE/FLUSH, SEID ENABLE/DISABLE,
HS limitation ENABLE/DISABLE) and every dump, and writes every net.smc
sysctl back with its own value.

- every change is EPERM for the three unprivileged identities, on both
  stacks (mainline marks each GENL_ADMIN_PERM); the dumps work for all;
- a net.smc sysctl write gets what it gets with mainline: a user
  namespace's root writes its own network namespace's values, nobody and
  a user namespace's root in the initial namespace get EACCES;
- debugfs (/sys/kernel/debug/smcx: objects, config, stats, socks,
  devices, route) is root's: EACCES for the three;
- root changes all of it (no system EID without ISM: EOPNOTSUPP);
- a PNET table holds 256 entries: the 257th ADD (interface or RDMA) is
  ENOSPC with an extack message, another namespace's table still takes
  entries, and DEL frees every entry (the object count is back to 0);
- debugfs `socks` lists the socks of the reader's network namespace
  only, as `stats` counts only its handshakes;
- a cgroup sock_create program that denies (review N7): every
  IPPROTO_SMC socket made in a network namespace inside that cgroup is
  EPERM, no CLC socket is left behind, and the namespace is freed once
  deleted (its PNET entry goes with it, at pernet exit);
- SMC buffers (review N6), last, with smcx on both hosts: nobody, in a
  memory cgroup of its own on each host, holds N6_CONNS SMC-R connections
  with 1 MiB SO_SNDBUF/SO_RCVBUF (net.core.[rw]mem_max raised to 4 MiB):
  on alpha the client's cgroup, on beta the listener's (whose server
  connections are made in a worker) grows by at least their send
  buffers and RMBs;
  a user namespace's root cannot raise net.smc.rmem/wmem of its network
  namespace above the initial namespace's net.core.rmem_max/wmem_max
  (EPERM), and can below; once closed, the pooled buffers are freed
  after the pool's idle time (buf_idle_ms, set to 2 s here) while the
  link group lingers, and the cgroup's charge goes with them.
"""
import json
import os
import time

import scenarios
import smcr_cases
import stacks

TIMEOUT = 420
COST = 32

NOBODY = "setpriv --reuid=65534 --regid=65534 --clear-groups "


def identities(tooldir):
    """(name, command prefix): root last, because it changes the tables.
    userns_run is `setpriv --reuid=65534 ... unshare -Ur[n]` for a guest
    that runs chrooted (see selftests/tools/userns_run.c)."""
    userns = os.path.join(tooldir, "userns_run")
    return (("nobody", NOBODY),
            ("userns+netns", userns + " -n -- "),
            ("userns", userns + " -- "),
            ("root", ""))


EPERM, EACCES, ENOSPC, EOPNOTSUPP = 1, 13, 28, 95
DBG = "/sys/kernel/debug/smcx"
PNET_MAX = 256			# SMCX_PNET_MAX (kernel/pnet.h)

# SMC_PNETID and SMC_GEN_NETLINK commands (include/uapi/linux/smc.h)
PNET_GET, PNET_ADD, PNET_DEL, PNET_FLUSH = 1, 2, 3, 4
(GET_SYS_INFO, GET_LGR_SMCR, GET_LINK_SMCR, GET_LGR_SMCD, GET_DEV_SMCD,
 GET_DEV_SMCR, GET_STATS, GET_FBACK_STATS, DUMP_UEID, ADD_UEID, REMOVE_UEID,
 FLUSH_UEID, DUMP_SEID, ENABLE_SEID, DISABLE_SEID, DUMP_HS, ENABLE_HS,
 DISABLE_HS) = range(1, 19)
EID = "1=str:" + "PRIV-TEST-EID".ljust(32)

# (what, family, command, attributes): root runs them in this order
CHANGES = (
    ("pnet add", "SMC_PNETID", PNET_ADD, ["1=str:PRIVT", "2=str:lo"]),
    ("pnet del", "SMC_PNETID", PNET_DEL, ["1=str:PRIVT"]),
    ("pnet flush", "SMC_PNETID", PNET_FLUSH, []),
    ("ueid add", "SMC_GEN_NETLINK", ADD_UEID, [EID]),
    ("ueid remove", "SMC_GEN_NETLINK", REMOVE_UEID, [EID]),
    ("ueid flush", "SMC_GEN_NETLINK", FLUSH_UEID, []),
    ("seid enable", "SMC_GEN_NETLINK", ENABLE_SEID, []),
    ("seid disable", "SMC_GEN_NETLINK", DISABLE_SEID, []),
    ("hs limitation enable", "SMC_GEN_NETLINK", ENABLE_HS, []),
    ("hs limitation disable", "SMC_GEN_NETLINK", DISABLE_HS, []),
)
READS = (("pnet get", "SMC_PNETID", PNET_GET),) + tuple(
    ("dump %d" % c, "SMC_GEN_NETLINK", c)
    for c in (GET_SYS_INFO, GET_LGR_SMCR, GET_LINK_SMCR, GET_LGR_SMCD, GET_DEV_SMCD,
              GET_DEV_SMCR, GET_STATS, GET_FBACK_STATS, DUMP_UEID, DUMP_SEID, DUMP_HS))
DEBUGFS = [(DBG + "/" + f, "r") for f in ("objects", "config", "stats", "socks",
                                          "devices", "route")] + [(DBG + "/route", "w")]

# Run in the guest (selftests/tools): privprobe.py SPECFILE as each
# identity, one JSON line (the errno of each request, of each sysctl
# write-back, of each file); netns_socks.py NETNS as root, the inodes of an
# IPPROTO_SMC socket in the initial namespace and one in the netns and
# debugfs socks read from each namespace.
PROBE = "selftests/tools/privprobe.py"
SOCKS = "selftests/tools/netns_socks.py"
# cgroup_deny.py NETNS COUNT: COUNT IPPROTO_SMC sockets of each family in
# NETNS, inside a cgroup whose sock_create program denies; their errnos
DENY = "selftests/tools/cgroup_deny.py"
DENY_COUNT = 200
N6_CONNS = 8
N6_PORT = 47106
MIB = 1 << 20


def probe_script(h, repo, ids, files):
    """Put PROBE's spec on @h; the script that runs it as every identity of @ids,
    one "identity {json}" line each."""
    spec = {"genl": [[fam, cmd, attrs, False] for _, fam, cmd, attrs in CHANGES] +
            [[fam, cmd, [], True] for _, fam, cmd in READS],
            "files": files}
    h.run("cat > /tmp/privspec.json", input=json.dumps(spec))
    h.run("chmod 0644 /tmp/privspec.json")
    script = "".join("echo %s \"$(%spython3 %s /tmp/privspec.json)\"\n"
                     % (name, prefix, os.path.join(repo, PROBE)) for name, prefix in ids)
    return script


def parse(h, res):
    out = {}
    for line in res.out.splitlines():
        name, _, js = line.partition(" ")
        if not js.strip():
            raise AssertionError("%s: the probe as %s printed nothing: %s"
                                 % (h.name, name, res.describe()))
        out[name] = json.loads(js)
    return out


def genl_batch(h, repo, lines, netns=None):
    pre = "ip netns exec %s " % netns if netns else ""
    r = h.run("%spython3 %s/selftests/tools/genlreq.py --batch" % (pre, repo),
              input="".join(ln + "\n" for ln in lines), check=False)
    answers = [json.loads(ln) for ln in r.out.splitlines()]
    if len(answers) != len(lines):
        raise AssertionError("genlreq --batch answered %d of %d: %s"
                             % (len(answers), len(lines), r.describe()))
    return answers


def config(h):
    return {k: int(v) for k, v in (ln.split() for ln in
                                    h.out("cat %s/config" % DBG).splitlines())}


def run(t):
    a, b = t.alpha, t.beta
    repo = t.repo
    tools = os.path.dirname(t.tool())

    ids = identities(os.path.join(repo, "build", "tools"))
    userns = dict(ids)["userns"]

    a.insmod_smcx()
    b.modprobe("smc")
    for h in (a, b):
        r = h.run(userns + "sh -c 'id -u; cat /proc/self/uid_map; readlink /proc/self/ns/user'",
                  check=False)
        t.check(r.rc == 0, "userns_run works: " + r.describe())
        lines = r.out.split()
        t.eq(lines[:4], ["0", "0", "65534", "1"], "%s: root of a namespace nobody made" % h.name)
        t.check(lines[4] != h.out("readlink /proc/self/ns/user"), "a new user namespace")

    with t.subtest("every identity: changes, dumps, sysctls, debugfs (smcx and smc.ko)"):
        a.out("%s/smc_pnet -a keep -I eth0" % tools)
        job = b.bg("bash -s", input=probe_script(b, repo, ids, []), cwd="/tmp")
        got = parse(a, a.run("bash -s", input=probe_script(a, repo, ids, DEBUGFS), cwd="/tmp"))
        ref = parse(b, job.wait())
        for who, _ in ids:
            x, m = got[who], ref[who]
            for i, (what, _, _, _) in enumerate(CHANGES):
                if who == "root":
                    want = EOPNOTSUPP if what.startswith("seid") else 0
                    t.eq(x["genl"][i][0], want, "root: %s on smcx (%s)" % (what, x["genl"][i][1]))
                    continue
                t.eq(m["genl"][i][0], EPERM, "%s: %s on smc.ko" % (who, what))
                t.eq(x["genl"][i][0], EPERM, "%s: %s on smcx, as on smc.ko" % (who, what))
            for i, (what, _, _) in enumerate(READS, len(CHANGES)):
                t.eq(m["genl"][i][0], 0, "%s: %s on smc.ko" % (who, what))
                t.eq(x["genl"][i][0], 0, "%s: %s on smcx, as on smc.ko" % (who, what))
            want = EACCES if who in ("nobody", "userns") else 0
            common = sorted(set(x["sysctl"]) & set(m["sysctl"]))
            t.check(len(common) >= 6, "%s: sysctls of both: %s" % (who, common))
            for name in common:
                t.eq(m["sysctl"][name], want, "%s: write net.smc.%s on smc.ko" % (who, name))
            for name in sorted(x["sysctl"]):
                t.eq(x["sysctl"][name], want, "%s: write net.smc.%s on smcx" % (who, name))
            t.eq(len(x["files"]), len(DEBUGFS), "%s: every debugfs file tried" % who)
            for (path, mode), err in zip(DEBUGFS, x["files"]):
                t.eq(err, 0 if who == "root" else EACCES,
                     "%s: open %s for %s" % (who, path, "reading" if mode == "r" else "writing"))
        # the unprivileged ones ran first: the tables they tried are as root left them
        t.eq(got["nobody"]["genl"][len(CHANGES)][2], 1, "pnet table (KEEP) seen by nobody")
        t.eq(got["userns"]["genl"][len(CHANGES)][2], 1, "... and unchanged after userns")
        t.eq(got["root"]["genl"][len(CHANGES)][2], 0, "root's FLUSH emptied it")
        r = a.run(dict(ids)["userns+netns"] + "%s/smc_pnet -a ns1 -I lo" % tools, check=False)
        t.check(r.rc == 1 and "permission denied" in r.err,
                "smc_pnet as a user namespace's root: refused: " + r.describe())

    with t.subtest("PNET table cap: %d entries per namespace, ENOSPC beyond" % PNET_MAX):
        a.out("%s/smc_pnet -f" % tools)
        adds = ["SMC_PNETID %d 1=str:CAP 2=str:cap%d" % (PNET_ADD, i) for i in range(PNET_MAX + 1)]
        adds.append("SMC_PNETID %d 1=str:CAP 3=str:rxe0" % PNET_ADD)
        res = genl_batch(a, repo, adds)
        t.eq([r["errno"] for r in res[:PNET_MAX]], [0] * PNET_MAX, "the first %d ADDs" % PNET_MAX)
        for what, r in (("interface", res[PNET_MAX]), ("RDMA", res[PNET_MAX + 1])):
            t.eq(r["errno"], ENOSPC, "%s entry %d: ENOSPC" % (what, PNET_MAX + 1))
            t.check("at most %d" % PNET_MAX in (r["extack"] or ""),
                    "%s: the extack says the limit: %r" % (what, r["extack"]))
        t.eq(config(a)["pnet_entries"], PNET_MAX, "entries counted")
        a.run("ip netns del privt 2>/dev/null; ip netns add privt")
        try:
            ns = genl_batch(a, repo, ["SMC_PNETID %d 1=str:CAP 2=str:lo" % PNET_ADD], "privt")
            t.eq(ns[0]["errno"], 0, "another namespace's table takes an entry")
        finally:
            a.run("ip netns del privt")
        res = genl_batch(a, repo, ["SMC_PNETID %d 1=str:CAP" % PNET_DEL,
                                   "SMC_PNETID %d 1=str:CAP 2=str:again" % PNET_ADD,
                                   "SMC_PNETID %d 1=str:CAP" % PNET_DEL])
        t.eq([r["errno"] for r in res], [0, 0, 0], "DEL of all %d, then ADD and DEL work"
             % PNET_MAX)
        t.eq(a.out("%s/smc_pnet" % tools), "", "table empty")
        # the namespace's entry goes with the namespace (pernet exit, async)
        left = config(a)["pnet_entries"]
        for _ in range(50):
            if not left:
                break
            a.run("sleep 0.2")
            left = config(a)["pnet_entries"]
        t.eq(left, 0, "entries left once the namespace is gone")

    with t.subtest("debugfs socks: the reader's namespace only"):
        a.run("ip netns del privs 2>/dev/null; ip netns add privs")
        try:
            r = json.loads(a.run("python3 %s privs" % os.path.join(repo, SOCKS)).out)
        finally:
            a.run("ip netns del privs")

        def mine(text, ino):
            return any(ln.startswith("ino %d " % ino) for ln in text.splitlines())

        t.check(mine(r["list_init"], r["init"]), "init's sock listed in init: %s" % r)
        t.check(mine(r["list_ns"], r["ns"]), "the netns's sock listed in the netns: %s" % r)
        t.check(not mine(r["list_init"], r["ns"]), "the netns's sock not listed in init: %s" % r)
        t.check(not mine(r["list_ns"], r["init"]), "init's sock not listed in the netns: %s" % r)

    with t.subtest("cgroup sock_create deny: no CLC socket left, the netns is freed"):
        before = stacks.smcx_objects(a)
        a.run("ip netns del privd 2>/dev/null; ip netns add privd")
        entries = config(a)["pnet_entries"]
        try:
            ns = genl_batch(a, repo, ["SMC_PNETID %d 1=str:DENY 2=str:lo" % PNET_ADD], "privd")
            t.eq(ns[0]["errno"], 0, "a PNET entry in the netns (freed with it)")
            r = a.run("python3 %s privd %d" % (os.path.join(repo, DENY), DENY_COUNT),
                      check=False)
            t.check(r.rc == 0, "cgroup_deny ran: " + r.describe())
            got = json.loads(r.out)
        finally:
            a.run("ip netns del privd")
        for fam in ("smc", "smc6"):
            t.eq(got[fam], {str(EPERM): DENY_COUNT}, "%s: every socket() EPERM" % fam)
        t.eq(got["tcp"], EPERM, "a plain TCP socket too (the program runs)")
        after = stacks.smcx_objects(a)
        for kind in ("socks", "clcsocks"):
            t.eq(after.get(kind, 0) - before.get(kind, 0), 0, "%s left by the denied sockets"
                 % kind)
        # cleanup_net() runs the pernet exits once the last reference goes
        left = config(a)["pnet_entries"]
        deadline = time.time() + 20
        while left > entries and time.time() < deadline:
            time.sleep(0.5)
            left = config(a)["pnet_entries"]
        t.eq(left, entries, "PNET entries once the netns is deleted (it was freed)")

    n6(t, a, b, dict(ids)["userns+netns"])


def cgroup2(h):
    """A cgroup v2 directory of @h whose children get the memory controller."""
    root = h.out("awk '$3 == \"cgroup2\" {print $2; exit}' /proc/self/mounts").strip()
    if not root:
        root = "/tmp/smcx-cg2"
        h.run("mkdir -p %s && mount -t cgroup2 none %s" % (root, root))
    h.run("echo +memory > %s/cgroup.subtree_control" % root, check=False)
    return root


def n6(t, a, b, usernet):
    """Review N6, smcx on both hosts (see the docstring)."""
    stacks.setup_pair(a, stacks.SMCX, b, stacks.SMCX)
    cg = {}
    for h in (a, b):
        h.run("sysctl -qw net.core.rmem_max=%d net.core.wmem_max=%d" % (4 * MIB, 4 * MIB))
        cg[h.name] = cgroup2(h) + "/smcx-n6"
        h.run("rmdir %s 2>/dev/null; mkdir %s" % (cg[h.name], cg[h.name]))
    wrap = "/tmp/smcx-n6-wrap.sh"
    want = N6_CONNS * 2 * MIB
    held = {}
    try:
        with t.subtest("N6: nobody's SMC buffers are charged to its memory cgroup "
                       "(client; server: the listener's)"):
            before, bufs0 = {}, {}
            for h in (a, b):
                h.run("cat > %s && chmod 0755 %s" % (wrap, wrap),
                      input="#!/bin/sh\necho $$ > %s/cgroup.procs || exit 1\n"
                            "exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$@\"\n"
                            % cg[h.name])
                before[h.name] = int(h.read(cg[h.name] + "/memory.current"))
                bufs0[h.name] = stacks.smcx_objects(h).get("bufs", 0)
            with smcr_cases.Held(t, a, b, N6_PORT, N6_CONNS, 10000, family="ipproto_smc",
                                 timeout=120, client_opts="-S 1M -B 1M",
                                 server_opts="-S 1M -B 1M", wrap=wrap + " "):
                for h in (a, b):
                    held[h.name] = int(h.read(cg[h.name] + "/memory.current"))
                socks = smcr_cases.active(stacks.sockets(a, N6_PORT))
                t.eq(len(socks), N6_CONNS, "alpha: connected sockets held")
                t.eq(sorted(set(s["mode"] for s in socks)), ["SMCR"], "alpha: their mode")
                for h in (a, b):
                    bufs = stacks.smcx_objects(h).get("bufs", 0) - bufs0[h.name]
                    t.check(bufs >= 2 * N6_CONNS, "%s: %d buffers made for %d connections"
                            % (h.name, bufs, N6_CONNS))
                    grew = held[h.name] - before[h.name]
                    t.log("%s: memory.current %d before, %d with %d connections held"
                          % (h.name, before[h.name], held[h.name], N6_CONNS))
                    t.check(grew >= want,
                            "%s: memory.current grew by %d KiB: at least the %d KiB of send "
                            "buffers and RMBs" % (h.name, grew >> 10, want >> 10))

        with t.subtest("N6: a user namespace's root cannot raise net.smc.rmem/wmem past "
                       "init's net.core.rmem_max/wmem_max"):
            script = ("for f in rmem wmem; do"
                      " echo 8388608 > /proc/sys/net/smc/$f 2>/dev/null; echo $f big $?;"
                      " echo 1048576 > /proc/sys/net/smc/$f 2>/dev/null; echo $f small $?;"
                      " echo $f now $(cat /proc/sys/net/smc/$f); done")
            r = a.run("%ssh -c '%s'" % (usernet, script), check=False)
            got = dict(((w[0], w[1]), w[2]) for w in (ln.split() for ln in r.out.splitlines())
                       if len(w) == 3)
            for f in ("rmem", "wmem"):
                t.check(got.get((f, "big")) not in (None, "0"),
                        "net.smc.%s = 8 MiB (over the 4 MiB net.core.%s_max) refused: %s"
                        % (f, f, r.describe()))
                t.eq(got.get((f, "small")), "0", "net.smc.%s = 1 MiB taken" % f)
                t.eq(got.get((f, "now")), "1048576", "net.smc.%s is 1 MiB" % f)
            t.eq(a.out("sysctl -n net.smc.rmem").strip(), "65536", "init's net.smc.rmem")

        with t.subtest("N6: idle pooled buffers are freed, the link group lingers"):
            idle = "/sys/module/smcx/parameters/buf_idle_ms"
            for h in (a, b):
                t.check(h.run("echo 2000 > %s" % idle, check=False).rc == 0,
                        "%s: buf_idle_ms set to 2 s" % h.name)
            for h in (a, b):
                gone = scenarios.wait_for(lambda: stacks.smcx_objects(h).get("bufs", 0) == 0,
                                          timeout=30, step=1)
                t.check(gone, "%s: the pooled buffers freed within 30 s (objects bufs %d)"
                        % (h.name, stacks.smcx_objects(h).get("bufs", 0)))
                t.check(stacks.smcx_objects(h).get("lgrs", 0) >= 1,
                        "%s: the link group lingers" % h.name)
                if h.name in held:
                    down = held[h.name] - int(h.read(cg[h.name] + "/memory.current"))
                    t.check(down >= want, "%s: memory.current back down by %d KiB"
                            % (h.name, down >> 10))
    finally:
        for h in (a, b):
            h.run("rmdir %s" % cg[h.name], check=False)
            h.run("sysctl -qw net.core.rmem_max=212992 net.core.wmem_max=212992", check=False)
            stacks.clear(h)
