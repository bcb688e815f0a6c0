# SPDX-License-Identifier: GPL-2.0
"""Why a connection is or is not SMC: the flight recorder, `smcctl why`, and
the peer cache that heals connections to peers that break the handshake.

smcx on both hosts; alpha's clients are IPPROTO_SMC sockets (what tcp2smc
and smc_run make of TCP sockets), every exchange is echoed back and compared
(selftests/tools/why_peers.py).  Each case checks `smcctl why -j` (the
record and its explanation) on the side it concerns:
  - smcr: an SMC server on beta: SMCR on both sides, rxe0, step Confirm;
    `smcss --why` explains a connection held open;
  - smcd: a connection within alpha: SMC-D over loopback-ism, both ends;
  - no smc: a plain TCP server: TCP, PEER_NO_SMC, decided at the SYN-ACK
    (client) and, from a plain TCP client, at the SYN (server);
  - ueid: beta's user EIDs replaced by another: the client reads the
    peer's Decline NOUEID and the EIDs it offered, the server its own
    Decline and the EIDs the client offered; the fix says `ueid add`;
  - echo: a plain echo server whose SYN-ACKs carry the SMC option (beta's
    tc pedit): the first connection fails (EPROTO: our Proposal comes
    back), the peer cache holds beta:port, the next one is plain TCP at
    once (reason PEERCACHED, no Proposal) with its data intact; the entry
    counts the hit, is deleted and flushed by smcctl, and expires after
    net.smc.smcx_peer_ttl; the fallback statistics count PEERCACHED;
  - nodev: alpha loaded with smcr=0 has no SMC-R device: it declines
    beta's Accept (NOSMCRDEV, the fix names smc_rnics), beta records the
    client's Decline;
  - nobody: without CAP_NET_ADMIN `why` shows only one's own handshakes,
    `why flush`, `peers delete/flush` fail with EPERM, `peers` reads;
  - size: net.smc.smcx_hs_records bounds the ring; 0 records nothing.
"""
import json
import re

import scenarios
import stacks

TIMEOUT = 300
COST = 32
TIER = "main"

P_SMC = 5420        # why_peers smc-server on beta
P_TCP = 5421        # why_peers echo-server on beta (plain TCP)
P_ECHO = 5422       # plain echo server whose SYN-ACKs announce SMC
P_ALPHA = 5423      # smc-server on alpha, for beta's plain TCP client
NOBODY = "setpriv --reuid=65534 --regid=65534 --clear-groups "
OTHER_EID = "SMCX-WHY-OTHER"


def smcctl(args):
    return "%s %s" % (scenarios.tool("smcctl"), args)


def why(h, args="-a", pre=""):
    return json.loads(h.out(pre + smcctl("why -j " + args)))["handshakes"]


def peers(h):
    return json.loads(h.out(smcctl("peers -j")))["peers"]


def client(h, peer, port, tag, pre="", timeout=20):
    r = h.run("%s%s client %s %d %s %d" % (pre, scenarios.pytool("why_peers"), peer, port, tag,
                                           timeout), timeout=timeout + 30, check=False)
    return r.out.strip()


def stats(h):
    out = h.out("cat %s/stats" % stacks.SMCX_DEBUGFS)
    return {k: int(v) for k, v in (ln.split() for ln in out.splitlines())}


def last(t, recs, what):
    t.check(len(recs) >= 1, "%s: a record: %s" % (what, recs))
    return recs[-1] if recs else {}


def run(t):
    a, b = t.alpha, t.beta
    for h in t.hosts:
        h.insmod_smcx(stacks.SMCX_PARAMS)
    smcr = scenarios.tool("smcr")
    srv = [b.bg("%s smc-server %d" % (scenarios.pytool("why_peers"), P_SMC)),
           b.bg("%s echo-server %d" % (scenarios.pytool("why_peers"), P_TCP)),
           b.bg("%s echo-server %d" % (scenarios.pytool("why_peers"), P_ECHO)),
           a.bg("%s smc-server %d" % (scenarios.pytool("why_peers"), P_ALPHA))]
    try:
        for h, p in ((b, P_SMC), (b, P_TCP), (b, P_ECHO), (a, P_ALPHA)):
            h.wait_port(p)

        with t.subtest("smcr: SMC-R on both sides, the device and the step"):
            t.check(client(a, b.ip, P_SMC, "smcr").startswith("ok"), "echo intact")
            c = last(t, why(a, "%s:%d" % (b.ip, P_SMC)), "alpha")
            t.eq((c.get("role"), c.get("result"), c.get("step"), c.get("device")),
                 ("client", "SMCR", "Confirm", "rxe0"), "client record")
            t.check(c.get("syn_sent") and c.get("syn_seen") and c.get("eid") ==
                    stacks.SMCX_DEFAULT_UEID and len(c.get("messages", [])) == 3,
                    "SYN options, EID, Proposal/Accept/Confirm: %s" % c)
            s = last(t, why(b, ":%d" % P_SMC), "beta")
            t.eq((s.get("role"), s.get("result"), s.get("peer")), ("server", "SMCR", a.ip),
                 "server record")
            held = a.bg("%s client %s %d held 20 30" % (scenarios.pytool("why_peers"), b.ip,
                                                        P_SMC))
            try:
                text = []
                got = scenarios.wait_for(
                    lambda: text.append(a.out(stacks.smcss() + " --why")) or
                    "SMC-R, decided at: Confirm" in text[-1], timeout=20, step=0.5)
                t.check(got, "smcss --why explains the held connection:\n%s" % text[-1:])
            finally:
                held.kill()

        with t.subtest("smcd: a connection within alpha is SMC-D over loopback-ism"):
            t.check(client(a, "127.0.0.1", P_ALPHA, "smcd").startswith("ok"), "echo intact")
            recs = why(a, "127.0.0.1:%d" % P_ALPHA)
            t.eq(sorted((r["role"], r["result"], r["device"]) for r in recs[-2:]),
                 [("client", "SMCD", "loopback-ism"), ("server", "SMCD", "loopback-ism")],
                 "both ends' records")
            t.check(all("SMC-D" in r["offer"] for r in recs[-2:]), "SMC-D offered: %s" % recs)

        with t.subtest("no smc: PEER_NO_SMC at the SYN-ACK and at the SYN"):
            t.check(client(a, b.ip, P_TCP, "tcp").startswith("ok"), "echo intact")
            c = last(t, why(a, "%s:%d" % (b.ip, P_TCP)), "alpha")
            t.eq((c.get("result"), c.get("reason_name"), c.get("step"), c.get("syn_seen")),
                 ("TCP", "PEER_NO_SMC", "SYN-ACK", False), "client record")
            t.check("did not announce SMC" in c.get("explanation", ""), c.get("explanation"))
            r = b.run("python3 -c \"import socket;s=socket.create_connection(('%s',%d));"
                      "s.sendall(b'x'*100);s.shutdown(1);print(len(s.recv(1000)))\""
                      % (a.ip, P_ALPHA), check=False)
            t.eq(r.out.strip(), "100", "plain TCP client echoed")
            s = last(t, why(a, ":%d" % P_ALPHA), "alpha server")
            t.eq((s.get("role"), s.get("result"), s.get("step")), ("server", "TCP", "SYN"),
                 "server record of a TCP client")

        with t.subtest("ueid: no common EID, told on both sides with the EIDs"):
            b.run("%s ueid flush && %s ueid add %s" % (smcr, smcr, OTHER_EID))
            try:
                t.check(client(a, b.ip, P_SMC, "ueid").startswith("ok"), "echo intact")
            finally:
                b.run("%s ueid flush; %s ueid add %s" % (smcr, smcr, stacks.SMCX_DEFAULT_UEID))
            # the server's Decline is mainline's for an SMC-Rv2 offer without a common
            # EID: NOSMCDEV; the EIDs on record tell the two apart
            c = last(t, why(a, "%s:%d" % (b.ip, P_SMC)), "alpha")
            t.eq((c.get("result"), c.get("step"), c.get("peer_reason_name")),
                 ("TCP", "the peer's Decline", "NOSMCDEV"), "client record")
            t.check(stacks.SMCX_DEFAULT_UEID in c.get("explanation", "") and
                    "smcr ueid add %s" % stacks.SMCX_DEFAULT_UEID in c.get("fix", ""),
                    "our EIDs and the fix: %s" % c)
            b.run("%s ueid flush && %s ueid add %s" % (smcr, smcr, OTHER_EID))
            try:
                s = last(t, why(b, ":%d" % P_SMC), "beta")
            finally:
                b.run("%s ueid flush; %s ueid add %s" % (smcr, smcr, stacks.SMCX_DEFAULT_UEID))
            t.eq((s.get("result"), s.get("reason_name")), ("TCP", "NOSMCDEV"), "server record")
            t.check("No common EID: the client offered %s, ours are %s"
                    % (stacks.SMCX_DEFAULT_UEID, OTHER_EID) in s.get("explanation", ""),
                    "both sides' EIDs named: %s" % s.get("explanation"))

        with t.subtest("echo: a peer that echoes the option heals into TCP"):
            b.modprobe("sch_prio", "cls_u32", "act_pedit", "act_csum")
            b.run("tc qdisc del dev eth0 root 2>/dev/null; "
                  "tc qdisc add dev eth0 root handle 1: prio")
            scenarios.smc_option_filter(b, "match ip sport %d 0xffff" % P_ECHO, flags=0x12)
            try:
                before = stats(a)
                first = client(a, b.ip, P_ECHO, "e1")
                t.check(first.startswith("error EPROTO"), "first connection: %s" % first)
                ps = [p for p in peers(a) if p["port"] == P_ECHO]
                t.eq([(p["addr"], p["why"], p["cached"]) for p in ps],
                     [(b.ip, "not-clc", True)], "cached after the break")
                second = client(a, b.ip, P_ECHO, "e2")
                m = re.match(r"ok secs=([\d.]+)", second)
                t.check(m and float(m.group(1)) < 3.0, "second: TCP at once: %s" % second)
                recs = why(a, "%s:%d" % (b.ip, P_ECHO))
                t.eq([(r["result"], r["step"]) for r in recs[-2:]],
                     [("FAILED", "the answer to our Proposal"), ("TCP", "peer cache")],
                     "records")
                t.check("sent our Proposal back" in recs[-2]["explanation"],
                        recs[-2]["explanation"])
                t.eq((recs[-1]["syn_sent"], recs[-1]["messages"]), (False, []),
                     "no SMC option, no CLC message")
                t.eq([p["hits"] for p in peers(a) if p["port"] == P_ECHO], [1], "hits")
                t.eq(stats(a).get("clnt_fallback_PEERCACHED", 0) -
                     before.get("clnt_fallback_PEERCACHED", 0), 1, "counted in the statistics")
                a.run(smcctl("peers delete %s:%d" % (b.ip, P_ECHO)))
                t.eq([p for p in peers(a) if p["port"] == P_ECHO], [], "deleted")
                client(a, b.ip, P_ECHO, "e3")
                t.eq(len([p for p in peers(a) if p["port"] == P_ECHO]), 1, "cached again")
                a.run(smcctl("peers flush"))
                t.eq(peers(a), [], "flushed")
                a.run("sysctl -qw net.smc.smcx_peer_ttl=2")
                client(a, b.ip, P_ECHO, "e4")
                t.eq([p["port"] for p in peers(a)], [P_ECHO], "cached with a 2 s time to live")
                got = scenarios.wait_for(lambda: not peers(a), timeout=10, step=0.5)
                t.check(got, "the entry expired")
                a.run("sysctl -qw net.smc.smcx_peer_ttl=0")
                client(a, b.ip, P_ECHO, "e5")
                t.eq(peers(a), [], "smcx_peer_ttl=0: nothing remembered")
            finally:
                a.run("sysctl -qw net.smc.smcx_peer_ttl=300", check=False)
                b.run("tc qdisc del dev eth0 root", check=False)

        with t.subtest("nobody: own handshakes only, no changes"):
            mine = client(a, b.ip, P_SMC, "nobody", pre=NOBODY)
            t.check(mine.startswith("ok"), "nobody's echo intact: %s" % mine)
            recs = why(a, pre=NOBODY)
            t.eq([(r["uid"], r["comm"]) for r in recs], [(65534, "python3")],
                 "nobody sees its one handshake")
            t.check(len(why(a)) > 1, "root sees all")
            for cmd in ("why flush", "peers flush", "peers delete %s:%d" % (b.ip, P_ECHO)):
                r = a.run(NOBODY + smcctl(cmd), check=False)
                t.check(r.rc == 1 and "permission denied" in r.err,
                        "nobody: %s refused: %s" % (cmd, r.err.strip()))
            t.eq(a.run(NOBODY + smcctl("peers"), check=False).rc, 0, "nobody reads the cache")

        with t.subtest("size: net.smc.smcx_hs_records bounds the ring, 0 records nothing"):
            a.run("sysctl -qw net.smc.smcx_hs_records=2")
            for i in range(3):
                client(a, b.ip, P_TCP, "size%d" % i)
            t.eq(len(why(a)), 2, "two records kept")
            a.run("sysctl -qw net.smc.smcx_hs_records=0")
            client(a, b.ip, P_TCP, "off")
            t.eq(why(a), [], "recorder off")
            a.run("sysctl -qw net.smc.smcx_hs_records=64")
            a.run(smcctl("why flush"))
            t.eq(why(a), [], "flushed")

        with t.subtest("nodev: smcr=0 has no SMC-R device and declines the Accept"):
            srv.pop().kill()        # alpha's IPPROTO_SMC listener holds the module
            stacks.clear(a)
            a.insmod_smcx("smcr=0")
            t.check(client(a, b.ip, P_SMC, "nodev").startswith("ok"), "echo intact")
            c = last(t, why(a), "alpha")
            t.eq((c.get("result"), c.get("step"), c.get("reason_name")),
                 ("TCP", "after the peer's Accept", "NOSMCRDEV"), "client record")
            t.check("smc_rnics" in c.get("fix", ""), c.get("fix"))
            s = last(t, why(b, ":%d" % P_SMC), "beta")
            t.eq((s.get("result"), s.get("step"), s.get("reason_name")),
                 ("TCP", "the peer's Decline", "PEERDECL"), "server record")
    finally:
        for j in srv:
            j.kill()
