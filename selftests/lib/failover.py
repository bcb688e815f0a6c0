# SPDX-License-Identifier: GPL-2.0
"""Pulling a wire under running SMC-R streams, for any stack.

Everything here reads the stacks through the mainline interfaces our tools
speak to either module (stacks.linkgroups: `smcr -j linkgroup`; stacks.sockets:
`smcss -a --json`), so the same helpers drive smcx<->smcx, smcx<->stock and
stock<->stock.  The lab needs WIRES = 2 (eth0/rxe0 on 198.18.0.0/24,
eth1/rxe1 on 198.18.1.0/24).

  Streams       N pattern-verified xfer connections (one xfer client, -c N)
                of a given size each; .result() says whether every byte of
                every stream arrived and verified.
  Sampler       a host-side thread that reads the receiver's sockets (smcss)
                as often as it answers (~0.2 s in the lab): per connection
                its link and the bytes it has received (rx_prod cursor).
  pull()        takes a wire away in one of the PULLS ways; restore() gives
                it back.
  failover_time how long after the pull every connection that was on the
                pulled link had received a byte again.
  wait_links()  the link groups of both hosts with a number of ACTIVE links
                (recovery time).

The ways of pulling a wire, none of which tells the SMC stack politely:
  "down"   `ip link set ethN down` on one host only: that host's rxe port
           goes down (IB_EVENT_PORT_ERR); the other host sees nothing but
           silence on the wire.
  "drop"   tc matchall drop on ethN ingress and egress of both hosts: the
           ports stay ACTIVE, every packet on the wire is lost, so only
           retransmission timeouts (QP errors), send queues that stay full
           or TEST_LINK can find out.  (rxe retransmits forever when a QP's
           retry_cnt is 7, as the stock smc.ko sets it: no QP error then.)

cycle() runs one pull from start to recovery and returns the figures; the
stack-specific expectations (what must recover, what is a known limit) stay
in the test.
"""
import json
import threading
import time

import scenarios
import smcxlab
import stacks

PULLS = ("down", "drop")
SAMPLE_PERIOD = 0.1


def netdev(wire):
    return "eth%d" % wire


def ibdev(wire):
    return "rxe%d" % wire


# -- link groups -------------------------------------------------------------

def groups(h):
    """@h's SMC-R link groups as [{"id", "type", "conns", "links": [{"id",
    "ib_device", "state", "conns", "gid", "peer_gid"}]}]."""
    out = []
    for g in stacks.linkgroups(h):
        out.append({"id": g["id"], "type": g["type"], "conns": g.get("conns"),
                    "role": g.get("role"),
                    "links": [{k: ln.get(k) for k in ("id", "ib_device", "state", "conns",
                                                       "gid", "peer_gid")}
                              for ln in (g.get("links") or [])]})
    return out


def active_links(g):
    return [ln for ln in g["links"] if ln["state"] in ("ACTIVE", "LINK_ACTIVE")]


def describe_groups(h):
    """One line per group and link, for logs and failure messages."""
    lines = []
    for g in groups(h):
        lines.append("%s: group %08x %s %s conns=%s" % (h.name, g["id"], g["role"], g["type"],
                                                        g["conns"]))
        for ln in g["links"]:
            lines.append("    link %s %s %s conns=%s gid %s peer %s"
                         % (ln["id"], ln["ib_device"], ln["state"], ln["conns"], ln["gid"],
                            ln["peer_gid"]))
    return "\n".join(lines) or "%s: no link group" % h.name


def wait_links(hosts, want, timeout=60, step=0.5, devices=None):
    """Wait until every host has a group with @want ACTIVE links (on the
    ib devices @devices, when given); returns the seconds it took, or None."""
    t0 = time.time()

    def ok():
        for h in hosts:
            good = False
            for g in groups(h):
                act = active_links(g)
                devs = {ln["ib_device"] for ln in act}
                if len(act) == want and (devices is None or set(devices) == devs):
                    good = True
            if not good:
                return False
        return True
    if scenarios.wait_for(ok, timeout=timeout, step=step):
        return time.time() - t0
    return None


# -- streams -------------------------------------------------------------------

class Streams:
    """@conns pattern-verified streams of @nbytes each from @client to
    @server (xfer -m @mode), started in the background."""

    def __init__(self, server, client, port, nbytes, conns=4, mode="send", family="smc",
                 timeout=600):
        self.server, self.client, self.port = server, client, port
        self.nbytes, self.conns, self.mode, self.timeout = nbytes, conns, mode, timeout
        self.srv = server.bg("%s server -f %s -p %d -c %d"
                             % (scenarios.XFER, family, port, conns))
        server.wait_port(port, job=self.srv)
        self.t0 = time.time()
        self.cli = client.bg("%s client -f %s -a %s -p %d -n %d -m %s -c %d"
                             % (scenarios.XFER, family, server.ip, port, nbytes, mode, conns))

    def receiver(self):
        """The host whose rx cursors show the payload's progress."""
        return self.server if self.mode == "send" else self.client

    def result(self, sampler=None, stall=30, on_stall=None):
        """(ok, seconds, text, stalled): whether every stream moved and
        verified all its bytes in each direction it carried, the client's
        run time, what the two sides said, and whether the streams were
        given up because @sampler saw no byte arrive for @stall seconds
        (then @on_stall() runs while they still exist, they are killed and
        ok is False)."""
        stalled = False
        last, last_t = None, time.time()
        while True:
            cli = self.cli.wait(timeout=2, check=False)
            if cli.rc is not None or time.time() - self.t0 > self.timeout:
                break
            if sampler is not None:
                total = sum(v[2] for v in sampler.latest()[2].values())
                if total != last:
                    last, last_t = total, time.time()
                elif time.time() - last_t > stall:
                    stalled = True
                    break
        secs = time.time() - self.t0
        if stalled and on_stall is not None:
            on_stall()
        if cli.rc is None:
            cli = self.cli.kill()
        srv = self.srv.wait(timeout=10 if cli.rc is None or stalled else 60, check=False)
        if srv.rc is None:
            srv = self.srv.kill()
        dirs = {"send": ("tx",), "recv": ("rx",), "duplex": ("tx", "rx")}[self.mode]
        want = {(str(i), d) for i in range(self.conns) for d in dirs}
        got = scenarios.verified(cli)
        ok = not stalled and cli.rc == 0 and srv.rc == 0 and want <= got
        text = "client rc %s: %s%s\nserver rc %s: %s%s" % (
            cli.rc, cli.out[-700:], cli.err[-700:], srv.rc, srv.out[-700:], srv.err[-700:])
        return ok, secs, text, stalled

    def kill(self):
        for j in (self.cli, self.srv):
            try:
                j.kill()
            except Exception:  # noqa: BLE001 - already gone
                pass


def conn_progress(h, port):
    """{(local port, peer port): (link id, ib device, bytes received)} for
    the SMC-R sockets of @port on @h; bytes from the rx_prod cursor (wraps
    times the RMB size plus the count)."""
    res = {}
    for s in stacks.sockets(h, port):
        ci, ln = s.get("conninfo"), s.get("link")
        if not ci or s.get("mode") not in (None, "SMCR"):
            continue
        if (s.get("local") or {}).get("port") == port and not (s.get("peer") or {}).get("port"):
            continue		# the listener
        cur = ci["rx_prod"]
        key = ((s.get("local") or {}).get("port"), (s.get("peer") or {}).get("port"))
        res[key] = ((ln or {}).get("link_id"), (ln or {}).get("ib_device"),
                    cur["wrap"] * ci["rmbe_size"] + cur["count"])
    return res


class Sampler:
    """Reads conn_progress(@h, @port) every SAMPLE_PERIOD seconds (or as
    fast as smcss answers) in a thread, keeping (start, end, progress)
    triples: a sample shows the state at some time between the two."""

    def __init__(self, h, port):
        self.h, self.port = h, port
        self.samples = []
        self.errors = []
        self._stop = threading.Event()
        self._thr = threading.Thread(target=self._loop, daemon=True)
        self._thr.start()

    def _loop(self):
        while not self._stop.is_set():
            t0 = time.time()
            try:
                p = conn_progress(self.h, self.port)
                self.samples.append((t0, time.time(), p))
            except Exception as e:  # noqa: BLE001 - kept for the report
                self.errors.append(str(e))
            left = SAMPLE_PERIOD - (time.time() - t0)
            if left > 0:
                self._stop.wait(left)

    def latest(self):
        """(start, end, progress) of the newest sample."""
        return self.samples[-1] if self.samples else (None, None, {})

    def wait_progress(self, total, timeout=300):
        """Wait until the sampled connections received @total bytes in all;
        returns the bytes seen (maybe fewer on timeout)."""
        deadline = time.time() + timeout
        got = 0
        while time.time() < deadline:
            _, _, p = self.latest()
            got = sum(v[2] for v in p.values())
            if got >= total:
                break
            time.sleep(SAMPLE_PERIOD)
        return got

    def period(self):
        """The mean time between samples."""
        if len(self.samples) < 2:
            return None
        return (self.samples[-1][1] - self.samples[0][1]) / (len(self.samples) - 1)

    def stop(self):
        self._stop.set()
        self._thr.join(timeout=30)


def near(sampler, t, n=3):
    """The @n samples before and after @t, one line each: the sample's end
    relative to @t, then per connection (local-peer port) its link device
    and bytes received."""
    idx = next((i for i, (_, te, _) in enumerate(sampler.samples) if te > t),
               len(sampler.samples))
    def conns(p):
        return " ".join("%s-%s:%s:%d" % (k[0], k[1], v[1], v[2])
                        for k, v in sorted(p.items())) or "(none)"
    return "\n".join("%+.2fs %s" % (te - t, conns(p))
                     for _, te, p in sampler.samples[max(0, idx - n):idx + n])


def failover_time(sampler, t_pull, device, nbytes, timeout=60):
    """How long after @t_pull every connection that was on @device at the
    pull (per the last sample before it) and still had bytes to receive
    (fewer than @nbytes) received a byte again: more than in the first
    sample after the pull, or it left the samples (it received the rest
    and ended; an aborted stream fails the streams' own check).  A sample
    can take seconds while the receiver's pushes wait for a dead link's
    send slots (smcss reads the cursors under the connection's tx lock),
    so the first one after the pull may already show a stream near its
    end, and the next one without it: counting only growth past that
    sample called such a pull "never" in a CI run whose streams all
    verified.  Returns (seconds or None if one did not move within
    @timeout, {conn: (link, device, bytes)} of those connections);
    @sampler.moved keeps {conn: seconds} of those that did."""
    before = [p for _, te, p in sampler.samples if te <= t_pull]
    on_dev = {k: v for k, v in (before[-1] if before else {}).items()
              if v[1] == device and v[2] < nbytes}
    sampler.moved = {}
    if not on_dev:
        return None, on_dev
    deadline = t_pull + timeout
    base = None
    moved = {}
    idx = 0
    while len(moved) < len(on_dev):
        while idx < len(sampler.samples):
            ts, te, p = sampler.samples[idx]
            idx += 1
            if ts <= t_pull:	# taken (partly) before the pull
                continue
            first = base is None
            if first:
                base = p
            for k in on_dev:
                if k in moved:
                    continue
                if k not in p:
                    moved[k] = te - t_pull	# received the rest, ended
                elif not first and k in base and p[k][2] > base[k][2]:
                    moved[k] = te - t_pull
        if time.time() > deadline:
            break
        time.sleep(SAMPLE_PERIOD)
    sampler.moved = moved
    if len(moved) < len(on_dev):
        return None, on_dev
    return max(moved.values()), on_dev


# -- pulling a wire ------------------------------------------------------------

# what a drop pull's tc needs: modules on Debian's 6.1 (built in, or loaded
# at once, on 6.12), whose first load there takes seconds under TCG
DROP_MODULES = ("sch_ingress", "cls_matchall", "act_gact")


def prepare_drop(hosts):
    """Load what pull(..., "drop") needs beforehand, so that the pull takes
    effect at once: a pull that waits for a module load lets short streams
    finish before it."""
    for h in hosts:
        h.run("modprobe -a %s" % " ".join(DROP_MODULES), check=False)


def pull(hosts, wire, how, side=None):
    """Take @wire away: "down" on @side only (a host), "drop" on every host
    of @hosts.  Returns the time the wire was gone (after the first host's
    command returned: one host's drop already stops every packet)."""
    dev = netdev(wire)
    if how == "down":
        side.run("ip link set %s down" % dev)
        return time.time()
    if how != "drop":
        raise ValueError("unknown pull %r (have %s)" % (how, ", ".join(PULLS)))
    t = None
    for h in hosts:
        h.run("tc qdisc replace dev %s clsact && "
              "tc filter add dev %s ingress matchall action drop && "
              "tc filter add dev %s egress matchall action drop" % (dev, dev, dev))
        t = t or time.time()
    return t


def restore(hosts, wire, how, side=None):
    """Give @wire back (the reverse of pull()); returns the time it was back."""
    dev = netdev(wire)
    if how == "down":
        side.run("ip link set %s up" % dev)
        # the port is ACTIVE again once the netdev has its carrier
        scenarios.wait_for(lambda: "state ACTIVE" in side.out("rdma link show %s/1"
                                                               % ibdev(wire)),
                           timeout=30, step=0.2)
        return time.time()
    for h in hosts:
        h.run("tc qdisc del dev %s clsact" % dev, check=False)
    return time.time()


def wire_packets(h, wire):
    """(sent, received) packets of @h's rxe on @wire."""
    return (h.rxe_counter("sent_pkts", ibdev(wire)), h.rxe_counter("rcvd_pkts", ibdev(wire)))


def cursors(h, port):
    """The cursors of @h's SMC-R sockets of @port, one line each (evidence
    for a stalled stream)."""
    lines = []
    for s in stacks.sockets(h, port):
        ci, ln = s.get("conninfo") or {}, s.get("link") or {}
        if not ci:
            continue
        cur = " ".join("%s=%s:%s" % (k, ci[k]["wrap"], ci[k]["count"])
                       for k in ("rx_prod", "rx_cons", "tx_prod", "tx_cons", "tx_sent", "tx_fin")
                       if isinstance(ci.get(k), dict))
        lines.append("%s %s->%s link %s %s: %s" % (h.name, s["local"]["port"], s["peer"]["port"],
                                                  ln.get("link_id"), ln.get("ib_device"), cur))
    return "\n".join(lines)


def _cur(c):
    return (c["wrap"], c["count"])


def cursor_lag(sender, receiver, port):
    """The connections of @port whose sender's copy of the receiver's
    consumer cursor (its rx_cons: the last one the receiver sent) is behind
    the receiver's own consumer cursor (its tx_cons): {the client's port:
    (copy, own)}, cursors as (wrap, count).  A sender in that state waits
    for space its peer freed already: a lost cursor update."""
    def by_conn(h):
        """{the connection's other port: conninfo}"""
        d = {}
        for s in stacks.sockets(h, port):
            ci = s.get("conninfo")
            lp, pp = (s.get("local") or {}).get("port"), (s.get("peer") or {}).get("port")
            if ci and pp:
                d[pp if lp == port else lp] = ci
        return d
    snd, rcv = by_conn(sender), by_conn(receiver)
    lag = {}
    for k, ci in snd.items():
        if k in rcv and _cur(ci["rx_cons"]) < _cur(rcv[k]["tx_cons"]):
            lag[k] = (_cur(ci["rx_cons"]), _cur(rcv[k]["tx_cons"]))
    return lag


def cycle(t, server, client, wire, how, port, nbytes, conns, side=None, mode="send",
          pull_at=0.25, recover_timeout=60, stall=30):
    """One pull: @conns streams of @nbytes, @wire pulled (@how, on @side for
    "down") once a @pull_at share of the bytes arrived, restored after the
    streams ended (or made no progress for @stall seconds).  Returns a dict:
    ok (every stream verified), text, stalled (and then: cursors, and lag,
    see cursor_lag), moved_after ({conn: seconds} of those that did move),
    failover (s or None), moved (connections on the pulled link), at_pull
    (every connection's link and bytes then), recovery (s or None), period
    (sampling), secs (stream run time)."""
    hosts = (server, client)
    if how == "drop":
        prepare_drop(hosts)
    st = Streams(server, client, port, nbytes, conns, mode)
    smp = Sampler(st.receiver(), port)
    res = {"ok": False, "failover": None, "recovery": None, "moved": {}, "at_pull": {},
           "stalled": False, "text": "", "lag": {}, "moved_after": {}}
    try:
        got = smp.wait_progress(int(nbytes * conns * pull_at), timeout=st.timeout)
        t.log("%s: %d bytes of %d arrived; pulling wire %d (%s%s)"
              % (st.receiver().name, got, nbytes * conns, wire, how,
                 " on %s" % side.name if side else ""))
        t_pull = pull(hosts, wire, how, side)
        res["failover"], res["moved"] = failover_time(smp, t_pull, ibdev(wire), nbytes,
                                                      timeout=30)
        res["moved_after"] = dict(smp.moved)
        if res["failover"] is None and res["moved"]:
            # what the connections that did not move again are waiting
            # for, while they still exist
            res["stuck"] = "\n".join([cursors(h, port) for h in hosts] +
                                     [describe_groups(h) for h in hosts] +
                                     ["%s stats: %s" % (h.name, h.out(
                                         "grep -v ' 0$' %s/stats | tr '\\n' ' '"
                                         % stacks.SMCX_DEBUGFS)) for h in hosts])
        before = [p for _, te, p in smp.samples if te <= t_pull]
        res["at_pull"] = before[-1] if before else {}
        res["near_pull"] = near(smp, t_pull)
        sender = server if mode == "recv" else client

        def evidence():
            res["cursors"] = "\n".join(cursors(h, port) for h in hosts)
            if mode != "duplex":
                res["lag"] = cursor_lag(sender, st.receiver(), port)
        res["ok"], res["secs"], res["text"], res["stalled"] = st.result(smp, stall, evidence)
    finally:
        smp.stop()
        st.kill()
        res["period"] = smp.period()
        res["after_pull"] = "\n".join(describe_groups(h) for h in hosts)
        t_back = restore(hosts, wire, how, side)
    t_wait = time.time()
    rec = wait_links(hosts, 2, timeout=recover_timeout)
    res["recovery"] = None if rec is None else rec + (t_wait - t_back)
    res["after_restore"] = "\n".join(describe_groups(h) for h in hosts)
    return res


# -- one group by role; the kernel's dump read raw; the tools' text views -------
#
# The views below let a test hold smcctl's text (what a user reads) against
# the kernel's GET_LINK_SMCR dump decoded here from the raw attributes
# (selftests/tools/genlreq.py), so that neither smcctl's decoder nor its
# formatter is taken on trust.  Attribute numbers: include/uapi/linux/smc.h.

GEN_LGR_SMCR, GEN_LINK_SMCR = 2, 3		# SMC_GEN_* top-level nests
NETLINK_GET_LINK_SMCR = 3			# SMC_NETLINK_GET_LINK_SMCR
LGR_TYPES = {0: "NONE", 1: "SINGLE", 2: "SYM", 3: "ASYMP", 4: "ASYML"}
LINK_STATES = {0: "LINK_UNUSED", 1: "LINK_INACTIVE", 2: "LINK_ACTIVATING", 3: "LINK_ACTIVE"}


def raw_group(t, h, role):
    """@h's one group of @role from the raw link dump (netlink_groups()),
    checked to be the only one; a stand-in without links when there is
    none, so that the checks after it fail by name."""
    gs = [g for g in netlink_groups(h) if g["role"] == role]
    t.eq(len(gs), 1, "%s: %s groups in the raw link dump" % (h.name, role))
    return gs[0] if gs else {"type": None, "links": []}


def group_of(h, role):
    """@h's one link group of @role ("CLNT"/"SERV") as groups() gives it, or
    None; more than one of that role is an error (a test that wants one
    group per role starts from a fresh module)."""
    gs = [g for g in groups(h) if g["role"] == role]
    if len(gs) > 1:
        raise AssertionError("%s: %d %s link groups, want at most one\n%s"
                             % (h.name, len(gs), role, describe_groups(h)))
    return gs[0] if gs else None


def wait_role_links(pairs, want, timeout=60, step=0.5, devices=None):
    """wait_links() for one group per host, picked by role: @pairs is
    [(host, role)]; each host's group of that role must have @want ACTIVE
    links (on the ib devices @devices, when given).  Returns the seconds it
    took, or None."""
    t0 = time.time()

    def ok():
        for h, role in pairs:
            g = group_of(h, role)
            act = active_links(g) if g else []
            if len(act) != want or (devices is not None and
                                    {ln["ib_device"] for ln in act} != set(devices)):
                return False
        return True
    if scenarios.wait_for(ok, timeout=timeout, step=step):
        return time.time() - t0
    return None


def _nla(buf):
    """{type: payload} of a run of netlink attributes (the last of a type)."""
    out = {}
    while len(buf) >= 4:
        alen, atype = int.from_bytes(buf[0:2], "little"), int.from_bytes(buf[2:4], "little")
        if alen < 4:
            break
        out[atype & 0x3fff] = buf[4:alen]
        buf = buf[(alen + 3) & ~3:]
    return out


def _u(b):
    return int.from_bytes(b, "little") if b is not None else None


def _s(b):
    return b.split(b"\0", 1)[0].decode(errors="replace") if b is not None else None


def netlink_groups(h):
    """@h's SMC-R link groups and links as the kernel's GET_LINK_SMCR dump
    carries them, decoded here (not by smcctl): [{"id_hex", "role", "type",
    "conns", "links": [{"id", "ib_device", "ib_port", "gid", "peer_gid",
    "conns", "ifindex", "state"}]}], names as smcctl prints them.  One
    Python start in the guest (a second or two under emulation)."""
    r = h.out("python3 %s/selftests/tools/genlreq.py SMC_GEN_NETLINK %d --dump"
              % (smcxlab.REPO, NETLINK_GET_LINK_SMCR))
    ans = json.loads(r)
    if ans["errno"]:
        raise AssertionError("%s: GET_LINK_SMCR dump: errno %d (%s)"
                             % (h.name, ans["errno"], ans.get("extack")))
    out = []
    for m in ans["msgs"]:
        top = {t: bytes.fromhex(v) for t, v in m["attrs"]}
        if GEN_LGR_SMCR in top:
            a = _nla(top[GEN_LGR_SMCR])
            out.append({"id_hex": "%08x" % _u(a.get(1)), "role": "SERV" if _u(a.get(2)) else "CLNT",
                        "type": LGR_TYPES.get(_u(a.get(3)), str(_u(a.get(3)))),
                        "conns": _u(a.get(6)), "links": []})
        if GEN_LINK_SMCR in top:
            if not out:
                raise AssertionError("%s: a link before any link group in the dump" % h.name)
            a = _nla(top[GEN_LINK_SMCR])
            out[-1]["links"].append({
                "id": _u(a.get(1)), "ib_device": _s(a.get(2)), "ib_port": _u(a.get(3)),
                "gid": _s(a.get(4)), "peer_gid": _s(a.get(5)), "conns": _u(a.get(6)),
                "ifindex": _u(a.get(7)), "state": LINK_STATES.get(_u(a.get(10)),
                                                                  str(_u(a.get(10))))})
    return out


VIEW_SEP = "@@view@@"


def tool_views(h):
    """The text of `smcr linkgroup`, `smcr -dd linkgroup link-show` and
    `smcss -R -W` on @h, in one round trip: {"lgr", "links", "socks"}."""
    smcr, smcss = stacks.smcr(), stacks.smcss()
    out = h.out("%s linkgroup; echo %s; %s -dd linkgroup link-show; echo %s; %s -R -W"
                % (smcr, VIEW_SEP, smcr, VIEW_SEP, smcss))
    parts = out.split(VIEW_SEP + "\n")
    if len(parts) != 3:
        raise AssertionError("%s: tool views not in three parts:\n%s" % (h.name, out))
    return dict(zip(("lgr", "links", "socks"), parts))


def table(text):
    """Rows of a one-word-header table (smcr linkgroup, link-show) as dicts."""
    lines = [ln.split() for ln in text.strip().splitlines()]
    if not lines:
        return []
    head = lines[0]
    return [dict(zip(head, row)) for row in lines[1:] if len(row) == len(head)]


def smcss_r_rows(text, port):
    """The SMC-R rows of `smcss -R -W` text with @port at either end:
    [{"local", "peer", "role", "ib_device", "ib_port", "link_id", "gid",
    "peer_gid"}] (the last six columns; the addresses are the 4th and 5th)."""
    rows = []
    for ln in text.strip().splitlines()[1:]:
        c = ln.split()
        if len(c) < 13 or "SMCR" not in c:
            continue
        if not (c[3].endswith(":%d" % port) or c[4].endswith(":%d" % port)):
            continue
        rows.append({"local": c[3], "peer": c[4], "role": c[-6], "ib_device": c[-5],
                     "ib_port": c[-4], "link_id": c[-3], "gid": c[-2], "peer_gid": c[-1]})
    return rows


def compare_views(h, nl, views, port=None):
    """Every way smcctl's text disagrees with the raw dump @nl
    (netlink_groups) on @h: `smcr linkgroup` type, #Conns and #Links per
    group; `smcr -dd linkgroup link-show` one row per link with its netdev
    (ethN for rxeN), state, connection count, device, port and GIDs; with
    @port, `smcss -R` rows of that port: each names a link of a group of its
    role, with that link's device, port and GIDs, and per link as many rows
    as the dump counts connections on it.  Returns a list of texts (empty:
    they agree)."""
    bad = []
    lgr = {r["LG-ID"]: r for r in table(views["lgr"])}
    lnk = {}
    for r in table(views["links"]):
        lnk.setdefault(r["LG-ID"], []).append(r)
    if set(lgr) != {g["id_hex"] for g in nl}:
        bad.append("%s: smcr linkgroup lists %s, the dump %s"
                   % (h.name, sorted(lgr), sorted(g["id_hex"] for g in nl)))
    for g in nl:
        r = lgr.get(g["id_hex"])
        want = (g["role"], g["type"], str(g["conns"]), str(len(g["links"])))
        got = r and (r.get("LG-Role"), r.get("LG-Type"), r.get("#Conns"), r.get("#Links"))
        if got != want:
            bad.append("%s: smcr linkgroup %s: role/type/#Conns/#Links %s, dump %s"
                       % (h.name, g["id_hex"], got, want))
        want_l = sorted(("eth" + ln["ib_device"][3:] if ln["ib_device"].startswith("rxe")
                         else "?", ln["state"], str(ln["conns"]), ln["ib_device"],
                         str(ln["ib_port"]), ln["gid"], ln["peer_gid"]) for ln in g["links"])
        got_l = sorted((r.get("Net-Dev"), r.get("Link-State"), r.get("#Conns"), r.get("IB-Dev"),
                        r.get("IB-P"), r.get("Local-GID"), r.get("Peer-GID"))
                       for r in lnk.get(g["id_hex"], []))
        if got_l != want_l:
            bad.append("%s: smcr -dd linkgroup link-show %s:\n  tool %s\n  dump %s"
                       % (h.name, g["id_hex"], got_l, want_l))
        if any(r.get("LG-Type") != g["type"] for r in lnk.get(g["id_hex"], [])):
            bad.append("%s: link-show rows of %s disagree on the type" % (h.name, g["id_hex"]))
    if port is None:
        return bad
    rows = smcss_r_rows(views["socks"], port)
    per_link = {}
    for s in rows:
        match = [(g, ln) for g in nl if g["role"] == s["role"] for ln in g["links"]
                 if (ln["ib_device"], str(ln["ib_port"]), str(ln["id"]), ln["gid"],
                     ln["peer_gid"]) == (s["ib_device"], s["ib_port"], s["link_id"], s["gid"],
                                         s["peer_gid"])]
        if len(match) != 1:
            bad.append("%s: smcss -R row %s names %d links of the dump" % (h.name, s, len(match)))
            continue
        key = (match[0][0]["id_hex"], match[0][1]["id"])
        per_link[key] = per_link.get(key, 0) + 1
    for g in nl:
        for ln in g["links"]:
            n = per_link.get((g["id_hex"], ln["id"]), 0)
            if n != ln["conns"]:
                bad.append("%s: %s link %s (%s): %d smcss -R rows of port %d, the dump counts "
                           "%d connections" % (h.name, g["id_hex"], ln["id"], ln["ib_device"],
                                               n, port, ln["conns"]))
    return bad
