# SPDX-License-Identifier: GPL-2.0
"""CLC handshake between smcx and the stock in-kernel SMC (smc.ko), both ways.

smcx runs with smcr=0 here (its SMC-R data path off), so every handshake
must end in a decline and a TCP fallback that loses nothing; what is checked
is that the decline-path messages are exactly what mainline sends and
accepts, read off the wire (the success path, both roles, is smcr_interop):

  smcx client -> smc.ko server (no UEID): our v2 SMC-R proposal (156 bytes,
      typev1 N, typev2 R, our default UEID, the rxe RoCE v2 GID), smc.ko's
      v2 decline NOSMCDEV (44 bytes: no EID in common), TCP.
  smc.ko client (no device/UEID) -> smcx server: smc.ko declines first
      (it has nothing to propose), our server falls back with PEERDECL.
  smc.ko client with pnet + a UEID we share (it then proposes SMC-Rv2) ->
      smcx server: our v2 decline NOSMCRDEV (44 bytes), TCP.
  smcx client -> smc.ko server with pnet + our UEID: smc.ko sends an Accept
      (it has the device), we answer with a v2 decline NOSMCRDEV, TCP.
  The last two need the smcctl tools (make user) to configure smc.ko.
Each case moves data both ways, verified byte for byte.  The runner checks
both kernel logs for warnings and unloads smc.ko and smcx.
"""
import os

import scenarios

TIMEOUT = 600
COST = 53
PORT = 5500
EYE = "e2d4c3d9"
PROPOSAL_V2_R = EYE + "01" + "009c" + "22"	# type 1, len 156 (one EID), v2, typev2 R, typev1 N
DECLINE_V2 = EYE + "04" + "002c" + "20"	# type 4, len 44, v2, typev1 R
DECLINE_V1 = EYE + "04" + "001c" + "10"	# type 4, len 28, v1, typev1 R
NOSMCDEV = "03030000"
SMCX_UEID = "SMCX-DEFAULT-UEID"		# smcx's default user EID (kernel/ueid.h)
NOSMCRDEV = "03030002"
XFER_MAGIC = "58464552"
SUMMARY = []		# the last capture's segments, logged when a check fails


def streams(cap):
    """{(tcp stream, source ip): hex bytes in sequence order}"""
    segs = {}
    del SUMMARY[:]
    for st, _, _, src, seq, pl in cap.segments():
        SUMMARY.append("stream %s from %s seq %d: %d bytes" % (st, src, seq, len(pl)))
        if pl:
            segs.setdefault((st, src), {})[seq] = pl.hex()
    return {k: "".join(v[s] for s in sorted(v)) for k, v in segs.items()}


def stats(h):
    out = h.out("cat /sys/kernel/debug/smcx/stats")
    return {k: int(v) for k, v in (ln.split() for ln in out.splitlines())}


def delta(before, after, key):
    return after.get(key, 0) - before.get(key, 0)


def use_smcx(h):
    for m in ("smc_diag", "smc"):
        if h.loaded(m):
            h.rmmod(m)
    if not h.loaded("smcx"):
        h.insmod_smcx("smcr=0")


def use_smc(h):
    if h.loaded("smcx"):
        h.rmmod("smcx")
    h.modprobe("smc")


def transfer(t, server, client, port, cap_host):
    """one verified duplex connection; returns the captured streams"""
    cap = scenarios.Capture(cap_host, port, "/tmp/smcx_interop.pcap")
    srv, cli = scenarios.xfer(server, client, family="smc", port=port,
                              nbytes=128 << 10, mode="duplex")
    t.check(cap.stop(), "the capture holds both FINs")
    both = {("0", "tx"), ("0", "rx")}
    t.check(scenarios.verified(cli) == both and scenarios.verified(srv) == both,
            "data verified both ways on both ends")
    return streams(cap)


def side(streams, ip):
    got = [v for (st, src), v in streams.items() if src == ip]
    return got[0] if got else ""


def log_inkernel_stats(t, h):
    try:
        t.log("smc.ko statistics on %s: %s" % (h.name, scenarios.inkernel_stats(h).get("fallbacks")))
    except Exception as e:  # noqa: BLE001 - informative only
        t.log("smc.ko statistics unavailable: %s" % e)


def run(t):
    a, b = t.alpha, t.beta

    with t.subtest("smcx client -> smc.ko server"):
        use_smcx(a)
        use_smc(b)
        before = stats(a)
        st = transfer(t, b, a, PORT, a)
        after = stats(a)
        t.eq(delta(before, after, "clnt_hs_started"), 1, "client CLC handshakes")
        t.eq(delta(before, after, "clnt_fallback_PEERDECL"), 1, "fallbacks after peer decline")
        cl, sv = side(st, a.ip), side(st, b.ip)
        t.check(cl.startswith(PROPOSAL_V2_R), "our proposal header: %s" % cl[:16])
        t.check(cl[304:312] == EYE and cl[312:320] == XFER_MAGIC,
                "156-byte proposal with trailer, then application data: %s" % cl[296:320])
        t.check(cl[240:304].startswith(SMCX_UEID.encode().hex()), "the proposal lists our UEID")
        t.check(sv.startswith(DECLINE_V2), "smc.ko answers with a v2 decline: %s" % sv[:16])
        t.eq(sv[32:40], NOSMCDEV, "smc.ko's diagnosis (it shares no UEID with us)")
        t.eq(sv[80:88], EYE, "decline trailer")

    with t.subtest("smc.ko client -> smcx server"):
        use_smc(a)
        use_smcx(b)
        before = stats(b)
        st = transfer(t, b, a, PORT + 1, b)
        after = stats(b)
        t.eq(delta(before, after, "srv_fallback_PEERDECL"), 1, "server fallbacks, peer declined")
        t.eq(delta(before, after, "srv_hs_errors"), 0, "server handshake errors")
        cl, sv = side(st, a.ip), side(st, b.ip)
        t.check(cl.startswith(DECLINE_V1) or cl.startswith(DECLINE_V2),
                "smc.ko without a device declines first: %s" % cl[:16])
        t.check(EYE not in sv, "the server sent no CLC message")

    with t.subtest("smc.ko (pnet + UEID, proposes SMC-Rv2) -> smcx server"):
        if not os.path.exists(scenarios.tool("smcr")):
            t.skip("smcctl tools not built (make user)")
        use_smc(a)
        scenarios.setup_inkernel_smc(a)
        a.run("%s ueid add %s" % (scenarios.tool("smcr"), SMCX_UEID))	# one in common
        use_smcx(b)
        before = stats(b)
        st = transfer(t, b, a, PORT + 2, b)
        after = stats(b)
        t.eq(delta(before, after, "srv_hs_started"), 1, "server CLC handshakes")
        t.eq(delta(before, after, "srv_fallback_NOSMCRDEV"), 1,
             "server fallbacks, declined NOSMCRDEV")
        cl, sv = side(st, a.ip), side(st, b.ip)
        t.check(cl.startswith(EYE + "01"), "smc.ko proposes: %s" % cl[:16])
        t.check(sv.startswith(DECLINE_V2), "our v2 decline: %s" % sv[:16])
        t.eq(sv[32:40], NOSMCRDEV, "our diagnosis")
        t.eq(sv[80:88], EYE, "our decline trailer")
        log_inkernel_stats(t, a)

    with t.subtest("smcx client -> smc.ko (pnet + our UEID) server: Accept, then our decline"):
        if not os.path.exists(scenarios.tool("smcr")):
            t.skip("smcctl tools not built (make user)")
        use_smcx(a)
        use_smc(b)
        scenarios.setup_inkernel_smc(b)
        b.run("%s ueid add %s" % (scenarios.tool("smcr"), SMCX_UEID))
        before = stats(a)
        st = transfer(t, b, a, PORT + 3, a)
        after = stats(a)
        t.eq(delta(before, after, "clnt_hs_started"), 1, "client CLC handshakes")
        t.eq(delta(before, after, "clnt_fallback_NOSMCRDEV"), 1,
             "client fallbacks, we declined the Accept")
        cl, sv = side(st, a.ip), side(st, b.ip)
        t.check(cl.startswith(PROPOSAL_V2_R), "our proposal: %s" % cl[:16])
        t.check(sv.startswith(EYE + "02") and sv[14:16] == "28",
                "smc.ko accepts SMC-Rv2 with first contact: %s" % sv[:16])
        acc_len = int(sv[10:14], 16)
        dcl = cl[312:]
        t.check(dcl.startswith(DECLINE_V2), "our v2 decline follows the proposal: %s" % dcl[:16])
        t.eq(dcl[32:40], NOSMCRDEV, "our diagnosis")
        ok = sv[acc_len * 2:acc_len * 2 + 8] == XFER_MAGIC or len(sv) > acc_len * 2
        if not ok:
            t.log("the capture's segments: %s" % "; ".join(SUMMARY))
        t.check(ok, "smc.ko's data follows its %d-byte accept (%d bytes from it on the wire)"
                % (acc_len, len(sv) // 2))
        log_inkernel_stats(t, b)

    for h in (a, b):
        for m in ("smcx", "smc_diag", "smc"):
            if h.loaded(m):
                h.rmmod(m)
