// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - ISO 9660 prober.
 *
 * Linux 6.12 isofs_fill_super(): s_time_min = 1900-01-01 minus 13 h,
 * s_time_max = 2155-12-31 23:59:59 plus 13 h (7-byte directory record:
 * year-1900 as u8, time zone in 15-minute units).  Read-only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define ISO_VD_START		32768
#define ISO_SECTOR		2048
#define ISO_VD_MAX		32
#define ISO_VD_PRIMARY		1
#define ISO_VD_SUPPLEMENTARY	2
#define ISO_VD_END		255
#define ISOFS_TIME_MIN		(-2209035600LL)
#define ISOFS_TIME_MAX		5869630799LL

struct iso_volume_descriptor {
	uint8_t		type;			/* 0 */
	char		id[5];			/* 1 "CD001" */
	uint8_t		version;		/* 6 */
	uint8_t		flags;
	char		system_id[32];		/* 8 */
	char		volume_id[32];		/* 40 */
	uint8_t		unused[8];		/* 72 */
	uint32_t	space_le;		/* 80 */
	uint32_t	space_be;
	uint8_t		escape[32];		/* 88 */
	uint16_t	set_size_le;		/* 120 */
	uint16_t	set_size_be;
	uint16_t	seq_le;			/* 124 */
	uint16_t	seq_be;
	uint16_t	block_size_le;		/* 128 */
	uint16_t	block_size_be;
} __attribute__((packed));

static int probe_iso9660(struct fsa_dev *dev, const struct fsa_env *env,
			 struct fsa_info *info)
{
	const struct iso_volume_descriptor *vd;
	unsigned i, pvd = 0, joliet = 0, bs = 0;

	(void) env;
	for (i = 0; i < ISO_VD_MAX; i++) {
		vd = fsa_read_type(dev, ISO_VD_START + (uint64_t) i * ISO_SECTOR,
				   struct iso_volume_descriptor);
		if (!vd) {
			if (errno)
				return -errno;
			break;
		}
		if (memcmp(vd->id, "CD001", 5) != 0)
			break;
		if (vd->type == ISO_VD_END)
			break;
		if (vd->type == ISO_VD_PRIMARY && !pvd) {
			pvd = 1;
			bs = le16toh(vd->block_size_le);
		} else if (vd->type == ISO_VD_SUPPLEMENTARY && vd->escape[0] == '%'
			   && vd->escape[1] == '/'
			   && (vd->escape[2] == '@' || vd->escape[2] == 'C' || vd->escape[2] == 'E'))
			joliet = 1;
	}
	if (!pvd)
		return fsa_nomatch(info, "no primary volume descriptor");
	/* isofs_fill_super() accepts 512, 1024 and 2048 byte logical blocks */
	if (bs != 512 && bs != 1024 && bs != 2048)
		return fsa_nomatch(info, "bad logical block size %u", bs);

	snprintf(info->format, sizeof(info->format), "ISO 9660%s", joliet ? ", Joliet" : "");
	fsa_set_limits(info, ISOFS_TIME_MIN, ISOFS_TIME_MAX, ISOFS_TIME_MAX);
	info->read_only = 1;
	return 0;
}

static const char *const iso9660_types[] = { "iso9660", NULL };

const struct fsa_prober iso9660_prober = {
	.name = "iso9660",
	.types = iso9660_types,
	.probe = probe_iso9660,
};
