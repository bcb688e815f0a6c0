# SPDX-License-Identifier: GPL-2.0
"""smcx's SMC-R statistics beyond handshakes: the payload and
buffer size histograms, buffer events, the special socket calls.

smcx with smcr=1 on both hosts.  One connection (IPPROTO_SMC, driven by
selftests/tools/statsxfer.py so every socket call is known): the client sets
TCP_NODELAY on, TCP_CORK on and off, sends one urgent byte (MSG_OOB), then
NBYTES in one send call; the server reads 16 bytes with one splice() and the rest with a
RBUF-byte buffer until EOF.  Expected deltas of `smcr -a -j stats`:

  alpha (client): tx bytes +NBYTES+1, tx calls +2 (bucket 8K for the
    urgent byte, the bucket of NBYTES); nodelay +1, cork +1, urgent data +1; one send buffer and one RMB
    taken (64 KiB bucket, alloc + reuse = 1 each); the send call was larger
    than the send buffer and than the peer's RMB (size_small, size_small_peer
    +1 each); no receive call counted (EOF is not data).
  beta (server): rx bytes +NBYTES, every receive call in the RBUF bucket,
    and the same buffers.

Then `smcr -a -d stats` text must show the same numbers as the JSON, and the
buffer usage gauges are back to 0 once the connection is gone, while `smcr
linkgroup` still counts the pooled buffers (rmb_alloc, sndbuf_alloc: 64 KiB each).

RDMA WRITE WITH IMMEDIATE (docs/wire.md; debugfs stats wwi_*):
between the two smcx hosts the link group negotiated it (wwi_groups +1 on
both), from each connection's first message on (feature bit 2).  A 1-byte
ping-pong of PP_ROUNDS rounds sends every message that way, the first ones
included: the client's wwi_tx = PP_ROUNDS + 1 (pingpong's header, then the
rounds), the server's PP_ROUNDS, each equal to the other's wwi_rx.  With
either host negotiating as an smcx from before bit 2 (module parameter
fault_wwi_old) the group still uses it, but each side's first message is
a CDC: the client's wwi_tx = PP_ROUNDS, the server's PP_ROUNDS - 1.  A 1 MiB duplex xfer (verified byte for byte) may use it
or not, push by push (a push that wraps a ring or owes the peer our consumer
cursor is a CDC; which pushes do depends on timing): what each host sent
that way the other took (wwi_rx = the other's wwi_tx), none stale.  With net.smc.smcx_write_imm=0 on the server, and
then on the client, a new link group uses the RFC form: every wwi counter
stays 0 on both hosts, and the data is verified the same.

Pushes from the completion path (debugfs stats tx_kick_*): in
that duplex xfer (64 KiB buffers, so each side waits for the other's
consumer cursor all the time) each host pushed in the completion that
moved the peer's cursor (tx_kick_bh > 0), and handed a push to its
workqueue (tx_kick_work, only when no send slot was free) less often than
that.  Before, every such push was a tx_work run.

Receive busy polling (smcx's rx_busy_poll_hit/_miss in debugfs): a 1-byte
ping-pong over SMC-R (pingpong verifies every echo) with SO_BUSY_POLL on
both ends' sockets, then with net.core.busy_read as the default, must make
both hosts' receives spin (hit + miss > 0) and find data while spinning
(hit > 0: each spin may last 10 ms, several round trips here); without
either, no receive spins.
"""
import json
import os

import scenarios
import stacks

TIMEOUT = 600
COST = 36
PORT = 6480
WWI_PORT = 6490
WWI_BYTES = 1 << 20
WWI = scenarios.WWI
KICKS = ("tx_kick_bh", "tx_kick_owner", "tx_kick_work")
BUSY_USEC = 10000
PP_ROUNDS = 200		# 1-byte ping-pong rounds
NBYTES = 100000		# one send call: bucket 128K (64K < n <= 128K)
RBUF = 300000		# receive buffer: bucket 512K
# the server's first read is a splice (it once oopsed: smcx passed it to the
# CLC socket, which has no file for tcp_splice_read)
SPLICE = True
BUCKETS = ["8K", "16K", "32K", "64K", "128K", "256K", "512K", "1024K", "over_1024K"]


def bucket(n):
    i = 0
    while i < len(BUCKETS) - 1 and n > (8192 << i):
        i += 1
    return BUCKETS[i]


def jstats(h):
    return json.loads(h.out("%s -a -j stats" % stacks.smcr()))["smcr"]


def abbreviate(v):
    """smcctl's abbreviate() (user/smcctl/format.cpp)."""
    if v < 1024:
        return str(v)
    d, units = v / 1024.0, "KMGTPE"
    u = 0
    while d >= 1024.0 and u + 1 < len(units):
        d /= 1024.0
        u += 1
    return "%.1f%s" % (d, units[u])


TEXT_KEYS = {
    "Data (bytes)": "bytes", "Requests": "cnt", "Buffer full": "buffer.full",
    "Buffer full (remote)": "buffer.full_peer", "Buffer too small": "buffer.size_small",
    "Buffer too small (remote)": "buffer.size_small_peer",
    "Buffer allocations": "buffer.alloc", "Buffer reuses": "buffer.reuse",
    "Buffer downgrades": "buffer.downgrade",
}
SPECIAL_KEYS = {"cork": "cork", "nodelay": "nodelay", "sendpage": "sendpage",
                "splice": "splice", "urgent data": "urgent_data"}


def parse_text(text):
    """The SMC-R section of `smcr -a -d stats` as {json key: text value}."""
    out, sect = {}, None
    lines = text.splitlines()
    start = [i for i, ln in enumerate(lines) if ln == "SMC-R"]
    for ln in lines[start[0] + 1:] if start else []:
        s = ln.strip()
        if s in ("RX", "TX"):
            sect = s.lower()
            continue
        words = s.split()
        if words and words[0] in ("Bufs", "Reqs") and sect:
            key = "rmb_size" if words[0] == "Bufs" else "payload_size"
            for b, v in zip(BUCKETS, words[1:]):
                out["%s.%s.%s" % (sect, key, b)] = v
            continue
        label, value = ln[2:32].strip(), ln[33:47].strip()
        if not value:
            continue
        if label == "Special socket calls":
            sect = "special_calls"
            out["special_calls.total"] = value
        elif sect == "special_calls" and label in SPECIAL_KEYS:
            out["special_calls." + SPECIAL_KEYS[label]] = value
        elif sect in ("rx", "tx") and label in TEXT_KEYS:
            out["%s.%s" % (sect, TEXT_KEYS[label])] = value
        elif label.endswith("buffer bytes in use"):
            out[label.split()[0].lower() + ".rmb_usage"] = value
    return out


def text_matches_json(t, h):
    js = jstats(h)
    text = h.out("%s -a -d stats" % stacks.smcr())
    got = parse_text(text)
    f = stacks.json_flat(js)
    want = {}
    for k in got:
        if k == "special_calls.total":
            want[k] = str(sum(js["special_calls"].values()))
        elif k.endswith("rmb_usage"):
            want[k] = str(js[k.split(".")[0]]["rmb_usage"])
        elif ".rmb_size." in k or ".payload_size." in k:
            want[k] = abbreviate(f[k])
        else:
            want[k] = str(f[k])
    t.check(len(got) >= 2 * (len(TEXT_KEYS) - 3 + 18) + 3 + len(SPECIAL_KEYS),
            "%s: text has every section (%d values parsed)" % (h.name, len(got)))
    bad = {k: (got[k], want[k]) for k in got if got[k] != want[k]}
    t.eq(bad, {}, "%s: smcr -d stats text equals smcr -j stats" % h.name)
    if bad:
        t.log(text)


def wwi_xfer(t, port):
    """One duplex xfer connection alpha -> beta, verified byte for byte;
    the wwi counter deltas of both hosts by name."""
    a, b = t.alpha, t.beta
    before = {h.name: scenarios.smcx_stats(h) for h in t.hosts}
    sres, cres = scenarios.xfer(b, a, family="smc", port=port, nbytes=WWI_BYTES,
                                mode="duplex", timeout=120)
    t.eq(scenarios.verified(cres), {("0", "tx"), ("0", "rx")}, "client moved and verified")
    t.eq(scenarios.verified(sres), {("0", "tx"), ("0", "rx")}, "server moved and verified")
    after = {h.name: scenarios.smcx_stats(h) for h in t.hosts}
    d = {n: {k: after[n][k] - before[n][k] for k in WWI + KICKS} for n in after}
    t.log("wwi and kick deltas %s" % d)
    return d


def pingpong(t, port, opt=""):
    """A 1-byte ping-pong alpha -> beta of PP_ROUNDS rounds (pingpong @opt
    on both ends, every echo verified); each host's smcx debugfs counter
    deltas over it, by name."""
    a, b = t.alpha, t.beta
    pp = os.path.join(t.repo, "build", "tools", "pingpong")
    before = {h.name: scenarios.smcx_stats(h) for h in t.hosts}
    srv = b.bg("%s server -f smc -p %d %s" % (pp, port, opt))
    b.wait_port(port, job=srv)
    r = a.run("%s client -f smc -a %s -p %d -s 1 -n %d -w 0 %s"
              % (pp, b.ip, port, PP_ROUNDS, opt), timeout=120, check=False)
    rs = srv.wait(timeout=60, check=False)
    t.check(r.ok and rs.ok, "ping-pong over SMC-R verified every echo (%s)"
            % (r.out.strip() or r.err.strip()[-300:]))
    after = {h.name: scenarios.smcx_stats(h) for h in t.hosts}
    return {n: {k: after[n][k] - before[n][k] for k in after[n]} for n in after}


def wwi_pingpong(t, port):
    """pingpong()'s wwi counter deltas.  No push of it has anything but
    data to say and none wraps a ring, so every one qualifies, each side's
    first included (both ends start at count 0, docs/wire.md)."""
    d = {n: {k: v[k] for k in WWI} for n, v in pingpong(t, port).items()}
    t.log("ping-pong wwi deltas %s" % d)
    return d


def wwi_old(t, host, port):
    """Both stacks reloaded (a new link group) with @host negotiating as an
    smcx from before feature bit 2 (module parameter fault_wwi_old): the
    group uses WRITE WITH IMMEDIATE, but each side's first message of a
    connection is a CDC, in either role of the older peer."""
    for h in t.hosts:
        stacks.clear(h)
        h.insmod_smcx("smcr=1" + (" fault_wwi_old=1" if h is host else ""))
    base = {h.name: scenarios.smcx_wwi(h) for h in t.hosts}
    p = wwi_pingpong(t, port)
    for h in t.hosts:
        t.eq(scenarios.smcx_wwi(h)["wwi_groups"] - base[h.name]["wwi_groups"], 1,
             "%s: the group negotiated WRITE WITH IMMEDIATE" % h.name)
    for x, y, want in (("alpha", "beta", PP_ROUNDS), ("beta", "alpha", PP_ROUNDS - 1)):
        t.eq(p[x]["wwi_tx"], want, "%s: every message but its first went that way "
             "(older peer: %s)" % (x, host.name))
        t.eq(p[y]["wwi_rx"], p[x]["wwi_tx"], "%s took every one %s sent" % (y, x))
        t.eq(p[y]["wwi_stale"], 0, "%s: none stale" % y)


def wwi_off(t, host):
    """Both stacks reloaded (a new link group) with the extension off on
    @host: the RFC form, nothing counted."""
    for h in t.hosts:
        stacks.clear(h)
        h.insmod_smcx("smcr=1")
    host.run("echo 0 > /proc/sys/net/smc/smcx_write_imm")
    d = wwi_xfer(t, WWI_PORT + (1 if host is t.beta else 2))
    for n in d:
        t.eq({k: d[n][k] for k in WWI}, {k: 0 for k in WWI},
             "%s: no WRITE WITH IMMEDIATE (off on %s)"
             % (n, host.name))


def run(t):
    a, b = t.alpha, t.beta
    for h in t.hosts:
        stacks.clear(h)
        h.insmod_smcx("smcr=1")
    tool = "python3 %s" % os.path.join(t.repo, "selftests", "tools", "statsxfer.py")
    before = {h.name: jstats(h) for h in t.hosts}
    wwi_base = {h.name: scenarios.smcx_wwi(h) for h in t.hosts}

    with t.subtest("one SMC-R connection with known socket calls"):
        srv = b.bg("%s server %d %d%s" % (tool, PORT, RBUF, " splice" if SPLICE else ""))
        b.wait_port(PORT)
        cli = a.run("%s client %s %d %d" % (tool, b.ip, PORT, NBYTES), timeout=120)
        rs = srv.wait(timeout=120)
        c, s = json.loads(cli.out), json.loads(rs.out)
        t.log("client %s, server %s" % (c, s))
        t.eq((c["sent"], s["received"]), (NBYTES, NBYTES), "payload sent in one call, all received")
        t.eq(c["oob"], "sent", "one urgent byte sent (MSG_OOB)")

    after = {h.name: jstats(h) for h in t.hosts}
    da, db = (stacks.json_diff(before[h], after[h]) for h in ("alpha", "beta"))
    t.log("alpha delta %s" % da)
    t.log("beta delta %s" % db)
    with t.subtest("client counters"):
        t.eq(da.get("v2.clnt_success"), 1, "one SMC-Rv2 client connection")
        t.eq((da.get("tx.bytes"), da.get("tx.cnt")), (NBYTES + 1, 2),
             "tx bytes and calls (the urgent byte and the payload)")
        t.eq(da.get("tx.payload_size." + bucket(NBYTES)), 1,
             "the send call in bucket %s" % bucket(NBYTES))
        t.eq(da.get("tx.payload_size.8K"), 1, "the urgent byte's send in bucket 8K")
        t.eq(sum(v for k, v in da.items() if k.startswith("tx.payload_size.")), 2,
             "no other tx payload bucket moved")
        t.eq(da.get("rx.cnt", 0), 0, "no receive call with data on the client")
        t.eq((da.get("special_calls.nodelay"), da.get("special_calls.cork"),
              da.get("special_calls.urgent_data"), da.get("special_calls.splice", 0)),
             (1, 1, 1, 0), "nodelay +1, cork +1 (released), urgent +1, splice 0")
        t.eq((da.get("tx.buffer.size_small"), da.get("tx.buffer.size_small_peer")), (1, 1),
             "send call larger than the 64K send buffer and the peer's 64K RMB")
    with t.subtest("server counters"):
        t.eq(db.get("v2.srv_success"), 1, "one SMC-Rv2 server connection")
        if SPLICE:
            t.eq((s["splice"], s["spliced"]), ("data", 16), "the server's splice read 16 bytes")
        spl = 1 if SPLICE else 0
        t.eq((db.get("rx.bytes"), db.get("rx.cnt")), (NBYTES, s["calls"] + spl),
             "rx bytes and calls (the server counted %d calls with data, %d splice)"
             % (s["calls"], spl))
        t.eq(db.get("rx.payload_size.8K", 0), spl, "the 16-byte splice in bucket 8K")
        t.eq(db.get("rx.payload_size." + bucket(RBUF)), s["calls"],
             "every receive call in bucket %s" % bucket(RBUF))
        t.eq(db.get("tx.cnt", 0), 0, "no send call on the server")
        t.eq((db.get("special_calls.splice", 0), db.get("special_calls.nodelay", 0)),
             (1 if SPLICE else 0, 0), "splice +%d, nodelay 0" % SPLICE)
    with t.subtest("buffer histograms and events"):
        for h, d in (("alpha", da), ("beta", db)):
            for side in ("tx", "rx"):
                t.eq(d.get("%s.rmb_size.64K" % side), 1, "%s: one %s buffer of 64K" % (h, side))
                t.eq(d.get("%s.buffer.alloc" % side, 0) + d.get("%s.buffer.reuse" % side, 0),
                     1, "%s: %s buffer allocated or reused once" % (h, side))
            st = after[h]
            t.eq((st["rx"]["rmb_usage"], st["tx"]["rmb_usage"]), (0, 0),
                 "%s: no buffer in use after the close" % h)
        for h in t.hosts:
            # the group lingers with the connection's two buffers pooled
            t.eq([(g["rmb_alloc"], g["sndbuf_alloc"]) for g in stacks.linkgroups(h)],
                 [(64 << 10, 64 << 10)],
                 "%s: smcr linkgroup RMB and send buffer bytes, pooled included" % h.name)
    with t.subtest("smcr stats text equals --json"):
        for h in t.hosts:
            text_matches_json(t, h)
    with t.subtest("WRITE WITH IMMEDIATE between smcx hosts"):
        now = {h.name: scenarios.smcx_wwi(h) for h in t.hosts}
        for n in now:
            t.eq(now[n]["wwi_groups"] - wwi_base[n]["wwi_groups"], 1,
                 "%s: the link group negotiated it" % n)
        p = wwi_pingpong(t, WWI_PORT + 3)
        # the client's header (16 bytes) and the server's first echo, each
        # side's first message, go that way too
        for x, y, want in (("alpha", "beta", PP_ROUNDS + 1), ("beta", "alpha", PP_ROUNDS)):
            t.eq(p[x]["wwi_tx"], want,
                 "%s: every message, its first included, went as WRITE WITH IMMEDIATE" % x)
            t.eq(p[y]["wwi_rx"], p[x]["wwi_tx"], "%s took every one %s sent" % (y, x))
        d = wwi_xfer(t, WWI_PORT)
        for x, y in (("alpha", "beta"), ("beta", "alpha")):
            t.eq(d[y]["wwi_rx"], d[x]["wwi_tx"],
                 "duplex: %s took every one of the %d %s sent" % (y, d[x]["wwi_tx"], x))
        for n in d:
            t.eq(p[n]["wwi_stale"] + d[n]["wwi_stale"], 0, "%s: none stale" % n)
    with t.subtest("pushes from the completion path"):
        for n in d:
            t.check(d[n]["tx_kick_bh"] > 0, "%s pushed from completions (%d)"
                    % (n, d[n]["tx_kick_bh"]))
            t.check(d[n]["tx_kick_work"] < d[n]["tx_kick_bh"],
                    "%s: fewer pushes through tx_work (%d) than in softirq (%d)"
                    % (n, d[n]["tx_kick_work"], d[n]["tx_kick_bh"]))
    with t.subtest("WRITE WITH IMMEDIATE with an older smcx server (no bit 2)"):
        wwi_old(t, b, WWI_PORT + 5)
    with t.subtest("WRITE WITH IMMEDIATE with an older smcx client (no bit 2)"):
        wwi_old(t, a, WWI_PORT + 6)
    with t.subtest("WRITE WITH IMMEDIATE off on the server"):
        wwi_off(t, b)
    with t.subtest("WRITE WITH IMMEDIATE off on the client"):
        wwi_off(t, a)
    with t.subtest("receive busy polling: SO_BUSY_POLL, net.core.busy_read"):
        busy_poll(t)



def busy_polls(t, opt):
    """A 1-byte ping-pong over SMC-R (pingpong @opt on both ends); each
    host's busy poll (hit, miss) counts over it."""
    d = pingpong(t, PORT + 1, opt)
    out = {n: (v["rx_busy_poll_hit"], v["rx_busy_poll_miss"]) for n, v in d.items()}
    t.log("busy polls (hit, miss) with %r: %s" % (opt or "no option", out))
    return out


def busy_poll(t):
    off = busy_polls(t, "")
    t.eq(off, {h.name: (0, 0) for h in t.hosts}, "no busy polling by default")
    for how, opt in (("SO_BUSY_POLL", "-B %d" % BUSY_USEC), ("net.core.busy_read", "")):
        if not opt:
            for h in t.hosts:
                h.run("sysctl -qw net.core.busy_read=%d" % BUSY_USEC)
        try:
            got = busy_polls(t, opt)
        finally:
            if not opt:
                for h in t.hosts:
                    h.run("sysctl -qw net.core.busy_read=0")
        for h in t.hosts:
            hit, miss = got[h.name]
            t.check(hit > 0, "%s, %s: receives found data while busy polling "
                    "(hit %d, miss %d)" % (how, h.name, hit, miss))
