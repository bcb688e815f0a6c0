#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""echo_server: a plain TCP listener (backlog 4) that an smcx test turns into
an smcx one with net.smc.tcp2smc=1; for selftests/smcx_hs_hostile.py.

  echo_server.py PORT STOP

Each connection is served in a thread: read until EOF (20 s per recv),
answer "echo:" and the bytes read, close.  Once the file STOP exists the
listener is closed from a thread, waiting at most 10 s for close() to
return.  Output:
  proto P                   the listener's SO_PROTOCOL (256: IPPROTO_SMC,
                            i.e. tcp2smc converted it)
  close done|stuck secs=S   whether close() returned, and after how long
"""
import os
import socket
import sys
import threading
import time


def serve(c):
    c.settimeout(20)
    data = b""
    try:
        while True:
            x = c.recv(4096)
            if not x:
                break
            data += x
        c.sendall(b"echo:" + data)
    except OSError:
        pass
    c.close()


def main():
    port, stop = int(sys.argv[1]), sys.argv[2]
    lsn = socket.socket()
    lsn.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsn.bind(("0.0.0.0", port))
    lsn.listen(4)
    print("proto %d" % lsn.getsockopt(socket.SOL_SOCKET, socket.SO_PROTOCOL), flush=True)
    lsn.settimeout(0.2)
    while not os.path.exists(stop):
        try:
            c, _ = lsn.accept()
        except socket.timeout:
            continue
        threading.Thread(target=serve, args=(c,), daemon=True).start()
    t0 = time.time()
    th = threading.Thread(target=lsn.close)
    th.start()
    th.join(10)
    print("close %s secs=%.1f" % ("stuck" if th.is_alive() else "done", time.time() - t0),
          flush=True)
    os._exit(0)


if __name__ == "__main__":
    main()
