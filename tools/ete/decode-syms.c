// SPDX-License-Identifier: GPL-2.0
/*
 * decode-syms.c - what ete-decode names addresses, tasks and times with:
 * the snapshot's symbols.txt, the ELF symbols of its memory images and of
 * elf.txt's files, contexts.txt's tasks and machine.txt's counter
 * frequency.
 */
#include "ete-decode.h"

/* ---- symbols ---- */

static void add_sym(uint64_t addr, uint64_t size, const char *name, size_t len)
{
	struct sym *s = vec_push(&cfg.syms);

	s->addr = addr;
	s->size = size;
	s->name = strndup(name, len);
	if (!s->name) {
		perror("ete-decode");
		exit(2);
	}
}

/*
 * symbols.txt: "0xVA SIZE NAME" lines, SIZE decimal or 0x-prefixed;
 * perf-<pid>.map (a JIT's symbols, as perf reads them from /tmp, which
 * etecap copies): "VA SIZE NAME", both hexadecimal.  '#' lines are
 * comments.
 */
static void read_symbol_file(const char *dir, const char *file, int size_base)
{
	char *p = path_in(dir, file), line[1024];
	FILE *f = fopen(p, "r");

	free(p);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *end, *name;
		uint64_t va, size;
		size_t len;

		if (line[0] == '#')
			continue;
		va = strtoull(line, &end, 16);
		if (end == line)
			continue;
		name = end;
		size = strtoull(name, &end, size_base);
		if (end == name)
			continue;
		name = end + strspn(end, " \t");
		len = strcspn(name, "\r\n");
		if (len && name != end)
			add_sym(va, size, name, len);
	}
	fclose(f);
}

void read_symbols_txt(const char *dir)
{
	struct dirent *d;
	DIR *dd;

	read_symbol_file(dir, "symbols.txt", 0);
	dd = opendir(dir);
	while (dd && (d = readdir(dd))) {
		size_t n = strlen(d->d_name);

		if (!strncmp(d->d_name, "perf-", 5) && n > 9 &&
		    !strcmp(d->d_name + n - 4, ".map"))
			read_symbol_file(dir, d->d_name, 16);
	}
	if (dd)
		closedir(dd);
}

static bool in_file(size_t size, uint64_t off, uint64_t len)
{
	return off <= size && len <= size - off;
}

/*
 * elf_symbols() - add the function symbols of the ELF file @path: those of
 * .symtab, or of .dynsym without one, moved by @bias; or, with @image, as
 * the file's bytes are a memory image at @bias: moved so that the first
 * loadable segment is where its bytes are.  64-bit little-endian files
 * only; -1 for a file that is not one (and says so).
 */
static int elf_symbols(const char *path, uint64_t bias, bool image)
{
	size_t size, i, nsyms, found = 0;
	const struct elf64_shdr *tab = NULL, *str;
	struct elf64_hdr eh;
	struct elf64_shdr *sh;
	char *buf = slurp(path, &size);

	if (!buf) {
		fprintf(stderr, "ete-decode: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (size < sizeof(eh) || memcmp(buf, ELFMAG, SELFMAG))
		goto refuse;
	memcpy(&eh, buf, sizeof(eh));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_shentsize != sizeof(struct elf64_shdr) ||
	    !in_file(size, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(*sh)))
		goto refuse;
	sh = xrealloc(NULL, eh.e_shnum * sizeof(*sh));
	memcpy(sh, buf + eh.e_shoff, eh.e_shnum * sizeof(*sh));
	for (i = 0; i < eh.e_shnum; i++)
		if (sh[i].sh_type == SHT_SYMTAB ||
		    (sh[i].sh_type == SHT_DYNSYM && !tab))
			tab = &sh[i];
	if (image && eh.e_phentsize == sizeof(struct elf64_phdr) &&
	    in_file(size, eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(struct elf64_phdr))) {
		for (i = 0; i < eh.e_phnum; i++) {
			struct elf64_phdr ph;

			memcpy(&ph, buf + eh.e_phoff + i * sizeof(ph), sizeof(ph));
			if (ph.p_type == PT_LOAD) {
				bias += ph.p_offset - ph.p_vaddr;
				break;
			}
		}
	}
	if (!tab || tab->sh_link >= eh.e_shnum || tab->sh_entsize != sizeof(struct elf64_sym) ||
	    !in_file(size, tab->sh_offset, tab->sh_size))
		goto out;
	str = &sh[tab->sh_link];
	if (!in_file(size, str->sh_offset, str->sh_size))
		goto out;
	nsyms = tab->sh_size / sizeof(struct elf64_sym);
	for (i = 0; i < nsyms; i++) {
		const char *name;
		struct elf64_sym s;
		size_t len;

		memcpy(&s, buf + tab->sh_offset + i * sizeof(s), sizeof(s));
		if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF ||
		    s.st_name >= str->sh_size)
			continue;
		name = buf + str->sh_offset + s.st_name;
		len = strnlen(name, str->sh_size - s.st_name);
		if (len && len < str->sh_size - s.st_name) {
			add_sym(s.st_value + bias, s.st_size, name, len);
			found++;
		}
	}
out:
	free(sh);
	free(buf);
	if (!found)
		fprintf(stderr, "ete-decode: %s: no function symbols\n", path);
	return 0;
refuse:
	free(buf);
	fprintf(stderr, "ete-decode: %s: not a 64-bit little-endian ELF file, %s\n",
		path, "its symbols are not read");
	return -1;
}

/* Whether @path starts as an ELF file does */
static bool is_elf(const char *path)
{
	char magic[SELFMAG];
	FILE *f = fopen(path, "rb");
	bool elf;

	if (!f)
		return false;
	elf = fread(magic, 1, SELFMAG, f) == SELFMAG && !memcmp(magic, ELFMAG, SELFMAG);
	fclose(f);
	return elf;
}

/* elf.txt: "0xLOAD_BIAS PATH" lines, PATH relative to the snapshot */
void read_elf_txt(const char *dir)
{
	char *p = path_in(dir, "elf.txt"), line[1024];
	FILE *f = fopen(p, "r");

	free(p);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long bias;
		int at = 0;

		line[strcspn(line, "\r\n")] = 0;
		if (line[0] == '#' || sscanf(line, "%llx %n", &bias, &at) < 1 ||
		    !at || !line[at])
			continue;
		p = path_in(dir, line + at);
		elf_symbols(p, bias, false);
		free(p);
	}
	fclose(f);
}

/* The memory images of a core that are ELF files (each file once) */
void read_image_elfs(const struct ss_device *core, struct vec *seen)
{
	size_t k, i;

	for (k = 0; k < core->ndumps; k++) {
		const struct ss_dump *m = &core->dumps[k];

		for (i = 0; i < seen->len; i++)
			if (!strcmp(AT(*seen, char *, i), m->file))
				break;
		if (i < seen->len)
			continue;
		*(char **)vec_push(seen) = strdup(m->file);
		/* an ELF image is the whole file, at its load bias */
		if (!m->offset && is_elf(m->file))
			elf_symbols(m->file, m->address, true);
	}
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->size < y->size) - (x->size > y->size);
}

void sort_symbols(void)
{
	qsort(cfg.syms.p, cfg.syms.len, sizeof(struct sym), cmp_sym);
}

static bool sym_has(const struct sym *s, uint64_t a)
{
	return a >= s->addr && (a - s->addr < s->size || a == s->addr);
}

/*
 * The function @a is in: the last symbol that starts at or below it and
 * covers it (a symbol of size 0 covers its address only), looking back
 * over a few for one that encloses others
 */
const struct sym *find_sym(struct decode *d, uint64_t a)
{
	const struct sym *s = cfg.syms.p;
	size_t lo = 0, hi = cfg.syms.len, back;

	if (d->last_sym && sym_has(d->last_sym, a))
		return d->last_sym;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (back = 0; lo > 0 && back < 16; lo--, back++)
		if (sym_has(&s[lo - 1], a))
			return d->last_sym = &s[lo - 1];
	return NULL;
}

/* ---- tasks, time ---- */

static int cmp_task(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* contexts.txt: "context_id tgid comm" lines, '#' comments */
void read_contexts(const char *dir)
{
	char *p = path_in(dir, "contexts.txt"), line[512];
	FILE *f = fopen(p, "r");

	free(p);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long id;
		long tgid;
		int at = 0;
		struct task *t;

		if (line[0] == '#' || sscanf(line, "%lu %ld %n", &id, &tgid, &at) < 2 ||
		    !at || id > UINT32_MAX)
			continue;
		t = vec_push(&cfg.tasks);
		t->id = id;
		t->tgid = tgid;
		t->comm = strndup(line + at, strcspn(line + at, "\r\n"));
	}
	fclose(f);
	qsort(cfg.tasks.p, cfg.tasks.len, sizeof(struct task), cmp_task);
}

const struct task *find_task(uint32_t id)
{
	struct task key = { .id = id };

	return bsearch(&key, cfg.tasks.p, cfg.tasks.len, sizeof(struct task),
		       cmp_task);
}

/* machine.txt's cntfrq_el0=: the timestamps' frequency */
void read_cntfrq(const char *dir)
{
	char *p = path_in(dir, "machine.txt"), line[256];
	FILE *f = fopen(p, "r");

	free(p);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "cntfrq_el0=", 11))
			cfg.cntfrq = strtoull(line + 11, NULL, 0);
	fclose(f);
}
