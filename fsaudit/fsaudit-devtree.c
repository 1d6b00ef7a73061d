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

#include <blkid.h>

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

typedef int (*blockdev_fn)(struct fsaudit *fa, const char *sysdir, const char *name, void *arg);

static int audit_blockdev(struct fsaudit *fa, const char *sysdir, const char *name,
			  void *arg __attribute__((unused)))
{
	struct source src = { 0 };
	char devpath[PATH_MAX];

	if (!has_size(sysdir))
		return 0;
	if (read_devno(sysdir, &src.devno) == 0 && fsa_seen(fa, src.devno, 0, 0))
		return 0;
	snprintf(devpath, sizeof(devpath), "/dev/%s", name);
	src.name = devpath;
	snprintf(src.path, sizeof(src.path), "%s%s", fa->sysroot, devpath);
	fsa_audit_source(fa, &src, 1);
	return 0;
}

static int namecmp(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

/* @fn for every block device of <sysroot>/sys/block, whole disks and
 * partitions, in name order, until it returns non-zero */
static int each_blockdev(struct fsaudit *fa, blockdev_fn fn, void *arg)
{
	char base[PATH_MAX], dir[PATH_MAX + NAME_MAX + 2], sub[PATH_MAX * 2 + 32];
	struct dirent **disks = NULL, **parts;
	int n, i, m, j, rc = 0;

	snprintf(base, sizeof(base), "%s/sys/block", fa->sysroot);
	n = scandir(base, &disks, NULL, namecmp);
	for (i = 0; i < n; i++) {
		const char *dn = disks[i]->d_name;

		if (dn[0] == '.' || rc)
			goto next;
		snprintf(dir, sizeof(dir), "%s/%s", base, dn);
		rc = fn(fa, dir, dn, arg);
		m = scandir(dir, &parts, NULL, namecmp);
		for (j = 0; j < m; j++) {
			const char *pn = parts[j]->d_name;
			struct stat st;

			snprintf(sub, sizeof(sub), "%s/%s/partition", dir, pn);
			if (!rc && pn[0] != '.' && stat(sub, &st) == 0) {
				snprintf(sub, sizeof(sub), "%s/%s", dir, pn);
				rc = fn(fa, sub, pn, arg);
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
	return rc;
}

/* --all: block devices from <sysroot>/sys/block, whole disks and partitions */
void fsa_audit_all_blockdevs(struct fsaudit *fa)
{
	each_blockdev(fa, audit_blockdev, NULL);
}

struct tag_search {
	const char *name, *value;	/* UUID, LABEL, PARTUUID, PARTLABEL */
	char *found;			/* "/dev/NAME" */
	size_t foundsz;
};

/* The partition entry of the partition in @sysdir, as the kernel numbers
 * it (<sysdir>/partition), read from the partition table of its disk (the
 * parent directory in /sys/block): its UUID (PARTUUID, for GPT the entry's
 * UUID, for MBR the disk id and the number, "0b5e55ed-05") or its name
 * (PARTLABEL, GPT only) in @buf.  From the table of the disk and not from
 * the partition itself, so that a sysroot's partitions can be files with
 * the partition's content (libblkid finds the disk of a real partition
 * through the running system's /sys, not the sysroot's).  0, or -1. */
static int part_entry(struct fsaudit *fa, const char *sysdir, int label, char *buf, size_t bufsz)
{
	char path[PATH_MAX + 16], disk[PATH_MAX];
	const char *v = NULL, *b;
	blkid_partlist ls;
	blkid_partition par;
	blkid_probe pr;
	FILE *f;
	int partno = 0, rc = -1;

	snprintf(path, sizeof(path), "%s/partition", sysdir);
	f = fopen(path, "re");
	if (!f)
		return -1;		/* a whole disk */
	if (fscanf(f, "%d", &partno) != 1)
		partno = 0;
	fclose(f);
	snprintf(disk, sizeof(disk), "%s", sysdir);
	b = strrchr(disk, '/');
	if (partno <= 0 || !b)
		return -1;
	disk[b - disk] = '\0';		/* /sys/block/DISK */
	b = strrchr(disk, '/');
	snprintf(path, sizeof(path), "%s/dev/%s", fa->sysroot, b ? b + 1 : disk);
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return -1;
	ls = blkid_probe_get_partitions(pr);
	par = ls ? blkid_partlist_get_partition_by_partno(ls, partno) : NULL;
	if (par)
		v = label ? blkid_partition_get_name(par) : blkid_partition_get_uuid(par);
	if (v && *v) {
		snprintf(buf, bufsz, "%s", v);
		rc = 0;
	}
	blkid_free_probe(pr);
	return rc;
}

/* does the device hold the tag?  UUID and LABEL of its filesystem as blkid
 * -t NAME=VALUE finds them (libblkid); PARTUUID and PARTLABEL of its entry
 * in its disk's partition table */
static int match_tag(struct fsaudit *fa, const char *sysdir, const char *name, void *arg)
{
	struct tag_search *t = arg;
	char path[PATH_MAX];
	const char *v;
	blkid_probe pr;
	int hit = 0;

	if (strcmp(t->name, "PARTUUID") == 0 || strcmp(t->name, "PARTLABEL") == 0) {
		char entry[256];

		if (part_entry(fa, sysdir, t->name[4] == 'L', entry, sizeof(entry)) != 0)
			return 0;
		/* byte for byte, as libblkid compares tags when it probes */
		hit = strcmp(entry, t->value) == 0;
		if (hit)
			snprintf(t->found, t->foundsz, "/dev/%s", name);
		return hit;
	}
	snprintf(path, sizeof(path), "%s/dev/%s", fa->sysroot, name);
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return 0;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID);
	blkid_probe_enable_partitions(pr, 1);
	if (blkid_do_safeprobe(pr) == 0 && blkid_probe_lookup_value(pr, t->name, &v, NULL) == 0
	    && strcmp(v, t->value) == 0) {
		snprintf(t->found, t->foundsz, "/dev/%s", name);
		hit = 1;
	}
	blkid_free_probe(pr);
	return hit;
}

/* the device that holds the tag NAME=VALUE under the sysroot: its
 * /dev/disk/by-* link, else the block device whose filesystem or partition
 * entry has it; 0 and "/dev/..." in @buf, -1 when none */
int fsa_find_tag(struct fsaudit *fa, const char *name, const char *value, char *buf, size_t bufsz)
{
	static const char *const dirs[][2] = {
		{ "UUID", "by-uuid" }, { "LABEL", "by-label" },
		{ "PARTUUID", "by-partuuid" }, { "PARTLABEL", "by-partlabel" },
	};
	struct tag_search t = { name, value, buf, bufsz };
	char link[PATH_MAX * 2 + 32], enc[PATH_MAX], target[PATH_MAX];
	size_t i;
	ssize_t n;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (strcmp(dirs[i][0], name) != 0)
			continue;
		if (blkid_encode_string(value, enc, sizeof(enc)) != 0)
			break;
		snprintf(link, sizeof(link), "%s/dev/disk/%s/%s", fa->sysroot, dirs[i][1], enc);
		n = readlink(link, target, sizeof(target) - 1);
		if (n > 0) {
			const char *b;

			target[n] = '\0';
			b = strrchr(target, '/');
			snprintf(buf, bufsz, "/dev/%s", b ? b + 1 : target);
			return 0;
		}
	}
	return each_blockdev(fa, match_tag, &t) ? 0 : -1;
}
