# SPDX-License-Identifier: GPL-2.0
"""The server handshake against hostile clients: eyecatcher prefixes, slow
and silent clients, silent first contacts, a small connection limit, and
strangers that claim another peer's link group.  The labels F1 to F17
below are in the subtests' names.

alpha serves with smcx under net.smc.tcp2smc=1 (a Python TCP listener, backlog
4, that becomes an smcx listener); beta's hostile clients are plain TCP
sockets bound to source ports 0x5000-0x5fff, whose SYNs a tc pedit filter
turns into SMC-announcing ones.  Honest clients are AF_SMC sockets.  The
programs are selftests/tools/echo_server.py (alpha), clc_client.py (beta,
CLC messages built by hand) and cpu_busy.py.

smcr=0 (F1, the eyecatcher sniff):
  - 1, 2 or 3 eyecatcher bytes, then FIN: the server falls back (SYNCERR) and
    echoes exactly those bytes; then RST: a failed handshake.  Afterwards the
    guest is idle (no handshake worker spinning: busy time in /proc/stat over
    3 s below half a CPU) and a plain TCP client is served (the stuck
    handshakes would fill the listener's backlog);
  - 1-3 bytes then silence, and a client sending one byte per second: each
    is reset by the server within its CLC wait (6 s; the clients give up
    after 15 s);
  - the listener's close() with silent handshakes pending returns at once
    (bounded by a 10 s thread join) and resets them; smcx unloads.
smcr=1 (first contacts):
  - F16: both host names hold a UTF-8 byte: SMC-R still works (the name goes
    out with '?' for it);
  - F10: two silent clients hold first contacts (their Proposals claim GIDs
    nobody has, they read the Accept and never confirm) while an honest client
    connects: the honest one gets SMC-R (its own CLC wait is 6 s; a server
    that serialised all first contacts made it wait for both, 6 s each);
  - F17: a Proposal asking for 8 connections per link group is declined
    with MAXCONNERR (0x0303000a), as mainline declines below 16;
  - F11: TCP clients claiming beta's GID for a reuse, whose Confirms name
    another QP and MAC than the link group's peer, are reset, not served.
    The first 4 get a reuse Accept (each cost beta's link group a REG_MR
    or a CONFIRM_RKEY); the 4th closes the group to reuse (smcx/reuse.h),
    so the next ones get a first-contact Accept and never touch it
    (srv_reuse_failed, srv_reuse_refused).  beta's own next connection
    still gets SMC-R, on a new link group; the old one stays up.
  - N1: a stranger on beta's second address (an alias, not beta's GID)
    claims beta's GID and answers the Accept with an "out of sync" Decline,
    three times, while beta's verified SMC-R transfer to alpha runs: the
    stranger only ever gets first contacts (a reuse is offered only to the
    peer at the GID's address), the transfer ends OK and alpha's link
    groups are those it had before.  beta's own next connection reuses one.
  - N4: 200 first contacts at once from that second address, each claiming
    a GID nobody has, none confirming: alpha holds at most 32 link groups
    for that address at any time (kernel/lgr.h, sampled from debugfs
    objects), declines the others with MEM (srv_lgr_capped), and beta's
    own connection meanwhile gets SMC-R.
"""
import os
import re
import time

import scenarios
import stacks

TIMEOUT = 600
COST = 108
PORT_F1 = 7100
PORT_R = 7101
PORT_X = 7102
STRANGER = "198.18.0.50"    # beta's alias: an address that is not its GID
STRANGER_TRIES = 3
XFER_SECS = 30         # a timed transfer: it outlives the Declines at any speed
PORT_V = 7103
FLOOD = 200
LGR_PER_PEER = 32       # kernel/lgr.h: SMCX_LGR_PER_PEER
DECL_MEM = 0x01010000
LGRS = "/tmp/hs_hostile.lgrs"
HOSTILE = os.path.join(os.path.dirname(scenarios.XFER), "hostile")
STOP = "/tmp/hs_hostile.stop"
ACCEPTED = "/tmp/hs_hostile.accepted"
MAXCONNERR = 0x0303000a
REUSE_BURST = 4         # include/smcx/reuse.h: SMCX_REUSE_BURST
CLAIMS = REUSE_BURST + 2

SERVER = scenarios.pytool("echo_server")
CLIENT = scenarios.pytool("clc_client")

# the hostile clients' source ports, 0x5000-0x5fff: their SYNs announce SMC
SYN_SMC_MATCH = "match ip sport 20480 0xf000"


def stats(h):
    return scenarios.smcx_stats(h)


def delta(before, after, key):
    return after.get(key, 0) - before.get(key, 0)


def client(t, b, a, port, mode, *args, timeout=60):
    r = b.run(CLIENT + " %s %d %s %s" % (a.ip, port, mode, " ".join(args)),
              timeout=timeout, check=False)
    t.log(r.out.strip() or r.describe())
    return r.out


def line(out, name):
    m = re.search(r"^%s (\w+) data=(\S+) secs=([\d.]+)$" % re.escape(name), out, re.M)
    return (m.group(1), m.group(2), float(m.group(3))) if m else (None, None, None)


def start_server(a, port):
    a.run("rm -f %s" % STOP)
    srv = a.bg("%s %d %s" % (SERVER, port, STOP))
    a.wait_port(port, job=srv)
    return srv


def stop_server(t, a, srv):
    a.run("touch %s" % STOP)
    r = srv.wait(timeout=30, check=False)
    t.log(r.out.strip())
    t.eq(r.out.split("\n")[0].strip(), "proto 256", "the listener was an smcx socket (tcp2smc)")
    t.check(re.search(r"^close done", r.out, re.M), "the listener's close() returned")
    return r


def unload(t, h):
    """rmmod smcx; closing connections may hold it for a moment"""
    scenarios.wait_for(lambda: h.run("rmmod smcx", check=False).ok, timeout=30, step=1)
    t.check(not h.loaded("smcx"), "smcx unloads on %s" % h.name)


def busy(t, a):
    v = float(a.out(scenarios.pytool("cpu_busy")))
    t.log("alpha busy %.2f of a CPU over 3 s" % v)
    t.check(v < 0.5, "no handshake worker spinning (busy %.2f < 0.5)" % v)


def sniff(t, a, b):
    """F1 with smcr=0 under tcp2smc."""
    a.insmod_smcx("smcr=0")
    a.run("sysctl -qw net.smc.tcp2smc=1")
    srv = start_server(a, PORT_F1)
    try:
        with t.subtest("1-3 eyecatcher bytes then FIN or RST: fallback or failure, no spin"):
            before = stats(a)
            out = client(t, b, a, PORT_F1, "prefix",
                         *["%d:%s" % (n, e) for e in ("fin", "rst") for n in (1, 2, 3)])
            for n in (1, 2, 3):
                got = line(out, "%d:fin" % n)
                t.eq(got[:2], ("eof", (b"echo:" + bytes.fromhex("e2d4c3d9")[:n]).hex()),
                     "%d bytes then FIN: the application got them and EOF" % n)
            busy(t, a)
            after = stats(a)
            t.check(delta(before, after, "srv_hs_started") >= 3,
                    "handshakes started: %d" % delta(before, after, "srv_hs_started"))
            t.eq(delta(before, after, "srv_fallback_SYNCERR"), 3, "SYNCERR fallbacks")
            t.log("hs_errors +%d (the RST ones that the server saw before the handshake)"
                  % delta(before, after, "srv_hs_errors"))
            t.eq(line(client(t, b, a, PORT_F1, "plain"), "plain")[:2],
                 ("eof", b"echo:plain".hex()), "a plain TCP client is served afterwards")
        with t.subtest("1-3 bytes then silence, one byte per second: reset within the CLC wait"):
            before = stats(a)
            job = b.bg(CLIENT + " %s %d slow" % (a.ip, PORT_F1))
            out = client(t, b, a, PORT_F1, "prefix", "1:silent", "2:silent", "3:silent")
            for n in (1, 2, 3):
                got = line(out, "%d:silent" % n)
                t.check(got[0] in ("reset", "eof"),
                        "%d bytes then silence: the server ended it: %s" % (n, got))
            r = job.wait(timeout=60, check=False)
            t.log(r.out.strip())
            got = line(r.out, "slow")
            t.check(got[0] in ("reset", "eof"), "the slow client was ended by the server: %s"
                    % (got,))
            busy(t, a)
            t.eq(delta(before, stats(a), "srv_hs_errors"), 4, "failed handshakes")
        with t.subtest("listener close with silent handshakes pending returns at once"):
            job = b.bg(CLIENT + " %s %d prefix 1:silent 2:silent 3:silent"
                       % (a.ip, PORT_F1))
            time.sleep(2)
            stop_server(t, a, srv)
            srv = None
            r = job.wait(timeout=60, check=False)
            t.log(r.out.strip())
            for n in (1, 2, 3):
                t.check(line(r.out, "%d:silent" % n)[0] in ("reset", "eof"),
                        "%d bytes then silence: ended by the close" % n)
            busy(t, a)
    finally:
        if srv:
            stop_server(t, a, srv)
        a.run("sysctl -qw net.smc.tcp2smc=0", check=False)
    with t.subtest("smcx unloads"):
        unload(t, a)


def honest(t, a, b, what):
    before_a, before_b = stats(a), stats(b)
    out = client(t, b, a, PORT_R, "smc", timeout=60)
    t.eq(line(out, "smc")[:2], ("eof", b"echo:honest".hex()), "%s: echo over AF_SMC" % what)
    t.eq(delta(before_b, stats(b), "clnt_success_v2"), 1, "%s: client SMC-Rv2" % what)
    t.eq(delta(before_a, stats(a), "srv_success_v2"), 1, "%s: server SMC-Rv2" % what)


def first_contacts(t, a, b):
    for h in (a, b):
        h.insmod_smcx()
    a.run("sysctl -qw net.smc.tcp2smc=1")
    srv = start_server(a, PORT_R)
    names = {h: h.out("hostname").strip() for h in (a, b)}
    try:
        with t.subtest("F16: host names with a UTF-8 byte: SMC-R works"):
            for h in (a, b):
                # sethostname() takes any bytes; hostname(1) would refuse
                h.run("printf '%s-\\303\\251' > /proc/sys/kernel/hostname" % names[h])
                t.log("%s: hostname %r" % (h.name, h.out("cat /proc/sys/kernel/hostname")))
            try:
                honest(t, a, b, "UTF-8 host names")
            finally:
                for h in (a, b):
                    h.run("hostname %s" % names[h], check=False)
        # a fresh start: the next honest connection is a first contact
        a.run("touch %s" % STOP)
        srv.wait(timeout=30, check=False)
        for h in (a, b):
            unload(t, h)
            h.insmod_smcx()
        a.run("sysctl -qw net.smc.tcp2smc=1")
        srv = start_server(a, PORT_R)
        with t.subtest("F10: silent first contacts do not hold up an honest one"):
            a.run("rm -f %s.*" % ACCEPTED)
            b.run("rm -f %s.*" % ACCEPTED)
            job = b.bg(CLIENT + " %s %d first %s 198.18.0.99 198.18.0.97"
                       % (a.ip, PORT_R, ACCEPTED))
            t.check(scenarios.wait_for(lambda: b.run("ls %s.*" % ACCEPTED,
                                                     check=False).ok, timeout=20),
                    "a silent client got its first-contact Accept")
            honest(t, a, b, "honest first contact beside silent ones")
            r = job.wait(timeout=60, check=False)
            t.log(r.out.strip())
            t.eq(len(re.findall(r"^reply type 2 first 1$", r.out, re.M)), 2,
                 "first-contact Accepts to the silent clients")
            t.eq(re.findall(r"^silent-first (\w+)", r.out, re.M), ["reset", "reset"],
                 "the server gave up on the silent clients")
        with t.subtest("F17: max conns 8 is declined with MAXCONNERR"):
            out = client(t, b, a, PORT_R, "maxconn", "198.18.0.98")
            t.check(re.search(r"^reply type 4 diag 0x%08x$" % MAXCONNERR, out, re.M),
                    "a Decline MAXCONNERR")
        with t.subtest("F11: strangers' reuses are reset, and rate-limited"):
            old = [g["id_hex"] for g in stacks.linkgroups(a)]
            t.eq(len(old), 1, "alpha: beta's link group before the claims")
            before = stats(a)
            out = client(t, b, a, PORT_R, "claim", b.ip, str(CLAIMS), timeout=150)
            firsts = re.findall(r"^reply type 2 first (\d)$", out, re.M)
            t.eq(firsts, ["0"] * REUSE_BURST + ["1"] * (CLAIMS - REUSE_BURST),
                 "reuse Accepts until the group closed to reuse, then first contacts")
            t.eq([m for m in re.findall(r"^claim (\w+)", out, re.M)
                  if m not in ("reset", "eof")], [], "no stranger was served")
            after = stats(a)
            t.eq(delta(before, after, "srv_success_v2"), 0, "server SMC-R connections")
            t.eq(delta(before, after, "srv_hs_errors"), CLAIMS, "failed server handshakes")
            t.eq(delta(before, after, "srv_reuse_failed"), REUSE_BURST, "failed reuses")
            t.check(delta(before, after, "srv_reuse_refused") >= CLAIMS - REUSE_BURST,
                    "the closed group was skipped for the later claims")
            honest(t, a, b, "beta afterwards")
            groups = [g["id_hex"] for g in stacks.linkgroups(a)]
            t.log("alpha's link groups: %s (before: %s)" % (groups, old))
            t.check(old[0] in groups and len(groups) == 2,
                    "beta's new connection made a link group; the old one stays")
        with t.subtest("N1: a stranger's out-of-sync Decline ends no link group"):
            stranger_outofsync(t, a, b)
        with t.subtest("N4: a first-contact flood from one address stays under the cap"):
            first_contact_flood(t, a, b)
    finally:
        for h in (a, b):
            h.run("hostname %s" % names[h], check=False)
        stop_server(t, a, srv)
        a.run("sysctl -qw net.smc.tcp2smc=0", check=False)


def out_of_sync(h):
    """How often @h's kernel log says a group ended as out of sync."""
    return int(h.out("dmesg | grep -c 'peer out of sync' || true").strip() or 0)


def stranger_outofsync(t, a, b):
    srv = a.bg("%s server -f smc -p %d -c 1" % (scenarios.XFER, PORT_X))
    a.wait_port(PORT_X, job=srv)
    b.run("ip addr add %s/24 dev eth0" % STRANGER)
    cli = res = sres = None
    try:
        cli = b.bg("%s client -f smc -a %s -p %d -t %d -m send -c 1"
                   % (scenarios.XFER, a.ip, PORT_X, XFER_SECS))
        t.check(scenarios.wait_for(lambda: sum(g["conns"] for g in stacks.linkgroups(a)) >= 1,
                                   timeout=30, step=0.3),
                "beta's transfer runs by SMC-R")
        old = sorted(g["id_hex"] for g in stacks.linkgroups(a))
        before, oos = stats(a), out_of_sync(a)
        out = client(t, b, a, PORT_R, "outofsync", b.ip, STRANGER, str(STRANGER_TRIES),
                     timeout=90)
        t.eq(re.findall(r"^reply type (\d) first (\d)$", out, re.M),
             [("2", "1")] * STRANGER_TRIES,
             "the stranger got first-contact Accepts only (no reuse of beta's group)")
        running = cli.wait(timeout=1, check=False).rc is None
        t.check(running, "beta's transfer was still running after the Declines")
        res = cli.wait(timeout=180, check=False)
        sres = srv.wait(timeout=60, check=False)
        t.log("client: %s / server: %s" % (res.out.strip()[-300:], sres.describe()))
        t.check(res.rc == 0 and ("0", "tx") in scenarios.verified(res),
                "beta's transfer ended OK, verified")
        t.check(sres.rc == 0 and ("0", "rx") in scenarios.verified(sres),
                "alpha received every byte, verified")
        t.eq(delta(before, stats(a), "srv_success_v2"), 0, "no stranger was served")
        groups = sorted(g["id_hex"] for g in stacks.linkgroups(a))
        t.eq(groups, old, "alpha's link groups are those before the Declines")
        t.eq(out_of_sync(a), oos, "no link group terminated as out of sync")
    finally:
        b.run("ip addr del %s/24 dev eth0" % STRANGER, check=False)
        if cli and res is None:
            cli.kill()
        if sres is None:
            srv.kill()
    honest(t, a, b, "beta after the stranger")
    t.eq(sorted(g["id_hex"] for g in stacks.linkgroups(a)), old,
         "beta's connection reused a link group")


def first_contact_flood(t, a, b):
    victim = a.bg("%s victim -p %d -b 1024" % (HOSTILE, PORT_V))
    a.wait_port(PORT_V, job=victim)
    b.run("ip addr add %s/24 dev eth0" % STRANGER)
    a.run("rm -f %s" % LGRS)
    b.run("rm -f %s.*" % ACCEPTED)
    sampler = a.bg("while sleep 0.2; do awk '$1 == \"lgrs\" {print $2}'"
                   " /sys/kernel/debug/smcx/objects >> %s; done" % LGRS)
    try:
        base = stacks.smcx_objects(a).get("lgrs", 0)
        before = stats(a)
        job = b.bg(CLIENT + " %s %d flood %s %s %d" % (a.ip, PORT_V, STRANGER, ACCEPTED, FLOOD))
        t.check(scenarios.wait_for(lambda: int(b.out("ls %s.* 2>/dev/null | wc -l"
                                                     % ACCEPTED)) >= FLOOD,
                                   timeout=120, step=0.5),
                "every flood connection got its reply or failed")
        honest(t, a, b, "beta during the flood")
        r = job.wait(timeout=120, check=False)
        errors = re.findall(r"^flood error .*$", r.out, re.M)
        if errors:
            t.log("flood errors, first of %d: %s" % (len(errors), errors[0]))
        replies = re.findall(r"^flood reply type (\d) first (\d) diag 0x([0-9a-f]+)$", r.out, re.M)
        t.log("flood: %d replies, %d Accepts, declines %s, errors %d"
              % (len(replies), sum(x[0] == "2" for x in replies),
                 sorted(set(x[2] for x in replies if x[0] == "4")), len(errors)))
        samples = [int(x) for x in (a.read(LGRS) or "").split()]
        peak = max(samples or [0])
        t.log("alpha's link groups: %d before, at most %d in %d samples"
              % (base, peak, len(samples)))
        t.check(peak - base <= LGR_PER_PEER,
                "at most %d link groups for the flooding address (peak %d, base %d)"
                % (LGR_PER_PEER, peak, base))
        # on a loaded host some of beta's 200 threads are reset before a reply
        # (probably their Proposal came after the server's 6 s CLC wait; 36 of 200
        # with two labs side by side); the cap is what is checked here
        t.check(len(replies) + len(errors) == FLOOD and len(replies) >= FLOOD // 2,
                "CLC replies to the flood: %d of %d" % (len(replies), FLOOD))
        t.check(all(x[0] == "2" and x[1] == "1" or x[0] == "4" and int(x[2], 16) == DECL_MEM
                    for x in replies), "first-contact Accepts or Declines MEM only")
        t.check(any(x[0] == "4" for x in replies), "some first contacts were declined")
        capped = delta(before, stats(a), "srv_lgr_capped")
        t.eq(capped, sum(x[0] == "4" for x in replies), "srv_lgr_capped counts the Declines")
    finally:
        sampler.kill()
        victim.kill()
        b.run("ip addr del %s/24 dev eth0" % STRANGER, check=False)


def run(t):
    a, b = t.alpha, t.beta
    b.modprobe("sch_prio", "cls_u32", "act_pedit", "act_csum")
    b.run("tc qdisc del dev eth0 root 2>/dev/null; tc qdisc add dev eth0 root handle 1: prio")
    scenarios.smc_option_filter(b, SYN_SMC_MATCH)
    try:
        sniff(t, a, b)
        first_contacts(t, a, b)
    finally:
        b.run("tc qdisc del dev eth0 root", check=False)
