// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - what one source holds: device and image arguments, the
 * partitions of an image file (IMAGE:pN), libblkid identification, then
 * the prober of the type; the result becomes one record.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <unistd.h>

#include <blkid.h>
#include <libmount.h>

#include "fsaudit.h"

/* 1 when the source (@dev, @ino, @part) was reported already (0 for no
 * device: nothing to compare) */
int fsa_seen(struct fsaudit *fa, dev_t dev, ino_t ino, int part)
{
	struct fsa_key *n;
	size_t i;

	if (!dev)
		return 0;
	for (i = 0; i < fa->nseen; i++)
		if (fa->seen[i].dev == dev && fa->seen[i].ino == ino && fa->seen[i].part == part)
			return 1;
	if (!(fa->nseen & (fa->nseen - 1)) || !fa->nseen) {
		n = realloc(fa->seen, (fa->nseen ? fa->nseen * 2 : 16) * sizeof(*n));
		if (!n)
			fsa_internal_error("device list", ENOMEM);
		fa->seen = n;
	}
	fa->seen[fa->nseen].dev = dev;
	fa->seen[fa->nseen].ino = ino;
	fa->seen[fa->nseen++].part = part;
	return 0;
}

/* -t LIST (findmnt -t): a comma-separated list of types, all prefixed with
 * "no" to exclude them; 1 when @fstype is selected */
int fsa_type_selected(const struct fsaudit *fa, const char *fstype)
{
	const char *p = fa->types;
	int neg, found = 0;
	size_t n;

	if (!p)
		return 1;
	neg = strncmp(p, "no", 2) == 0;
	while (*p) {
		n = strcspn(p, ",");
		if (neg && n > 2 && strncmp(p, "no", 2) == 0 && fstype && strlen(fstype) == n - 2
		    && strncmp(p + 2, fstype, n - 2) == 0)
			found = 1;
		else if (!neg && fstype && strlen(fstype) == n && strncmp(p, fstype, n) == 0)
			found = 1;
		p += n + (p[n] == ',');
	}
	return neg ? !found : found;
}

/* size of a regular file or block device */
static int fd_size(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, size) != 0)
			return -errno;
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	*size = (uint64_t) st.st_size;
	return 0;
}

static int is_regular(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

/* libblkid identification: 0 found (r->fstype set), 1 nothing (r->notes
 * set), -errno on error */
static int identify(struct result *r, blkid_probe pr)
{
	const char *v, *pttype = NULL;
	int rc;

	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL
					  | BLKID_SUBLKS_UUID | BLKID_SUBLKS_VERSION);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);

	rc = blkid_do_safeprobe(pr);
	if (rc == -1)
		return errno ? -errno : -EIO;
	if (rc == -2) {
		snprintf(r->notes, sizeof(r->notes),
			 "libblkid: more than one filesystem signature (ambivalent); wipe the stale one");
		return 1;
	}
	if (rc == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &v, NULL) == 0) {
			snprintf(r->fstype_buf, sizeof(r->fstype_buf), "%s", v);
			r->fstype = r->fstype_buf;
		}
		if (blkid_probe_lookup_value(pr, "LABEL", &v, NULL) == 0)
			r->label = strdup(v);
		if (blkid_probe_lookup_value(pr, "UUID", &v, NULL) == 0)
			r->uuid = strdup(v);
		if (blkid_probe_lookup_value(pr, "VERSION", &v, NULL) == 0)
			r->version = strdup(v);
		if (blkid_probe_lookup_value(pr, "PTTYPE", &v, NULL) == 0)
			pttype = v;
	}
	if (rc == 0 && r->fstype_buf[0])
		return 0;
	r->pttype = pttype != NULL;
	if (pttype)
		snprintf(r->notes, sizeof(r->notes),
			 "no filesystem: %s partition table; name a partition", pttype);
	else {
		snprintf(r->notes, sizeof(r->notes), "no filesystem signature found");
		r->nosig = 1;
	}
	return 1;
}

/* libblkid found nothing: try the probers for types it may not know
 * (e.g. gfs2 format 1802).  1 when one matches (r->fstype set). */
static int fallback(struct result *r, int fd, uint64_t offset, uint64_t size)
{
	struct fsa_env env = { 0 };
	struct fsa_info info;
	struct fsa_dev dev;
	size_t i;

	for (i = 0; fsa_probers[i]; i++) {
		const struct fsa_prober *pb = fsa_probers[i];
		int rc;

		if (!pb->fallback)
			continue;
		fsa_info_init(&info);
		fsa_dev_init_fd(&dev, fd, size);
		dev.offset = offset;
		rc = pb->probe(&dev, &env, &info);
		fsa_dev_reset(&dev);
		if (rc == 0) {
			snprintf(r->fstype_buf, sizeof(r->fstype_buf), "%s", pb->types[0]);
			r->fstype = r->fstype_buf;
			r->notes[0] = '\0';
			return 1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */

/* keep what probing @src found, for the outputs */
void fsa_add_record(struct fsaudit *fa, const struct source *src, const struct result *r)
{
	struct fsa_record *rec;

	if (!fsa_type_selected(fa, r->fstype)) {
		fa->naudited_filtered += !(r->error != 0 && !r->have_info);
		return;
	}
	if (fa->nrecs == fa->recs_alloc) {
		size_t n = fa->recs_alloc ? fa->recs_alloc * 2 : 64;
		struct fsa_record *nr = realloc(fa->recs, n * sizeof(*nr));

		if (!nr)
			fsa_internal_error("memory", ENOMEM);
		fa->recs = nr;
		fa->recs_alloc = n;
	}
	rec = &fa->recs[fa->nrecs++];
	memset(rec, 0, sizeof(*rec));
	rec->source = fsa_xstrdup(src->name);
	rec->target = fsa_xstrdup(src->target);
	rec->fstype = fsa_xstrdup(r->fstype);
	rec->label = fsa_xstrdup(r->label);
	rec->uuid = fsa_xstrdup(r->uuid);
	rec->version = fsa_xstrdup(r->version);
	rec->notes = fsa_xstrdup(r->notes);
	if (r->kernel_note[0])
		fsa_append(rec->notes, strlen(rec->notes) + 1, "%s", "");	/* unchanged */
	rec->remedy = fsa_remedy_steps(src, r, r->kernel == FSA_KERNEL_CANNOT ? r->kernel_note : NULL);
	rec->spec = src->spec ? fsa_xstrdup(src->spec) : NULL;
	rec->nofail = src->spec ? src->nofail : -1;
	rec->kernel = r->kernel;
	rec->info = r->info;
	rec->have_info = r->have_info;
	rec->verdict = r->verdict;
	rec->unreadable = r->error != 0 && !r->have_info;
	rec->kernel_can_mount = r->kernel_can_mount;
	if (r->verdict > VERDICT_OK)
		fa->nrisk++;
}

void fsa_free_records(struct fsaudit *fa)
{
	size_t i;

	for (i = 0; i < fa->nrecs; i++) {
		struct fsa_record *rec = &fa->recs[i];

		free(rec->source);
		free(rec->target);
		free(rec->fstype);
		free(rec->label);
		free(rec->uuid);
		free(rec->version);
		free(rec->notes);
		free(rec->remedy);
		free(rec->spec);
	}
	free(fa->recs);
	fa->recs = NULL;
	fa->nrecs = fa->recs_alloc = 0;
}

static int audit_partitions(struct fsaudit *fa, struct source *src, blkid_probe pr, int fd,
			    uint64_t size);

/* IMAGE:pN named a partition the table does not have */
static void ps_missing(struct fsaudit *fa, const char *name, int partno)
{
	struct source ps = { .name = name };
	char why[64];

	snprintf(why, sizeof(why), "no partition %d in the image's partition table", partno);
	fsa_add_unreadable(fa, &ps, ENOENT, why);
}

/* Probe one source and keep its record.  @quiet_nofs: skip sources
 * without a filesystem (--all). */
void fsa_audit_source(struct fsaudit *fa, struct source *src, int quiet_nofs)
{
	struct result r = { 0 };
	struct fsa_env env = { 0 };
	const struct fsa_prober *pb;
	struct fsa_dev dev;
	blkid_probe pr = NULL;
	uint64_t size = 0;
	int rc, fd = -1, root;

	fsa_info_init(&r.info);
	r.fstype = src->fstype;
	r.verdict = VERDICT_UNKNOWN;
	r.kernel_can_mount = -1;

	if (src->partition) {
		fd = src->part_fd;
		size = src->part_size;
		if (!size) {
			snprintf(r.notes, sizeof(r.notes), src->past_end
				 ? "partition starts past the end of the image"
				 : "empty partition (size 0)");
			goto out;
		}
		pr = blkid_new_probe();
		if (!pr || blkid_probe_set_device(pr, fd, (blkid_loff_t) src->part_off,
						  (blkid_loff_t) size) != 0) {
			r.error = errno ? errno : EIO;
			goto failed;
		}
		if (fa->force_type) {
			snprintf(r.fstype_buf, sizeof(r.fstype_buf), "%s", fa->force_type);
			r.fstype = r.fstype_buf;
		} else {
			rc = identify(&r, pr);
			if (rc < 0) {
				r.error = -rc;
				goto failed;
			}
			if (rc == 1 && !(r.nosig && fallback(&r, fd, src->part_off, size)))
				goto out;
		}
	} else if (fa->force_type) {
		/* -t: no identification, straight to the prober */
		fd = open(src->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0 || (rc = fd_size(fd, &size)) != 0) {
			r.error = fd < 0 ? errno : -rc;
			goto failed;
		}
		snprintf(r.fstype_buf, sizeof(r.fstype_buf), "%s", fa->force_type);
		r.fstype = r.fstype_buf;
	} else {
		pr = blkid_new_probe_from_filename(src->path);
		if (!pr) {
			r.error = errno ? errno : EIO;
			goto failed;
		}
		rc = identify(&r, pr);
		if (rc < 0) {
			r.error = -rc;
			goto failed;
		}
		fd = blkid_probe_get_fd(pr);
		size = (uint64_t) blkid_probe_get_size(pr);
		if (rc == 1 && r.pttype && !src->target && is_regular(fd)
		    && audit_partitions(fa, src, pr, fd, size) == 0)
			goto skip;	/* an image file with a partition table */
		if (src->only_part) {
			char name[PATH_MAX + 16];

			snprintf(name, sizeof(name), "%s:p%d", src->name, src->only_part);
			ps_missing(fa, name, src->only_part);
			goto skip;
		}
		if (rc == 1 && !(r.nosig && fallback(&r, fd, 0, size))) {
			if (quiet_nofs)
				goto skip;
			goto out;
		}
	}

	pb = fsa_prober_for_type(r.fstype);
	if (!pb) {
		snprintf(r.notes, sizeof(r.notes), "limits unknown");
		goto out;
	}

	env.fstype = src->fstype ? src->fstype : src->fstab_type;
	env.options = src->options;
	env.series = fa->series;
	if (src->fstype)
		env.ext2_driver = strcmp(src->fstype, "ext2") == 0 && fsa_mounted_ext2_driver(fa, src);
	else
		env.ext2_driver = fsa_has_ext2_driver(fa);

	fsa_dev_init_fd(&dev, fd, size);
	dev.offset = src->partition ? src->part_off : 0;
	rc = pb->probe(&dev, &env, &r.info);
	fsa_dev_reset(&dev);
	if (rc < 0) {
		r.error = -rc;
		goto failed;
	}
	if (rc == 1) {
		snprintf(r.notes, sizeof(r.notes), "%s superblock not confirmed: %s; limits unknown",
			 r.fstype, r.info.why);
	} else {
		r.have_info = 1;
		r.verdict = fsa_compute_verdict(&r.info, r.have_info);
		snprintf(r.notes, sizeof(r.notes), "%s%s%s", r.info.notes,
			 r.nosig && r.info.notes[0] ? "; " : "",
			 r.nosig ? "libblkid does not recognise it" : "");
		if (!r.info.has_limits && !r.info.no_times && !r.notes[0])
			snprintf(r.notes, sizeof(r.notes), "limits unknown");
	}
	goto out;

failed:
	/* a mounted filesystem the user may not read: what the kernel tells
	 * everyone (XFS_IOC_FSGEOMETRY), or the type where the superblock is
	 * not needed; else it needs root */
	if (src->fstype && (r.error == EACCES || r.error == EPERM)) {
		if (fsa_xfs_geometry(src->target, &r.info) == 0) {
			r.have_info = 1;
			r.fstype = src->fstype;
			r.verdict = fsa_compute_verdict(&r.info, r.have_info);
			snprintf(r.notes, sizeof(r.notes), "cannot read %s (%s): from XFS_IOC_FSGEOMETRY on %s",
				 src->name, strerror(r.error), src->target);
			goto out;
		}
		if (fsa_limits_by_type(src->fstype, src->options, &r.info) == 0) {
			r.have_info = 1;
			r.verdict = fsa_compute_verdict(&r.info, r.have_info);
			snprintf(r.notes, sizeof(r.notes), "cannot read %s (%s): limits from the mounted type %s",
				 src->name, strerror(r.error), src->fstype);
			goto out;
		}
	}
	if (fa->unreadable_unknown)
		fa->nunreadable++;
	else
		fa->nerrors++;
	root = (r.error == EACCES || r.error == EPERM) && geteuid() != 0;
	snprintf(r.notes, sizeof(r.notes), "%scannot read %s: %s", root ? "needs root: " : "",
		 src->name, strerror(r.error));
	fprintf(stderr, "%s: %s: %s%s\n", program_invocation_short_name, src->name,
		strerror(r.error), root ? " (needs root)" : "");
out:
	if (src->past_end && src->part_size)
		fsa_append(r.notes, sizeof(r.notes), "%spartition extends past the end of the image (cut to it)",
			   r.notes[0] ? "; " : "");
	fsa_kernel_outcome(fa, src, &r);
	if (r.kernel_note[0])
		fsa_append(r.notes, sizeof(r.notes), "%s%s", r.notes[0] ? "; " : "", r.kernel_note);
	if (src->spec && !src->nofail && (r.kernel == FSA_KERNEL_REFUSED || r.kernel == FSA_KERNEL_CANNOT))
		fsa_append(r.notes, sizeof(r.notes), "%swithout nofail in /etc/fstab the boot stops in emergency mode",
			   r.notes[0] ? "; " : "");
	fsa_add_record(fa, src, &r);
skip:
	if (pr)
		blkid_free_probe(pr);	/* closes only what it opened itself */
	else if (fd >= 0 && !src->partition)
		close(fd);
	free((void *) r.label);
	free((void *) r.uuid);
	free((void *) r.version);
}

/* every partition of an image file, as IMAGE:pN; -1 when the table has
 * none (the image is then reported as a whole) */
static int audit_partitions(struct fsaudit *fa, struct source *src, blkid_probe pr, int fd,
			    uint64_t size)
{
	blkid_partlist ls = blkid_probe_get_partitions(pr);
	int i, n = ls ? blkid_partlist_numof_partitions(ls) : -1, found = 0;
	char name[PATH_MAX + 16];
	struct stat st;

	if (n <= 0)
		return -1;
	if (fstat(fd, &st) != 0)
		st.st_dev = 0;
	for (i = 0; i < n; i++) {
		blkid_partition par = blkid_partlist_get_partition(ls, i);
		struct source ps = { 0 };
		int64_t start, len;

		if (!par || blkid_partition_is_extended(par))
			continue;
		if (src->only_part && blkid_partition_get_partno(par) != src->only_part)
			continue;
		if (!src->only_part && fsa_seen(fa, st.st_dev, st.st_ino, blkid_partition_get_partno(par)))
			continue;
		found = 1;
		start = blkid_partition_get_start(par);
		len = blkid_partition_get_size(par);
		ps.partition = 1;
		ps.part_fd = fd;
		ps.partno = blkid_partition_get_partno(par);
		ps.image = src->name;
		snprintf(name, sizeof(name), "%s:p%d", src->name, ps.partno);
		ps.name = name;
		snprintf(ps.path, sizeof(ps.path), "%s", src->path);
		if (start < 0 || len < 0 || (uint64_t) start >= size / 512) {
			ps.part_off = 0;
			ps.part_size = 0;
			ps.past_end = start >= 0 && len > 0;
		} else {
			ps.part_off = (uint64_t) start * 512;
			ps.part_size = (uint64_t) len * 512;
			if ((uint64_t) len > size / 512 - (uint64_t) start) {
				ps.part_size = size - ps.part_off;
				ps.past_end = 1;
			}
		}
		fsa_audit_source(fa, &ps, 0);
	}
	if (src->only_part && !found) {
		snprintf(name, sizeof(name), "%s:p%d", src->name, src->only_part);
		ps_missing(fa, name, src->only_part);
	}
	return 0;
}

/* a source that cannot be audited at all: an error (exit 2) or, with
 * --unreadable-unknown, verdict unknown; the message on stderr */
void fsa_add_unreadable(struct fsaudit *fa, const struct source *src, int err, const char *why)
{
	struct result r = { 0 };

	fsa_info_init(&r.info);
	r.kernel_can_mount = -1;
	r.error = err;
	if (fa->unreadable_unknown)
		fa->nunreadable++;
	else
		fa->nerrors++;
	snprintf(r.notes, sizeof(r.notes), "%s", why);
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, src->name, why);
	fsa_add_record(fa, src, &r);
}

/* "IMAGE:pN", as SOURCE names a partition of an image file: 0 and @image,
 * @partno when @arg has that form and IMAGE is a regular file */
static int parse_partition(const char *arg, char *image, size_t imagesz, int *partno)
{
	const char *c = strrchr(arg, ':');
	struct stat st;
	char *end;
	long n;

	if (!c || c[1] != 'p' || !isdigit((unsigned char) c[2]) || (size_t) (c - arg) >= imagesz)
		return -1;
	n = strtol(c + 2, &end, 10);
	if (*end || n < 1 || n > 65535)
		return -1;
	memcpy(image, arg, (size_t) (c - arg));
	image[c - arg] = '\0';
	if (stat(image, &st) != 0 || !S_ISREG(st.st_mode))
		return -1;
	*partno = (int) n;
	return 0;
}

/* a command-line argument: a block device, an image file (or IMAGE:pN), or
 * a directory (the filesystem it is on); each source once, however named */
void fsa_audit_argument(struct fsaudit *fa, const char *arg)
{
	struct source src = { 0 };
	char image[PATH_MAX];
	struct stat st;
	int rc;

	src.name = arg;
	rc = stat(arg, &st);
	if (rc != 0 && errno == ENOENT
	    && parse_partition(arg, image, sizeof(image), &src.only_part) == 0) {
		src.name = image;
		rc = stat(image, &st);
	}
	snprintf(src.path, sizeof(src.path), "%s", src.name);
	if (rc != 0) {
		fsa_add_unreadable(fa, &src, errno, strerror(errno));
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		/* a directory or mount point: the filesystem it is on */
		fsa_audit_directory(fa, arg);
		return;
	}
	if (S_ISBLK(st.st_mode)) {
		/* a mounted block device: report how it is mounted */
		struct libmnt_fs *fs = mnt_table_find_devno(fsa_mount_table(fa), st.st_rdev,
							    MNT_ITER_FORWARD);
		if (fsa_seen(fa, st.st_rdev, 0, 0))
			return;
		src.devno = st.st_rdev;
		if (fs) {
			src.target = mnt_fs_get_target(fs);
			src.fstype = mnt_fs_get_fstype(fs);
			src.options = mnt_fs_get_fs_options(fs);
		}
	} else if (S_ISREG(st.st_mode)) {
		if (fsa_seen(fa, st.st_dev, st.st_ino, src.only_part))
			return;
	} else {
		src.name = arg;
		fsa_add_unreadable(fa, &src, ENOTBLK, "not a block device, image file or directory");
		return;
	}
	fsa_audit_source(fa, &src, 0);
}
