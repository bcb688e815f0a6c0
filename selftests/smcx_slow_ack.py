# SPDX-License-Identifier: GPL-2.0
"""A slow acknowledger against the group's configuration lock (review N5).

alpha serves with `hostile victim` (an AF_SMC echo server).  beta's
`hostile slowack` (selftests/tools/hostile_ib.c), from beta's second address
(an alias, so that its link group is not the one of beta's own smcx), makes
an honest first contact, lets its receive queue run dry and then, every
SLOW_MS, posts one receive and sends one more TEST_LINK request: about
three of alpha's SENDs on that link always wait in RNR retries (each for
about three periods, under alpha's 15 s stall watchdog), so its send queue
is never idle and every REG_MR's wait for an idle queue times out (10 s).
Then the tool opens FLOOD connections at once that claim its group; each
needs a new RMB, registered under the group's conf_mutex.

Before the fix those handshakes queued on the mutex, uninterruptibly, each
holding it for a 10 s quiesce: the last of them would wait minutes (the lab
kernel panics on a task blocked for 60 s), and the listener's close()
waited for the whole chain.  Now, while the flood's handshakes are pending:
  - beta's own SMC-R connection to alpha (another link group, to another
    listener) is served within HONEST_DEADLINE s, verified;
  - then the listener's close() returns within CLOSE_DEADLINE s (timed in
    `hostile victim`);
  - every flood connection gets its answer (a Decline ERR_REGBUF) or is
    reset by the close, within FLOOD_DEADLINE s;
  - no task was reported blocked.
"""
import os
import re
import time

import scenarios

TIMEOUT = 420
COST = 70
PORT = 7110
PORT_HONEST = 7111
STRANGER = "198.18.0.50"    # beta's alias: an address that is not its GID
FLOOD = 30
SLOW_MS = 4000          # 3 SENDs queued, 4 s apart: under the 15 s stall watchdog
RUN_SECS = 60           # the slow link's whole life (the tool's -t)
FLOOD_DEADLINE = 20     # s: a quiesce (10 s) plus a conf_mutex wait (2 s), and TCG
HONEST_DEADLINE = 20
CLOSE_DEADLINE = 3      # s: at most one CONFIRM_RKEY wait (2 s) is not abortable
CLOSE_WAIT = 60         # s: the kill until the victim's exit, lab latency included
DECL_REGBUF = 0x09990003
HOSTILE = os.path.join(os.path.dirname(scenarios.XFER), "hostile")
PIDF = "/tmp/slow_ack.victim.pid"


def run(t):
    a, b = t.alpha, t.beta
    for h in (a, b):
        h.insmod_smcx()
    # alpha would probe the slow link with TEST_LINK after 30 s of silence,
    # and end it: the slow receives would make the answer late
    a.run("sysctl -qw net.smc.smcr_testlink_time=0")
    b.modprobe("sch_prio", "cls_u32", "act_pedit", "act_csum")
    b.run("tc qdisc del dev eth0 root 2>/dev/null; tc qdisc add dev eth0 root handle 1: prio")
    scenarios.smc_option_filter(b, "match ip dport %d 0xffff" % PORT)
    b.run("ip addr add %s/24 dev eth0" % STRANGER)
    victim = a.bg("sh -c 'echo $$ > %s; exec %s victim -p %d'" % (PIDF, HOSTILE, PORT))
    a.wait_port(PORT, job=victim)
    honest = a.bg("%s server -f smc -p %d -c 1" % (scenarios.XFER, PORT_HONEST))
    a.wait_port(PORT_HONEST, job=honest)
    slow = vres = res = sres = None
    try:
        slow = b.bg("%s slowack -a %s -p %d -S %s -n %d -t %d -w %d"
                    % (HOSTILE, a.ip, PORT, STRANGER, FLOOD, RUN_SECS, SLOW_MS))
        # the flood starts once the tool's receive queue ran dry (seconds)
        t.check(scenarios.wait_for(lambda: scenarios.smcx_stats(a).get("srv_hs_started", 0)
                                   >= FLOOD + 1, timeout=60, step=0.5),
                "the flood's handshakes started on alpha")
        with t.subtest("an honest client gets SMC-R during the flood"):
            before = scenarios.smcx_stats(b).get("clnt_success_v2", 0)
            t0 = time.time()
            r = b.run("%s client -f smc -a %s -p %d -t 2 -m send -c 1"
                      % (scenarios.XFER, a.ip, PORT_HONEST), timeout=120, check=False)
            secs = time.time() - t0
            sres = honest.wait(timeout=60, check=False)
            t.log("honest client: %.1f s: %s / server: %s"
                  % (secs, r.out.strip()[-300:], sres.describe()))
            t.check(r.rc == 0 and ("0", "tx") in scenarios.verified(r),
                    "beta's transfer ended OK, verified")
            t.check(sres.rc == 0 and ("0", "rx") in scenarios.verified(sres),
                    "alpha received every byte, verified")
            t.eq(scenarios.smcx_stats(b).get("clnt_success_v2", 0) - before, 1,
                 "by SMC-R (beta's clnt_success_v2)")
            t.check(secs < HONEST_DEADLINE, "within %d s (%.1f s)" % (HONEST_DEADLINE, secs))
        with t.subtest("the listener's close() with the flood pending returns at once"):
            a.run("kill -TERM $(cat %s)" % PIDF)
            vres = victim.wait(timeout=CLOSE_WAIT, check=False)
            t.log("victim: %s" % vres.out.strip()[-300:])
            t.check(vres.rc == 0, "the victim exited within %d s" % CLOSE_WAIT)
            m = re.search(r"close_ms=(\d+)", vres.out or "")
            t.check(m is not None and int(m.group(1)) < CLOSE_DEADLINE * 1000,
                    "its close() returned within %d s (%s ms)"
                    % (CLOSE_DEADLINE, m.group(1) if m else "?"))
        with t.subtest("every flood connection was answered in time"):
            res = slow.wait(timeout=RUN_SECS + 90, check=False)
            t.log(res.out.strip()[-3000:])
            t.log("declines ERR_REGBUF: %d" % res.out.count("decline 0x%08x" % DECL_REGBUF))
            m = re.search(r"^slowack: answered=(\d+) declined=(\d+) accepted=(\d+) of (\d+), "
                          r"last answer (\d+) ms$", res.out, re.M)
            t.check(m is not None, "the tool ran its flood")
            if m:
                answered, last = int(m.group(1)), int(m.group(5))
                closed = len(re.findall(r"^slowack conn \d+: silent or closed \((\d+) ms\)$",
                                        res.out, re.M))
                t.check(answered + closed == FLOOD,
                        "each of %d connections answered or closed (%d, %d)"
                        % (FLOOD, answered, closed))
                t.check(last < FLOOD_DEADLINE * 1000,
                        "the last answer within %d s (%d ms)" % (FLOOD_DEADLINE, last))
                late = [int(x) for x in re.findall(r"^slowack conn \d+: \S.* \((\d+) ms\)$",
                                                   res.out, re.M)]
                t.check(all(x < FLOOD_DEADLINE * 1000 for x in late),
                        "no connection waited %d s (slowest %d ms)"
                        % (FLOOD_DEADLINE, max(late or [0])))
        t.log("alpha: REG_MRs that found the send queue busy: %s, handshakes that "
              "found the group's configuration busy: %s"
              % (a.out("dmesg | grep -c 'not idle for a REG_MR' || true").strip(),
                 a.out("dmesg | grep -c 'group configuration busy' || true").strip()))
        with t.subtest("no task was reported blocked"):
            t.eq(a.out("dmesg | grep -c 'blocked for more than' || true").strip(), "0",
                 "hung-task reports on alpha")
    finally:
        if slow and res is None:
            slow.kill()
        if vres is None:
            victim.kill()
        if sres is None:
            honest.kill()
        b.run("ip addr del %s/24 dev eth0" % STRANGER, check=False)
        b.run("tc qdisc del dev eth0 root", check=False)
        a.run("sysctl -qw net.smc.smcr_testlink_time=30", check=False)
