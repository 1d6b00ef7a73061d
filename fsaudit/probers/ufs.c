// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - UFS prober.
 *
 * Linux 6.12 ufs_fill_super() decides by the ufstype= mount option, not
 * by the superblock: ufstype=ufs2 (5xbsd) gives S64_MIN .. S64_MAX and
 * looks for the superblock at 64 KiB only; every other type gives
 * S32_MIN .. S32_MAX.  UFS1 inodes hold __fs32 times, UFS2 __fs64.
 * Debian builds UFS read-only (UFS_FS_WRITE is not set).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define UFS_MAGIC		0x00011954
#define UFS2_MAGIC		0x19540119
#define UFS_MAGIC_OFF		1372	/* fs_magic in struct ufs_super_block */
#define SBLOCK_UFS2		65536

struct ufs_sb_head {
	uint32_t	fs_link;		/* 0 */
	uint32_t	fs_rlink;
	uint32_t	fs_sblkno;		/* 8 */
	uint32_t	fs_cblkno;
	uint32_t	fs_iblkno;		/* 16 */
	uint32_t	fs_dblkno;
	uint32_t	fs_cgoffset;		/* 24 */
	uint32_t	fs_cgmask;
	uint32_t	fs_time;		/* 32 */
	uint32_t	fs_size;
	uint32_t	fs_dsize;		/* 40 */
	uint32_t	fs_ncg;
	uint32_t	fs_bsize;		/* 48 */
	uint32_t	fs_fsize;
	uint32_t	fs_frag;		/* 56 */
} __attribute__((packed));

static uint32_t fs32(int be, uint32_t v)
{
	return be ? be32toh(v) : le32toh(v);
}

static int has_opt(const char *opts, const char *opt)
{
	size_t n = strlen(opt);
	const char *p = opts;

	while (p && *p) {
		if (strncmp(p, opt, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return 0;
}

static int probe_ufs(struct fsa_dev *dev, const struct fsa_env *env,
		     struct fsa_info *info)
{
	static const uint64_t offs[] = { 0, 8192, 65536, 262144 };
	const struct ufs_sb_head *h = NULL;
	const uint32_t *magic;
	uint32_t bsize, fsize, ncg, m = 0;
	uint64_t off = 0;
	int be = 0, ufs2;
	unsigned i;

	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		magic = fsa_read_type(dev, offs[i] + UFS_MAGIC_OFF, uint32_t);
		if (!magic) {
			if (errno)
				return -errno;
			continue;
		}
		m = le32toh(*magic);
		if (m == UFS_MAGIC || m == UFS2_MAGIC)
			be = 0;
		else if (be32toh(*magic) == UFS_MAGIC || be32toh(*magic) == UFS2_MAGIC) {
			be = 1;
			m = be32toh(*magic);
		} else
			continue;
		off = offs[i];
		h = fsa_read_type(dev, off, struct ufs_sb_head);
		if (!h)
			return fsa_read_fail(info, "superblock");
		break;
	}
	if (!h)
		return fsa_nomatch(info, "bad magic");

	bsize = fs32(be, h->fs_bsize);
	fsize = fs32(be, h->fs_fsize);
	ncg = fs32(be, h->fs_ncg);
	if (bsize < 4096 || bsize > 65536 || !fsa_is_power_of_2(bsize))
		return fsa_nomatch(info, "bad block size %u", bsize);
	if (fsize < 512 || fsize > bsize || !fsa_is_power_of_2(fsize))
		return fsa_nomatch(info, "bad fragment size %u", fsize);
	if (!ncg)
		return fsa_nomatch(info, "no cylinder groups");

	ufs2 = m == UFS2_MAGIC;
	snprintf(info->version, sizeof(info->version), "UFS%d", ufs2 ? 2 : 1);
	snprintf(info->format, sizeof(info->format), "UFS%d, %s-endian, superblock at %llu KiB",
		 ufs2 ? 2 : 1, be ? "big" : "little", (unsigned long long) (off / 1024));
	info->read_only = 1;

	if (env->fstype) {
		/* mounted: the ufstype= option decides */
		if (env->options && (has_opt(env->options, "ufstype=ufs2")
				     || has_opt(env->options, "ufstype=5xbsd")))
			fsa_set_limits(info, FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX);
		else
			fsa_set_limits(info, FSA_S32_MIN, FSA_S32_MAX, FSA_S32_MAX);
	} else if (!ufs2) {
		fsa_set_limits(info, FSA_S32_MIN, FSA_S32_MAX, FSA_S32_MAX);
	} else if (off == SBLOCK_UFS2) {
		fsa_set_limits(info, FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX);
		fsa_note(info, "64-bit times only when mounted with ufstype=ufs2; ");
	} else {
		fsa_note(info, "Linux looks for a UFS2 superblock at 64 KiB only (ufstype=ufs2): limits unknown; ");
	}
	fsa_note(info, "the limit depends on the ufstype= mount option; Debian builds UFS read-only");
	if (info->has_limits && info->time_max <= FSA_S32_MAX) {
		info->fix = FSA_FIX_RECREATE;
		snprintf(info->fix_mkfs, sizeof(info->fix_mkfs), "ext4");
		fsa_fix_why(info, "UFS1 stores 32-bit times; Linux writes UFS only with CONFIG_UFS_FS_WRITE");
	}
	return 0;
}

static const char *const ufs_types[] = { "ufs", NULL };

const struct fsa_prober ufs_prober = {
	.name = "ufs",
	.types = ufs_types,
	.probe = probe_ufs,
};
