/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qmark.h: the window markers of smcprof, the QEMU TCG plugin of `make
 * perfcount` (tools/smcprof/README.md).  QMARK_START(label) begins a
 * counting window, QMARK_STOP(label) ends it and makes the plugin write
 * the window's dump, labelled with the decimal label.
 *
 * A marker is the 9-byte NOP
 *	nopw 0x5ac0CCAA(%rax,%rax,1) = 66 0f 1f 84 00 AA CC c0 5a
 * whose disp32 0x5ac0CCAA (little endian) carries CC = 0x01 (start) or 0x02
 * (stop) and AA = the label.  It does nothing on a CPU or in QEMU without
 * the plugin.  The bytes are emitted directly, so the encoding cannot
 * change with the assembler.  LABEL must be a constant 0..255; the marker
 * is also a compiler barrier.
 */
#ifndef TOOLS_QMARK_H
#define TOOLS_QMARK_H

#define QMARK_CMD_START 0x01
#define QMARK_CMD_STOP 0x02

#define QMARK_EMIT(cmd, label)                                              \
	do {                                                                 \
		_Static_assert((label) >= 0 && (label) <= 255,               \
			       "qmark label out of 0..255");                 \
		__asm__ __volatile__(                                        \
			".byte 0x66, 0x0f, 0x1f, 0x84, 0x00, %c0, %c1, 0xc0, 0x5a" \
			: : "i"(label), "i"(cmd) : "memory");                \
	} while (0)

#define QMARK_START(label) QMARK_EMIT(QMARK_CMD_START, label)
#define QMARK_STOP(label) QMARK_EMIT(QMARK_CMD_STOP, label)

#endif /* TOOLS_QMARK_H */
