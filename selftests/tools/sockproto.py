#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Which protocol the kernel gives a new socket: one line of SO_PROTOCOL.

    sockproto.py

Makes five sockets and prints the SO_PROTOCOL of each, space-separated, in
this order: socket(AF_INET, SOCK_STREAM), socket(AF_INET6, SOCK_STREAM),
socket(AF_INET, SOCK_STREAM, IPPROTO_TCP), socket(AF_INET, SOCK_DGRAM),
socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK).  "6 6 6 17 6" is plain TCP;
with net.smc.tcp2smc on, the stream sockets read 256 (IPPROTO_SMC).
Python standard library only.
"""
import socket


def proto(fam, typ, p=0):
    s = socket.socket(fam, typ, p)
    try:
        return s.getsockopt(socket.SOL_SOCKET, socket.SO_PROTOCOL)
    finally:
        s.close()


if __name__ == "__main__":
    print(proto(socket.AF_INET, socket.SOCK_STREAM), proto(socket.AF_INET6, socket.SOCK_STREAM),
          proto(socket.AF_INET, socket.SOCK_STREAM, 6), proto(socket.AF_INET, socket.SOCK_DGRAM),
          proto(socket.AF_INET, socket.SOCK_STREAM | socket.SOCK_NONBLOCK))
