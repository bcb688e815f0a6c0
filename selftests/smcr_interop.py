# SPDX-License-Identifier: GPL-2.0
"""SMC-R data path interop matrix: smcx <-> smcx, smcx client ->
in-kernel server, in-kernel client -> smcx server.

Per cell: one held connection (smcss: SMCR on rxe0 both ends, one link group,
the server's RMB size), then 0 B, 1 B, 4 KiB, one RMB, RMB+1 and 4 MiB each
in send, recv and duplex mode, pattern-verified, each with its evidence
(SMC-Rv2 success +1, no fallback, rxe0 packets per KiB of payload, no
TCP-sized eth0 traffic).  The same body runs now between two in-kernel hosts
(smcr_inkernel_pair).  See selftests/lib/smcr_cases.py.

RMB addresses (no KASLR leak): the held connection of every cell
is captured on alpha's eth0 (one dumpcap for the whole matrix, read once at
the end), and the RMB address its Accept (server) and Confirm (client)
carry is read off the wire.  Every one an smcx host sent must lie below the
kernel's half of the address space (0xffff800000000000), and the four smcx
sent (two link groups of the smcx pair, one in each mixed cell, each a new
module load) must all differ.  smc.ko's addresses are only logged: mainline
sends the DMA address, on rxe a kernel address.

Dual-stack listeners: in every cell beta also listens on [::]
with SMCPROTO_SMC6, and alpha connects to it over IPv4 from an AF_INET
socket and from an AF_INET6 one (v4-mapped address), 64 KiB duplex each,
verified; the outcome of each (SMC-R with its rxe evidence, or the
fallback and its reason) must be smcr_cases.DUAL_EXPECT's, and the table
of outcomes is logged.
"""
import scenarios
import smcr_cases
import stacks

TIMEOUT = 1800
COST = 77
BASE_PORT = 6100
PCAP = "/tmp/smcr_interop_clc.pcap"
EYE = bytes.fromhex("e2d4c3d9")
CLC_ACCEPT, CLC_CONFIRM = 2, 3
RMB_ADDR_OFF = 52		# 8 bytes, big endian, in Accept and Confirm
KERNEL_HALF = 0xffff800000000000


def first_streams(cap):
    """{(server port, source ip): payload bytes in sequence order} of the
    first TCP connection to each port of @cap"""
    first, segs = {}, {}
    for st, sp, dp, src, seq, pl in cap.segments():
        port = min(sp, dp)		# the server's port is the low one
        if pl and first.setdefault(port, st) == st:
            segs.setdefault((port, src), {})[seq] = pl
    return {k: b"".join(v[s] for s in sorted(v)) for k, v in segs.items()}


def clc_rmb_addr(stream, typ):
    """The RMB address of the first CLC message of @typ at the head of
    @stream (the CLC messages precede the application data), or None."""
    off = 0
    while off + 8 <= len(stream) and stream[off:off + 4] == EYE:
        length = int.from_bytes(stream[off + 5:off + 7], "big")
        if length < 8:
            return None
        if stream[off + 4] == typ and length >= RMB_ADDR_OFF + 8 and \
                off + length <= len(stream):
            return int.from_bytes(stream[off + RMB_ADDR_OFF:off + RMB_ADDR_OFF + 8], "big")
        off += length
    return None


def run(t):
    smcr_cases.need_tools(t, smcr_cases.XFER, smcr_cases.HOLD)
    a, b = t.alpha, t.beta
    cells = smcr_cases.SMCX_CELLS
    held = {}		# held connection's port -> (client stack, server stack)
    dual = {}		# (client stack, server stack) -> dual-stack outcomes

    def cell(t, cs, ss, port, eids):
        held[port] = (cs, ss)
        smcr_cases.matrix_cell(t, cs, ss, port, eids)
        dual[(cs, ss)] = smcr_cases.dualstack_cell(t, cs, ss,
                                                   port + smcr_cases.DUAL_OFFSET)

    cap = scenarios.Capture(a, [BASE_PORT + 100 * i for i in range(len(cells))], PCAP)
    t.check(cap.started, "dumpcap runs on %s" % a.name)
    try:
        smcr_cases.run_cells(t, cells, cell, BASE_PORT)
    finally:
        cap.stop(complete=False)	# the handshakes are long over

    for (cs, ss), got in sorted(dual.items()):
        t.log("dual-stack outcomes, %s: %s" % (stacks.describe(cs, ss),
                                              ", ".join("%s client %s" % kv
                                                        for kv in sorted(got.items()))))
    streams = first_streams(cap)
    smcx_addrs = []
    for port, (cs, ss) in sorted(held.items()):
        for h, stack, typ, what in ((a, cs, CLC_CONFIRM, "Confirm"),
                                    (b, ss, CLC_ACCEPT, "Accept")):
            addr = clc_rmb_addr(streams.get((port, h.ip), b""), typ)
            who = "%s (%s), port %d: its %s" % (h.name, stack, port, what)
            t.check(addr is not None, "%s is on the wire" % who)
            if stack != stacks.SMCX:
                t.log("%s names its RMB %#x" % (who, addr))
                continue
            t.check(addr < KERNEL_HALF, "%s names its RMB %#x, not a kernel address"
                    % (who, addr))
            smcx_addrs.append(addr)
    t.eq(len(smcx_addrs), sum((cs, ss).count(stacks.SMCX) for cs, ss in cells),
         "RMB addresses smcx sent (one per smcx link group)")
    t.check(len(set(smcx_addrs)) == len(smcx_addrs),
            "smcx's RMB addresses differ across its link groups: %s"
            % ", ".join("%#x" % x for x in smcx_addrs))
