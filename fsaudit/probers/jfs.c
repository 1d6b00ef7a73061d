// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - JFS prober.
 *
 * Linux 6.12 jfs_fill_super(): s_time_min 0, s_time_max U32_MAX
 * (struct timestruc_t { __le32 tv_sec; __le32 tv_nsec; }).
 */
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define JFS_SUPER1_OFF	0x8000
#define JFS_VERSION	2
#define PSIZE		4096

struct jfs_super_block {
	char		s_magic[4];		/* 0x00 "JFS1" */
	uint32_t	s_version;
	uint64_t	s_size;			/* 0x08 */
	uint32_t	s_bsize;		/* 0x10 */
	uint16_t	s_l2bsize;
	uint16_t	s_l2bfactor;
	uint32_t	s_pbsize;		/* 0x18 */
	uint16_t	s_l2pbsize;
	uint16_t	pad;
	uint32_t	s_agsize;		/* 0x20 */
} __attribute__((packed));

static int probe_jfs(struct fsa_dev *dev, const struct fsa_env *env,
		     struct fsa_info *info)
{
	const struct jfs_super_block *sb;
	uint32_t ver, bsize, pbsize;

	(void) env;
	sb = fsa_read_type(dev, JFS_SUPER1_OFF, struct jfs_super_block);
	if (!sb)
		return fsa_read_fail(info, "superblock");
	if (memcmp(sb->s_magic, "JFS1", 4) != 0)
		return fsa_nomatch(info, "bad magic");
	ver = le32toh(sb->s_version);
	bsize = le32toh(sb->s_bsize);
	pbsize = le32toh(sb->s_pbsize);
	/* chkSuper() */
	if (ver < 1 || ver > JFS_VERSION)
		return fsa_nomatch(info, "unsupported version %u", ver);
	if (bsize != PSIZE || le16toh(sb->s_l2bsize) != 12)
		return fsa_nomatch(info, "block size %u is not 4 KiB", bsize);
	if (pbsize < 512 || pbsize > bsize || !fsa_is_power_of_2(pbsize))
		return fsa_nomatch(info, "bad physical block size %u", pbsize);
	if (!le64toh(sb->s_size) || !le32toh(sb->s_agsize))
		return fsa_nomatch(info, "empty filesystem");

	snprintf(info->version, sizeof(info->version), "%u", ver);
	snprintf(info->format, sizeof(info->format), "version %u", ver);
	fsa_set_limits(info, 0, FSA_U32_MAX, FSA_U32_MAX);
	return 0;
}

static const char *const jfs_types[] = { "jfs", NULL };

const struct fsa_prober jfs_prober = {
	.name = "jfs",
	.types = jfs_types,
	.probe = probe_jfs,
};
