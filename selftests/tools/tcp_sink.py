#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A plain TCP server that reads what its clients send and drops it.

    tcp_sink.py PORT COUNT

Listens on PORT (all addresses, SO_REUSEADDR, an ordinary TCP socket: the
peer without SMC in the tests), prints "listening" once it does, then
accepts COUNT connections one after the other and reads each until EOF
(30 s without data ends the wait with an error), closes it and exits.
Python standard library only.
"""
import socket
import sys


def main(port, count):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("", port))
    s.listen(4)
    print("listening", flush=True)
    for _ in range(count):
        c, _ = s.accept()
        c.settimeout(30)
        while c.recv(4096):
            pass
        c.close()


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
