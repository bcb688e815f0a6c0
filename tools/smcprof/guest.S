/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The self-test's guest (./selftest): a 32-bit multiboot kernel that QEMU
 * boots with -kernel.  It runs three marked windows in 32-bit code and one
 * in 64-bit code, whose instruction, atomic and rep counts are worked out
 * below by hand, then leaves through
 * the isa-debug-exit port (QEMU exits with status 0x31 * 2 + 1 = 99).
 * Interrupts stay off, so nothing else runs in a window.
 *
 * A window counts the instructions after its start marker up to and
 * including its stop marker.  A rep string op of N iterations counts as
 * N + 1 instructions: TCG runs it once per iteration and once more to find
 * ECX zero.  The TB that begins with it runs N times when the rep op is in
 * the middle of a TB (the first iteration runs in that TB), N + 1 times
 * when the rep op begins a TB.
 *
 * Built with --defsym SPIN=1 it skips the windows and loops for ever, for
 * the FIFO test.
 */
	.code32

	/* the marker: nopw 0x5ac0CCAA(%eax,%eax,1), CC = cmd, AA = label */
	.macro qmark cmd, label
	.byte 0x66, 0x0f, 0x1f, 0x84, 0x00, \label, \cmd, 0xc0, 0x5a
	.endm
	.macro qstart label
	qmark 0x01, \label
	.endm
	.macro qstop label
	qmark 0x02, \label
	.endm

	.section .multiboot, "a"
	.balign 4
	.long 0x1badb002		/* magic */
	.long 0				/* flags: an ELF, no video, no modules */
	.long -0x1badb002		/* checksum */

	.text
	.globl _start
_start:
	cli
	mov $stack_top, %esp
.ifdef SPIN
spin:
	inc %eax
	jmp spin
.endif

	/*
	 * Window 1: a loop, the start marker in the middle of a TB.
	 *   mov 1 + 1000 * (dec, jnz) 2000 + stop 1 = 2002 insns, 0 atomics.
	 */
	mov $0, %eax			/* before the marker, in its TB */
	qstart 1
	mov $1000, %ecx
1:	dec %ecx
	jnz 1b
	qstop 1

	/*
	 * Window 2: atomics and rep string ops, the start marker at the
	 * beginning of a TB.
	 *   mov 1
	 *   100 iterations of 12 insns, 6 of them atomic: 1200 insns,
	 *     600 atomics
	 *   rep movsb setup 4 + rep movsb 37 iterations: 38
	 *   rep stosl setup 4 (jmp included) + rep stosl 10 iterations: 11
	 *   stop 1
	 *   = 1 + 1200 + 4 + 38 + 4 + 11 + 1 = 1259 insns, 600 atomics;
	 *   TBs that begin with a rep string op (flag 1): movsb in the
	 *   middle of a TB 37 execs, stosl at a TB start 11: 48 execs.
	 */
	jmp 2f
2:	qstart 2
	mov $100, %ecx
3:	lock addl $1, word1		/* atomic: LOCK */
	ds addl $1, word1		/* atomic: DS + lockable RMW */
	xchg %eax, word1		/* atomic: XCHG with memory */
	xchg %eax, %ebx			/* XCHG of registers */
	ds movl word1, %edx		/* DS, but no RMW */
	addl $1, word1			/* RMW, no prefix */
	lock cmpxchg %ebx, word1	/* atomic */
	ds btsl $3, word1		/* atomic: DS + bts imm */
	ds cmpl $0, word1		/* DS, cmp is not lockable */
	ds cmpxchg8b qword		/* atomic: DS + cmpxchg8b */
	dec %ecx
	jnz 3b
	mov $src, %esi
	mov $dst, %edi
	mov $37, %ecx
	cld
	rep movsb			/* mid-TB */
	xor %eax, %eax
	mov $dst, %edi
	mov $10, %ecx
	jmp 4f
4:	rep stosl			/* at a TB start */
	qstop 2

	/*
	 * Window 255: start and stop in one TB (the one of window 2's stop):
	 *   add 2 + stop 1 = 3 insns.
	 */
	nop
	qstart 255
	add $1, %eax
	add $2, %eax
	qstop 255
	nop

	/*
	 * To long mode, for the encodings of a 64-bit kernel: identity-map
	 * the first 2 MiB with one large page, PAE, EFER.LME, paging, a
	 * 64-bit code segment.
	 */
	movl $pdpt + 3, pml4
	movl $pd + 3, pdpt
	movl $0x83, pd			/* present, writable, 2 MiB */
	mov $pml4, %eax
	mov %eax, %cr3
	mov %cr4, %eax
	or $0x20, %eax			/* PAE */
	mov %eax, %cr4
	mov $0xc0000080, %ecx		/* EFER */
	rdmsr
	or $0x100, %eax			/* LME */
	wrmsr
	mov %cr0, %eax
	or $0x80000001, %eax		/* PG, PE */
	mov %eax, %cr0
	lgdt gdtr
	mov $0x10, %ax
	mov %ax, %ds
	mov %ax, %es
	mov %ax, %ss
	ljmp $0x08, $long64

	.code64
	/*
	 * Window 4, in 64-bit code: REX prefixes after LOCK and DS, as a
	 * kernel booted on one CPU has them.
	 *   mov 1
	 *   50 iterations of 11 insns, 6 of them atomic: 550 insns,
	 *     300 atomics
	 *   rep movsq setup 3 + rep movsq 5 iterations, mid-TB: 6
	 *   stop 1
	 *   = 1 + 550 + 3 + 6 + 1 = 561 insns, 300 atomics, 5 rep execs.
	 */
long64:
	qstart 4
	mov $50, %ecx
6:	lock xadd %rax, quad64(%rip)	/* atomic: LOCK + REX.W */
	ds cmpxchg %rbx, quad64(%rip)	/* atomic: DS + REX.W */
	ds incl word1(%rip)		/* atomic: DS */
	ds orq $1, quad64(%rip)		/* atomic: DS + REX.W, group 1 */
	ds btrq $2, quad64(%rip)	/* atomic: DS + REX.W, bt* imm */
	xchg %rax, quad64(%rip)		/* atomic: XCHG with memory */
	ds movq quad64(%rip), %rdx	/* DS + REX.W, no RMW */
	addq $1, quad64(%rip)		/* RMW, no prefix */
	ds negq %rdx			/* DS, register: no memory */
	dec %ecx
	jnz 6b
	mov $src, %esi
	mov $dst, %edi
	mov $5, %ecx
	rep movsq			/* mid-TB */
	qstop 4

	mov $0x31, %al
	outb %al, $0xf4			/* isa-debug-exit */
5:	hlt
	jmp 5b

	.data
	.balign 4096
pml4:	.fill 4096, 1, 0
pdpt:	.fill 4096, 1, 0
pd:	.fill 4096, 1, 0
gdt:	.quad 0
	.quad 0x00209a0000000000	/* 0x08: 64-bit code */
	.quad 0x00cf92000000ffff	/* 0x10: flat data */
gdtr:	.word gdtr - gdt - 1
	.long gdt
	.balign 8
word1:	.long 0
qword:	.quad 0
quad64:	.quad 0
src:	.fill 64, 1, 0x5a
dst:	.fill 64, 1, 0

	.bss
	.balign 16
	.skip 4096
stack_top:
