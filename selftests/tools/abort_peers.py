#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Peers of connections that the other side drops without closing them:
for selftests/smcx_abort.py (review N2).  Every wait is bounded; every
mode prints one JSON object.

    abort_peers.py hold PORT GO
    abort_peers.py reader PORT WANT
    abort_peers.py clients ADDR PORT N READY GO PORT2 NB
    abort_peers.py banner PORT SECS STOP
    abort_peers.py echo PORT SECS STOP
    abort_peers.py abortconn ADDR PORT PORT2 ROUNDS
    abort_peers.py quiet ADDR PORT READY GO
    abort_peers.py quietsrv PORT READY GO

hold: an IPPROTO_SMC listener on PORT that never accepts; waits for the
file GO, closes the listener, prints {"closed": seconds close() took}.

reader: accepts one connection on PORT and reads it to its end (20 s
without data is an error); prints {"bytes", "bad" (bytes other than "B"),
"first_bad" (offset or -1), "end" (EOF or the error), "want"}.

clients: N IPPROTO_SMC connections to ADDR:PORT, 1000 bytes "A" written on
each; touches READY and blocks in recv() on each (a thread per connection,
until 25 s after GO).  Once the file GO exists: each old connection writes "A" in
512-byte pieces every 20 ms for 6 s or until a write fails, while a new
connection to ADDR:PORT2 writes NB bytes "B" in 1000-byte pieces every
10 ms and closes.  Prints {"conns": [{"end": EOF, an error name or
"timeout", "secs": seconds from GO}], "late_a": bytes of "A" accepted
after GO, "new_sent": NB}.

banner: a server speaking first: for SECS seconds, or until the file STOP
exists, it accepts connections on PORT; on each it writes "Z" * 100 every 20 ms (for 6 s or until a write
fails) and reads until EOF or an error (at most 20 s).  Prints {"conns":
[{"end", "secs" since accept, "written"}]}.

echo: for SECS seconds (or until the file STOP exists), accepts
connections on PORT one at a time and
sends back what each sends until its EOF (5 s without data ends one);
prints {"echo": "done"}.

abortconn: ROUNDS times: once this host's smcx has no link group left (at
most 15 s), a non-blocking IPPROTO_SMC connect to ADDR:PORT, closed after
a delay that grows by 80 ms each round (from 0), whether or not it
completed ("done" says which); then a new connection to ADDR:PORT2 (the
echo above) writes "C" in 1000-byte pieces (30000 at most) and reads what
comes back for 2 s: anything but "C" counts in "z".  Prints {"rounds":
[...], "z_seen": bytes of "Z" received}.
quiet, quietsrv: one IPPROTO_SMC connection (quiet: to ADDR:PORT;
quietsrv: the first accepted on PORT) that sends nothing; touches READY,
blocks in recv() (until 25 s after the file GO exists) and prints
{"end": EOF, an error name or "timeout", "secs": seconds from GO}.
Python standard library only.
"""
import errno
import json
import os
import select
import socket
import sys
import threading
import time

IPPROTO_SMC = 256
OBJECTS = "/sys/kernel/debug/smcx/objects"
ECHO_BYTES = 30000


def smc_socket():
    return socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)


def err_name(e):
    if isinstance(e, socket.timeout):
        return "timeout"
    return errno.errorcode.get(e.errno, str(e.errno))


def wait_file(path, limit):
    deadline = time.time() + limit
    while not os.path.exists(path):
        if time.time() > deadline:
            sys.exit("no %s after %d s" % (path, limit))
        time.sleep(0.02)


def listener(port, backlog=16):
    s = smc_socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("0.0.0.0", port))
    s.listen(backlog)
    return s


def hold(port, go):
    s = listener(port)
    wait_file(go, 120)
    t0 = time.time()
    s.close()
    print(json.dumps({"closed": round(time.time() - t0, 3)}))


def reader(port, want):
    s = listener(port, 1)
    s.settimeout(60)
    c, _ = s.accept()
    c.settimeout(20)
    got, bad, first, end = 0, 0, -1, "EOF"
    try:
        while True:
            d = c.recv(65536)
            if not d:
                break
            n = len(d) - d.count(b"B")
            if n and first < 0:
                first = got + next(i for i, x in enumerate(d) if x != ord("B"))
            bad += n
            got += len(d)
    except OSError as e:
        end = err_name(e)
    print(json.dumps({"bytes": got, "bad": bad, "first_bad": first, "end": end,
                      "want": want}))


def recv_end(c, go, res, i):
    """recv() until EOF or an error, or 25 s after GO: "timeout"."""
    c.settimeout(1)
    while True:
        try:
            if not c.recv(65536):
                end = "EOF"
                break
        except socket.timeout:
            if go[0] and time.time() > go[0] + 25:
                end = "timeout"
                break
        except OSError as e:
            end = err_name(e)
            break
    t0 = go[0] or time.time()
    res[i] = {"end": end, "secs": round(time.time() - t0, 2)}


def write_late(c, res, i):
    t_end = time.time() + 6
    while time.time() < t_end:
        try:
            res[i] += c.send(b"A" * 512)
        except OSError:
            return
        time.sleep(0.02)


def clients(ip, port, n, ready, go, port2, nb):
    conns = []
    for _ in range(n):
        s = smc_socket()
        s.connect((ip, port))
        s.sendall(b"A" * 1000)
        conns.append(s)
    gotime = [None]
    res = [None] * n
    late = [0] * n
    readers = [threading.Thread(target=recv_end, args=(c, gotime, res, i))
               for i, c in enumerate(conns)]
    for t in readers:
        t.start()
    open(ready, "w").close()
    wait_file(go, 120)
    gotime[0] = time.time()
    writers = [threading.Thread(target=write_late, args=(c, late, i))
               for i, c in enumerate(conns)]
    for t in writers:
        t.start()
    new = smc_socket()
    new.settimeout(30)
    new.connect((ip, port2))
    sent = 0
    while sent < nb:
        k = min(1000, nb - sent)
        new.sendall(b"B" * k)
        sent += k
        time.sleep(0.01)
    new.close()
    for t in writers + readers:
        t.join()
    for c in conns:
        c.close()
    print(json.dumps({"conns": res, "late_a": sum(late), "new_sent": sent}))


def serve_banner(c, out):
    t0 = time.time()
    c.settimeout(20)
    done = threading.Event()
    written = [0]

    def speak():
        while not done.is_set() and time.time() < t0 + 6:
            try:
                written[0] += c.send(b"Z" * 100)
            except OSError:
                return
            time.sleep(0.02)

    w = threading.Thread(target=speak)
    w.start()
    try:
        while True:
            if not c.recv(65536):
                end = "EOF"
                break
    except OSError as e:
        end = err_name(e)
    done.set()
    w.join()
    out.append({"end": end, "secs": round(time.time() - t0, 2), "written": written[0]})
    c.close()


def accepted(port, secs, stop):
    """The connections a listener on @port accepts, until @secs passed or
    the file @stop exists; the listener closes after the last."""
    s = listener(port)
    s.settimeout(0.5)
    t_end = time.time() + secs
    while time.time() < t_end and not os.path.exists(stop):
        try:
            c, _ = s.accept()
        except socket.timeout:
            continue
        yield c
    s.close()


def banner(port, secs, stop):
    out, threads = [], []
    for c in accepted(port, secs, stop):
        t = threading.Thread(target=serve_banner, args=(c, out))
        t.start()
        threads.append(t)
    for t in threads:
        t.join()
    print(json.dumps({"conns": out}))


def check_next(ip, port2):
    """A new connection to the echo: what comes back must be "C"s only."""
    s = smc_socket()
    s.settimeout(10)
    s.connect((ip, port2))
    got, sent = b"", 0
    deadline = time.time() + 2
    while time.time() < deadline:
        if sent < ECHO_BYTES:
            s.sendall(b"C" * 1000)
            sent += 1000
        r, _, _ = select.select([s], [], [], 0.01)
        if r:
            d = s.recv(65536)
            if not d:
                break
            got += d
    s.close()
    return len(got) - got.count(b"C"), len(got)


def lgrs():
    """This host's smcx link groups (debugfs objects)."""
    try:
        with open(OBJECTS) as f:
            for ln in f:
                p = ln.split()
                if len(p) == 2 and p[0] == "lgrs":
                    return int(p[1])
    except OSError:
        pass
    return 0


def abortconn(ip, port, port2, rounds):
    out, z = [], 0
    for k in range(rounds):
        delay = 0.08 * k
        # a first contact each round, when the last round's group went
        deadline = time.time() + 15
        while lgrs() and time.time() < deadline:
            time.sleep(0.1)
        s = smc_socket()
        s.setblocking(False)
        rc = s.connect_ex((ip, port))
        time.sleep(delay)
        _, w, _ = select.select([], [s], [], 0)
        done = bool(w) and s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
        s.close()
        nz, n = check_next(ip, port2)
        z += nz
        out.append({"delay": delay, "rc": rc, "done": done, "echo": n, "z": nz})
    print(json.dumps({"rounds": out, "z_seen": z}))


def echo(port, secs, stop):
    for c in accepted(port, secs, stop):
        c.settimeout(5)
        try:
            while True:
                d = c.recv(65536)
                if not d:
                    break
                c.sendall(d)
        except OSError:
            pass
        c.close()
    print(json.dumps({"echo": "done"}))


def quiet_wait(c, ready, go):
    """recv() on @c, which sent nothing, until its end (recv_end())."""
    with open(ready, "w"):
        pass
    res, t = [None], [0.0]

    def watch():
        wait_file(go, 120)
        t[0] = time.time()
    w = threading.Thread(target=watch, daemon=True)
    w.start()
    recv_end(c, t, res, 0)
    print(json.dumps(res[0]))


def quiet(ip, port, ready, go):
    c = smc_socket()
    c.settimeout(10)
    c.connect((ip, port))
    quiet_wait(c, ready, go)


def quietsrv(port, ready, go):
    s = listener(port, 1)
    s.settimeout(60)
    c, _ = s.accept()
    quiet_wait(c, ready, go)


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[0] == "hold":
        hold(int(a[1]), a[2])
    elif a[0] == "reader":
        reader(int(a[1]), int(a[2]))
    elif a[0] == "clients":
        clients(a[1], int(a[2]), int(a[3]), a[4], a[5], int(a[6]), int(a[7]))
    elif a[0] == "banner":
        banner(int(a[1]), float(a[2]), a[3])
    elif a[0] == "echo":
        echo(int(a[1]), float(a[2]), a[3])
    elif a[0] == "abortconn":
        abortconn(a[1], int(a[2]), int(a[3]), int(a[4]))
    elif a[0] == "quiet":
        quiet(a[1], int(a[2]), a[3], a[4])
    elif a[0] == "quietsrv":
        quietsrv(int(a[1]), a[2], a[3])
    else:
        sys.exit(__doc__)
