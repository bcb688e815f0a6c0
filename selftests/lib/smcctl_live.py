# SPDX-License-Identifier: GPL-2.0
"""smcctl's monitoring commands checked against live connections.

Shared by smcctl_inkernel (stock smc.ko on both hosts) and smcctl_smcx (smcx
with smcr=1 on both hosts).  alpha is the client, beta the server:

  Live(...)        a context manager holding, from alpha to beta,
                   - one SMC-R connection (smcr_cases.Held: the hold client
                     has exchanged NBYTES each way and waits for its release
                     file; nothing is killed mid-stream, leaving the block
                     lets it exchange NBYTES again and close);
                   - one AF_SMC connection to a plain TCP server that accepts
                     and never reads: it falls back (PEER_NO_SMC) and stays
                     connected until that server goes;
                   - optionally AF_SMC listeners on beta that nobody connects.
                   Statistics of both hosts are read before the SMC-R
                   connection opens (stats0), inside the block (stats1, after
                   phase 1) and after the close (stats2).
  check_*(t, lv, prof)
                   the checks, against a Profile that says what differs
                   between the stacks (PNET ID, user EID).
"""
import contextlib
import json

import scenarios
import smcr_cases
import stacks

KIB = 1 << 10
NBYTES = 200000		# per direction and phase: three wraps of a 64 KiB RMB

# A plain TCP server that accepts one connection and never reads from it.
TCP_SINK = ("python3 -c 'import socket, time\n"
            "s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
            "s.bind((\"\", %d)); s.listen(1); c = s.accept(); time.sleep(3600)'")


class Profile:
    """What the monitoring output says that depends on the stack."""

    def __init__(self, name, pnetid, ueid):
        self.name = name
        self.pnetid = pnetid		# link group / device PNET ID, None: none
        self.ueid = ueid		# negotiated EID

    def lg_pnet_text(self):
        return self.pnetid or "-"

    def dev_pnet_text(self):
        return ("*" + self.pnetid) if self.pnetid else "-"


INKERNEL = Profile("smc.ko", scenarios.LAB_PNETID, scenarios.LAB_UEID)
SMCX = Profile("smcx", None, stacks.SMCX_DEFAULT_UEID)


def tool(name):
    return scenarios.tool(name)


def rows(text):
    """Data rows of a column table, each split on whitespace."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return [ln.split() for ln in lines[1:]]


def header(text):
    return text.splitlines()[0] if text.strip() else ""


def jout(h, cmd):
    return json.loads(h.out(cmd))


def socket_rows(h, args):
    return rows(h.out("%s %s" % (tool("smcss"), args)))


def find_row(rws, *needles):
    for r in rws:
        if all(n in r for n in needles):
            return r
    return None


def jstats(h):
    return jout(h, "%s -a -j stats" % tool("smcr"))


class Live:
    def __init__(self, t, smc_port, tcp_port, listeners=(), nbytes=NBYTES):
        self.t, self.a, self.b = t, t.alpha, t.beta
        self.smc_port, self.tcp_port = smc_port, tcp_port
        self.listeners = listeners	# ((family, port), ...) on beta
        self.nbytes = nbytes
        self.peer_smc = "%s:%d" % (self.b.ip, smc_port)
        self.peer_tcp = "%s:%d" % (self.b.ip, tcp_port)
        self.stats0 = self.stats1 = self.stats2 = None
        self._stack = None

    def _stats(self):
        return {h.name: jstats(h) for h in (self.a, self.b)}

    def __enter__(self):
        t, a, b = self.t, self.a, self.b
        st = contextlib.ExitStack()
        try:
            # listening and fallback jobs hold no SMC-R connection: killing is fine
            for fam, port in self.listeners:
                job = b.bg("%s server -f %s -p %d -c 1" % (scenarios.XFER, fam, port))
                st.callback(smcr_cases.finish, job, True)
            sink = b.bg(TCP_SINK % self.tcp_port)
            st.callback(smcr_cases.finish, sink, True)
            for p in (self.tcp_port,) + tuple(p for _, p in self.listeners):
                b.wait_port(p)
            self.stats0 = self._stats()
            st.enter_context(smcr_cases.Held(t, a, b, self.smc_port, 1, self.nbytes))
            # sends its header and 100 bytes, then waits for an answer that never
            # comes; ends (connection reset) when the sink above is killed
            fb = a.bg("%s client -f smc -a %s -p %d -c 1 -n 100 -t 900 -q"
                      % (smcr_cases.HOLD, b.ip, self.tcp_port))
            st.callback(smcr_cases.finish, fb, True)

            def both_up():
                r = socket_rows(a, "-a")
                return find_row(r, self.peer_smc) and find_row(r, self.peer_tcp)
            t.check(scenarios.wait_for(both_up, timeout=60),
                    "alpha: the SMC-R and the fallback connection appear in smcss -a")
            self.stats1 = self._stats()
        except BaseException:
            st.close()
            raise
        self._stack = st
        return self

    def __exit__(self, etype, e, tb):
        # callbacks run last in, first out: fallback client, Held (release,
        # phase 2, close, its checks), sink, listeners
        ret = self._stack.__exit__(etype, e, tb)
        if etype is None:
            self.stats2 = self._stats()
        return ret


# -- checks --------------------------------------------------------------

def check_smcss(t, lv, prof):
    a, b = lv.a, lv.b
    with t.subtest("smcss -a: SMC-R and fallback sockets"):
        out = a.out("%s -a" % tool("smcss"))
        t.log(out)
        hdr = header(out)
        for col in ("State", "UID", "Inode", "Local Address", "Peer Address", "Intf", "Mode"):
            t.check(col in hdr, "smcss header has %s" % col)
        r = find_row(rows(out), lv.peer_smc)
        t.check(r is not None and r[0] == "ACTIVE" and r[6] == "SMCR",
                "alpha: held socket ACTIVE in mode SMCR: %s" % r)
        r = find_row(rows(out), lv.peer_tcp)
        t.check(r is not None and r[0] == "ACTIVE" and r[6] == "TCP" and r[7].startswith("0x"),
                "alpha: fallback socket in mode TCP with its decline code: %s" % r)
        t.check("(PEER_NO_SMC)" in r, "fallback reason named PEER_NO_SMC: %s" % r)
        rb = find_row(socket_rows(b, ""), "%s:%d" % (b.ip, lv.smc_port))
        t.check(rb is not None and rb[0] == "ACTIVE" and rb[6] == "SMCR",
                "beta: accepted socket ACTIVE in mode SMCR: %s" % rb)

    with t.subtest("smcss -R: the link of the socket"):
        out = a.out("%s -R" % tool("smcss"))
        t.log(out)
        for col in ("Role", "IB-Device", "Port", "Linkid", "GID", "Peer-GID"):
            t.check(col in header(out), "smcss -R header has %s" % col)
        r = find_row(rows(out), lv.peer_smc)
        t.check(r is not None and r[7:10] == ["CLNT", "rxe0", "1"],
                "alpha: client link on rxe0 port 1: %s" % r)
        t.eq(r[-2:], [stacks.gid_of(a), stacks.gid_of(b)], "alpha: GID and peer GID")
        t.check(find_row(rows(out), lv.peer_tcp) is None, "-R leaves out the fallback socket")
        rb = find_row(socket_rows(b, "-R"), "%s:%d" % (b.ip, lv.smc_port))
        t.check(rb is not None and rb[7:9] == ["SERV", "rxe0"] and rb[-1] == stacks.gid_of(a),
                "beta: server link, peer GID alpha's: %s" % rb)

    with t.subtest("smcss --json agrees with the text"):
        for h, args in ((a, "-a"), (b, "-a"), (a, "-R")):
            text = rows(h.out("%s %s" % (tool("smcss"), args)))
            js = jout(h, "%s %s --json" % (tool("smcss"), args))["sockets"]
            t.eq(sorted(s["inode"] for s in js), sorted(int(r[2]) for r in text),
                 "%s smcss %s: same sockets in JSON and text" % (h.name, args))
            for s in js:
                r = find_row(text, str(s["inode"]))
                # a listener's text row has no mode
                t.check(r is not None and r[0] == s["state"] and
                        (s["state"] == "LISTEN" or r[6] == s["mode"]),
                        "%s smcss %s: inode %d %s %s in both" % (h.name, args, s["inode"],
                                                                s["state"], s["mode"]))
        js = jout(a, "%s -a --json" % tool("smcss"))["sockets"]
        smc = [s for s in js if (s.get("peer") or {}).get("port") == lv.smc_port]
        fb = [s for s in js if (s.get("peer") or {}).get("port") == lv.tcp_port]
        t.check(len(smc) == 1 and smc[0]["mode"] == "SMCR" and
                (smc[0]["link"] or {}).get("ib_device") == "rxe0" and
                smc[0]["link"]["role"] == "CLNT" and
                smc[0]["link"]["peer_gid"] == stacks.gid_of(b) and
                (smc[0]["conninfo"] or {}).get("sndbuf_size", 0) > 0,
                "JSON: SMC-R socket with link and connection info: %s"
                % [(s["mode"], s["link"]) for s in smc])
        t.check(len(fb) == 1 and fb[0]["mode"] == "TCP" and
                ((fb[0]["fallback"] or {}).get("reason") or {}).get("name") == "PEER_NO_SMC"
                and fb[0]["link"] is None,
                "JSON: fallback socket with reason PEER_NO_SMC, no link")


def check_linkgroup(t, lv, prof):
    a, b = lv.a, lv.b
    with t.subtest("smcr linkgroup"):
        for h, role, peer in ((a, "CLNT", b), (b, "SERV", a)):
            out = h.out("%s linkgroup" % tool("smcr"))
            t.log(out)
            rws = rows(out)
            r = find_row(rws, role)
            t.check(r is not None and r[2] == "SINGLE" and int(r[4]) >= 1 and
                    r[5] == prof.lg_pnet_text(),
                    "%s: %s link group, SINGLE, >= 1 connection, PNET ID %s: %s"
                    % (h.name, role, prof.lg_pnet_text(), r))
            out = h.out("%s -d linkgroup" % tool("smcr"))
            t.log(out)
            rd = find_row(rows(out), role)
            t.check(rd is not None and rd[0] == r[0] and rd[-4:] == ["2.1", "Linux", peer.name,
                                                                     prof.ueid],
                    "%s: -d shows SMC 2.1, Linux, peer host %s, EID %s: %s"
                    % (h.name, peer.name, prof.ueid, rd))
            js = jout(h, "%s linkgroup --json" % tool("smcr"))["linkgroups"]
            t.eq(sorted((g["id_hex"], g["role"], g["type"], g["conns"]) for g in js),
                 sorted((x[0], x[1], x[2], int(x[4])) for x in rws),
                 "%s: same link groups in JSON and text" % h.name)
            g = [g for g in js if g["id_hex"] == r[0]][0]
            t.check(g["pnetid"] == prof.pnetid and g["v2"]["peer_host"] == peer.name and
                    g["v2"]["negotiated_eid"] == prof.ueid and g["links"] and
                    g["links"][0]["ib_device"] == "rxe0" and
                    g["links"][0]["state"] == "LINK_ACTIVE",
                    "%s: JSON link group with PNET ID, v2 block and an active rxe0 link"
                    % h.name)
        out = a.out("%s -dd linkgroup link-show" % tool("smcr"))
        t.log(out)
        for col in ("Net-Dev", "Link-State", "Link-UID", "Peer-UID", "IB-Dev", "Local-GID",
                    "Peer-GID"):
            t.check(col in header(out), "link-show -dd header has %s" % col)
        r = find_row(rows(out), "CLNT")
        t.check(r is not None and r[3] == "eth0" and r[4] == "LINK_ACTIVE" and "rxe0" in r and
                r[-2:] == [stacks.gid_of(a), stacks.gid_of(b)],
                "alpha: link on eth0/rxe0, LINK_ACTIVE, GIDs of alpha and beta: %s" % r)
        js = jout(a, "%s linkgroup --json" % tool("smcr"))["linkgroups"]
        ln = [x for g in js if g["id_hex"] == r[0] for x in g["links"]]
        t.check(ln and ln[0]["uid"] == r[6] and ln[0]["peer_uid"] == r[7] and
                ln[0]["conns"] == int(r[5]),
                "alpha: link UIDs and connections agree with JSON: %s"
                % [(x["uid"], x["peer_uid"], x["conns"]) for x in ln])


def check_device(t, lv, prof):
    with t.subtest("smcr device"):
        for h in (lv.a, lv.b):
            out = h.out("%s device" % tool("smcr"))
            t.log(out)
            r = find_row(rows(out), "rxe0")
            t.check(r is not None and r[0] == "eth0" and r[2] == "1" and r[3] == "ACTIVE" and
                    r[-1] == prof.dev_pnet_text() and int(r[-2]) >= 1,
                    "%s: rxe0 port 1 on eth0, ACTIVE, PNET ID %s, links in use: %s"
                    % (h.name, prof.dev_pnet_text(), r))
            js = jout(h, "%s device --json" % tool("smcr"))["devices"]
            ports = [(p["netdev"], d["ib_device"], str(p["port"]), p["links"])
                     for d in js for p in d["ports"] if p["valid"]]
            t.eq(sorted(ports), sorted((x[0], x[1], x[2], int(x[-2])) for x in rows(out)),
                 "%s: same device ports and link counts in JSON and text" % h.name)


def _text_bytes(text):
    """(RX, TX) 'Data (bytes)' of the SMC-R section of smcr stats text."""
    sect, got = None, {}
    for ln in text.splitlines():
        s = ln.strip()
        if s in ("RX", "TX"):
            sect = s
        elif sect and s.startswith("Data (bytes)"):
            got[sect] = int(s.split()[2])
            sect = None
    return got.get("RX"), got.get("TX")


def check_stats_live(t, lv, prof):
    """Inside the block: counters grew by phase 1; text and JSON agree."""
    a, b = lv.a, lv.b
    with t.subtest("smcr stats while the connection is held"):
        s0, s1 = lv.stats0, lv.stats1
        for h, key in ((a, "tx"), (a, "rx"), (b, "rx"), (b, "tx")):
            v0, v1 = s0[h.name]["smcr"][key]["bytes"], s1[h.name]["smcr"][key]["bytes"]
            t.check(v1 - v0 >= lv.nbytes, "%s: SMC-R %s bytes grew by phase 1 (%d -> %d)"
                    % (h.name, key, v0, v1))
        t.check(s1["alpha"]["fallbacks"]["clnt"] > s0["alpha"]["fallbacks"]["clnt"],
                "alpha: the client fallback is counted (%d -> %d)"
                % (s0["alpha"]["fallbacks"]["clnt"], s1["alpha"]["fallbacks"]["clnt"]))
        t.check(s1["alpha"]["smcr"]["v2"]["clnt_success"] >
                s0["alpha"]["smcr"]["v2"]["clnt_success"], "alpha: SMC-Rv2 client success counted")
        # the connection is idle while held: text and JSON read the same numbers
        for h in (a, b):
            text = h.out("%s -a stats" % tool("smcr"))
            js = jstats(h)
            t.check("SMC-R" in text and "TCP fallbacks" in text, "%s: text statistics print"
                    % h.name)
            t.eq(_text_bytes(text), (js["smcr"]["rx"]["bytes"], js["smcr"]["tx"]["bytes"]),
                 "%s: SMC-R RX/TX data bytes, text == JSON" % h.name)


def check_stats_after(t, lv, prof):
    """After the block: phase 2 moved the counters again."""
    with t.subtest("smcr stats grow again with phase 2"):
        for h, key in ((lv.a, "tx"), (lv.a, "rx"), (lv.b, "rx"), (lv.b, "tx")):
            v1, v2 = lv.stats1[h.name]["smcr"][key]["bytes"], lv.stats2[h.name]["smcr"][key]["bytes"]
            t.check(v2 - v1 >= lv.nbytes, "%s: SMC-R %s bytes grew by phase 2 (%d -> %d)"
                    % (h.name, key, v1, v2))
