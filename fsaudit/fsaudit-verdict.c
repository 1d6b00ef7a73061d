// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - the verdict, the deprecation items that apply, and what the
 * kernel that will mount the filesystem can do: its configuration
 * (/proc/config.gz, /boot/config-R) and which driver serves ext2.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsaudit.h"

/* the most severe of: 2038-limited, the verdicts of the items */
int fsa_compute_verdict(const struct fsa_info *in, int have_info)
{
	int v = VERDICT_OK, it;

	if (!have_info || (!in->has_limits && !in->no_times))
		return VERDICT_UNKNOWN;
	if (in->has_limits && !in->no_times && in->time_max <= FSA_S32_MAX)
		v = VERDICT_2038;
	for (it = 0; it < FSA_NITEMS; it++)
		if ((in->items & (1U << it)) && fsa_items[it].verdict > v)
			v = fsa_items[it].verdict;
	return v;
}

/* DEPRECATED, SINCE, REMOVAL, REASON, REPLACEMENT, POLICY from the items
 * that apply */
void fsa_item_strings(const struct fsa_record *rec, struct fsa_item_strings *s)
{
	const struct fsa_info *in = &rec->info;
	int it;

	memset(s, 0, sizeof(*s));
	for (it = 0; it < FSA_NITEMS; it++) {
		const struct fsa_item *d = &fsa_items[it];

		if (!rec->have_info || !(in->items & (1U << it)))
			continue;
		fsa_append(s->deps, sizeof(s->deps), "%s%s", s->deps[0] ? "," : "", d->name);
		if (d->since[0] && (!s->since[0] || strcmp(d->since, s->since) < 0))
			snprintf(s->since, sizeof(s->since), "%s", d->since);
		if (d->removal[0] && (!s->removal[0] || strcmp(d->removal, s->removal) < 0))
			snprintf(s->removal, sizeof(s->removal), "%s", d->removal);
		fsa_append(s->reason, sizeof(s->reason), "%s%s", s->reason[0] ? "; " : "", d->reason);
		fsa_append(s->repl, sizeof(s->repl), "%s%s", s->repl[0] ? "; " : "", d->replacement);
		if (d->policy[0])
			fsa_append(s->policy, sizeof(s->policy), "%s%s", s->policy[0] ? "," : "", d->policy);
	}
}

/* ------------------------------------------------------------------ */
/* the running kernel's configuration (/proc/config.gz, /boot/config-R) */

/* the text of a kernel config file, gzip-compressed (/proc/config.gz,
 * decompressed by gzip(1)) or not; NULL when unreadable or not a config */
static char *read_config(const char *file)
{
	size_t len = 1, cap = 0;
	unsigned char magic[2];
	char *buf = NULL;
	pid_t pid = -1;
	ssize_t n;
	int fd, st;

	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
		int p[2];

		if (pipe2(p, O_CLOEXEC) != 0) {
			close(fd);
			return NULL;
		}
		pid = fork();
		if (pid == 0) {
			dup2(fd, 0);
			dup2(p[1], 1);
			/* absolute paths: PATH may not be trusted (cron, root) */
			execl("/bin/gzip", "gzip", "-dc", (char *) NULL);
			execl("/usr/bin/gzip", "gzip", "-dc", (char *) NULL);
			_exit(127);
		}
		close(p[1]);
		close(fd);
		fd = p[0];
		if (pid < 0) {
			close(fd);
			return NULL;
		}
	}
	for (;;) {
		if (cap < len + 65537) {
			char *nb;

			if (cap >= (16U << 20))
				break;	/* no kernel config is this large */
			cap = cap ? cap * 2 : 262144;
			nb = realloc(buf, cap);
			if (!nb)
				break;
			buf = nb;
			buf[0] = '\n';
		}
		n = read(fd, buf + len, 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t) n;
	}
	close(fd);
	if (pid > 0)
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	if (!buf || len < 16 || !memmem(buf, len, "\nCONFIG_", 8)) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/* 1 when the kernel configuration could be read */
static int kconfig_load(struct fsaudit *fa)
{
	char path[PATH_MAX];
	struct utsname u;

	if (fa->kconfig_loaded)
		return fa->kconfig != NULL;
	fa->kconfig_loaded = 1;
	if (fa->kconfig_file) {
		if (*fa->kconfig_file)
			fa->kconfig = read_config(fa->kconfig_file);
		return fa->kconfig != NULL;
	}
	snprintf(path, sizeof(path), "%s/proc/config.gz", fa->sysroot);
	fa->kconfig = read_config(path);
	if (!fa->kconfig && uname(&u) == 0) {
		snprintf(path, sizeof(path), "%s/boot/config-%s", fa->sysroot, u.release);
		fa->kconfig = read_config(path);
	}
	return fa->kconfig != NULL;
}

/* CONFIG_<sym> is y or m */
static int kconfig_set(struct fsaudit *fa, const char *sym)
{
	char key[80];
	const char *p;

	snprintf(key, sizeof(key), "\nCONFIG_%s=", sym);
	p = strstr(fa->kconfig, key);
	if (!p)
		return 0;
	p += strlen(key);
	return *p == 'y' || *p == 'm';
}

static const struct {
	const char *type;
	const char *sym, *alt;	/* either is enough */
} kconfig_types[] = {
	{ "ext4", "EXT4_FS", NULL },
	{ "ext3", "EXT4_FS", NULL },
	{ "ext2", "EXT2_FS", "EXT4_FS" },	/* ext4 mounts ext2 */
	{ "xfs", "XFS_FS", NULL },
	{ "reiserfs", "REISERFS_FS", NULL },
	{ "vfat", "VFAT_FS", NULL },
	{ "exfat", "EXFAT_FS", NULL },
	{ "btrfs", "BTRFS_FS", NULL },
	{ "f2fs", "F2FS_FS", NULL },
	{ "jfs", "JFS_FS", NULL },
	{ "nilfs2", "NILFS2_FS", NULL },
	{ "udf", "UDF_FS", NULL },
	{ "iso9660", "ISO9660_FS", NULL },
	{ "squashfs", "SQUASHFS", NULL },
	{ "ntfs", "NTFS3_FS", "NTFS_FS" },
	{ "hfs", "HFS_FS", NULL },
	{ "hfsplus", "HFSPLUS_FS", NULL },
	{ "bfs", "BFS_FS", NULL },
	{ "cramfs", "CRAMFS", NULL },
	{ "romfs", "ROMFS_FS", NULL },
	{ "erofs", "EROFS_FS", NULL },
	{ "ufs", "UFS_FS", NULL },
	{ "ocfs2", "OCFS2_FS", NULL },
	{ "gfs2", "GFS2_FS", NULL },
	{ "minix", "MINIX_FS", NULL },
};

/* Can the running kernel mount this (unmounted) filesystem?  1 yes, 0 no
 * (@sym names the missing option), -1 unknown (no readable config). */
int fsa_kernel_can_mount(struct fsaudit *fa, const char *fstype, unsigned items,
			 const char **sym)
{
	size_t i;

	if (!fstype || !kconfig_load(fa))
		return -1;
	if ((items & (1U << FSA_ITEM_REISERFS)) && !kconfig_set(fa, (*sym = "REISERFS_FS")))
		return 0;
	if ((items & (1U << FSA_ITEM_XFS_V4)) && !kconfig_set(fa, (*sym = "XFS_SUPPORT_V4")))
		return 0;
	if ((items & (1U << FSA_ITEM_XFS_ASCII_CI)) && !kconfig_set(fa, (*sym = "XFS_SUPPORT_ASCII_CI")))
		return 0;
	for (i = 0; i < sizeof(kconfig_types) / sizeof(kconfig_types[0]); i++) {
		if (strcmp(kconfig_types[i].type, fstype) != 0)
			continue;
		*sym = kconfig_types[i].sym;
		if (kconfig_set(fa, *sym)
		    || (kconfig_types[i].alt && kconfig_set(fa, kconfig_types[i].alt)))
			return 1;
		return 0;
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* which driver serves ext2 */

/* is this mounted ext2 filesystem served by fs/ext2 (not by ext4)? */
int fsa_mounted_ext2_driver(struct fsaudit *fa, const struct source *src)
{
	char kname[NAME_MAX + 1], rel[NAME_MAX + 32];
	const char *b;

	if (fsa_devno_kname(fa, src->devno, kname, sizeof(kname)) != 0) {
		b = strrchr(src->name, '/');
		snprintf(kname, sizeof(kname), "%s", b ? b + 1 : src->name);
	}
	snprintf(rel, sizeof(rel), "/sys/fs/ext4/%s", kname);
	if (fsa_path_exists(fa->sysroot, rel))
		return 0;
	return fa->ext2_driver >= 0 ? fa->ext2_driver : 1;
}

/* Does the kernel have fs/ext2 (rather than ext4 serving "ext2")?  The
 * deprecation series lists it in /sys/fs/deprecated, a module shows in
 * /sys/module.  A built-in ext2 driver on a kernel without the series is
 * not visible cheaply (only in /proc/kallsyms, slow to read): use
 * --ext2-driver=ext2 there. */
int fsa_has_ext2_driver(struct fsaudit *fa)
{
	if (fa->has_ext2_driver < 0)
		fa->has_ext2_driver = fsa_path_exists(fa->sysroot, "/sys/fs/deprecated/ext2")
				   || fsa_path_exists(fa->sysroot, "/sys/module/ext2")
				   /* the kernel configuration, where readable, says
				    * whether fs/ext2 is built in */
				   || (kconfig_load(fa) && kconfig_set(fa, "EXT2_FS"));
	return fa->has_ext2_driver;
}
