#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""How one TCP-style connect ends, for a given socket protocol.

    connect_probe.py ADDR PROTO [PORT]

Makes socket(AF_INET, SOCK_STREAM, PROTO) (6 TCP, 256 IPPROTO_SMC),
connects to ADDR:PORT (default 7390) with a 3 s timeout, and prints one
line: "connected", or the errno name of the failure (e.g. ENETUNREACH; the
exception's text when it has no errno).  Exit 0 either way.
Python standard library only.
"""
import errno
import socket
import sys


def main(addr, proto, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, proto)
    s.settimeout(3)
    try:
        s.connect((addr, port))
        print("connected")
    except OSError as e:
        print(errno.errorcode.get(e.errno, str(e)))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 7390)
