# SPDX-License-Identifier: GPL-2.0
"""tcp2smc and IPPROTO_SMC on smcx: which sockets become smcx sockets.

- socket(AF_INET{,6}, SOCK_STREAM, IPPROTO_SMC) is an smcx socket (SO_PROTOCOL
  256, listed in debugfs socks as inet/inet6);
- net.smc.tcp2smc=1: user TCP sockets become IPPROTO_SMC, UDP does not,
  another netns does not, kernel sockets (smcx's own CLC sockets) do not;
- io_uring's IORING_OP_SOCKET sockets likewise (a kprobe on
  __sys_socket_file; socket()'s hook, listed in kprobes/list too, is a
  kretprobe on update_socket_protocol, or on 6.1, which lacks it, a kprobe
  on __sys_socket): with tcp2smc=1 on both hosts an io_uring client and
  an io_uring server are IPPROTO_SMC and connect over SMC-R; with
  tcp2smc=0 they are TCP;
- turning it off restores TCP for new sockets; a listener made while it was
  on keeps working (and keeps doing the CLC handshake);
- smc_run makes SMC sockets (AF_SMC or IPPROTO_SMC) and applies its
  buffer options (unmodified applications over SMC-R under tcp2smc and
  smc_run: smcx_apps);
- toward a host without SMC: PEERNOSMC, and no slower than TCP;
- unload with tcp2smc=1 leaves plain TCP and no smc.ko behind.
"""

import os
import re
import shlex

import scenarios
import smcxlab

TIMEOUT = 1200
COST = 55
NS = "smcx_t2s_ns"

TOOLS = os.path.join(smcxlab.REPO, "selftests", "tools")
# SO_PROTOCOL of new stream/v6/tcp/udp/nonblock sockets, one line
PROBE = os.path.join(TOOLS, "sockproto.py")


def probe(h, ns=None):
    pre = "ip netns exec %s " % ns if ns else ""
    return h.out(pre + "python3 " + PROBE).split()


URING = os.path.join(os.path.dirname(scenarios.XFER), "uring_socket")
# the same five sockets as PROBE, made by IORING_OP_SOCKET
URING_ARGS = ("-f inet", "-f inet6", "-P 6", "-t dgram", "-N")
TCP = ["6", "6", "6", "17", "6"]
SMC = ["256", "256", "256", "17", "256"]


def uring_probe(t, h, ns=None, skip=True):
    """SO_PROTOCOL of io_uring-made sockets (URING_ARGS), in @ns if given;
    without io_uring in the guest the subtest skips (None if not @skip)."""
    loop = "for a in %s; do %s probe $a || exit $?; done" % (
        " ".join(shlex.quote(x) for x in URING_ARGS), URING)
    if ns:
        loop = "ip netns exec %s bash -c %s" % (ns, shlex.quote(loop))
    r = h.run(loop, check=False)
    if r.rc == 4 and not skip:
        return None
    if r.rc == 4:
        t.skip("%s: io_uring unavailable: %s" % (h.name, r.out.strip()))
    t.check(r.rc == 0, "uring_socket probe: " + r.describe())
    return re.findall(r"^uring_socket: socket so_protocol=(\d+)", r.out, re.M)


def uring_case(t, a, b):
    """io_uring sockets: TCP with tcp2smc=0, smcx (and SMC-R) with it on."""
    t.eq(uring_probe(t, a), TCP, "tcp2smc=0: SO_PROTOCOL of io_uring stream/v6/tcp/udp/nonblock")
    port = 5410
    tcp2smc(a, 1)
    tcp2smc(b, 1)
    try:
        t.eq(uring_probe(t, a), SMC, "tcp2smc=1: SO_PROTOCOL of io_uring sockets")
        a.run("ip netns add %s" % NS)
        try:
            t.eq(uring_probe(t, a, NS), TCP, "other netns: io_uring sockets stay TCP")
        finally:
            a.run("ip netns del %s" % NS)
        sa, sb = scenarios.smcx_stats(a), scenarios.smcx_stats(b)
        rx = scenarios.rxe_snapshot((a, b))
        srv = b.bg("exec %s server -p %d" % (URING, port))
        b.wait_port(port, job=srv)
        cli = a.run("%s client -a %s -p %d -n %d" % (URING, b.ip, port, 1 << 20),
                    check=False, timeout=120)
        sr = srv.wait(timeout=60, check=False)
    finally:
        tcp2smc(a, 0)
        tcp2smc(b, 0)
    na, nb = scenarios.smcx_stats(a), scenarios.smcx_stats(b)
    drx = scenarios.rxe_delta((a, b), rx)
    t.check(cli.rc == 0 and "uring_socket: verified %d" % (1 << 20) in cli.out,
            "io_uring client: 1 MiB echoed and verified: " + cli.describe())
    t.check(sr.rc == 0 and "conn 0 verified %d" % (1 << 20) in sr.out,
            "io_uring server: 1 MiB verified and echoed: " + sr.describe())
    t.check("socket so_protocol=256 " in cli.out, "client socket is IPPROTO_SMC: " + cli.out)
    t.check("socket so_protocol=256 " in sr.out, "listener is IPPROTO_SMC: " + sr.out)
    hs_delta(t, sa, na, "clnt_success_v2", 1, "alpha SMC-R client")
    hs_delta(t, sb, nb, "srv_success_v2", 1, "beta SMC-R server")
    t.eq((na["clnt_fallback"] - sa["clnt_fallback"], nb["srv_fallback"] - sb["srv_fallback"]),
         (0, 0), "no fallback")
    # 1 MiB each way is 256 packets or more at the largest RoCE MTU
    for h in (a, b):
        for c in scenarios.RXE_COUNTERS:
            t.check(drx[(h.name, c)] >= 256, "%s rxe0 %s +%d: data went over RDMA"
                    % (h.name, c, drx[(h.name, c)]))
    t.eq(uring_probe(t, a), TCP, "tcp2smc=0 again: io_uring sockets are TCP")
    for h in (a, b):
        probes = h.read("/sys/kernel/debug/kprobes/list") or ""
        t.check("__sys_socket_file" in probes,
                "%s: the io_uring hook is registered (kprobes/list)" % h.name)
        # socket(): update_socket_protocol() where the kernel has it (6.6+),
        # else the entry of __sys_socket() (6.1)
        want = ("update_socket_protocol" if h.run("grep -qw update_socket_protocol"
                                                  " /proc/kallsyms", check=False).ok
                else "__sys_socket+")
        t.check(want in probes, "%s: the socket() hook is registered on %s (kprobes/list)"
                % (h.name, want.rstrip("+")))


def tcp2smc(h, on):
    h.run("sysctl -qw net.smc.tcp2smc=%d" % int(on))


def hs_delta(t, before, after, key, least, what):
    d = after.get(key, 0) - before.get(key, 0)
    t.check(d >= least, "%s: %s +%d (>= %d)" % (what, key, d, least))


# one connect with a given protocol: "connected" or the errno's name
VRF_CLIENT = os.path.join(TOOLS, "connect_probe.py")


def vrf_policy(t, a, b):
    """The CLC socket is a kernel socket, so a cgroup/sock_create program
    (here ip vrf exec's, which binds new sockets to the VRF) runs on the
    smcx sock only: its settings must reach the TCP socket that carries the
    traffic.  alpha's VRF has no route to beta, so TCP under it
    cannot connect; IPPROTO_SMC must not escape it either."""
    a.modprobe("vrf")
    a.run("ip link del smcxvrf 2>/dev/null; ip link add smcxvrf type vrf table 77"
          " && ip link set smcxvrf up")
    srv = b.bg("exec python3 -c 'import socket\n"
               "s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
               "s.bind((\"0.0.0.0\", 7390)); s.listen(8)\n"
               "while True: s.accept()[0].close()'")
    out = {}
    try:
        b.wait_port(7390, job=srv)
        for name, proto in (("tcp", 6), ("smc", 256)):
            out[name] = a.out("ip vrf exec smcxvrf python3 %s %s %d"
                              % (VRF_CLIENT, b.ip, proto))
        out["smc-novrf"] = a.out("python3 %s %s 256" % (VRF_CLIENT, b.ip))
    finally:
        srv.kill()
        a.run("ip link del smcxvrf", check=False)
    t.check(out["tcp"] != "connected", "TCP under the VRF cannot reach beta: %s" % out["tcp"])
    t.eq(out["smc"], out["tcp"], "IPPROTO_SMC under the VRF ends as TCP does")
    t.eq(out["smc-novrf"], "connected", "IPPROTO_SMC outside the VRF connects")


def run(t):
    a, b = t.alpha, t.beta
    a.run("ip netns del %s 2>/dev/null; true" % NS)
    for h in (a, b):
        h.insmod_smcx()

    with t.subtest("IPPROTO_SMC sockets are smcx sockets"):
        t.eq(probe(a), ["6", "6", "6", "17", "6"], "tcp2smc=0: SO_PROTOCOL of stream/v6/tcp/udp/nonblock")
        r = a.run("python3 -c 'import socket,time\n"
                  "s=socket.socket(socket.AF_INET,socket.SOCK_STREAM,256)\n"
                  "s6=socket.socket(socket.AF_INET6,socket.SOCK_STREAM,256)\n"
                  "print(s.getsockopt(socket.SOL_SOCKET,socket.SO_PROTOCOL),s.family,s6.family)\n"
                  "print(open(\"/sys/kernel/debug/smcx/socks\").read())'")
        t.check(r.out.split()[:3] in (["256", "2", "10"],
                                      ["256", "AddressFamily.AF_INET", "AddressFamily.AF_INET6"]),
                "SO_PROTOCOL 256, families AF_INET/AF_INET6: " + r.out)
        t.check(" inet state" in r.out and " inet6 state" in r.out,
                "debugfs socks lists the inet and inet6 smcx socks:\n" + r.out)
        sa, sb = scenarios.smcx_stats(a), scenarios.smcx_stats(b)
        srv, cli = scenarios.xfer(b, a, family="tcp", nbytes=1 << 20, mode="duplex")
        t.check(scenarios.verified(cli), "plain TCP xfer works as baseline")

    with t.subtest("tcp2smc converts user sockets of its netns only"):
        a.run("ip netns add %s" % NS)
        try:
            tcp2smc(a, 1)
            t.eq(probe(a), ["256", "256", "256", "17", "256"], "tcp2smc=1: SO_PROTOCOL")
            t.eq(probe(a, NS), ["6", "6", "6", "17", "6"], "other netns untouched")
            a.run("ip netns exec %s sysctl -qw net.smc.tcp2smc=1" % NS)
            tcp2smc(a, 0)
            t.eq(probe(a, NS), ["256", "256", "256", "17", "256"], "the netns's own switch")
            t.eq(probe(a), ["6", "6", "6", "17", "6"], "tcp2smc=0 again: TCP for new sockets")
        finally:
            a.run("ip netns del %s" % NS)

    with t.subtest("kernel sockets untouched; listener made while on keeps working"):
        tcp2smc(a, 1)
        tcp2smc(b, 1)
        sa, sb = scenarios.smcx_stats(a), scenarios.smcx_stats(b)
        port = 5400
        srv = b.bg("%s server -f tcp -p %d -c 1" % (scenarios.XFER, port))
        b.wait_port(port)
        tcp2smc(b, 0)		# the listener is an smcx socket already
        cli = a.run("%s client -f tcp -a %s -p %d -n %d -m duplex"
                    % (scenarios.XFER, b.ip, port, 1 << 20), timeout=120)
        srv.wait(timeout=60)
        t.check(scenarios.verified(cli), "xfer from a tcp2smc client to that listener verified")
        hs_delta(t, sa, scenarios.smcx_stats(a), "clnt_hs_started", 1, "alpha")
        hs_delta(t, sb, scenarios.smcx_stats(b), "srv_hs_started", 1, "beta")
        # one converted user socket: exactly one smcx sock and one CLC socket
        # (smcx's own kernel TCP socket was not converted, or there would be
        # two socks, or a recursion)
        r = a.run("python3 -c 'import socket\n"
                  "s=socket.socket()\n"
                  "print(open(\"/sys/kernel/debug/smcx/objects\").read())'")
        t.check("socks 1\n" in r.out and "clcsocks 1\n" in r.out,
                "one user socket = one smcx sock + one kernel CLC socket:\n" + r.out)
        tcp2smc(a, 0)

    with t.subtest("io_uring sockets (IORING_OP_SOCKET) are converted too"):
        uring_case(t, a, b)

    for mode in ("afsmc", "ipproto"):
        with t.subtest("smc_run -m %s makes SMC sockets" % mode):
            wa = scenarios.install_smc_run(a) + " -m %s" % mode
            r = a.run("%s -d -r 256K -t 128K python3 -c 'import socket; s=socket.socket(); "
                      "print(s.getsockopt(socket.SOL_SOCKET, socket.SO_PROTOCOL), "
                      "s.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF))'" % wa)
            want = "0" if mode == "afsmc" else "256"
            t.check(r.out.split()[0] == want and "-> SMC fd" in r.err,
                    "smc_run makes SMC sockets (SO_PROTOCOL %s): %s %s" % (want, r.out, r.err))
            t.check(int(r.out.split()[1]) >= 256 * 1024,
                    "-r 256K applied (SO_RCVBUF %s)" % r.out.split()[1])

    with t.subtest("socket policy reaches the TCP socket: ip vrf exec"):
        vrf_policy(t, a, b)

    with t.subtest("toward a host without SMC: PEERNOSMC, no delay"):
        b.rmmod("smcx")
        b.run("mkdir -p /tmp/app_www && head -c 1024 /dev/urandom > /tmp/app_www/small")
        srv = b.bg("cd /tmp/app_www && exec python3 -m http.server 8081 --bind %s" % b.ip)
        try:
            b.wait_port(8081)
            # the loop's time in milliseconds, by the shell's own arithmetic
            loop = ("s=$(date +%%s%%N); for i in $(seq 1 20); do curl -sf -o /dev/null "
                    "http://%s:8081/small || exit 1; done; e=$(date +%%s%%N); "
                    "echo $(((e - s) / 1000000))" % b.ip)
            tcp = float(a.out(loop)) / 1000
            tcp2smc(a, 1)
            sa = scenarios.smcx_stats(a)
            smc = float(a.out(loop)) / 1000
            tcp2smc(a, 0)
            after = scenarios.smcx_stats(a)
        finally:
            srv.kill()
        t.eq(after.get("clnt_fallback_PEERNOSMC", 0) - sa.get("clnt_fallback_PEERNOSMC", 0), 20,
             "20 connections, 20 PEERNOSMC fallbacks")
        t.eq(after.get("clnt_hs_started", 0) - sa.get("clnt_hs_started", 0), 0,
             "no CLC handshake started")
        t.log("20 curl fetches: TCP %.2fs, tcp2smc %.2fs" % (tcp, smc))
        t.check(smc < tcp * 2 + 1.0, "tcp2smc toward a non-SMC host as fast as TCP")

    with t.subtest("unload with tcp2smc=1"):
        tcp2smc(a, 1)
        a.rmmod("smcx")
        t.eq(probe(a), ["6", "6", "6", "17", "6"], "after unload: plain TCP")
        t.check(uring_probe(t, a, skip=False) in (TCP, None),
                "after unload: io_uring sockets are TCP")
        t.check(not a.loaded("smc"), "smc.ko was not pulled in")
        r = a.run("curl -sS -o /dev/null -w '%%{http_code}' http://127.0.0.1:1/ ; true", check=False)
        a.insmod_smcx()
        t.eq(a.out("sysctl -n net.smc.tcp2smc"), "0", "reloaded: tcp2smc back at 0")
