// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - squashfs prober.
 *
 * Linux 6.12 squashfs_fill_super(): s_time_min 0, s_time_max U32_MAX;
 * only format 4.0 is supported.  Read-only.
 */
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define SQUASHFS_MAGIC		0x73717368	/* "hsqs" */
#define SQUASHFS_MAGIC_SWAP	0x68737173

struct squashfs_super_block {
	uint32_t	s_magic;		/* 0x00 */
	uint32_t	inodes;
	uint32_t	mkfs_time;		/* 0x08 */
	uint32_t	block_size;
	uint32_t	fragments;		/* 0x10 */
	uint16_t	compression;
	uint16_t	block_log;
	uint16_t	flags;			/* 0x18 */
	uint16_t	no_ids;
	uint16_t	s_major;		/* 0x1C */
	uint16_t	s_minor;
	uint64_t	root_inode;		/* 0x20 */
	uint64_t	bytes_used;		/* 0x28 */
} __attribute__((packed));

static int probe_squashfs(struct fsa_dev *dev, const struct fsa_env *env,
			  struct fsa_info *info)
{
	const struct squashfs_super_block *sb;
	uint32_t bs;
	unsigned major, minor, blog;

	(void) env;
	sb = fsa_read_type(dev, 0, struct squashfs_super_block);
	if (!sb)
		return fsa_read_fail(info, "superblock");
	if (le32toh(sb->s_magic) == SQUASHFS_MAGIC_SWAP)
		return fsa_nomatch(info, "big-endian squashfs (3.x or older) is not supported by Linux");
	if (le32toh(sb->s_magic) != SQUASHFS_MAGIC)
		return fsa_nomatch(info, "bad magic");
	major = le16toh(sb->s_major);
	minor = le16toh(sb->s_minor);
	bs = le32toh(sb->block_size);
	blog = le16toh(sb->block_log);
	if (major != 4 || minor > 0)
		return fsa_nomatch(info, "squashfs %u.%u is not supported by Linux", major, minor);
	/* squashfs_fill_super(): 4 KiB .. 1 MiB, block_log must match */
	if (bs < 4096 || bs > (1U << 20) || blog > 20 || bs != (1U << blog))
		return fsa_nomatch(info, "bad block size %u", bs);
	if (le64toh(sb->bytes_used) > dev->size)
		return fsa_nomatch(info, "image shorter than the filesystem");

	snprintf(info->version, sizeof(info->version), "%u.%u", major, minor);
	snprintf(info->format, sizeof(info->format), "%u.%u", major, minor);
	fsa_set_limits(info, 0, FSA_U32_MAX, FSA_U32_MAX);
	info->read_only = 1;
	return 0;
}

static const char *const squashfs_types[] = { "squashfs", "squashfs3", NULL };

const struct fsa_prober squashfs_prober = {
	.name = "squashfs",
	.types = squashfs_types,
	.probe = probe_squashfs,
};
