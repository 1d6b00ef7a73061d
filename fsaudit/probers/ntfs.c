// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - NTFS prober.
 *
 * ntfs3 sets no s_time_min/s_time_max.  Times are __le64 100-ns units
 * since 1601-01-01; kernel2nt() overflows s64 after 30828-09-14 02:48:05.
 */
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define NTFS_TIME_MIN	(-11644473600LL)	/* 1601-01-01 00:00:00 */
#define NTFS_TIME_MAX	910692730085LL		/* 30828-09-14 02:48:05 */

struct ntfs_boot_sector {
	uint8_t		jump[3];		/* 0x00 */
	char		oem_id[8];		/* 0x03 "NTFS    " */
	uint8_t		bytes_per_sector[2];	/* 0x0B unaligned */
	uint8_t		sectors_per_cluster;
	uint16_t	reserved_sectors;	/* 0x0E */
	uint8_t		fats;			/* 0x10 */
	uint8_t		root_entries[2];
	uint8_t		sectors[2];
	uint8_t		media_type;		/* 0x15 */
	uint16_t	sectors_per_fat;
	uint16_t	sectors_per_track;	/* 0x18 */
	uint16_t	heads;
	uint32_t	hidden_sectors;
	uint32_t	large_sectors;		/* 0x20 */
	uint8_t		unused[4];
	uint64_t	number_of_sectors;	/* 0x28 */
	uint64_t	mft_cluster_location;	/* 0x30 */
	uint64_t	mft_mirror_cluster_location;
	int8_t		clusters_per_mft_record; /* 0x40 */
	uint8_t		reserved1[3];
	int8_t		cluster_per_index_record;
	uint8_t		reserved2[3];
	uint64_t	volume_serial;		/* 0x48 */
	uint32_t	checksum;
	uint8_t		bootstrap[426];
	uint16_t	end_of_sector_marker;	/* 0x1FE */
} __attribute__((packed));

_Static_assert(sizeof(struct ntfs_boot_sector) == 512, "ntfs boot sector size");

static int probe_ntfs(struct fsa_dev *dev, const struct fsa_env *env,
		      struct fsa_info *info)
{
	const struct ntfs_boot_sector *ns;
	unsigned bps, spc;

	(void) env;
	ns = fsa_read_type(dev, 0, struct ntfs_boot_sector);
	if (!ns)
		return fsa_read_fail(info, "boot sector");
	if (memcmp(ns->oem_id, "NTFS    ", 8) != 0)
		return fsa_nomatch(info, "bad OEM id");
	bps = ns->bytes_per_sector[0] | (ns->bytes_per_sector[1] << 8);
	if (bps < 256 || bps > 4096 || !fsa_is_power_of_2(bps))
		return fsa_nomatch(info, "bad sector size %u", bps);
	spc = ns->sectors_per_cluster;
	if (spc > 128 && spc < 244)	/* 244..255 encode 2^(256-n) */
		return fsa_nomatch(info, "bad sectors per cluster %u", spc);
	if (!spc)
		return fsa_nomatch(info, "no sectors per cluster");
	/* must be zero in NTFS */
	if (ns->fats || le16toh(ns->reserved_sectors) || ns->root_entries[0]
	    || ns->root_entries[1] || ns->sectors[0] || ns->sectors[1]
	    || le16toh(ns->sectors_per_fat))
		return fsa_nomatch(info, "FAT fields are not zero");
	if (!le64toh(ns->number_of_sectors) || !le64toh(ns->mft_cluster_location))
		return fsa_nomatch(info, "no sectors or no MFT");

	fsa_set_limits(info, NTFS_TIME_MIN, NTFS_TIME_MAX, FSA_S64_MAX);
	fsa_note(info, "no VFS limit; 100-ns units since 1601");
	return 0;
}

static const char *const ntfs_types[] = { "ntfs", "ntfs3", NULL };

const struct fsa_prober ntfs_prober = {
	.name = "ntfs",
	.types = ntfs_types,
	.probe = probe_ntfs,
};
