// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - btrfs prober.
 *
 * btrfs sets no s_time_min/s_time_max (VFS default TIME64_MIN/MAX) and
 * stores struct btrfs_timespec { __le64 sec; __le32 nsec; }: the full
 * signed 64-bit range.
 */
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define BTRFS_SUPER_INFO_OFFSET		65536
#define BTRFS_MAGIC			"_BHRfS_M"

struct btrfs_super_block {
	uint8_t		csum[32];		/* 0x00 */
	uint8_t		fsid[16];		/* 0x20 */
	uint64_t	bytenr;			/* 0x30 */
	uint64_t	flags;
	char		magic[8];		/* 0x40 */
	uint64_t	generation;
	uint64_t	root;			/* 0x50 */
	uint64_t	chunk_root;
	uint64_t	log_root;		/* 0x60 */
	uint64_t	log_root_transid;
	uint64_t	total_bytes;		/* 0x70 */
	uint64_t	bytes_used;
	uint64_t	root_dir_objectid;	/* 0x80 */
	uint64_t	num_devices;
	uint32_t	sectorsize;		/* 0x90 */
	uint32_t	nodesize;
	uint32_t	leafsize;
	uint32_t	stripesize;
	uint32_t	sys_chunk_array_size;	/* 0xA0 */
	uint64_t	chunk_root_generation;
	uint64_t	compat_flags;
	uint64_t	compat_ro_flags;
	uint64_t	incompat_flags;
	uint16_t	csum_type;
	uint8_t		root_level;
	uint8_t		chunk_root_level;
	uint8_t		log_root_level;
} __attribute__((packed));

#define BTRFS_FEATURE_INCOMPAT_MIXED_GROUPS	(1ULL << 2)

static int probe_btrfs(struct fsa_dev *dev, const struct fsa_env *env,
		       struct fsa_info *info)
{
	const struct btrfs_super_block *sb;
	uint32_t ss, ns;

	(void) env;
	sb = fsa_read_type(dev, BTRFS_SUPER_INFO_OFFSET, struct btrfs_super_block);
	if (!sb)
		return fsa_read_fail(info, "superblock");
	if (memcmp(sb->magic, BTRFS_MAGIC, 8) != 0)
		return fsa_nomatch(info, "bad magic");
	if (le64toh(sb->bytenr) != BTRFS_SUPER_INFO_OFFSET)
		return fsa_nomatch(info, "superblock records a different location");
	ss = le32toh(sb->sectorsize);
	ns = le32toh(sb->nodesize);
	/* btrfs_validate_super() */
	if (ss < 4096 || ss > 65536 || !fsa_is_power_of_2(ss))
		return fsa_nomatch(info, "bad sector size %u", ss);
	if (ns < ss || ns > 65536 || !fsa_is_power_of_2(ns))
		return fsa_nomatch(info, "bad node size %u", ns);
	if (!le64toh(sb->num_devices))
		return fsa_nomatch(info, "no devices");

	snprintf(info->format, sizeof(info->format), "%u-byte sectors, %u-byte nodes%s",
		 ss, ns, le64toh(sb->incompat_flags) & BTRFS_FEATURE_INCOMPAT_MIXED_GROUPS
		 ? ", mixed block groups" : "");
	fsa_set_limits(info, FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX);
	return 0;
}

static const char *const btrfs_types[] = { "btrfs", NULL };

const struct fsa_prober btrfs_prober = {
	.name = "btrfs",
	.types = btrfs_types,
	.probe = probe_btrfs,
};
