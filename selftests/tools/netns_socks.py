#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""smcx's debugfs socks as seen from two network namespaces.

    netns_socks.py NETNS

As root: makes one socket(AF_INET, SOCK_STREAM, IPPROTO_SMC) in the
caller's network namespace and one in the named namespace NETNS
(/run/netns/NETNS, entered with setns()), and with both open reads
/sys/kernel/debug/smcx/socks from inside NETNS, then from the caller's
namespace.  Prints one JSON line:

    {"init": INODE, "ns": INODE, "list_init": TEXT, "list_ns": TEXT}

the inodes of the two sockets and the two listings.  Python standard
library only (setns through ctypes).
"""
import ctypes
import json
import os
import socket
import sys

SOCKS = "/sys/kernel/debug/smcx/socks"
CLONE_NEWNET = 0x40000000
IPPROTO_SMC = 256


def read():
    with open(SOCKS) as f:
        return f.read()


def main(netns):
    libc = ctypes.CDLL(None, use_errno=True)
    home = os.open("/proc/self/ns/net", os.O_RDONLY)
    there = os.open("/run/netns/" + netns, os.O_RDONLY)
    s_init = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)
    assert libc.setns(there, CLONE_NEWNET) == 0, ctypes.get_errno()
    s_ns = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC)
    in_ns = read()
    assert libc.setns(home, CLONE_NEWNET) == 0, ctypes.get_errno()
    in_init = read()
    print(json.dumps({"init": os.fstat(s_init.fileno()).st_ino,
                      "ns": os.fstat(s_ns.fileno()).st_ino,
                      "list_init": in_init, "list_ns": in_ns}))


if __name__ == "__main__":
    main(sys.argv[1])
