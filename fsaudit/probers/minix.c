// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - minix v1/v2/v3 prober.
 *
 * Linux 6.12 minix_fill_super(): s_time_min 0, s_time_max U32_MAX for all
 * versions (v1 inodes hold one __u32 i_time, v2/v3 __u32 a/m/ctime).
 * Minix is host-endian; the kernel on a little-endian machine reads only
 * little-endian minix.
 */
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define MINIX_SB_OFF		1024
#define MINIX_SUPER_MAGIC	0x137F	/* v1, 14-char names */
#define MINIX_SUPER_MAGIC2	0x138F	/* v1, 30-char names */
#define MINIX2_SUPER_MAGIC	0x2468	/* v2, 14-char names */
#define MINIX2_SUPER_MAGIC2	0x2478	/* v2, 30-char names */
#define MINIX3_SUPER_MAGIC	0x4d5a	/* v3, 60-char names */

struct minix_super_block {
	uint16_t	s_ninodes;		/* 0x00 */
	uint16_t	s_nzones;
	uint16_t	s_imap_blocks;
	uint16_t	s_zmap_blocks;
	uint16_t	s_firstdatazone;
	uint16_t	s_log_zone_size;
	uint32_t	s_max_size;
	uint16_t	s_magic;		/* 0x10 */
	uint16_t	s_state;
	uint32_t	s_zones;
} __attribute__((packed));

struct minix3_super_block {
	uint32_t	s_ninodes;		/* 0x00 */
	uint16_t	s_pad0;
	uint16_t	s_imap_blocks;
	uint16_t	s_zmap_blocks;
	uint16_t	s_firstdatazone;
	uint16_t	s_log_zone_size;
	uint16_t	s_pad1;
	uint32_t	s_max_size;		/* 0x10 */
	uint32_t	s_zones;
	uint16_t	s_magic;		/* 0x18 */
	uint16_t	s_pad2;
	uint16_t	s_blocksize;
	uint8_t		s_disk_version;
} __attribute__((packed));

static int probe_minix(struct fsa_dev *dev, const struct fsa_env *env,
		       struct fsa_info *info)
{
	const struct minix_super_block *ms;
	const struct minix3_super_block *m3;
	unsigned ver = 0, namelen = 0;
	uint32_t ninodes, zones, imap, zmap;

	(void) env;
	m3 = fsa_read_type(dev, MINIX_SB_OFF, struct minix3_super_block);
	if (!m3)
		return fsa_read_fail(info, "superblock");
	ms = (const struct minix_super_block *) m3;	/* same bytes, shorter */

	switch (le16toh(ms->s_magic)) {
	case MINIX_SUPER_MAGIC:   ver = 1; namelen = 14; break;
	case MINIX_SUPER_MAGIC2:  ver = 1; namelen = 30; break;
	case MINIX2_SUPER_MAGIC:  ver = 2; namelen = 14; break;
	case MINIX2_SUPER_MAGIC2: ver = 2; namelen = 30; break;
	}
	if (!ver && le16toh(m3->s_magic) == MINIX3_SUPER_MAGIC) {
		ver = 3;
		namelen = 60;
	}
	if (!ver) {
		switch (be16toh(ms->s_magic)) {
		case MINIX_SUPER_MAGIC: case MINIX_SUPER_MAGIC2:
		case MINIX2_SUPER_MAGIC: case MINIX2_SUPER_MAGIC2:
			return fsa_nomatch(info, "big-endian minix");
		}
		if (be16toh(m3->s_magic) == MINIX3_SUPER_MAGIC)
			return fsa_nomatch(info, "big-endian minix");
		return fsa_nomatch(info, "bad magic");
	}

	if (ver == 3) {
		unsigned bs = le16toh(m3->s_blocksize);

		ninodes = le32toh(m3->s_ninodes);
		zones = le32toh(m3->s_zones);
		imap = le16toh(m3->s_imap_blocks);
		zmap = le16toh(m3->s_zmap_blocks);
		if (bs < 512 || bs > 65536 || !fsa_is_power_of_2(bs))
			return fsa_nomatch(info, "bad block size %u", bs);
	} else {
		ninodes = le16toh(ms->s_ninodes);
		zones = ver == 2 ? le32toh(ms->s_zones) : le16toh(ms->s_nzones);
		imap = le16toh(ms->s_imap_blocks);
		zmap = le16toh(ms->s_zmap_blocks);
	}
	/* minix_fill_super() refuses empty bitmaps */
	if (!ninodes || !zones || !imap || !zmap)
		return fsa_nomatch(info, "empty inode or zone map");
	if (imap * 8192ULL < ninodes + 1ULL)
		return fsa_nomatch(info, "inode map too small");

	snprintf(info->version, sizeof(info->version), "v%u", ver);
	snprintf(info->format, sizeof(info->format), "v%u, %u-char names", ver, namelen);
	fsa_set_limits(info, 0, FSA_U32_MAX, FSA_U32_MAX);
	return 0;
}

static const char *const minix_types[] = { "minix", NULL };

const struct fsa_prober minix_prober = {
	.name = "minix",
	.types = minix_types,
	.probe = probe_minix,
};
