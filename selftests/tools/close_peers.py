#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Connections closed at a signal, and a server that reads each to its end
and says how it ended.

    close_peers.py client ADDR PORT N READY GO [oob]
    close_peers.py server PORT N

client: N IPPROTO_SMC connections to ADDR:PORT, 1000 bytes sent on each;
touches the file READY, waits until the file GO exists, then closes them
one by one (with "oob": first sends "abc", an urgent "X" by MSG_OOB and
"def" on each); prints "closed N".

server: an IPPROTO_SMC listener on PORT (SO_REUSEADDR); accepts N
connections, then reads each to its end, taking the urgent byte by
MSG_OOB once one is signalled (select()'s exceptional condition), with
90 s without data counting as an error.  Prints one line, a word per
connection in accept order: "eof:BYTES" (BYTES read in band) with
":URGENT" appended when an urgent byte was read (or ":ERRORNAME" when
that read failed), or "ERRORNAME:BYTES" when the reading failed.
Python standard library only.
"""
import os
import select
import socket
import sys
import time

IPPROTO_SMC = 256


def client(ip, port, n, ready, go, oob):
    conns = []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)
        s.connect((ip, port))
        s.sendall(b"c" * 1000)
        conns.append(s)
    open(ready, "w").close()
    while not os.path.exists(go):
        time.sleep(0.05)
    for s in conns:
        if oob:
            s.sendall(b"abc")
            s.send(b"X", socket.MSG_OOB)
            s.sendall(b"def")
        s.close()
    print("closed %d" % n)


def read_to_end(c):
    c.settimeout(90)
    got, urg, tried = 0, "", False
    try:
        while True:
            _, _, x = select.select([c], [], [c], 90)
            if x and not tried:
                tried = True		# once: POLLPRI ends when it is read
                try:
                    urg = ":" + c.recv(1, socket.MSG_OOB).decode()
                except OSError as e:
                    urg = ":" + type(e).__name__
                continue
            d = c.recv(65536)
            if not d:
                break
            got += len(d)
        return "eof:%d%s" % (got, urg)
    except OSError as e:
        return "%s:%d" % (type(e).__name__, got)
    finally:
        c.close()


def server(port, n):
    lsn = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)
    lsn.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsn.bind(("0.0.0.0", port))
    lsn.listen(16)
    conns = [lsn.accept()[0] for _ in range(n)]
    print(" ".join(read_to_end(c) for c in conns))


if __name__ == "__main__":
    if sys.argv[1] == "client":
        client(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6],
               sys.argv[7:] == ["oob"])
    else:
        server(int(sys.argv[2]), int(sys.argv[3]))
