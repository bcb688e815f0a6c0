#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The guest side of smcx_package: a list of actions run in one process
(each lab request and each Python start costs seconds under emulation).

    pkg_driver.py ROOT ENV < ACTIONS

ROOT is the installed root (an overlay with the packages), ENV the
environment of a command run there, as one string of NAME=VALUE words
(e.g. "env -i PATH=... HOME=/root").  ACTIONS is a JSON list on stdin; each
action is a list, its first element the action's name:

    ["trigger", STEP...]  unload smcx, smc_diag and smc; then each STEP, a
                          way in that the kernel may answer by loading a
                          module: afsmc (socket(AF_SMC)), ipproto
                          (socket(AF_INET, SOCK_STREAM, IPPROTO_SMC)),
                          genl:FAMILY (resolve a generic netlink family),
                          diag (an AF_SMC sock_diag dump);
                          -> {"before": [MODULE...], "after": [MODULE...],
                              "errors": [null or "TEXT (errno N)", ...]}
    ["sh", CMD, CHROOT]   bash -c CMD, in ROOT if CHROOT is true
                          -> {"rc": RC, "out": STDOUT, "err": STDERR}
    ["write", PATH, TEXT] -> {}
    ["rm", PATH]          -> {}
    ["read", PATH]        -> {"text": TEXT}
    ["perturb", {KEY: V}] set each sysctl KEY (dotted name) to some value
                          other than V that the kernel takes
                          -> {KEY: {"was": OLD, "set": NEW or null}}

Prints one JSON line: the results in order; an action that raised gives
{"error": "TYPE: TEXT"}.  Python standard library only (and genlreq.py
beside it).
"""
import json
import os
import socket
import struct
import subprocess
import sys

from genlreq import CTRL_ATTR_FAMILY_NAME, CTRL_CMD_GETFAMILY, GENL_ID_CTRL, Genl, nla

MODS = ("smcx", "smc_diag", "smc")
AF_SMC, IPPROTO_SMC = 43, 256
NETLINK_SOCK_DIAG = 4
NLMSG_ERROR, SOCK_DIAG_BY_FAMILY = 2, 20
NLM_F_REQUEST, NLM_F_DUMP = 1, 0x300
# the kernel may run modprobe for a request (9p, emulated): wait for it
NETLINK_TIMEOUT = 30


def loaded():
    with open("/proc/modules") as f:
        names = {line.split()[0] for line in f}
    return [m for m in MODS if m in names]


def diag_dump():
    """An AF_SMC sock_diag dump; raises OSError if the kernel answers with
    an error."""
    # struct smc_diag_req: family, 2 pad, diag_ext, inet_diag_sockid
    payload = struct.pack("=BBBB", AF_SMC, 0, 0, 0) + bytes(48)
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_SOCK_DIAG)
    s.settimeout(NETLINK_TIMEOUT)
    with s:
        s.send(struct.pack("=IHHII", 16 + len(payload), SOCK_DIAG_BY_FAMILY,
                           NLM_F_REQUEST | NLM_F_DUMP, 1, 0) + payload)
        reply = s.recv(65536)
    rtype = struct.unpack_from("=H", reply, 4)[0]
    if rtype == NLMSG_ERROR:
        err = struct.unpack_from("=i", reply, 16)[0]
        if err:
            raise OSError(-err, os.strerror(-err))


def genl_family(name):
    """Resolve a generic netlink family; raises OSError if it does not."""
    g = Genl()
    g.sk.settimeout(NETLINK_TIMEOUT)
    with g.sk:
        err, msgs, _ = g.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                                 nla(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"))
    if err:
        raise OSError(err, os.strerror(err))
    if not msgs:
        raise OSError(0, "no family in the answer")


def step(what):
    if what == "afsmc":
        socket.socket(AF_SMC, socket.SOCK_STREAM, 0).close()
    elif what == "ipproto":
        socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SMC).close()
    elif what.startswith("genl:"):
        genl_family(what[5:])
    elif what == "diag":
        diag_dump()
    else:
        raise ValueError("unknown step " + what)


def trigger(*steps):
    for m in MODS:
        if m in loaded():
            subprocess.run(["rmmod", m], capture_output=True)
    res = {"before": loaded(), "errors": []}
    for what in steps:
        try:
            step(what)
            res["errors"].append(None)
        except OSError as e:
            res["errors"].append("%s (errno %d)" % (e.strerror, e.errno))
    res["after"] = loaded()
    return res


def sh(cmd, chroot):
    argv = ["chroot", ROOT] + ENV + ["bash", "-c", cmd] if chroot else ["bash", "-c", cmd]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    return {"rc": r.returncode, "out": r.stdout, "err": r.stderr}


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return {}


def rm(path):
    os.unlink(path)
    return {}


def read(path):
    with open(path) as f:
        return {"text": f.read()}


def perturb(settings):
    out = {}
    for key, want in settings.items():
        path = "/proc/sys/" + key.replace(".", "/")
        cur = read(path)["text"].split()
        try:
            n = int(want)
            cands = [c for c in (n + 1, n - 1, n * 2, 0, 1) if str(c) != want]
        except ValueError:
            cands = []
        out[key] = {"was": " ".join(cur), "set": None}
        for c in cands:
            r = subprocess.run(["sysctl", "-q", "-w", "%s=%d" % (key, c)], capture_output=True)
            if r.returncode == 0 and read(path)["text"].split() == [str(c)]:
                out[key]["set"] = str(c)
                break
    return out


ACTIONS = {"trigger": trigger, "sh": sh, "write": write, "rm": rm, "read": read,
           "perturb": perturb}


def main(actions):
    results = []
    for action in actions:
        try:
            results.append(ACTIONS[action[0]](*action[1:]))
        except Exception as e:  # noqa: BLE001 - reported to the host
            results.append({"error": "%s: %s" % (type(e).__name__, e)})
    print(json.dumps(results))


if __name__ == "__main__":
    ROOT, ENV = sys.argv[1], sys.argv[2].split()
    main(json.load(sys.stdin))
