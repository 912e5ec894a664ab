/* SPDX-License-Identifier: GPL-2.0 */
/* debugfs files of ete_model.ko and the self-capture behind one of them */
#ifndef _ETE_MODEL_DEBUGFS_H
#define _ETE_MODEL_DEBUGFS_H

#include <linux/types.h>

struct dentry;
struct em_unit;
struct ete_model;
struct seq_file;

/**
 * struct em_capture - trace a private instance wrote into its own buffer
 * @data: the bytes, from TRBBASER_EL1 to the final TRBPTR_EL1
 * @len: their number
 * @regs: TRCIDR0-13, TRCCONFIGR, TRCTRACEIDR, TRCDEVARCH as programmed,
 *	indexed as em_capture_regs[]
 * @violations: violations the capture's own programming caused (0)
 */
struct em_capture {
	u8 *data;
	size_t len;
	u64 regs[17];
	unsigned int violations;
};

extern const u32 em_capture_regs[17];

int em_capture_run(const char *profile, size_t size, struct em_capture *c);
void em_capture_free(struct em_capture *c);
void em_debugfs_init(struct ete_model *m);
struct em_unit;
struct dentry;
void em_progfs_init(struct dentry *root);
void em_progfs_unit(struct em_unit *u, struct dentry *dir);
void em_debugfs_exit(void);
void em_debugfs_show_reg(struct seq_file *s, u32 reg);
void em_pm_debugfs_add(struct dentry *dir, struct em_unit *u);
void em_stall_debugfs_add(struct dentry *dir, struct em_unit *u);

#endif /* _ETE_MODEL_DEBUGFS_H */
