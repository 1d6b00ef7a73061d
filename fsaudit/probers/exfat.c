// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - exFAT prober.
 *
 * Linux 6.12 exfat_fill_super(): EXFAT_MIN_TIMESTAMP_SECS (1980-01-01)
 * .. EXFAT_MAX_TIMESTAMP_SECS (2107-12-31 23:59:59), 10 ms granularity.
 */
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define EXFAT_MIN_TIMESTAMP_SECS	315532800LL
#define EXFAT_MAX_TIMESTAMP_SECS	4354819199LL

struct exfat_boot_sector {
	uint8_t		jmp_boot[3];		/* 0x00 */
	char		fs_name[8];		/* 0x03 "EXFAT   " */
	uint8_t		must_be_zero[53];	/* 0x0B */
	uint64_t	partition_offset;	/* 0x40 */
	uint64_t	vol_length;		/* 0x48 */
	uint32_t	fat_offset;		/* 0x50 */
	uint32_t	fat_length;
	uint32_t	clu_offset;		/* 0x58 */
	uint32_t	clu_count;
	uint32_t	root_cluster;		/* 0x60 */
	uint32_t	vol_serial;
	uint8_t		fs_revision[2];		/* 0x68 minor, major */
	uint16_t	vol_flags;
	uint8_t		sect_size_bits;		/* 0x6C */
	uint8_t		sect_per_clus_bits;
	uint8_t		num_fats;
	uint8_t		drv_sel;
	uint8_t		percent_in_use;		/* 0x70 */
	uint8_t		reserved[7];
	uint8_t		boot_code[390];		/* 0x78 */
	uint16_t	signature;		/* 0x1FE */
} __attribute__((packed));

_Static_assert(sizeof(struct exfat_boot_sector) == 512, "exfat boot sector size");

static int probe_exfat(struct fsa_dev *dev, const struct fsa_env *env,
		       struct fsa_info *info)
{
	const struct exfat_boot_sector *bs;
	size_t i;

	(void) env;
	bs = fsa_read_type(dev, 0, struct exfat_boot_sector);
	if (!bs)
		return fsa_read_fail(info, "boot sector");
	if (memcmp(bs->fs_name, "EXFAT   ", 8) != 0)
		return fsa_nomatch(info, "bad file system name");
	for (i = 0; i < sizeof(bs->must_be_zero); i++)
		if (bs->must_be_zero[i])
			return fsa_nomatch(info, "must-be-zero area is not zero");
	/* exfat_read_boot_sector() */
	if (bs->sect_size_bits < 9 || bs->sect_size_bits > 12)
		return fsa_nomatch(info, "bad sector size bits %u", bs->sect_size_bits);
	if (bs->sect_per_clus_bits > 25 - bs->sect_size_bits)
		return fsa_nomatch(info, "bad cluster size bits %u", bs->sect_per_clus_bits);
	if (bs->num_fats != 1 && bs->num_fats != 2)
		return fsa_nomatch(info, "bad number of FATs %u", bs->num_fats);
	if (!le32toh(bs->clu_count) || !le32toh(bs->fat_length))
		return fsa_nomatch(info, "empty cluster heap");

	snprintf(info->version, sizeof(info->version), "%u.%u",
		 bs->fs_revision[1], bs->fs_revision[0]);
	snprintf(info->format, sizeof(info->format), "exFAT %u.%u",
		 bs->fs_revision[1], bs->fs_revision[0]);
	fsa_set_limits(info, EXFAT_MIN_TIMESTAMP_SECS, EXFAT_MAX_TIMESTAMP_SECS,
		       EXFAT_MAX_TIMESTAMP_SECS);
	return 0;
}

static const char *const exfat_types[] = { "exfat", NULL };

const struct fsa_prober exfat_prober = {
	.name = "exfat",
	.types = exfat_types,
	.probe = probe_exfat,
};
