#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send one generic netlink request and print the answer as JSON.

    genlreq.py FAMILY CMD [--dump] [--version N] [--reserved N] [ATTR ...]
    genlreq.py --batch      (one such argument list per stdin line, shell
                             quoting; one JSON answer per line, in order)

ATTR is TYPE=KIND:VALUE with KIND one of
    str   NUL-terminated string         u8 / u16 / u32 / u64   integers
    raw   bytes as given (no NUL)       hex   bytes from hex digits
The answer is {"errno": N, "msgs": [{"cmd": C, "attrs": [[type, "hex"]...]}],
"extack": "message or null"}; errno 0 is an ACK or a finished dump.  Nested
attributes are left as hex.  Used by the selftests for the cases the user
tools refuse to send.  Python standard library only.
"""
import json
import os
import shlex
import socket
import struct
import sys

NETLINK_GENERIC = 16
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK, NLM_F_DUMP = 1, 2, 4, 0x300
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 0x10, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2
NETLINK_EXT_ACK = 11
NLM_F_ACK_TLVS = 0x200
NLMSGERR_ATTR_MSG = 1


def nla(atype, payload):
    hdr = struct.pack("=HH", 4 + len(payload), atype)
    pad = b"\0" * ((4 - len(payload) % 4) % 4)
    return hdr + payload + pad


def parse_attrs(buf):
    out = []
    while len(buf) >= 4:
        alen, atype = struct.unpack_from("=HH", buf)
        if alen < 4:
            break
        out.append((atype & 0x3fff, buf[4:alen]))
        buf = buf[(alen + 3) & ~3:]
    return out


class Genl:
    def __init__(self):
        self.sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        self.sk.setsockopt(270, NETLINK_EXT_ACK, 1)  # SOL_NETLINK
        self.sk.bind((0, 0))
        self.sk.settimeout(10)
        self.seq = 1

    def request(self, ftype, cmd, attrs=b"", flags=0, version=1, reserved=0):
        self.seq += 1
        body = struct.pack("=BBH", cmd, version, reserved) + attrs
        msg = struct.pack("=IHHII", 16 + len(body), ftype,
                          NLM_F_REQUEST | NLM_F_ACK | flags, self.seq, 0) + body
        self.sk.send(msg)
        msgs, dump = [], (flags & NLM_F_DUMP) == NLM_F_DUMP
        while True:
            data = self.sk.recv(1 << 16)
            while len(data) >= 16:
                mlen, mtype, mflags, mseq, _ = struct.unpack_from("=IHHII", data)
                chunk, data = data[:mlen], data[(mlen + 3) & ~3:]
                if mseq != self.seq:
                    continue
                if mtype == NLMSG_ERROR:
                    err = -struct.unpack_from("=i", chunk, 16)[0]
                    ext = None
                    if mflags & NLM_F_ACK_TLVS:
                        # the request is echoed whole, unless NLM_F_CAPPED
                        inner = struct.unpack_from("=I", chunk, 20)[0]
                        off = 20 + (16 if mflags & 0x100 else inner)
                        for t, v in parse_attrs(chunk[(off + 3) & ~3:]):
                            if t == NLMSGERR_ATTR_MSG:
                                ext = v.rstrip(b"\0").decode(errors="replace")
                    return err, msgs, ext
                if mtype == NLMSG_DONE:
                    if dump:
                        return 0, msgs, None
                    continue  # a multi-part reply to a plain request: ACK follows
                gcmd = chunk[16]
                msgs.append({"cmd": gcmd, "attrs": parse_attrs(chunk[20:])})

    def family(self, name):
        err, msgs, _ = self.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                                    nla(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"))
        if err:
            return None
        for t, v in msgs[0]["attrs"]:
            if t == CTRL_ATTR_FAMILY_ID:
                return struct.unpack("=H", v[:2])[0]
        return None


def encode(spec):
    atype, rest = spec.split("=", 1)
    kind, value = rest.split(":", 1)
    atype = int(atype)
    if kind == "str":
        return nla(atype, value.encode() + b"\0")
    if kind == "raw":
        return nla(atype, value.encode())
    if kind == "hex":
        return nla(atype, bytes.fromhex(value))
    fmt = {"u8": "=B", "u16": "=H", "u32": "=I", "u64": "=Q"}[kind]
    return nla(atype, struct.pack(fmt, int(value, 0)))


def main(argv):
    if argv == ["--batch"]:
        # one Python start for many requests: the lab pays seconds for each
        g = Genl()
        rc = 0
        for line in sys.stdin:
            if line.strip():
                rc |= one(g, shlex.split(line))
        return rc
    return one(Genl(), argv)


def one(g, argv):
    args = list(argv)
    dump = "--dump" in args
    if dump:
        args.remove("--dump")
    opts = {"version": 1, "reserved": 0}
    for o in list(opts):
        if "--" + o in args:
            i = args.index("--" + o)
            opts[o] = int(args[i + 1])
            del args[i:i + 2]
    fam, cmd, attrs = args[0], int(args[1]), args[2:]
    fid = g.family(fam)
    if fid is None:
        print(json.dumps({"errno": -1, "error": "no family " + fam}), flush=True)
        return 1
    err, msgs, ext = g.request(fid, cmd, b"".join(encode(a) for a in attrs),
                               NLM_F_DUMP if dump else 0, opts["version"],
                               opts["reserved"])
    for m in msgs:
        m["attrs"] = [[t, v.hex()] for t, v in m["attrs"]]
    print(json.dumps({"errno": err, "errname": os.strerror(err) if err else "OK",
                      "msgs": msgs, "extack": ext}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
