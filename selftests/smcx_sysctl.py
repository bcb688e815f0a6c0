# SPDX-License-Identifier: GPL-2.0
"""net.smc.* sysctls of smcx: names, defaults, ranges, per netns, and that
each one does what it says or refuses.

- every sysctl exists with the mainline default (tcp2smc: ours, default 0;
  smcx_write_imm and smcx_loopback: ours, default 1; smcx_hs_records and
  smcx_peer_ttl: ours, the flight recorder and the peer cache), and the sysctl.d example
  (conf/smcx-sysctl.conf) lists each with that default;
- in-range writes take, out-of-range and malformed writes fail with EINVAL
  and leave the value as it was; autocorking_size takes any unsigned value
  (its effect: the cork/ cases of sockapi_smcr); smcr_testlink_time takes
  any time >= 0 (its effect: smcx_teardown);
- a new network namespace starts from the defaults, a change in one
  namespace is invisible in the other, and the namespace's table goes away
  with it (create/destroy churn leaves nothing behind);
- limit_smc_hs, the netlink handshake-limitation flag and a new socket's
  SOL_SMC/SMC_LIMIT_HS are one setting, per netns;
- smcx <-> smcx: with the client's max conns 20 / max links 1 and the
  server's 16 / 1, 17 connections make two link groups of max 16
  connections and 1 link on both hosts; rmem/wmem are the buffer sizes;
- limit_smc_hs: a listener made with it on answers a SYN without the SMC
  option while its handshakes are congested (the client falls back with
  PEERNOSMC); made with it off, the same connection gets SMC-R;
- with the stock smc.ko as client and as server, its link group shows the
  max conns/links smcx accepted or proposed;
- the whole directory disappears with the module.
"""
import json
import os
import re

import scenarios
import smcr_cases
import smcxlab
import stacks

TIMEOUT = 600
COST = 32
NS = "smcx_sysctl_ns"
PORT = 7300
# silent clients of the handshake-limitation check: source ports 41000-41001
SILENT_BASE, NSILENT = 41000, 2

# name: (default, good values, bad values); testlink is read/written in seconds
SYSCTLS = {
    "tcp2smc": (0, [1, 0], [2, -1, 100]),
    "wmem": (65536, [16384, 262144, 65536], [16383, 0, -1, 1 << 30]),
    "rmem": (65536, [16384, 524288, 65536], [16383, 0, -5]),
    "autocorking_size": (65536, [0, 4096, 65536], [-1, 1 << 32]),
    "smcr_testlink_time": (30, [0, 5, 30], [-1, -30]),
    "smcr_max_links_per_lgr": (2, [1, 2], [0, 3, -1]),
    "smcr_max_conns_per_lgr": (255, [16, 100, 255], [15, 256, 0]),
    "limit_smc_hs": (0, [1, 0], [2, -1]),
    "smcx_write_imm": (1, [0, 1], [2, -1]),
    "smcx_loopback": (1, [0, 1], [2, -1]),
    "smcx_hs_records": (64, [0, 4096, 64], [4097, -1]),
    "smcx_peer_ttl": (300, [0, 86400, 300], [86401, -1]),
}

TOOLS = os.path.join(smcxlab.REPO, "selftests", "tools")
# Run in the guest: write each value, report (errno or 0, value read back)
WRITER = os.path.join(TOOLS, "sysctl_write.py")


def read_all(h, ns=None):
    pre = "ip netns exec %s " % ns if ns else ""
    out = h.out(pre + "sh -c 'cd /proc/sys/net/smc && grep -H . *'")
    return {ln.split(":", 1)[0]: ln.split(":", 1)[1] for ln in out.splitlines()}


def write_values(h, pairs, ns=None):
    """[(name, value)] -> [(name, value, errno, readback)]"""
    pre = "ip netns exec %s " % ns if ns else ""
    r = h.run(pre + "python3 %s" % WRITER, input=json.dumps(pairs))
    return json.loads(r.out)


# Runs in the guest ("init" or "netns"): how net.smc.limit_smc_hs, the
# netlink flag (DUMP/ENABLE/DISABLE_HS_LIMITATION) and SOL_SMC/SMC_LIMIT_HS
# of a new IPPROTO_SMC socket read after each way of changing them, as
# [step, sysctl, dump, socket]; then the option of existing sockets, and
# its errors.  "netns" only enables, in a new netns.
ONE_SETTING = os.path.join(TOOLS, "limit_hs_setting.py")

# The handshake-limitation check, in the guests (limit_hs_congest.py);
# ports: PORT, PORT + 1 the two listeners, PORT + 2 a plain TCP control
# connection.  Server (beta):
# two IPPROTO_SMC listeners with a backlog of NSILENT, the first made with
# net.smc.limit_smc_hs on, the second with it off; each connection gets its
# byte echoed.  Client (alpha): NSILENT connects to each listener whose
# proposals a tc filter drops; once the server has seen them all pending it
# says "go" on the control connection, and the client connects once more to
# each listener (one byte each way) and reports what smcss says of the two
# (mode, fallback reason).  The silent handshakes would end after the CLC
# wait time (6 s): so the guests decide when, not the lab's round trips.
HS_CONGEST = os.path.join(TOOLS, "limit_hs_congest.py")


def lgr_limits(h):
    """(role, connections, max conns, max links, release) of each link group."""
    return sorted((lg["role"], lg["conns"], (lg.get("v2") or {}).get("max_conns"),
                   (lg.get("v2") or {}).get("max_links"), (lg.get("v2") or {}).get("release"))
                  for lg in stacks.linkgroups(h))


def pending(h):
    return stacks.smcx_objects(h).get("pending_handshakes", 0)


def held_limits(t, client, server, port, conns, want):
    """@conns held connections @client -> @server; then each host's link
    groups must be @want[host.name]: [(role, connections, max conns,
    max links, release)].  The client's sockets, for more checks."""
    with smcr_cases.Held(t, client, server, port, conns, 4 * smcr_cases.KIB):
        for h in (client, server):
            t.eq(lgr_limits(h), want[h.name], "%s: link groups (role, conns, max conns, "
                 "max links, release)" % h.name)
        return smcr_cases.active(stacks.sockets(client, port))


def hs_check(t, port):
    """Handshakes hang on beta's two listeners (limitation on, off); alpha
    connects to each once more: the client's report and what the
    listeners were made with."""
    a, b = t.alpha, t.beta
    a.run("modprobe -a sch_prio cls_u32 act_gact && tc qdisc add dev eth0 root handle 1: prio"
          " && tc filter add dev eth0 parent 1: protocol ip prio 1 u32 match ip protocol 6 0xff"
          " match ip sport %d 0xfffc match u8 0x08 0x08 at 33 action drop" % SILENT_BASE)
    srv = None
    try:
        srv = b.bg("python3 %s server %d %d" % (HS_CONGEST, port, NSILENT))
        b.wait_port(port + 2, job=srv)
        r = a.run("python3 %s client %s %d %d %d %s"
                  % (HS_CONGEST, b.ip, port, SILENT_BASE, NSILENT, stacks.smcss()), timeout=120)
        rep = json.loads(r.out)
    finally:
        a.run("tc qdisc del dev eth0 root", check=False)
        said = smcr_cases.finish(srv, timeout=60) if srv else None
    t.check(scenarios.wait_for(lambda: pending(b) == 0, timeout=30, step=1),
            "the silent handshakes ended")
    return rep, (said.out.strip() if said else "")


def run(t):
    a = t.alpha
    a.run("ip netns del %s 2>/dev/null; true" % NS)
    a.insmod_smcx()

    with t.subtest("defaults"):
        vals = read_all(a)
        for name, (dflt, _, _) in SYSCTLS.items():
            t.eq(vals.get(name), str(dflt), "net.smc.%s default" % name)
        t.eq(a.out("sysctl -n net.smc.tcp2smc"), "0", "sysctl(8) reads net.smc.tcp2smc")
        # the commented sysctl.d example: every sysctl with its default, and
        # sysctl(8) takes the file uncommented
        conf = os.path.join(t.repo, "conf", "smcx-sysctl.conf")
        with open(conf) as f:
            listed = dict(re.findall(r"^#net\.smc\.(\w+) = (\S+)$", f.read(), re.M))
        t.eq(listed, {n: str(d) for n, (d, _, _) in SYSCTLS.items()},
             "conf/smcx-sysctl.conf lists every sysctl with its default")
        a.run("sed 's/^#net/net/' %s > /tmp/smcx_sysctl.conf && sysctl -q -p /tmp/smcx_sysctl.conf"
              % conf)

    with t.subtest("ranges"):
        pairs = []
        for name, (dflt, good, bad) in SYSCTLS.items():
            for v in bad:
                pairs.append((name, v))
            for v in good:
                pairs.append((name, v))
            for v in bad:
                pairs.append((name, v))
            pairs.append((name, "x1"))
        res = write_values(a, pairs)
        last = {n: str(d) for n, (d, _, _) in SYSCTLS.items()}
        for name, val, err, now in res:
            goodvals = [str(v) for v in SYSCTLS[name][1]]
            if val in goodvals:
                t.check(err == 0 and now == val,
                        "%s=%s accepted (errno %d, reads %s)" % (name, val, err, now))
                last[name] = val
            else:
                t.check(err == 22 and now == last[name],
                        "%s=%s rejected with EINVAL, value stays %s (errno %d, reads %s)"
                        % (name, val, last[name], err, now))
        t.eq(read_all(a), {n: str(d) for n, (d, _, _) in SYSCTLS.items()},
             "every value back at its default after the good writes")

    with t.subtest("per netns"):
        a.run("ip netns add %s" % NS)
        try:
            a.run("sysctl -qw net.smc.wmem=131072 net.smc.limit_smc_hs=1 net.smc.tcp2smc=1")
            nsvals = read_all(a, NS)
            for name, (dflt, _, _) in SYSCTLS.items():
                t.eq(nsvals.get(name), str(dflt), "new netns: net.smc.%s default" % name)
            res = write_values(a, [("rmem", 32768), ("smcr_max_conns_per_lgr", 20),
                                   ("rmem", 10)], NS)
            t.eq([r[2] for r in res], [0, 0, 22], "writes inside the netns")
            init = read_all(a)
            t.eq((init["wmem"], init["rmem"], init["smcr_max_conns_per_lgr"],
                  init["limit_smc_hs"], init["tcp2smc"]),
                 ("131072", "65536", "255", "1", "1"),
                 "init_net keeps its own values")
            nsvals = read_all(a, NS)
            t.eq((nsvals["wmem"], nsvals["rmem"], nsvals["smcr_max_conns_per_lgr"],
                  nsvals["tcp2smc"]), ("65536", "32768", "20", "0"),
                 "the netns keeps its own values")
        finally:
            a.run("ip netns del %s" % NS)
            a.run("sysctl -qw net.smc.wmem=65536 net.smc.limit_smc_hs=0 net.smc.tcp2smc=0")

    with t.subtest("netns churn"):
        a.run("for i in $(seq 1 20); do ip netns add smcx_churn$i; "
              "ip netns exec smcx_churn$i sysctl -qw net.smc.rmem=$((16384 + i)); done; "
              "for i in $(seq 1 20); do ip netns del smcx_churn$i; done", timeout=120)
        t.check(True, "20 namespaces created, written and destroyed")

    with t.subtest("limit_smc_hs, the netlink flag and SMC_LIMIT_HS are one setting"):
        r = a.run("python3 %s init && ip netns add %s && ip netns exec %s python3 %s netns"
                  " && sysctl -n net.smc.limit_smc_hs; ip netns del %s"
                  % (ONE_SETTING, NS, NS, ONE_SETTING, NS))
        init, ns, after = r.out.strip().splitlines()
        init = json.loads(init)
        t.eq(init["rows"], [["start", "0", "0", "0"], ["netlink on", "1", "1", "1"],
                            ["sysctl 0", "0", "0", "0"], ["sysctl 1", "1", "1", "1"],
                            ["netlink off", "0", "0", "0"]],
             "[step, sysctl, netlink dump, a new socket's SMC_LIMIT_HS] agree")
        t.eq(init["opt"], [0, 1, 1, 0, 95, 22, 95],
             "SMC_LIMIT_HS: from the sysctl at creation, then the option's; "
             "EOPNOTSUPP, EINVAL for another option or a short value")
        t.eq((json.loads(ns), after), (["netns: netlink on", "1", "1", "1"], "0"),
             "ENABLE_HS_LIMITATION in a netns: on there, init_net stays off")

    b = t.beta
    smcr_cases.need_tools(t, smcr_cases.HOLD)
    with t.subtest("smcx <-> smcx: 17 connections, max conns 16; max links; rmem/wmem"):
        # nothing is loaded on beta yet
        b.run("insmod %s && sysctl -qw net.smc.smcr_max_conns_per_lgr=16 "
              "net.smc.smcr_max_links_per_lgr=1 net.smc.rmem=131072" % t.smcx_path())
        a.run("sysctl -qw net.smc.smcr_max_conns_per_lgr=20 net.smc.smcr_max_links_per_lgr=1 "
              "net.smc.rmem=32768 net.smc.wmem=16384")
        # alpha proposes 20 connections and 1 link, beta allows 16 and 1
        want = [(1, 16, 1, 1), (16, 16, 1, 1)]
        socks = held_limits(t, a, b, PORT, 17, {"alpha": [("CLNT",) + w for w in want],
                                                "beta": [("SERV",) + w for w in want]})
        t.eq(sorted(set((s["conninfo"]["sndbuf_size"], s["conninfo"]["rmbe_size"],
                         s["conninfo"]["peer_rmbe_size"]) for s in socks)),
             [(16384, 32768, 131072)],
             "alpha's send buffer (wmem), RMB (rmem) and beta's RMB (its rmem)")

    with t.subtest("limit_smc_hs: congested handshakes -> TCP when on, SMC-R when off"):
        rep, said = hs_check(t, PORT + 4)
        t.eq(said, "limit_hs 1 0", "beta's listeners: made with limit_smc_hs 1 and 0")
        t.eq(rep["go"], ["go", str(2 * NSILENT)], "beta saw the silent handshakes pending")
        t.eq([(p["echo"], p.get("mode"), p.get("reason")) for p in rep["probes"]],
             [("p", "TCP", "PEER_NO_SMC"), ("p", "SMCR", None)],
             "one more connection to each: (echo, mode, fallback reason); on: the SYN-ACK "
             "had no SMC option, off: SMC-R")

    with t.subtest("max conns/links negotiated with smc.ko as client and as server"):
        stacks.load(a, stacks.INKERNEL, b, stacks.SMCX)
        # alpha's smcx said DELETE_LINK when it went
        t.check(scenarios.wait_for(lambda: not stacks.linkgroups(b), timeout=30, step=1),
                "beta's link groups with alpha's smcx are gone")
        # smc.ko (alpha, client) proposes 255 and 2, smcx (beta) allows 16 and 1
        scenarios.xfer(b, a, family="smc", port=PORT + 1, nbytes=4096)
        # smcx (beta, client) proposes 20 and 1, smc.ko (alpha) allows 255 and 2
        b.run("sysctl -qw net.smc.smcr_max_conns_per_lgr=20")
        scenarios.xfer(a, b, family="smc", port=PORT + 2, nbytes=4096)
        # the groups linger after the connections: (role, conns, max conns/links, release)
        t.eq(lgr_limits(a), [("CLNT", 0, 16, 1, 1), ("SERV", 0, 20, 1, 1)],
             "alpha (smc.ko): its client group took smcx's Accept, its server group "
             "smcx's Proposal")
        t.eq(lgr_limits(b), [("CLNT", 0, 20, 1, 1), ("SERV", 0, 16, 1, 1)],
             "beta (smcx): the same values")

    with t.subtest("unload"):
        b.rmmod("smcx")
        t.check(b.run("test -e /proc/sys/net/smc", check=False).rc != 0,
                "/proc/sys/net/smc gone with the module")
