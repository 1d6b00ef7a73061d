// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - reiserfs 3.5 / 3.6 prober.
 *
 * Linux 6.12 reiserfs_fill_super(): s_time_min 0, s_time_max U32_MAX for
 * both formats (stat data times are __le32 read unsigned).  reiserfs is
 * deprecated (5.18) and was removed from mainline in 6.13.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define REISERFS_DISK_OFFSET_IN_BYTES		(64 * 1024)
#define REISERFS_OLD_DISK_OFFSET_IN_BYTES	(8 * 1024)
#define REISERFS_VERSION_1			0	/* 3.5 */
#define REISERFS_VERSION_2			2	/* 3.6 */

struct reiserfs_super_block {
	uint32_t	s_block_count;		/* 0x00 */
	uint32_t	s_free_blocks;
	uint32_t	s_root_block;
	uint32_t	jp_journal_1st_block;	/* 0x0C journal_params */
	uint32_t	jp_journal_dev;
	uint32_t	jp_journal_size;
	uint32_t	jp_journal_trans_max;
	uint32_t	jp_journal_magic;
	uint32_t	jp_journal_max_batch;
	uint32_t	jp_journal_max_commit_age;
	uint32_t	jp_journal_max_trans_age;
	uint16_t	s_blocksize;		/* 0x2C */
	uint16_t	s_oid_maxsize;
	uint16_t	s_oid_cursize;
	uint16_t	s_umount_state;
	char		s_magic[10];		/* 0x34 */
	uint16_t	s_fs_state;
	uint32_t	s_hash_function_code;	/* 0x40 */
	uint16_t	s_tree_height;
	uint16_t	s_bmap_nr;
	uint16_t	s_version;		/* 0x48 */
	uint16_t	s_reserved_for_journal;
	/* 3.6 (v2) part */
	uint32_t	s_inode_generation;	/* 0x4C */
	uint32_t	s_flags;
	uint8_t		s_uuid[16];		/* 0x54 */
	char		s_label[16];		/* 0x64 */
	uint16_t	s_mnt_count;		/* 0x74 */
	uint16_t	s_max_mnt_count;
	uint32_t	s_lastcheck;
	uint32_t	s_check_interval;
	uint8_t		s_unused[76];
} __attribute__((packed));

_Static_assert(sizeof(struct reiserfs_super_block) == 204, "reiserfs superblock size");

static int probe_reiserfs(struct fsa_dev *dev, const struct fsa_env *env,
			  struct fsa_info *info)
{
	static const uint64_t offsets[] = {
		REISERFS_DISK_OFFSET_IN_BYTES, REISERFS_OLD_DISK_OFFSET_IN_BYTES
	};
	const struct reiserfs_super_block *rs = NULL;
	const char *fmt = NULL;
	int jr = 0, old = 0;
	unsigned i, bs;

	(void) env;
	for (i = 0; i < 2 && !fmt; i++) {
		rs = fsa_read_type(dev, offsets[i], struct reiserfs_super_block);
		if (!rs) {
			if (errno)
				return -errno;
			continue;
		}
		if (memcmp(rs->s_magic, "ReIsErFs", 9) == 0)
			fmt = "3.5";
		else if (memcmp(rs->s_magic, "ReIsEr2Fs", 10) == 0)
			fmt = "3.6";
		else if (memcmp(rs->s_magic, "ReIsEr3Fs", 10) == 0) {
			jr = 1;
			fmt = le16toh(rs->s_version) == REISERFS_VERSION_2 ? "3.6" : "3.5";
			if (le16toh(rs->s_version) != REISERFS_VERSION_2
			    && le16toh(rs->s_version) != REISERFS_VERSION_1)
				return fsa_nomatch(info, "unknown format version %u",
						   le16toh(rs->s_version));
		}
		old = i == 1;
	}
	if (!fmt)
		return fsa_nomatch(info, "bad magic");

	bs = le16toh(rs->s_blocksize);
	if (bs < 512 || bs > 65536 || !fsa_is_power_of_2(bs))
		return fsa_nomatch(info, "bad block size %u", bs);
	if (!le32toh(rs->s_block_count) || le32toh(rs->s_root_block) >= le32toh(rs->s_block_count))
		return fsa_nomatch(info, "bad block count");
	/* the old (8 KiB) location only ever held 3.5 with the standard journal */
	if (old && (jr || strcmp(fmt, "3.5") != 0))
		return fsa_nomatch(info, "3.6 superblock at the 3.5 location");

	snprintf(info->version, sizeof(info->version), "%s", fmt);
	snprintf(info->format, sizeof(info->format), "%s%s%s", fmt,
		 jr ? ", non-standard journal" : "", old ? ", old 8 KiB layout" : "");
	fsa_set_limits(info, 0, FSA_U32_MAX, FSA_U32_MAX);
	info->items |= 1U << FSA_ITEM_REISERFS;
	info->fix = FSA_FIX_RECREATE;
	snprintf(info->fix_mkfs, sizeof(info->fix_mkfs), "ext4");
	fsa_fix_why(info, "Linux 6.13 and later cannot mount reiserfs");
	return 0;
}

static const char *const reiserfs_types[] = { "reiserfs", NULL };

const struct fsa_prober reiserfs_prober = {
	.name = "reiserfs",
	.types = reiserfs_types,
	.probe = probe_reiserfs,
};
