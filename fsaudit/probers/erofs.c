// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - EROFS prober.
 *
 * erofs sets no s_time_min/s_time_max.  Extended inodes hold __le64
 * i_mtime, compact inodes use the superblock's __le64 build_time: the
 * full 64-bit range.  Read-only.
 */
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define EROFS_SUPER_OFFSET	1024
#define EROFS_SUPER_MAGIC_V1	0xE0F5E1E2

struct erofs_super_block {
	uint32_t	magic;			/* 0x00 */
	uint32_t	checksum;
	uint32_t	feature_compat;
	uint8_t		blkszbits;		/* 0x0C */
	uint8_t		sb_extslots;
	uint16_t	root_nid;
	uint64_t	inos;			/* 0x10 */
	uint64_t	build_time;		/* 0x18 */
	uint32_t	build_time_nsec;
	uint32_t	blocks;			/* 0x24 */
	uint32_t	meta_blkaddr;
	uint32_t	xattr_blkaddr;
	uint8_t		uuid[16];		/* 0x30 */
	uint8_t		volume_name[16];	/* 0x40 */
	uint32_t	feature_incompat;	/* 0x50 */
} __attribute__((packed));

static int probe_erofs(struct fsa_dev *dev, const struct fsa_env *env,
		       struct fsa_info *info)
{
	const struct erofs_super_block *sb;

	(void) env;
	sb = fsa_read_type(dev, EROFS_SUPER_OFFSET, struct erofs_super_block);
	if (!sb)
		return fsa_read_fail(info, "superblock");
	if (le32toh(sb->magic) != EROFS_SUPER_MAGIC_V1)
		return fsa_nomatch(info, "bad magic");
	/* erofs_read_superblock(): 512 B .. page size (4 KiB on x86) */
	if (sb->blkszbits < 9 || sb->blkszbits > 12)
		return fsa_nomatch(info, "bad block size (log %u)", sb->blkszbits);
	if (!le32toh(sb->blocks))
		return fsa_nomatch(info, "no blocks");

	snprintf(info->format, sizeof(info->format), "%u-byte blocks", 1U << sb->blkszbits);
	fsa_set_limits(info, FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX);
	info->read_only = 1;
	return 0;
}

static const char *const erofs_types[] = { "erofs", NULL };

const struct fsa_prober erofs_prober = {
	.name = "erofs",
	.types = erofs_types,
	.probe = probe_erofs,
};
