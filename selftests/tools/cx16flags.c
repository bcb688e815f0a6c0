// SPDX-License-Identifier: GPL-2.0
/*
 * cx16flags: does this CPU keep EFLAGS across CMPXCHG16B?
 *
 * CMPXCHG16B changes ZF and nothing else (Intel SDM vol. 2A).  QEMU 7.2's
 * TCG (Debian 12) computes the flags of its CMPXCHG16B helper from the
 * condition-code state of the translation block's start instead of the
 * instruction before it: after "cmp %src, %dst" in the same block the
 * flags come out as the low 32 bits of %src (TF, DF, IOPL, NT, AC, ...)
 * plus ZF.  In a guest kernel SLUB's allocation fast path compares freelist
 * pointers right before its this_cpu_cmpxchg128, so a pointer lands in
 * EFLAGS; with TF in it the guest dies of an unexpected debug trap
 * (WARN in exc_debug_kernel), with other bits of a double fault.  This is
 * the lab's guest-death cause (docs/guest-deaths.md).
 *
 * The program sets known flags, ends the translation block (jmp), compares
 * two registers, runs CMPXCHG16B (successful: ZF set) and reads the flags.
 * Exit 0 and "ok" when they are cmp's flags with ZF set; exit 1 and "BAD"
 * when anything else changed; exit 4 (skip) when the CPU has no CMPXCHG16B.
 *
 * With -t SECONDS it shows how the garbage kills a guest: the loop ends a
 * translation block right after CMPXCHG16B, where TCG takes pending
 * interrupts, and the compare's operand has TF set.  An interrupt taken
 * there saves the garbage as the interrupted RFLAGS and its return loads
 * it: the process gets a SIGTRAP it never asked for (in the kernel, the
 * same is the debug trap of exc_debug_kernel).  It counts them; exit 1 if
 * there was any.
 *
 *   cx16flags [-q] [-t SECONDS]
 */
#include <cpuid.h>
#include <signal.h>
#include <ucontext.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FLAGS_KNOWN	0x202ull	/* IF and the always-one bit 1 */
#define FLAG_ZF		0x40ull
/* what the compare below leaves: 0x9d1a1fd6 - 0x9d1a1fd5 = 1, no flag set */
#define FLAGS_WANT	(FLAGS_KNOWN | FLAG_ZF)
/* a pointer-like source operand, full of flag bits (TF, DF, OF, IOPL...) */
#define CMP_SRC		0xffff88c79d1a1fd5ull

static unsigned __int128 target __attribute__((aligned(16)));

/*
 * The sequence both probes share: a new translation block (jmp), then
 * "cmp %[s], %[d]" as the last flag writer, then a successful exchange of
 * %[m] (0 -> 1).  lea, not mov/xor, loads the comparand and the new value:
 * it leaves the flags alone.
 */
#define CMP_CMPXCHG16B			\
	"jmp 1f\n"			\
	"1:\tcmp %[s], %[d]\n\t"	\
	"lea 0, %%rax\n\t"		\
	"lea 0, %%rdx\n\t"		\
	"lea 1, %%rbx\n\t"		\
	"lea 0, %%rcx\n\t"		\
	"cmpxchg16b %[m]\n\t"

static int have_cx16(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	return !!(c & bit_CMPXCHG16B);
}

static uint64_t flags_after_cmpxchg16b(void)
{
	uint64_t flags, src = CMP_SRC, dst = CMP_SRC + 1;

	target = 0;
	__asm__ volatile("push %[known]\n\t"
			 "popfq\n\t"
			 CMP_CMPXCHG16B
			 "pushfq\n\t"
			 "pop %[f]\n\t"
			 : [f] "=r"(flags), [m] "+m"(target)
			 : [s] "r"(src), [d] "r"(dst), [known] "i"(FLAGS_KNOWN)
			 : "rax", "rbx", "rcx", "rdx", "cc", "memory");
	return flags;
}

static volatile sig_atomic_t traps;

static void on_trap(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;

	(void)sig;
	(void)si;
	traps++;
	/* clear TF in the saved context so that the loop goes on */
	uc->uc_mcontext.gregs[REG_EFL] &= ~0x100ll;
}

/* one round: TF only in the operand, the block ends after the exchange */
static void trap_round(void)
{
	uint64_t src = 0x100, dst = 0x101;

	target = 0;
	/* popfq: the state the stale flags computation will use (see above) */
	__asm__ volatile("push $0x202\n\t"
			 "popfq\n\t"
			 CMP_CMPXCHG16B
			 "jmp 2f\n"
			 "2:\ttest %%eax, %%eax\n\t"
			 : [m] "+m"(target)
			 : [s] "r"(src), [d] "r"(dst)
			 : "rax", "rbx", "rcx", "rdx", "cc", "memory");
}

static int trap_loop(int secs)
{
	struct sigaction sa = { .sa_sigaction = on_trap, .sa_flags = SA_SIGINFO };
	time_t end = time(NULL) + secs;
	unsigned long rounds = 0;

	sigaction(SIGTRAP, &sa, NULL);
	while (time(NULL) < end) {
		for (int i = 0; i < 10000; i++)
			trap_round();
		rounds += 10000;
	}
	printf("cx16flags: %s: %d unexpected SIGTRAP(s) in %lu rounds of %d s\n",
	       traps ? "BAD" : "ok", (int)traps, rounds, secs);
	return traps ? 1 : 0;
}

int main(int argc, char **argv)
{
	int quiet = 0, secs = 0;
	uint64_t flags;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-q"))
			quiet = 1;
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			secs = atoi(argv[++i]);
	}

	if (!have_cx16()) {
		if (!quiet)
			printf("cx16flags: skip: no CMPXCHG16B on this CPU\n");
		return 4;
	}
	flags = flags_after_cmpxchg16b();
	if (flags != FLAGS_WANT || target != 1) {
		printf("cx16flags: BAD: EFLAGS %#llx after cmp + cmpxchg16b, want %#llx"
		       " (the low half of the compare's source is %#llx)\n",
		       (unsigned long long)flags, (unsigned long long)FLAGS_WANT,
		       (unsigned long long)(CMP_SRC & 0xffffffffull));
		if (secs > 0)
			trap_loop(secs);
		return 1;
	}
	if (!quiet)
		printf("cx16flags: ok: EFLAGS %#llx after cmp + cmpxchg16b\n",
		       (unsigned long long)flags);
	return secs > 0 ? trap_loop(secs) : 0;
}
