// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - /etc/fstab before a boot (--fstab): each entry resolved as
 * mount(8) would (UUID=, LABEL=, PARTUUID=, PARTLABEL= with libblkid,
 * device paths, loop images), audited, and what the kernel's policies will
 * do to its mount; whether it has nofail (without it, a refused mount stops
 * the boot in systemd's emergency mode).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <blkid.h>
#include <libmount.h>

#include "fsaudit.h"

static int fstab_errcb(struct libmnt_table *tb __attribute__((unused)),
		       const char *filename, int line)
{
	fprintf(stderr, "%s: %s: parse error at line %d -- ignored\n",
		program_invocation_short_name, filename, line);
	return 1;
}

/* the device an entry names, "/dev/..." or a file, relative to the sysroot;
 * 0, or -1 when nothing has its tag */
static int resolve(struct fsaudit *fa, struct libmnt_fs *fs, char *buf, size_t bufsz)
{
	const char *name, *value;

	if (mnt_fs_get_tag(fs, &name, &value) == 0) {
		if (!*fa->sysroot) {
			char *dev = blkid_evaluate_tag(name, value, NULL);

			if (!dev)
				return -1;
			snprintf(buf, bufsz, "%s", dev);
			free(dev);
			return 0;
		}
		return fsa_find_tag(fa, name, value, buf, bufsz);
	}
	snprintf(buf, bufsz, "%s", mnt_fs_get_srcpath(fs) ? mnt_fs_get_srcpath(fs) : "");
	return buf[0] == '/' ? 0 : -1;
}

/* the mount table, when there is one to read (a fixture may have none) */
static struct libmnt_table *mounted(struct fsaudit *fa)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", fa->sysroot);
	if (!fa->mountinfo && access(path, R_OK) != 0)
		return NULL;
	return fsa_mount_table(fa);
}

/* 0, or -1 when @file cannot be read (the message is printed) */
int fsa_audit_fstab(struct fsaudit *fa, const char *file)
{
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_table *mt;
	struct libmnt_fs *fs;
	FILE *f;
	int rc;

	if (!tb || !itr)
		fsa_internal_error("fstab", ENOMEM);
	f = fopen(file, "re");
	if (!f) {
		fprintf(stderr, "%s: cannot read %s: %s\n", program_invocation_short_name, file,
			strerror(errno));
		mnt_unref_table(tb);
		mnt_free_iter(itr);
		return -1;
	}
	mnt_table_set_parser_errcb(tb, fstab_errcb);
	rc = mnt_table_parse_stream(tb, f, file);
	fclose(f);
	if (rc) {
		fprintf(stderr, "%s: cannot parse %s\n", program_invocation_short_name, file);
		mnt_unref_table(tb);
		mnt_free_iter(itr);
		return -1;
	}
	mt = mounted(fa);
	while (mnt_table_next_fs(tb, itr, &fs) == 0) {
		struct source src = { 0 };
		char dev[PATH_MAX];
		struct stat st;
		const char *type = mnt_fs_get_fstype(fs);

		if (mnt_fs_is_swaparea(fs) || mnt_fs_is_pseudofs(fs) || mnt_fs_is_netfs(fs)
		    || mnt_fs_get_option(fs, "bind", NULL, NULL) == 0
		    || mnt_fs_get_option(fs, "rbind", NULL, NULL) == 0)
			continue;
		src.spec = mnt_fs_get_source(fs) ? mnt_fs_get_source(fs) : "";
		src.nofail = mnt_fs_get_option(fs, "nofail", NULL, NULL) == 0;
		src.target = mnt_fs_get_target(fs);
		src.fstab_type = type && strcmp(type, "auto") != 0 ? type : NULL;
		if (resolve(fa, fs, dev, sizeof(dev)) != 0) {
			char why[PATH_MAX + 100];

			src.name = src.spec;
			snprintf(why, sizeof(why), "no device has %s%s", src.spec,
				 src.nofail ? "" : "; without nofail the boot stops in emergency mode");
			fsa_add_unreadable(fa, &src, ENOENT, why);
			continue;
		}
		src.name = dev;
		snprintf(src.path, sizeof(src.path), "%s%s", fa->sysroot, dev);
		if (stat(src.path, &st) == 0) {
			int blk = S_ISBLK(st.st_mode);

			if (fsa_seen(fa, blk ? st.st_rdev : st.st_dev, blk ? 0 : st.st_ino, 0))
				continue;
			src.devno = blk ? st.st_rdev : 0;
			if (blk && mt) {
				struct libmnt_fs *m = mnt_table_find_devno(mt, st.st_rdev, MNT_ITER_FORWARD);

				if (m) {	/* mounted now: as it is mounted */
					src.target = mnt_fs_get_target(m);
					src.fstype = mnt_fs_get_fstype(m);
					src.options = mnt_fs_get_fs_options(m);
				}
			}
		}
		fsa_audit_source(fa, &src, 0);
	}
	mnt_free_iter(itr);
	mnt_unref_table(tb);
	return 0;
}
