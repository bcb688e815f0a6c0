#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""silent_clients: AF_SMC clients that start a connect and then wait, for
selftests/smcx_listen_stress.py (whose tc filter drops their CLC Proposals,
so the server holds their handshakes pending).

  silent_clients.py DST PORT BASE N HOLD

Makes N non-blocking AF_SMC sockets bound to source ports BASE .. BASE+N-1,
starts a connect to DST:PORT on each (it must return EINPROGRESS), prints
"silent N", waits HOLD seconds, then reads each socket's SO_ERROR and
closes it.  Output, last line: "so_error E:COUNT ..." (errno values and how
many sockets had each, 0 for none).  A socket that cannot be set up prints
"setup failed ERRNO" or "connect did not go in progress ERRNO", exit 1.
"""
import ctypes
import socket
import struct
import sys
import time

AF_SMC, SOCK_STREAM, SOCK_NONBLOCK = 43, 1, 0o4000
EINPROGRESS = 115


def sin(addr, p):
    return (struct.pack("=H", socket.AF_INET) + struct.pack("!H", p) + socket.inet_aton(addr)
            + b"\0" * 8)


def main():
    libc = ctypes.CDLL(None, use_errno=True)
    dst, port, base, n, hold = (sys.argv[1], int(sys.argv[2]), int(sys.argv[3]),
                                int(sys.argv[4]), float(sys.argv[5]))
    fds = []
    for i in range(n):
        fd = libc.socket(AF_SMC, SOCK_STREAM | SOCK_NONBLOCK, 0)
        one = ctypes.c_int(1)
        libc.setsockopt(fd, socket.SOL_SOCKET, socket.SO_REUSEADDR, ctypes.byref(one), 4)
        a = sin("0.0.0.0", base + i)
        if fd < 0 or libc.bind(fd, a, len(a)):
            print("setup failed", ctypes.get_errno())
            sys.exit(1)
        d = sin(dst, port)
        if libc.connect(fd, d, len(d)) == 0 or ctypes.get_errno() != EINPROGRESS:
            print("connect did not go in progress", ctypes.get_errno())
            sys.exit(1)
        fds.append(fd)
    print("silent %d" % len(fds), flush=True)
    time.sleep(hold)
    errs = {}
    for fd in fds:
        v = ctypes.c_int(0)
        ln = ctypes.c_int(4)
        libc.getsockopt(fd, socket.SOL_SOCKET, socket.SO_ERROR, ctypes.byref(v), ctypes.byref(ln))
        errs[v.value] = errs.get(v.value, 0) + 1
        libc.close(fd)
    print("so_error", " ".join("%d:%d" % kv for kv in sorted(errs.items())), flush=True)


if __name__ == "__main__":
    main()
