#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The peers of the failed-handshake cases of smcx_fallback: an AF_SMC echo
server, a TCP client and an AF_SMC client.

    fallback_peers.py echo-server PORT COUNT
    fallback_peers.py tcp-client ADDR PORT data|eof
    fallback_peers.py smc-client ADDR PORT block|shutdown

echo-server: an AF_SMC listener on PORT (SO_REUSEADDR; accept() gives up
after 30 s without a connection); prints "listening", then serves COUNT
connections one after the other: reads up to a newline or EOF and answers
"echo:" and what it read, or "eof\\n" when it read nothing.  One line per
connection: "served b'...'", "conn error ..." or "accept errno N" (and
stops).

tcp-client: a TCP connection to ADDR:PORT that sends "hello smcx\\n" (data)
or shuts its sending side down first (eof), then reads to EOF; prints
"reply b'...'" or "error ... after b'...'".

smc-client: an AF_SMC connect to ADDR:PORT.  block: one blocking connect;
prints "connect=RC errno=E secs=S".  shutdown: a non-blocking connect, two
seconds for the CLC handshake to start, then shutdown(SHUT_RDWR); prints
"connect=RC errno=E", "shutdown=RC errno=E secs=S", "so_error=E" and
"poll=[...]" (the events of a zero-timeout poll for POLLIN|POLLOUT).

AF_SMC sockets are made with libc through ctypes (Python's socket module
has no AF_SMC addresses).  Python standard library only.
"""
import ctypes
import select
import socket
import struct
import sys
import time

AF_SMC = 43
SOL_SOCKET, SO_REUSEADDR, SO_ERROR, SO_RCVTIMEO = 1, 2, 4, 20
libc = ctypes.CDLL(None, use_errno=True)


def sockaddr_in(port, ip="0.0.0.0"):
    return struct.pack("=H", socket.AF_INET) + struct.pack("!H", port) + \
        socket.inet_aton(ip) + b"\0" * 8


def so_error(fd):
    v = ctypes.c_int(0)
    n = ctypes.c_int(4)
    libc.getsockopt(fd, SOL_SOCKET, SO_ERROR, ctypes.byref(v), ctypes.byref(n))
    return v.value


def echo_server(port, count):
    a = sockaddr_in(port)
    ls = libc.socket(AF_SMC, socket.SOCK_STREAM, 0)
    one = ctypes.c_int(1)
    libc.setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, ctypes.byref(one), 4)
    tv = ctypes.create_string_buffer(struct.pack("ll", 30, 0))
    libc.setsockopt(ls, SOL_SOCKET, SO_RCVTIMEO, tv, 16)     # accept gives up
    assert libc.bind(ls, a, 16) == 0 and libc.listen(ls, 8) == 0
    print("listening", flush=True)
    for _ in range(count):
        fd = libc.accept(ls, None, None)
        if fd < 0:
            print("accept errno %d" % ctypes.get_errno(), flush=True)
            break
        s = socket.socket(fileno=fd)
        s.settimeout(20)
        data = b""
        try:
            while not data.endswith(b"\n"):
                c = s.recv(4096)
                if not c:
                    break
                data += c
            s.sendall(b"echo:" + data if data else b"eof\n")
            print("served %r" % data, flush=True)
        except OSError as e:
            print("conn error %s" % e, flush=True)
        s.close()


def tcp_client(ip, port, mode):
    s = socket.create_connection((ip, port), timeout=20)
    if mode == "eof":
        s.shutdown(socket.SHUT_WR)
    else:
        s.sendall(b"hello smcx\n")
    r = b""
    try:
        while True:
            c = s.recv(4096)
            if not c:
                break
            r += c
        print("reply %r" % r)
    except OSError as e:
        print("error %s after %r" % (e, r))


def smc_client(ip, port, mode):
    d = sockaddr_in(port, ip)
    if mode == "block":
        fd = libc.socket(AF_SMC, socket.SOCK_STREAM, 0)
        t0 = time.time()
        r = libc.connect(fd, d, 16)
        e = ctypes.get_errno() if r else 0
        print("connect=%d errno=%d secs=%.1f" % (r, e, time.time() - t0))
    else:       # shutdown while the CLC handshake runs
        fd = libc.socket(AF_SMC, socket.SOCK_STREAM | socket.SOCK_NONBLOCK, 0)
        r = libc.connect(fd, d, 16)
        print("connect=%d errno=%d" % (r, ctypes.get_errno()))
        time.sleep(2)           # TCP is up, the proposal is waiting for its answer
        t0 = time.time()
        r = libc.shutdown(fd, socket.SHUT_RDWR)
        e = ctypes.get_errno() if r else 0
        print("shutdown=%d errno=%d secs=%.1f" % (r, e, time.time() - t0))
        print("so_error=%d" % so_error(fd))
        p = select.poll()
        p.register(fd, select.POLLIN | select.POLLOUT)
        print("poll=%s" % ["0x%x" % ev for _, ev in p.poll(0)])
    libc.close(fd)


def main(argv):
    role = argv[0]
    if role == "echo-server":
        echo_server(int(argv[1]), int(argv[2]))
    elif role == "tcp-client":
        tcp_client(argv[1], int(argv[2]), argv[3])
    elif role == "smc-client":
        smc_client(argv[1], int(argv[2]), argv[3])
    else:
        sys.exit("unknown role " + role)


if __name__ == "__main__":
    main(sys.argv[1:])
