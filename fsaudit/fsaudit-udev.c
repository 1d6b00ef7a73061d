// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - udev properties for one device (--udev DEVNAME), imported by
 * 61-fsaudit.rules: the verdict, the deprecation items, the time limit,
 * and UDISKS_AUTO=0 for deprecated and 2038-limited filesystems, so that
 * udisks2 does not mount them automatically (a desktop then shows them,
 * but mounts them only when asked).
 */
#include <stdio.h>
#include <string.h>

#include "fsaudit.h"

/* KEY=value lines; the value is printable ASCII (anything else as _),
 * as udev's IMPORT{program} reads it */
static void prop(FILE *out, const char *key, const char *v)
{
	fprintf(out, "%s=", key);
	for (; *v; v++)
		fputc(*v > ' ' && *v < 0x7f && *v != '"' && *v != '\'' && *v != '\\' ? *v : '_', out);
	fputc('\n', out);
}

/* 0 when the device was audited (udev imports the properties only then),
 * FSA_EXIT_ERROR otherwise */
int fsa_print_udev(struct fsaudit *fa, FILE *out)
{
	const struct fsa_record *r;
	struct fsa_item_strings is;
	char buf[64];

	if (fa->nrecs != 1 || fa->recs[0].unreadable)
		return FSA_EXIT_ERROR;
	r = &fa->recs[0];
	fsa_item_strings(r, &is);
	prop(out, "FSAUDIT_VERDICT", fsa_verdict_names[r->verdict]);
	prop(out, "FSAUDIT_AT_RISK", r->verdict > VERDICT_OK ? "1" : "0");
	if (is.deps[0])
		prop(out, "FSAUDIT_DEPRECATED", is.deps);
	if (r->have_info && r->info.has_limits) {
		prop(out, "FSAUDIT_TIME_MAX", fsa_time(r->info.time_max, FSA_TIME_ISO, buf, sizeof(buf)));
		snprintf(buf, sizeof(buf), "%lld", (long long) r->info.s_time_max);
		prop(out, "FSAUDIT_S_TIME_MAX", buf);
	}
	if (is.removal[0])
		prop(out, "FSAUDIT_REMOVAL", is.removal);
	if (r->kernel != FSA_KERNEL_UNKNOWN)
		prop(out, "FSAUDIT_KERNEL", fsa_kernel_names[r->kernel]);
	/* deprecated, removed or 2038-limited: not mounted without asking */
	if (r->verdict > VERDICT_OK)
		prop(out, "UDISKS_AUTO", "0");
	return FSA_EXIT_OK;
}
