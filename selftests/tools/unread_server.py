#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""unread_server: an SMC server that holds 16 KiB unread in its receive
buffer until told to read it; for selftests/smcx_faults.py (the RDMA device
goes away under unread data).

  unread_server.py PORT READY GO

Accepts one connection on PORT (AF_INET with IPPROTO_SMC), waits until at
least 16 KiB have arrived (MSG_PEEK), creates the file READY, waits for the
file GO, then reads until EOF or an error (30 s per recv).  Output, one
line: "unread: recv EOF after N bytes" or "unread: recv ERRNAME after N
bytes" (ERRNAME e.g. ECONNRESET).
"""
import errno
import os
import socket
import sys
import time

IPPROTO_SMC = 256


def main():
    port, ready, go = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("0.0.0.0", port))
    s.listen(1)
    c, _ = s.accept()
    c.settimeout(60)
    while len(c.recv(65536, socket.MSG_PEEK)) < 16384:
        time.sleep(0.1)
    open(ready, "w").close()
    while not os.path.exists(go):
        time.sleep(0.1)
    c.settimeout(30)
    got = 0
    try:
        while True:
            b = c.recv(65536)
            if not b:
                print("unread: recv EOF after %d bytes" % got)
                break
            got += len(b)
    except OSError as e:
        print("unread: recv %s after %d bytes" % (errno.errorcode.get(e.errno, e.errno), got))
    c.close()


if __name__ == "__main__":
    main()
