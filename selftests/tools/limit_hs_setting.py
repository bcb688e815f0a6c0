#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""net.smc.limit_smc_hs, the netlink handshake-limitation flag and a new
socket's SOL_SMC/SMC_LIMIT_HS, read after each way of changing them.

    limit_hs_setting.py init     the steps below, in the current netns
    limit_hs_setting.py netns    only ENABLE_HS_LIMITATION, then one row

"init" changes the setting by netlink on (ENABLE_HS_LIMITATION), sysctl 0,
sysctl 1 and netlink off (DISABLE_HS_LIMITATION) and after the start and
each step reads it three ways: a row [STEP, SYSCTL, DUMP, SOCKET] (the
sysctl's text, the DUMP_HS_LIMITATION answer's first attribute, the
option of a new IPPROTO_SMC socket, each as a string).  Then the option
of existing sockets: a socket made with the sysctl at 1 and one made at
0, read; then set to 1 and 0 and read again; then the errnos of
setsockopt of an unknown SOL_SMC option, of SMC_LIMIT_HS with a 1-byte
value, and of getsockopt of an unknown option.  Prints one JSON line:

    init:   {"rows": [ROW...], "opt": [V0, V1, V0', V1', E1, E2, E3]}
    netns:  ROW

Leaves the sysctl at 0 ("init").  Python standard library only (and
genlreq.py beside it).
"""
import json
import socket
import sys

from genlreq import NLM_F_DUMP, Genl

SYSCTL = "/proc/sys/net/smc/limit_smc_hs"
SOL_SMC, SMC_LIMIT_HS = 286, 1
# SMC_GEN_NETLINK commands (include/uapi/linux/smc.h)
DUMP_HS, ENABLE_HS, DISABLE_HS = 16, 17, 18
UNKNOWN_OPT = 99


class Setting:
    def __init__(self):
        self.g = Genl()
        self.fid = self.g.family("SMC_GEN_NETLINK")

    def nl(self, cmd):
        return self.g.request(self.fid, cmd, flags=NLM_F_DUMP if cmd == DUMP_HS else 0)

    def now(self, step):
        with open(SYSCTL) as f:
            v = f.read().strip()
        _, msgs, _ = self.nl(DUMP_HS)
        return [step, v, str(dict(msgs[0]["attrs"])[1][0]),
                str(new().getsockopt(SOL_SMC, SMC_LIMIT_HS))]


def new():
    return socket.socket(socket.AF_INET, socket.SOCK_STREAM, 256)


def put(v):
    with open(SYSCTL, "w") as f:
        f.write(v)


def err(f):
    try:
        f()
        return 0
    except OSError as e:
        return e.errno


def main(where):
    st = Setting()
    if where == "netns":
        st.nl(ENABLE_HS)
        print(json.dumps(st.now("netns: netlink on")))
        return
    rows = [st.now("start")]
    for step, act in (("netlink on", lambda: st.nl(ENABLE_HS)), ("sysctl 0", lambda: put("0")),
                      ("sysctl 1", lambda: put("1")), ("netlink off", lambda: st.nl(DISABLE_HS))):
        act()
        rows.append(st.now(step))
    s0 = new()
    put("1")
    s1 = new()
    put("0")
    opt = [s0.getsockopt(SOL_SMC, SMC_LIMIT_HS), s1.getsockopt(SOL_SMC, SMC_LIMIT_HS)]
    s0.setsockopt(SOL_SMC, SMC_LIMIT_HS, 1)
    s1.setsockopt(SOL_SMC, SMC_LIMIT_HS, 0)
    opt += [s0.getsockopt(SOL_SMC, SMC_LIMIT_HS), s1.getsockopt(SOL_SMC, SMC_LIMIT_HS),
            err(lambda: s0.setsockopt(SOL_SMC, UNKNOWN_OPT, 1)),
            err(lambda: s0.setsockopt(SOL_SMC, SMC_LIMIT_HS, b"x")),
            err(lambda: s0.getsockopt(SOL_SMC, UNKNOWN_OPT))]
    print(json.dumps({"rows": rows, "opt": opt}))


if __name__ == "__main__":
    main(sys.argv[1])
