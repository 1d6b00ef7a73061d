// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - GFS2 prober.
 *
 * gfs2 sets no s_time_min/s_time_max; dinodes hold __be64 a/m/ctime: the
 * full signed 64-bit range.  libblkid 2.38 knows only sb_fs_format 1801;
 * mkfs.gfs2 3.5 writes 1802, so this prober is also tried when libblkid
 * finds nothing.
 */
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define GFS2_SB_OFFSET		0x10000
#define GFS2_MAGIC		0x01161970
#define GFS2_METATYPE_SB	1
#define GFS2_FORMAT_SB		100
#define GFS2_FS_FORMAT_MIN	1801
#define GFS2_FS_FORMAT_MAX	1802
#define GFS2_FORMAT_MULTI	1900

struct gfs2_sb {
	uint32_t	mh_magic;		/* 0x00 */
	uint32_t	mh_type;
	uint64_t	mh_pad0;
	uint32_t	mh_format;		/* 0x10 */
	uint32_t	mh_jid;
	uint32_t	sb_fs_format;		/* 0x18 */
	uint32_t	sb_multihost_format;
	uint32_t	sb_pad1;		/* 0x20 */
	uint32_t	sb_bsize;
	uint32_t	sb_bsize_shift;		/* 0x28 */
} __attribute__((packed));

static int probe_gfs2(struct fsa_dev *dev, const struct fsa_env *env,
		      struct fsa_info *info)
{
	const struct gfs2_sb *sb;
	uint32_t fmt, bsize, shift;

	(void) env;
	sb = fsa_read_type(dev, GFS2_SB_OFFSET, struct gfs2_sb);
	if (!sb)
		return fsa_read_fail(info, "superblock");
	if (be32toh(sb->mh_magic) != GFS2_MAGIC || be32toh(sb->mh_type) != GFS2_METATYPE_SB
	    || be32toh(sb->mh_format) != GFS2_FORMAT_SB)
		return fsa_nomatch(info, "bad magic");
	fmt = be32toh(sb->sb_fs_format);
	bsize = be32toh(sb->sb_bsize);
	shift = be32toh(sb->sb_bsize_shift);
	/* gfs2_check_sb() */
	if (fmt < GFS2_FS_FORMAT_MIN || fmt > GFS2_FS_FORMAT_MAX
	    || be32toh(sb->sb_multihost_format) != GFS2_FORMAT_MULTI)
		return fsa_nomatch(info, "unsupported format %u", fmt);
	if (bsize < 512 || bsize > 65536 || !fsa_is_power_of_2(bsize)
	    || shift > 16 || bsize != (1U << shift))
		return fsa_nomatch(info, "bad block size %u", bsize);

	snprintf(info->version, sizeof(info->version), "%u", fmt);
	snprintf(info->format, sizeof(info->format), "format %u, %u-byte blocks", fmt, bsize);
	fsa_set_limits(info, FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX);
	return 0;
}

static const char *const gfs2_types[] = { "gfs2", NULL };

const struct fsa_prober gfs2_prober = {
	.name = "gfs2",
	.types = gfs2_types,
	.probe = probe_gfs2,
	.fallback = 1,
};
