# SPDX-License-Identifier: GPL-2.0
"""The Debian packages as a user gets them: smcx-dkms and smcx-tools
installed, used on the lab kernel, purged.

The guests run the host's root read-only (9p) with tmpfs on /var/lib and the
other writable places, so the packages are installed into an overlay whose
lower layer is the host's root itself, with its real /var/lib/dpkg.  dpkg
and DKMS do not run in the guest: under TCG over 9p its depmod alone took
7 minutes (2026-12-02), and DKMS compiling there would take longer still.

1. host: `make deb` (nothing to do when build/deb is current).
2. host: smcx.ko for the lab kernel, built by DKMS from the smcx-dkms
   package's own source in a private DKMS tree (a private mount namespace
   with a tmpfs on /var/lib/dkms; nothing of the host changes) and packed
   as a binaries-only DKMS tarball (`dkms mktarball --binaries-only`);
   cached in build/pkgtest/cache by the packaged source (names and
   contents of its files) and the kernel.
3. host: in a private mount namespace, an overlay with the host's root as
   lower layer and build/pkgtest/run.XXXX/upper as upper layer; the tarball
   goes where the DKMS hook of smcx-dkms looks for a prebuilt module
   (/usr/share/smcx-dkms/smcx-VERSION.dkms.tar.gz, dkms' common.postinst),
   then `dpkg -i` of both packages in a chroot: smcx-dkms' postinst loads
   the tarball and runs `dkms install` and depmod for the lab kernel (the
   very path of a DKMS build minus the compiler), smcx-tools' files land,
   man-db's trigger runs.  The host's root is never written.
4. alpha: that upper layer (packed into one file: 9p under TCG is slow per
   byte and per file) unpacked into a tmpfs and mounted over the guest's
   root (the 9p root itself: below it the host's /var/lib/dpkg), with
   /proc, /sys, a /dev, /run and /tmp of its own; the kernel's module
   loader (kernel.modprobe) runs that root's modprobe, as on a machine with
   the packages installed (restored afterwards).  All guest checks run in
   one python process (DRIVER, selftests/tools/pkg_driver.py); the results
   are judged on the host:
   - with nothing loaded, socket(AF_SMC), socket(AF_INET, SOCK_STREAM,
     IPPROTO_SMC), and resolving the genl families SMC_GEN_NETLINK and
     SMC_PNETID each load smcx, and neither smc nor smc_diag (all unloaded
     between);
   - sock_diag: the kernel asks for a diag module only for a registered
     family (sock_load_diag_module()), so an AF_SMC dump with nothing loaded
     loads nothing (ENOENT); after socket(AF_SMC) loaded smcx the dump is
     answered, and smc_diag stays out;
   - a modprobe.d option (ueid=) takes effect on an autoload: smcx's
     parameter and `smcr ueid` show it;
   - `sysctl --system` reads /usr/lib/sysctl.d/50-smcx.conf, and a copy in
     /etc/sysctl.d with its examples enabled sets each net.smc value that
     had been changed back to the example's;
   - smcss, smcss --help, man -w smcss and man smcss from the package.
   After the guest part, alpha loads the module DKMS installed (from the
   upper layer; its srcversion must be the running one's) and moves a 1 MiB
   duplex stream to smcx on beta, verified byte for byte, over SMC-R (rxe0
   packets both ways): on a 6.1 guest (make check-6.1) that is a default
   Debian 12 moving data with the packages it installed.
5. host: `dpkg --purge` of both in the same overlay, then nothing of them is
   left in the upper layer: no new directory, no file or link named smcx,
   nothing beside dpkg's, debconf's, man-db's and the logs' state, and
   depmod's output equal to the kernel's own again (for a kernel whose
   modules the host does not have, a 6.1 guest's, naming no smcx).  (The tarball of step 3
   is the test's and removed before.)
"""
import hashlib
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import tarfile
import tempfile
import time

import scenarios
import smcxlab
import stacks

TIER = "main"
# make deb (~4 min when stale) + the prebuilt module (~2 min when not
# cached) + install, checks and purge (~4 min under load)
TIMEOUT = 1200
COST = 147

PACKAGES = ("smcx-dkms", "smcx-tools")
STREAM_PORT = 6720
STREAM_BYTES = 1 << 20
GUEST_WORK = "/tmp/smcx-pkg"
GROOT = GUEST_WORK + "/root"
TEST_UEID = "SMCX-PKGTEST-UEID"
# a root login's environment, nothing of the agent's
CHROOT_ENV = ("env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "
              "HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive")

# The chroot's mounts: /proc, /sys, a /dev of the usual nodes (the guest's
# devtmpfs has no /dev/fd, which DKMS' bash needs), fresh /run and /tmp.
MOUNT_CHROOT = r"""
mount -t proc proc "$R/proc"
mount --bind /sys "$R/sys"
mount -t tmpfs -o mode=755 tmpfs "$R/dev"
for d in null zero full random urandom tty; do
	touch "$R/dev/$d"
	mount --bind "/dev/$d" "$R/dev/$d"
done
mkdir "$R/dev/pts"
mount --bind /dev/pts "$R/dev/pts"
ln -s /proc/self/fd "$R/dev/fd"
ln -s fd/0 "$R/dev/stdin"; ln -s fd/1 "$R/dev/stdout"; ln -s fd/2 "$R/dev/stderr"
mount -t tmpfs -o mode=755 tmpfs "$R/run"
mount -t tmpfs -o mode=1777 tmpfs "$R/tmp"
"""

# host, in `unshare -m`: the overlay over the host's root, the chroot, then
# the action ($ACTION: install or purge).  Mounts end with the namespace.
HOST_DPKG = r"""
set -eu
D=$1 ACTION=$2
R=$D/root
mkdir -p "$D/upper" "$D/work" "$R"
mount -t overlay smcx-pkgtest -o "lowerdir=/,upperdir=$D/upper,workdir=$D/work" "$R"
test -s "$R/var/lib/dpkg/status" || { echo "no dpkg database below the overlay" >&2; exit 1; }
""" + MOUNT_CHROOT + r"""
in_root() { chroot "$R" """ + CHROOT_ENV + r""" "$@"; }
case $ACTION in
install)
	cp "$D"/debs/*.deb "$R/tmp/"
	mkdir -p "$R/usr/share/smcx-dkms"
	cp "$D/prebuilt.dkms.tar.gz" "$R/usr/share/smcx-dkms/smcx-$3.dkms.tar.gz"
	in_root dpkg -i $(cd "$R/tmp" && ls *.deb | sed 's,^,/tmp/,')
	in_root dpkg-query -W smcx-dkms smcx-tools
	;;
purge)
	rm -f "$R/usr/share/smcx-dkms/smcx-$3.dkms.tar.gz"
	rmdir "$R/usr/share/smcx-dkms" 2>/dev/null || true
	in_root dpkg --purge smcx-tools smcx-dkms
	;;
esac
"""

# host, in `unshare -m`: smcx.ko for $KVER from the package's source, in a
# private DKMS tree, packed binaries-only.
HOST_PREBUILD = r"""
set -eu
SRC=$1 VER=$2 KVER=$3 OUT=$4
mount -t tmpfs tmpfs /var/lib/dkms
dkms add -m smcx -v "$VER" --sourcetree "$SRC"
dkms build -m smcx -v "$VER" -k "$KVER" --sourcetree "$SRC"
dkms mktarball -m smcx -v "$VER" -k "$KVER" --sourcetree "$SRC" --binaries-only --archive "$OUT"
"""

# guest: the installed state over the guest's root, the module loader on it
GUEST_SETUP = r"""
set -eu
W=""" + GUEST_WORK + r"""
R=$W/root
mkdir -p "$W/upper" "$W/work" "$W/lower" "$R"
# the upper layer of the host's install, packed: one file over 9p
tar -C "$W/upper" --xattrs --xattrs-include='*' -xzpf "$1"
# the root mount alone: the 9p root, without the guest's tmpfs mounts
mount --bind / "$W/lower"
mount -t overlay smcx-pkg -o "lowerdir=$W/lower,upperdir=$W/upper,workdir=$W/work" "$R"
""" + MOUNT_CHROOT + r"""
cat /proc/sys/kernel/modprobe >"$W/modprobe.saved"
# the kernel runs its helper in the guest's initramfs root, where this root
# is /host$R (scripts/lab: lab-init chroots into /host)
printf '#!/bin/sh\nexec /bin/chroot /host%s /sbin/modprobe "$@"\n' "$R" >"$W/modprobe"
chmod 755 "$W/modprobe"
echo "/host$W/modprobe" >/proc/sys/kernel/modprobe
"""

GUEST_TEARDOWN = r"""
W=""" + GUEST_WORK + r"""
[ -e "$W" ] || exit 0
if [ -s "$W/modprobe.saved" ]; then
	cat "$W/modprobe.saved" >/proc/sys/kernel/modprobe
fi
awk -v w="$W" '$5 == w || index($5, w "/") == 1 { print $5 }' /proc/self/mountinfo |
	tac | while read -r m; do umount "$m" || umount -l "$m"; done
rm -rf "$W"
"""

# guest: the actions (trigger, sh, write, rm, read, perturb; see its
# docstring) in one python run, one JSON result per action
DRIVER = "selftests/tools/pkg_driver.py"


EXAMPLE_LINE = re.compile(r"^\s*#?\s*(net\.smc\.[A-Za-z0-9_.]+)\s*=\s*(\S+)\s*$")


def sh(cmd, timeout=600, **kw):
    """A host command; returns the CompletedProcess (text, output captured)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, **kw)


def tail(r, n=40):
    return "\n".join((r.stdout + r.stderr).rstrip().splitlines()[-n:])


def version_h(repo):
    with open(os.path.join(repo, "include", "smcx", "version.h")) as f:
        return re.search(r'#define SMCX_VERSION "([^"]+)"', f.read()).group(1)


def build_debs(t):
    r = sh(["make", "-C", t.repo, "deb"], timeout=900)
    t.check(r.returncode == 0, "make deb:\n" + tail(r))
    debdir = os.path.join(t.repo, "build", "deb")
    debs = {}
    for name in os.listdir(debdir):
        if name.endswith(".deb"):
            debs[name.split("_")[0]] = os.path.join(debdir, name)
    t.eq(sorted(debs), sorted(PACKAGES), "packages in build/deb")
    return debs


def source_key(dkms_deb, kver):
    """A key for the module built from the package: its /usr/src files'
    names and contents (a rebuilt .deb differs in timestamps only) and the
    kernel."""
    h = hashlib.sha256(kver.encode())
    r = subprocess.run(["dpkg-deb", "--fsys-tarfile", dkms_deb], capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(r.stdout)) as tar:
        for m in sorted(tar.getmembers(), key=lambda m: m.name):
            if m.isfile() and "/usr/src/" in "/" + m.name.lstrip("./"):
                h.update(m.name.encode() + b"\0" + tar.extractfile(m).read())
    return h.hexdigest()[:16]


def prebuilt(t, dkms_deb, ver, kver):
    """The binaries-only DKMS tarball of smcx for kver (step 2), cached."""
    key = source_key(dkms_deb, kver)
    cache = os.path.join(t.repo, "build", "pkgtest", "cache")
    out = os.path.join(cache, "smcx-%s-%s-%s.dkms.tar.gz" % (ver, kver, key))
    if os.path.exists(out):
        t.log("prebuilt module for %s: cached %s" % (kver, os.path.basename(out)))
        return out
    os.makedirs(cache, exist_ok=True)
    work = tempfile.mkdtemp(prefix="prebuild.", dir=cache)
    try:
        r = sh(["dpkg-deb", "-x", dkms_deb, os.path.join(work, "root")])
        t.check(r.returncode == 0, "dpkg-deb -x smcx-dkms:\n" + tail(r))
        src = os.path.join(work, "root", "usr", "src")
        tmp = os.path.join(work, "smcx.dkms.tar.gz")
        r = sh(["unshare", "-m", "bash", "-c", HOST_PREBUILD, "prebuild", src, ver, kver, tmp],
               timeout=900)
        t.check(r.returncode == 0 and os.path.exists(tmp),
                "DKMS build of smcx for %s from the package's source:\n%s" % (kver, tail(r)))
        os.replace(tmp, out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    t.log("prebuilt module for %s: built by DKMS into %s" % (kver, os.path.basename(out)))
    return out


def host_dpkg(t, run_dir, action, ver):
    r = sh(["unshare", "-m", "bash", "-c", HOST_DPKG, "dpkg", run_dir, action, ver])
    t.log("host overlay, dpkg %s: rc %d\n%s" % (action, r.returncode, tail(r, 25)))
    t.check(r.returncode == 0, "dpkg %s of %s in the overlay" % (action, ", ".join(PACKAGES)))


def drive(a, actions, timeout=600):
    """Run the actions on the guest (DRIVER); their results, in order."""
    r = a.run("python3 %s %s %s" % (os.path.join(smcxlab.REPO, DRIVER), GROOT,
                                    shlex.quote(CHROOT_ENV)),
              input=json.dumps(actions), timeout=timeout)
    res = json.loads(r.out.strip().splitlines()[-1])
    assert len(res) == len(actions)
    return res


def no_error(t, res, what):
    if "error" in res:
        t.check(False, "%s: %s" % (what, res["error"]))
    return res


# the ways in: each must load smcx, and neither smc nor smc_diag
AUTOLOAD = (("afsmc", "socket(AF_SMC)"),
            ("ipproto", "socket(AF_INET, SOCK_STREAM, IPPROTO_SMC)"),
            ("genl:SMC_GEN_NETLINK", "resolving the genl family SMC_GEN_NETLINK"),
            ("genl:SMC_PNETID", "resolving the genl family SMC_PNETID"))


def check_loaded(t, res, label):
    no_error(t, res, label)
    t.eq(res["before"], [], "modules of smcx, smc_diag, smc loaded before %s" % label)
    errs = [e for e in res["errors"] if e]
    t.check(res["after"] == ["smcx"],
            "%s loads smcx and nothing else of smcx/smc_diag/smc: loaded %s%s"
            % (label, ", ".join(res["after"]) or "nothing",
               "; the calls failed: %s" % errs if errs else ""))
    t.check(not errs, "%s succeeds once smcx is loaded: %s" % (label, errs))


def check_diag(t, alone, after_socket):
    """sock_diag: the kernel loads a diag module only for a family that is
    registered (sock_load_diag_module(), since 4.18), so a dump with nothing
    loaded loads nothing; after socket(AF_SMC) smcx answers it itself."""
    no_error(t, alone, "sock_diag dump")
    t.eq(alone["before"], [], "modules loaded before the sock_diag dump")
    t.check(alone["after"] == [] and alone["errors"] == ["No such file or directory (errno 2)"],
            "an AF_SMC sock_diag dump with nothing loaded loads nothing and fails with ENOENT:"
            " loaded %s, %s" % (alone["after"], alone["errors"]))
    check_loaded(t, after_socket, "socket(AF_SMC), then an AF_SMC sock_diag dump")


def sysctl_example(upper):
    """The net.smc settings of the package's sysctl.d file (commented or not)
    and its text."""
    example = os.path.join(upper, "usr/lib/sysctl.d/50-smcx.conf")
    if not os.path.exists(example):
        return None, {}
    with open(example) as f:
        text = f.read()
    settings = {}
    for line in text.splitlines():
        m = EXAMPLE_LINE.match(line)
        if m:
            settings[m.group(1)] = m.group(2)
    return text, settings


def sysctl_actions(text, settings):
    """With smcx loaded: sysctl --system reads the package's file; each example
    setting changed to another value; the example enabled as the local copy
    in /etc/sysctl.d (docs/install.md); sysctl --system; the values read."""
    system = "sysctl --system --pattern '^net\\.smc\\.'"
    enabled = re.sub(r"(?m)^\s*#\s*(net\.smc\.[A-Za-z0-9_.]+\s*=)", r"\1", text)
    etc = GROOT + "/etc/sysctl.d/50-smcx.conf"
    return [["trigger", "afsmc"], ["sh", system, True], ["perturb", settings],
            ["write", etc, enabled], ["sh", system, True]] + \
        [["read", "/proc/sys/" + k.replace(".", "/")] for k in sorted(settings)] + [["rm", etc]]


def check_applies(t, res, path):
    r = no_error(t, res, "sysctl --system")
    t.check(r["rc"] == 0 and path in r["out"],
            "sysctl --system applies %s (rc %d):\n%s%s" % (path, r["rc"], r["out"], r["err"]))


def check_sysctl(t, text, settings, res):
    t.check(text is not None, "smcx-tools installs /usr/lib/sysctl.d/50-smcx.conf")
    t.check(settings, "50-smcx.conf names net.smc settings (commented examples)")
    check_loaded(t, res[0], "socket(AF_SMC)")
    check_applies(t, res[1], "/usr/lib/sysctl.d/50-smcx.conf")
    changed = no_error(t, res[2], "changing the net.smc settings")
    t.log("net.smc settings changed before sysctl --system: %s" % changed)
    moved = sorted(k for k, v in changed.items() if v["set"] is not None)
    t.check(moved, "at least one net.smc setting of the example can be changed")
    no_error(t, res[3], "writing /etc/sysctl.d/50-smcx.conf")
    check_applies(t, res[4], "/etc/sysctl.d/50-smcx.conf")
    values = dict(zip(sorted(settings), res[5:-1]))
    for key in moved:
        got = no_error(t, values[key], "reading %s" % key)["text"]
        t.eq(" ".join(got.split()), settings[key], "%s after sysctl --system" % key)
    no_error(t, res[-1], "removing /etc/sysctl.d/50-smcx.conf")


TOOLS = [["sh", "smcss", True], ["sh", "smcss --help", True], ["sh", "man -w smcss", True],
         ["sh", "MANWIDTH=80 MANPAGER=cat man smcss", True]]


def check_tools(t, res):
    smcss, helptext, where, page = (no_error(t, r, "smcss or man") for r in res)
    t.check(smcss["rc"] == 0 and smcss["out"].startswith("State"),
            "smcss from the package (rc %d): %s%s"
            % (smcss["rc"], smcss["out"][:300], smcss["err"][-300:]))
    t.check(helptext["rc"] == 0 and "Usage: smcss" in helptext["out"],
            "smcss --help (rc %d): %s" % (helptext["rc"], (helptext["out"] + helptext["err"])[:300]))
    t.eq(where["out"].strip(), "/usr/share/man/man8/smcss.8.gz",
         "man -w smcss (%s)" % where["err"].strip())
    t.check(page["rc"] == 0 and re.search(r"(?m)^NAME", page["out"]) and "smcss" in page["out"],
            "man smcss renders the page (rc %d): %s%s"
            % (page["rc"], page["out"][:300], page["err"][-300:]))


# What dpkg, debconf, man-db and the logs keep of a package that was
# installed and purged, and DKMS's own module-signing key, which DKMS makes
# the first time it builds any module on a machine and keeps for every later
# one (so it is there after a first install on a fresh machine, and already
# in the lower layer on a used one): the rest of the upper layer must be
# empty.
STATE_KEPT = re.compile(
    r"^(var/lib/dkms/mok\.(key|pub)"
    r"|var/lib/dpkg/(status|status-old|available|lock|lock-frontend|triggers/[^/]+)"
    r"|var/log/(dpkg\.log|alternatives\.log|apt/[^/]+)"
    r"|var/cache/debconf/[^/]+\.dat(-old)?"
    r"|var/cache/man/.+)$")
DEPMOD_OUT = re.compile(r"^usr/lib/modules/[^/]+/modules\.[a-z.]+$")


def leftovers(upper):
    """What the purged packages left: in the upper layer, against the host's
    root as the lower layer."""
    left = []
    for dirpath, dirnames, filenames in os.walk(upper):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, upper)
            st = os.lstat(path)
            lower = os.path.join("/", rel)
            if (st.st_mode & 0o170000) == 0o020000 and st.st_rdev == 0:
                left.append("removed from the root: /" + rel)
            elif os.path.isdir(path) and not os.path.islink(path):
                if not os.path.lexists(lower):
                    left.append("new directory: /" + rel)
            elif "smcx" in name:
                left.append("file: /" + rel)
            elif DEPMOD_OUT.match(rel) and not os.path.lexists(lower):
                # a kernel the host has only the headers of (a guest's
                # 6.1 from the lab cache): depmod wrote its first index;
                # it must not name smcx
                with open(path, "rb") as a:
                    if b"smcx" in a.read():
                        left.append("depmod output names smcx: /" + rel)
            elif DEPMOD_OUT.match(rel):
                with open(path, "rb") as a, open(lower, "rb") as b:
                    if a.read() != b.read():
                        left.append("depmod output differs from the kernel's: /" + rel)
            elif not STATE_KEPT.match(rel):
                left.append("changed: /" + rel)
    return sorted(left)


def packaged_stream(t, mods):
    """The module DKMS built and installed (in the upper layer, @mods)
    loaded on alpha, smcx on beta: a 1 MiB duplex stream alpha -> beta,
    verified byte for byte, over SMC-R (rxe0 packets both ways)."""
    a, b = t.alpha, t.beta
    ko = os.path.join(mods, sorted(n for n in os.listdir(mods) if n.startswith("smcx.ko"))[0])
    for h in (a, b):
        stacks.clear(h)
    a.run("insmod %s" % ko)
    t.eq(a.out("cat /sys/module/smcx/srcversion").strip(),
         a.out("modinfo -F srcversion %s" % ko).strip(),
         "alpha runs the module DKMS installed (srcversion)")
    b.insmod_smcx()
    before = scenarios.rxe_snapshot((a, b))
    sres, cres = scenarios.xfer(b, a, family="smc", port=STREAM_PORT, nbytes=STREAM_BYTES,
                                mode="duplex", timeout=120)
    moved = scenarios.rxe_delta((a, b), before)
    t.eq(scenarios.verified(cres), {("0", "tx"), ("0", "rx")}, "client moved and verified")
    t.eq(scenarios.verified(sres), {("0", "tx"), ("0", "rx")}, "server moved and verified")
    # 1 MiB each way is 256 packets or more at the largest RoCE MTU
    for k in sorted(moved):
        t.check(moved[k] >= 256, "%s rxe0 %s +%d: the data went over RDMA"
                % (k[0], k[1], moved[k]))
    for h in (a, b):
        stacks.clear(h)


def run(t):
    a = t.alpha
    ver = version_h(t.repo)
    for tool in ("dkms", "dpkg-deb", "unshare"):
        t.check(shutil.which(tool), "%s on the host (scripts/setup)" % tool)
    debs = build_debs(t)
    tarball = prebuilt(t, debs["smcx-dkms"], ver, t.alpha.kernel)

    base = os.path.join(t.repo, "build", "pkgtest")
    run_dir = tempfile.mkdtemp(prefix="run.", dir=base)
    upper = os.path.join(run_dir, "upper")
    try:
        os.makedirs(os.path.join(run_dir, "debs"))
        for p in PACKAGES:
            shutil.copy(debs[p], os.path.join(run_dir, "debs"))
        shutil.copy(tarball, os.path.join(run_dir, "prebuilt.dkms.tar.gz"))
        host_dpkg(t, run_dir, "install", ver)
        mods = os.path.join(upper, "usr/lib/modules", t.alpha.kernel, "updates/dkms")
        t.check(os.path.isdir(mods) and any(n.startswith("smcx.ko") for n in os.listdir(mods)),
                "DKMS installed smcx.ko into /lib/modules/%s/updates/dkms" % t.alpha.kernel)
        r = sh(["tar", "-C", upper, "--xattrs", "--xattrs-include=*", "-czf", upper + ".tar.gz",
                "."])
        t.check(r.returncode == 0, "packing the installed state:\n" + tail(r))

        text, settings = sysctl_example(upper)
        options = GROOT + "/etc/modprobe.d/smcx-pkgtest.conf"
        actions = [["trigger", what] for what, _ in AUTOLOAD]
        actions += [["trigger", "diag"], ["trigger", "afsmc", "diag"]]
        actions += [["write", options, "options smcx ueid=%s\n" % TEST_UEID],
                    ["trigger", "afsmc"], ["rm", options],
                    ["read", "/sys/module/smcx/parameters/ueid"], ["sh", "smcr ueid", True]]
        actions += sysctl_actions(text, settings) if settings else []
        actions += TOOLS
        t_guest = time.time()
        try:
            a.run("bash -s %s" % shlex.quote(upper + ".tar.gz"), input=GUEST_SETUP, timeout=300)
            t.log("installed state over alpha's root in %.0f s" % (time.time() - t_guest))
            res = drive(a, actions)
        finally:
            r = a.run("bash -s", input=GUEST_TEARDOWN, check=False, timeout=120)
            t.check(r.rc == 0, "guest teardown: %s" % r.err)
            t.log("guest part: %.0f s" % (time.time() - t_guest))

        for (what, label), r in zip(AUTOLOAD, res):
            with t.subtest("autoload by %s" % label):
                check_loaded(t, r, label)
        res = res[len(AUTOLOAD):]
        with t.subtest("sock_diag: nothing loads alone, smcx answers after socket(AF_SMC)"):
            check_diag(t, res[0], res[1])
        res = res[2:]
        with t.subtest("a modprobe.d option (ueid=) takes effect on autoload"):
            check_loaded(t, res[1], "socket(AF_SMC) with 'options smcx ueid=' in modprobe.d")
            param = no_error(t, res[3], "smcx's ueid parameter")["text"].strip()
            t.eq(param, TEST_UEID, "smcx's ueid parameter")
            r = no_error(t, res[4], "smcr ueid")
            t.check(r["rc"] == 0 and TEST_UEID in r["out"],
                    "smcr ueid lists the EID of the option: %s%s" % (r["out"], r["err"]))
        res = res[5:]
        with t.subtest("sysctl --system applies the sysctl.d file"):
            check_sysctl(t, text, settings, res[:-len(TOOLS)] if settings else [])
        with t.subtest("smcss and man smcss from the package"):
            check_tools(t, res[-len(TOOLS):])

        with t.subtest("the packaged module moves a verified stream over SMC-R"):
            packaged_stream(t, mods)

        with t.subtest("purge leaves nothing behind"):
            host_dpkg(t, run_dir, "purge", ver)
            left = leftovers(upper)
            t.check(not left, "the purged packages left:\n  " + "\n  ".join(left))
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
