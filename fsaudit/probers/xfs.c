// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - XFS prober.
 *
 * Linux 6.12 xfs_fs_fill_super(): V5 with the bigtime incompat feature
 * stores S32_MIN .. 0x3CB82FA08 (2486-07-02); everything else (V5 without
 * bigtime, all V4) S32_MIN .. S32_MAX.  V4 (crc=0) and ascii-ci are
 * deprecated, removal planned for September 2030 (fs/xfs/Kconfig).
 */
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define XFS_SB_MAGIC			0x58465342	/* "XFSB" */
#define XFS_SB_VERSION_NUMBITS		0x000f
#define XFS_SB_VERSION_4		4
#define XFS_SB_VERSION_5		5
#define XFS_SB_VERSION_BORGBIT		0x4000		/* ASCII only case-insens. */
#define XFS_SB_FEAT_INCOMPAT_FTYPE	(1 << 0)
#define XFS_SB_FEAT_INCOMPAT_BIGTIME	(1 << 3)
#define XFS_BIGTIME_TIME_MAX		16299260424LL	/* xfs_bigtime_to_unix(XFS_BIGTIME_TIME_MAX) */

struct xfs_super_block {
	uint32_t	sb_magicnum;		/* 0x00 */
	uint32_t	sb_blocksize;
	uint64_t	sb_dblocks;
	uint64_t	sb_rblocks;		/* 0x10 */
	uint64_t	sb_rextents;
	uint8_t		sb_uuid[16];		/* 0x20 */
	uint64_t	sb_logstart;		/* 0x30 */
	uint64_t	sb_rootino;
	uint64_t	sb_rbmino;		/* 0x40 */
	uint64_t	sb_rsumino;
	uint32_t	sb_rextsize;		/* 0x50 */
	uint32_t	sb_agblocks;
	uint32_t	sb_agcount;
	uint32_t	sb_rbmblocks;
	uint32_t	sb_logblocks;		/* 0x60 */
	uint16_t	sb_versionnum;		/* 0x64 */
	uint16_t	sb_sectsize;
	uint16_t	sb_inodesize;
	uint16_t	sb_inopblock;
	char		sb_fname[12];		/* 0x6C */
	uint8_t		sb_blocklog;		/* 0x78 */
	uint8_t		sb_sectlog;
	uint8_t		sb_inodelog;
	uint8_t		sb_inopblog;
	uint8_t		sb_agblklog;
	uint8_t		sb_rextslog;
	uint8_t		sb_inprogress;
	uint8_t		sb_imax_pct;
	uint64_t	sb_icount;		/* 0x80 */
	uint64_t	sb_ifree;
	uint64_t	sb_fdblocks;		/* 0x90 */
	uint64_t	sb_frextents;
	uint64_t	sb_uquotino;		/* 0xA0 */
	uint64_t	sb_gquotino;
	uint16_t	sb_qflags;		/* 0xB0 */
	uint8_t		sb_flags;
	uint8_t		sb_shared_vn;
	uint32_t	sb_inoalignmt;
	uint32_t	sb_unit;
	uint32_t	sb_width;
	uint8_t		sb_dirblklog;		/* 0xC0 */
	uint8_t		sb_logsectlog;
	uint16_t	sb_logsectsize;
	uint32_t	sb_logsunit;
	uint32_t	sb_features2;		/* 0xC8 */
	uint32_t	sb_bad_features2;
	uint32_t	sb_features_compat;	/* 0xD0 */
	uint32_t	sb_features_ro_compat;
	uint32_t	sb_features_incompat;	/* 0xD8 */
	uint32_t	sb_features_log_incompat;
	uint32_t	sb_crc;			/* 0xE0 */
	uint32_t	sb_spino_align;
	uint64_t	sb_pquotino;
	uint64_t	sb_lsn;			/* 0xF0 */
	uint8_t		sb_meta_uuid[16];	/* 0xF8 */
} __attribute__((packed));

_Static_assert(sizeof(struct xfs_super_block) == 264, "xfs superblock size");

/* version, format, limits, items and fix of an XFS filesystem, from its
 * superblock here or from XFS_IOC_FSGEOMETRY (fsaudit-mnt.c) */
void fsa_xfs_format(struct fsa_info *info, int v5, int bigtime, int ci, unsigned isize,
		    unsigned agcount)
{
	snprintf(info->version, sizeof(info->version), "V%d", v5 ? 5 : 4);
	snprintf(info->format, sizeof(info->format), "V%d%s%s", v5 ? 5 : 4,
		 v5 ? (bigtime ? ", bigtime" : ", no bigtime") : "", ci ? ", ascii-ci" : "");
	if (bigtime)
		fsa_set_limits(info, FSA_S32_MIN, XFS_BIGTIME_TIME_MAX, XFS_BIGTIME_TIME_MAX);
	else
		fsa_set_limits(info, FSA_S32_MIN, FSA_S32_MAX, FSA_S32_MAX);
	info->inode_size = (int) isize;
	if (!v5)
		info->items |= 1U << FSA_ITEM_XFS_V4;
	if (ci)
		info->items |= 1U << FSA_ITEM_XFS_ASCII_CI;
	if (!v5 || ci) {
		/* neither V4 nor ascii-ci can be converted in place */
		info->fix = FSA_FIX_RECREATE;
		snprintf(info->fix_mkfs, sizeof(info->fix_mkfs), "xfs");
		fsa_fix_why(info, "%s cannot be converted in place", v5 ? "ascii-ci" : "V4");
		if (ci)
			fsa_fix_why(info, "; without -n version=ci lookups become case-sensitive");
	} else if (!bigtime) {
		info->fix = FSA_FIX_XFS_BIGTIME;
		fsa_fix_why(info, "xfsprogs 5.11 or later");
		/* xfs_repair, which xfs_admin -O runs, checks the geometry
		 * against the secondary superblocks; with none it stops */
		info->xfs_one_ag = agcount == 1;
	}
}

static int probe_xfs(struct fsa_dev *dev, const struct fsa_env *env,
		     struct fsa_info *info)
{
	const struct xfs_super_block *sb;
	uint32_t bsize, incompat = 0;
	uint16_t vnum, ssize, isize;
	unsigned ver;
	int bigtime, ci;

	(void) env;
	sb = fsa_read_type(dev, 0, struct xfs_super_block);
	if (!sb)
		return fsa_read_fail(info, "superblock");
	if (be32toh(sb->sb_magicnum) != XFS_SB_MAGIC)
		return fsa_nomatch(info, "bad magic");

	bsize = be32toh(sb->sb_blocksize);
	vnum = be16toh(sb->sb_versionnum);
	ssize = be16toh(sb->sb_sectsize);
	isize = be16toh(sb->sb_inodesize);

	/* the geometry checks of xfs_validate_sb_common() that matter here */
	if (bsize < 512 || bsize > 65536 || !fsa_is_power_of_2(bsize)
	    || sb->sb_blocklog >= 32 || bsize != (1U << sb->sb_blocklog))
		return fsa_nomatch(info, "bad block size %u", bsize);
	if (ssize < 512 || ssize > 32768 || !fsa_is_power_of_2(ssize)
	    || sb->sb_sectlog >= 16 || ssize != (1U << sb->sb_sectlog))
		return fsa_nomatch(info, "bad sector size %u", ssize);
	if (isize < 256 || isize > 2048 || !fsa_is_power_of_2(isize)
	    || sb->sb_inodelog >= 16 || isize != (1U << sb->sb_inodelog))
		return fsa_nomatch(info, "bad inode size %u", isize);
	if (!be32toh(sb->sb_agcount) || !be32toh(sb->sb_agblocks) || !be64toh(sb->sb_dblocks))
		return fsa_nomatch(info, "no allocation groups");
	if (sb->sb_inprogress)
		return fsa_nomatch(info, "mkfs did not finish");

	ver = vnum & XFS_SB_VERSION_NUMBITS;
	if (ver != XFS_SB_VERSION_4 && ver != XFS_SB_VERSION_5)
		return fsa_nomatch(info, "unsupported version %u", ver);

	if (ver == XFS_SB_VERSION_5)
		incompat = be32toh(sb->sb_features_incompat);
	bigtime = !!(incompat & XFS_SB_FEAT_INCOMPAT_BIGTIME);
	ci = !!(vnum & XFS_SB_VERSION_BORGBIT);

	fsa_xfs_format(info, ver == XFS_SB_VERSION_5, bigtime, ci, isize, be32toh(sb->sb_agcount));
	return 0;
}

static const char *const xfs_types[] = { "xfs", NULL };

const struct fsa_prober xfs_prober = {
	.name = "xfs",
	.types = xfs_types,
	.probe = probe_xfs,
};
