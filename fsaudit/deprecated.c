// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - deprecation inventory: /sys/fs/deprecated/<item>/ when the
 * running kernel has it, otherwise a built-in table for Linux 6.12.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsaudit.h"

struct fsa_item fsa_items[FSA_NITEMS] = {
	[FSA_ITEM_REISERFS] = {
		.name = "reiserfs",
		.verdict = VERDICT_REMOVED,
		.since = "2022-05-22",		/* Linux 5.18: Kconfig "(deprecated)" */
		.removal = "2025-01-19",	/* Linux 6.13 released without it */
		.reason = "unmaintained; removed from mainline in Linux 6.13, kept in 6.12 LTS for data migration",
		.replacement = "copy the data to ext4, XFS or btrfs",
	},
	[FSA_ITEM_EXT2] = {
		.name = "ext2",
		.verdict = VERDICT_DEPRECATED,
		.since = "2024-05-12",		/* Linux 6.9: Kconfig "(DEPRECATED)" */
		.removal = "",
		.reason = "the ext2 driver cannot store inode times after 2038-01-19 03:14:07 UTC",
		.replacement = "the ext4 driver mounts ext2 filesystems",
	},
	[FSA_ITEM_XFS_V4] = {
		.name = "xfs-v4",
		.verdict = VERDICT_DEPRECATED,
		.since = "2020-12-13",		/* Linux 5.10: XFS_SUPPORT_V4 deprecated */
		.removal = "2030-09-30",
		.reason = "V4 (crc=0) format: no metadata checksums, times end 2038-01-19",
		.replacement = "a new V5 filesystem (mkfs.xfs) and a copy of the data",
	},
	[FSA_ITEM_XFS_ASCII_CI] = {
		.name = "xfs-ascii-ci",
		.verdict = VERDICT_DEPRECATED,
		.since = "2023-02-19",		/* Linux 6.2: XFS_SUPPORT_ASCII_CI */
		.removal = "2030-09-30",
		.reason = "ASCII-only case-insensitive names (mkfs.xfs -n version=ci) are broken for non-ASCII names",
		.replacement = "a filesystem made without -n version=ci and a copy of the data",
	},
	[FSA_ITEM_EXT4_SMALL_INODES] = {
		.name = "ext4-small-inodes",
		.verdict = VERDICT_2038,
		.since = "",
		.removal = "",
		.reason = "inodes smaller than 256 bytes (or revision 0) cannot store times after 2038-01-19 03:14:07 UTC",
		.replacement = "back up, mkfs.ext4 -I 256, restore (tune2fs -I 256 only where fsaudit says it is safe)",
	},
};

const char *const fsa_verdict_names[] = {
	[VERDICT_UNKNOWN] = "unknown",
	[VERDICT_OK] = "ok",
	[VERDICT_2038] = "2038-limited",
	[VERDICT_DEPRECATED] = "deprecated",
	[VERDICT_REMOVED] = "removed-from-mainline",
};

/* read one short value file, strip the newline; 0 or -errno */
static int read_value(int dirfd, const char *name, char *buf, size_t bufsz)
{
	ssize_t n;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, bufsz - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* Returns 1 when <sysroot>/sys/fs/deprecated exists (the kernel has the
 * deprecation series), 0 otherwise. */
int fsa_items_load(const char *sysroot)
{
	char path[PATH_MAX];
	int dfd, i;

	snprintf(path, sizeof(path), "%s/sys/fs/deprecated", sysroot);
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;

	for (i = 0; i < FSA_NITEMS; i++) {
		struct fsa_item *it = &fsa_items[i];
		char v[32];
		int fd = openat(dfd, it->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd < 0)
			continue;
		it->from_sysfs = 1;
		read_value(fd, "since", it->since, sizeof(it->since));
		read_value(fd, "removal", it->removal, sizeof(it->removal));
		read_value(fd, "reason", it->reason, sizeof(it->reason));
		read_value(fd, "replacement", it->replacement, sizeof(it->replacement));
		read_value(fd, "policy", it->policy, sizeof(it->policy));
		if (read_value(fd, "active", v, sizeof(v)) == 0)
			it->active = strtol(v, NULL, 10);
		close(fd);
	}
	close(dfd);
	return 1;
}

int fsa_path_exists(const char *sysroot, const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s", sysroot, rel);
	return stat(path, &st) == 0;
}
