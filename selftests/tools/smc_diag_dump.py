#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""smc_diag_dump: one raw SOCK_DIAG_BY_FAMILY dump of the AF_SMC sockets,
read with a 1 MiB buffer so that each recv returns one part of a multipart
dump; for selftests/smcx_diag.py.

  smc_diag_dump.py

Prints one JSON object: {"reads": N, "done": D, "socks": [...]}: N the
recv calls the dump took, D whether it ended with NLMSG_DONE, and per
socket [sport, dport, inode, cookie, state] from its smc_diag_msg.  An
NLMSG_ERROR ends the program with "dump error E".
"""
import json
import socket
import struct

NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLM_F_REQUEST_DUMP = 0x301      # NLM_F_REQUEST | NLM_F_ROOT | NLM_F_MATCH
NLMSG_ERROR, NLMSG_DONE = 2, 3
AF_SMC = 43


def main():
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_SOCK_DIAG)
    req = struct.pack("=BBBB48s", AF_SMC, 0, 0, 0, b"")           # smc_diag_req
    s.send(struct.pack("=IHHII", 16 + len(req), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST_DUMP, 1, 0)
           + req)
    reads, done, socks = 0, False, []
    while not done:
        buf = s.recv(1 << 20)
        reads += 1
        off = 0
        while off + 16 <= len(buf):
            ln, typ = struct.unpack_from("=IH", buf, off)
            if typ == NLMSG_DONE:
                done = True
            elif typ == SOCK_DIAG_BY_FAMILY:
                state = struct.unpack_from("=B", buf, off + 17)[0]
                sport, dport = struct.unpack_from(">HH", buf, off + 20)
                cookie = struct.unpack_from("=Q", buf, off + 60)[0]
                inode = struct.unpack_from("=Q", buf, off + 16 + 56)[0]
                socks.append([sport, dport, inode, cookie, state])
            elif typ == NLMSG_ERROR:
                raise SystemExit("dump error %d" % struct.unpack_from("=i", buf, off + 16))
            off += (ln + 3) & ~3
    print(json.dumps({"reads": reads, "done": done, "socks": socks}))


if __name__ == "__main__":
    main()
