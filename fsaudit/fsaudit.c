/*
 * fsaudit - audit mounted filesystems, block devices and image files for
 * deprecated or 2038-limited on-disk formats.
 *
 * libmount reads the mount table, libblkid identifies (read-only, nothing
 * is mounted), the probers in probers/ read what libblkid does not report
 * (ext revision and inode size, XFS V4/V5, bigtime, ascii-ci, reiserfs
 * 3.5/3.6, ...), libsmartcols prints -- as findmnt and lsblk do.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid.h>
#include <libmount.h>
#include <libsmartcols.h>

#include "fsaudit.h"

#ifndef N_
# define N_(s) (s)
#endif

enum {
	COL_SOURCE = 0,
	COL_TARGET,
	COL_FSTYPE,
	COL_FORMAT,
	COL_VERSION,
	COL_LABEL,
	COL_UUID,
	COL_INODE_SIZE,
	COL_TIME_MIN,
	COL_TIME_MAX,
	COL_TIME_MIN_EPOCH,
	COL_TIME_MAX_EPOCH,
	COL_S_TIME_MAX,
	COL_VERDICT,
	COL_AT_RISK,
	COL_DEPRECATED,
	COL_SINCE,
	COL_REMOVAL,
	COL_REASON,
	COL_REPLACEMENT,
	COL_POLICY,
	COL_REMEDY,
	COL_NOTES,
};

struct colinfo {
	const char *name;	/* header */
	double whint;		/* width hint (N < 1 is in percent of termwidth) */
	int flags;		/* SCOLS_FL_* */
	const char *help;
	int json_type;		/* SCOLS_JSON_* */
};

static const struct colinfo infos[] = {
	[COL_SOURCE]	  = { "SOURCE", 0.25, SCOLS_FL_NOEXTREMES, N_("device or image file"), SCOLS_JSON_STRING },
	[COL_TARGET]	  = { "TARGET", 0.20, SCOLS_FL_TRUNC, N_("mountpoint"), SCOLS_JSON_STRING },
	[COL_FSTYPE]	  = { "FSTYPE", 0.10, SCOLS_FL_TRUNC, N_("filesystem type (libblkid)"), SCOLS_JSON_STRING },
	[COL_FORMAT]	  = { "FORMAT", 0.20, SCOLS_FL_TRUNC, N_("on-disk format details"), SCOLS_JSON_STRING },
	[COL_VERSION]	  = { "VERSION", 0.05, 0, N_("format version"), SCOLS_JSON_STRING },
	[COL_LABEL]	  = { "LABEL", 0.10, 0, N_("filesystem label"), SCOLS_JSON_STRING },
	[COL_UUID]	  = { "UUID", 36, 0, N_("filesystem UUID"), SCOLS_JSON_STRING },
	[COL_INODE_SIZE]  = { "INODE-SIZE", 5, SCOLS_FL_RIGHT, N_("ext2/3/4 inode size in bytes"), SCOLS_JSON_NUMBER },
	[COL_TIME_MIN]	  = { "TIME-MIN", 19, 0, N_("earliest time the format can store (UTC)"), SCOLS_JSON_STRING },
	[COL_TIME_MAX]	  = { "TIME-MAX", 19, 0, N_("latest time the format can store (UTC)"), SCOLS_JSON_STRING },
	[COL_TIME_MIN_EPOCH] = { "TIME-MIN-EPOCH", 12, SCOLS_FL_RIGHT, N_("TIME-MIN in seconds since the epoch"), SCOLS_JSON_NUMBER },
	[COL_TIME_MAX_EPOCH] = { "TIME-MAX-EPOCH", 12, SCOLS_FL_RIGHT, N_("TIME-MAX in seconds since the epoch"), SCOLS_JSON_NUMBER },
	[COL_S_TIME_MAX]  = { "S-TIME-MAX", 12, SCOLS_FL_RIGHT, N_("the kernel's s_time_max for this superblock (clamp), seconds"), SCOLS_JSON_NUMBER },
	[COL_VERDICT]	  = { "VERDICT", 12, 0, N_("ok, 2038-limited, deprecated, removed-from-mainline or unknown"), SCOLS_JSON_STRING },
	[COL_AT_RISK]	  = { "AT-RISK", 1, SCOLS_FL_RIGHT, N_("verdict is not ok"), SCOLS_JSON_BOOLEAN },
	[COL_DEPRECATED]  = { "DEPRECATED", 0.10, 0, N_("deprecated items that apply (names as in /sys/fs/deprecated)"), SCOLS_JSON_STRING },
	[COL_SINCE]	  = { "SINCE", 10, 0, N_("deprecated since (date)"), SCOLS_JSON_STRING },
	[COL_REMOVAL]	  = { "REMOVAL", 10, 0, N_("scheduled or actual removal (date)"), SCOLS_JSON_STRING },
	[COL_REASON]	  = { "REASON", 0.30, SCOLS_FL_TRUNC, N_("why it is deprecated"), SCOLS_JSON_STRING },
	[COL_REPLACEMENT] = { "REPLACEMENT", 0.30, SCOLS_FL_TRUNC, N_("what replaces it"), SCOLS_JSON_STRING },
	[COL_POLICY]	  = { "POLICY", 7, 0, N_("kernel policy for the item (/sys/fs/deprecated)"), SCOLS_JSON_STRING },
	[COL_REMEDY]	  = { "REMEDY", 0.30, SCOLS_FL_TRUNC, N_("what to do about it"), SCOLS_JSON_STRING },
	[COL_NOTES]	  = { "NOTES", 0.30, SCOLS_FL_TRUNC, N_("caveats, errors"), SCOLS_JSON_STRING },
};

#define N_COLS (sizeof(infos) / sizeof(infos[0]))

static int columns[N_COLS * 2];
static size_t ncolumns;

struct fsaudit {
	struct libscols_table *tb;
	struct libmnt_table *mnt;	/* mount table, loaded on demand */
	const char *mountinfo;		/* --mountinfo FILE */
	const char *sysroot;		/* --sysroot DIR, "" for / */
	int ext2_driver;		/* -1 auto, 0 ext4 serves ext2, 1 ext2 */
	int has_ext2_driver;		/* resolved auto value */
	int series;			/* /sys/fs/deprecated exists */
	int at_risk_only;
	const char *force_type;		/* -t TYPE */
	int nrows, nrisk, nerrors;
	dev_t *seen;			/* devices already reported */
	size_t nseen;
};

/* one source to report */
struct source {
	const char *name;	/* as shown in SOURCE */
	char path[PATH_MAX];	/* what is opened */
	const char *target;	/* mountpoint or NULL */
	const char *fstype;	/* mounted as, or NULL */
	const char *options;	/* fs-specific mount options */
	dev_t devno;
};

static void __attribute__((__noreturn__)) usage(void)
{
	FILE *out = stdout;
	size_t i;

	fputs("\nUsage:\n", out);
	fprintf(out, " %s [options] [<device>|<file> ...]\n",
		program_invocation_short_name);
	fputs("\nAudit filesystems for deprecated or 2038-limited on-disk formats.\n"
	      "Without arguments: every mounted filesystem.\n", out);
	fputs("\nOptions:\n"
	      " -a, --all                also every block device that holds a filesystem\n"
	      " -R, --at-risk            print only filesystems whose verdict is not ok\n"
	      " -J, --json               use JSON output format\n"
	      " -P, --pairs              use key=\"value\" output format\n"
	      " -r, --raw                use raw output format\n"
	      " -n, --noheadings         don't print headings\n"
	      " -o, --output <list>      output columns (+LIST appends to the default)\n"
	      " -H, --list-columns       list the available columns\n"
	      " -t, --type <type>        skip libblkid, probe as <type> (e.g. xfs)\n"
	      " -F, --mountinfo <file>   read the mount table from <file>\n"
	      "     --sysroot <dir>      use <dir> as the root for /proc, /sys and /dev\n"
	      "     --ext2-driver <auto|ext2|ext4>\n"
	      "                          driver that mounts unmounted ext2 filesystems\n"
	      "\n"
	      " -h, --help               display this help\n"
	      " -V, --version            display version\n", out);
	fputs("\nAvailable output columns:\n", out);
	for (i = 0; i < N_COLS; i++)
		fprintf(out, " %14s  %s\n", infos[i].name, infos[i].help);
	fputs("\nExit status: 0 nothing at risk, 1 at least one filesystem at risk,\n"
	      "2 a source could not be read, 3 bad usage, 4 internal error.\n"
	      "\nFor more details see fsaudit(8).\n", out);
	exit(FSA_EXIT_OK);
}

static void __attribute__((__noreturn__)) bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n",
		program_invocation_short_name);
	exit(FSA_EXIT_USAGE);
}

static void __attribute__((__noreturn__)) internal_error(const char *what, int rc)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what,
		strerror(rc < 0 ? -rc : rc));
	exit(FSA_EXIT_INTERNAL);
}

static int column_name_to_id(const char *name, size_t namesz)
{
	size_t i;

	for (i = 0; i < N_COLS; i++) {
		const char *cn = infos[i].name;

		if (!strncasecmp(name, cn, namesz) && !cn[namesz])
			return (int) i;
	}
	/* also accept "_" for "-" (TIME_MAX_EPOCH) */
	for (i = 0; i < N_COLS; i++) {
		const char *cn = infos[i].name;
		size_t j;

		if (strlen(cn) != namesz)
			continue;
		for (j = 0; j < namesz; j++) {
			char a = name[j] == '_' ? '-' : name[j];

			if ((a | 0x20) != (cn[j] | 0x20) && a != cn[j])
				break;
		}
		if (j == namesz)
			return (int) i;
	}
	return -1;
}

static void parse_columns(const char *list)
{
	const char *p = list;

	if (*p == '+')
		p++;
	else
		ncolumns = 0;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t) (end - p) : strlen(p);
		int id;

		if (!len)
			bad_usage("empty column name in '%s'", list);
		id = column_name_to_id(p, len);
		if (id < 0)
			bad_usage("unknown column: %.*s", (int) len, p);
		if (ncolumns >= sizeof(columns) / sizeof(columns[0]))
			bad_usage("too many columns");
		columns[ncolumns++] = id;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!ncolumns)
		bad_usage("no columns in '%s'", list);
}

static void list_columns(void)
{
	struct libscols_table *tb = scols_new_table();
	static const char *const jtypes[] = { "<string>", "<integer>", "<boolean>" };
	size_t i;

	if (!tb)
		internal_error("table", ENOMEM);
	scols_table_new_column(tb, "NAME", 0, 0);
	scols_table_new_column(tb, "TYPE", 0, 0);
	scols_table_new_column(tb, "DESCRIPTION", 0, 0);
	scols_table_enable_noheadings(tb, 1);
	for (i = 0; i < N_COLS; i++) {
		struct libscols_line *ln = scols_table_new_line(tb, NULL);

		if (!ln)
			internal_error("table", ENOMEM);
		scols_line_set_data(ln, 0, infos[i].name);
		scols_line_set_data(ln, 1, jtypes[infos[i].json_type]);
		scols_line_set_data(ln, 2, infos[i].help);
	}
	scols_print_table(tb);
	scols_unref_table(tb);
}

/* ------------------------------------------------------------------ */

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

static struct libmnt_table *mount_table(struct fsaudit *fa)
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
		internal_error("mount table", ENOMEM);
	parser_fa = fa;
	mnt_table_set_parser_errcb(fa->mnt, parser_errcb);
	rc = mnt_table_parse_file(fa->mnt, file);
	if (rc)
		internal_error(file, rc ? rc : EINVAL);
	return fa->mnt;
}

static int seen(struct fsaudit *fa, dev_t devno)
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
		internal_error("device list", ENOMEM);
	fa->seen = n;
	fa->seen[fa->nseen++] = devno;
	return 0;
}

/* kernel name of a block device (vda1, dm-0) from /sys/dev/block/M:m */
static int devno_kname(struct fsaudit *fa, dev_t devno, char *buf, size_t bufsz)
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

/* is this mounted ext2 filesystem served by fs/ext2 (not by ext4)? */
static int mounted_ext2_driver(struct fsaudit *fa, const struct source *src)
{
	char kname[NAME_MAX + 1], rel[NAME_MAX + 32];
	const char *b;

	if (devno_kname(fa, src->devno, kname, sizeof(kname)) != 0) {
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
static int has_ext2_driver(struct fsaudit *fa)
{
	if (fa->has_ext2_driver < 0)
		fa->has_ext2_driver = fsa_path_exists(fa->sysroot, "/sys/fs/deprecated/ext2")
				   || fsa_path_exists(fa->sysroot, "/sys/module/ext2");
	return fa->has_ext2_driver;
}

/* ------------------------------------------------------------------ */

struct result {
	const char *fstype, *label, *uuid, *version;
	char fstype_buf[64];
	struct fsa_info info;
	int have_info;		/* info filled by a prober */
	int verdict;
	char notes[PATH_MAX + 600];
	int error;		/* errno when the source could not be read */
	int nosig;		/* libblkid found no signature at all */
};

static void add_line(struct fsaudit *fa, const struct source *src, struct result *r)
{
	struct libscols_line *ln;
	char buf[64], deps[128] = "", since[32] = "", removal[32] = "";
	char reason[600] = "", repl[600] = "", policy[80] = "";
	const struct fsa_info *in = &r->info;
	int limits = r->have_info && in->has_limits;
	size_t i;
	int it;

	for (it = 0; it < FSA_NITEMS; it++) {
		const struct fsa_item *d = &fsa_items[it];

		if (!r->have_info || !(in->items & (1U << it)))
			continue;
		fsa_append(deps, sizeof(deps), "%s%s", deps[0] ? "," : "", d->name);
		if (d->since[0] && (!since[0] || strcmp(d->since, since) < 0))
			snprintf(since, sizeof(since), "%s", d->since);
		if (d->removal[0] && (!removal[0] || strcmp(d->removal, removal) < 0))
			snprintf(removal, sizeof(removal), "%s", d->removal);
		fsa_append(reason, sizeof(reason), "%s%s", reason[0] ? "; " : "", d->reason);
		fsa_append(repl, sizeof(repl), "%s%s", repl[0] ? "; " : "", d->replacement);
		if (d->policy[0])
			fsa_append(policy, sizeof(policy), "%s%s", policy[0] ? "," : "", d->policy);
	}

	ln = scols_table_new_line(fa->tb, NULL);
	if (!ln)
		internal_error("table", ENOMEM);

	for (i = 0; i < ncolumns; i++) {
		const char *s = NULL;

		buf[0] = '\0';
		switch (columns[i]) {
		case COL_SOURCE:
			s = src->name;
			break;
		case COL_TARGET:
			s = src->target;
			break;
		case COL_FSTYPE:
			s = r->fstype;
			break;
		case COL_FORMAT:
			s = r->have_info ? in->format : NULL;
			break;
		case COL_VERSION:
			s = r->have_info && in->version[0] ? in->version : r->version;
			break;
		case COL_LABEL:
			s = r->label;
			break;
		case COL_UUID:
			s = r->uuid;
			break;
		case COL_INODE_SIZE:
			if (r->have_info && in->inode_size)
				snprintf(buf, sizeof(buf), "%d", in->inode_size);
			break;
		case COL_TIME_MIN:
			if (limits)
				fsa_strtime(in->time_min, buf, sizeof(buf));
			break;
		case COL_TIME_MAX:
			if (limits)
				fsa_strtime(in->time_max, buf, sizeof(buf));
			break;
		case COL_TIME_MIN_EPOCH:
			if (limits)
				snprintf(buf, sizeof(buf), "%lld", (long long) in->time_min);
			break;
		case COL_TIME_MAX_EPOCH:
			if (limits)
				snprintf(buf, sizeof(buf), "%lld", (long long) in->time_max);
			break;
		case COL_S_TIME_MAX:
			if (limits)
				snprintf(buf, sizeof(buf), "%lld", (long long) in->s_time_max);
			break;
		case COL_VERDICT:
			s = fsa_verdict_names[r->verdict];
			break;
		case COL_AT_RISK:
			s = r->verdict > VERDICT_OK ? "1" : "0";
			break;
		case COL_DEPRECATED:
			s = deps;
			break;
		case COL_SINCE:
			s = since;
			break;
		case COL_REMOVAL:
			s = removal;
			break;
		case COL_REASON:
			s = reason;
			break;
		case COL_REPLACEMENT:
			s = repl;
			break;
		case COL_POLICY:
			s = policy;
			break;
		case COL_REMEDY:
			s = r->have_info ? in->remedy : NULL;
			break;
		case COL_NOTES:
			s = r->notes;
			break;
		}
		if (!s)
			s = buf;
		if (*s && scols_line_set_data(ln, i, s))
			internal_error("table", ENOMEM);
	}
}

static int compute_verdict(const struct result *r)
{
	const struct fsa_info *in = &r->info;
	int v = VERDICT_OK, it;

	if (!r->have_info || (!in->has_limits && !in->no_times))
		return VERDICT_UNKNOWN;
	if (in->has_limits && !in->no_times && in->time_max <= FSA_S32_MAX)
		v = VERDICT_2038;
	for (it = 0; it < FSA_NITEMS; it++)
		if ((in->items & (1U << it)) && fsa_items[it].verdict > v)
			v = fsa_items[it].verdict;
	return v;
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
static int fallback(struct result *r, int fd, uint64_t size)
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

/* Probe one source and add its line.  @quiet_nofs: skip sources without
 * a filesystem (--all). */
static void audit_source(struct fsaudit *fa, struct source *src, int quiet_nofs)
{
	struct result r = { 0 };
	struct fsa_env env = { 0 };
	const struct fsa_prober *pb;
	struct fsa_dev dev;
	blkid_probe pr = NULL;
	uint64_t size = 0;
	int rc, fd = -1;

	fsa_info_init(&r.info);
	r.fstype = src->fstype;
	r.verdict = VERDICT_UNKNOWN;

	if (fa->force_type) {
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
		if (rc == 1 && !(r.nosig && fallback(&r, fd, size))) {
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

	env.source = src->name;
	env.fstype = src->fstype;
	env.options = src->options;
	env.series = fa->series;
	if (src->fstype)
		env.ext2_driver = strcmp(src->fstype, "ext2") == 0 && mounted_ext2_driver(fa, src);
	else
		env.ext2_driver = has_ext2_driver(fa);

	fsa_dev_init_fd(&dev, fd, size);
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
		r.verdict = compute_verdict(&r);
		snprintf(r.notes, sizeof(r.notes), "%s%s%s", r.info.notes,
			 r.nosig && r.info.notes[0] ? "; " : "",
			 r.nosig ? "libblkid does not recognise it" : "");
		if (!r.info.has_limits && !r.info.no_times && !r.notes[0])
			snprintf(r.notes, sizeof(r.notes), "limits unknown");
	}
	goto out;

failed:
	/* a mounted filesystem the user may not read: some types need no
	 * superblock to be assessed */
	if (src->fstype && (r.error == EACCES || r.error == EPERM)
	    && fsa_limits_by_type(src->fstype, src->options, &r.info) == 0) {
		r.have_info = 1;
		r.verdict = compute_verdict(&r);
		snprintf(r.notes, sizeof(r.notes), "cannot read %s (%s): limits from the mounted type %s",
			 src->name, strerror(r.error), src->fstype);
		goto out;
	}
	fa->nerrors++;
	snprintf(r.notes, sizeof(r.notes), "cannot read %s: %s", src->name, strerror(r.error));
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, src->name,
		strerror(r.error));
out:
	if (r.verdict > VERDICT_OK)
		fa->nrisk++;
	if (!fa->at_risk_only || r.verdict > VERDICT_OK) {
		add_line(fa, src, &r);
		fa->nrows++;
	}
skip:
	if (pr)
		blkid_free_probe(pr);
	else if (fd >= 0)
		close(fd);
	free((void *) r.label);
	free((void *) r.uuid);
	free((void *) r.version);
}

static void set_path(struct fsaudit *fa, struct source *src, const char *devpath)
{
	snprintf(src->path, sizeof(src->path), "%s%s", fa->sysroot, devpath);
}

/* every mounted filesystem with a block device (or file) behind it */
static void audit_mounted(struct fsaudit *fa)
{
	struct libmnt_table *tb = mount_table(fa);
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;

	if (!itr)
		internal_error("mount table", ENOMEM);
	while (mnt_table_next_fs(tb, itr, &fs) == 0) {
		struct source src = { 0 };
		const char *dev = mnt_fs_get_srcpath(fs);
		struct stat st;

		if (mnt_fs_is_pseudofs(fs) || mnt_fs_is_netfs(fs) || !dev || *dev != '/')
			continue;
		src.devno = mnt_fs_get_devno(fs);
		/* bind mounts and btrfs subvolumes: report the device once */
		if (seen(fa, src.devno))
			continue;
		src.name = dev;
		src.target = mnt_fs_get_target(fs);
		src.fstype = mnt_fs_get_fstype(fs);
		src.options = mnt_fs_get_fs_options(fs);
		set_path(fa, &src, dev);
		/* /dev/root and friends: find the node by its number */
		if (stat(src.path, &st) != 0 && src.devno) {
			char kname[NAME_MAX + 1];

			if (devno_kname(fa, src.devno, kname, sizeof(kname)) == 0)
				snprintf(src.path, sizeof(src.path), "%s/dev/%s", fa->sysroot, kname);
		}
		audit_source(fa, &src, 0);
	}
	mnt_free_iter(itr);
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
	if (read_devno(sysdir, &src.devno) == 0 && seen(fa, src.devno))
		return;
	snprintf(devpath, sizeof(devpath), "/dev/%s", name);
	src.name = devpath;
	set_path(fa, &src, devpath);
	audit_source(fa, &src, 1);
}

static int namecmp(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

/* --all: block devices from <sysroot>/sys/block, whole disks and partitions */
static void audit_all_blockdevs(struct fsaudit *fa)
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

static void audit_argument(struct fsaudit *fa, const char *arg)
{
	struct source src = { 0 };
	struct stat st;

	src.name = arg;
	snprintf(src.path, sizeof(src.path), "%s", arg);
	/* a mounted block device: report how it is mounted */
	if (stat(arg, &st) == 0 && S_ISBLK(st.st_mode)) {
		struct libmnt_fs *fs = mnt_table_find_devno(mount_table(fa), st.st_rdev,
							    MNT_ITER_FORWARD);
		src.devno = st.st_rdev;
		if (fs) {
			src.target = mnt_fs_get_target(fs);
			src.fstype = mnt_fs_get_fstype(fs);
			src.options = mnt_fs_get_fs_options(fs);
		}
	}
	audit_source(fa, &src, 0);
}

static void init_table(struct fsaudit *fa, int json, int raw, int pairs, int noheadings)
{
	size_t i;

	fa->tb = scols_new_table();
	if (!fa->tb)
		internal_error("table", ENOMEM);
	scols_table_set_name(fa->tb, "filesystems");
	scols_table_enable_json(fa->tb, json);
	scols_table_enable_raw(fa->tb, raw);
	scols_table_enable_export(fa->tb, pairs);
	scols_table_enable_shellvar(fa->tb, pairs);
	scols_table_enable_noheadings(fa->tb, noheadings);

	for (i = 0; i < ncolumns; i++) {
		const struct colinfo *ci = &infos[columns[i]];
		struct libscols_column *cl;
		int flags = ci->flags;

		if (json || raw || pairs)
			flags &= ~(SCOLS_FL_TRUNC | SCOLS_FL_WRAP);
		cl = scols_table_new_column(fa->tb, ci->name, ci->whint, flags);
		if (!cl)
			internal_error("table", ENOMEM);
		if (json)
			scols_column_set_json_type(cl, ci->json_type);
	}
}

int main(int argc, char **argv)
{
	struct fsaudit fa = { .ext2_driver = -1, .sysroot = "" };
	int c, all = 0, json = 0, raw = 0, pairs = 0, noheadings = 0, i;
	const char *outarg = NULL;

	enum { OPT_SYSROOT = CHAR_MAX + 1, OPT_EXT2_DRIVER };
	static const struct option longopts[] = {
		{ "all",          no_argument,       NULL, 'a' },
		{ "at-risk",      no_argument,       NULL, 'R' },
		{ "json",         no_argument,       NULL, 'J' },
		{ "pairs",        no_argument,       NULL, 'P' },
		{ "raw",          no_argument,       NULL, 'r' },
		{ "noheadings",   no_argument,       NULL, 'n' },
		{ "output",       required_argument, NULL, 'o' },
		{ "list-columns", no_argument,       NULL, 'H' },
		{ "mountinfo",    required_argument, NULL, 'F' },
		{ "type",         required_argument, NULL, 't' },
		{ "sysroot",      required_argument, NULL, OPT_SYSROOT },
		{ "ext2-driver",  required_argument, NULL, OPT_EXT2_DRIVER },
		{ "help",         no_argument,       NULL, 'h' },
		{ "version",      no_argument,       NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};

	static const int defaults[] = {
		COL_SOURCE, COL_TARGET, COL_FSTYPE, COL_FORMAT, COL_TIME_MAX,
		COL_VERDICT, COL_REMOVAL, COL_REMEDY
	};
	setlocale(LC_ALL, "");
	for (ncolumns = 0; ncolumns < sizeof(defaults) / sizeof(defaults[0]); ncolumns++)
		columns[ncolumns] = defaults[ncolumns];

	while ((c = getopt_long(argc, argv, "aRJPrno:HF:t:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': all = 1; break;
		case 'R': fa.at_risk_only = 1; break;
		case 'J': json = 1; break;
		case 'P': pairs = 1; break;
		case 'r': raw = 1; break;
		case 'n': noheadings = 1; break;
		case 'o': outarg = optarg; break;
		case 'H':
			list_columns();
			return FSA_EXIT_OK;
		case 'F': fa.mountinfo = optarg; break;
		case 't':
			if (!fsa_prober_for_type(optarg))
				bad_usage("--type: no prober for '%s'", optarg);
			fa.force_type = optarg;
			break;
		case OPT_SYSROOT:
			if (!*optarg)
				bad_usage("--sysroot needs a directory");
			fa.sysroot = strcmp(optarg, "/") == 0 ? "" : optarg;
			break;
		case OPT_EXT2_DRIVER:
			if (strcmp(optarg, "auto") == 0)
				fa.ext2_driver = -1;
			else if (strcmp(optarg, "ext2") == 0)
				fa.ext2_driver = 1;
			else if (strcmp(optarg, "ext4") == 0)
				fa.ext2_driver = 0;
			else
				bad_usage("--ext2-driver: '%s' is not auto, ext2 or ext4", optarg);
			break;
		case 'h':
			usage();
		case 'V':
			printf("%s from fsdeprecate %s (libblkid %s, libmount %s, libsmartcols %s)\n",
			       program_invocation_short_name, FSAUDIT_VERSION,
			       BLKID_VERSION, LIBMOUNT_VERSION, LIBSMARTCOLS_VERSION);
			return FSA_EXIT_OK;
		default:
			fprintf(stderr, "Try '%s --help' for more information.\n",
				program_invocation_short_name);
			return FSA_EXIT_USAGE;
		}
	}
	if (json + raw + pairs > 1)
		bad_usage("--json, --raw and --pairs are mutually exclusive");
	if (all && optind < argc)
		bad_usage("--all does not take device arguments");
	if (outarg)
		parse_columns(outarg);

	fa.series = fsa_items_load(fa.sysroot);
	fa.has_ext2_driver = fa.ext2_driver;	/* -1: find out when needed */

	init_table(&fa, json, raw, pairs, noheadings);

	if (optind < argc) {
		for (i = optind; i < argc; i++)
			audit_argument(&fa, argv[i]);
	} else {
		audit_mounted(&fa);
		if (all)
			audit_all_blockdevs(&fa);
	}

	if (fa.nrows || json)
		scols_print_table(fa.tb);
	scols_unref_table(fa.tb);
	mnt_unref_table(fa.mnt);
	free(fa.seen);

	if (fa.nerrors)
		return FSA_EXIT_ERROR;
	return fa.nrisk ? FSA_EXIT_AT_RISK : FSA_EXIT_OK;
}
