#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""churn: AF_SMC clients and a listener that close at awkward moments, for
selftests/smcx_listen_stress.py.  Both sides use fixed random seeds, so a
run repeats the same choices.

  churn.py client DST PORT N   N connects to DST:PORT (70 % non-blocking);
        after each: close at once (during the handshake), keep the socket
        (all kept ones are closed once more than 50 are open), or send 100
        bytes and close.  Output: "done".
  churn.py server PORT SECS    a non-blocking AF_SMC listener with backlog 8
        on PORT for SECS seconds; closes every connection it accepts, half
        of them after a MSG_DONTWAIT recv of up to 200 bytes, then closes
        the listener with connections possibly pending.  Output:
        "listening", then "accepted N".
"""
import ctypes
import random
import select
import socket
import struct
import sys
import time

AF_SMC, SOCK_STREAM, SOCK_NONBLOCK = 43, 1, 0o4000
MSG_DONTWAIT, MSG_NOSIGNAL = 0x40, 0x4000


def sin(addr, p):
    return (struct.pack("=H", socket.AF_INET) + struct.pack("!H", p) + socket.inet_aton(addr)
            + b"\0" * 8)


def client(libc, dst, port, n):
    d = sin(dst, port)
    random.seed(1)
    fds = []
    for _ in range(n):
        nb = random.random() < 0.7
        fd = libc.socket(AF_SMC, SOCK_STREAM | (SOCK_NONBLOCK if nb else 0), 0)
        libc.connect(fd, d, len(d))
        act = random.random()
        if act < 0.3:
            libc.close(fd)            # close right away (during handshake)
        elif act < 0.6:
            fds.append(fd)            # keep for later
        else:
            buf = ctypes.create_string_buffer(b"x" * 100)
            libc.send(fd, buf, 100, MSG_NOSIGNAL)
            libc.close(fd)
        if len(fds) > 50:
            for f in fds:
                libc.close(f)
            fds = []
    for f in fds:
        libc.close(f)
    print("done")


def server(libc, port, secs):
    a = struct.pack("=H", socket.AF_INET) + struct.pack("!H", port) + b"\0" * 12
    lfd = libc.socket(AF_SMC, SOCK_STREAM | SOCK_NONBLOCK, 0)
    one = ctypes.c_int(1)
    libc.setsockopt(lfd, socket.SOL_SOCKET, socket.SO_REUSEADDR, ctypes.byref(one), 4)
    assert libc.bind(lfd, a, 16) == 0
    assert libc.listen(lfd, 8) == 0
    print("listening", flush=True)
    end = time.time() + secs
    random.seed(2)
    got = 0
    while time.time() < end:
        r, _, _ = select.select([lfd], [], [], 0.1)
        if not r:
            continue
        fd = libc.accept(lfd, None, None)
        if fd < 0:
            continue
        got += 1
        if random.random() < 0.5:
            buf = ctypes.create_string_buffer(200)
            libc.recv(fd, buf, 200, MSG_DONTWAIT)
        libc.close(fd)
    print("accepted", got, flush=True)
    libc.close(lfd)   # close with connections possibly pending


def main():
    libc = ctypes.CDLL(None, use_errno=True)
    if len(sys.argv) == 5 and sys.argv[1] == "client":
        client(libc, sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif len(sys.argv) == 4 and sys.argv[1] == "server":
        server(libc, int(sys.argv[2]), float(sys.argv[3]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
