#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""net.smc.limit_smc_hs under congested handshakes: listeners made with the
limitation on and off, each probed by one connection while handshakes to
it hang.

    limit_hs_congest.py server PORT BACKLOG
    limit_hs_congest.py client ADDR PORT BASE N SMCSS

Ports: PORT and PORT + 1 the two listeners, PORT + 2 a plain TCP control
connection.

server (smcx loaded): two IPPROTO_SMC listeners with a backlog of BACKLOG,
on PORT made with net.smc.limit_smc_hs 1, on PORT + 1 with it 0 (left at
0); prints "limit_hs A B", the two listeners' SOL_SMC/SMC_LIMIT_HS.  Then
it accepts the control connection, waits (at most 15 s) until smcx's
debugfs objects count 2 * BACKLOG pending handshakes and sends
"go PENDING\\n" on it; until the client closes it (at most 60 s) it
accepts on both listeners and echoes one byte on each connection.

client: 2 * N non-blocking IPPROTO_SMC connects, N to each listener, from
source ports BASE, BASE + 1, ... (the test drops their CLC proposals with
tc, so their handshakes hang); then the control connection and its "go"
line; then one more connection to each listener, one byte each way, and
what `SMCSS -a --json` says of the two.  The silent connections are
reset.  Prints one JSON line:

    {"go": ["go", "PENDING"], "probes": [{"echo": "p", "lport": PORT,
     "mode": MODE, "reason": FALLBACK REASON NAME or null}, ...]}

The hanging handshakes end after the CLC wait time (6 s), so the two sides
decide when to go, not the lab's round trips.  Python standard library only.
"""
import json
import select
import socket
import struct
import subprocess
import sys
import time

IPPROTO_SMC = 256
SOL_SMC, SMC_LIMIT_HS = 286, 1
OBJECTS = "/sys/kernel/debug/smcx/objects"


def pending():
    with open(OBJECTS) as f:
        return dict(line.split() for line in f)["pending_handshakes"]


def server(port, backlog):
    ls = []
    for i, v in enumerate(("1", "0")):
        with open("/proc/sys/net/smc/limit_smc_hs", "w") as f:
            f.write(v)
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("0.0.0.0", port + i))
        s.listen(backlog)
        ls.append(s)
    print("limit_hs", *[s.getsockopt(SOL_SMC, SMC_LIMIT_HS) for s in ls], flush=True)
    ctl = socket.create_server(("0.0.0.0", port + 2), reuse_port=True)
    ctl.settimeout(60)
    c, _ = ctl.accept()
    c.settimeout(0.1)
    end = time.time() + 15
    while time.time() < end and int(pending()) < 2 * backlog:
        time.sleep(0.05)
    c.sendall(("go %s\n" % pending()).encode())
    end = time.time() + 60
    while time.time() < end:
        try:
            if c.recv(1) == b"":
                break
        except socket.timeout:
            pass
        for s in select.select(ls, [], [], 0.1)[0]:
            n, _ = s.accept()
            n.settimeout(10)
            try:
                n.sendall(n.recv(1))
            except OSError:
                pass
            n.close()


def client(dst, port, base, n, smcss):
    silent = []
    for i in range(2 * n):
        c = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)
        c.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        c.bind(("0.0.0.0", base + i))
        c.setblocking(False)
        c.connect_ex((dst, port + i // n))
        silent.append(c)
    ctl = socket.create_connection((dst, port + 2), timeout=30)
    go = ctl.makefile().readline().split()
    cs, out = [], []
    for i in range(2):
        c = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)
        c.settimeout(30)
        c.connect((dst, port + i))
        c.sendall(b"p")
        out.append({"echo": c.recv(1).decode(), "lport": c.getsockname()[1]})
        cs.append(c)
    socks = json.loads(subprocess.run([smcss, "-a", "--json"], capture_output=True,
                                      check=True).stdout)["sockets"]
    for o in out:
        for s in socks:
            if (s.get("local") or {}).get("port") == o["lport"]:
                o["mode"] = s["mode"]
                o["reason"] = ((s.get("fallback") or {}).get("reason") or {}).get("name")
    for c in silent:
        c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        c.close()
    print(json.dumps({"go": go, "probes": out}))


if __name__ == "__main__":
    if sys.argv[1] == "server":
        server(int(sys.argv[2]), int(sys.argv[3]))
    else:
        client(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
