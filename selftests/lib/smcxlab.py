# SPDX-License-Identifier: GPL-2.0
"""The smcx two-host lab: alpha and beta under QEMU TCG, joined by soft-RoCE.

Each host is a QEMU guest booting a Debian kernel with a tiny initramfs that
mounts the host machine's root read-only over 9p and chroots into it, so every
binary and build output of the host runs in the guests unchanged.  The hosts
are joined by one or two virtual wires (QEMU socket netdev, UDP form, on
127.0.0.1: the stream form adds ~22 ms to every RDMA message) with rxe0/rxe1
on top.  A third NIC per guest (QEMU user net, restricted, no route out) only
carries the lab agent (scripts/lab-agent), through which the driver runs
commands: one TCP connection per request via a host-side port forward.

A lab lives in a run directory (default .lab/ in the repository) that holds
the QEMU pids, the chosen ports, the console logs and a state file, so a lab
booted by one process (`scripts/lab up`) can be used by another
(`scripts/lab run`, `selftests/run`).

Addresses: wire i is 198.18.i.0/24 (RFC 2544 benchmark range), alpha .1, beta
.2; management is 198.19.0.0/24 inside each QEMU, never routed anywhere.
"""
import glob
import hashlib
import ipaddress
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CACHE = os.path.join(REPO, ".cache", "lab")
DEFAULT_RUNDIR = os.path.join(REPO, ".lab")
HOSTS = ("alpha", "beta")
AGENT_PORT = 7000
# The guests' CPU model (TCG): qemu64 without CMPXCHG16B.  QEMU 7.2's TCG
# (Debian 12) computes EFLAGS after CMPXCHG16B from stale condition-code
# state: after a compare in the same translation block the flags hold the
# low half of the compare's operand, and SLUB's allocation fast path
# compares freelist pointers right before its this_cpu_cmpxchg128.  An
# interrupt there pushes a pointer as EFLAGS; the guest died of a double
# fault or of a debug trap from the garbage TF (the "emulator faults" of
# 2026-11/12).  Without CX16 the guest kernel never executes the
# instruction (SLUB takes its locked path).  build/tools/cx16flags shows
# the bug in one instruction sequence, lab_rdma runs it in both guests, and
# docs/guest-deaths.md has the measurements.  "max" had the same bug and
# more features than the lab needs.  LAB_CPU overrides it for experiments.
LAB_CPU = os.environ.get("LAB_CPU", "qemu64,-cx16")
# vCPUs per guest: 1 (the suite); more for measurements only (multi-threaded
# TCG, one host thread per vCPU), e.g. both ends of a loopback stream on
# CPUs of their own.
LAB_SMP = os.environ.get("LAB_SMP", "1")
# Memory checks the Debian kernel has built in, switched on by boot
# parameters (lab notes): a write into a freed page or object, an
# out-of-bounds access to a sampled object, or a corrupted slab is reported
# on the console, which fails the test (KERNEL_BAD).  With page_poison=1 the
# kernel leaves init_on_free off ("CONFIG_PAGE_POISONING is on, will take
# precedence"): poisoning checks what zeroing would only hide.  SLUB
# debugging is F (sanity checks), Z (red zones) and P (poisoning); U (the
# owners' stack traces, for the report, detects nothing more) made the
# suite 2.2x slower under TCG (smcr_smoke 136 s against 76 s with FZP, 60 s
# with no checks): LAB_SLUB_DEBUG=FZPU when a report needs its owners.
# LAB_MEMCHECK=0 boots without any (experiments, scripts/bench); LAB_APPEND adds
# further parameters.
LAB_SLUB_DEBUG = os.environ.get("LAB_SLUB_DEBUG", "FZP")
MEMCHECK_ARGS = ("page_poison=1", "init_on_free=1", "slub_debug=" + LAB_SLUB_DEBUG,
                 "kfence.sample_interval=100")
LAB_MEMCHECK = os.environ.get("LAB_MEMCHECK", "1") != "0"
# The emulator: LAB_QEMU names another qemu-system-x86_64 (e.g. one unpacked
# from a newer Debian package), LAB_QEMU_DATA its firmware directories
# (colon-separated, passed as -L before the default one).
LAB_QEMU = os.environ.get("LAB_QEMU", "qemu-system-x86_64")
LAB_QEMU_DATA = [d for d in os.environ.get("LAB_QEMU_DATA", "").split(":") if d]
LAB_APPEND = os.environ.get("LAB_APPEND", "").split()
# Instruction counting (scripts/perfcount, tools/smcprof/README.md):
# LAB_PLUGIN names the smcprof.so each guest's QEMU loads.  A host's windows
# are dumped to <rundir>/<host>.prof.<seq>.<label>.tbs; <rundir>/<host>.prof.ctl
# is the FIFO through which the host opens and closes a window.
LAB_PLUGIN = os.environ.get("LAB_PLUGIN", "")
LAB_9P_CACHE = os.environ.get("LAB_9P_CACHE", "")
GUEST_MGMT_IP = "198.19.0.15"

# What in a console log makes a test fail.
KERNEL_BAD = re.compile(
    r"WARNING:|BUG:|Oops|Call Trace|blocked for more than|refcount_t|"
    r"list_add corruption|list_del corruption|Kernel panic|general protection fault|"
    r"UBSAN:|KASAN:|kernel BUG|soft lockup|hard LOCKUP|rcu_sched self-detected|"
    r"RCU stall|smcx: leaked at unload|"
    # the memory checks of MEMCHECK_ARGS: KFENCE says "BUG: KFENCE:", SLUB
    # debugging "BUG <cache> (Not tainted): Poison overwritten" and the like,
    # page poisoning "pagealloc: memory corruption"
    r"KFENCE:|\bBUG \S+ \((Not t|T)ainted\)|pagealloc: |Poison overwritten|"
    r"Redzone overwritten|Object padding overwritten|Freepointer corrupt")

# Object kinds of /sys/kernel/debug/smcx/objects that belong to sockets and
# connections: zero soon after the last socket closed.  The others (link
# groups with their links, buffers, MRs, PD, CQs, QPs) stay while an idle
# link group lingers (10 min, as mainline); smcx reports any of them still
# counted at module unload ("smcx: leaked at unload"), a KERNEL_BAD line.
CONN_OBJECTS = ("socks", "clcsocks", "pending_handshakes", "listeners", "conns")

# initramfs: only what is needed to reach the host's root (virtio_pci is built
# in on 6.12 but a module on 6.1); the rest (rxe, smc,
# ...) is loaded from the host's /lib/modules after the chroot.
INITRAMFS_MODULES = ("virtio_pci", "netfs", "9pnet", "9pnet_virtio", "9p", "virtio_net")

INIT_SCRIPT = r"""#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /modules.list); do insmod "/mods/$m" || echo "lab-init: insmod $m failed"; done
mkdir -p /host
# The host's root is cached (cache=loose: it does not change under a lab;
# pages stay in the guest's page cache, so programs and libraries are read
# once and their emulated code is translated once, not at every exec); the
# repository, which a developer rebuilds while a lab is up, is a second
# export without a cache, bound over its place in the root.
cache=$(sed -n 's/.* lab\.9pcache=\([^ ]*\).*/\1/p' /proc/cmdline)
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=${cache:-loose} host /host || {
	echo "lab-init: FATAL: cannot mount host root"; poweroff -f; }
repo=$(sed -n 's/.* lab\.repo=\([^ ]*\).*/\1/p' /proc/cmdline)
mkdir -p /repo
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=none repo /repo || {
	echo "lab-init: FATAL: cannot mount the repository"; poweroff -f; }
# The writable places become tmpfs; the repository is bound over its place
# afterwards, so one that lives under them (a CI clone in /tmp, say) stays
# visible.
for d in tmp run var/tmp root var/lib var/log var/cache; do
	mount -t tmpfs -o mode=1777 tmpfs "/host/$d"
done
# root's home, searchable but not listable by others: a repository cloned
# under it (/root/smcx) must stay reachable for the unprivileged identities
# that tests run its programs as (setpriv --reuid=nobody)
chmod 711 /host/root
mkdir -p "/host$repo" 2>/dev/null
mount --bind /repo "/host$repo"
mount -t proc proc /host/proc
mount -t sysfs sys /host/sys
mount -t devtmpfs dev /host/dev
mkdir -p /host/dev/pts /host/dev/shm
mount -t devpts devpts /host/dev/pts
mount -t tmpfs tmpfs /host/dev/shm
# Module autoload: the kernel runs its modprobe helper in this (initramfs)
# root, which has no modprobe that knows the modules; hand it to the host's.
printf '#!/bin/sh\nexec /bin/chroot /host /sbin/modprobe "$@"\n' > /modprobe-host
chmod 755 /modprobe-host
echo /modprobe-host > /proc/sys/kernel/modprobe
kver=$(uname -r)
# A kernel that is not installed on the host brings its modules from the lab
# cache; lay them over /lib/modules so modprobe finds them.  (Its headers
# may be installed: they make /lib/modules/$kver/build and nothing else.)
if [ ! -e "/host/lib/modules/$kver/modules.dep" ]; then
	moddir=$(sed -n 's/.* lab\.moddir=\([^ ]*\).*/\1/p' /proc/cmdline)
	mount -t tmpfs tmpfs /host/lib/modules
	mkdir -p "/host/lib/modules/$kver"
	mount --bind "/host$moddir" "/host/lib/modules/$kver"
fi
chroot /host /bin/bash "$repo/scripts/lab-guest-setup" >/dev/console 2>&1 ||
	echo "lab-init: FATAL: guest setup failed"
[ -e "/host$repo/scripts/lab-agent" ] || echo "lab-init: FATAL: no agent at $repo"
chroot /host /usr/bin/python3 "$repo/scripts/lab-agent" %(port)d >/dev/console 2>&1 &
while true; do wait; sleep 1; done
"""



def _kill_qemu(pid, wait_gone=False):
    """SIGKILL a guest's QEMU process group and reap it.  A QEMU that is
    not our child (a lab booted by another process) cannot be reaped; with
    @wait_gone, wait up to 10 s until it is gone."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        deadline = time.time() + 10
        while wait_gone and time.time() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)


def prof_prefix(rundir, host):
    """Where LAB_PLUGIN's dumps of @host go, and its FIFO (+ ".ctl")."""
    return os.path.join(rundir, host + ".prof")


class LabError(Exception):
    pass


def free_port(kind):
    """A port that is free now on 127.0.0.1 (the OS picks; racy but retried)."""
    s = socket.socket(socket.AF_INET, kind)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def installed_kernel():
    vers = sorted((os.path.basename(p)[len("vmlinuz-"):]
                   for p in glob.glob("/boot/vmlinuz-6.12*-amd64")),
                  key=lambda v: [int(x) if x.isdigit() else x
                                 for x in re.split(r"[.+-]", v)])
    if not vers:
        raise LabError("no Debian 6.12 kernel in /boot; run scripts/setup")
    return vers[-1]


def smcx_module(kver):
    """The smcx.ko for kernel release @kver: `make modules-compat` builds
    one per other supported kernel in build/k/<release>/, `make module`
    the tree's own for the lab kernel."""
    k = os.path.join(REPO, "build", "k", kver, "smcx.ko")
    return k if os.path.exists(k) else os.path.join(REPO, "smcx.ko")


def kernel_files(kver):
    """(vmlinuz, modules dir) for a kernel release, fetching it if needed."""
    vmlinuz = "/boot/vmlinuz-" + kver
    moddir = "/lib/modules/" + kver
    if os.path.exists(vmlinuz) and os.path.exists(os.path.join(moddir, "modules.dep")):
        return vmlinuz, moddir
    root = os.path.join(CACHE, "kernels", kver)
    vmlinuz = os.path.join(root, "boot", "vmlinuz-" + kver)
    moddir = os.path.join(root, "lib", "modules", kver)
    if not os.path.exists(vmlinuz):
        os.makedirs(root, exist_ok=True)
        tmp = os.path.join(root, "deb")
        os.makedirs(tmp, exist_ok=True)
        for pkg in ("linux-image-%s-unsigned" % kver, "linux-image-%s" % kver):
            r = subprocess.run(["apt-get", "download", pkg], cwd=tmp,
                               capture_output=True, text=True)
            if r.returncode == 0:
                break
        else:
            raise LabError("cannot fetch kernel %s: %s" % (kver, r.stderr.strip()))
        for deb in glob.glob(os.path.join(tmp, "*.deb")):
            subprocess.run(["dpkg", "-x", deb, root], check=True)
        subprocess.run(["depmod", "-b", root, kver], check=True)
    return vmlinuz, moddir


def build_initramfs(kver, moddir):
    """A cpio with busybox, the 9p/virtio modules (decompressed) and /init.

    Its name carries a hash of the init script, so that runners of two
    versions of this file side by side never boot each other's."""
    tag = hashlib.sha256((INIT_SCRIPT + repr(INITRAMFS_MODULES)).encode()).hexdigest()[:8]
    out = os.path.join(CACHE, "initramfs-%s-%s.cpio.gz" % (kver, tag))
    me = os.path.abspath(__file__)
    if os.path.exists(out) and os.path.getmtime(out) > os.path.getmtime(me):
        return out
    os.makedirs(CACHE, exist_ok=True)
    # Private work names: labs booting side by side (LAB_DIR) may build at
    # once; the last rename wins and every one of them is complete.
    work = os.path.join(CACHE, "initramfs-%s.d.%d" % (kver, os.getpid()))
    shutil.rmtree(work, ignore_errors=True)
    for d in ("bin", "dev", "proc", "sys", "mods"):
        os.makedirs(os.path.join(work, d))
    busybox = shutil.which("busybox") or "/bin/busybox"
    shutil.copy(busybox, os.path.join(work, "bin", "busybox"))
    # Dependency order from the module's own modules.dep.
    deps = {}
    with open(os.path.join(moddir, "modules.dep")) as f:
        for line in f:
            path, _, rest = line.partition(":")
            deps[path] = rest.split()
    byname = {}
    for path in deps:
        base = os.path.basename(path).split(".ko")[0].replace("-", "_")
        byname[base] = path
    order = []

    def add(path):
        for d in reversed(deps.get(path, [])):
            add(d)
        if path not in order:
            order.append(path)
    for m in INITRAMFS_MODULES:
        if m in byname:  # a missing one is built in
            add(byname[m])
    names = []
    for path in order:
        src = os.path.join(moddir, path)
        name = os.path.basename(path)
        dst = os.path.join(work, "mods", name.replace(".xz", "").replace(".zst", ""))
        if name.endswith(".xz"):
            with open(dst, "wb") as o:
                subprocess.run(["xz", "-dc", src], stdout=o, check=True)
        elif name.endswith(".zst"):
            with open(dst, "wb") as o:
                subprocess.run(["zstd", "-dc", src], stdout=o, check=True)
        else:
            shutil.copy(src, dst)
        names.append(os.path.basename(dst))
    with open(os.path.join(work, "modules.list"), "w") as f:
        f.write("\n".join(names) + "\n")
    with open(os.path.join(work, "init"), "w") as f:
        f.write(INIT_SCRIPT % {"port": AGENT_PORT})
    os.chmod(os.path.join(work, "init"), 0o755)
    tmp = "%s.tmp.%d" % (out, os.getpid())
    subprocess.run("find . | cpio -o -H newc --quiet | gzip -1 > %s" % tmp,
                   shell=True, cwd=work, check=True)
    os.rename(tmp, out)
    shutil.rmtree(work, ignore_errors=True)
    return out


class Result:
    def __init__(self, d, cmd, host):
        self.rc = d.get("rc")
        self.out = d.get("out", "")
        self.err = d.get("err", "")
        self.timed_out = d.get("timed_out", False)
        self.cmd = cmd
        self.host = host

    @property
    def ok(self):
        return self.rc == 0

    def __repr__(self):
        return "<%s rc=%s %r>" % (self.host, self.rc, self.cmd[:60])

    def describe(self):
        s = "[%s] $ %s\n  rc=%s%s" % (self.host, self.cmd, self.rc,
                                       " (timed out)" if self.timed_out else "")
        if self.out.strip():
            s += "\n  stdout: " + self.out.strip()[-2000:].replace("\n", "\n          ")
        if self.err.strip():
            s += "\n  stderr: " + self.err.strip()[-2000:].replace("\n", "\n          ")
        return s


class CommandFailed(LabError):
    def __init__(self, res):
        super().__init__(res.describe())
        self.res = res


# agent requests made by this process and the seconds spent in them (the
# runner reports both per test: the cost of lab round trips)
REQUESTS = [0, 0.0]


class Host:
    """One lab guest as the tests see it."""

    def __init__(self, lab, name, index, agent_port):
        self.lab = lab
        self.name = name
        self.index = index
        self.agent_port = agent_port
        self.wires = lab.wires
        self.kernel = lab.kernels.get(name, lab.kernel)

    def smcx_module(self):
        """Path of the smcx.ko built for this host's kernel."""
        return smcx_module(self.kernel)

    def rxe_fixture(self):
        """The lab's rdma_rxe fixture for this host's kernel
        (selftests/tools/rxefix, built by make modules-compat for 6.1), or
        None where the kernel needs none."""
        p = os.path.join(REPO, "build", "k", self.kernel, "rxefix", "rxefix.ko")
        return p if os.path.exists(p) else None

    def addr(self, wire=0):
        """This host's IPv4 address on a wire."""
        return "198.18.%d.%d" % (wire, self.index + 1)

    @property
    def ip(self):
        return self.addr(0)

    @property
    def console(self):
        return os.path.join(self.lab.rundir, self.name + ".console")

    def _request(self, req, timeout):
        t0 = time.time()
        try:
            return self._request1(req, timeout)
        finally:
            REQUESTS[0] += 1
            REQUESTS[1] += time.time() - t0

    def _request1(self, req, timeout):
        try:
            s = socket.create_connection(("127.0.0.1", self.agent_port), timeout=10)
        except OSError as e:
            raise LabError("%s: agent unreachable: %s" % (self.name, e))
        with s:
            s.settimeout(timeout)
            s.sendall((json.dumps(req) + "\n").encode())
            buf = b""
            try:
                while not buf.endswith(b"\n"):
                    chunk = s.recv(1 << 16)
                    if not chunk:
                        break
                    buf += chunk
            except socket.timeout:
                raise LabError("%s: agent did not answer within %ds" % (self.name, timeout))
        if not buf:
            raise LabError("%s: agent closed the connection (guest dead?)" % self.name)
        d = json.loads(buf)
        if "error" in d:
            raise LabError("%s: agent: %s" % (self.name, d["error"]))
        return d

    def run(self, cmd, timeout=120, check=True, input=None, cwd=None):
        """Run a bash command on this host; returns a Result.

        check=True raises CommandFailed on a non-zero exit or a timeout."""
        t0 = time.time()
        d = self._request({"op": "run", "cmd": cmd, "timeout": timeout,
                           "input": input, "cwd": cwd}, timeout + 30)
        res = Result(d, cmd, self.name)
        self.lab.log("[%s] $ %s -> %s (%.2fs)" % (self.name, cmd, res.rc, time.time() - t0))
        if check and (res.rc != 0 or res.timed_out):
            raise CommandFailed(res)
        return res

    def out(self, cmd, timeout=120):
        """stdout of a command that must succeed, stripped."""
        return self.run(cmd, timeout=timeout).out.strip()

    def read_many(self, paths):
        """The text of each file in @paths on this host (None for one that
        cannot be read), in one round trip and without starting a process."""
        t0 = time.time()
        files = self._request({"op": "read", "paths": list(paths)}, 30)["files"]
        self.lab.log("[%s] read %s (%.2fs)" % (self.name, " ".join(paths), time.time() - t0))
        return files

    def read(self, path):
        """A file's text on this host, or None."""
        return self.read_many([path])[0]

    def modules(self):
        """The names of the modules loaded on this host."""
        return {ln.split()[0] for ln in (self.read("/proc/modules") or "").splitlines()
                if ln.strip()}

    def bg(self, cmd, name=None, input=None, cwd=None):
        """Start a command in the background; returns a Job."""
        d = self._request({"op": "bg", "cmd": cmd, "name": name, "input": input,
                           "cwd": cwd}, 30)
        self.lab.log("[%s] & %s -> job %s" % (self.name, cmd, d["job"]))
        return Job(self, d["job"], cmd)

    # -- instruction counting (LAB_PLUGIN) ----------------------------
    @property
    def prof_prefix(self):
        return prof_prefix(self.lab.rundir, self.name)

    def prof_dumps(self):
        """{seq: (label, path)} of this boot's finished window dumps."""
        out = {}
        for p in glob.glob(glob.escape(self.prof_prefix) + ".*.tbs"):
            seq, label = p[len(self.prof_prefix) + 1:-len(".tbs")].split(".", 1)
            out[int(seq)] = (label, p)
        return out

    def prof_ctl(self, line):
        """Send one command (start, stop LABEL) to this guest's plugin."""
        if not LAB_PLUGIN:
            raise LabError("the lab runs without LAB_PLUGIN")
        try:
            fd = os.open(self.prof_prefix + ".ctl", os.O_WRONLY | os.O_NONBLOCK)
        except OSError as e:
            raise LabError("%s: plugin control FIFO: %s" % (self.name, e))
        try:
            os.write(fd, (line + "\n").encode())
        finally:
            os.close(fd)

    def prof_wait(self, label, after, timeout=60):
        """The path of the first dump labelled @label with a sequence number
        above @after (max(prof_dumps()) taken before the window)."""
        deadline = time.time() + timeout
        while True:
            for seq, (lab, path) in sorted(self.prof_dumps().items()):
                if seq > after and lab == str(label):
                    return path
            if time.time() > deadline:
                raise LabError("%s: no window dump %r within %ds" % (self.name, label, timeout))
            time.sleep(0.2)

    def kallsyms(self, modules_only=False):
        """This boot's /proc/kallsyms, read as root (real addresses); with
        @modules_only the module symbols alone (they move at every load)."""
        if modules_only:
            return self.out("grep -F '[' /proc/kallsyms", timeout=300)
        # ~9 MB, over the agent's 4 MiB cap on one answer: a copy, in pieces
        n = int(self.out("cp /proc/kallsyms /tmp/kallsyms && wc -l < /tmp/kallsyms"))
        step = 50000		# lines: about 2 MB
        parts = [self.run("sed -n '%d,%dp' /tmp/kallsyms" % (i + 1, i + step),
                          timeout=300).out for i in range(0, n, step)]
        self.run("rm -f /tmp/kallsyms")
        text = "".join(parts)
        if text.count("\n") != n:
            raise LabError("%s: kallsyms: %d of %d lines" % (self.name, text.count("\n"), n))
        return text

    def ping(self, timeout=10):
        return self._request({"op": "ping"}, timeout)

    def wait_port(self, port, timeout=60, proto="tcp", job=None):
        """Wait until something listens on a TCP port here; when it does
        not, what @job (the server meant to listen) said goes into the
        error."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.listening(port, proto):
                return
            time.sleep(0.3)
        said = ""
        if job is not None:
            try:
                r = job.kill()
                said = "; the server (rc %s) said: %s" % (
                    r.rc, (r.out[-800:] + r.err[-800:]).strip())
            except LabError as e:
                said = "; the server: %s" % e
        sockets = self.run("ss -Htanp 'sport = :%d' | head -5" % port, check=False).out.strip()
        raise LabError("%s: nothing listens on port %d after %ds%s; sockets on it: %s"
                       % (self.name, port, timeout, said, sockets or "none"))

    def listening(self, port, proto="tcp"):
        """Whether a socket listens on @port here (TCP LISTEN, or any bound
        UDP socket), read off /proc/net without starting a process."""
        want = "0A" if proto == "tcp" else "07"
        for text in self.read_many(["/proc/net/%s" % proto, "/proc/net/%s6" % proto]):
            for ln in (text or "").splitlines()[1:]:
                f = ln.split()
                if len(f) > 3 and f[3] == want and int(f[1].rsplit(":", 1)[1], 16) == port:
                    return True
        return False

    def listeners(self, port):
        """The local addresses of the TCP sockets listening on @port here,
        as ss shows them ("0.0.0.0", "[::]", "198.18.0.2", "[fd00::1]"),
        read off /proc/net/tcp and tcp6."""
        got = []
        for v6, text in enumerate(self.read_many(["/proc/net/tcp", "/proc/net/tcp6"])):
            for ln in (text or "").splitlines()[1:]:
                f = ln.split()
                if len(f) < 4 or f[3] != "0A":
                    continue
                addr, hport = f[1].rsplit(":", 1)
                if int(hport, 16) != port:
                    continue
                # the address is printed as 32-bit words in host (little
                # endian) order
                raw = b"".join(bytes.fromhex(addr[i:i + 8])[::-1] for i in range(0, len(addr), 8))
                got.append("[%s]" % ipaddress.IPv6Address(raw) if v6
                           else str(ipaddress.IPv4Address(raw)))
        return sorted(got)

    def modprobe(self, *mods):
        self.run("modprobe -a " + " ".join(mods))

    def rmmod(self, *mods, check=True):
        return self.run("rmmod " + " ".join(mods), check=check)

    def insmod_smcx(self, params=""):
        self.run("insmod %s %s" % (self.smcx_module(), params))

    def module_holders(self, mod="smcx"):
        """Why @mod will not unload, for the failure report: its reference
        count, the smcx socks still hashed (with their connections'
        cursors), processes in uninterruptible sleep with their kernel
        stacks, and the kernel log's smcx lines."""
        r = self.run(
            "echo refcnt $(cat /sys/module/%s/refcnt 2>/dev/null);"
            " cat /sys/kernel/debug/smcx/socks 2>/dev/null | head -40;"
            " for p in $(ps -eo pid=,stat= | awk '$2 ~ /D/ {print $1}'); do"
            "   echo \"D-state $p $(cat /proc/$p/comm)\"; head -12 /proc/$p/stack; done;"
            " ps -eo pid=,comm= | grep -E 'xfer|hold|closer|sockapi|pingpong' | head;"
            " dmesg | grep -E 'smcx|smc:' | tail -15" % mod, check=False, timeout=60)
        return (r.out + r.err).strip()

    def loaded(self, mod):
        return mod in self.modules()

    def rxe_counter(self, name, dev="rxe0"):
        """An rxe hardware counter (sent_pkts, rcvd_pkts, ...)."""
        path = "/sys/class/infiniband/%s/ports/1/hw_counters/%s" % (dev, name)
        out = self.read(path)
        if out is None:
            raise LabError("%s: cannot read %s" % (self.name, path))
        return int(out)


class Job:
    def __init__(self, host, name, cmd):
        self.host = host
        self.name = name
        self.cmd = cmd

    def wait(self, timeout=120, check=True):
        d = self.host._request({"op": "wait", "job": self.name, "timeout": timeout},
                               timeout + 30)
        res = Result(d, self.cmd, self.host.name)
        if res.rc is None:
            res.timed_out = True
        self.host.lab.log("[%s] wait %s -> %s" % (self.host.name, self.name, res.rc))
        if check and (res.rc != 0 or res.timed_out):
            raise CommandFailed(res)
        return res

    def kill(self):
        d = self.host._request({"op": "kill", "job": self.name}, 30)
        return Result(d, self.cmd, self.host.name)


class Lab:
    """A running (or to-be-started) two-host lab in a run directory."""

    def __init__(self, rundir=None, wires=1, kernel=None, mem=1024, verbose=False):
        self.rundir = os.path.abspath(rundir or os.environ.get("LAB_DIR") or DEFAULT_RUNDIR)
        self.wires = wires
        self.kernel = kernel or os.environ.get("LAB_KERNEL") or installed_kernel()
        # per host: LAB_KERNEL_ALPHA, LAB_KERNEL_BETA (mixed kernels)
        self.kernels = {n: os.environ.get("LAB_KERNEL_" + n.upper()) or self.kernel
                        for n in HOSTS}
        self.mem = mem
        self.verbose = verbose
        self.hosts = []
        self.logfile = None
        self._console_pos = {}
        # hosts a test killed on purpose (kill_host): gone, but not a death
        self.killed = set()

    # -- state ---------------------------------------------------------
    @property
    def statefile(self):
        return os.path.join(self.rundir, "state.json")

    def log(self, msg):
        if self.logfile is None:
            os.makedirs(self.rundir, exist_ok=True)
            self.logfile = open(os.path.join(self.rundir, "commands.log"), "a")
        self.logfile.write("%.3f %s\n" % (time.time(), msg))
        self.logfile.flush()
        if self.verbose:
            print("# " + msg, file=sys.stderr)

    def _load_state(self):
        try:
            with open(self.statefile) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def _pids_alive(self, st):
        for h in st["hosts"]:
            try:
                os.kill(h["pid"], 0)
            except (ProcessLookupError, PermissionError):
                return False
        return True

    def attach(self):
        """Use the lab already running in the run dir; False if there is none."""
        st = self._load_state()
        if not st or not self._pids_alive(st):
            return False
        self.wires = st["wires"]
        self.kernel = st["kernel"]
        self.kernels = st.get("kernels", {n: self.kernel for n in HOSTS})
        self.killed = set(st.get("killed", []))
        self.hosts = [Host(self, h["name"], i, h["agent_port"])
                      for i, h in enumerate(st["hosts"])]
        self.state = st
        return True

    @property
    def alpha(self):
        return self.hosts[0]

    @property
    def beta(self):
        return self.hosts[1]

    def host(self, name):
        for h in self.hosts:
            if h.name == name:
                return h
        raise LabError("no host %s (have %s)" % (name, ", ".join(HOSTS)))

    # -- boot ----------------------------------------------------------
    def up(self, timeout=240):
        """Boot both hosts and wait for their agents; returns boot seconds."""
        if self.attach():
            raise LabError("a lab is already running in %s" % self.rundir)
        t0 = time.time()
        os.makedirs(self.rundir, exist_ok=True)
        boot = {}
        for k in set(self.kernels.values()):
            vmlinuz, moddir = kernel_files(k)
            boot[k] = (vmlinuz, build_initramfs(k, moddir), moddir)
        # Ports: per wire one UDP port per host; per host one agent TCP port.
        wire_ports = [(free_port(socket.SOCK_DGRAM), free_port(socket.SOCK_DGRAM))
                      for _ in range(self.wires)]
        agent_ports = [free_port(socket.SOCK_STREAM) for _ in HOSTS]
        st = {"kernel": self.kernel, "kernels": self.kernels, "wires": self.wires,
              "hosts": [], "started": t0}
        for i, name in enumerate(HOSTS):
            vmlinuz, initrd, moddir = boot[self.kernels[name]]
            args = self._qemu_args(i, name, vmlinuz, initrd, moddir, wire_ports,
                                   agent_ports[i])
            console = os.path.join(self.rundir, name + ".console")
            if os.path.exists(console):
                # keep the previous boot's log: a guest that died is examined later
                os.replace(console, console + ".prev")
            open(console, "w").close()
            with open(os.path.join(self.rundir, name + ".qemu.log"), "w") as qlog:
                p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=qlog,
                                     stderr=subprocess.STDOUT, start_new_session=True)
            st["hosts"].append({"name": name, "pid": p.pid, "agent_port": agent_ports[i],
                                "args": args})
        with open(self.statefile, "w") as f:
            json.dump(st, f, indent=1)
        self.state = st
        self.hosts = [Host(self, h["name"], i, h["agent_port"])
                      for i, h in enumerate(st["hosts"])]
        try:
            self._wait_ready(t0 + timeout)
        except LabError:
            self.down()
            raise
        return time.time() - t0

    def _qemu_args(self, i, name, vmlinuz, initrd, moddir, wire_ports, agent_port):
        mgmt_mac = "52:54:00:ff:00:%02x" % (i + 1)
        append = [
            "console=ttyS0", "loglevel=6", "panic=-1", "panic_on_warn=1",
            "oops=panic", "softlockup_panic=1", "hung_task_panic=1",
            "sysctl.kernel.hung_task_timeout_secs=60", "net.ifnames=0",
            "random.trust_cpu=on", "lab.host=" + name, "lab.wires=%d" % self.wires,
            "lab.mgmt_mac=" + mgmt_mac, "lab.repo=" + REPO, "lab.moddir=" + moddir,
        ]
        if LAB_MEMCHECK:
            append += MEMCHECK_ARGS
        if LAB_9P_CACHE:
            append.append("lab.9pcache=" + LAB_9P_CACHE)
        append += LAB_APPEND
        for w in range(self.wires):
            append.append("lab.addr%d=198.18.%d.%d/24" % (w, w, i + 1))
        args = [LAB_QEMU]
        for d in LAB_QEMU_DATA:
            args += ["-L", d]
        args += [
            "-accel", "tcg", "-cpu", LAB_CPU, "-smp", LAB_SMP,
            "-m", str(self.mem), "-nodefaults", "-no-reboot", "-display", "none",
            "-kernel", vmlinuz, "-initrd", initrd, "-append", " ".join(append),
            "-serial", "file:" + os.path.join(self.rundir, name + ".console"),
            "-virtfs", "local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap",
            "-fsdev", "local,id=repo,path=%s,security_model=none,readonly=on,multidevs=remap"
            % REPO,
            "-device", "virtio-9p-pci,fsdev=repo,mount_tag=repo,addr=0x9",
            "-device", "virtio-rng-pci",
        ]
        if LAB_PLUGIN:
            args += ["-plugin", self._plugin_arg(name)]
        for w, (pa, pb) in enumerate(wire_ports):
            mine, peer = (pa, pb) if i == 0 else (pb, pa)
            args += ["-netdev", "socket,id=w%d,udp=127.0.0.1:%d,localaddr=127.0.0.1:%d"
                     % (w, peer, mine),
                     "-device", "virtio-net-pci,netdev=w%d,mac=52:54:00:5c:%02x:%02x,addr=0x%x"
                     % (w, w, i + 1, 4 + w)]
        args += ["-netdev", "user,id=mgmt,restrict=on,net=198.19.0.0/24,"
                 "hostfwd=tcp:127.0.0.1:%d-%s:%d" % (agent_port, GUEST_MGMT_IP, AGENT_PORT),
                 "-device", "virtio-net-pci,netdev=mgmt,mac=%s,addr=0x8" % mgmt_mac]
        return args

    def _plugin_arg(self, name):
        """LAB_PLUGIN's -plugin argument for host @name: a fresh control
        FIFO, and no dump of an earlier boot left to be taken for this one's."""
        prefix = prof_prefix(self.rundir, name)
        for f in glob.glob(glob.escape(prefix) + ".*"):
            os.unlink(f)
        os.mkfifo(prefix + ".ctl")
        return "%s,out=%s,ctl=%s" % (os.path.abspath(LAB_PLUGIN), prefix, prefix + ".ctl")

    def _wait_ready(self, deadline):
        pending = list(self.hosts)
        while pending:
            for h in list(pending):
                dead = self.dead_hosts()
                if dead:
                    raise LabError("host %s died while booting:\n%s"
                                   % (dead[0], self.console_tail(dead[0])))
                tail = self.console_tail(h.name, 400)
                if "lab-init: FATAL" in tail:
                    raise LabError("%s failed to boot:\n%s" % (h.name, self.console_tail(h.name)))
                try:
                    st = h.ping(timeout=5)
                except (LabError, OSError, ValueError):
                    continue
                if st.get("setup") != "ok":
                    if st.get("setup", "").startswith("failed"):
                        raise LabError("%s: guest setup %s\n%s" % (
                            h.name, st["setup"], self.console_tail(h.name)))
                    continue
                pending.remove(h)
            if pending:
                if time.time() > deadline:
                    raise LabError("hosts %s not ready in time:\n%s" % (
                        ",".join(h.name for h in pending),
                        self.console_tail(pending[0].name)))
                time.sleep(0.5)

    def dead_hosts(self):
        dead = []
        for h in self.state["hosts"]:
            try:
                pid, _ = os.waitpid(h["pid"], os.WNOHANG)
                if pid:
                    dead.append(h["name"])
                    continue
            except ChildProcessError:
                pass
            try:
                os.kill(h["pid"], 0)
            except ProcessLookupError:
                dead.append(h["name"])
        return dead

    def unexpected_dead(self):
        """The hosts that died, without those a test killed (kill_host)."""
        return [n for n in self.dead_hosts() if n not in self.killed]

    def kill_host(self, name):
        """Kill a guest's QEMU at once (SIGKILL), as a crash or power loss of
        that host looks to its peer; for fault tests.  The host is recorded
        as killed (also in the state file), so the runner does not report it
        as a kernel death, checks and tears down only the other host, and
        boots a fresh lab for the next test."""
        st = self._load_state() or self.state
        for h in st["hosts"]:
            if h["name"] != name:
                continue
            self.killed.add(name)
            st["killed"] = sorted(self.killed)
            with open(self.statefile, "w") as f:
                json.dump(st, f, indent=1)
            self.state = st
            self.log("[%s] killed (QEMU pid %d)" % (name, h["pid"]))
            _kill_qemu(h["pid"], wait_gone=True)
            return
        raise LabError("no host %s to kill" % name)

    def console_tail(self, name, lines=40):
        try:
            with open(os.path.join(self.rundir, name + ".console"), errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def down(self):
        st = self._load_state() or getattr(self, "state", None)
        if not st:
            return
        for h in st["hosts"]:
            _kill_qemu(h["pid"])
        try:
            os.unlink(self.statefile)
        except OSError:
            pass

    # -- kernel log checking -------------------------------------------
    def mark_consoles(self):
        """Remember where each console log ends, to check only what follows."""
        for h in self.hosts:
            try:
                self._console_pos[h.name] = os.path.getsize(h.console)
            except OSError:
                self._console_pos[h.name] = 0

    def console_since_mark(self, name):
        with open(os.path.join(self.rundir, name + ".console"), "rb") as f:
            f.seek(self._console_pos.get(name, 0))
            return f.read().decode("utf-8", "replace")

    def kernel_problems(self):
        """Lines since mark_consoles() that betray a kernel problem, per host."""
        bad = {}
        for h in self.hosts:
            text = self.console_since_mark(h.name)
            lines = [ln for ln in text.splitlines() if KERNEL_BAD.search(ln)]
            if lines:
                bad[h.name] = lines
        return bad
