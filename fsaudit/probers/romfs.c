// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - romfs prober.
 *
 * Linux 6.12 romfs_fill_super(): s_time_min = s_time_max = 0: the format
 * stores no timestamps.  Read-only.
 */
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define ROMFS_MIN_SIZE	32

struct romfs_super_block {
	char		magic[8];		/* "-rom1fs-" */
	uint32_t	full_size;		/* big-endian */
	uint32_t	checksum;
	char		name[16];
} __attribute__((packed));

static int probe_romfs(struct fsa_dev *dev, const struct fsa_env *env,
		       struct fsa_info *info)
{
	const struct romfs_super_block *sb;
	uint32_t size;

	(void) env;
	sb = fsa_read_type(dev, 0, struct romfs_super_block);
	if (!sb)
		return fsa_read_fail(info, "superblock");
	if (memcmp(sb->magic, "-rom1fs-", 8) != 0)
		return fsa_nomatch(info, "bad magic");
	size = be32toh(sb->full_size);
	/* romfs_fill_super() */
	if (size < ROMFS_MIN_SIZE)
		return fsa_nomatch(info, "size %u too small", size);
	if (size > dev->size)
		return fsa_nomatch(info, "image shorter than the filesystem");

	fsa_set_limits(info, 0, 0, 0);
	info->no_times = 1;
	info->read_only = 1;
	fsa_note(info, "stores no timestamps (all files are 1970-01-01)");
	return 0;
}

static const char *const romfs_types[] = { "romfs", NULL };

const struct fsa_prober romfs_prober = {
	.name = "romfs",
	.types = romfs_types,
	.probe = probe_romfs,
};
