/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: 2026 The fsdeprecate authors */
/*
 * fsaudit - declarations shared by its parts, split as util-linux splits
 * lsblk:
 *
 *   fsaudit.c            options, the run, exit status
 *   fsaudit-mnt.c        the mount table (libmount): mounted filesystems,
 *                        directory arguments
 *   fsaudit-devtree.c    block devices of <sysroot>/sys/block (--all)
 *   fsaudit-fstab.c      /etc/fstab entries (--fstab), resolved with libblkid
 *   fsaudit-probe.c      arguments, images and partitions, libblkid
 *                        identification, the probers; one record per source
 *   fsaudit-verdict.c    the verdict, the deprecation items that apply, what
 *                        the kernel will do: its configuration, ext2 driver
 *                        and mount policies (or a --policy preview)
 *   fsaudit-remedy.c     remedies: runnable steps, names quoted for a shell
 *   fsaudit-output.c     columns, table/JSON/raw/pairs (libsmartcols), the
 *                        layout for a width, summary
 *   fsaudit-prometheus.c the Prometheus text format
 *   fsaudit-udev.c       udev properties (--udev)
 *   deprecated.c         /sys/fs/deprecated and the built-in 6.12 table
 */
#ifndef FSAUDIT_H
#define FSAUDIT_H

#include <limits.h>
#include <stdio.h>
#include <sys/types.h>

#include "probers/prober.h"

struct libmnt_table;

#ifndef FSAUDIT_VERSION
# define FSAUDIT_VERSION "0.1"
#endif

#ifndef N_
# define N_(s) (s)
#endif

/* exit status, documented in fsaudit.8 */
#define FSA_EXIT_OK		0	/* nothing at risk */
#define FSA_EXIT_AT_RISK	1	/* at least one filesystem at risk */
#define FSA_EXIT_ERROR		2	/* a source could not be read or probed */
#define FSA_EXIT_USAGE		3	/* bad option or argument */
#define FSA_EXIT_INTERNAL	4	/* out of memory, output error */

/* in increasing order of severity */
enum {
	VERDICT_UNKNOWN = 0,
	VERDICT_OK,
	VERDICT_2038,
	VERDICT_DEPRECATED,
	VERDICT_REMOVED,
};
#define VERDICT_MAX	VERDICT_REMOVED

/* what the kernel will do with the next mount (KERNEL column) */
enum {
	FSA_KERNEL_UNKNOWN = 0,	/* nothing known about the kernel */
	FSA_KERNEL_MOUNTS,	/* mounts it (no policy applies, or allow) */
	FSA_KERNEL_WARNS,	/* mounts it with the warning (warn) */
	FSA_KERNEL_RO,		/* read-only mounts only (ro) */
	FSA_KERNEL_REFUSED,	/* refuses it (deny) */
	FSA_KERNEL_CANNOT,	/* its configuration cannot mount it */
};
extern const char *const fsa_kernel_names[];

/* policy modes, from the most permissive (the kernel's order) */
enum { FSA_POL_DEFAULT = -1, FSA_POL_ALLOW = 0, FSA_POL_WARN, FSA_POL_RO, FSA_POL_DENY };
extern const char *const fsa_policy_names[];

struct fsa_item {
	const char *name;
	int verdict;
	char since[32];
	char removal[32];
	char reason[256];
	char replacement[256];
	char policy[32];
	long active;
	int from_sysfs;
};

extern struct fsa_item fsa_items[FSA_NITEMS];
extern const char *const fsa_verdict_names[];

int fsa_items_load(const char *sysroot);
int fsa_path_exists(const char *sysroot, const char *rel);

/* one audited source: every fact the outputs print (fsaudit-probe.c) */
struct fsa_record {
	char *source, *target, *fstype, *label, *uuid, *version;
	char *notes;
	char *remedy;		/* lines of a shell script, "" when nothing to do */
	char *spec;		/* --fstab: the entry's source as written */
	int nofail;		/* --fstab: the entry has nofail (-1: not fstab) */
	struct fsa_info info;
	int have_info;		/* info filled by a prober */
	int verdict;
	int unreadable;		/* could not be read */
	int kernel;		/* FSA_KERNEL_* */
	int kernel_can_mount;	/* 1 yes, 0 no, -1 unknown */
	size_t seq;		/* --sort: the audit order */
};

/* the run */
struct fsaudit {
	struct libmnt_table *mnt;	/* mount table, loaded on demand */
	const char *mountinfo;		/* --mountinfo FILE */
	const char *sysroot;		/* --sysroot DIR, "" for / */
	int ext2_driver;		/* -1 auto, 0 ext4 serves ext2, 1 ext2 */
	int has_ext2_driver;		/* resolved auto value */
	int series;			/* /sys/fs/deprecated exists */
	int at_risk_only;
	const char *force_type;		/* --force-type TYPE */
	const char *types;		/* -t LIST: only these types (findmnt -t) */
	int nrisk, nerrors;
	int nunreadable;		/* sources counted as unknown (--unreadable-unknown) */
	int unreadable_unknown;		/* --unreadable-unknown */
	int udev;			/* --udev */
	size_t naudited_filtered;	/* audited, left out by -t */
	struct fsa_key *seen;		/* sources already reported */
	size_t nseen;
	/* the mount policies (patches 14-15 of the series), or a preview */
	int pol_known;			/* a kernel with the series, or --policy */
	int pol_deprecated, pol_y2038;	/* fs.deprecated_policy, fs.y2038_policy */
	int pol_item[FSA_NITEMS];	/* /sys/fs/deprecated/ITEM/policy */
	struct fsa_record *recs;	/* every audited source */
	size_t nrecs, recs_alloc;
	const char *kconfig_file;	/* --kernel-config FILE */
	char *kconfig;			/* its text, NULL when unreadable */
	int kconfig_loaded;
};

/* a source seen already: device (st_rdev, ino 0) or file (st_dev, st_ino),
 * and for a partition of an image its number */
struct fsa_key {
	dev_t dev;
	ino_t ino;
	int part;
};

/* one source to audit */
struct source {
	const char *name;	/* as shown in SOURCE */
	char path[PATH_MAX];	/* what is opened */
	const char *target;	/* mountpoint or NULL */
	const char *fstype;	/* mounted as, or NULL */
	const char *options;	/* fs-specific mount options */
	dev_t devno;
	int partition;		/* a partition of an image file: */
	int part_fd;		/*   the image, open */
	uint64_t part_off, part_size;	/*   bytes */
	int partno;
	const char *image;	/*   the image's name */
	int past_end;		/*   it extended past the end of the image */
	int only_part;		/* IMAGE:pN given: that partition only */
	const char *spec;	/* --fstab: the entry's source */
	const char *fstab_type;	/* --fstab: the type it will be mounted as */
	int nofail;		/* --fstab: nofail (-1 not fstab) */
};

/* what probing one source found, before it becomes a record */
struct result {
	const char *fstype, *label, *uuid, *version;
	char fstype_buf[64];
	struct fsa_info info;
	int have_info;		/* info filled by a prober */
	int verdict;
	char notes[PATH_MAX + 600];
	int error;		/* errno when the source could not be read */
	int nosig;		/* libblkid found no signature at all */
	int pttype;		/* libblkid found a partition table */
	int kernel_can_mount;	/* 1, 0 (kernel config says no), -1 unknown */
	int kernel;		/* FSA_KERNEL_* */
	char kernel_note[300];	/* why, for the remedy and NOTES */
};

/* fsaudit.c */
void __attribute__((__noreturn__, format(printf, 1, 2))) fsa_bad_usage(const char *fmt, ...);
void __attribute__((__noreturn__)) fsa_internal_error(const char *what, int rc);
char *fsa_xstrdup(const char *s);

/* fsaudit-mnt.c */
struct libmnt_table *fsa_mount_table(struct fsaudit *fa);
void fsa_audit_mounted(struct fsaudit *fa);
void fsa_audit_mount_source(struct fsaudit *fa, struct source *src, const char *dev);
void fsa_audit_directory(struct fsaudit *fa, const char *arg);
int fsa_xfs_geometry(const char *target, struct fsa_info *info);

/* fsaudit-devtree.c */
int fsa_devno_kname(struct fsaudit *fa, dev_t devno, char *buf, size_t bufsz);
void fsa_audit_all_blockdevs(struct fsaudit *fa);
int fsa_find_tag(struct fsaudit *fa, const char *name, const char *value, char *buf, size_t bufsz);

/* fsaudit-fstab.c */
int fsa_audit_fstab(struct fsaudit *fa, const char *file);

/* fsaudit-probe.c */
int fsa_seen(struct fsaudit *fa, dev_t dev, ino_t ino, int part);
int fsa_type_selected(const struct fsaudit *fa, const char *fstype);
void fsa_audit_source(struct fsaudit *fa, struct source *src, int quiet_nofs);
void fsa_audit_argument(struct fsaudit *fa, const char *arg);
void fsa_add_record(struct fsaudit *fa, const struct source *src, const struct result *r);
void fsa_add_unreadable(struct fsaudit *fa, const struct source *src, int err, const char *why);
void fsa_free_records(struct fsaudit *fa);

/* fsaudit-verdict.c */
int fsa_compute_verdict(const struct fsa_info *in, int have_info);
void fsa_kernel_outcome(struct fsaudit *fa, const struct source *src, struct result *r);
int fsa_kconfig_require(struct fsaudit *fa);
void fsa_policy_load(struct fsaudit *fa);
int fsa_policy_preview(struct fsaudit *fa, const char *list);
/* the columns that come from the deprecation items that apply */
struct fsa_item_strings {
	char deps[128];		/* DEPRECATED: item names, comma-separated */
	char since[32];		/* SINCE: the earliest */
	char removal[32];	/* REMOVAL: the earliest */
	char reason[600];	/* REASON */
	char repl[600];		/* REPLACEMENT */
	char policy[80];	/* POLICY (from /sys/fs/deprecated) */
};
void fsa_item_strings(const struct fsa_record *rec, struct fsa_item_strings *s);
int fsa_mounted_ext2_driver(struct fsaudit *fa, const struct source *src);
int fsa_has_ext2_driver(struct fsaudit *fa);

/* fsaudit-remedy.c */
int fsa_shell_quote(const char *s, char *buf, size_t bufsz);
char *fsa_remedy_steps(const struct source *src, const struct result *r, const char *kernel_note);

/* fsaudit-output.c */
enum { FSA_TIME_ISO = 0, FSA_TIME_FULL, FSA_TIME_DATE };
struct fsa_outopts {
	int json, raw, pairs, noheadings, notruncate, quiet, prometheus;
	int summary;		/* -1 auto (at a terminal), 0 never, 1 always */
	unsigned long width;	/* -w, else the terminal's, 0: not a terminal */
	int time_format;	/* --time-format */
	int sort;		/* --sort column, -1 none */
	int columns_given;	/* -o LIST (not +LIST): print exactly those */
};

size_t fsa_ncolumns_all(void);
const char *fsa_column_name(size_t id);
const char *fsa_column_help(size_t id);
void fsa_set_default_columns(void);
void fsa_parse_columns(const char *list);
int fsa_column_id(const char *name);
void fsa_fstab_columns(void);
void fsa_list_columns(int json);
char *fsa_utf8_fix(const char *s);
int fsa_utf8_valid(const char *s);
char *fsa_time(int64_t t, int format, char *buf, size_t bufsz);
void fsa_print_table(struct fsaudit *fa, const struct fsa_outopts *o);
void fsa_print_summary(struct fsaudit *fa, const struct fsa_outopts *o, FILE *out);

/* fsaudit-prometheus.c */
void fsa_print_prometheus(struct fsaudit *fa, FILE *out);
int fsa_read_sys_value(const char *dir, const char *name, char *buf, size_t bufsz);

/* fsaudit-udev.c */
int fsa_print_udev(struct fsaudit *fa, FILE *out);

#endif
