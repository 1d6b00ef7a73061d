// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - FAT12/16/32 prober.
 *
 * Linux 6.12 fat_fill_super(): s_time_min = 1980-01-01 00:00:00 and
 * s_time_max = 2107-12-31 23:59:58, both shifted by fat_tz_offset():
 * -time_offset minutes when mounted with tz=UTC / time_offset=, else
 * sys_tz.tz_minuteswest.  The same for FAT12, FAT16 and FAT32.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prober.h"

#define FAT_TIME_MIN	315532800LL	/* 1980-01-01 00:00:00 */
#define FAT_TIME_MAX	4354819198LL	/* 2107-12-31 23:59:58 */
#define MAX_FAT12	0xFF4

struct fat_boot_sector {
	uint8_t		ignored[3];		/* 0x00 jump */
	char		system_id[8];
	uint8_t		sector_size[2];		/* 0x0B, unaligned */
	uint8_t		sec_per_clus;
	uint16_t	reserved;		/* 0x0E */
	uint8_t		fats;			/* 0x10 */
	uint8_t		dir_entries[2];
	uint8_t		sectors[2];
	uint8_t		media;			/* 0x15 */
	uint16_t	fat_length;
	uint16_t	secs_track;		/* 0x18 */
	uint16_t	heads;
	uint32_t	hidden;
	uint32_t	total_sect;		/* 0x20 */
	uint32_t	fat32_length;		/* 0x24 */
	uint16_t	flags;
	uint8_t		version[2];
	uint32_t	root_cluster;
	uint16_t	info_sector;		/* 0x30 */
	uint16_t	backup_boot;
	uint8_t		reserved2[12];
	uint8_t		pad[510 - 0x40];
	uint16_t	signature;		/* 0x1FE */
} __attribute__((packed));

_Static_assert(sizeof(struct fat_boot_sector) == 512, "fat boot sector size");

static unsigned get_unaligned_le16(const uint8_t *p)
{
	return p[0] | (p[1] << 8);
}

/* mount option time_offset=N (minutes east of UTC), or tz=UTC */
static long long tz_offset(const char *opts)
{
	const char *p;

	if (!opts)
		return 0;
	for (p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, "time_offset=", 12) == 0) {
			long v = strtol(p + 12, NULL, 10);

			if (v >= -24 * 60 && v <= 24 * 60)
				return -v * 60LL;
		}
	return 0;
}

static int probe_vfat(struct fsa_dev *dev, const struct fsa_env *env,
		      struct fsa_info *info)
{
	const struct fat_boot_sector *bs;
	unsigned ssize, spc, reserved, fats, dirents, bits;
	uint64_t total, fatlen, rootsecs, meta, clusters;
	long long off;

	bs = fsa_read_type(dev, 0, struct fat_boot_sector);
	if (!bs)
		return fsa_read_fail(info, "boot sector");

	ssize = get_unaligned_le16(bs->sector_size);
	spc = bs->sec_per_clus;
	reserved = le16toh(bs->reserved);
	fats = bs->fats;
	dirents = get_unaligned_le16(bs->dir_entries);

	/* the checks of fat_read_static_bpb() */
	if (ssize < 512 || ssize > 4096 || !fsa_is_power_of_2(ssize))
		return fsa_nomatch(info, "bad sector size %u", ssize);
	if (!fsa_is_power_of_2(spc))
		return fsa_nomatch(info, "bad sectors per cluster %u", spc);
	if (!reserved)
		return fsa_nomatch(info, "no reserved sectors");
	if (!fats)
		return fsa_nomatch(info, "no FATs");
	if (bs->media < 0xF8 && bs->media != 0xF0)
		return fsa_nomatch(info, "bad media byte 0x%02x", bs->media);

	total = get_unaligned_le16(bs->sectors);
	if (!total)
		total = le32toh(bs->total_sect);
	fatlen = le16toh(bs->fat_length);
	if (!fatlen)
		fatlen = le32toh(bs->fat32_length);
	if (!fatlen)
		return fsa_nomatch(info, "FAT length is 0");
	rootsecs = ((uint64_t) dirents * 32 + ssize - 1) / ssize;
	meta = reserved + (uint64_t) fats * fatlen + rootsecs;
	if (!total || meta >= total)
		return fsa_nomatch(info, "no data area");
	clusters = (total - meta) / spc;

	if (!le16toh(bs->fat_length))
		bits = 32;
	else
		bits = clusters > MAX_FAT12 ? 16 : 12;
	if (bits != 32 && !dirents)
		return fsa_nomatch(info, "no root directory entries");

	snprintf(info->version, sizeof(info->version), "FAT%u", bits);
	snprintf(info->format, sizeof(info->format), "FAT%u", bits);
	off = tz_offset(env->options);
	fsa_set_limits(info, FAT_TIME_MIN + off, FAT_TIME_MAX + off, FAT_TIME_MAX + off);
	if (off)
		fsa_note(info, "local times; the mount's time_offset shifts the limits by %+lld s",
			 off);
	else if (env->fstype)
		fsa_note(info, "local times; limits shown for UTC (tz=UTC), they move with the kernel's time zone");
	else
		fsa_note(info, "local times; limits shown for UTC, they move with the mount's time zone");
	return 0;
}

static const char *const vfat_types[] = { "vfat", "msdos", NULL };

const struct fsa_prober vfat_prober = {
	.name = "vfat",
	.types = vfat_types,
	.probe = probe_vfat,
};
