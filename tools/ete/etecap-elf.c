// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: ELF files, as far as the snapshot needs them: the build ID
 * (the NT_GNU_BUILD_ID note) of a mapped file, read through its program
 * headers.
 */
#include <fcntl.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

#include <linux/elf.h>

#include "etecap.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID	3
#endif

/**
 * etecap_read_at() - read exactly @n bytes at @off of @fd
 * @fd: the file
 * @buf: where they go
 * @n: how many
 * @off: from where
 *
 * Return: true when all @n were read.
 */
bool etecap_read_at(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off) == (ssize_t)n;
}

static bool note_build_id(int fd, const struct elf64_phdr *ph, char *hex)
{
	unsigned char buf[1024];
	size_t pos = 0, n = ph->p_filesz < sizeof(buf) ? ph->p_filesz : sizeof(buf);

	if (!etecap_read_at(fd, buf, n, ph->p_offset))
		return false;
	while (pos + sizeof(struct elf64_note) <= n) {
		struct elf64_note *nh = (struct elf64_note *)(buf + pos);
		size_t name = pos + sizeof(*nh);
		size_t desc = name + ((nh->n_namesz + 3) & ~3u);
		unsigned int i;

		if (desc + nh->n_descsz > n)
			break;
		if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
		    !memcmp(buf + name, "GNU", 4) && nh->n_descsz <= 20) {
			for (i = 0; i < nh->n_descsz; i++)
				sprintf(hex + 2 * i, "%02x", buf[desc + i]);
			return true;
		}
		pos = desc + ((nh->n_descsz + 3) & ~3u);
	}
	return false;
}

/**
 * etecap_build_id() - the build ID of the ELF file @path
 * @path: the file
 * @hex: 41 bytes, set to the build ID in hex, or "" if it has none
 */
void etecap_build_id(const char *path, char *hex)
{
	struct elf64_hdr eh;
	struct elf64_phdr ph;
	int fd, i;

	hex[0] = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (etecap_read_at(fd, &eh, sizeof(eh), 0) && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
	    eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(ph)) {
		for (i = 0; i < eh.e_phnum; i++) {
			if (!etecap_read_at(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)))
				break;
			if (ph.p_type == PT_NOTE && note_build_id(fd, &ph, hex))
				break;
		}
	}
	close(fd);
}
