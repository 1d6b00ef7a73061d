// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - SCO BFS prober.
 *
 * Linux 6.12 bfs_fill_super(): s_time_min 0, s_time_max U32_MAX.
 */
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define BFS_MAGIC	0x1BADFACE
#define BFS_BSIZE	512
#define BFS_DIRENT_SIZE	16

struct bfs_super_block {
	uint32_t	s_magic;
	uint32_t	s_start;
	uint32_t	s_end;
	uint32_t	s_from;
	uint32_t	s_to;
	int32_t		s_bfrom;
	int32_t		s_bto;
	char		s_fsname[6];
	char		s_volume[6];
	uint32_t	s_padding[118];
} __attribute__((packed));

_Static_assert(sizeof(struct bfs_super_block) == 512, "bfs superblock size");

static int probe_bfs(struct fsa_dev *dev, const struct fsa_env *env,
		     struct fsa_info *info)
{
	const struct bfs_super_block *sb;
	uint32_t start, end;

	(void) env;
	sb = fsa_read_type(dev, 0, struct bfs_super_block);
	if (!sb)
		return fsa_read_fail(info, "superblock");
	if (le32toh(sb->s_magic) != BFS_MAGIC)
		return fsa_nomatch(info, "bad magic");
	start = le32toh(sb->s_start);
	end = le32toh(sb->s_end);
	/* bfs_fill_super() */
	if (start > end || start < sizeof(*sb) + BFS_DIRENT_SIZE)
		return fsa_nomatch(info, "bad inode table bounds");
	if ((end + 1ULL) / BFS_BSIZE > dev->size / BFS_BSIZE + 1)
		return fsa_nomatch(info, "filesystem larger than the device");

	fsa_set_limits(info, 0, FSA_U32_MAX, FSA_U32_MAX);
	return 0;
}

static const char *const bfs_types[] = { "bfs", NULL };

const struct fsa_prober bfs_prober = {
	.name = "bfs",
	.types = bfs_types,
	.probe = probe_bfs,
};
