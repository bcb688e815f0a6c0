#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cpu_busy: how busy the host's CPUs were over the next 3 seconds.

  cpu_busy.py

Reads the "cpu" line of /proc/stat before and after a 3 s sleep and prints
the share of that time that was neither idle nor iowait, as "%.2f" (0.00 to
1.00, of all CPUs together).
"""
import time


def busy():
    f = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    return sum(f) - f[3] - f[4], sum(f)


def main():
    b0, t0 = busy()
    time.sleep(3)
    b1, t1 = busy()
    print("%.2f" % ((b1 - b0) / max(1, t1 - t0)))


if __name__ == "__main__":
    main()
