# SPDX-License-Identifier: GPL-2.0
"""Test harness for the smcx lab selftests.

A test is a file selftests/<name>.py with

    WIRES = 1          # wires the lab must have (1 or 2), optional
    TIMEOUT = 300      # seconds before the test counts as hung, optional
    FRESH = False      # True: boot a new lab for this test, optional
    KILLS = False      # True: it kills a host (below); the runner runs it
                       # last of the tests of its lab shape, optional
    PENDING = "..."    # the test checks work not landed yet (says what);
                       # reported as SKIP unless the runner gets --pending
    TIER = "main"      # which suite runs it, optional (TIERS below)
    COST = 60          # seconds it takes in make check, roughly: the runner
                       # balances its shards (--jobs) by it, optional
    SOLO = False       # True: while it runs, no test of another shard runs
                       # (a load that would starve the other lab's timing,
                       # or timing that another lab's load would break);
                       # "part": only its `with t.solo(what)` sections do

    def run(t):        # t is a Ctx; raise (or t.check) to fail, t.skip() to skip
        ...

Everything else (kernel log checks, object leak checks, module unload,
recovery from a dead guest) is done here so that no test can forget it.

A test that needs a host to vanish (a peer crash) calls
t.lab.kill_host(name): that guest's QEMU is killed, which is not reported as
a death; the other host gets the usual checks and teardown, and the next
test boots a fresh lab.  Such a test kills last and declares KILLS = True,
or declares FRESH = True.

t.pending says whether the runner runs pending work (--pending or
SMCX_PENDING=1): a test can keep single subtests whose fix has not landed
as SKIP with the reason, as PENDING does for a whole test.
"""
import contextlib
import fcntl
import importlib.util
import os
import re
import sys
import threading
import time

# The shard lock of the test running now (Runner.shard_turn), for
# Ctx.solo: {"lock": the lock file, held shared, "turnstile": its path}.
_TURN = {}
import traceback

import smcxlab

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Modules the runner unloads after every test, in this order.
TEARDOWN_MODULES = ("smcx", "smc_diag", "smc")
SMCX_OBJECTS = "/sys/kernel/debug/smcx/objects"

# The tiers a test can be in:
#   main       `make check`: everything that exercises smcx, and the lab itself
#   reference  `make check-reference`: the stock smc.ko alone, which validates
#              the test logic against the stack that already does SMC-Rv2 in
#              the lab; run it when such a test or its library changes
#   fast       `make check-fast` only: a lab smoke for the edit loop, covered
#              by main tests as well
TIERS = ("main", "reference", "fast")


def tier_of(mod):
    tier = getattr(mod, "TIER", "main")
    if tier not in TIERS:
        raise ValueError("%s: TIER %r is none of %s" % (mod.__name__, tier, ", ".join(TIERS)))
    return tier


# teardown problems that leave a host unfit for the next test
TEARDOWN_STUCK = re.compile(r"^(module \S+ on \S+ would not unload|teardown on \S+ failed)")


class Skip(Exception):
    pass


class TestFailure(AssertionError):
    pass


class Ctx:
    """What a test gets: the lab, its hosts, and checks that report well."""

    def __init__(self, lab, name, pending=False):
        self.lab = lab
        self.name = name
        self.alpha = lab.alpha
        self.beta = lab.beta
        self.hosts = lab.hosts
        self.repo = smcxlab.REPO
        self.nsub = 0
        self.subfail = 0
        # the runner runs PENDING work (--pending): a test may mark single
        # subtests pending too, and run them only then
        self.pending = pending

    def log(self, msg):
        for line in str(msg).splitlines() or [""]:
            print("# " + line)
        sys.stdout.flush()

    @contextlib.contextmanager
    def solo(self, what):
        """A section of a SOLO = "part" test that runs while no test of
        another shard runs: the test gives up its shared hold of the shard
        lock, takes it exclusive through the turnstile (as a SOLO test
        does), and holds it shared again afterwards.  Outside side-by-side
        shards it only runs the section."""
        lk = _TURN.get("lock")
        if lk is None:
            yield
            return
        t0 = time.time()
        fcntl.flock(lk, fcntl.LOCK_UN)
        with open(_TURN["turnstile"], "a") as ts:
            fcntl.flock(ts, fcntl.LOCK_EX)
            fcntl.flock(lk, fcntl.LOCK_EX)
            fcntl.flock(ts, fcntl.LOCK_UN)
        self.log("alone for %s after %.1fs waiting for the other shards" % (what, time.time() - t0))
        try:
            yield
        finally:
            fcntl.flock(lk, fcntl.LOCK_SH)

    def check(self, cond, msg):
        if not cond:
            raise TestFailure(msg)
        self.log("ok: " + msg.splitlines()[0])

    def eq(self, got, want, what):
        if got != want:
            raise TestFailure("%s: got %r, want %r" % (what, got, want))
        shown = repr(want)
        self.log("ok: %s == %s" % (what, shown if len(shown) < 80 else shown[:76] + "...'"))

    def skip(self, reason):
        raise Skip(reason)

    @contextlib.contextmanager
    def subtest(self, name):
        """A nested TAP line; a failing subtest fails the test at the end."""
        self.nsub += 1
        n = self.nsub
        t0 = time.time()
        try:
            yield
        except Skip as e:
            print("    ok %d - %s # SKIP %s" % (n, name, e))
        except Exception as e:  # noqa: BLE001 - reported, then counted
            self.subfail += 1
            for line in (describe(e) + "\n" + self.kernel_tail()).splitlines():
                print("    # " + line)
            print("    not ok %d - %s" % (n, name))
        else:
            print("    ok %d - %s" % (n, name))
        secs = time.time() - t0
        if secs >= 0.1:		# not for cases that only report a result
            print("    # %s: %.1fs" % (name, secs))
        sys.stdout.flush()

    def reboot(self, why):
        """Replace both hosts by freshly booted ones, for a test that must go
        on after a host was left unusable (a module that will not unload).
        The test's hosts (alpha, beta) are the new ones afterwards."""
        self.log("booting fresh hosts: %s" % why)
        self.lab.down()
        secs = self.lab.up()
        self.alpha, self.beta, self.hosts = self.lab.alpha, self.lab.beta, self.lab.hosts
        self.lab.mark_consoles()
        self.log("fresh hosts up in %.1fs" % secs)

    def kernel_tail(self, lines=25):
        """The last SMC and rxe kernel messages of each host, for a failure
        report: the console holds only notices and worse (loglevel=6), and
        the lab is gone by the time anyone reads the report."""
        out = []
        for h in self.hosts:
            try:
                r = h.run("dmesg | grep -E 'smcx|smc:|rxe|infiniband' | tail -%d" % lines,
                          check=False, timeout=20)
                text = r.out.rstrip() or "(none)"
            except smcxlab.LabError as e:
                text = "(unavailable: %s)" % e
            out.append("%s kernel log (SMC/rxe, last %d):\n  %s"
                       % (h.name, lines, text.replace("\n", "\n  ")))
        return "\n".join(out)

    def smcx_path(self, host=None):
        """The smcx.ko built for @host's kernel (default alpha's)."""
        return (host or self.alpha).smcx_module()

    def tool(self, name="smcctl"):
        """Path of a user tool (or personality link) in the build tree."""
        return os.path.join(self.repo, "build", "user", "smcctl", name)


def describe(e):
    if isinstance(e, (TestFailure, smcxlab.LabError)):
        return str(e)
    return "".join(traceback.format_exception(type(e), e, e.__traceback__)).rstrip()


def load_test(name):
    path = os.path.join(HERE, name + ".py")
    spec = importlib.util.spec_from_file_location("selftest_" + name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Runner:
    def __init__(self, rundir, reuse=False, keep=False, verbose=False, pending=False, tag=""):
        self.pending = pending
        self.tag = tag + " " if tag else ""
        self.rundir = rundir
        self.reuse = reuse
        self.keep = keep
        self.verbose = verbose
        self.lab = None
        self.boots = 0
        self.boot_failures = 0
        self.boot_time = 0.0
        self.counts = {"pass": 0, "fail": 0, "skip": 0}
        self.results = []
        self.t0 = time.time()

    def progress(self, msg):
        print("[%5.0fs] %s%s" % (time.time() - self.t0, self.tag, msg), file=sys.stderr)
        sys.stderr.flush()

    # -- lab lifecycle -------------------------------------------------
    def ensure_lab(self, wires, fresh):
        lab = self.lab
        if lab and not fresh and lab.wires == wires and not lab.dead_hosts():
            return lab
        if lab is None and self.reuse:
            lab = smcxlab.Lab(rundir=self.rundir, verbose=self.verbose)
            if lab.attach() and lab.wires == wires and not fresh:
                # A lab used by hand may hold anything: start from a clean state.
                for h in lab.hosts:
                    for p in self._teardown(h):
                        print("# reused lab: " + p.splitlines()[0])
                self.lab = lab
                return lab
        if lab is not None:
            lab.down()
        else:
            smcxlab.Lab(rundir=self.rundir).down()  # stale lab from an earlier run
        if self.boot_failures >= 2:
            raise smcxlab.LabError("not booting again after %d failed boots" % self.boot_failures)
        self.progress("booting lab (%d wire(s))" % wires)
        lab = smcxlab.Lab(rundir=self.rundir, wires=wires, verbose=self.verbose)
        try:
            secs = lab.up()
        except smcxlab.LabError:
            self.boot_failures += 1
            raise
        self.boot_failures = 0
        self.boots += 1
        self.boot_time += secs
        self.progress("lab up in %.1fs" % secs)
        print("# lab booted in %.1fs (kernel %s)" % (secs, ", ".join(
            "%s %s" % (h.name, h.kernel) for h in lab.hosts)))
        self.lab = lab
        return lab

    def finish(self):
        if self.lab and not self.keep and not self.reuse:
            self.lab.down()

    # -- one test ------------------------------------------------------
    @contextlib.contextmanager
    def shard_turn(self, name):
        """With shards side by side (SELFTEST_SOLO_LOCK, set by the runner
        of the shards), a SOLO test runs alone: every test holds the lock
        file shared, a SOLO test exclusive.  A second file is the
        turnstile: each test passes it before it asks for the lock, and a
        SOLO test holds it while it waits, so that the other shard's next
        tests queue behind it instead of starving it.  The SOLO tests
        open the first shard, which says when it holds the lock for its
        first other test (SELFTEST_STARTED); the other shards start their
        first test only then (SELFTEST_START_AFTER, at most 300 s), so
        that the SOLO tests run one after the other at the start instead
        of each waiting for a test of the other shards."""
        path = os.environ.get("SELFTEST_SOLO_LOCK")
        if not path:
            yield
            return
        after = os.environ.get("SELFTEST_START_AFTER")
        deadline = time.time() + 300
        while after and not os.path.exists(after) and time.time() < deadline:
            time.sleep(0.2)
        try:
            solo = getattr(load_test(name), "SOLO", False) is True
        except Exception:  # noqa: BLE001 - _run reports it
            solo = False
        with open(path + ".turnstile", "a") as ts, open(path, "a") as lk:
            fcntl.flock(ts, fcntl.LOCK_EX)
            if solo:
                self.progress("%s waits for the other shards' tests (SOLO)" % name)
                fcntl.flock(lk, fcntl.LOCK_EX)
                fcntl.flock(ts, fcntl.LOCK_UN)
            else:
                fcntl.flock(ts, fcntl.LOCK_UN)
                fcntl.flock(lk, fcntl.LOCK_SH)
            started = os.environ.get("SELFTEST_STARTED")
            if started and not solo and not os.path.exists(started):
                open(started, "w").close()
            _TURN.update(lock=lk, turnstile=path + ".turnstile")
            try:
                yield
            finally:
                _TURN.clear()
                fcntl.flock(lk, fcntl.LOCK_UN)

    def run_one(self, num, name, total):
        with self.shard_turn(name):
            self._run_one(num, name, total)

    def _run_one(self, num, name, total):
        start = time.time()
        reqs = list(smcxlab.REQUESTS)
        self.progress("(%d/%d) %s ..." % (num, total, name))
        status, reason = self._run(name)
        secs = time.time() - start
        print("# %s: %.1fs, %d lab requests taking %.1fs" % (
            name, secs, smcxlab.REQUESTS[0] - reqs[0], smcxlab.REQUESTS[1] - reqs[1]))
        if status == "pass":
            print("ok %d - %s" % (num, name))
        elif status == "skip":
            print("ok %d - %s # SKIP %s" % (num, name, reason))
        else:
            for line in reason.splitlines():
                print("# " + line)
            print("not ok %d - %s" % (num, name))
        sys.stdout.flush()
        self.counts[status] += 1
        self.results.append((name, status, secs))
        self.progress("(%d/%d) %s: %s in %.1fs" % (num, total, name, status.upper(), secs))

    def _run(self, name):
        try:
            mod = load_test(name)
        except Exception as e:  # noqa: BLE001
            return "fail", "cannot load test: " + describe(e)
        if getattr(mod, "PENDING", None) and not self.pending:
            return "skip", "pending: %s (run with --pending)" % mod.PENDING
        wires = getattr(mod, "WIRES", 1)
        timeout = getattr(mod, "TIMEOUT", 300)
        try:
            lab = self.ensure_lab(wires, getattr(mod, "FRESH", False))
        except smcxlab.LabError as e:
            return "fail", "lab did not come up: %s" % e
        lab.mark_consoles()
        ctx = Ctx(lab, name, pending=self.pending)
        outcome = {}

        def body():
            try:
                mod.run(ctx)
                outcome["status"] = "pass"
            except Skip as e:
                outcome["status"], outcome["why"] = "skip", str(e)
            except Exception as e:  # noqa: BLE001
                outcome["status"], outcome["why"] = "fail", describe(e) + "\n" + ctx.kernel_tail()

        th = threading.Thread(target=body, daemon=True)
        th.start()
        th.join(timeout)
        problems = []
        if th.is_alive():
            problems.append("test hung: no result after %ds; lab killed" % timeout)
            lab.down()
            th.join(60)
        status = outcome.get("status", "fail")
        why = outcome.get("why", "")
        if status == "pass" and ctx.subfail:
            status, why = "fail", "%d subtest(s) failed" % ctx.subfail
        problems += self._after(lab)
        if problems:
            if status == "skip":
                status = "fail"
            if status != "fail":
                status, why = "fail", ""
            why = "\n".join(([why] if why else []) + problems)
        return status, why

    def _after(self, lab):
        """Post-test checks every test gets; returns a list of problems."""
        problems = []
        # a host the test killed on purpose (Lab.kill_host) is no death: the
        # other host is still checked and torn down, and the next test gets
        # a fresh lab
        killed = sorted(lab.killed)
        for name in killed:
            print("# host %s was killed by the test (expected)" % name)
        dead = lab.unexpected_dead() if lab.hosts else []
        for name in dead:
            problems.append("host %s died; console tail:\n%s" % (name, lab.console_tail(name, 60)))
        alive = [h for h in lab.hosts if h.name not in killed]
        if not dead:
            for h in alive:
                try:
                    h.ping(timeout=20)
                except smcxlab.LabError as e:
                    time.sleep(2)  # a panicking guest takes a moment to exit
                    if h.name in lab.dead_hosts():
                        problems.append("host %s died; console tail:\n%s"
                                        % (h.name, lab.console_tail(h.name, 60)))
                    else:
                        problems.append("host %s hung: %s" % (h.name, e))
                    dead.append(h.name)
        unclean = []
        if not dead:
            for h in alive:
                found = self._teardown(h)
                problems += found
                if any(TEARDOWN_STUCK.search(p) for p in found):
                    unclean.append(h.name)
        for host, lines in lab.kernel_problems().items():
            problems.append("kernel problem on %s:\n  %s" % (host, "\n  ".join(lines[:40])))
        if unclean:
            # a module that stays loaded (the stock smc.ko keeps references
            # when its link dies under rxe) would fail every later test's
            # setup: this test fails, the next one gets fresh hosts
            print("# %s not clean after the test: the next test boots a fresh lab"
                  % " and ".join(unclean))
        if dead or killed or unclean:
            lab.down()  # the next test boots a fresh lab
        return problems

    def _teardown(self, h):
        problems = []
        try:
            h._request({"op": "reset"}, 30)
            # closing connections wait for the peer's close: give the
            # socket and connection counts up to 10 s to reach zero.  Idle
            # link groups linger (10 min) with their links, buffers and
            # verbs objects; the rmmod below frees them and smcx logs
            # "leaked at unload" for anything still counted, which the
            # console check catches.
            deadline = time.time() + 10
            while True:
                objs = h.read(SMCX_OBJECTS) or ""
                left = [ln for ln in objs.splitlines()
                        if len(ln.split()) == 2 and ln.split()[0] in smcxlab.CONN_OBJECTS
                        and ln.split()[1] != "0"]
                if not left or time.time() >= deadline:
                    break
                time.sleep(0.5)
            if left:
                problems.append("smcx objects left on %s: %s" % (h.name, ", ".join(left)))
            loaded = h.modules()
            for m in TEARDOWN_MODULES:
                if m in loaded:
                    r = h.run("for i in 1 2 3 4 5 6 7 8 9 10; do rmmod %s && exit 0; sleep 1; done;"
                              " exit 1" % m, check=False, timeout=60)
                    if r.rc != 0:
                        problems.append("module %s on %s would not unload: %s\n%s"
                                        % (m, h.name, (r.err.strip().splitlines() or [""])[-1],
                                           h.module_holders(m)))
        except smcxlab.LabError as e:
            problems.append("teardown on %s failed: %s" % (h.name, e))
        return problems
