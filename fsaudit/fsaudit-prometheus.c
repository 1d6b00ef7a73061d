// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - the Prometheus text format (version 0.0.4) for the
 * node_exporter textfile collector: per filesystem, totals, and the
 * kernel's inventory (/sys/fs/deprecated, /sys/fs/y2038, the sysctls).
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fsaudit.h"

/* Prometheus label value: valid UTF-8, \\, \" and \n escaped */
static void prom_label(FILE *out, const char *name, const char *v, int comma)
{
	char *fixed = fsa_utf8_fix(v ? v : "");
	const char *p = fixed ? fixed : (v ? v : "");

	fprintf(out, "%s%s=\"", comma ? "," : "", name);
	for (; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", out);
		else if (*p == '"')
			fputs("\\\"", out);
		else if (*p == '\n')
			fputs("\\n", out);
		else
			fputc(*p, out);
	}
	fputc('"', out);
	free(fixed);
}

static void prom_head(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void prom_src_labels(FILE *out, const struct fsa_record *rec)
{
	/* node_exporter's node_filesystem_* labels, so that the series join */
	prom_label(out, "device", rec->source, 0);
	prom_label(out, "mountpoint", rec->target, 1);
	prom_label(out, "fstype", rec->fstype, 1);
}

/* YYYY-MM-DD as seconds since the epoch (UTC), -1 when not a date */
static int64_t date_epoch(const char *d)
{
	struct tm tm = { 0 };
	char *end;

	if (!d[0])
		return -1;
	end = strptime(d, "%Y-%m-%d", &tm);
	if (!end || *end)
		return -1;
	return (int64_t) timegm(&tm);
}

int fsa_read_sys_value(const char *dir, const char *name, char *buf, size_t bufsz)
{
	char path[PATH_MAX * 2];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, bufsz - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* a decimal counter file; 0 when present and valid */
static int read_sys_num(const char *dir, const char *name, long long *v)
{
	char buf[64], *end;

	if (fsa_read_sys_value(dir, name, buf, sizeof(buf)) != 0 || !buf[0])
		return -1;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return errno || *end ? -1 : 0;
}

static const char *const policy_words[] = { "default", "allow", "warn", "ro", "deny" };
#define N_POLICY_WORDS (sizeof(policy_words) / sizeof(policy_words[0]))

static int item_dir_filter(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* the kernel's inventory: /sys/fs/deprecated/<item>/ and /sys/fs/y2038/ */
static void prometheus_kernel(struct fsaudit *fa, FILE *out)
{
	static const struct { const char *file, *metric, *type, *help; } ctr[] = {
		{ "mounts", "fsaudit_kernel_deprecated_mounts_total", "counter",
		  "Mount attempts of the deprecated item since boot or module load (/sys/fs/deprecated/ITEM/mounts)." },
		{ "refused", "fsaudit_kernel_deprecated_refused_total", "counter",
		  "Mounts and changes to read-write of the item refused by the policy (/sys/fs/deprecated/ITEM/refused)." },
		{ "active", "fsaudit_kernel_deprecated_active", "gauge",
		  "Superblocks with the item mounted now (/sys/fs/deprecated/ITEM/active)." },
		{ "loaded", "fsaudit_kernel_deprecated_loaded", "gauge",
		  "The item's driver is loaded (/sys/fs/deprecated/ITEM/loaded)." },
	};
	static const struct { const char *file, *metric, *type, *help; } y2038[] = {
		{ "mounts", "fsaudit_kernel_y2038_mounts_total", "counter",
		  "Mount attempts of superblocks that cannot store times after 2038 (/sys/fs/y2038/mounts)." },
		{ "refused", "fsaudit_kernel_y2038_refused_total", "counter",
		  "Mounts of 2038-limited superblocks refused by fs.y2038_policy (/sys/fs/y2038/refused)." },
		{ "active", "fsaudit_kernel_y2038_active", "gauge",
		  "2038-limited superblocks mounted now (/sys/fs/y2038/active)." },
	};
	char base[PATH_MAX], dir[PATH_MAX + NAME_MAX + 2], v[64];
	struct dirent **items = NULL;
	long long num;
	size_t c, w;
	int n, i, any;

	snprintf(base, sizeof(base), "%s/sys/fs/deprecated", fa->sysroot);
	n = scandir(base, &items, item_dir_filter, alphasort);
	for (c = 0; n > 0 && c < sizeof(ctr) / sizeof(ctr[0]); c++) {
		for (any = 0, i = 0; i < n; i++) {
			snprintf(dir, sizeof(dir), "%s/%s", base, items[i]->d_name);
			if (read_sys_num(dir, ctr[c].file, &num) != 0)
				continue;
			if (!any++)
				prom_head(out, ctr[c].metric, ctr[c].type, ctr[c].help);
			fprintf(out, "%s{", ctr[c].metric);
			prom_label(out, "item", items[i]->d_name, 0);
			fprintf(out, "} %lld\n", num);
		}
	}
	for (any = 0, i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", base, items[i]->d_name);
		if (fsa_read_sys_value(dir, "policy", v, sizeof(v)) != 0)
			continue;
		if (!any++)
			prom_head(out, "fsaudit_kernel_deprecated_policy", "gauge",
				  "Policy of the deprecated item, 1 for the current one (/sys/fs/deprecated/ITEM/policy).");
		for (w = 0; w < N_POLICY_WORDS; w++) {
			fputs("fsaudit_kernel_deprecated_policy{", out);
			prom_label(out, "item", items[i]->d_name, 0);
			prom_label(out, "policy", policy_words[w], 1);
			fprintf(out, "} %d\n", strcmp(v, policy_words[w]) == 0);
		}
	}
	for (any = 0, i = 0; i < n; i++) {
		int64_t t;

		snprintf(dir, sizeof(dir), "%s/%s", base, items[i]->d_name);
		if (fsa_read_sys_value(dir, "removal", v, sizeof(v)) != 0 || (t = date_epoch(v)) < 0)
			continue;
		if (!any++)
			prom_head(out, "fsaudit_kernel_deprecated_removal_timestamp_seconds", "gauge",
				  "Upstream removal date of the item (/sys/fs/deprecated/ITEM/removal).");
		fputs("fsaudit_kernel_deprecated_removal_timestamp_seconds{", out);
		prom_label(out, "item", items[i]->d_name, 0);
		fprintf(out, "} %lld\n", (long long) t);
	}
	for (i = 0; i < n; i++)
		free(items[i]);
	if (n >= 0)
		free(items);

	snprintf(base, sizeof(base), "%s/sys/fs/y2038", fa->sysroot);
	for (c = 0; c < sizeof(y2038) / sizeof(y2038[0]); c++) {
		if (read_sys_num(base, y2038[c].file, &num) != 0)
			continue;
		prom_head(out, y2038[c].metric, y2038[c].type, y2038[c].help);
		fprintf(out, "%s %lld\n", y2038[c].metric, num);
	}
	/* the sysctls, where readable */
	for (any = 0, c = 0; c < 2; c++) {
		static const char *const names[] = { "deprecated_policy", "y2038_policy" };

		snprintf(base, sizeof(base), "%s/proc/sys/fs", fa->sysroot);
		if (fsa_read_sys_value(base, names[c], v, sizeof(v)) != 0)
			continue;
		if (!any++)
			prom_head(out, "fsaudit_kernel_policy", "gauge",
				  "The fs.deprecated_policy and fs.y2038_policy sysctls, 1 for the current value.");
		for (w = 1; w < N_POLICY_WORDS; w++) {
			fputs("fsaudit_kernel_policy{", out);
			prom_label(out, "sysctl", names[c], 0);
			prom_label(out, "policy", policy_words[w], 1);
			fprintf(out, "} %d\n", strcmp(v, policy_words[w]) == 0);
		}
	}
}

/* Prometheus text format (node_exporter textfile collector) */
void fsa_print_prometheus(struct fsaudit *fa, FILE *out)
{
	size_t i, j, k;
	int v, any;
	unsigned long long count[VERDICT_MAX + 1] = { 0 }, unreadable = 0;
	char *dup = calloc(fa->nrecs + 1, 1);

	if (!dup)
		fsa_internal_error("memory", ENOMEM);
	/* one series per source: a repeated argument is reported once */
	for (i = 0; i < fa->nrecs; i++)
		for (j = 0; j < i && !dup[i]; j++)
			if (!dup[j] && strcmp(fa->recs[i].source, fa->recs[j].source) == 0)
				dup[i] = 1;

	prom_head(out, "fsaudit_filesystem_verdict", "gauge",
		  "Verdict of fsaudit for the filesystem, 1 for the current one (ok, 2038-limited, deprecated, removed-from-mainline, unknown).");
	for (i = 0; i < fa->nrecs; i++) {
		if (dup[i])
			continue;
		for (v = 0; v <= VERDICT_MAX; v++) {
			fputs("fsaudit_filesystem_verdict{", out);
			prom_src_labels(out, &fa->recs[i]);
			prom_label(out, "verdict", fsa_verdict_names[v], 1);
			fprintf(out, "} %d\n", fa->recs[i].verdict == v);
		}
	}
	prom_head(out, "fsaudit_filesystem_at_risk", "gauge",
		  "1 when the verdict is not ok and not unknown.");
	for (i = 0; i < fa->nrecs; i++) {
		if (dup[i])
			continue;
		fputs("fsaudit_filesystem_at_risk{", out);
		prom_src_labels(out, &fa->recs[i]);
		fprintf(out, "} %d\n", fa->recs[i].verdict > VERDICT_OK);
	}
	prom_head(out, "fsaudit_filesystem_unreadable", "gauge",
		  "1 when the source could not be read.");
	for (i = 0; i < fa->nrecs; i++) {
		if (dup[i])
			continue;
		fputs("fsaudit_filesystem_unreadable{", out);
		prom_src_labels(out, &fa->recs[i]);
		fprintf(out, "} %d\n", fa->recs[i].unreadable);
	}
	for (k = 0; k < 3; k++) {
		static const char *const names[] = {
			"fsaudit_filesystem_time_min_seconds",
			"fsaudit_filesystem_time_max_seconds",
			"fsaudit_filesystem_kernel_time_max_seconds" };
		static const char *const helps[] = {
			"Earliest time the on-disk format can store, seconds since the epoch.",
			"Latest time the on-disk format can store, seconds since the epoch.",
			"The kernel's s_time_max for the superblock (later times are clamped to it)." };

		for (any = 0, i = 0; i < fa->nrecs; i++) {
			const struct fsa_record *rec = &fa->recs[i];

			if (dup[i] || !rec->have_info || !rec->info.has_limits)
				continue;
			if (!any++)
				prom_head(out, names[k], "gauge", helps[k]);
			fprintf(out, "%s{", names[k]);
			prom_src_labels(out, rec);
			fprintf(out, "} %lld\n", (long long) (k == 0 ? rec->info.time_min
					: k == 1 ? rec->info.time_max : rec->info.s_time_max));
		}
	}
	for (any = 0, i = 0; i < fa->nrecs; i++) {
		struct fsa_item_strings is;
		int64_t t;

		fsa_item_strings(&fa->recs[i], &is);
		t = date_epoch(is.removal);

		if (dup[i] || t < 0)
			continue;
		if (!any++)
			prom_head(out, "fsaudit_filesystem_removal_timestamp_seconds", "gauge",
				  "Earliest upstream removal date of a deprecated item that applies.");
		fputs("fsaudit_filesystem_removal_timestamp_seconds{", out);
		prom_src_labels(out, &fa->recs[i]);
		fprintf(out, "} %lld\n", (long long) t);
	}
	for (any = 0, i = 0; i < fa->nrecs; i++) {
		struct fsa_item_strings is;
		char *p, *save = NULL, *list;

		fsa_item_strings(&fa->recs[i], &is);
		if (dup[i] || !is.deps[0])
			continue;
		if (!any++)
			prom_head(out, "fsaudit_filesystem_deprecated_item", "gauge",
				  "Deprecated items (as in /sys/fs/deprecated) that apply to the filesystem.");
		list = fsa_xstrdup(is.deps);
		for (p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
			fputs("fsaudit_filesystem_deprecated_item{", out);
			prom_src_labels(out, &fa->recs[i]);
			prom_label(out, "item", p, 1);
			fputs("} 1\n", out);
		}
		free(list);
	}
	for (any = 0, i = 0; i < fa->nrecs; i++) {
		if (dup[i] || fa->recs[i].kernel_can_mount < 0)
			continue;
		if (!any++)
			prom_head(out, "fsaudit_filesystem_kernel_can_mount", "gauge",
				  "1 when the running kernel's configuration can mount the (unmounted) filesystem.");
		fputs("fsaudit_filesystem_kernel_can_mount{", out);
		prom_src_labels(out, &fa->recs[i]);
		fprintf(out, "} %d\n", fa->recs[i].kernel_can_mount);
	}
	for (any = 0, i = 0; i < fa->nrecs; i++) {
		int k;

		if (dup[i] || fa->recs[i].kernel == FSA_KERNEL_UNKNOWN)
			continue;
		if (!any++)
			prom_head(out, "fsaudit_filesystem_next_mount", "gauge",
				  "What the kernel does with the next mount (its configuration, the mount policies), 1 for the current outcome.");
		for (k = FSA_KERNEL_MOUNTS; k <= FSA_KERNEL_CANNOT; k++) {
			fputs("fsaudit_filesystem_next_mount{", out);
			prom_src_labels(out, &fa->recs[i]);
			prom_label(out, "outcome", fsa_kernel_names[k], 1);
			fprintf(out, "} %d\n", fa->recs[i].kernel == k);
		}
	}
	for (i = 0; i < fa->nrecs; i++) {
		if (dup[i])
			continue;
		if (fa->recs[i].unreadable)
			unreadable++;
		else
			count[fa->recs[i].verdict]++;
	}
	prom_head(out, "fsaudit_filesystems", "gauge",
		  "Audited filesystems by verdict (unreadable sources not included).");
	for (v = 0; v <= VERDICT_MAX; v++) {
		fputs("fsaudit_filesystems{", out);
		prom_label(out, "verdict", fsa_verdict_names[v], 0);
		fprintf(out, "} %llu\n", count[v]);
	}
	prom_head(out, "fsaudit_sources_unreadable", "gauge", "Sources that could not be read.");
	fprintf(out, "fsaudit_sources_unreadable %llu\n", unreadable);
	if (fa->series)
		prometheus_kernel(fa, out);
	free(dup);
}

