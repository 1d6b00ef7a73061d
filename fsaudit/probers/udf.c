// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - UDF prober (volume recognition sequence).
 *
 * udf sets no s_time_min/s_time_max.  ECMA-167 timestamps hold a __le16
 * year (udf_time_to_disk_stamp(): cpu_to_le16(tm_year + 1900)), so the
 * disk can store years 0 .. 65535 (at the recorded time zone) and wraps
 * beyond.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "prober.h"

#define UDF_VRS_START		32768
#define UDF_VSD_SIZE		2048
#define UDF_VRS_MAX		64
#define UDF_YEAR0		(-62167219200LL)	/* 0000-01-01 00:00:00 */
#define UDF_YEAR65535_END	2005949145599LL		/* 65535-12-31 23:59:59 */

struct volume_structure_descriptor {
	uint8_t		type;
	char		id[5];
	uint8_t		version;
} __attribute__((packed));

static int probe_udf(struct fsa_dev *dev, const struct fsa_env *env,
		     struct fsa_info *info)
{
	const struct volume_structure_descriptor *vsd;
	unsigned i, nsr = 0, bea = 0;

	(void) env;
	/* ECMA-167 2/8.3: BEA01, then NSR02 or NSR03, then TEA01; each
	 * descriptor in its own 2048-byte slot (larger blocks not handled) */
	for (i = 0; i < UDF_VRS_MAX; i++) {
		vsd = fsa_read_type(dev, UDF_VRS_START + (uint64_t) i * UDF_VSD_SIZE,
				    struct volume_structure_descriptor);
		if (!vsd)
			break;
		if (memcmp(vsd->id, "BEA01", 5) == 0)
			bea = 1;
		else if (bea && memcmp(vsd->id, "NSR02", 5) == 0)
			nsr = 2;
		else if (bea && memcmp(vsd->id, "NSR03", 5) == 0)
			nsr = 3;
		else if (memcmp(vsd->id, "TEA01", 5) == 0)
			break;
		else if (memcmp(vsd->id, "CD001", 5) && memcmp(vsd->id, "CDW02", 5)
			 && memcmp(vsd->id, "BOOT2", 5))
			break;	/* not a volume structure descriptor */
	}
	if (!vsd && errno)
		return -errno;
	if (!nsr)
		return fsa_nomatch(info, "no NSR descriptor in the recognition sequence");

	snprintf(info->format, sizeof(info->format), "%s",
		 nsr == 2 ? "NSR02 (UDF 1.02/1.50)" : "NSR03 (UDF 2.00 or later)");
	fsa_set_limits(info, UDF_YEAR0, UDF_YEAR65535_END, FSA_S64_MAX);
	fsa_note(info, "no VFS limit; the 16-bit year wraps after 65535");
	return 0;
}

static const char *const udf_types[] = { "udf", NULL };

const struct fsa_prober udf_prober = {
	.name = "udf",
	.types = udf_types,
	.probe = probe_udf,
};
