# SPDX-License-Identifier: GPL-2.0
"""smcx's control plane: the SMC_PNETID and SMC_GEN_NETLINK families, the
user EID table, RDMA device tracking.

smcx.ko runs on alpha; where mainline behaviour is the reference, the same
command sequence runs against the in-tree smc.ko on beta and the outputs
must be identical.  Cases the user tools refuse to send go through
selftests/tools/genlreq.py (one raw request, JSON answer); robustness
through build/tools/nlfuzz.  The runner adds: no kernel warning on either
console, smcx objects at zero, module unloadable.
"""
import json
import os
import re
import shlex
import time

TIMEOUT = 600
COST = 52

NOBODY = "setpriv --reuid=nobody --regid=nogroup --clear-groups "
DBG = "/sys/kernel/debug/smcx"

# SMC_PNETID commands and attributes (include/uapi/linux/smc.h)
PNET_GET, PNET_ADD, PNET_DEL, PNET_FLUSH = 1, 2, 3, 4
P_NAME, P_ETH, P_IB, P_PORT = 1, 2, 3, 4
# SMC_GEN_NETLINK commands
(GET_SYS_INFO, GET_LGR_SMCR, GET_LINK_SMCR, GET_LGR_SMCD, GET_DEV_SMCD,
 GET_DEV_SMCR, GET_STATS, GET_FBACK_STATS, DUMP_UEID, ADD_UEID, REMOVE_UEID,
 FLUSH_UEID, DUMP_SEID, ENABLE_SEID, DISABLE_SEID, DUMP_HS, ENABLE_HS,
 DISABLE_HS) = range(1, 19)

EPERM, ENOENT, EEXIST, EINVAL, ERANGE, EOPNOTSUPP = 1, 2, 17, 22, 34, 95

PNET_SEQ = """
smc_pnet
smc_pnet -a net1 -I eth0
smc_pnet -a NET1 -I eth0
smc_pnet -a net7 -I eth0
smc_pnet -a net2 -D rxe0 -P 1
smc_pnet -a net2 -D rxe0 -P 1
smc_pnet -a net3 -D rxe0 -P 2
smc_pnet -a net4 -I nosuchdev
smc_pnet -a net4 -D nosuchib
smc_pnet -a net5 -I eth0 -D rxe0
smc_pnet -a net6 -I lo -D rxe0
smc_pnet
smc_pnet --json
smc_pnet -s net4
smc_pnet -s net9
smc_pnet -d net9
smc_pnet -d net1
smc_pnet
smc_pnet -f
smc_pnet -f
smc_pnet
"""

UEID_SEQ = """
smcr ueid
smcr ueid add eid-one
smcr ueid add EID-ONE
smcr ueid add EID.TWO
smcr ueid add 3EID
smcr ueid add 4EID
smcr ueid add 5EID
smcr ueid
smcr ueid del 7EID
smcr ueid del EID.TWO
smcr ueid
smcr ueid add 5EID
smcr --json ueid
smcr ueid flush
smcr ueid flush
smcr ueid
"""


def run_seq(h, tooldir, seq):
    """Run each line of @seq with the tools on PATH; a transcript."""
    script = "export PATH=%s:$PATH\n" % tooldir
    for line in seq.strip().splitlines():
        script += "echo %s; %s 2>&1; echo rc=$?\n" % (shlex.quote("$ " + line), line)
    return h.run("bash -s", input=script).out


def genl(h, fam, cmd, *attrs, dump=False, user=False, repo=None):
    cmdline = "%spython3 %s/selftests/tools/genlreq.py %s %d %s %s" % (
        NOBODY if user else "", repo, fam, cmd, "--dump" if dump else "",
        " ".join(shlex.quote(a) for a in attrs))
    return json.loads(h.out(cmdline))


class GenlBatch:
    """Requests for one genlreq.py --batch process on a host: Python starts
    once instead of once per request (seconds each under emulation).  add()
    returns a dict that run() fills with the answer."""

    def __init__(self, h, repo, user=False, netns=None):
        self.h, self.repo = h, repo
        self.prefix = (NOBODY if user else "") + ("ip netns exec %s " % netns if netns else "")
        self.reqs = []

    def add(self, fam, cmd, *attrs, dump=False):
        r = {}
        args = [fam, str(cmd)] + (["--dump"] if dump else []) + list(attrs)
        self.reqs.append((" ".join(shlex.quote(x) for x in args), r))
        return r

    def run(self):
        out = self.h.run("%spython3 %s/selftests/tools/genlreq.py --batch"
                         % (self.prefix, self.repo),
                         input="".join(line + "\n" for line, _ in self.reqs), check=False)
        answers = out.out.splitlines()
        if len(answers) != len(self.reqs):
            raise AssertionError("genlreq --batch answered %d of %d requests: %s"
                                 % (len(answers), len(self.reqs), out.describe()))
        for (_, r), ans in zip(self.reqs, answers):
            r.update(json.loads(ans))
        self.reqs = []


def attrs_of(msg):
    return {t: bytes.fromhex(v) for t, v in msg["attrs"]}


def config(h):
    out = h.out("cat %s/config" % DBG)
    return {k: int(v) for k, v in (ln.split() for ln in out.splitlines())}


def devices(h):
    """debugfs devices: {(dev, port): line fields}."""
    out = h.out("cat %s/devices" % DBG)
    return {(ln.split()[0], ln.split()[1]): ln.split()
            for ln in out.splitlines() if ln and not ln.startswith("#")}


def route(h, query):
    h.run("echo %s > %s/route" % (shlex.quote(query), DBG), check=False)
    return h.out("cat %s/route" % DBG)


def wait_for(what, fn, timeout=30):
    deadline = time.time() + timeout
    while True:
        v = fn()
        if v:
            return v
        if time.time() > deadline:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.5)


def run(t):
    a, b = t.alpha, t.beta
    tools = os.path.dirname(t.tool())
    repo = t.repo
    fuzz = os.path.join(repo, "build", "tools", "nlfuzz")
    t.check(os.path.exists(fuzz), "nlfuzz is built")

    def g(cmd, *attrs, **kw):
        return genl(a, kw.pop("fam", "SMC_GEN_NETLINK"), cmd, *attrs, repo=repo, **kw)

    def pnet(cmd, *attrs, **kw):
        return genl(a, "SMC_PNETID", cmd, *attrs, repo=repo, **kw)

    def clean():
        """Start a subtest from an empty pnet table, whatever came before."""
        if a.loaded("smcx"):
            a.run("%s/smc_pnet -f" % tools)

    a.insmod_smcx()
    b.modprobe("smc")

    with t.subtest("pnet table: same transcript as smc.ko"):
        mine = run_seq(a, tools, PNET_SEQ)
        ref = run_seq(b, tools, PNET_SEQ)
        t.log(mine)
        t.eq(mine, ref, "smcx (alpha) vs smc.ko (beta) transcript")
        t.eq(config(a)["pnet_entries"], 0, "no pnet entry left after flush")

    with t.subtest("user EIDs: default, then same transcript as smc.ko"):
        t.eq(a.out("%s/smcr ueid" % tools), "SMCX-DEFAULT-UEID",
             "default user EID listed after load")
        t.eq(a.out("cat /sys/module/smcx/parameters/ueid"), "SMCX-DEFAULT-UEID",
             "ueid parameter")
        a.out("%s/smcr ueid flush" % tools)      # mainline semantics: it goes
        b.run("%s/smcr ueid flush" % tools)
        mine = run_seq(a, tools, UEID_SEQ)
        ref = run_seq(b, tools, UEID_SEQ)
        t.log(mine)
        t.eq(mine, ref, "smcx (alpha) vs smc.ko (beta) transcript")
        t.check("table is full" in mine, "table-full error reported")

    with t.subtest("ueid module parameter"):
        a.rmmod("smcx")
        a.insmod_smcx("ueid=lab-eid.1")
        t.eq(a.out("%s/smcr ueid" % tools), "LAB-EID.1", "ueid=lab-eid.1 upper-cased")
        a.rmmod("smcx")
        a.insmod_smcx("ueid=")
        t.eq(a.out("%s/smcr ueid" % tools), "", "ueid= gives an empty table")
        a.rmmod("smcx")
        try:
            for bad in ("bad_eid", "-lead", "x" * 33):
                r = a.run("insmod %s ueid=%s" % (t.smcx_path(), bad), check=False)
                # insmod words EINVAL from init as "Invalid parameters"
                t.check(r.rc != 0 and "Invalid" in r.err,
                        "ueid=%s refused: %s" % (bad, r.err.strip()))
            t.check(not a.loaded("smcx"), "nothing left loaded after refused loads")
        finally:
            if not a.loaded("smcx"):
                a.insmod_smcx()
        t.eq(a.out("%s/smcr ueid" % tools), "SMCX-DEFAULT-UEID", "default back")

    with t.subtest("smcr info"):
        info = json.loads(a.out("%s/smcr --json info" % tools))
        t.log(json.dumps(info))
        want = {"smc_version": 2, "smc_release": 1, "hostname": "alpha",
                "smcr_v2": True, "ism_v2": True, "seid": None,
                "ueids": ["SMCX-DEFAULT-UEID"], "smcr_devices": 1,
                "smcd_devices": 1}
        for k, v in want.items():
            t.eq(info.get(k), v, "info." + k)
        ref = json.loads(b.out("%s/smcr --json info" % tools))
        t.eq(sorted(info), sorted(ref), "same fields as smc.ko reports")
        text = a.out("%s/smcr info" % tools)
        t.check(re.search(r"RoCE devices:\s+1", text), "text form:\n" + text)

    with t.subtest("fallback statistics in the mainline nesting"):
        xfer = os.path.join(repo, "build", "tools", "xfer")
        srv = b.bg("%s server -f tcp -p 5601 -c 2 -q" % xfer)
        b.wait_port(5601)
        r = a.run("%s client -f smc -a %s -p 5601 -n 1000 -c 2 -q" % (xfer, b.ip),
                  check=False, timeout=60)
        srv.wait(timeout=60, check=False)
        if r.rc != 0:
            t.skip("AF_SMC client to a TCP server failed (socket layer): " + r.err.strip())
        st = json.loads(a.out("%s/smcctl --json stats" % tools))
        t.log(json.dumps(st["fallbacks"]))
        t.eq(st["fallbacks"]["clnt"], 2, "client fallbacks")
        t.eq([(x["name"], x["count"]) for x in st["fallbacks"]["clnt_reasons"]],
             [("PEER_NO_SMC", 2)], "client fallback reasons")
        r = g(GET_FBACK_STATS, dump=True)
        t.eq(len(r["msgs"]), 1, "one GET_FBACK_STATS message per reason")

    with t.subtest("devices: debugfs, GET_DEV_SMCR, smcr device"):
        dev = devices(a)
        t.log(a.out("cat %s/devices" % DBG))
        line = dev.get(("rxe0", "1"))
        t.check(line and line[2] == "ACTIVE" and line[3] == "eth0",
                "rxe0 port 1 ACTIVE on eth0")
        t.check("::ffff:198.18.0.1" in " ".join(line), "IPv4-mapped v2 GID listed")
        r = g(GET_DEV_SMCR, dump=True)
        t.eq(r["errno"], 0, "GET_DEV_SMCR dump")
        t.eq(len(r["msgs"]), 1, "one device")
        nest = attrs_of(r["msgs"][0])[6]   # SMC_GEN_DEV_SMCR
        t.check(b"rxe0\0" in nest, "device nest names rxe0")
        ifindex = int(a.out("cat /sys/class/net/eth0/ifindex"))
        r2 = a.run("%s/smcr device" % tools, check=False)
        if r2.rc != 0 and "not implemented" in (r2.err + r2.out):
            t.log("smcr device not implemented in the tool yet: checked via raw netlink only")
        else:
            t.log(r2.out)
            rows = [ln.split() for ln in r2.out.splitlines()]
            t.check(any(row[:4] == ["eth0", "rxe0", "1", "ACTIVE"] for row in rows),
                    "smcr device lists eth0 rxe0 1 ACTIVE")
        # the port nest carries the netdev's ifindex (attribute 3, u32)
        t.check(bytes([8, 0, 3, 0]) + ifindex.to_bytes(4, "little") in nest,
                "port netdev attribute is eth0's ifindex %d" % ifindex)

    with t.subtest("route choice (debugfs route)"):
        clean()
        ok = "rxe0 1 "
        t.check(route(a, "eth0 198.18.0.1 v2").startswith(ok), "v2 for eth0's address")
        t.check(route(a, "eth0 0.0.0.0 v2").startswith(ok), "v2 for any address")
        t.check("::ffff:198.18.0.1" in route(a, "eth0 198.18.0.1 v2"), "mapped GID")
        t.eq(route(a, "eth0 198.18.0.99 v2"), "error -19", "no GID for a foreign address")
        t.eq(route(a, "eth0 198.18.0.1 v1"), "error -19", "no RoCE v1 GID on rxe")
        t.eq(route(a, "lo 127.0.0.1 v2"), "error -19", "no RDMA device on lo")
        a.out("%s/smc_pnet -a neta -I eth0" % tools)
        t.eq(route(a, "eth0 198.18.0.1 v2"), "error -19",
             "netdev with a PNET ID, port without: no choice")
        a.out("%s/smc_pnet -a netb -D rxe0" % tools)
        t.eq(route(a, "eth0 198.18.0.1 v2"), "error -19", "different PNET IDs")
        a.out("%s/smc_pnet -d netb" % tools)
        a.out("%s/smc_pnet -a neta -D rxe0" % tools)
        t.check(route(a, "eth0 198.18.0.1 v2").endswith(" NETA"), "same PNET ID chosen")
        a.out("%s/smc_pnet -f" % tools)
        t.eq(config(a)["ibdev_refs"], 0, "lookups dropped their references")

    with t.subtest("port state and GID table changes are followed"):
        clean()
        state = lambda: devices(a).get(("rxe0", "1"), [None] * 3)[2]  # noqa: E731
        try:
            a.out("ip link set eth0 down")
            wait_for("port DOWN", lambda: state() == "DOWN")
            t.eq(route(a, "eth0 198.18.0.1 v2"), "error -19", "no route over a DOWN port")
        finally:
            a.out("ip link set eth0 up")
        wait_for("port ACTIVE", lambda: state() == "ACTIVE")
        t.check(route(a, "eth0 198.18.0.1 v2").startswith("rxe0 1 "), "route back")
        log = a.out("dmesg | grep 'smcx: rxe0 port 1' | tail -2")
        t.check(log.endswith("ACTIVE") and "DOWN" in log, "transitions logged:\n" + log)
        try:
            a.out("ip addr add 198.18.0.111/24 dev eth0")
            wait_for("new GID", lambda: "::ffff:198.18.0.111" in a.out("cat %s/devices" % DBG))
            t.check("::ffff:198.18.0.111" in route(a, "eth0 198.18.0.111 v2"),
                    "route for a new address uses its GID")
        finally:
            a.out("ip addr del 198.18.0.111/24 dev eth0")
        wait_for("GID gone", lambda: "::ffff:198.18.0.111" not in a.out("cat %s/devices" % DBG))
        t.eq(route(a, "eth0 198.18.0.111 v2"), "error -19", "no route once the address is gone")

    with t.subtest("raw requests: validation and errno"):
        clean()
        # every request of this subtest goes through one genlreq process;
        # the answers are checked after the batch, in the same order
        q = GenlBatch(a, repo)
        blank = q.add("SMC_PNETID", PNET_ADD, "%d=str: net5 " % P_NAME, "%d=str:eth0" % P_ETH)
        get5 = q.add("SMC_PNETID", PNET_GET, "%d=str:NET5" % P_NAME)
        get_noname = q.add("SMC_PNETID", PNET_GET)
        bad_adds = []
        for attrs, what in (
                (("%d=str:n6" % P_NAME, "%d=str:" % P_ETH), "empty interface name"),
                (("%d=str:n6" % P_NAME, "%d=str:rxe0" % P_IB, "%d=u8:3" % P_PORT), "port 3"),
                (("%d=str:n6" % P_NAME, "%d=str:rxe0" % P_IB, "%d=u8:0" % P_PORT), "port 0"),
                (("%d=str:a b" % P_NAME, "%d=str:eth0" % P_ETH), "inner blank"),
                (("%d=str:n6" % P_NAME, "9=str:x"), "unknown attribute"),
                (("%d=raw:NET6" % P_NAME, "%d=str:eth0" % P_ETH), "name without NUL"),
                (("%d=u8:1" % P_PORT,), "no NAME")):
            bad_adds.append((what, q.add("SMC_PNETID", PNET_ADD, *attrs)))
        del_noname = q.add("SMC_PNETID", PNET_DEL)
        flush = q.add("SMC_PNETID", PNET_FLUSH)
        eid = "EID-X".ljust(32)
        ueid = [(q.add("SMC_GEN_NETLINK", cmd, *attrs), want, what) for cmd, attrs, want, what in (
            (ADD_UEID, ("1=str:" + eid,), 0, "ADD_UEID, 33 bytes"),
            (ADD_UEID, ("1=str:EID-X",), EINVAL, "ADD_UEID, short"),
            (ADD_UEID, ("1=raw:" + "X" * 40,), ERANGE, "ADD_UEID, too long"),
            (ADD_UEID, ("1=str:" + "eid-y".ljust(32),), EINVAL, "lower case"),
            (ADD_UEID, ("1=str:" + " " * 32,), EINVAL, "all blank"),
            (ADD_UEID, ("1=str:" + "E ID".ljust(32),), EINVAL, "inner blank"),
            (ADD_UEID, (), EINVAL, "ADD_UEID without entry"),
            (REMOVE_UEID, ("1=str:" + "NOPE".ljust(32),), ENOENT, "REMOVE absent"),
            (REMOVE_UEID, ("1=str:" + eid,), 0, "REMOVE present"),
            (ENABLE_SEID, (), EOPNOTSUPP, "ENABLE_SEID without ISM"),
            (DISABLE_SEID, (), EOPNOTSUPP, "DISABLE_SEID without ISM"))]
        seid = q.add("SMC_GEN_NETLINK", DUMP_SEID, dump=True)
        empty = [(cmd, q.add("SMC_GEN_NETLINK", cmd, dump=True))
                 for cmd in (GET_LGR_SMCR, GET_LINK_SMCR, GET_LGR_SMCD)]
        dev_smcd = q.add("SMC_GEN_NETLINK", GET_DEV_SMCD, dump=True)
        stats = q.add("SMC_GEN_NETLINK", GET_STATS, dump=True)
        sysinfo_do = q.add("SMC_GEN_NETLINK", GET_SYS_INFO)
        sysinfo_rsv = q.add("SMC_GEN_NETLINK", GET_SYS_INFO, "--reserved", "1", dump=True)
        sysinfo_attr = q.add("SMC_GEN_NETLINK", GET_SYS_INFO, "1=u8:1", dump=True)
        hs = []
        for cmd in (None, ENABLE_HS, None, DISABLE_HS, None):
            hs.append(q.add("SMC_GEN_NETLINK", cmd or DUMP_HS, dump=cmd is None))
        q.run()

        t.eq(blank["errno"], 0, "blanks around a PNET ID are ignored")
        t.eq([attrs_of(m)[P_NAME] for m in get5["msgs"]], [b"NET5\0"],
             "GET with NAME answers the upper-cased entry")
        t.eq(get_noname["errno"], EINVAL, "GET request without NAME")
        for what, r in bad_adds:
            t.eq(r["errno"], EINVAL, "ADD, %s" % what)
            t.check(r["extack"], "extack message for %s: %s" % (what, r["extack"]))
        t.eq(del_noname["errno"], EINVAL, "DEL without NAME")
        t.eq(flush["errno"], 0, "FLUSH")
        for r, want, what in ueid:
            t.eq(r["errno"], want, what)
        t.eq((seid["errno"], [m["attrs"] for m in seid["msgs"]]), (0, [[]]),
             "DUMP_SEID: one empty message")
        for cmd, r in empty:
            t.eq((r["errno"], len(r["msgs"])), (0, 0), "command %d: empty dump" % cmd)
        t.eq((dev_smcd["errno"], len(dev_smcd["msgs"])), (0, 1),
             "GET_DEV_SMCD: the loopback device (smcd_views checks its attributes)")
        t.eq((stats["errno"], len(stats["msgs"])), (0, 1), "GET_STATS: one message")
        t.eq(sysinfo_do["errno"], EOPNOTSUPP, "GET_SYS_INFO is a dump only")
        t.eq(sysinfo_rsv["errno"], EINVAL, "non-zero reserved header field")
        t.eq(sysinfo_attr["errno"], EINVAL, "attribute on a command that takes none")
        flag = lambda r: attrs_of(r["msgs"][0])[1]  # noqa: E731
        t.eq(flag(hs[0]), b"\0", "handshake limitation off by default")
        t.eq(hs[1]["errno"], 0, "ENABLE_HS_LIMITATION")
        t.eq(flag(hs[2]), b"\1", "handshake limitation on")
        t.eq(hs[3]["errno"], 0, "DISABLE_HS_LIMITATION")
        t.eq(flag(hs[4]), b"\0", "handshake limitation off")

    with t.subtest("network namespaces: per-netns tables, RDMA entries in init_net"):
        clean()
        a.run("ip netns del smcxt 2>/dev/null; ip netns add smcxt")
        try:
            q = GenlBatch(a, repo, netns="smcxt")
            add_lo = q.add("SMC_PNETID", PNET_ADD, "1=str:nsnet", "2=str:lo")
            add_ib = q.add("SMC_PNETID", PNET_ADD, "1=str:nsnet", "3=str:rxe0")
            table = q.add("SMC_PNETID", PNET_GET, dump=True)
            nshs = q.add("SMC_GEN_NETLINK", DUMP_HS, dump=True)
            q.run()
            t.eq(add_lo["errno"], 0, "interface entry in a namespace")
            t.eq(add_ib["errno"], EEXIST, "RDMA entry outside init_net")
            t.eq([attrs_of(m)[P_ETH] for m in table["msgs"]], [b"lo\0"], "namespace table")
            t.eq(pnet(PNET_GET, dump=True)["msgs"], [], "init_net table unaffected")
            t.eq(attrs_of(nshs["msgs"][0])[1], b"\0", "namespace's own hs flag")
            t.eq(config(a)["pnet_entries"], 1, "one entry counted")
        finally:
            a.run("ip netns del smcxt")
        wait_for("namespace table freed", lambda: config(a)["pnet_entries"] == 0)
        t.log("namespace table freed with the namespace")

    with t.subtest("permissions: unprivileged reads work, changes are EPERM"):
        clean()
        a.out("%s/smc_pnet -a perm1 -I eth0" % tools)
        for cmd in ("smc_pnet", "smc_pnet -s perm1", "smcr ueid", "smcr info", "smcr stats"):
            r = a.run(NOBODY + "%s/%s" % (tools, cmd), check=False)
            t.check(r.rc == 0, "as nobody: %s works\n%s" % (cmd, r.describe()))
        for cmd in ("smc_pnet -a perm2 -I eth0", "smc_pnet -d perm1", "smc_pnet -f",
                    "smcr ueid add NOBODY", "smcr ueid del SMCX-DEFAULT-UEID",
                    "smcr ueid flush"):
            r = a.run(NOBODY + "%s/%s" % (tools, cmd), check=False)
            t.check(r.rc == 1 and "permission denied" in r.err,
                    "as nobody: %s refused: %s" % (cmd, r.err.strip()))
        q = GenlBatch(a, repo, user=True)
        changes = [(cmd, q.add("SMC_GEN_NETLINK", cmd))
                   for cmd in (ENABLE_HS, DISABLE_HS, FLUSH_UEID, ENABLE_SEID)]
        pflush = q.add("SMC_PNETID", PNET_FLUSH)
        dumps = [(cmd, q.add("SMC_GEN_NETLINK", cmd, dump=True))
                 for cmd in (GET_DEV_SMCR, DUMP_HS, DUMP_UEID, GET_STATS)]
        q.run()
        for cmd, r in changes:
            t.eq(r["errno"], EPERM, "as nobody: command %d" % cmd)
        t.eq(pflush["errno"], EPERM, "as nobody: pnet FLUSH")
        for cmd, r in dumps:
            t.eq(r["errno"], 0, "as nobody: dump %d" % cmd)
        t.eq(a.out("%s/smc_pnet" % tools), "PERM1 eth0 n/a 255", "table unchanged")
        t.eq(a.out("%s/smcr ueid" % tools), "SMCX-DEFAULT-UEID", "EIDs unchanged")
        a.out("%s/smc_pnet -f" % tools)

    with t.subtest("netlink fuzz: every request answered, module still works"):
        for who, n, seed in (("", 3000, 11), (NOBODY, 1000, 12)):
            r = a.run("%s%s -n %d -s %d SMC_PNETID SMC_GEN_NETLINK SMCX" % (who, fuzz, n, seed),
                      check=False, timeout=300)
            t.log(r.out)
            t.check(r.rc == 0, "nlfuzz %s(seed %d): %s" % (who and "as nobody ", seed,
                                                          r.err.strip()[-500:]))
        # it may have flushed tables, toggled flags or added scope rules: start
        # clean, then use it
        a.out("%s/smc_pnet -f; %s/smcr ueid flush; %s/smcctl policy flush; "
              "%s/smcctl peers flush" % (tools, tools, tools, tools))
        g(DISABLE_HS)
        a.out("%s/smc_pnet -a after -I eth0 && %s/smc_pnet -a after -D rxe0" % (tools, tools))
        t.eq(a.out("%s/smc_pnet" % tools), "AFTER eth0 n/a 255\nAFTER n/a rxe0 1",
             "pnet table works after the fuzz")
        a.out("%s/smcr ueid add SMCX-DEFAULT-UEID" % tools)
        t.eq(a.out("%s/smcr ueid" % tools), "SMCX-DEFAULT-UEID", "EIDs work after the fuzz")
        t.check(route(a, "eth0 198.18.0.1 v2").endswith(" AFTER"), "route choice works")
        a.out("%s/smc_pnet -f" % tools)
        t.eq(config(a)["ibdev_refs"], 0, "no device reference leaked")

    with t.subtest("interfaces: entries follow rename and removal"):
        clean()
        a.modprobe("dummy")
        a.run("ip link del smcxd0 2>/dev/null; ip link del smcxd1 2>/dev/null;"
              " ip link del smcxd2 2>/dev/null; true")
        a.out("ip link add smcxd0 type dummy")
        a.out("%s/smc_pnet -a dnet -I smcxd0" % tools)
        a.out("ip link set smcxd0 name smcxd1")
        t.eq(a.out("%s/smc_pnet" % tools), "DNET smcxd1 n/a 255", "entry follows a rename")
        a.out("ip link del smcxd1")
        t.eq(a.out("%s/smc_pnet" % tools), "", "entry dropped with its interface")
        a.out("%s/smc_pnet -a pend -I smcxd2" % tools)
        t.eq(a.out("%s/smc_pnet" % tools), "PEND smcxd2 n/a 255", "entry for an absent name")
        a.out("ip link add smcxd2 type dummy")
        a.out("ip link del smcxd2")
        t.eq(a.out("%s/smc_pnet" % tools), "", "bound when it appeared, dropped when it went")
        t.eq(config(a)["pnet_entries"], 0, "no entry left")

    with t.subtest("RDMA device removal and return"):
        clean()
        # a stand-in link holds the device, as the link layer will
        a.out("echo 'hold eth0 0.0.0.0 v2' > %s/route" % DBG)
        a.out("%s/smc_pnet -a keep -I eth0 && %s/smc_pnet -a ibnet -D rxe0" % (tools, tools))
        t.eq(devices(a)[("rxe0", "1")][4], "1", "debugfs: one link on rxe0 port 1")
        t.eq(config(a)["ibdev_refs"], 1, "the link holds a device reference")
        r = a.run("%s/smcr device" % tools, check=False)
        if r.rc == 0:
            rows = [ln.split() for ln in r.out.splitlines()]
            t.check(any(row[:2] == ["eth0", "rxe0"] and row[6] == "1" for row in rows),
                    "smcr device: #Links 1\n" + r.out)
        try:
            a.out("rdma link delete rxe0")
            wait_for("rxe0 gone", lambda: ("rxe0", "1") not in devices(a))
            t.eq(config(a)["ibdevs"], 0, "no device tracked")
            t.eq(config(a)["ibdev_refs"], 0, "REMOVE made the link let go")
            t.eq(a.out("%s/smc_pnet" % tools), "KEEP eth0 n/a 255",
                 "RDMA entry dropped with its device, interface entry kept")
            t.eq(len(g(GET_DEV_SMCR, dump=True)["msgs"]), 0, "GET_DEV_SMCR empty")
            t.eq(route(a, "eth0 198.18.0.1 v2"), "error -19", "no route without a device")
        finally:
            a.run("rdma link show rxe0 >/dev/null 2>&1 || "
                  "rdma link add rxe0 type rxe netdev eth0")
        line = wait_for("rxe0 back and ACTIVE",
                        lambda: (devices(a).get(("rxe0", "1")) or [None] * 3)[2] == "ACTIVE")
        t.check(line, "rxe0 tracked again")
        t.eq(config(a)["ibdevs"], 1, "one device tracked")
        a.out("%s/smc_pnet -a keep -D rxe0" % tools)
        t.check(route(a, "eth0 198.18.0.1 v2").endswith(" KEEP"), "route choice on the new device")
        t.check(re.search(r"RoCE devices:\s+1", a.out("%s/smcr info" % tools)),
                "smcr info counts it")
        a.out("%s/smc_pnet -f" % tools)
        t.eq(config(a)["ibdev_refs"], 0, "no device reference held")
        # leave a link held: the runner's rmmod must still get the device back
        a.out("echo 'hold eth0 0.0.0.0 v2' > %s/route" % DBG)

    b.rmmod("smc_diag", check=False)
