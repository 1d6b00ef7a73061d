// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - OCFS2 prober.
 *
 * ocfs2 sets no s_time_min/s_time_max; inodes hold __le64 a/c/mtime: the
 * full signed 64-bit range.  The superblock is block 2 of the filesystem
 * block size (512 B .. 4 KiB).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define OCFS2_SUPER_BLOCK_BLKNO		2
#define OCFS2_SUPER_BLOCK_SIGNATURE	"OCFSV2"

struct ocfs2_super_dinode {
	char		i_signature[8];		/* 0x00 */
	uint8_t		i_pad[0xC0 - 8];
	/* id2.i_super */
	uint16_t	s_major_rev_level;	/* 0xC0 */
	uint16_t	s_minor_rev_level;
	uint16_t	s_mnt_count;
	int16_t		s_max_mnt_count;
	uint16_t	s_state;
	uint16_t	s_errors;
	uint32_t	s_checkinterval;
	uint64_t	s_lastcheck;		/* 0xD0 */
	uint32_t	s_creator_os;
	uint32_t	s_feature_compat;
	uint32_t	s_feature_incompat;	/* 0xE0 */
	uint32_t	s_feature_ro_compat;
	uint64_t	s_root_blkno;		/* 0xE8 */
	uint64_t	s_system_dir_blkno;	/* 0xF0 */
	uint32_t	s_blocksize_bits;	/* 0xF8 */
	uint32_t	s_clustersize_bits;
} __attribute__((packed));

_Static_assert(sizeof(struct ocfs2_super_dinode) == 0x100, "ocfs2 superblock size");

static int probe_ocfs2(struct fsa_dev *dev, const struct fsa_env *env,
		       struct fsa_info *info)
{
	const struct ocfs2_super_dinode *sb = NULL;
	unsigned bits, cbits;

	(void) env;
	for (bits = 9; bits <= 12; bits++) {
		sb = fsa_read_type(dev, (uint64_t) OCFS2_SUPER_BLOCK_BLKNO << bits,
				   struct ocfs2_super_dinode);
		if (!sb) {
			if (errno)
				return -errno;
			continue;
		}
		if (memcmp(sb->i_signature, OCFS2_SUPER_BLOCK_SIGNATURE, 7) == 0)
			break;
		sb = NULL;
	}
	if (!sb)
		return fsa_nomatch(info, "bad signature");
	/* ocfs2_verify_volume(): the recorded block size is where we found it */
	if (le32toh(sb->s_blocksize_bits) != bits)
		return fsa_nomatch(info, "block size bits %u, found at %u",
				   le32toh(sb->s_blocksize_bits), bits);
	cbits = le32toh(sb->s_clustersize_bits);
	if (cbits < 12 || cbits > 20)
		return fsa_nomatch(info, "bad cluster size bits %u", cbits);
	if (!le64toh(sb->s_root_blkno) || !le64toh(sb->s_system_dir_blkno))
		return fsa_nomatch(info, "no root or system directory");

	snprintf(info->version, sizeof(info->version), "%u.%u",
		 le16toh(sb->s_major_rev_level), le16toh(sb->s_minor_rev_level));
	snprintf(info->format, sizeof(info->format), "rev %u.%u, %u-byte blocks",
		 le16toh(sb->s_major_rev_level), le16toh(sb->s_minor_rev_level), 1U << bits);
	fsa_set_limits(info, FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX);
	return 0;
}

static const char *const ocfs2_types[] = { "ocfs2", NULL };

const struct fsa_prober ocfs2_prober = {
	.name = "ocfs2",
	.types = ocfs2_types,
	.probe = probe_ocfs2,
	.fallback = 1,
};
