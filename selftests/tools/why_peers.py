#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The peers of selftests/smcx_why.py.

    why_peers.py echo-server PORT       plain TCP; echoes every byte back
    why_peers.py smc-server PORT        IPPROTO_SMC; echoes every byte back
    why_peers.py client ADDR PORT TAG [TIMEOUT [HOLD]]

The servers serve each connection in a thread until EOF and run until
killed.  The client is an IPPROTO_SMC socket (what tcp2smc or smc_run make
of a TCP socket): it connects to ADDR:PORT, sends "TAG\\n" times 64 and
reads the same bytes back, then prints one line:

    ok secs=S                   the echo came back whole
    error ERRNO secs=S          connect or the exchange failed (errno name)
    short N secs=S              EOF after N bytes

S counts from before connect() to the end.  With HOLD the connection stays
open HOLD seconds after the line (for smcss).  Python standard library only.
"""
import errno
import socket
import sys
import threading
import time

IPPROTO_SMC = 256


def echo(c):
    with c:
        while True:
            try:
                b = c.recv(65536)
            except OSError:
                return
            if not b:
                return
            c.sendall(b)


def serve(port, proto):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, proto)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("0.0.0.0", port))
    s.listen(16)
    print("listening", flush=True)
    while True:
        c, _ = s.accept()
        threading.Thread(target=echo, args=(c,), daemon=True).start()


def client(addr, port, tag, timeout, hold):
    want = (tag + "\n").encode() * 64
    t0 = time.monotonic()
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)
    s.settimeout(timeout)
    got = b""
    try:
        s.connect((addr, port))
        s.sendall(want)
        while len(got) < len(want):
            b = s.recv(65536)
            if not b:
                break
            got += b
    except OSError as e:
        code = errno.errorcode.get(e.errno, str(e.errno)) if e.errno else "ETIMEDOUT"
        print("error %s secs=%.3f" % (code, time.monotonic() - t0))
        s.close()
        return 1
    secs = time.monotonic() - t0
    print("ok secs=%.3f" % secs if got == want else "short %d secs=%.3f" % (len(got), secs),
          flush=True)
    time.sleep(hold)
    s.close()
    return 0 if got == want else 1


def main(argv):
    if argv[1] == "echo-server":
        serve(int(argv[2]), 0)
    elif argv[1] == "smc-server":
        serve(int(argv[2]), IPPROTO_SMC)
    elif argv[1] == "client":
        timeout = float(argv[5]) if len(argv) > 5 else 20.0
        hold = float(argv[6]) if len(argv) > 6 else 0.0
        return client(argv[2], int(argv[3]), argv[4], timeout, hold)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
