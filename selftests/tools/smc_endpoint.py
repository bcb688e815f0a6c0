#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One end of an smcx connection that reports how its receiving ended.

    smc_endpoint.py server PORT GO [TIMEOUT]
    smc_endpoint.py client PORT ADDR NBYTES [TIMEOUT]

The socket is socket(AF_INET, SOCK_STREAM, IPPROTO_SMC) (Python binds
AF_INET addresses only, not AF_SMC's).  The server listens on PORT, accepts
one connection, touches /tmp/td-PORT.up and, unless GO is "-", waits until
the file GO exists.  The client connects to ADDR:PORT, sends NBYTES bytes
and touches /tmp/td-PORT.up.  Then both receive until EOF, an error, or
TIMEOUT seconds (default 60) without data, and print one line:

    rx BYTES END SECONDS

END is "eof", "hung" (the timeout) or the errno name (e.g. ECONNRESET).
Python standard library only.
"""
import errno
import os
import socket
import sys
import time

IPPROTO_SMC = 256


def serve(port, go):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("0.0.0.0", port))
    s.listen(1)
    c, _ = s.accept()
    open("/tmp/td-%d.up" % port, "w").close()
    while go != "-" and not os.path.exists(go):
        time.sleep(0.1)
    return c


def connect(port, addr, nbytes):
    c = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)
    c.connect((addr, port))
    c.sendall(b"x" * nbytes)
    open("/tmp/td-%d.up" % port, "w").close()
    return c


def receive(c, timeout):
    c.settimeout(timeout)
    got, end, t0 = 0, "eof", time.time()
    try:
        while True:
            b = c.recv(65536)
            if not b:
                break
            got += len(b)
    except socket.timeout:
        end = "hung"
    except OSError as e:
        end = errno.errorcode.get(e.errno, str(e.errno))
    print("rx %d %s %.1f" % (got, end, time.time() - t0))
    c.close()


def main(argv):
    role, port = argv[0], int(argv[1])
    if role == "server":
        c = serve(port, argv[2])
        rest = argv[3:]
    else:
        c = connect(port, argv[2], int(argv[3]))
        rest = argv[4:]
    receive(c, float(rest[0]) if rest else 60)


if __name__ == "__main__":
    main(sys.argv[1:])
