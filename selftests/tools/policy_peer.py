#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""policy_peer: the two ends of selftests/smcx_policy.py's connections.

  policy_peer.py serve PORT...          echo server on each PORT
  policy_peer.py connect ADDR PORT N    one connection: N bytes out, echo in

serve: one listener per port (bound to 0.0.0.0, so tcp2smc makes them
IPPROTO_SMC); each connection gets back what it sent until its EOF.
Prints "listen PORT PROTO" per port (SO_PROTOCOL) once all listen, then
runs until killed.
connect: sends N pseudo-random bytes, shuts its write side, reads until EOF
and prints "ok N" if the echo is the same bytes, else "bad GOT".  A
"hold" file named by $POLICY_HOLD makes it wait (at most 30 s) before the
close until that file is gone, so the connection can be looked at.
"""
import os
import socket
import sys
import threading
import time


def echo(c):
    with c:
        c.settimeout(60)
        while True:
            b = c.recv(65536)
            if not b:
                return
            c.sendall(b)


def accept_loop(s):
    while True:
        c, _ = s.accept()
        threading.Thread(target=echo, args=(c,), daemon=True).start()


def serve(ports):
    for p in ports:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("0.0.0.0", p))
        s.listen(16)
        print("listen %d %d" % (p, s.getsockopt(socket.SOL_SOCKET, socket.SO_PROTOCOL)),
              flush=True)
        threading.Thread(target=accept_loop, args=(s,), daemon=True).start()
    while True:
        time.sleep(3600)


def connect(addr, port, n):
    data = os.urandom(n)
    s = socket.create_connection((addr, port), timeout=60)
    got = bytearray()

    def reader():
        while True:
            b = s.recv(65536)
            if not b:
                return
            got.extend(b)

    r = threading.Thread(target=reader)
    r.start()
    s.sendall(data)
    hold = os.environ.get("POLICY_HOLD")
    if hold:
        open(hold, "w").close()
        deadline = time.time() + 30
        while os.path.exists(hold) and time.time() < deadline:
            time.sleep(0.1)
    s.shutdown(socket.SHUT_WR)
    r.join(60)
    s.close()
    print("ok %d" % n if bytes(got) == data else "bad %d" % len(got))


def main():
    if sys.argv[1] == "serve":
        serve([int(p) for p in sys.argv[2:]])
    else:
        connect(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))


if __name__ == "__main__":
    main()
