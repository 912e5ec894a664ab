/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfdata: write a perf.data file from an etecap (OpenCSD) snapshot
 * directory, for `perf script`/`perf report` to decode the ETE trace as
 * cs_etm AUX trace (per-CPU TRBE data: unformatted, raw ETE).
 *
 * Plain C, no libopencsd: the host's ete-decode and the arm64 etecap can
 * both link it (perfdata*.c, and snapshot.c, which reads the snapshot).
 * See perfdata.c for the file's records and why perf needs each of them.
 */
#ifndef ETE_PERFDATA_H
#define ETE_PERFDATA_H

#include <stddef.h>
#include <stdint.h>

struct perfdata_opts {
	/* the CPU whose trace to write, or -1 (default) for every CPU */
	int cpu;
	/*
	 * Task IDs the trace's Context packets carry (context ID, or the
	 * VMID at EL2 with VHE) besides the traced tasks of contexts.txt:
	 * each gets a COMM (from contexts.txt, else "ctx-<id>") and the
	 * snapshot's user memory images mapped (PERF_RECORD_MMAP2).
	 */
	const uint32_t *tids;
	size_t ntids;
	/*
	 * Where to write the ELF images perf reads the code from (they are
	 * named by absolute path in the perf.data); NULL: "<out>.d"
	 */
	const char *elf_dir;
	/* print what was written to this stream, if not NULL */
	void *log;	/* FILE * */
};

/*
 * perfdata_write() - build a perf.data from snapshot directory @snapdir
 * and write it to @out (ELF images of the memory dumps into
 * @opts->elf_dir).  @opts may be NULL for the defaults.
 *
 * Return: 0, or -errno with a message naming what is wrong in @err
 * (@errlen bytes).
 */
int perfdata_write(const char *snapdir, const char *out,
		   const struct perfdata_opts *opts, char *err, size_t errlen);

#endif /* ETE_PERFDATA_H */
