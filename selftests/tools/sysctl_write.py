#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write net.smc sysctls one by one and report what each write did.

    sysctl_write.py < [[NAME, VALUE]...]

Reads a JSON list of [NAME, VALUE] from stdin; for each, in order, writes
VALUE and a newline to /proc/sys/net/smc/NAME and reads the file back.
Prints one JSON line, a list of [NAME, "VALUE", ERRNO, "READ BACK"] in the
same order (ERRNO 0 when the write was taken).  Run it in a network
namespace (ip netns exec) for that namespace's values.
Python standard library only.
"""
import json
import sys


def write(name, val):
    path = "/proc/sys/net/smc/" + name
    try:
        with open(path, "w") as f:
            f.write(str(val) + "\n")
        err = 0
    except OSError as e:
        err = e.errno
    with open(path) as f:
        now = f.read().strip()
    return [name, str(val), err, now]


if __name__ == "__main__":
    print(json.dumps([write(name, val) for name, val in json.load(sys.stdin)]))
