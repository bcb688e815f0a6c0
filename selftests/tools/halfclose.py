#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""halfclose: one side of an SMC connection that is closed step by step, so
a test can look at the close states in between; for selftests/smcx_diag.py.

  halfclose.py server ADDR PORT TAG   accept one connection on PORT (ADDR
                                      is ignored), then close the listener
  halfclose.py client ADDR PORT TAG   connect to ADDR:PORT

The socket is AF_INET with IPPROTO_SMC (256), which Python can address.
Both sides send one byte and read one, shutdown(SHUT_WR) once the file
TAG.shut exists and close once TAG.close exists; each wait gives up after
300 s.  Output: "halfclose ROLE: ok B" (B the byte read, as a Python
literal); exit status 0 when all steps were done.
"""
import os
import socket
import sys
import time

IPPROTO_SMC = 256


def wait(role, tag, name):
    end = time.time() + 300
    while not os.path.exists(tag + "." + name):
        if time.time() > end:
            raise SystemExit("halfclose %s: no %s.%s" % (role, tag, name))
        time.sleep(0.1)


def main():
    role, addr, port, tag = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    if role == "server":
        ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind(("0.0.0.0", port))
        ls.listen(1)
        c, _ = ls.accept()
        ls.close()
    else:
        c = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)
        c.settimeout(60)
        c.connect((addr, port))
    c.settimeout(300)
    c.sendall(b"x")
    got = c.recv(1)
    wait(role, tag, "shut")
    c.shutdown(socket.SHUT_WR)
    wait(role, tag, "close")
    c.close()
    print("halfclose %s: ok %r" % (role, got))


if __name__ == "__main__":
    main()
