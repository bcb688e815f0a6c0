# SPDX-License-Identifier: GPL-2.0
"""Asymmetric link groups, smcx <-> smcx: one host with one
RoCE port, the other with two, and failover on the side with two.

The lab's two wires are made into one network for this test: beta
bridges eth0 and eth1 (br0, 198.18.0.2/24) and has a single RoCE device,
rxe0 on br0; alpha keeps rxe0 on eth0 (198.18.0.1) and rxe1 on eth1, whose
address becomes 198.18.0.11/24, so both of alpha's ports reach beta's one.
(alpha answers ARP only on the port that owns the address and has no
reverse-path filter, so each of its ports keeps its own traffic.)  The
usual topology is put back at the end, or the lab is booted again.

For each role of alpha (the two-port host), alpha server then alpha
client:
  - the first connection gives a group of two ACTIVE links within 15 s:
    on alpha one on rxe0 and one on rxe1, both to beta's one GID, type
    ASYMMETRIC_PEER (ASYMP); on beta both on rxe0, type ASYMMETRIC_LOCAL
    (ASYML), read from the kernel's link dump (raw netlink) and from
    `smcr linkgroup`; alpha's rxe1 counters move;
  - 4 streams of 16 MiB, 2 on each link, are verified while one of
    alpha's wires is pulled once 15% arrived (alpha server: eth1 down on
    alpha; alpha client: wire 0 dropped with tc on both hosts, on beta at
    its bridge port); the
    connections on the pulled link move (link_failovers on the sender)
    and progress again;
  - the wire comes back and the second link is added again (the server's
    port event, or its retry: beta, a server with one port, offers its own
    port again once a client of the group took it), the group is
    asymmetric again, and new connections use both of alpha's links.
"""
import time

import failover
import smcr_cases
import scenarios
import stacks

WIRES = 2
TIMEOUT = 900
COST = 132

PORT = 7950
CONNS = 4
NBYTES = 16 << 20
LINK_WAIT = 15
ALPHA_ETH1 = "198.18.0.11"
# alpha's ARP and reverse-path settings while two of its ports share a subnet
SYSCTLS = ("net.ipv4.conf.all.arp_ignore", "net.ipv4.conf.all.arp_announce",
           "net.ipv4.conf.all.rp_filter", "net.ipv4.conf.eth0.rp_filter",
           "net.ipv4.conf.eth1.rp_filter")
ASYM_SYSCTLS = (1, 2, 0, 0, 0)


def one_network(a, b):
    """The topology above.  Returns alpha's sysctls as they were."""
    was = [a.out("sysctl -n %s" % k) for k in SYSCTLS]
    b.run("rdma link delete rxe1 && rdma link delete rxe0 && "
          "ip addr flush dev eth0 && ip addr flush dev eth1 && "
          "ip link add br0 type bridge stp_state 0 forward_delay 0 && "
          "ip link set eth0 master br0 && ip link set eth1 master br0 && "
          "ip link set br0 up && ip addr add %s/24 dev br0 && "
          "rdma link add rxe0 type rxe netdev br0" % b.addr(0))
    a.run(" && ".join("sysctl -qw %s=%s" % kv for kv in zip(SYSCTLS, ASYM_SYSCTLS)))
    a.run("ip addr flush dev eth1 && ip addr add %s/24 dev eth1 && ip neigh flush all"
          % ALPHA_ETH1)
    for h in (a, b):
        if not scenarios.wait_for(lambda: all("state ACTIVE" in ln for ln in h.out(
                "rdma link show").splitlines()), timeout=30, step=0.5):
            raise AssertionError("%s: rdma links not ACTIVE: %s"
                                 % (h.name, h.out("rdma link show")))
    # each of alpha's ports reaches beta's one address
    for dev in ("eth0", "eth1"):
        a.run("ping -c 1 -W 5 -I %s %s" % (dev, b.addr(0)))
    return was


def two_networks(t, a, b, was):
    """The lab's usual topology again (the one lab-guest-setup makes)."""
    try:
        b.run("rdma link delete rxe0; ip link del br0; "
              "ip addr replace %s/24 dev eth0 && ip addr replace %s/24 dev eth1 && "
              "ip link set eth0 up && ip link set eth1 up && "
              "rdma link add rxe0 type rxe netdev eth0 && "
              "rdma link add rxe1 type rxe netdev eth1 && ip neigh flush all"
              % (b.addr(0), b.addr(1)))
        a.run("ip addr flush dev eth1 && ip addr add %s/24 dev eth1 && ip neigh flush all"
              % a.addr(1))
        a.run(" && ".join("sysctl -qw %s=%s" % kv for kv in zip(SYSCTLS, was)))
        for h in (a, b):
            for w in (0, 1):
                h.run("ping -c 1 -W 5 %s" % (b if h is a else a).addr(w))
    except Exception as e:  # noqa: BLE001 -- any failure: boot a fresh lab
        t.reboot("asymmetric topology not undone: %s" % str(e).splitlines()[0])


def load(t, a, b):
    smcr_cases.clear_hosts(t)
    if t.alpha is not a:
        raise AssertionError("the lab was booted again (a module would not unload)")
    for h in (a, b):
        h.insmod_smcx(stacks.SMCX_PARAMS)


def check_asymmetric(t, a, b, a_role, b_role, what):
    """alpha (two ports) ASYMP with a link on each, beta ASYML with both on
    its one port; the raw dump and smcr agree on the type."""
    ga, gb = failover.raw_group(t, a, a_role), failover.raw_group(t, b, b_role)
    act = [ln for ln in ga["links"] if ln["state"] == "LINK_ACTIVE"]
    t.eq((ga["type"], sorted(ln["ib_device"] for ln in act)), ("ASYMP", ["rxe0", "rxe1"]),
         "%s: alpha's %s group: type, devices of its ACTIVE links" % (what, a_role))
    t.eq(len({ln["peer_gid"] for ln in act}), 1, "%s: alpha's links lead to one peer GID"
         % what)
    act = [ln for ln in gb["links"] if ln["state"] == "LINK_ACTIVE"]
    t.eq((gb["type"], [ln["ib_device"] for ln in act]), ("ASYML", ["rxe0", "rxe0"]),
         "%s: beta's %s group: type, devices of its ACTIVE links" % (what, b_role))
    t.eq(len({ln["peer_gid"] for ln in act}), 2, "%s: beta's links lead to alpha's two GIDs"
         % what)
    for h, role, raw in ((a, a_role, ga), (b, b_role, gb)):
        g = failover.group_of(h, role)
        t.eq(g and g["type"], raw["type"], "%s: %s: smcr linkgroup type" % (what, h.name))


def spread(t, a, b, client, server, port, what):
    """4 held connections: alpha's two links both carry some, and alpha's
    rxe1 moved packets."""
    role = "CLNT" if client is a else "SERV"
    before = a.rxe_counter("sent_pkts", "rxe1")
    with smcr_cases.Held(t, client, server, port, CONNS, 1 << 20):
        g = failover.raw_group(t, a, role)
        per = {ln["ib_device"]: ln["conns"] for ln in g["links"]
               if ln["state"] == "LINK_ACTIVE"}
        t.check(per.get("rxe0", 0) > 0 and per.get("rxe1", 0) > 0,
                "%s: %d new connections use both of alpha's links (per link: %s)"
                % (what, CONNS, per))
    t.check(a.rxe_counter("sent_pkts", "rxe1") > before,
            "%s: alpha's rxe1 sent packets" % what)


def role_case(t, a, b, server, client, wire, how, port):
    a_role, b_role = ("SERV", "CLNT") if server is a else ("CLNT", "SERV")
    name = "alpha %s" % ("server" if server is a else "client")
    load(t, a, b)
    with t.subtest("%s: the first connection gives an asymmetric group" % name):
        scenarios.xfer(server, client, family="smc", port=port, nbytes=1 << 20)
        secs = failover.wait_role_links(((a, a_role), (b, b_role)), 2, timeout=LINK_WAIT)
        t.check(secs is not None, "two ACTIVE links on both hosts within %d s\n%s\n%s"
                % (LINK_WAIT, failover.describe_groups(a), failover.describe_groups(b)))
        t.log("second link ACTIVE %.1f s after the first connection" % (secs or 0))
        check_asymmetric(t, a, b, a_role, b_role, name)
        spread(t, a, b, client, server, port + 1, name)
    # new connections take the link with fewer: with none left from the
    # cases before, the streams split 2 and 2, and the pulled link has
    # streams that are far from their end at the pull
    scenarios.wait_for(lambda: all((g["conns"] or 0) == 0 for g in failover.groups(a)),
                       timeout=30, step=0.5)
    # alpha receives, so the sampler's links are named by alpha's devices
    mode = "send" if server is a else "recv"
    sender = b
    with t.subtest("%s: wire %d %s under 4 streams, back again" % (name, wire, how)):
        before = scenarios.smcx_stats(sender).get("link_failovers", 0)
        res = failover.cycle(t, server, client, wire, how, port + 2, NBYTES, CONNS,
                             side=a, mode=mode, pull_at=0.15, recover_timeout=40)
        t.log("moved %d connection(s) off alpha's rxe%d; all progressed again %s s after"
              " the pull; the link was back %s s after the wire"
              % (len(res["moved"]), wire,
                 "%.1f" % res["failover"] if res["failover"] is not None else "never",
                 "%.1f" % res["recovery"] if res["recovery"] is not None else "-"))
        t.log("alpha's samples around the pull (connection:device:bytes):\n%s" % res["near_pull"])
        t.check(res["ok"], "%d streams of %d MiB verified through the pull\n%s\n%s"
                % (CONNS, NBYTES >> 20, res["text"], res.get("cursors", "")))
        moved = scenarios.smcx_stats(sender).get("link_failovers", 0) - before
        t.check(moved >= max(1, len(res["moved"])),
                "beta: connections moved off the pulled link (link_failovers +%d; the"
                " samples saw %d on it at the pull)\n%s"
                % (moved, len(res["moved"]), res["after_pull"]))
        if res["moved"]:
            t.check(res["failover"] is not None,
                    "every connection of the pulled link made progress again\n%s"
                    % res.get("stuck", ""))
        t.check(res["recovery"] is not None, "the second link is back\n%s"
                % res["after_restore"])
        if res["recovery"] is not None:
            check_asymmetric(t, a, b, a_role, b_role, name + ", link back")
            spread(t, a, b, client, server, port + 3, name + ", link back")


def run(t):
    a, b = t.alpha, t.beta
    smcr_cases.need_tools(t, smcr_cases.HOLD, scenarios.XFER)
    smcr_cases.clear_hosts(t)
    t0 = time.time()
    was = one_network(a, b)
    t.log("one network made in %.1f s" % (time.time() - t0))
    try:
        role_case(t, a, b, a, b, 1, "down", PORT)
        role_case(t, a, b, b, a, 0, "drop", PORT + 10)
    finally:
        smcr_cases.clear_hosts(t)
        if t.alpha is a:
            two_networks(t, a, b, was)
