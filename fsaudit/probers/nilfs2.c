// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - NILFS2 prober.
 *
 * nilfs2 sets no s_time_min/s_time_max; inodes hold __le64 i_ctime and
 * i_mtime (no atime on disk): the full signed 64-bit range.
 */
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define NILFS_SB_OFFSET_BYTES	1024
#define NILFS_SUPER_MAGIC	0x3434
#define NILFS_CURRENT_REV	2

struct nilfs_super_block {
	uint32_t	s_rev_level;		/* 0x00 */
	uint16_t	s_minor_rev_level;
	uint16_t	s_magic;
	uint16_t	s_bytes;		/* 0x08 */
	uint16_t	s_flags;
	uint32_t	s_crc_seed;
	uint32_t	s_sum;			/* 0x10 */
	uint32_t	s_log_block_size;
	uint64_t	s_nsegments;		/* 0x18 */
	uint64_t	s_dev_size;		/* 0x20 */
	uint64_t	s_first_data_block;
	uint32_t	s_blocks_per_segment;	/* 0x30 */
} __attribute__((packed));

static int probe_nilfs2(struct fsa_dev *dev, const struct fsa_env *env,
			struct fsa_info *info)
{
	const struct nilfs_super_block *sb;
	uint32_t rev, lbs, bytes;

	(void) env;
	sb = fsa_read_type(dev, NILFS_SB_OFFSET_BYTES, struct nilfs_super_block);
	if (!sb)
		return fsa_read_fail(info, "superblock");
	if (le16toh(sb->s_magic) != NILFS_SUPER_MAGIC)
		return fsa_nomatch(info, "bad magic");
	rev = le32toh(sb->s_rev_level);
	lbs = le32toh(sb->s_log_block_size);
	bytes = le16toh(sb->s_bytes);
	if (rev != NILFS_CURRENT_REV)
		return fsa_nomatch(info, "unsupported revision %u", rev);
	if (lbs > 6)
		return fsa_nomatch(info, "bad block size (log %u)", lbs);
	if (bytes < sizeof(*sb) || bytes > 1024)
		return fsa_nomatch(info, "bad superblock size %u", bytes);
	if (!le64toh(sb->s_nsegments) || !le32toh(sb->s_blocks_per_segment))
		return fsa_nomatch(info, "no segments");

	snprintf(info->version, sizeof(info->version), "%u.%u", rev,
		 le16toh(sb->s_minor_rev_level));
	snprintf(info->format, sizeof(info->format), "rev %u.%u", rev,
		 le16toh(sb->s_minor_rev_level));
	fsa_set_limits(info, FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX);
	fsa_note(info, "no access times on disk");
	return 0;
}

static const char *const nilfs2_types[] = { "nilfs2", NULL };

const struct fsa_prober nilfs2_prober = {
	.name = "nilfs2",
	.types = nilfs2_types,
	.probe = probe_nilfs2,
};
