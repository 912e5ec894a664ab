// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: the kernel's memory images.  Text and module images from
 * /proc/kcore where it exists (etecap_mem_add_region(), cut around what
 * the memory set holds already); kernel.txt records _text, the link
 * address and the KASLR offset, modules.txt /proc/modules.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/elf.h>

#include "etecap.h"

/* Address of symbol @name in /proc/kallsyms, or 0 */
static __u64 ksym_addr(const char *name)
{
	char line[256], sym[128];
	unsigned long long a;
	__u64 found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %*s %127s", &a, sym) == 2 && !strcmp(sym, name)) {
			found = a;
			break;
		}
	fclose(f);
	return found;
}

/*
 * The size of arm64's module area below the kernel image: 128 MiB up to
 * Linux 6.4, 2 GiB from 6.5 (MODULES_VSIZE, when module placement was
 * reworked), read from the running kernel's release.
 */
static __u64 modules_vsize(void)
{
	struct utsname u;
	int major, minor;

	if (!uname(&u) && sscanf(u.release, "%d.%d", &major, &minor) == 2 &&
	    (major > 6 || (major == 6 && minor >= 5)))
		return 2048ULL << 20;
	return 128ULL << 20;
}

/*
 * The address arm64 links _text at: KIMAGE_VADDR, the end of the module
 * area at the bottom of the kernel's half for VA_BITS_MIN.  The highest
 * candidate not above @text is the kernel's; @va_bits gets it.
 */
static __u64 link_address(__u64 text, int *va_bits)
{
	static const int bits[] = { 36, 39, 42, 47, 48 };
	__u64 modules = modules_vsize();
	int i;

	for (i = 0; i < 5; i++) {
		__u64 link = -(1ULL << (bits[i] - 1)) + modules;

		if (link <= text) {
			*va_bits = bits[i];
			return link;
		}
	}
	*va_bits = 0;
	return 0;
}

/* Copy /proc/modules into modules.txt */
static void save_modules(const char *dir)
{
	char path[ETECAP_PATH], line[ETECAP_MAPS_LINE];
	FILE *in = fopen("/proc/modules", "r"), *out;

	if (!in)
		return;
	etecap_path(path, sizeof(path), "%s/modules.txt", dir);
	out = fopen(path, "w");
	while (out && fgets(line, sizeof(line), in))
		fputs(line, out);
	if (out)
		fclose(out);
	fclose(in);
}

/* Add [va, va + len) as read through /proc/kcore's PT_LOAD segments */
static void add_from_kcore(struct etecap_memset *m, const char *dir, int kcore,
			   __u64 va, __u64 len, const char *what)
{
	struct elf64_hdr eh;
	struct elf64_phdr ph;
	int i;

	if (!etecap_read_at(kcore, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG))
		return;
	for (i = 0; i < eh.e_phnum; i++) {
		if (!etecap_read_at(kcore, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)))
			return;
		if (ph.p_type != PT_LOAD || va < ph.p_vaddr ||
		    va + len > ph.p_vaddr + ph.p_memsz)
			continue;
		etecap_mem_add_region(m, dir, va, len, kcore,
				      ph.p_offset + (va - ph.p_vaddr), what,
				      NULL);
		return;
	}
	fprintf(m->log, "skip  0x%llx 0x%llx %s: not in /proc/kcore\n",
		(unsigned long long)va, (unsigned long long)len, what);
}

static void add_modules(struct etecap_memset *m, const char *dir, int kcore)
{
	char line[512], name[64], what[96];
	unsigned long long size, addr;
	FILE *f = fopen("/proc/modules", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %llu %*s %*s %*s %llx", name, &size, &addr) != 3 ||
		    !addr)
			continue;
		snprintf(what, sizeof(what), "module %s", name);
		add_from_kcore(m, dir, kcore, addr, size, what);
	}
	if (f)
		fclose(f);
}

/*
 * kernel.txt (where the kernel runs and its KASLR offset), modules.txt,
 * and the kernel text and modules from /proc/kcore if there is one.
 * 0 or -errno (kernel.txt could not be written).
 */
int etecap_mem_add_kernel(struct etecap_memset *m, const char *dir)
{
	__u64 text = ksym_addr("_text"), stext = ksym_addr("_stext");
	__u64 etext = ksym_addr("_etext"), link;
	char path[ETECAP_PATH];
	int va_bits, kcore;
	FILE *f;

	etecap_path(path, sizeof(path), "%s/kernel.txt", dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	link = link_address(text, &va_bits);
	fprintf(f, "_text=0x%llx\n_stext=0x%llx\n_etext=0x%llx\n",
		(unsigned long long)text, (unsigned long long)stext,
		(unsigned long long)etext);
	if (text)
		fprintf(f, "va_bits=%d\nlink_text=0x%llx\nkaslr_offset=0x%llx\n",
			va_bits, (unsigned long long)link,
			(unsigned long long)(text - link));
	else
		fprintf(f, "# /proc/kallsyms hides addresses (kptr_restrict)\n");
	save_modules(dir);
	kcore = open("/proc/kcore", O_RDONLY | O_CLOEXEC);
	if (kcore < 0) {
		fprintf(f, "# kernel text not saved: /proc/kcore: %s\n", strerror(errno));
		fprintf(m->log, "skip  kernel text: /proc/kcore: %s\n", strerror(errno));
	} else if (stext && etext > stext) {
		fprintf(f, "kcore=yes\n");
		add_from_kcore(m, dir, kcore, stext, etext - stext, "kernel text");
		add_modules(m, dir, kcore);
	}
	if (kcore >= 0)
		close(kcore);
	fclose(f);
	return 0;
}
