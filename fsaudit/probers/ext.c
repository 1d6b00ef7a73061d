// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - ext2/ext3/ext4 (and external journal) prober.
 *
 * Limits as set by ext4_inode_info_init() (fs/ext4/super.c) and the ext2
 * driver's ext2_fill_super() in Linux 6.12:
 *   rev >= 1, s_inode_size >= 144 (256, 512, ...): S32_MIN .. 0x37FFFFFFF
 *   rev >= 1, s_inode_size == 128:                 S32_MIN .. S32_MAX
 *   rev 0 (inodes are 128 bytes): S32_MIN .. S32_MAX on disk; stock 6.12
 *       sets no VFS limit and the value wraps mod 2^32, the deprecation
 *       series clamps at S32_MAX (reported as s_time_max)
 *   ext2 driver (fs/ext2), any revision:           S32_MIN .. S32_MAX
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define EXT_SB_OFF			1024
#define EXT_SB_MAGIC			0xEF53
#define EXT_GOOD_OLD_REV		0
#define EXT_DYNAMIC_REV			1
#define EXT_GOOD_OLD_INODE_SIZE		128
#define EXT4_EXTRA_TIMESTAMP_MAX	(((int64_t) 1 << 34) - 1 + FSA_S32_MIN)

#define EXT3_FEATURE_COMPAT_HAS_JOURNAL		0x0004
#define EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER	0x0001
#define EXT2_FEATURE_RO_COMPAT_LARGE_FILE	0x0002
#define EXT2_FEATURE_RO_COMPAT_BTREE_DIR	0x0004
#define EXT4_FEATURE_RO_COMPAT_METADATA_CSUM	0x0400
#define EXT2_FEATURE_INCOMPAT_FILETYPE		0x0002
#define EXT3_FEATURE_INCOMPAT_RECOVER		0x0004
#define EXT3_FEATURE_INCOMPAT_JOURNAL_DEV	0x0008
#define EXT2_FEATURE_INCOMPAT_META_BG		0x0010
#define EXT4_FEATURE_INCOMPAT_64BIT		0x0080
#define EXT4_FEATURE_INCOMPAT_FLEX_BG		0x0200

/* features the ext2 driver (fs/ext2/ext2.h) knows */
#define EXT2_FEATURE_RO_COMPAT_SUPP	(EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER | \
					 EXT2_FEATURE_RO_COMPAT_LARGE_FILE | \
					 EXT2_FEATURE_RO_COMPAT_BTREE_DIR)
#define EXT2_FEATURE_INCOMPAT_SUPP	(EXT2_FEATURE_INCOMPAT_FILETYPE | \
					 EXT2_FEATURE_INCOMPAT_META_BG)

struct ext2_super_block {
	uint32_t	s_inodes_count;			/* 0x00 */
	uint32_t	s_blocks_count;
	uint32_t	s_r_blocks_count;
	uint32_t	s_free_blocks_count;
	uint32_t	s_free_inodes_count;		/* 0x10 */
	uint32_t	s_first_data_block;
	uint32_t	s_log_block_size;
	uint32_t	s_log_cluster_size;
	uint32_t	s_blocks_per_group;		/* 0x20 */
	uint32_t	s_clusters_per_group;
	uint32_t	s_inodes_per_group;
	uint32_t	s_mtime;
	uint32_t	s_wtime;			/* 0x30 */
	uint16_t	s_mnt_count;
	int16_t		s_max_mnt_count;
	uint16_t	s_magic;			/* 0x38 */
	uint16_t	s_state;
	uint16_t	s_errors;
	uint16_t	s_minor_rev_level;
	uint32_t	s_lastcheck;			/* 0x40 */
	uint32_t	s_checkinterval;
	uint32_t	s_creator_os;
	uint32_t	s_rev_level;			/* 0x4C */
	uint16_t	s_def_resuid;			/* 0x50 */
	uint16_t	s_def_resgid;
	uint32_t	s_first_ino;
	uint16_t	s_inode_size;			/* 0x58 */
	uint16_t	s_block_group_nr;
	uint32_t	s_feature_compat;		/* 0x5C */
	uint32_t	s_feature_incompat;		/* 0x60 */
	uint32_t	s_feature_ro_compat;		/* 0x64 */
	uint8_t		s_uuid[16];			/* 0x68 */
	char		s_volume_name[16];		/* 0x78 */
	char		s_last_mounted[64];		/* 0x88 */
	uint32_t	s_algorithm_usage_bitmap;	/* 0xC8 */
	uint8_t		s_prealloc_blocks;
	uint8_t		s_prealloc_dir_blocks;
	uint16_t	s_reserved_gdt_blocks;
	uint8_t		s_journal_uuid[16];		/* 0xD0 */
	uint32_t	s_journal_inum;			/* 0xE0 */
	uint32_t	s_journal_dev;
	uint32_t	s_last_orphan;
	uint32_t	s_hash_seed[4];			/* 0xEC */
	uint8_t		s_def_hash_version;		/* 0xFC */
	uint8_t		s_jnl_backup_type;
	uint16_t	s_desc_size;
	uint32_t	s_default_mount_opts;		/* 0x100 */
	uint32_t	s_first_meta_bg;
	uint32_t	s_mkfs_time;
	uint32_t	s_jnl_blocks[17];		/* 0x10C */
	uint32_t	s_blocks_count_hi;		/* 0x150 */
	uint32_t	s_r_blocks_count_hi;
	uint32_t	s_free_blocks_hi;
	uint16_t	s_min_extra_isize;		/* 0x15C */
	uint16_t	s_want_extra_isize;
	uint32_t	s_flags;			/* 0x160 */
	uint8_t		s_pad[1024 - 0x164];
} __attribute__((packed));

_Static_assert(sizeof(struct ext2_super_block) == 1024, "ext2 superblock size");

static int probe_ext(struct fsa_dev *dev, const struct fsa_env *env,
		     struct fsa_info *info)
{
	const struct ext2_super_block *es;
	uint32_t rev, log_bs, compat, incompat, ro_compat, inodes;
	uint64_t blocksize, blocks, free_blocks, need;
	unsigned int isize;
	int is64, ext2_driver;
	char sz1[32], sz2[32];

	es = fsa_read_type(dev, EXT_SB_OFF, struct ext2_super_block);
	if (!es)
		return fsa_read_fail(info, "superblock");
	if (le16toh(es->s_magic) != EXT_SB_MAGIC)
		return fsa_nomatch(info, "bad magic");

	rev = le32toh(es->s_rev_level);
	log_bs = le32toh(es->s_log_block_size);
	compat = le32toh(es->s_feature_compat);
	incompat = le32toh(es->s_feature_incompat);
	ro_compat = le32toh(es->s_feature_ro_compat);
	inodes = le32toh(es->s_inodes_count);

	/* the kernel refuses block sizes above 64 KiB (EXT4_MAX_BLOCK_LOG_SIZE) */
	if (log_bs > 6)
		return fsa_nomatch(info, "bad block size (log %u)", log_bs);
	blocksize = 1024ULL << log_bs;

	if (rev > EXT_DYNAMIC_REV)
		return fsa_nomatch(info, "unknown revision %u", rev);
	if (rev == EXT_GOOD_OLD_REV) {
		isize = EXT_GOOD_OLD_INODE_SIZE;
		/* features do not exist in revision 0 */
		compat = incompat = ro_compat = 0;
	} else {
		isize = le16toh(es->s_inode_size);
		/* same test as ext4_inode_info_init() */
		if (isize < EXT_GOOD_OLD_INODE_SIZE || !fsa_is_power_of_2(isize)
		    || isize > blocksize)
			return fsa_nomatch(info, "unsupported inode size %u", isize);
	}
	info->rev = (int) rev;
	info->inode_size = (int) isize;

	if (incompat & EXT3_FEATURE_INCOMPAT_JOURNAL_DEV) {
		snprintf(info->format, sizeof(info->format),
			 "external journal, %llu-byte blocks",
			 (unsigned long long) blocksize);
		snprintf(info->version, sizeof(info->version), "jbd");
		info->no_times = 1;
		fsa_note(info, "journal device: holds no files");
		return 0;
	}
	if (!inodes || !le32toh(es->s_inodes_per_group) || !le32toh(es->s_blocks_per_group))
		return fsa_nomatch(info, "empty inode or block groups");

	is64 = !!(incompat & EXT4_FEATURE_INCOMPAT_64BIT);
	blocks = le32toh(es->s_blocks_count);
	free_blocks = le32toh(es->s_free_blocks_count);
	if (is64) {
		blocks |= (uint64_t) le32toh(es->s_blocks_count_hi) << 32;
		free_blocks |= (uint64_t) le32toh(es->s_free_blocks_hi) << 32;
	}
	if (!blocks)
		return fsa_nomatch(info, "no blocks");

	snprintf(info->version, sizeof(info->version), "%u.%u", rev,
		 le16toh(es->s_minor_rev_level));
	snprintf(info->format, sizeof(info->format), "rev %u, %u-byte inodes", rev, isize);

	/* Which driver will serve it: mounted -> as mounted; otherwise a
	 * filesystem that only has ext2 features is mounted as "ext2". */
	if (env->fstype)
		ext2_driver = env->ext2_driver && strcmp(env->fstype, "ext2") == 0;
	else
		ext2_driver = env->ext2_driver
			&& !(compat & EXT3_FEATURE_COMPAT_HAS_JOURNAL)
			&& !(incompat & ~EXT2_FEATURE_INCOMPAT_SUPP)
			&& !(ro_compat & ~EXT2_FEATURE_RO_COMPAT_SUPP);

	if (ext2_driver) {
		fsa_set_limits(info, FSA_S32_MIN, FSA_S32_MAX, FSA_S32_MAX);
		info->items |= 1U << FSA_ITEM_EXT2;
		fsa_note(info, "the ext2 driver stores 32-bit times only");
		if (rev != EXT_GOOD_OLD_REV && isize >= 256)
			fsa_note(info, "; the ext4 driver gives 2446-05-10 on this filesystem");
		info->ext2_driver = 1;
	} else if (rev == EXT_GOOD_OLD_REV) {
		/* The disk stores signed 32 bits.  Stock 6.12 sets no limit
		 * (s_time_max TIME64_MAX) and wraps; the deprecation series
		 * ("ext4: set timestamp limits for revision 0 filesystems")
		 * clamps at S32_MAX, which is what is reported. */
		fsa_set_limits(info, FSA_S32_MIN, FSA_S32_MAX, FSA_S32_MAX);
		if (!env->series)
			fsa_note(info, "a stock 6.12 kernel sets no limit for revision 0: times after 2038 wrap to 1901 on disk");
	} else if (isize < 144) {
		fsa_set_limits(info, FSA_S32_MIN, FSA_S32_MAX, FSA_S32_MAX);
	} else {
		fsa_set_limits(info, FSA_S32_MIN, EXT4_EXTRA_TIMESTAMP_MAX,
			       EXT4_EXTRA_TIMESTAMP_MAX);
	}

	if (isize >= 256)
		return 0;

	info->items |= 1U << FSA_ITEM_EXT4_SMALL_INODES;
	/* tune2fs -I rewrites every inode table at twice the size */
	need = (uint64_t) inodes * (256 - isize);
	fsa_strsize(need, sz1, sizeof(sz1));
	fsa_strsize(free_blocks * blocksize, sz2, sizeof(sz2));
	if (incompat & EXT4_FEATURE_INCOMPAT_FLEX_BG)
		fsa_fix_why(info, "tune2fs -I refuses flex_bg");
	else if (ro_compat & EXT4_FEATURE_RO_COMPAT_METADATA_CSUM)
		fsa_fix_why(info, "tune2fs -I 256 fails midway with metadata_csum");
	else if (need > free_blocks * blocksize)
		fsa_fix_why(info, "tune2fs -I 256 needs %s free, has %s", sz1, sz2);
	if (info->fix_why[0]) {
		info->fix = FSA_FIX_RECREATE;
		snprintf(info->fix_mkfs, sizeof(info->fix_mkfs), "ext4");
	} else {
		info->fix = rev == EXT_GOOD_OLD_REV ? FSA_FIX_EXT_REV0 : FSA_FIX_EXT_INODES;
		fsa_fix_why(info, "tune2fs -I 256 needs %s free, has %s", sz1, sz2);
	}
	return 0;
}

static const char *const ext_types[] = { "ext2", "ext3", "ext4", "ext4dev", "jbd", NULL };

const struct fsa_prober ext_prober = {
	.name = "ext",
	.types = ext_types,
	.probe = probe_ext,
};
