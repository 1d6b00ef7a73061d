// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - block devices: <sysroot>/sys/block (--all), kernel names of
 * device numbers (/sys/dev/block).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fsaudit.h"

/* kernel name of a block device (vda1, dm-0) from /sys/dev/block/M:m */
int fsa_devno_kname(struct fsaudit *fa, dev_t devno, char *buf, size_t bufsz)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *b;
	ssize_t n;

	if (!devno)
		return -1;

	snprintf(path, sizeof(path), "%s/sys/dev/block/%u:%u", fa->sysroot,
		 major(devno), minor(devno));
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -1;
	link[n] = '\0';
	b = strrchr(link, '/');
	b = b ? b + 1 : link;
	if (strlen(b) >= bufsz)
		return -1;
	memcpy(buf, b, strlen(b) + 1);
	return 0;
}


static int read_devno(const char *dir, dev_t *devno)
{
	char path[PATH_MAX], buf[32];
	unsigned maj, min;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/dev", dir);
	f = fopen(path, "re");
	if (!f)
		return -1;
	ok = fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &maj, &min) == 2;
	fclose(f);
	if (!ok)
		return -1;
	*devno = makedev(maj, min);
	return 0;
}

/* 0 for an empty device (no medium, unbound loop device), 1 otherwise */
static int has_size(const char *dir)
{
	char path[PATH_MAX + 8], buf[32];
	FILE *f;
	int ok = 1;

	snprintf(path, sizeof(path), "%s/size", dir);
	f = fopen(path, "re");
	if (!f)
		return 1;
	if (fgets(buf, sizeof(buf), f) && strtoull(buf, NULL, 10) == 0)
		ok = 0;
	fclose(f);
	return ok;
}

static void audit_blockdev(struct fsaudit *fa, const char *sysdir, const char *name)
{
	struct source src = { 0 };
	char devpath[PATH_MAX];

	if (!has_size(sysdir))
		return;
	if (read_devno(sysdir, &src.devno) == 0 && fsa_seen(fa, src.devno))
		return;
	snprintf(devpath, sizeof(devpath), "/dev/%s", name);
	src.name = devpath;
	snprintf(src.path, sizeof(src.path), "%s%s", fa->sysroot, devpath);
	fsa_audit_source(fa, &src, 1);
}

static int namecmp(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

/* --all: block devices from <sysroot>/sys/block, whole disks and partitions */
void fsa_audit_all_blockdevs(struct fsaudit *fa)
{
	char base[PATH_MAX], dir[PATH_MAX + NAME_MAX + 2], sub[PATH_MAX * 2 + 32];
	struct dirent **disks = NULL, **parts;
	int n, i, m, j;

	snprintf(base, sizeof(base), "%s/sys/block", fa->sysroot);
	n = scandir(base, &disks, NULL, namecmp);
	for (i = 0; i < n; i++) {
		const char *dn = disks[i]->d_name;

		if (dn[0] == '.')
			goto next;
		snprintf(dir, sizeof(dir), "%s/%s", base, dn);
		audit_blockdev(fa, dir, dn);
		m = scandir(dir, &parts, NULL, namecmp);
		for (j = 0; j < m; j++) {
			const char *pn = parts[j]->d_name;
			struct stat st;

			snprintf(sub, sizeof(sub), "%s/%s/partition", dir, pn);
			if (pn[0] != '.' && stat(sub, &st) == 0) {
				snprintf(sub, sizeof(sub), "%s/%s", dir, pn);
				audit_blockdev(fa, sub, pn);
			}
			free(parts[j]);
		}
		if (m >= 0)
			free(parts);
next:
		free(disks[i]);
	}
	if (n >= 0)
		free(disks);
}
