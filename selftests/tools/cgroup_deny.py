#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""IPPROTO_SMC sockets refused by a cgroup sock_create program (smcx_privileges).

    cgroup_deny.py NETNS COUNT

As root: makes a cgroup (cgroup v2; mounted on a directory of its own
when the guest has no cgroup2 mount), attaches to it a
BPF_PROG_TYPE_CGROUP_SOCK program of two instructions, "r0 = 0; exit",
at BPF_CGROUP_INET_SOCK_CREATE (every inet socket created in the cgroup
is refused with EPERM, after the protocol's init ran), moves itself into
the cgroup and the network namespace NETNS (/run/netns/NETNS), and tries
COUNT socket(AF_INET, SOCK_STREAM, IPPROTO_SMC), COUNT of AF_INET6 and
one plain TCP socket.  Then it leaves both, detaches the program, removes
the cgroup (and the mount it made) and prints one JSON line:

    {"smc": {ERRNO: N, ...}, "smc6": {...}, "tcp": ERRNO}

the errno of each attempt counted (0: the socket was made, and closed).
No bpftool: the bpf() system call through ctypes, standard library only.
"""
import ctypes
import errno
import json
import os
import socket
import struct
import sys
import tempfile

IPPROTO_SMC = 256
CLONE_NEWNET = 0x40000000
NR_BPF = 321				# x86_64
BPF_PROG_LOAD, BPF_PROG_ATTACH, BPF_PROG_DETACH = 5, 8, 9
BPF_PROG_TYPE_CGROUP_SOCK = 9
BPF_CGROUP_INET_SOCK_CREATE = 2
# r0 = 0 (BPF_ALU64 | BPF_MOV | BPF_K); exit (BPF_JMP | BPF_EXIT)
DENY = struct.pack("<BBhi", 0xb7, 0, 0, 0) + struct.pack("<BBhi", 0x95, 0, 0, 0)

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def bpf(cmd, attr):
    buf = ctypes.create_string_buffer(attr, len(attr))
    rc = libc.syscall(NR_BPF, cmd, buf, len(attr))
    if rc < 0:
        e = ctypes.get_errno()
        raise OSError(e, "bpf(%d): %s" % (cmd, os.strerror(e)))
    return rc


def load_deny():
    insns = ctypes.create_string_buffer(DENY, len(DENY))
    lic = ctypes.create_string_buffer(b"GPL")
    # union bpf_attr, BPF_PROG_LOAD: prog_type, insn_cnt, insns, license,
    # log_level, log_size, log_buf, kern_version, prog_flags, prog_name[16],
    # prog_ifindex, expected_attach_type
    attr = struct.pack("<IIQQIIQII16sII", BPF_PROG_TYPE_CGROUP_SOCK, len(DENY) // 8,
                       ctypes.addressof(insns), ctypes.addressof(lic), 0, 0, 0, 0, 0,
                       b"smcx_deny", 0, BPF_CGROUP_INET_SOCK_CREATE)
    return bpf(BPF_PROG_LOAD, attr)


def attach(cmd, cg_fd, prog_fd):
    # target_fd, attach_bpf_fd, attach_type, attach_flags, replace_bpf_fd,
    # relative_fd, expected_revision
    bpf(cmd, struct.pack("<IIIIIIQ", cg_fd, prog_fd, BPF_CGROUP_INET_SOCK_CREATE,
                         0, 0, 0, 0))


def cgroup2_root():
    """(path, mounted_here) of a cgroup v2 hierarchy"""
    with open("/proc/self/mounts") as f:
        for line in f:
            parts = line.split()
            if parts[2] == "cgroup2":
                return parts[1], False
    path = tempfile.mkdtemp(prefix="smcx-cg2-")
    if libc.mount(b"none", path.encode(), b"cgroup2", 0, None) != 0:
        e = ctypes.get_errno()
        os.rmdir(path)
        raise OSError(e, "mount cgroup2: " + os.strerror(e))
    return path, True


def move(cg, pid):
    with open(os.path.join(cg, "cgroup.procs"), "w") as f:
        f.write(str(pid))


def attempts(family, proto, count):
    seen = {}
    for _ in range(count):
        try:
            socket.socket(family, socket.SOCK_STREAM, proto).close()
            e = 0
        except OSError as ex:
            e = ex.errno
        seen[e] = seen.get(e, 0) + 1
    return seen


def main(netns, count):
    root, mounted = cgroup2_root()
    cg = os.path.join(root, "smcx-deny-%d" % os.getpid())
    home = os.open("/proc/self/ns/net", os.O_RDONLY)
    there = os.open("/run/netns/" + netns, os.O_RDONLY)
    os.mkdir(cg)
    cg_fd = os.open(cg, os.O_RDONLY | os.O_DIRECTORY)
    prog = load_deny()
    out = {}
    try:
        attach(BPF_PROG_ATTACH, cg_fd, prog)
        move(cg, os.getpid())
        try:
            if libc.setns(there, CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "setns " + netns)
            try:
                out["smc"] = attempts(socket.AF_INET, IPPROTO_SMC, count)
                out["smc6"] = attempts(socket.AF_INET6, IPPROTO_SMC, count)
                out["tcp"] = list(attempts(socket.AF_INET, socket.IPPROTO_TCP, 1))[0]
            finally:
                if libc.setns(home, CLONE_NEWNET) != 0:
                    raise OSError(ctypes.get_errno(), "setns back")
        finally:
            move(root, os.getpid())
        attach(BPF_PROG_DETACH, cg_fd, prog)
    finally:
        os.close(prog)
        os.close(cg_fd)
        os.close(there)
        os.close(home)
        os.rmdir(cg)
        if mounted:
            libc.umount2(root.encode(), 0)
            os.rmdir(root)
    print(json.dumps(out))


if __name__ == "__main__":
    try:
        main(sys.argv[1], int(sys.argv[2]))
    except OSError as ex:
        print(json.dumps({"error": "%s (%s)" % (ex, errno.errorcode.get(ex.errno, "?"))}))
        sys.exit(1)
