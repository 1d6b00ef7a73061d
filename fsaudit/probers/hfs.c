// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - HFS / HFS+ / HFSX prober.
 *
 * Times are u32 seconds since 1904 (HFS: local time).  Linux reads them
 * back as 1970-01-01 .. 2106-02-07 06:28:15 UTC.  With the deprecation
 * series ("hfs/hfsplus: set s_time_min and s_time_max") the kernel sets
 * s_time_min/s_time_max to that range, 0 .. U32_MAX (hfs: shifted by the
 * kernel's time zone, sys_tz, at mount time; not modelled here, 0 is
 * assumed), and clamps; that is what is reported.  Stock 6.12 sets no
 * limit (s_time_max TIME64_MAX) and wraps times outside the range on disk
 * with lower_32_bits().
 */
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define HFS_MDB_OFF		1024
#define HFS_SUPER_MAGIC		0x4244	/* "BD" */
#define HFSPLUS_SUPER_MAGIC	0x482b	/* "H+" */
#define HFSX_SUPER_MAGIC	0x4858	/* "HX" */

struct hfs_mdb {
	uint16_t	drSigWord;		/* 0x00 */
	uint32_t	drCrDate;
	uint32_t	drLsMod;
	uint16_t	drAtrb;			/* 0x0A */
	uint16_t	drNmFls;
	uint16_t	drVBMSt;
	uint16_t	drAllocPtr;
	uint16_t	drNmAlBlks;		/* 0x12 */
	uint32_t	drAlBlkSiz;		/* 0x14 */
	uint32_t	drClpSiz;
	uint16_t	drAlBlSt;		/* 0x1C */
	uint32_t	drNxtCNID;
	uint16_t	drFreeBks;		/* 0x22 */
	uint8_t		drVN[28];		/* 0x24 */
	uint32_t	drVolBkUp;		/* 0x40 */
	uint16_t	drVSeqNum;
	uint32_t	drWrCnt;
	uint32_t	drXTClpSiz;		/* 0x4A */
	uint32_t	drCTClpSiz;
	uint16_t	drNmRtDirs;		/* 0x52 */
	uint32_t	drFilCnt;
	uint32_t	drDirCnt;		/* 0x58 */
	uint32_t	drFndrInfo[8];		/* 0x5C */
	uint16_t	drEmbedSigWord;		/* 0x7C */
	uint16_t	drEmbedStart;
	uint16_t	drEmbedCount;
} __attribute__((packed));

_Static_assert(sizeof(struct hfs_mdb) == 0x82, "hfs mdb size");

struct hfsplus_vh {
	uint16_t	signature;		/* 0x00 */
	uint16_t	version;
	uint32_t	attributes;
	uint32_t	last_mount_vers;	/* 0x08 */
	uint32_t	jnl_info_block;
	uint32_t	create_date;		/* 0x10 */
	uint32_t	modify_date;
	uint32_t	backup_date;
	uint32_t	checked_date;
	uint32_t	file_count;		/* 0x20 */
	uint32_t	folder_count;
	uint32_t	blocksize;		/* 0x28 */
	uint32_t	total_blocks;
	uint32_t	free_blocks;		/* 0x30 */
} __attribute__((packed));

static int probe_hfs(struct fsa_dev *dev, const struct fsa_env *env,
		     struct fsa_info *info)
{
	const struct hfs_mdb *mdb;
	const struct hfsplus_vh *vh;
	uint32_t bs;
	unsigned sig;
	int local_time = 0;

	mdb = fsa_read_type(dev, HFS_MDB_OFF, struct hfs_mdb);
	if (!mdb)
		return fsa_read_fail(info, "master directory block");
	sig = be16toh(mdb->drSigWord);

	if (sig == HFS_SUPER_MAGIC) {
		bs = be32toh(mdb->drAlBlkSiz);
		/* hfs_mdb_get(): allocation block size a non-zero multiple of 512 */
		if (!bs || (bs & 511))
			return fsa_nomatch(info, "bad allocation block size %u", bs);
		if (!be16toh(mdb->drNmAlBlks))
			return fsa_nomatch(info, "no allocation blocks");
		if (be16toh(mdb->drEmbedSigWord) == HFSPLUS_SUPER_MAGIC) {
			/* the embedded volume starts at allocation block drEmbedStart */
			uint64_t off = (uint64_t) be16toh(mdb->drAlBlSt) * 512
			    + (uint64_t) be16toh(mdb->drEmbedStart) * bs + HFS_MDB_OFF;
			vh = fsa_read_type(dev, off, struct hfsplus_vh);
			if (!vh)
				return fsa_read_fail(info, "embedded HFS+ volume header");
			if (be16toh(vh->signature) != HFSPLUS_SUPER_MAGIC)
				return fsa_nomatch(info, "bad embedded HFS+ signature");
			snprintf(info->format, sizeof(info->format), "HFS+ in an HFS wrapper");
			snprintf(info->version, sizeof(info->version), "HFS+");
		} else {
			snprintf(info->format, sizeof(info->format), "HFS");
			snprintf(info->version, sizeof(info->version), "HFS");
			local_time = 1;	/* the hfs driver: hfs_m_to_utime() */
		}
	} else if (sig == HFSPLUS_SUPER_MAGIC || sig == HFSX_SUPER_MAGIC) {
		vh = (const struct hfsplus_vh *) mdb;	/* same offset, shorter */
		bs = be32toh(vh->blocksize);
		if (bs < 512 || bs > (1U << 20) || !fsa_is_power_of_2(bs))
			return fsa_nomatch(info, "bad block size %u", bs);
		if (!be32toh(vh->total_blocks))
			return fsa_nomatch(info, "no blocks");
		snprintf(info->format, sizeof(info->format), "%s version %u",
			 sig == HFSX_SUPER_MAGIC ? "HFSX" : "HFS+", be16toh(vh->version));
		snprintf(info->version, sizeof(info->version), "%s",
			 sig == HFSX_SUPER_MAGIC ? "HFSX" : "HFS+");
	} else
		return fsa_nomatch(info, "bad signature");

	fsa_set_limits(info, 0, FSA_U32_MAX, FSA_U32_MAX);
	if (local_time)
		fsa_note(info, "HFS stores local time: the limits move with the kernel's time zone (sys_tz)");
	if (!env->series)
		fsa_note(info, "%sa stock 6.12 kernel sets no limit for hfs/hfsplus: times outside 1970..2106 wrap on disk",
			 info->notes[0] ? "; " : "");
	return 0;
}

static const char *const hfs_types[] = { "hfs", "hfsplus", NULL };

const struct fsa_prober hfs_prober = {
	.name = "hfs",
	.types = hfs_types,
	.probe = probe_hfs,
};
