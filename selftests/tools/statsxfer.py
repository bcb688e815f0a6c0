#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""statsxfer: one SMC connection whose socket calls are known exactly, for
the statistics tests (selftests/smcx_stats.py).

  statsxfer.py server PORT RBUF [splice]  accept one connection (IPPROTO_SMC),
        with "splice" first splice 16 bytes into a pipe (counted), then recv_into a
        RBUF-byte buffer until EOF; prints {"received": N, "calls": C} (C:
        calls that got data)
  statsxfer.py client ADDR PORT NBYTES    connect, set TCP_NODELAY on, TCP_CORK
        on and off, try one send with MSG_OOB, send NBYTES in one send call,
        shut down, wait for EOF; prints {"sent": N, "send_calls": 1, ...}

AF_INET with IPPROTO_SMC (256) makes an smcx socket that Python can address.
"""
import errno
import json
import os
import socket
import sys

IPPROTO_SMC = 256


SPLICE_LEN = 16


def server(port, rbuf, splice):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("0.0.0.0", port))
    ls.listen(1)
    c, _ = ls.accept()
    spliced = 0
    if splice:
        # one blocking splice of SPLICE_LEN bytes, read back and counted
        r, w = os.pipe()
        try:
            spliced = os.splice(c.fileno(), w, SPLICE_LEN)
            got = os.read(r, spliced) if spliced else b""
            splice = "data" if len(got) == spliced else "short pipe read"
        except OSError as e:
            splice = errno.errorcode.get(e.errno, str(e.errno))
        os.close(r)
        os.close(w)
    buf = bytearray(rbuf)
    total, calls = spliced, 0
    while True:
        n = c.recv_into(buf, rbuf)
        if n == 0:
            break
        total += n
        calls += 1
    c.close()
    ls.close()
    print(json.dumps({"received": total, "calls": calls, "splice": splice,
                      "spliced": spliced}))


def client(addr, port, nbytes):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)
    s.connect((addr, port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 0)
    try:
        s.send(b"!", socket.MSG_OOB)
        oob = "sent"
    except OSError as e:
        oob = errno.errorcode.get(e.errno, str(e.errno))
    data = bytes(i & 0xff for i in range(nbytes))
    n = s.send(data)
    s.shutdown(socket.SHUT_WR)
    while s.recv(4096):
        pass
    s.close()
    print(json.dumps({"sent": n, "oob": oob}))


def main():
    if len(sys.argv) in (4, 5) and sys.argv[1] == "server":
        server(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:] == ["splice"])
    elif len(sys.argv) == 5 and sys.argv[1] == "client":
        client(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
