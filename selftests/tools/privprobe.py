#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What the calling identity may do to SMC: netlink requests, net.smc
sysctls and files, each answered with an errno.

    privprobe.py SPECFILE

SPECFILE is JSON: {"genl": [[FAMILY, CMD, [ATTR...], DUMP]...],
"files": [[PATH, MODE]...]}.  Each genl entry is one generic netlink
request (ATTR as genlreq.py takes them; DUMP true for a dump), sent in
order.  Then every file of /proc/sys/net/smc is read and written back with
its own value.  Then each PATH is opened with MODE "r" (and read) or "w"
(and "release\\n" written).  Prints one JSON line:

    {"genl": [[ERRNO, EXTACK, MESSAGES]...], "sysctl": {NAME: ERRNO},
     "files": [ERRNO...]}

ERRNO 0 is success; a family that does not resolve gives [-1, "no family
NAME", 0].  Python standard library only (and genlreq.py beside it).
"""
import json
import os
import sys

from genlreq import NLM_F_DUMP, Genl, encode

SYSCTL_DIR = "/proc/sys/net/smc"


def genl(requests):
    g = Genl()
    fids, out = {}, []
    for fam, cmd, attrs, dump in requests:
        if fam not in fids:
            fids[fam] = g.family(fam)
        if fids[fam] is None:
            out.append([-1, "no family " + fam, 0])
            continue
        err, msgs, ext = g.request(fids[fam], cmd, b"".join(encode(a) for a in attrs),
                                   NLM_F_DUMP if dump else 0)
        out.append([err, ext, len(msgs)])
    return out


def sysctls():
    out = {}
    for name in sorted(os.listdir(SYSCTL_DIR)):
        try:
            with open(os.path.join(SYSCTL_DIR, name)) as f:
                v = f.read()
            with open(os.path.join(SYSCTL_DIR, name), "w") as f:
                f.write(v)
            out[name] = 0
        except OSError as e:
            out[name] = e.errno
    return out


def files(paths):
    out = []
    for path, mode in paths:
        try:
            with open(path, mode) as f:
                if mode == "r":
                    f.read()
                else:
                    f.write("release\n")
            out.append(0)
        except OSError as e:
            out.append(e.errno)
    return out


def main(specfile):
    with open(specfile) as f:
        spec = json.load(f)
    out = {"genl": genl(spec["genl"])}
    out["sysctl"] = sysctls()
    out["files"] = files(spec["files"])
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
