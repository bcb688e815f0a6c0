# SPDX-License-Identifier: GPL-2.0
"""Two links per SMC-R link group, smcx <-> smcx.

smcx on both hosts, both wires up (eth0/rxe0, eth1/rxe1).  For each role
(beta client -> alpha server, then alpha client -> beta server):
  - after the first AF_SMC connection (xfer, 1 MiB verified) both hosts have
    one link group of that role with two ACTIVE links, one on rxe0 and one on
    rxe1, type SYM (the kernel's link dump, read raw with genlreq.py and
    through smcctl's JSON);
  - CONNS connections opened at once (hold: NBYTES verified each way, held
    open, verified again, closed): while they are held, the connections are
    spread over both links (each link's connection count > 0, and the counts
    add up to CONNS on both hosts); what the users read agrees with the raw
    dump: `smcr linkgroup` (type, #Conns, #Links), `smcr -dd linkgroup
    link-show` (per link: netdev, state, connection count, device, port,
    GIDs), `smcss -R` (each connection's link, and per link as many as the
    dump counts); and the rxe packet counters of BOTH wires on BOTH hosts
    moved, at least as many packets each way as the bytes of the
    connections the dump put on that link need at the largest RoCE MTU.
Then, from a freshly loaded module on both hosts:
  - net.smc.smcr_max_links_per_lgr=1 on the server only: the new group
    negotiates max_links 1 (v2 results, both hosts), is SINGLE with one
    link, gets no second link within the time the first phase needed for
    one (at least MAX1_WAIT), and held connections all use that link;
  - asymmetric: eth1 down on the client (beta) before the first
    connection: the connection works over SMC-R (SMC-Rv2 successes, no
    fallback) and each host's group keeps at least one ACTIVE link; the
    group's type and links are logged (mainline may give ASYMP/ASYML or
    stay SINGLE; this test does not judge which).
A phase that finds one link fails at the "two links" check, naming both
hosts' groups.
"""
import time

import failover
import scenarios
import smcr_cases
import stacks

WIRES = 2
TIMEOUT = 600
COST = 66

PORT = 7800
CONNS = 8
NBYTES = 1 << 20
# from the first connection's end to two ACTIVE links on both hosts: the
# server adds the link right after the first contact (stock smc.ko: < 1 s)
LINK_WAIT = 10
# the least time a group with max_links 1 is watched for a second link
MAX1_WAIT = 3
ROCE_MTU_MAX = 4096


def load(hosts):
    for h in hosts:
        stacks.clear(h)
    for h in hosts:
        h.insmod_smcx(stacks.SMCX_PARAMS)


def both(a, b):
    return "%s\n%s" % (failover.describe_groups(a), failover.describe_groups(b))


def first_contact(t, server, client, port):
    """The first AF_SMC connection @client -> @server; then the two-link
    group on both hosts.  Returns the seconds the second link took."""
    pairs = ((server, "SERV"), (client, "CLNT"))
    t0 = time.time()
    scenarios.xfer(server, client, family="smc", port=port, nbytes=NBYTES)
    t.log("first connection %s -> %s: 1 MiB verified in %.1fs"
          % (client.name, server.name, time.time() - t0))
    for h, role in pairs:
        t.check(failover.group_of(h, role) is not None,
                "%s: the first connection made a %s link group (SMC-R)\n%s"
                % (h.name, role, failover.describe_groups(h)))
    secs = failover.wait_role_links(pairs, 2, timeout=LINK_WAIT, devices=("rxe0", "rxe1"))
    t.check(secs is not None,
            "two links: within %ds of the first connection %s -> %s, the %s group on %s and "
            "the %s group on %s each have two ACTIVE links, one on rxe0 and one on rxe1\n%s"
            % (LINK_WAIT, client.name, server.name, "SERV", server.name, "CLNT", client.name,
               both(server, client)))
    t.log("second link ACTIVE on both hosts %.1fs after the first connection ended" % secs)
    for h, role in pairs:
        g = failover.group_of(h, role)
        t.eq(g["type"], "SYM", "%s: %s group type" % (h.name, role))
        t.eq(sorted(ln["ib_device"] for ln in g["links"]), ["rxe0", "rxe1"],
             "%s: %s group's links (any state)" % (h.name, role))
    t.log(both(server, client))
    return secs


def spread(t, server, client, port):
    """CONNS held connections: spread over both links, the views agree with
    the raw dump, both wires carried their data."""
    hosts = (server, client)
    before = {(h.name, w): failover.wire_packets(h, w) for h in hosts for w in (0, 1)}
    with smcr_cases.Held(t, client, server, port, CONNS, NBYTES):
        moved = {(h.name, w): tuple(x - y for x, y in zip(failover.wire_packets(h, w),
                                                          before[(h.name, w)]))
                 for h in hosts for w in (0, 1)}
        raw = {}
        for h, role in ((server, "SERV"), (client, "CLNT")):
            nl = failover.netlink_groups(h)
            views = failover.tool_views(h)
            t.log("%s:\n%s%s%s" % (h.name, views["lgr"], views["links"], views["socks"]))
            bad = failover.compare_views(h, nl, views, port)
            t.check(not bad, "%s: smcr linkgroup, smcr -dd linkgroup link-show and smcss -R "
                    "agree with the raw link dump\n%s" % (h.name, "\n".join(bad)))
            g = [x for x in nl if x["role"] == role]
            t.eq(len(g), 1, "%s: %s groups in the raw link dump" % (h.name, role))
            raw[h.name] = g[0]
            t.eq(g[0]["conns"], CONNS, "%s: connections in the %s group" % (h.name, role))
        for h in hosts:
            g = raw[h.name]
            per = {ln["ib_device"]: ln["conns"] for ln in g["links"]
                   if ln["state"] == "LINK_ACTIVE"}
            t.check(len(per) == 2 and all(n > 0 for n in per.values()) and
                    sum(per.values()) == CONNS,
                    "%s: the %d held connections are spread over both ACTIVE links: %s"
                    % (h.name, CONNS, per or g["links"]))
        for h in hosts:
            for ln in raw[h.name]["links"]:
                w = int(ln["ib_device"][3:])
                need = ln["conns"] * NBYTES // ROCE_MTU_MAX
                sent, rcvd = moved[(h.name, w)]
                t.check(sent >= need and rcvd >= need,
                        "%s: wire %d carried its %d connections' data: rxe%d sent %d, received "
                        "%d packets (>= %d each)" % (h.name, w, ln["conns"], w, sent, rcvd, need))


def wait_idle(t, hosts, port):
    for h in hosts:
        left = stacks.wait_quiet(h, port, timeout=30)
        t.check(not left, "%s: no socket of port %d left" % (h.name, port))


def max_links_one(t, a, b, port, seen):
    """alpha server with smcr_max_links_per_lgr=1, beta client with 2."""
    load((a, b))
    a.run("sysctl -qw net.smc.smcr_max_links_per_lgr=1")
    t.eq(a.out("cat /proc/sys/net/smc/smcr_max_links_per_lgr").strip(), "1",
         "alpha: smcr_max_links_per_lgr")
    t.eq(b.out("cat /proc/sys/net/smc/smcr_max_links_per_lgr").strip(), "2",
         "beta: smcr_max_links_per_lgr")
    scenarios.xfer(a, b, family="smc", port=port, nbytes=NBYTES)
    pairs = ((a, "SERV"), (b, "CLNT"))
    watch = max(MAX1_WAIT, 2 * seen) if seen is not None else LINK_WAIT
    secs = failover.wait_role_links(pairs, 2, timeout=watch)
    t.check(secs is None, "no second link within %.0fs (max_links 1)\n%s" % (watch, both(a, b)))
    for h, role in pairs:
        g = [x for x in stacks.linkgroups(h) if x["role"] == role]
        t.eq(len(g), 1, "%s: %s link groups" % (h.name, role))
        t.eq((g[0].get("v2") or {}).get("max_links"), 1,
             "%s: negotiated max_links (v2 results)" % h.name)
    with smcr_cases.Held(t, b, a, port + 1, 4, 64 << 10):
        for h, role in pairs:
            g = failover.raw_group(t, h, role)
            t.eq((g["type"], [(ln["ib_device"], ln["state"], ln["conns"]) for ln in g["links"]]),
                 ("SINGLE", [("rxe0", "LINK_ACTIVE", 4)]),
                 "%s: %s group type and links (device, state, connections)" % (h.name, role))


def asymmetric(t, a, b, port):
    """beta (client) has only eth0/rxe0 when the group forms."""
    load((a, b))
    try:
        failover.pull((a, b), 1, "down", side=b)
        scenarios.wait_for(lambda: "state ACTIVE" not in b.out("rdma link show rxe1/1"),
                           timeout=10, step=0.2)
        t.log("beta: %s" % b.out("rdma link show rxe1/1").strip())
        sa, sb = stacks.snapshot(a), stacks.snapshot(b)
        scenarios.xfer(a, b, family="smc", port=port, nbytes=NBYTES, mode="duplex")
        da, db = stacks.delta(sa, stacks.snapshot(a)), stacks.delta(sb, stacks.snapshot(b))
        t.eq((da["srv_v2"], da["srv_fallback"], db["clnt_v2"], db["clnt_fallback"]),
             (1, 0, 1, 0), "SMC-Rv2 successes / fallbacks (alpha server, beta client)")
        # let an ADD_LINK exchange, if any, run its course before judging
        failover.wait_role_links(((a, "SERV"), (b, "CLNT")), 2, timeout=LINK_WAIT)
        for h, role in ((a, "SERV"), (b, "CLNT")):
            g = failover.group_of(h, role)
            t.check(g is not None and failover.active_links(g),
                    "%s: the %s group has an ACTIVE link\n%s"
                    % (h.name, role, failover.describe_groups(h)))
            t.log("%s: %s group type %s, links %s" % (
                h.name, role, g["type"],
                [(ln["ib_device"], ln["state"], ln["gid"], ln["peer_gid"]) for ln in g["links"]]))
        scenarios.xfer(a, b, family="smc", port=port + 1, nbytes=NBYTES, conns=2,
                       mode="duplex")
        t.log("two more connections verified both ways on the asymmetric group")
    finally:
        failover.restore((a, b), 1, "down", side=b)


def run(t):
    a, b = t.alpha, t.beta
    smcr_cases.need_tools(t, smcr_cases.HOLD, scenarios.XFER)
    load((a, b))
    seen = []
    for n, (server, client) in enumerate(((a, b), (b, a))):
        port = PORT + 10 * n
        name = "%s -> %s" % (client.name, server.name)
        with t.subtest("%s: first connection, two links" % name):
            seen.append(first_contact(t, server, client, port))
        with t.subtest("%s: %d connections over both links and both wires" % (name, CONNS)):
            spread(t, server, client, port + 1)
            wait_idle(t, (server, client), port + 1)
    with t.subtest("smcr_max_links_per_lgr=1 on the server: one link"):
        max_links_one(t, a, b, PORT + 20, max(seen) if seen and None not in seen else None)
    with t.subtest("asymmetric: client with eth1 down"):
        asymmetric(t, a, b, PORT + 30)
