# SPDX-License-Identifier: GPL-2.0
"""net.smc.* sysctls of smcx: names, mainline defaults and ranges, per netns.

- every sysctl exists with the mainline default (tcp2smc: ours, default 0);
- in-range writes take, out-of-range and malformed writes fail with EINVAL
  and leave the value as it was;
- a new network namespace starts from the defaults, a change in one
  namespace is invisible in the other, and the namespace's table goes away
  with it (create/destroy churn leaves nothing behind);
- the whole directory disappears with the module.
"""
import json

TIMEOUT = 180
NS = "smcx_sysctl_ns"

# name: (default, good values, bad values); testlink is read/written in seconds
SYSCTLS = {
    "tcp2smc": (0, [1, 0], [2, -1, 100]),
    "wmem": (65536, [16384, 262144, 65536], [16383, 0, -1, 1 << 30]),
    "rmem": (65536, [16384, 524288, 65536], [16383, 0, -5]),
    "autocorking_size": (65536, [0, 4096, 65536], [-1]),
    "smcr_testlink_time": (30, [0, 5, 30], [-1]),
    "smcr_max_links_per_lgr": (2, [1, 2], [0, 3, -1]),
    "smcr_max_conns_per_lgr": (255, [16, 100, 255], [15, 256, 0]),
    "limit_smc_hs": (0, [1, 0], [2, -1]),
}

# Runs in the guest: write each value, report (errno or 0, value read back).
WRITER = r'''
import json, sys
req = json.load(sys.stdin)
res = []
for name, val in req:
    path = "/proc/sys/net/smc/" + name
    try:
        with open(path, "w") as f:
            f.write(str(val) + "\n")
        err = 0
    except OSError as e:
        err = e.errno
    with open(path) as f:
        now = f.read().strip()
    res.append([name, str(val), err, now])
print(json.dumps(res))
'''


def read_all(h, ns=None):
    pre = "ip netns exec %s " % ns if ns else ""
    out = h.out(pre + "sh -c 'cd /proc/sys/net/smc && grep -H . *'")
    return {ln.split(":", 1)[0]: ln.split(":", 1)[1] for ln in out.splitlines()}


def write_values(h, pairs, ns=None):
    """[(name, value)] -> [(name, value, errno, readback)]"""
    pre = "ip netns exec %s " % ns if ns else ""
    script = "/tmp/smcx_sysctl_writer.py"
    h.run("cat > %s" % script, input=WRITER)
    r = h.run(pre + "python3 %s" % script, input=json.dumps(pairs))
    return json.loads(r.out)


def run(t):
    a = t.alpha
    a.run("ip netns del %s 2>/dev/null; true" % NS)
    a.insmod_smcx()

    with t.subtest("defaults"):
        vals = read_all(a)
        for name, (dflt, _, _) in SYSCTLS.items():
            t.eq(vals.get(name), str(dflt), "net.smc.%s default" % name)
        t.eq(a.out("sysctl -n net.smc.tcp2smc"), "0", "sysctl(8) reads net.smc.tcp2smc")

    with t.subtest("ranges"):
        pairs = []
        for name, (dflt, good, bad) in SYSCTLS.items():
            for v in bad:
                pairs.append((name, v))
            for v in good:
                pairs.append((name, v))
            for v in bad:
                pairs.append((name, v))
            pairs.append((name, "x1"))
        res = write_values(a, pairs)
        last = {n: str(d) for n, (d, _, _) in SYSCTLS.items()}
        for name, val, err, now in res:
            goodvals = [str(v) for v in SYSCTLS[name][1]]
            if val in goodvals:
                t.check(err == 0 and now == val,
                        "%s=%s accepted (errno %d, reads %s)" % (name, val, err, now))
                last[name] = val
            else:
                t.check(err == 22 and now == last[name],
                        "%s=%s rejected with EINVAL, value stays %s (errno %d, reads %s)"
                        % (name, val, last[name], err, now))
        t.eq(read_all(a), {n: str(d) for n, (d, _, _) in SYSCTLS.items()},
             "every value back at its default after the good writes")

    with t.subtest("per netns"):
        a.run("ip netns add %s" % NS)
        try:
            a.run("sysctl -qw net.smc.wmem=131072 net.smc.limit_smc_hs=1 net.smc.tcp2smc=1")
            nsvals = read_all(a, NS)
            for name, (dflt, _, _) in SYSCTLS.items():
                t.eq(nsvals.get(name), str(dflt), "new netns: net.smc.%s default" % name)
            res = write_values(a, [("rmem", 32768), ("smcr_max_conns_per_lgr", 20),
                                   ("rmem", 10)], NS)
            t.eq([r[2] for r in res], [0, 0, 22], "writes inside the netns")
            init = read_all(a)
            t.eq((init["wmem"], init["rmem"], init["smcr_max_conns_per_lgr"],
                  init["limit_smc_hs"], init["tcp2smc"]),
                 ("131072", "65536", "255", "1", "1"),
                 "init_net keeps its own values")
            nsvals = read_all(a, NS)
            t.eq((nsvals["wmem"], nsvals["rmem"], nsvals["smcr_max_conns_per_lgr"],
                  nsvals["tcp2smc"]), ("65536", "32768", "20", "0"),
                 "the netns keeps its own values")
        finally:
            a.run("ip netns del %s" % NS)
            a.run("sysctl -qw net.smc.wmem=65536 net.smc.limit_smc_hs=0 net.smc.tcp2smc=0")

    with t.subtest("netns churn"):
        a.run("for i in $(seq 1 20); do ip netns add smcx_churn$i; "
              "ip netns exec smcx_churn$i sysctl -qw net.smc.rmem=$((16384 + i)); done; "
              "for i in $(seq 1 20); do ip netns del smcx_churn$i; done", timeout=120)
        t.check(True, "20 namespaces created, written and destroyed")

    with t.subtest("unload"):
        a.rmmod("smcx")
        t.check(a.run("test -e /proc/sys/net/smc", check=False).rc != 0,
                "/proc/sys/net/smc gone with the module")
