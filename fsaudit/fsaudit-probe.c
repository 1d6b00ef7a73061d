// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - what one source holds: device and image arguments, the
 * partitions of an image file (IMAGE:pN), libblkid identification, then
 * the prober of the type; the result becomes one record.
 */
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

/* 1 when the device @devno was reported already (0 for no device) */
int fsa_seen(struct fsaudit *fa, dev_t devno)
{
	size_t i;
	dev_t *n;

	if (!devno)
		return 0;
	for (i = 0; i < fa->nseen; i++)
		if (fa->seen[i] == devno)
			return 1;
	n = realloc(fa->seen, (fa->nseen + 1) * sizeof(*n));
	if (!n)
		fsa_internal_error("device list", ENOMEM);
	fa->seen = n;
	fa->seen[fa->nseen++] = devno;
	return 0;
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
	rec->removal_note = fsa_xstrdup(r->removal_note);
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
		free(rec->removal_note);
	}
	free(fa->recs);
	fa->recs = NULL;
	fa->nrecs = fa->recs_alloc = 0;
}

static int audit_partitions(struct fsaudit *fa, struct source *src, blkid_probe pr, int fd,
			    uint64_t size);

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
	int rc, fd = -1;
	char qname[700];

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

	fsa_remedy_name(src, qname, sizeof(qname));
	env.source = qname;
	env.fstype = src->fstype;
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
		const char *sym = NULL;

		r.have_info = 1;
		r.verdict = fsa_compute_verdict(&r.info, r.have_info);
		snprintf(r.notes, sizeof(r.notes), "%s%s%s", r.info.notes,
			 r.nosig && r.info.notes[0] ? "; " : "",
			 r.nosig ? "libblkid does not recognise it" : "");
		if (!r.info.has_limits && !r.info.no_times && !r.notes[0])
			snprintf(r.notes, sizeof(r.notes), "limits unknown");
		/* not mounted: can the running kernel mount it at all? */
		if (!src->fstype)
			r.kernel_can_mount = fsa_kernel_can_mount(fa, r.fstype, r.info.items, &sym);
		if (r.kernel_can_mount == 0) {
			char rem[sizeof(r.info.remedy)];

			r.verdict = VERDICT_NOMOUNT;
			snprintf(r.removal_note, sizeof(r.removal_note), "this kernel cannot mount it");
			fsa_append(r.notes, sizeof(r.notes), "%sthis kernel cannot mount it: CONFIG_%s is not set",
				   r.notes[0] ? "; " : "", sym);
			snprintf(rem, sizeof(rem), "%s", r.info.remedy);
			snprintf(r.info.remedy, sizeof(r.info.remedy),
				 "to reach the data, boot a kernel with CONFIG_%s=y or =m", sym);
			if (rem[0])
				fsa_append(r.info.remedy, sizeof(r.info.remedy), "; %s", rem);
		}
	}
	goto out;

failed:
	/* a mounted filesystem the user may not read: some types need no
	 * superblock to be assessed */
	if (src->fstype && (r.error == EACCES || r.error == EPERM)
	    && fsa_limits_by_type(src->fstype, src->options, &r.info) == 0) {
		r.have_info = 1;
		r.verdict = fsa_compute_verdict(&r.info, r.have_info);
		snprintf(r.notes, sizeof(r.notes), "cannot read %s (%s): limits from the mounted type %s",
			 src->name, strerror(r.error), src->fstype);
		goto out;
	}
	if (fa->unreadable_unknown)
		fa->nunreadable++;
	else
		fa->nerrors++;
	snprintf(r.notes, sizeof(r.notes), "cannot read %s: %s", src->name, strerror(r.error));
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, src->name,
		strerror(r.error));
out:
	if (src->past_end && src->part_size)
		fsa_append(r.notes, sizeof(r.notes), "%spartition extends past the end of the image (cut to it)",
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
	int i, n = ls ? blkid_partlist_numof_partitions(ls) : -1;
	char name[PATH_MAX + 16];

	if (n <= 0)
		return -1;
	for (i = 0; i < n; i++) {
		blkid_partition par = blkid_partlist_get_partition(ls, i);
		struct source ps = { 0 };
		int64_t start, len;

		if (!par || blkid_partition_is_extended(par))
			continue;
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
	return 0;
}

void fsa_audit_argument(struct fsaudit *fa, const char *arg)
{
	struct source src = { 0 };
	struct stat st;

	src.name = arg;
	snprintf(src.path, sizeof(src.path), "%s", arg);
	/* a directory or mount point: the filesystem it is on */
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		fsa_audit_directory(fa, arg);
		return;
	}
	/* a mounted block device: report how it is mounted */
	if (stat(arg, &st) == 0 && S_ISBLK(st.st_mode)) {
		struct libmnt_fs *fs = mnt_table_find_devno(fsa_mount_table(fa), st.st_rdev,
							    MNT_ITER_FORWARD);
		src.devno = st.st_rdev;
		if (fs) {
			src.target = mnt_fs_get_target(fs);
			src.fstype = mnt_fs_get_fstype(fs);
			src.options = mnt_fs_get_fs_options(fs);
		}
	}
	fsa_audit_source(fa, &src, 0);
}
