#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""clc_client: hostile and honest clients of an smcx server's handshake, for
selftests/smcx_hs_hostile.py and (steal) selftests/smcd_lo.py.  CLC messages
are built by hand (struct.pack), so they can lie: GIDs nobody has, a Confirm
naming a stranger's QP or another connection's DMB.

  clc_client.py IP PORT prefix SPEC...      one thread per SPEC "N:END": send
        the first N bytes of the eyecatcher, then END: "fin" (shutdown, read
        the reply), "rst" (close with SO_LINGER 0) or anything else (silence,
        read the reply)
  clc_client.py IP PORT slow                a Proposal at one byte a second
  clc_client.py IP PORT first FLAG ADDR...  one thread per ADDR: a first
        contact whose Proposal claims ADDR's IPv4-mapped GID; read the
        Accept, create FLAG.I (I: the thread's index), never confirm
  clc_client.py IP PORT flood SRC FLAG COUNT   COUNT threads from source
        address SRC, each a first contact claiming a GID nobody has
        (10.77.x.y); each reads the reply, creates FLAG.I and holds the
        connection without confirming
  clc_client.py IP PORT maxconn ADDR        a Proposal asking for 8
        connections per link group
  clc_client.py IP PORT claim ADDR COUNT    COUNT Proposals one after the
        other claiming ADDR's GID; answer a reuse Accept with a Confirm
        that names another QP and MAC than the link group's peer
  clc_client.py IP PORT outofsync ADDR SRC COUNT   COUNT Proposals one after
        the other from source address SRC claiming ADDR's GID; answer each
        Accept with a v2 Decline "out of sync" (SYNCERR, typev2 bit 1), as
        a peer that lost the link group would
  clc_client.py IP PORT smc                 an honest AF_SMC client: sends
        "honest", shuts down, reads the echo
  clc_client.py IP PORT plain               the same over plain TCP ("plain")
  clc_client.py IP PORT steal GID GIDEXT TOKEN...   an IPPROTO_SMC listener
        at IP:PORT (the lure: it sends LURE_BYTES of 0x5a to whatever it
        accepts), then per TOKEN (hex) one stranger: an SMC-Dv2 Proposal
        offering the loopback device GID/GIDEXT (hex, CHID ffff, smcx's
        default user EID), the server's SMC-D Accept read and printed, and
        a Confirm naming DMB TOKEN: the server's own Accept with the type
        changed to Confirm and its token replaced, so every field the
        server checks but the token is what the server itself encoded

Hostile clients are TCP sockets bound to a source port in 0x5000-0x5fff;
the test's tc filter makes their SYNs announce SMC (on lo for steal).

Output, one line each:
  NAME OUTCOME data=HEX secs=S    how a connection ended: OUTCOME eof, reset
        or timeout, HEX the bytes read ("-" for none), S the seconds waited;
        NAME is the SPEC, "slow", "silent-first", "claim", "outofsync",
        "smc" or "plain"
  SPEC sent                         an "rst" prefix was reset by us
  reply type T first F              the type of the server's CLC reply and
        its first-contact flag
  reply type T diag 0xD             the reply and its Decline diagnosis
  flood reply type T first F diag 0xD   a flood thread's reply (diag 0 for
        an Accept)
  smc connect errno E secs=S        the honest AF_SMC connect failed
  steal accept eye E type T ver V path P first F len L gid G gidext X
        chid C token K linkid N eid E   the server's reply to a stranger's
        Proposal (hex, the EID as text)
  steal TOKEN OUTCOME data=HEX secs=S   what the stranger read after its
        Confirm naming TOKEN
  lure accepted N                   the lure's accept() returned (never, if
        the server refused every stranger); printed at exit as well
"""
import ctypes
import errno
import random
import socket
import struct
import sys
import threading
import time

EYE = bytes.fromhex("e2d4c3d9")
EYE_D = bytes.fromhex("e2d4c3c4")
LO_CHID = 0xFFFF
LURE_BYTES = 1 << 16
UEID = b"SMCX-DEFAULT-UEID".ljust(32, b" ")
AF_SMC = 43


def hostile(ip, port, src="0.0.0.0"):
    """A TCP connection from a source port in 0x5000-0x5fff (beta's tc
    filter makes its SYN announce SMC), from address @src."""
    for _ in range(100):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((src, random.randrange(0x5000, 0x6000)))
        except OSError:
            s.close()
            continue
        s.settimeout(10)
        try:
            s.connect((ip, port))
        except OSError as e:
            s.close()
            if e.errno == errno.EADDRNOTAVAIL:      # that port's 4-tuple is taken
                continue
            raise
        return s
    raise OSError("no source port")


def outcome(s, limit):
    """Read @s until EOF, reset or @limit s: (outcome, data, seconds)."""
    s.settimeout(limit)
    data, t0 = b"", time.time()
    try:
        while True:
            x = s.recv(4096)
            if not x:
                return "eof", data, time.time() - t0
            data += x
    except ConnectionResetError:
        return "reset", data, time.time() - t0
    except socket.timeout:
        return "timeout", data, time.time() - t0


def report(name, res):
    print("%s %s data=%s secs=%.1f" % (name, res[0], res[1].hex() or "-", res[2]), flush=True)


def mapped_gid(addr):
    """The IPv4-mapped GID of IPv4 address @addr, 16 bytes."""
    return bytes(10) + b"\xff\xff" + socket.inet_aton(addr)


def clc_message(kind, size, flags, peer_id=False):
    """A CLC message of @kind and @size bytes: both eyecatchers, the
    length, the version/flags byte @flags and, with @peer_id, our peer ID
    (system ID and instance); the body is left to the caller."""
    m = bytearray(size)
    m[0:4] = EYE
    m[4] = kind
    m[5:7] = struct.pack("!H", size)
    m[7] = flags
    if peer_id:
        m[8:16] = bytes.fromhex("0102030405060708")
    m[size - 4:size] = EYE
    return m


def proposal(gid, conns=255):
    # SMC-R v2 only (typev1 N, typev2 R), the SMC-D area, the v2 extension
    # with one user EID; 156 bytes (docs/wire.md)
    m = clc_message(1, 156, 0x22)
    m[50:52] = struct.pack("!H", 28)        # v2 extension at 80
    m[80] = 1                               # EIDs
    m[83] = 0x10                            # release 1
    m[88:104] = gid
    m[104] = conns
    m[105] = 2                              # max links
    m[120:152] = UEID
    return bytes(m)


def proposal_d(gid, gid_ext):
    # SMC-Dv2 only (typev1 N, typev2 D), release 1 with the emulated-ISM
    # feature bit, one user EID, the loopback device as two GID/CHID
    # entries (the halves); 224 bytes (docs/wire.md)
    m = clc_message(1, 224, 0x26)
    m[50:52] = struct.pack("!H", 28)        # v2 extension at 80, no ip area
    m[80] = 1                               # EIDs
    m[81] = 2                               # ISM GID/CHID entries
    m[83] = 0x10                            # release 1
    m[86:88] = struct.pack("!H", 64)        # SMC-Dv2 extension at 152
    m[106:108] = struct.pack("!H", 1)       # feature mask: emulated ISM
    m[120:152] = UEID
    m[200:220] = struct.pack("!QHQH", gid, LO_CHID, gid_ext, LO_CHID)
    return bytes(m)


def confirm(gid, qpn):
    # reuse Confirm (no first contact): 108 bytes
    m = clc_message(3, 108, 0x20, peer_id=True)
    m[16:32] = gid
    m[32:38] = bytes.fromhex("020000000001")
    m[38:41] = qpn.to_bytes(3, "big")
    m[41:45] = struct.pack("!I", 0x1234)
    m[45] = 1
    m[46:50] = struct.pack("!I", 1)
    m[50] = 0x03
    m[52:60] = struct.pack("!Q", 0x10000)
    m[61:64] = (1).to_bytes(3, "big")
    m[64:96] = UEID
    return bytes(m)


def decline_outofsync():
    # v2 Decline, 44 bytes: out of sync (typev2 bit 1) with SYNCERR
    m = clc_message(4, 44, 0x28, peer_id=True)
    m[16:20] = struct.pack("!I", 0x04000000)
    m[20] = 0x20                            # OS type Linux
    return bytes(m)


def read_clc(s):
    """One CLC message from @s (its length from the header)."""
    s.settimeout(10)
    h = b""
    while len(h) < 8:
        x = s.recv(8 - len(h))
        if not x:
            raise OSError("eof in CLC header")
        h += x
    n = struct.unpack("!H", h[5:7])[0]
    b = h
    while len(b) < n:
        x = s.recv(n - len(b))
        if not x:
            raise OSError("eof in CLC message")
        b += x
    return b


def threads(target, argss):
    ths = [threading.Thread(target=target, args=a) for a in argss]
    for t in ths:
        t.start()
    for t in ths:
        t.join()


def prefix(ip, port, specs):
    def one(spec):
        n, end = spec.split(":")
        n = int(n)
        s = hostile(ip, port)
        s.sendall(EYE[:n])
        if end == "fin":
            s.shutdown(socket.SHUT_WR)
            report(spec, outcome(s, 15))
        elif end == "rst":
            time.sleep(0.3)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            print("%s sent" % spec, flush=True)
        else:
            report(spec, outcome(s, 15))
        s.close()
    threads(one, [(spec,) for spec in specs])


def slow(ip, port):
    s = hostile(ip, port)
    t0 = time.time()
    msg = proposal(bytes(16))
    for i in range(15):
        try:
            s.send(msg[i:i + 1])
        except OSError:
            break
        time.sleep(1)
    res = outcome(s, 1)
    report("slow", (res[0], res[1], time.time() - t0))


def first(ip, port, flag, *addrs):
    # first contacts for GIDs nobody has; read the Accept, never confirm
    def one(i, addr):
        s = hostile(ip, port)
        s.sendall(proposal(mapped_gid(addr)))
        a = read_clc(s)
        print("reply type %d first %d" % (a[4], (a[7] >> 3) & 1), flush=True)
        open("%s.%d" % (flag, i), "w").close()
        report("silent-first", outcome(s, 20))
    threads(one, list(enumerate(addrs)))


def flood(ip, port, src, flag, count):
    # first contacts for many GIDs nobody has, from one address, all held
    # open at once: the server's link groups per peer address are capped
    def one(i):
        try:
            s = hostile(ip, port, src)
            s.sendall(proposal(mapped_gid("10.77.%d.%d" % (i // 250, i % 250 + 1))))
            a = read_clc(s)
        except OSError as e:
            print("flood error %s" % e, flush=True)
            open("%s.%d" % (flag, i), "w").close()
            return
        diag = struct.unpack("!I", a[16:20])[0] if a[4] == 4 else 0
        print("flood reply type %d first %d diag 0x%08x" % (a[4], (a[7] >> 3) & 1, diag),
              flush=True)
        open("%s.%d" % (flag, i), "w").close()
        outcome(s, 20)
        s.close()
    threads(one, [(i,) for i in range(int(count))])


def maxconn(ip, port, addr):
    s = hostile(ip, port)
    s.sendall(proposal(mapped_gid(addr), conns=8))
    d = read_clc(s)
    print("reply type %d diag 0x%08x" % (d[4], struct.unpack("!I", d[16:20])[0]), flush=True)
    s.close()


def claim(ip, port, addr, count):
    # reuses of the link group of @addr by a stranger, one after the other:
    # each Confirm names another QP and MAC than the link's peer
    for _ in range(int(count)):
        s = hostile(ip, port)
        s.sendall(proposal(mapped_gid(addr)))
        a = read_clc(s)
        print("reply type %d first %d" % (a[4], (a[7] >> 3) & 1), flush=True)
        if a[4] == 2:
            s.sendall(confirm(mapped_gid(addr), 0x000101))
        report("claim", outcome(s, 15))


def outofsync(ip, port, addr, src, count):
    # a stranger at @src (not @addr) claims @addr's GID and says "out of
    # sync" to whatever the server offers: the link group of @addr must
    # not end for it
    for _ in range(int(count)):
        s = hostile(ip, port, src)
        s.sendall(proposal(mapped_gid(addr)))
        a = read_clc(s)
        print("reply type %d first %d" % (a[4], (a[7] >> 3) & 1), flush=True)
        if a[4] == 2:
            s.sendall(decline_outofsync())
            s.shutdown(socket.SHUT_WR)      # the fallen-back echo ends
        report("outofsync", outcome(s, 15))


def steal(ip, port, gid, gid_ext, *tokens):
    accepted = []
    lsn = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 256)       # IPPROTO_SMC
    lsn.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsn.bind((ip, port))
    lsn.listen(8)

    def lure():
        while True:
            try:
                c, _ = lsn.accept()
            except OSError:
                return
            accepted.append(c)
            print("lure accepted %d" % len(accepted), flush=True)
            try:
                c.sendall(b"\x5a" * LURE_BYTES)
            except OSError:
                pass
    threading.Thread(target=lure, daemon=True).start()
    for tok in tokens:
        s = hostile(ip, port)
        s.sendall(proposal_d(int(gid, 16), int(gid_ext, 16)))
        a = read_clc(s)
        print("steal accept eye %s type %d ver %d path %d first %d len %d gid %016x "
              "gidext %016x chid %04x token %016x linkid %d eid %s"
              % (a[:4].hex(), a[4], a[7] >> 4, a[7] & 3, (a[7] >> 3) & 1, len(a),
                 struct.unpack("!Q", a[8:16])[0],
                 struct.unpack("!Q", a[66:74])[0] if len(a) >= 78 else 0,
                 struct.unpack("!H", a[32:34])[0] if len(a) >= 78 else 0,
                 struct.unpack("!Q", a[16:24])[0],
                 struct.unpack("!I", a[28:32])[0] if len(a) >= 32 else 0,
                 a[34:66].decode("ascii", "replace").strip() if len(a) >= 78 else "-"),
              flush=True)
        if a[:4] == EYE_D and a[4] == 2:
            c = bytearray(a)
            c[4] = 3
            c[16:24] = struct.pack("!Q", int(tok, 16))
            s.sendall(bytes(c))
        report("steal %s" % tok, outcome(s, 15))
        s.close()
    time.sleep(1)           # an accept() the last stranger caused is printed
    print("lure accepted %d" % len(accepted), flush=True)
    lsn.close()


def smc(ip, port):
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.socket(AF_SMC, 1, 0)                  # SOCK_STREAM
    d = (struct.pack("=H", socket.AF_INET) + struct.pack("!H", port) + socket.inet_aton(ip)
         + bytes(8))
    t0 = time.time()
    if libc.connect(fd, d, 16):
        print("smc connect errno %d secs=%.1f" % (ctypes.get_errno(), time.time() - t0), flush=True)
        return
    s = socket.socket(fileno=fd)
    s.sendall(b"honest")
    s.shutdown(socket.SHUT_WR)
    report("smc", outcome(s, 20))


def plain(ip, port):
    s = socket.create_connection((ip, port), timeout=10)
    s.sendall(b"plain")
    s.shutdown(socket.SHUT_WR)
    report("plain", outcome(s, 15))


MODES = {"slow": slow, "first": first, "maxconn": maxconn, "claim": claim,
         "outofsync": outofsync, "flood": flood, "smc": smc, "plain": plain,
         "steal": steal}


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    ip, port, mode, args = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    if mode == "prefix":
        prefix(ip, port, args)
    elif mode in MODES:
        MODES[mode](ip, port, *args)
    else:
        sys.exit("clc_client: unknown mode %s" % mode)


if __name__ == "__main__":
    main()
