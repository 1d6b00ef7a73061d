// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - f2fs prober.
 *
 * f2fs sets no s_time_min/s_time_max; inodes hold __le64 a/c/mtime: the
 * full signed 64-bit range.
 */
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define F2FS_SUPER_OFFSET	1024
#define F2FS_SUPER_MAGIC	0xF2F52010

struct f2fs_super_block {
	uint32_t	magic;			/* 0x00 */
	uint16_t	major_ver;
	uint16_t	minor_ver;
	uint32_t	log_sectorsize;		/* 0x08 */
	uint32_t	log_sectors_per_block;
	uint32_t	log_blocksize;		/* 0x10 */
	uint32_t	log_blocks_per_seg;
	uint32_t	segs_per_sec;
	uint32_t	secs_per_zone;
	uint32_t	checksum_offset;	/* 0x20 */
	uint64_t	block_count;
	uint32_t	section_count;
	uint32_t	segment_count;
} __attribute__((packed));

static int probe_f2fs(struct fsa_dev *dev, const struct fsa_env *env,
		      struct fsa_info *info)
{
	const struct f2fs_super_block *sb;
	uint32_t lss, lspb;

	(void) env;
	sb = fsa_read_type(dev, F2FS_SUPER_OFFSET, struct f2fs_super_block);
	if (!sb)
		return fsa_read_fail(info, "superblock");
	if (le32toh(sb->magic) != F2FS_SUPER_MAGIC)
		return fsa_nomatch(info, "bad magic");
	/* sanity_check_raw_super() */
	if (le32toh(sb->log_blocksize) != 12)
		return fsa_nomatch(info, "block size is not 4 KiB");
	lss = le32toh(sb->log_sectorsize);
	lspb = le32toh(sb->log_sectors_per_block);
	if (lss < 9 || lss > 12 || lss + lspb != 12)
		return fsa_nomatch(info, "bad sector size");
	if (le32toh(sb->log_blocks_per_seg) != 9)
		return fsa_nomatch(info, "bad segment size");
	if (!le64toh(sb->block_count))
		return fsa_nomatch(info, "no blocks");

	snprintf(info->version, sizeof(info->version), "%u.%u",
		 le16toh(sb->major_ver), le16toh(sb->minor_ver));
	snprintf(info->format, sizeof(info->format), "%u.%u",
		 le16toh(sb->major_ver), le16toh(sb->minor_ver));
	fsa_set_limits(info, FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX);
	return 0;
}

static const char *const f2fs_types[] = { "f2fs", NULL };

const struct fsa_prober f2fs_prober = {
	.name = "f2fs",
	.types = f2fs_types,
	.probe = probe_f2fs,
};
