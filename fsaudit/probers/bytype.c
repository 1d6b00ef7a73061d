// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - limits from the filesystem type alone.
 *
 * For a mounted filesystem whose device the user may not read: the types
 * whose limits do not depend on the superblock can still be assessed from
 * the mount table (type and options).  ext2/3/4 (inode size, revision)
 * and XFS (V4/V5, bigtime) need the superblock and are not here.  The
 * values are the probers' (see each probers/<fs>.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prober.h"

struct bytype {
	const char *type;
	int64_t tmin, tmax, s_time_max;
	unsigned read_only:1, no_times:1;
	unsigned items;
};

/* type, time_min, time_max, s_time_max, read-only, no times, items */
#define T(t, mn, mx, st, ro, nt, it) \
	{ .type = t, .tmin = mn, .tmax = mx, .s_time_max = st, .read_only = ro, \
	  .no_times = nt, .items = it }

static const struct bytype table[] = {
	T("btrfs",    FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX, 0, 0, 0),
	T("f2fs",     FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX, 0, 0, 0),
	T("nilfs2",   FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX, 0, 0, 0),
	T("erofs",    FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX, 1, 0, 0),
	T("jfs",      0, FSA_U32_MAX, FSA_U32_MAX, 0, 0, 0),
	T("minix",    0, FSA_U32_MAX, FSA_U32_MAX, 0, 0, 0),
	T("bfs",      0, FSA_U32_MAX, FSA_U32_MAX, 0, 0, 0),
	T("squashfs", 0, FSA_U32_MAX, FSA_U32_MAX, 1, 0, 0),
	T("reiserfs", 0, FSA_U32_MAX, FSA_U32_MAX, 0, 0, 1U << FSA_ITEM_REISERFS),
	T("iso9660",  -2209035600LL, 5869630799LL, 5869630799LL, 1, 0, 0),
	T("exfat",    315532800LL, 4354819199LL, 4354819199LL, 0, 0, 0),
	T("hfs",      0, FSA_U32_MAX, FSA_U32_MAX, 0, 0, 0),
	T("hfsplus",  0, FSA_U32_MAX, FSA_U32_MAX, 0, 0, 0),
	T("udf",      -62167219200LL, 2005949145599LL, FSA_S64_MAX, 0, 0, 0),
	T("ntfs",     -11644473600LL, 910692730085LL, FSA_S64_MAX, 0, 0, 0),
	T("ntfs3",    -11644473600LL, 910692730085LL, FSA_S64_MAX, 0, 0, 0),
	T("tmpfs",    FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX, 0, 0, 0),
	T("ramfs",    FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX, 0, 0, 0),
	T("devtmpfs", FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX, 0, 0, 0),
	T("cramfs",   0, 0, 0, 1, 1, 0),
	T("romfs",    0, 0, 0, 1, 1, 0),
};

static const char *opt_value(const char *opts, const char *name)
{
	size_t n = strlen(name);
	const char *p = opts;

	while (p && *p) {
		if (strncmp(p, name, n) == 0 && p[n] == '=')
			return p + n + 1;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return NULL;
}

int fsa_limits_by_type(const char *fstype, const char *options, struct fsa_info *info)
{
	const char *v;
	size_t i;

	if (!fstype)
		return 1;
	if (strcmp(fstype, "vfat") == 0 || strcmp(fstype, "msdos") == 0) {
		long long off = 0;

		v = opt_value(options, "time_offset");
		if (v) {
			long m = strtol(v, NULL, 10);

			if (m >= -24 * 60 && m <= 24 * 60)
				off = -m * 60LL;
		}
		fsa_set_limits(info, 315532800LL + off, 4354819198LL + off, 4354819198LL + off);
		return 0;
	}
	if (strcmp(fstype, "ufs") == 0) {
		v = opt_value(options, "ufstype");
		if (v && (strncmp(v, "ufs2", 4) == 0 || strncmp(v, "5xbsd", 5) == 0))
			fsa_set_limits(info, FSA_S64_MIN, FSA_S64_MAX, FSA_S64_MAX);
		else
			fsa_set_limits(info, FSA_S32_MIN, FSA_S32_MAX, FSA_S32_MAX);
		info->read_only = 1;
		return 0;
	}
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const struct bytype *t = &table[i];

		if (strcmp(t->type, fstype) != 0)
			continue;
		fsa_set_limits(info, t->tmin, t->tmax, t->s_time_max);
		info->read_only = t->read_only;
		info->no_times = t->no_times;
		info->items = t->items;
		if (t->items & (1U << FSA_ITEM_REISERFS)) {
			info->fix = FSA_FIX_RECREATE;
			snprintf(info->fix_mkfs, sizeof(info->fix_mkfs), "ext4");
			fsa_fix_why(info, "Linux 6.13 and later cannot mount reiserfs");
		}
		return 0;
	}
	return 1;
}

/* the types of the table above, for --list-types; NULL after the last */
const char *fsa_bytype_type(size_t i)
{
	if (i < sizeof(table) / sizeof(table[0]))
		return table[i].type;
	if (i == sizeof(table) / sizeof(table[0]))
		return "vfat";
	if (i == sizeof(table) / sizeof(table[0]) + 1)
		return "ufs";
	return NULL;
}
