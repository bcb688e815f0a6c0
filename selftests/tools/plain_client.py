#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""plain_client: a plain TCP client (no SMC option) of an echo server; for
selftests/smcx_hostile.py (the listener still serves one after the attack).

  plain_client.py ADDR PORT

Connects (20 s timeout), sends "plain tcp\\n", shuts down its write side and
reads until EOF.  Output: "reply B" (B the bytes read, as a Python literal).
"""
import socket
import sys


def main():
    s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=20)
    s.sendall(b"plain tcp\n")
    s.shutdown(socket.SHUT_WR)
    got = b""
    while True:
        b = s.recv(100)
        if not b:
            break
        got += b
    print("reply %r" % got)


if __name__ == "__main__":
    main()
