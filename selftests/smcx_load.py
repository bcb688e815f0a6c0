# SPDX-License-Identifier: GPL-2.0
"""smcx.ko loads, reports its version, unloads, and leaves no trace.

The runner's own checks add: no kernel warning on the console, smcx object
counters at zero, module unloadable.
"""
import os
import re

TIMEOUT = 120
COST = 6


def version_h(repo):
    with open(os.path.join(repo, "include", "smcx", "version.h")) as f:
        return re.search(r'#define SMCX_VERSION "([^"]+)"', f.read()).group(1)


def run(t):
    a = t.alpha
    want = version_h(t.repo)
    t.check(os.path.exists(t.smcx_path()), "smcx.ko is built")
    info = a.out("modinfo -F version %s" % t.smcx_path())
    t.eq(info, want, "modinfo version")

    before = a.out("ls /sys/module | sort")
    a.run("dmesg -C")
    a.insmod_smcx()
    t.check(a.loaded("smcx"), "smcx listed in /proc/modules")
    t.eq(a.out("cat /sys/module/smcx/version"), want, "/sys/module/smcx/version")
    log = a.out("dmesg")
    t.check(("smcx: smcx %s loaded" % want) in log,
            "load message with version in kernel log:\n" + log)
    taint = a.out("cat /sys/module/smcx/taint")
    t.log("module taint flags: %r (O = out of tree, E = unsigned)" % taint)

    a.rmmod("smcx")
    t.check(not a.loaded("smcx"), "smcx gone from /proc/modules")
    t.check(a.run("test -e /sys/module/smcx", check=False).rc != 0, "/sys/module/smcx removed")
    t.check(a.run("test -e /sys/kernel/debug/smcx", check=False).rc != 0,
            "debugfs directory removed")
    t.eq(a.out("ls /sys/module | sort"), before, "set of loaded modules after unload")
    log = a.out("dmesg")
    t.check(("smcx: smcx %s unloaded" % want) in log, "unload message in kernel log")

    # Load/unload again: init and exit must be repeatable.
    for _ in range(3):
        a.insmod_smcx()
        a.rmmod("smcx")
    t.check(not a.loaded("smcx"), "three more load/unload cycles")
