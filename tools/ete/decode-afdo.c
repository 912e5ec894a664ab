// SPDX-License-Identifier: GPL-2.0
/*
 * decode-afdo.c - ete-decode --to-autofdo: the decoded trace as the text
 * input of AutoFDO's profile tools (create_llvm_prof and create_gcov
 * --profiler=text; llvm-profgen's unsymbolized profile is the same
 * format), for one binary:
 *
 *	N			ranges executed in the binary, then one per line:
 *	BEGIN-END:COUNT		BEGIN the first instruction's address, END
 *				the last byte of the last instruction
 *	0			(no address samples)
 *	M			taken branches within the binary, one per line:
 *	FROM->TO:COUNT
 *
 * Addresses are hexadecimal, relative to the binary's base (the virtual
 * address of its first PT_LOAD segment, as AutoFDO's symbol map takes
 * it), where it was mapped: a non-PIE executable at its link addresses,
 * a PIE binary or a shared library at the load bias elf.txt gives for a
 * file of the same name.
 *
 * Every decoded range counts, not a sample of them: the counts are
 * instructions executed, not LBR records.  END is a byte, not an
 * instruction, because AutoFDO weighs a range by 1 + END - BEGIN (x86's
 * byte lengths): so a function's total is 4 times its instructions, in
 * proportion with them, while its lines count instructions.  A branch is the last
 * instruction of a range, when it was a taken branch, to the first of
 * the next range of the same decode; a trace on, a loss of sync, an
 * exception, a Q element or a gap between segments breaks the chain, so
 * no window of sampled trace joins the next.
 */
#include "ete-decode.h"

/* An open-addressing table of (a, b) -> count; a never 0 in use */
struct afdo_map {
	struct afdo_ent { uint64_t a, b, n; } *e;
	size_t len;
	size_t cap;		/* a power of two */
};

struct afdo {
	struct afdo_map ranges;
	struct afdo_map branches;
	uint64_t last;		/* the last range's last instruction, 0: none */
	bool last_br;		/* ... was a taken branch */
};

static uint64_t afdo_hash(uint64_t a, uint64_t b)
{
	uint64_t h = (a ^ (b * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;

	return h ^ (h >> 31);
}

static void afdo_add(struct afdo_map *m, uint64_t a, uint64_t b, uint64_t n)
{
	struct afdo_ent *e;
	size_t i;

	if (!a)			/* the table's empty mark: address 0 not kept */
		return;
	if (2 * (m->len + 1) > m->cap) {
		struct afdo_map big = { .cap = m->cap ? 2 * m->cap : 1024 };

		big.e = calloc(big.cap, sizeof(*big.e));
		if (!big.e) {
			perror("ete-decode");
			exit(2);
		}
		for (i = 0; i < m->cap; i++)
			if (m->e[i].a)
				afdo_add(&big, m->e[i].a, m->e[i].b, m->e[i].n);
		free(m->e);
		*m = big;
	}
	for (i = afdo_hash(a, b) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		e = &m->e[i];
		if (!e->a) {
			e->a = a;
			e->b = b;
			m->len++;
			break;
		}
		if (e->a == a && e->b == b)
			break;
	}
	e->n += n;
}

/* The decode @d counts into a table of its own (a decode thread each) */
static struct afdo *afdo_of(struct decode *d)
{
	if (!d->afdo) {
		d->afdo = calloc(1, sizeof(*d->afdo));
		if (!d->afdo) {
			perror("ete-decode");
			exit(2);
		}
	}
	return d->afdo;
}

void afdo_range(struct decode *d, const ocsd_generic_trace_elem *e)
{
	struct afdo *a = afdo_of(d);
	uint64_t last;

	if (!e->num_instr_range || e->en_addr <= e->st_addr) {
		afdo_break(d);
		return;
	}
	last = e->en_addr - (e->last_instr_sz ? e->last_instr_sz : 4);
	afdo_add(&a->ranges, e->st_addr, e->en_addr - 1, 1);
	if (a->last && a->last_br)
		afdo_add(&a->branches, a->last, e->st_addr, 1);
	a->last = last;
	a->last_br = e->last_instr_exec && e->last_i_type != OCSD_INSTR_OTHER;
}

void afdo_break(struct decode *d)
{
	if (d->afdo)
		d->afdo->last = 0;
}

/* ---- the binary the input is for ---- */

struct afdo_bin {
	uint64_t base;		/* first PT_LOAD's p_vaddr */
	uint64_t bias;		/* where it was mapped */
	uint64_t lo[16], hi[16];	/* its executable segments, mapped */
	size_t nseg;
};

/* elf.txt's load bias of a file named as @path (its last component) */
static bool elf_txt_bias(const char *dir, const char *path, uint64_t *bias)
{
	const char *want = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char *p = path_in(dir, "elf.txt"), line[1024];
	FILE *f = fopen(p, "r");
	bool found = false;

	free(p);
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long b;
		const char *name;
		int at = 0;

		line[strcspn(line, "\n")] = 0;
		if (line[0] == '#' || sscanf(line, "%llx %n", &b, &at) < 1 || !at)
			continue;
		name = strrchr(line + at, '/') ? strrchr(line + at, '/') + 1 : line + at;
		if (!strcmp(name, want)) {
			*bias = b;
			found = true;
		}
	}
	fclose(f);
	return found;
}

static int afdo_read_bin(const char *dir, const char *path, struct afdo_bin *bin)
{
	struct elf64_hdr eh;
	struct elf64_phdr ph;
	bool based = false;
	FILE *f = fopen(path, "rb");
	int i, ret = 2;

	if (!f) {
		fprintf(stderr, "ete-decode: %s: %s\n", path, strerror(errno));
		return 2;
	}
	memset(bin, 0, sizeof(*bin));
	if (fread(&eh, sizeof(eh), 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(ph) ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)) {
		fprintf(stderr, "ete-decode: %s: not a 64-bit ELF executable or library\n",
			path);
		goto out;
	}
	if (!elf_txt_bias(dir, path, &bin->bias) && eh.e_type == ET_DYN) {
		fprintf(stderr, "ete-decode: %s: %s\n", path,
			"position-independent, and the snapshot's elf.txt has no load bias for a file of its name");
		goto out;
	}
	for (i = 0; i < eh.e_phnum; i++) {
		if (fseek(f, eh.e_phoff + (uint64_t)i * sizeof(ph), SEEK_SET) ||
		    fread(&ph, sizeof(ph), 1, f) != 1) {
			fprintf(stderr, "ete-decode: %s: program header %d unreadable\n",
				path, i);
			goto out;
		}
		if (ph.p_type != PT_LOAD)
			continue;
		if (!based) {
			bin->base = ph.p_vaddr;
			based = true;
		}
		if (!(ph.p_flags & PF_X) || bin->nseg == ARRAY_SIZE(bin->lo))
			continue;
		bin->lo[bin->nseg] = bin->bias + ph.p_vaddr;
		bin->hi[bin->nseg] = bin->bias + ph.p_vaddr + ph.p_memsz;
		bin->nseg++;
	}
	if (!bin->nseg) {
		fprintf(stderr, "ete-decode: %s: no executable PT_LOAD segment\n", path);
		goto out;
	}
	ret = 0;
out:
	fclose(f);
	return ret;
}

static bool afdo_in(const struct afdo_bin *bin, uint64_t a)
{
	size_t i;

	for (i = 0; i < bin->nseg; i++)
		if (a >= bin->lo[i] && a < bin->hi[i])
			return true;
	return false;
}

static int cmp_ent(const void *x, const void *y)
{
	const struct afdo_ent *a = x, *b = y;

	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return a->b < b->b ? -1 : a->b > b->b;
}

/* @m's entries within @bin, merged into @into */
static void afdo_merge(struct afdo_map *into, const struct afdo_map *m,
		       const struct afdo_bin *bin, uint64_t *outside)
{
	size_t i;

	for (i = 0; i < m->cap; i++) {
		const struct afdo_ent *e = &m->e[i];

		if (!e->a)
			continue;
		if (afdo_in(bin, e->a) && afdo_in(bin, e->b))
			afdo_add(into, e->a, e->b, e->n);
		else if (outside)
			*outside += e->n;
	}
}

/* @m's entries, sorted, as "COUNT\nA<sep>B:N..." relative to @off */
static void afdo_print(FILE *f, struct afdo_map *m, const char *sep, uint64_t off)
{
	size_t i, n = 0;

	for (i = 0; i < m->cap; i++)
		if (m->e[i].a)
			m->e[n++] = m->e[i];
	qsort(m->e, n, sizeof(*m->e), cmp_ent);
	fprintf(f, "%zu\n", n);
	for (i = 0; i < n; i++)
		fprintf(f, "%llx%s%llx:%llu\n", ULL(m->e[i].a - off), sep,
			ULL(m->e[i].b - off), ULL(m->e[i].n));
}

int afdo_write(const char *dir, const char *path, const char *binary)
{
	struct afdo_map ranges = { 0 }, branches = { 0 };
	struct afdo_bin bin;
	uint64_t outside = 0, insns = 0, off;
	char *tmp;
	FILE *f;
	size_t k, i;
	int ret;

	ret = afdo_read_bin(dir, binary, &bin);
	if (ret)
		return ret;
	for (k = 0; k < njobs; k++) {
		struct afdo *a = jobs[k].d.afdo;

		if (!a)
			continue;
		afdo_merge(&ranges, &a->ranges, &bin, &outside);
		afdo_merge(&branches, &a->branches, &bin, NULL);
	}
	for (i = 0; i < ranges.cap; i++)
		if (ranges.e[i].a)
			insns += ranges.e[i].n *
				 ((ranges.e[i].b - ranges.e[i].a) / 4 + 1);
	off = bin.bias + bin.base;
	/* written whole to a temporary file, then renamed */
	if (asprintf(&tmp, "%s.tmp%ld", path, (long)getpid()) < 0) {
		perror("ete-decode");
		exit(2);
	}
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "ete-decode: %s: %s\n", tmp, strerror(errno));
		ret = 2;
		goto out;
	}
	fprintf(stderr,
		"ete-decode: %s: %zu ranges (%llu instructions), %zu branches in %s; %llu ranges elsewhere\n",
		path, ranges.len, ULL(insns), branches.len, binary, ULL(outside));
	afdo_print(f, &ranges, "-", off);
	fputs("0\n", f);
	afdo_print(f, &branches, "->", off);
	ret = ferror(f);
	if (fclose(f) || ret || rename(tmp, path)) {
		fprintf(stderr, "ete-decode: %s: %s\n", path, strerror(errno));
		unlink(tmp);
		ret = 2;
	} else if (!ranges.len) {
		fprintf(stderr, "ete-decode: %s: no trace of %s\n", path, binary);
		ret = 1;
	}
out:
	free(tmp);
	free(ranges.e);
	free(branches.e);
	return ret;
}

void afdo_free(struct decode *d)
{
	if (!d->afdo)
		return;
	free(d->afdo->ranges.e);
	free(d->afdo->branches.e);
	free(d->afdo);
	d->afdo = NULL;
}
