// SPDX-License-Identifier: GPL-2.0
/*
 * smcprof: a QEMU TCG plugin that counts guest instructions exactly in
 * windows (tools/smcprof/README.md).
 *
 * Counting.  When TCG translates a block (TB), the plugin looks up or
 * inserts a record keyed by (vaddr, n_insns, atomics, flags) and adds an
 * inline "add 1" to the record's exec counter at the start of the block:
 * no helper call per executed block.  A TB that holds a marker is cut after
 * each marker into segments; the first segment is counted by the TB's
 * inline op, each later one by an inline op on its first instruction, so
 * that a window starts and stops exactly at its markers.  Instructions of
 * a window = sum over records of n_insns * execs.  It counts the
 * instructions after the start marker up to and including the stop marker.
 *
 * Per record, translation also notes the atomic read-modify-writes among
 * its instructions (LOCK-prefixed, XCHG with memory, and DS-prefixed
 * lockable ones: a kernel booted on one CPU patches its LOCK prefixes into
 * DS prefixes) and flags, bit 0: the first instruction is a REP/REPNE
 * MOVS or STOS.  TCG re-enters a rep string instruction once per
 * iteration, so such a record's exec count follows its iterations.
 *
 * Limits.  A TB (or segment) that leaves early, e.g. at a fault in its
 * middle, is still counted whole.  Exact only with one vCPU (-smp 1): the
 * inline adds are not atomic, and the plugin warns on stderr when there
 * are more vCPUs.  Windows of the host control FIFO are not exact either:
 * its thread starts and stops them while the guest runs.
 *
 * Windows.  A guest marker is the 9-byte NOP
 *	nopw 0x5ac0CCAA(%rax,%rax,1) = 66 0f 1f 84 00 AA CC c0 5a
 * with CC 0x01 (start) or 0x02 (stop) and AA the label 0..255, at any
 * privilege level.  Start zeroes every exec counter; stop writes the
 * window's dump.  The FIFO of the plugin argument ctl=PATH takes the lines
 * "start" and "stop LABEL" (LABEL a word) and does the same.
 *
 * Dumps.  out=PREFIX (default: smcprof): each dump is written to
 * PREFIX.<seq>.<label>.tbs.tmp and renamed to PREFIX.<seq>.<label>.tbs when
 * complete; seq counts the dumps of this QEMU run from 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qemu-plugin-abi.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MARK_START 0x01
#define MARK_STOP 0x02
#define FLAG_REP_STRING 0x1
#define LABEL_MAX 64
#define ADD QEMU_PLUGIN_INLINE_ADD_U64

struct rec {
	uint64_t execs;		/* the inline op's target */
	uint64_t vaddr;
	uint32_t n_insns;
	uint32_t atomics;	/* per exec */
	uint32_t flags;
	struct rec *hnext;	/* hash chain */
	struct rec *next;	/* all records, newest first */
};

/* records are never freed: the inline ops point at them */
#define CHUNK 4096
static struct rec *chunk;
static size_t chunk_used = CHUNK;

static struct rec **buckets;
static size_t n_buckets;
static size_t n_recs;
static struct rec *all_recs;

/* table inserts, window start and dumps (translation, markers, FIFO) */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *out_prefix = "smcprof";
static unsigned int seq;

static size_t hash(uint64_t vaddr, uint32_t n, uint32_t a, uint32_t f)
{
	uint64_t h = vaddr * 0x9e3779b97f4a7c15ULL;

	h ^= ((uint64_t)n << 40) ^ ((uint64_t)a << 20) ^ f;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	return (size_t)h & (n_buckets - 1);
}

static void die(const char *what)
{
	fprintf(stderr, "smcprof: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void grow(void)
{
	size_t nb = n_buckets ? n_buckets * 2 : 1 << 14;
	struct rec **b = calloc(nb, sizeof(*b));
	struct rec *r;

	if (!b)
		die("calloc");
	free(buckets);
	buckets = b;
	n_buckets = nb;
	for (r = all_recs; r; r = r->next) {
		size_t h = hash(r->vaddr, r->n_insns, r->atomics, r->flags);

		r->hnext = buckets[h];
		buckets[h] = r;
	}
}

/* called with lock held */
static struct rec *rec_get(uint64_t vaddr, uint32_t n, uint32_t a, uint32_t f)
{
	struct rec *r;
	size_t h;

	if (n_recs >= n_buckets)
		grow();
	h = hash(vaddr, n, a, f);
	for (r = buckets[h]; r; r = r->hnext)
		if (r->vaddr == vaddr && r->n_insns == n && r->atomics == a &&
		    r->flags == f)
			return r;
	if (chunk_used == CHUNK) {
		chunk = calloc(CHUNK, sizeof(*chunk));
		if (!chunk)
			die("calloc");
		chunk_used = 0;
	}
	r = &chunk[chunk_used++];
	r->vaddr = vaddr;
	r->n_insns = n;
	r->atomics = a;
	r->flags = f;
	r->hnext = buckets[h];
	buckets[h] = r;
	r->next = all_recs;
	all_recs = r;
	n_recs++;
	return r;
}

/* --- decoding ------------------------------------------------------------ */

struct insn_info {
	int atomic;	/* an atomic RMW */
	int rep_string;	/* REP/REPNE MOVS or STOS */
	int mark;	/* MARK_START or MARK_STOP, else 0 */
	int label;
};

static const uint8_t marker[9] = { 0x66, 0x0f, 0x1f, 0x84, 0x00,
				   0x00, 0x00, 0xc0, 0x5a };

static int mem_modrm(const uint8_t *p, size_t i, size_t len, int *reg)
{
	if (i >= len || (p[i] >> 6) == 3)
		return 0;
	*reg = (p[i] >> 3) & 7;
	return 1;
}

/*
 * Is the instruction a lockable read-modify-write with a memory
 * destination (the ones LOCK is valid on)?  *xchg: XCHG, atomic without
 * a prefix.  i indexes the opcode.
 */
static int lockable(const uint8_t *p, size_t i, size_t len, int *xchg)
{
	uint8_t op;
	int reg;

	*xchg = 0;
	if (i >= len)
		return 0;
	op = p[i];
	if (op == 0x0f) {
		if (++i >= len)
			return 0;
		op = p[i];
		if (!mem_modrm(p, i + 1, len, &reg))
			return 0;
		switch (op) {
		case 0xab: /* bts */
		case 0xb3: /* btr */
		case 0xbb: /* btc */
		case 0xb0: /* cmpxchg */
		case 0xb1:
		case 0xc0: /* xadd */
		case 0xc1:
			return 1;
		case 0xba: /* bts/btr/btc imm8 */
			return reg >= 5;
		case 0xc7: /* cmpxchg8b/16b */
			return reg == 1;
		}
		return 0;
	}
	if (!mem_modrm(p, i + 1, len, &reg))
		return 0;
	/* add or adc sbb and sub xor r/m, reg */
	if (op < 0x40 && (op & 7) <= 1 && (op >> 3) != 7)
		return 1;
	switch (op) {
	case 0x80: /* group 1 r/m, imm: all but cmp */
	case 0x81:
	case 0x82:
	case 0x83:
		return reg != 7;
	case 0x86: /* xchg */
	case 0x87:
		*xchg = 1;
		return 1;
	case 0xf6: /* not, neg */
	case 0xf7:
		return reg == 2 || reg == 3;
	case 0xfe: /* inc, dec */
	case 0xff:
		return reg <= 1;
	}
	return 0;
}

static void decode(const uint8_t *p, size_t len, struct insn_info *ii)
{
	int lock = 0, ds = 0, rep = 0, xchg;
	size_t i;

	memset(ii, 0, sizeof(*ii));
	if (len == sizeof(marker) && !memcmp(p, marker, 5) &&
	    !memcmp(p + 7, marker + 7, 2) &&
	    (p[6] == MARK_START || p[6] == MARK_STOP)) {
		ii->mark = p[6];
		ii->label = p[5];
		return;
	}
	for (i = 0; i < len; i++) {
		switch (p[i]) {
		case 0xf0:
			lock = 1;
			continue;
		case 0xf2:
		case 0xf3:
			rep = 1;
			continue;
		case 0x3e:
			ds = 1;
			continue;
		case 0x2e:
		case 0x26:
		case 0x36:
		case 0x64:
		case 0x65:
		case 0x66:
		case 0x67:
			continue;
		}
		break;
	}
	/*
	 * A REX prefix (64-bit code).  In 32-bit code 0x40-0x4f are inc/dec
	 * of a register, one byte long: then nothing follows and nothing
	 * matches.
	 */
	if (i < len && (p[i] & 0xf0) == 0x40)
		i++;
	if (i >= len)
		return;
	if (rep && (p[i] == 0xa4 || p[i] == 0xa5 || p[i] == 0xaa ||
		    p[i] == 0xab))
		ii->rep_string = 1;
	if (lockable(p, i, len, &xchg) && (lock || ds || xchg))
		ii->atomic = 1;
}

/* --- windows ------------------------------------------------------------- */

static void window_start(void)
{
	struct rec *r;

	pthread_mutex_lock(&lock);
	for (r = all_recs; r; r = r->next)
		r->execs = 0;
	pthread_mutex_unlock(&lock);
}

static void window_dump(const char *label)
{
	uint64_t insns = 0, atomics = 0, blocks = 0, *snap;
	char path[4096], tmp[4200];
	struct rec *r;
	FILE *f;
	size_t i;

	pthread_mutex_lock(&lock);
	/* one snapshot, so that the totals match the lines */
	snap = malloc((n_recs + 1) * sizeof(*snap));
	if (!snap)
		die("malloc");
	for (r = all_recs, i = 0; r; r = r->next, i++) {
		snap[i] = r->execs;
		if (!snap[i])
			continue;
		insns += snap[i] * r->n_insns;
		atomics += snap[i] * r->atomics;
		blocks++;
	}
	seq++;
	snprintf(path, sizeof(path), "%s.%u.%s.tbs", out_prefix, seq, label);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "smcprof: %s: %s\n", tmp, strerror(errno));
		goto out;
	}
	fprintf(f, "# smcprof 1\n# label %s seq %u\n", label, seq);
	fprintf(f, "# insns %" PRIu64 " atomics %" PRIu64 " blocks %" PRIu64
		"\n", insns, atomics, blocks);
	fprintf(f, "# vaddr n_insns execs atomics flags\n");
	for (r = all_recs, i = 0; r; r = r->next, i++)
		if (snap[i])
			fprintf(f, "%" PRIx64 " %u %" PRIu64 " %u %u\n",
				r->vaddr, r->n_insns, snap[i], r->atomics,
				r->flags);
	if (fclose(f) || rename(tmp, path))
		fprintf(stderr, "smcprof: %s: %s\n", path, strerror(errno));
out:
	pthread_mutex_unlock(&lock);
	free(snap);
}

static void mark_exec(unsigned int vcpu, void *udata)
{
	uintptr_t v = (uintptr_t)udata;
	char label[8];

	(void)vcpu;
	if ((v >> 8) == MARK_START) {
		window_start();
	} else {
		snprintf(label, sizeof(label), "%u", (unsigned int)(v & 0xff));
		window_dump(label);
	}
}

/* --- translation ------------------------------------------------------- */

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i, seg = 0;
	uint32_t atomics = 0, flags = 0;
	struct insn_info ii;
	void *mark;

	(void)id;
	pthread_mutex_lock(&lock);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		struct qemu_plugin_insn *first;
		struct rec *r;

		decode(qemu_plugin_insn_data(insn),
		       qemu_plugin_insn_size(insn), &ii);
		if (i == seg)
			flags = ii.rep_string ? FLAG_REP_STRING : 0;
		atomics += ii.atomic;
		if (!ii.mark && i + 1 < n)
			continue;
		/* the segment [seg, i] ends here */
		first = qemu_plugin_tb_get_insn(tb, seg);
		r = rec_get(qemu_plugin_insn_vaddr(first), i - seg + 1,
			    atomics, flags);
		if (seg == 0)
			qemu_plugin_register_vcpu_tb_exec_inline(tb, ADD, &r->execs, 1);
		else
			qemu_plugin_register_vcpu_insn_exec_inline(first, ADD, &r->execs, 1);
		if (ii.mark) {
			mark = (void *)(uintptr_t)(ii.mark << 8 | ii.label);
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_exec,
							       QEMU_PLUGIN_CB_NO_REGS, mark);
		}
		seg = i + 1;
		atomics = 0;
	}
	pthread_mutex_unlock(&lock);
}

/* --- host control FIFO ------------------------------------------------ */

static int valid_label(const char *s)
{
	static const char word[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
	size_t n = strlen(s);

	if (!n || n > LABEL_MAX)
		return 0;
	return strspn(s, word) == n;
}

static void *ctl_thread(void *arg)
{
	FILE *f = arg;
	char line[256], word[LABEL_MAX + 2];

	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!strcmp(line, "start"))
			window_start();
		else if (sscanf(line, "stop %65s", word) == 1 &&
			 valid_label(word))
			window_dump(word);
		else if (line[0])
			fprintf(stderr, "smcprof: ctl: bad line '%s'\n", line);
	}
	return NULL;
}

static int ctl_open(const char *path)
{
	pthread_t t;
	FILE *f;
	int fd;

	/* read-write: a FIFO then never reads end-of-file between writers */
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "smcprof: ctl %s: %s\n", path, strerror(errno));
		return -1;
	}
	f = fdopen(fd, "r");
	if (!f || pthread_create(&t, NULL, ctl_thread, f)) {
		fprintf(stderr, "smcprof: ctl %s: no thread\n", path);
		return -1;
	}
	pthread_detach(t);
	return 0;
}

/* --- setup ------------------------------------------------------------- */

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	char s[128];

	(void)id;
	(void)udata;
	snprintf(s, sizeof(s), "smcprof: %u dumps, %zu blocks\n", seq, n_recs);
	qemu_plugin_outs(s);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *ctl = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			out_prefix = argv[i] + 4;
		} else if (!strncmp(argv[i], "ctl=", 4) && argv[i][4]) {
			ctl = argv[i] + 4;
		} else {
			fprintf(stderr, "smcprof: unknown argument '%s' (out=PREFIX, ctl=FIFO)\n",
				argv[i]);
			return -1;
		}
	}
	if (info->system_emulation && info->system.smp_vcpus > 1)
		fprintf(stderr, "smcprof: %d vCPUs: counts are exact with -smp 1 only\n",
			info->system.smp_vcpus);
	out_prefix = strdup(out_prefix);
	if (!out_prefix || (ctl && ctl_open(ctl)))
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
