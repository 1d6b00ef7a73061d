// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - the Prometheus text format (version 0.0.4) for the
 * node_exporter textfile collector: per filesystem, totals, and the
 * kernel's inventory (/sys/fs/deprecated, /sys/fs/y2038, the sysctls).
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <limits.h>
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

/* METRIC{LABEL="LV",policy="WORD"}, one series per policy word from
 * @first, 1 for the current value @v */
static void prom_policy(FILE *out, const char *metric, const char *label, const char *lv,
			const char *v, size_t first)
{
	size_t w;

	for (w = first; w < N_POLICY_WORDS; w++) {
		fprintf(out, "%s{", metric);
		prom_label(out, label, lv, 0);
		prom_label(out, "policy", policy_words[w], 1);
		fprintf(out, "} %d\n", strcmp(v, policy_words[w]) == 0);
	}
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
	size_t c;
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
		prom_policy(out, "fsaudit_kernel_deprecated_policy", "item", items[i]->d_name, v, 0);
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
		prom_policy(out, "fsaudit_kernel_policy", "sysctl", names[c], v, 1);
	}
}

/* the value of a per-filesystem metric for @rec (series @k of a gauge per
 * state) in @v; 0 when the filesystem has none */
typedef int (*fs_value_fn)(const struct fsa_record *rec, int k, long long *v);

#define UNUSED __attribute__((unused))
static int v_verdict(const struct fsa_record *rec, int k, long long *v)
{
	*v = rec->verdict == k;
	return 1;
}

static int v_at_risk(const struct fsa_record *rec, int k UNUSED, long long *v)
{
	*v = rec->verdict > VERDICT_OK;
	return 1;
}

static int v_unreadable(const struct fsa_record *rec, int k UNUSED, long long *v)
{
	*v = rec->unreadable;
	return 1;
}

static int v_can_mount(const struct fsa_record *rec, int k UNUSED, long long *v)
{
	*v = rec->kernel_can_mount;
	return rec->kernel_can_mount >= 0;
}

static int v_next_mount(const struct fsa_record *rec, int k, long long *v)
{
	*v = rec->kernel == k + FSA_KERNEL_MOUNTS;
	return rec->kernel != FSA_KERNEL_UNKNOWN;
}

/* @which: 0 TIME-MIN, 1 TIME-MAX, 2 S-TIME-MAX */
static int v_time(const struct fsa_record *rec, int which, long long *v)
{
	*v = which == 0 ? rec->info.time_min : which == 1 ? rec->info.time_max : rec->info.s_time_max;
	return rec->have_info && rec->info.has_limits;
}

static int v_time_min(const struct fsa_record *rec, int k UNUSED, long long *v)
{
	return v_time(rec, 0, v);
}

static int v_time_max(const struct fsa_record *rec, int k UNUSED, long long *v)
{
	return v_time(rec, 1, v);
}

static int v_s_time_max(const struct fsa_record *rec, int k UNUSED, long long *v)
{
	return v_time(rec, 2, v);
}

static int v_removal(const struct fsa_record *rec, int k UNUSED, long long *v)
{
	struct fsa_item_strings is;

	fsa_item_strings(rec, &is);
	*v = date_epoch(is.removal);
	return *v >= 0;
}

/* a per-filesystem gauge: # HELP and # TYPE before its first series, then
 * NAME{device,mountpoint,fstype[,LABEL]} VALUE for every filesystem that
 * has it, one series per value of LABEL (@lvals) when there is one */
static void prom_fs_metric(FILE *out, const struct fsaudit *fa, const char *dup, const char *name,
			   const char *help, const char *label, const char *const *lvals, int nvals,
			   fs_value_fn fn)
{
	long long val;
	size_t i;
	int k, any = 0;

	for (i = 0; i < fa->nrecs; i++) {
		if (dup[i] || !fn(&fa->recs[i], 0, &val))
			continue;
		if (!any++)
			prom_head(out, name, "gauge", help);
		for (k = 0; k < nvals; k++) {
			fprintf(out, "%s{", name);
			prom_src_labels(out, &fa->recs[i]);
			if (label)
				prom_label(out, label, lvals[k], 1);
			fn(&fa->recs[i], k, &val);
			fprintf(out, "} %lld\n", val);
		}
	}
}

/* Prometheus text format (node_exporter textfile collector) */
void fsa_print_prometheus(struct fsaudit *fa, FILE *out)
{
	static const struct { const char *name, *help; fs_value_fn fn; } simple[] = {
		{ "fsaudit_filesystem_at_risk", "1 when the verdict is not ok and not unknown.", v_at_risk },
		{ "fsaudit_filesystem_unreadable", "1 when the source could not be read.", v_unreadable },
		{ "fsaudit_filesystem_time_min_seconds",
		  "Earliest time the on-disk format can store, seconds since the epoch.", v_time_min },
		{ "fsaudit_filesystem_time_max_seconds",
		  "Latest time the on-disk format can store, seconds since the epoch.", v_time_max },
		{ "fsaudit_filesystem_kernel_time_max_seconds",
		  "The kernel's s_time_max for the superblock (later times are clamped to it).", v_s_time_max },
		{ "fsaudit_filesystem_removal_timestamp_seconds",
		  "Earliest upstream removal date of a deprecated item that applies.", v_removal },
	};
	size_t i, j, k;
	int v, any;
	unsigned long long count[VERDICT_MAX + 1] = { 0 }, unreadable = 0;
	char *dup = calloc(fa->nrecs + 1, 1);

	if (!dup)
		fsa_internal_error("memory", ENOMEM);
	/* one series per source: a name given twice for nothing readable is
	 * reported once (readable sources are folded by device and inode) */
	for (i = 0; i < fa->nrecs; i++)
		for (j = 0; j < i && !dup[i]; j++)
			if (!dup[j] && strcmp(fa->recs[i].source, fa->recs[j].source) == 0)
				dup[i] = 1;

	prom_fs_metric(out, fa, dup, "fsaudit_filesystem_verdict",
		       "Verdict of fsaudit for the filesystem, 1 for the current one (ok, 2038-limited, deprecated, removed-from-mainline, unknown).",
		       "verdict", fsa_verdict_names, VERDICT_MAX + 1, v_verdict);
	for (k = 0; k < sizeof(simple) / sizeof(simple[0]); k++)
		prom_fs_metric(out, fa, dup, simple[k].name, simple[k].help, NULL, NULL, 1, simple[k].fn);
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
	prom_fs_metric(out, fa, dup, "fsaudit_filesystem_kernel_can_mount",
		       "1 when the running kernel's configuration can mount the (unmounted) filesystem.",
		       NULL, NULL, 1, v_can_mount);
	prom_fs_metric(out, fa, dup, "fsaudit_filesystem_next_mount",
		       "What the kernel does with the next mount (its configuration, the mount policies), 1 for the current outcome.",
		       "outcome", fsa_kernel_names + FSA_KERNEL_MOUNTS, FSA_KERNEL_CANNOT - FSA_KERNEL_MOUNTS + 1,
		       v_next_mount);
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
