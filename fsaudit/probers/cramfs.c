// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - cramfs prober.
 *
 * Linux 6.12 cramfs_fill_super(): s_time_min = s_time_max = 0: the
 * format stores no timestamps, every file is 1970-01-01.  Read-only.
 * Debian's 6.12 kernels do not build cramfs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define CRAMFS_MAGIC		0x28cd3d45
#define CRAMFS_MAGIC_WEND	0x453dcd28
#define CRAMFS_SIGNATURE	"Compressed ROMFS"

struct cramfs_super {
	uint32_t	magic;
	uint32_t	size;
	uint32_t	flags;
	uint32_t	future;
	char		signature[16];
	uint32_t	fsid_crc;
	uint32_t	fsid_edition;
	uint32_t	fsid_blocks;
	uint32_t	fsid_files;
	char		name[16];
} __attribute__((packed));

static int probe_cramfs(struct fsa_dev *dev, const struct fsa_env *env,
			struct fsa_info *info)
{
	static const uint64_t offs[] = { 0, 512 };	/* 512: after a boot sector */
	const struct cramfs_super *sb = NULL;
	unsigned i;

	(void) env;
	for (i = 0; i < 2; i++) {
		sb = fsa_read_type(dev, offs[i], struct cramfs_super);
		if (!sb) {
			if (errno)
				return -errno;
			continue;
		}
		if (le32toh(sb->magic) == CRAMFS_MAGIC_WEND)
			return fsa_nomatch(info, "cramfs of the other endianness");
		if (le32toh(sb->magic) == CRAMFS_MAGIC)
			break;
		sb = NULL;
	}
	if (!sb)
		return fsa_nomatch(info, "bad magic");
	if (memcmp(sb->signature, CRAMFS_SIGNATURE, 16) != 0)
		return fsa_nomatch(info, "bad signature");
	if (le32toh(sb->size) > dev->size)
		return fsa_nomatch(info, "image shorter than the filesystem");

	fsa_set_limits(info, 0, 0, 0);
	info->no_times = 1;
	info->read_only = 1;
	fsa_note(info, "stores no timestamps (all files are 1970-01-01); Debian's 6.12 kernel does not build cramfs");
	return 0;
}

static const char *const cramfs_types[] = { "cramfs", NULL };

const struct fsa_prober cramfs_prober = {
	.name = "cramfs",
	.types = cramfs_types,
	.probe = probe_cramfs,
};
