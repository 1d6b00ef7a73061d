// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - the mount table (libmount): every mounted filesystem, and the
 * filesystem a directory argument is on (as findmnt -T).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libmount.h>

#include "fsaudit.h"

static struct fsaudit *parser_fa;

static int parser_errcb(struct libmnt_table *tb __attribute__((unused)),
			const char *filename, int line)
{
	fprintf(stderr, "%s: %s: parse error at line %d -- ignored\n",
		program_invocation_short_name, filename, line);
	if (parser_fa)
		parser_fa->nerrors++;
	return 1;
}

struct libmnt_table *fsa_mount_table(struct fsaudit *fa)
{
	char path[PATH_MAX];
	const char *file = fa->mountinfo;
	int rc;

	if (fa->mnt)
		return fa->mnt;
	if (!file) {
		snprintf(path, sizeof(path), "%s/proc/self/mountinfo", fa->sysroot);
		file = path;
	}
	fa->mnt = mnt_new_table();
	if (!fa->mnt)
		fsa_internal_error("mount table", ENOMEM);
	parser_fa = fa;
	mnt_table_set_parser_errcb(fa->mnt, parser_errcb);
	rc = access(file, R_OK) == 0 ? mnt_table_parse_file(fa->mnt, file) : -errno;
	if (rc) {
		/* an input file, not an internal error: as an unreadable source */
		fprintf(stderr, "%s: cannot read %s: %s\n", program_invocation_short_name, file,
			strerror(rc < 0 ? -rc : rc));
		exit(FSA_EXIT_ERROR);
	}
	return fa->mnt;
}


/* a mount table's source @dev: audit the node under the sysroot or, when it
 * does not exist (/dev/root and friends), the one found by its number */
void fsa_audit_mount_source(struct fsaudit *fa, struct source *src, const char *dev)
{
	struct stat st;

	src->name = dev;
	snprintf(src->path, sizeof(src->path), "%s%s", fa->sysroot, dev);
	if (stat(src->path, &st) != 0 && src->devno) {
		char kname[NAME_MAX + 1];

		if (fsa_devno_kname(fa, src->devno, kname, sizeof(kname)) == 0)
			snprintf(src->path, sizeof(src->path), "%s/dev/%s", fa->sysroot, kname);
	}
	fsa_audit_source(fa, src, 0);
}

/* every mounted filesystem with a block device (or file) behind it */
void fsa_audit_mounted(struct fsaudit *fa)
{
	struct libmnt_table *tb = fsa_mount_table(fa);
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;

	if (!itr)
		fsa_internal_error("mount table", ENOMEM);
	while (mnt_table_next_fs(tb, itr, &fs) == 0) {
		struct source src = { 0 };
		const char *dev = mnt_fs_get_srcpath(fs);

		if (mnt_fs_is_pseudofs(fs) || mnt_fs_is_netfs(fs) || !dev || *dev != '/')
			continue;
		src.devno = mnt_fs_get_devno(fs);
		/* bind mounts and btrfs subvolumes: report the device once */
		if (fsa_seen(fa, src.devno, 0, 0))
			continue;
		src.target = mnt_fs_get_target(fs);
		src.fstype = mnt_fs_get_fstype(fs);
		src.options = mnt_fs_get_fs_options(fs);
		fsa_audit_mount_source(fa, &src, dev);
	}
	mnt_free_iter(itr);
}

/* the mount table entry a directory is on (as findmnt -T): the longest
 * mountpoint that is a prefix of its canonical path, the last mounted */
static struct libmnt_fs *fs_of_directory(struct fsaudit *fa, const char *dir)
{
	struct libmnt_table *tb = fsa_mount_table(fa);
	char *path = realpath(dir, NULL);
	struct libmnt_fs *fs = NULL;

	if (!path)
		return NULL;
	for (;;) {
		struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_BACKWARD);
		struct libmnt_fs *f;
		char *slash;

		if (!itr)
			fsa_internal_error("mount table", ENOMEM);
		while (mnt_table_next_fs(tb, itr, &f) == 0) {
			const char *t = mnt_fs_get_target(f);

			if (t && strcmp(t, path) == 0) {
				fs = f;
				break;
			}
		}
		mnt_free_iter(itr);
		if (fs || strcmp(path, "/") == 0)
			break;
		slash = strrchr(path, '/');
		if (!slash)
			break;
		if (slash == path)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	free(path);
	return fs;
}

/* a directory argument: the filesystem it is on */
void fsa_audit_directory(struct fsaudit *fa, const char *arg)
{
	struct libmnt_fs *fs = fs_of_directory(fa, arg);
	struct source src = { 0 };
	const char *dev;

	if (!fs) {
		src.name = arg;
		fsa_add_unreadable(fa, &src, ENOENT, "not in the mount table: no mounted filesystem holds it");
		return;
	}
	dev = mnt_fs_get_srcpath(fs);
	src.target = mnt_fs_get_target(fs);
	src.fstype = mnt_fs_get_fstype(fs);
	src.options = mnt_fs_get_fs_options(fs);
	src.devno = mnt_fs_get_devno(fs);
	if (fsa_seen(fa, src.devno, 0, 0))
		return;
	if (!dev || *dev != '/' || mnt_fs_is_pseudofs(fs) || mnt_fs_is_netfs(fs)) {
		/* tmpfs, nfs, ...: no device to read, judge by type */
		struct result r = { 0 };

		fsa_info_init(&r.info);
		r.kernel_can_mount = -1;
		r.fstype = src.fstype;
		src.name = mnt_fs_get_source(fs) ? mnt_fs_get_source(fs) : "none";
		if (src.fstype && fsa_limits_by_type(src.fstype, src.options, &r.info) == 0) {
			r.have_info = 1;
			r.verdict = fsa_compute_verdict(&r.info, r.have_info);
			snprintf(r.notes, sizeof(r.notes), "no block device: limits from the type %s", src.fstype);
		} else {
			snprintf(r.notes, sizeof(r.notes), "no block device behind it; limits unknown");
		}
		fsa_kernel_outcome(fa, &src, &r);
		fsa_add_record(fa, &src, &r);
		return;
	}
	fsa_audit_mount_source(fa, &src, dev);
}

/* What the kernel tells every user about a mounted XFS, as xfs_info does:
 * XFS_IOC_FSGEOMETRY_V1 on any file of it (include/uapi xfs_fs.h) */
struct xfs_fsop_geom_v1 {
	uint32_t blocksize, rtextsize, agblocks, agcount, logblocks, sectsize;
	uint32_t inodesize, imaxpct;
	uint64_t datablocks, rtblocks, rtextents, logstart;
	unsigned char uuid[16];
	uint32_t sunit, swidth;
	int32_t version;
	uint32_t flags, logsectsize, rtsectsize, dirblocksize;
};
#define XFS_IOC_FSGEOMETRY_V1		_IOR('X', 100, struct xfs_fsop_geom_v1)
#define XFS_FSOP_GEOM_FLAGS_DIRV2CI	(1U << 12)
#define XFS_FSOP_GEOM_FLAGS_V5SB	(1U << 15)
#define XFS_FSOP_GEOM_FLAGS_BIGTIME	(1U << 21)

/* 0 and @info filled as the XFS prober would, -1 when @target is not a
 * mounted XFS or the ioctl fails */
int fsa_xfs_geometry(const char *target, struct fsa_info *info)
{
	struct xfs_fsop_geom_v1 g;
	int fd, rc;

	if (!target || !*target)
		return -1;
	fd = open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	rc = ioctl(fd, XFS_IOC_FSGEOMETRY_V1, &g);
	close(fd);
	if (rc != 0)
		return -1;
	fsa_info_init(info);
	fsa_xfs_format(info, !!(g.flags & XFS_FSOP_GEOM_FLAGS_V5SB), !!(g.flags & XFS_FSOP_GEOM_FLAGS_BIGTIME),
		       !!(g.flags & XFS_FSOP_GEOM_FLAGS_DIRV2CI), g.inodesize, g.agcount);
	return 0;
}
