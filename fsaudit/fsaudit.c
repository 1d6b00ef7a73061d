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
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
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
	[COL_VERDICT]	  = { "VERDICT", 12, 0, N_("ok, 2038-limited, deprecated, removed-from-mainline, kernel-cannot-mount or unknown"), SCOLS_JSON_STRING },
	[COL_AT_RISK]	  = { "AT-RISK", 1, SCOLS_FL_RIGHT, N_("verdict is not ok"), SCOLS_JSON_BOOLEAN },
	[COL_DEPRECATED]  = { "DEPRECATED", 0.10, 0, N_("deprecated items that apply (names as in /sys/fs/deprecated)"), SCOLS_JSON_STRING },
	[COL_SINCE]	  = { "SINCE", 10, 0, N_("deprecated since (date)"), SCOLS_JSON_STRING },
	[COL_REMOVAL]	  = { "REMOVAL", 10, 0, N_("scheduled or actual removal (date)"), SCOLS_JSON_STRING },
	[COL_REASON]	  = { "REASON", 0.30, SCOLS_FL_TRUNC, N_("why it is deprecated"), SCOLS_JSON_STRING },
	[COL_REPLACEMENT] = { "REPLACEMENT", 0.30, SCOLS_FL_TRUNC, N_("what replaces it"), SCOLS_JSON_STRING },
	[COL_POLICY]	  = { "POLICY", 7, 0, N_("kernel policy for the item (/sys/fs/deprecated)"), SCOLS_JSON_STRING },
	[COL_REMEDY]	  = { "REMEDY", 0.40, SCOLS_FL_TRUNC, N_("what to do about it"), SCOLS_JSON_STRING },
	[COL_NOTES]	  = { "NOTES", 0.30, SCOLS_FL_TRUNC, N_("caveats, errors"), SCOLS_JSON_STRING },
};

#define N_COLS (sizeof(infos) / sizeof(infos[0]))

static int columns[N_COLS * 2];
static size_t ncolumns;
static size_t colmax[N_COLS * 2];	/* longest data per output column */

/* one audited source, kept for the summary and --prometheus */
struct record {
	char *source, *target, *fstype, *format, *deps;
	int verdict;
	int error;		/* unreadable (counted as an error) */
	int has_limits;
	int64_t time_min, time_max, s_time_max;
	char removal[32];
	int kernel_can_mount;	/* 1 yes, 0 no, -1 unknown */
};

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
	int nunreadable;		/* sources counted as unknown (--unreadable-unknown) */
	int unreadable_unknown;		/* --unreadable-unknown */
	int json;
	dev_t *seen;			/* devices already reported */
	size_t nseen;
	struct record *recs;		/* every audited source */
	size_t nrecs;
	const char *kconfig_file;	/* --kernel-config FILE */
	char *kconfig;			/* its text, NULL when unreadable */
	int kconfig_loaded;
};

/* one source to report */
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
};

static void __attribute__((__noreturn__)) usage(void)
{
	FILE *out = stdout;
	size_t i;

	fputs("\nUsage:\n", out);
	fprintf(out, " %s [options] [<device>|<file>|<directory> ...]\n",
		program_invocation_short_name);
	fputs("\nAudit filesystems for deprecated or 2038-limited on-disk formats.\n"
	      "Without arguments: every mounted filesystem.  An image file with a\n"
	      "partition table: every partition (IMAGE:pN).  A directory: the\n"
	      "filesystem it is on.\n", out);
	fputs("\nOptions:\n"
	      " -a, --all                also every block device that holds a filesystem\n"
	      " -R, --at-risk            print only filesystems whose verdict is not ok\n"
	      " -J, --json               use JSON output format\n"
	      " -P, --pairs              use key=\"value\" output format\n"
	      " -r, --raw                use raw output format\n"
	      " -n, --noheadings         don't print headings\n"
	      " -o, --output <list>      output columns (+LIST appends to the default)\n"
	      " -H, --list-columns       list the available columns (with -J: in JSON)\n"
	      " -w, --width <num>        output width (default: the terminal's)\n"
	      " -u, --notruncate         don't truncate or wrap text in columns\n"
	      " -S, --summary[=<when>]   one-line summary after the table: always (-S),\n"
	      "                          auto (at a terminal, the default) or never\n"
	      " -q, --quiet              no table, only the exit status (and -S)\n"
	      "     --prometheus         Prometheus text format (node_exporter textfile)\n"
	      "     --unreadable-unknown an unreadable source is unknown, not exit 2\n"
	      "     --kernel-config <file>\n"
	      "                          the running kernel's configuration (default:\n"
	      "                          /proc/config.gz, /boot/config-$(uname -r))\n"
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
	      "2 a source could not be read (wins over 1; not with --unreadable-unknown),\n"
	      "3 bad usage, 4 internal error.\n"
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

static void list_columns(int json)
{
	struct libscols_table *tb = scols_new_table();
	static const char *const jtypes[] = { "<string>", "<integer>", "<boolean>" };
	static const char *const jnames[] = { "string", "integer", "boolean" };
	size_t i;

	if (!tb)
		internal_error("table", ENOMEM);
	scols_table_set_name(tb, "columns");
	scols_table_enable_json(tb, json);
	scols_table_new_column(tb, json ? "name" : "NAME", 0, 0);
	scols_table_new_column(tb, json ? "type" : "TYPE", 0, 0);
	scols_table_new_column(tb, json ? "description" : "DESCRIPTION", 0, 0);
	scols_table_enable_noheadings(tb, !json);
	for (i = 0; i < N_COLS; i++) {
		struct libscols_line *ln = scols_table_new_line(tb, NULL);

		if (!ln)
			internal_error("table", ENOMEM);
		scols_line_set_data(ln, 0, infos[i].name);
		scols_line_set_data(ln, 1, json ? jnames[infos[i].json_type] : jtypes[infos[i].json_type]);
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
static int kconfig_load(struct fsaudit *fa);
static int kconfig_set(struct fsaudit *fa, const char *sym);

static int has_ext2_driver(struct fsaudit *fa)
{
	if (fa->has_ext2_driver < 0)
		fa->has_ext2_driver = fsa_path_exists(fa->sysroot, "/sys/fs/deprecated/ext2")
				   || fsa_path_exists(fa->sysroot, "/sys/module/ext2")
				   /* the kernel configuration, where readable, says
				    * whether fs/ext2 is built in */
				   || (kconfig_load(fa) && kconfig_set(fa, "EXT2_FS"));
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
	int pttype;		/* libblkid found a partition table */
	int kernel_can_mount;	/* 1, 0 (kernel config says no), -1 unknown */
	char removal_note[64];	/* replaces REMOVAL (this kernel cannot mount it) */
};

/* Is @s safe as one word in a POSIX shell without quoting? */
static int shell_safe(const char *s, int dash_ok)
{
	if (!*s || (*s == '-' && !dash_ok) || *s == '~')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')
		      || (*s >= '0' && *s <= '9') || strchr("_./:+,@%=-", *s)))
			return 0;
	return 1;
}

/* @s as one word for a POSIX shell, for remedies: unchanged when safe,
 * else in single quotes with ' as '\''; "./" before a leading "-" (a
 * relative name that would read as an option).  -1 when it does not fit. */
static int shell_quote(const char *s, char *buf, size_t bufsz)
{
	size_t o = 0;

	if (*s == '-') {
		if (bufsz < 3)
			return -1;
		memcpy(buf, "./", 2);
		o = 2;
	}
	if (shell_safe(s, o == 2)) {
		if (o + strlen(s) + 1 > bufsz)
			return -1;
		strcpy(buf + o, s);
		return 0;
	}
	if (o + 1 >= bufsz)
		return -1;
	buf[o++] = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			if (o + 4 >= bufsz)
				return -1;
			memcpy(buf + o, "'\\''", 4);
			o += 4;
		} else {
			if (o + 1 >= bufsz)
				return -1;
			buf[o++] = *s;
		}
	}
	if (o + 2 > bufsz)
		return -1;
	buf[o++] = '\'';
	buf[o] = '\0';
	return 0;
}

/* the name remedies use for @src: quoted, or for a partition of an image
 * a command substitution that attaches the image and names the partition */
static void remedy_name(const struct source *src, char *buf, size_t bufsz)
{
	char q[512];

	if (src->partition) {
		if (shell_quote(src->image, q, sizeof(q)) == 0)
			snprintf(buf, bufsz, "\"$(losetup -f -P --show %s)p%d\"", q, src->partno);
		else
			snprintf(buf, bufsz, "DEVICE");
		return;
	}
	if (shell_quote(src->name, buf, bufsz) != 0)
		snprintf(buf, bufsz, "DEVICE");	/* too long to print usefully */
}

static char *utf8_fix(const char *s);

/* an integer (decimal text) a reader with IEEE doubles reads exactly */
static int json_safe_integer(const char *dec)
{
	long long v;
	char *end;

	errno = 0;
	v = strtoll(dec, &end, 10);
	return !errno && !*end && v <= 9007199254740991LL && v >= -9007199254740991LL;
}

/* DEPRECATED, SINCE, REMOVAL, REASON, REPLACEMENT, POLICY from the items
 * that apply (buffers of 128, 32, 32, 600, 600, 80 bytes) */
static void item_strings(const struct result *r, char *deps, char *since, char *removal,
			 char *reason, char *repl, char *policy)
{
	const struct fsa_info *in = &r->info;
	int it;

	deps[0] = since[0] = removal[0] = reason[0] = repl[0] = policy[0] = '\0';
	for (it = 0; it < FSA_NITEMS; it++) {
		const struct fsa_item *d = &fsa_items[it];

		if (!r->have_info || !(in->items & (1U << it)))
			continue;
		fsa_append(deps, 128, "%s%s", deps[0] ? "," : "", d->name);
		if (d->since[0] && (!since[0] || strcmp(d->since, since) < 0))
			snprintf(since, 32, "%s", d->since);
		if (d->removal[0] && (!removal[0] || strcmp(d->removal, removal) < 0))
			snprintf(removal, 32, "%s", d->removal);
		fsa_append(reason, 600, "%s%s", reason[0] ? "; " : "", d->reason);
		fsa_append(repl, 600, "%s%s", repl[0] ? "; " : "", d->replacement);
		if (d->policy[0])
			fsa_append(policy, 80, "%s%s", policy[0] ? "," : "", d->policy);
	}
}

static void add_line(struct fsaudit *fa, const struct source *src, struct result *r)
{
	struct libscols_line *ln;
	char buf[64], deps[128], since[32], removal[32];
	char reason[600], repl[600], policy[80];
	const struct fsa_info *in = &r->info;
	int limits = r->have_info && in->has_limits;
	char *fixed = NULL;
	size_t i;

	item_strings(r, deps, since, removal, reason, repl, policy);
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
			s = r->removal_note[0] ? r->removal_note : removal;
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
		if (fa->json) {
			/* integers a 53-bit JSON reader would round: strings */
			if (s == buf && buf[0] && infos[columns[i]].json_type == SCOLS_JSON_NUMBER
			    && !json_safe_integer(buf)) {
				char q[32];

				snprintf(q, sizeof(q), "%.24s", buf);
				snprintf(buf, sizeof(buf), "\"%s\"", q);
			}
			fixed = utf8_fix(s);	/* invalid UTF-8 bytes: U+FFFD */
			if (fixed)
				s = fixed;
		}
		if (*s && scols_line_set_data(ln, i, s))
			internal_error("table", ENOMEM);
		if (strlen(s) > colmax[i])
			colmax[i] = strlen(s);
		free(fixed);
		fixed = NULL;
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
static int kernel_can_mount(struct fsaudit *fa, const char *fstype, unsigned items,
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

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		internal_error("memory", ENOMEM);
	return d;
}

static void add_record(struct fsaudit *fa, const struct source *src, const struct result *r)
{
	struct record *rec, *n;
	char deps[128] = "", since[32], removal[32], reason[600], repl[600], policy[80];

	n = realloc(fa->recs, (fa->nrecs + 1) * sizeof(*n));
	if (!n)
		internal_error("memory", ENOMEM);
	fa->recs = n;
	rec = &fa->recs[fa->nrecs++];
	memset(rec, 0, sizeof(*rec));
	item_strings(r, deps, since, removal, reason, repl, policy);
	rec->source = xstrdup(src->name);
	rec->target = xstrdup(src->target);
	rec->fstype = xstrdup(r->fstype);
	rec->format = xstrdup(r->have_info ? r->info.format : "");
	rec->deps = xstrdup(deps);
	rec->verdict = r->verdict;
	rec->error = r->error != 0 && !r->have_info;
	rec->has_limits = r->have_info && r->info.has_limits;
	rec->time_min = r->info.time_min;
	rec->time_max = r->info.time_max;
	rec->s_time_max = r->info.s_time_max;
	snprintf(rec->removal, sizeof(rec->removal), "%s", removal);
	rec->kernel_can_mount = r->kernel_can_mount;
}

/* Probe one source and add its line.  @quiet_nofs: skip sources without
 * a filesystem (--all). */
static int audit_partitions(struct fsaudit *fa, struct source *src, blkid_probe pr, int fd,
			    uint64_t size);

static void audit_source(struct fsaudit *fa, struct source *src, int quiet_nofs)
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

	remedy_name(src, qname, sizeof(qname));
	env.source = qname;
	env.fstype = src->fstype;
	env.options = src->options;
	env.series = fa->series;
	if (src->fstype)
		env.ext2_driver = strcmp(src->fstype, "ext2") == 0 && mounted_ext2_driver(fa, src);
	else
		env.ext2_driver = has_ext2_driver(fa);

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
		r.verdict = compute_verdict(&r);
		snprintf(r.notes, sizeof(r.notes), "%s%s%s", r.info.notes,
			 r.nosig && r.info.notes[0] ? "; " : "",
			 r.nosig ? "libblkid does not recognise it" : "");
		if (!r.info.has_limits && !r.info.no_times && !r.notes[0])
			snprintf(r.notes, sizeof(r.notes), "limits unknown");
		/* not mounted: can the running kernel mount it at all? */
		if (!src->fstype)
			r.kernel_can_mount = kernel_can_mount(fa, r.fstype, r.info.items, &sym);
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
		r.verdict = compute_verdict(&r);
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
	if (r.verdict > VERDICT_OK)
		fa->nrisk++;
	add_record(fa, src, &r);
	if (!fa->at_risk_only || r.verdict > VERDICT_OK) {
		add_line(fa, src, &r);
		fa->nrows++;
	}
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
		audit_source(fa, &ps, 0);
	}
	return 0;
}

static void set_path(struct fsaudit *fa, struct source *src, const char *devpath)
{
	snprintf(src->path, sizeof(src->path), "%s%s", fa->sysroot, devpath);
}

/* a mount table's source @dev: audit the node under the sysroot or, when it
 * does not exist (/dev/root and friends), the one found by its number */
static void audit_mount_source(struct fsaudit *fa, struct source *src, const char *dev)
{
	struct stat st;

	src->name = dev;
	set_path(fa, src, dev);
	if (stat(src->path, &st) != 0 && src->devno) {
		char kname[NAME_MAX + 1];

		if (devno_kname(fa, src->devno, kname, sizeof(kname)) == 0)
			snprintf(src->path, sizeof(src->path), "%s/dev/%s", fa->sysroot, kname);
	}
	audit_source(fa, src, 0);
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

		if (mnt_fs_is_pseudofs(fs) || mnt_fs_is_netfs(fs) || !dev || *dev != '/')
			continue;
		src.devno = mnt_fs_get_devno(fs);
		/* bind mounts and btrfs subvolumes: report the device once */
		if (seen(fa, src.devno))
			continue;
		src.target = mnt_fs_get_target(fs);
		src.fstype = mnt_fs_get_fstype(fs);
		src.options = mnt_fs_get_fs_options(fs);
		audit_mount_source(fa, &src, dev);
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

static void audit_directory(struct fsaudit *fa, const char *arg);

static void audit_argument(struct fsaudit *fa, const char *arg)
{
	struct source src = { 0 };
	struct stat st;

	src.name = arg;
	snprintf(src.path, sizeof(src.path), "%s", arg);
	/* a directory or mount point: the filesystem it is on */
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		audit_directory(fa, arg);
		return;
	}
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

/* the mount table entry a directory is on (as findmnt -T): the longest
 * mountpoint that is a prefix of its canonical path, the last mounted */
static struct libmnt_fs *fs_of_directory(struct fsaudit *fa, const char *dir)
{
	struct libmnt_table *tb = mount_table(fa);
	char *path = realpath(dir, NULL);
	struct libmnt_fs *fs = NULL;

	if (!path)
		return NULL;
	for (;;) {
		struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_BACKWARD);
		struct libmnt_fs *f;
		char *slash;

		if (!itr)
			internal_error("mount table", ENOMEM);
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
static void audit_directory(struct fsaudit *fa, const char *arg)
{
	struct libmnt_fs *fs = fs_of_directory(fa, arg);
	struct source src = { 0 };
	const char *dev;

	if (!fs) {
		struct result r = { 0 };

		fsa_info_init(&r.info);
		r.kernel_can_mount = -1;
		r.error = ENOENT;
		if (fa->unreadable_unknown)
			fa->nunreadable++;
		else
			fa->nerrors++;
		snprintf(r.notes, sizeof(r.notes), "no filesystem in the mount table holds %s", arg);
		fprintf(stderr, "%s: %s: not in the mount table\n", program_invocation_short_name, arg);
		src.name = arg;
		add_record(fa, &src, &r);
		if (!fa->at_risk_only) {
			add_line(fa, &src, &r);
			fa->nrows++;
		}
		return;
	}
	dev = mnt_fs_get_srcpath(fs);
	src.target = mnt_fs_get_target(fs);
	src.fstype = mnt_fs_get_fstype(fs);
	src.options = mnt_fs_get_fs_options(fs);
	src.devno = mnt_fs_get_devno(fs);
	if (!dev || *dev != '/' || mnt_fs_is_pseudofs(fs) || mnt_fs_is_netfs(fs)) {
		/* tmpfs, nfs, ...: no device to read, judge by type */
		struct result r = { 0 };

		fsa_info_init(&r.info);
		r.kernel_can_mount = -1;
		r.fstype = src.fstype;
		src.name = mnt_fs_get_source(fs) ? mnt_fs_get_source(fs) : "none";
		if (src.fstype && fsa_limits_by_type(src.fstype, src.options, &r.info) == 0) {
			r.have_info = 1;
			r.verdict = compute_verdict(&r);
			snprintf(r.notes, sizeof(r.notes), "no block device: limits from the type %s", src.fstype);
		} else {
			snprintf(r.notes, sizeof(r.notes), "no block device behind it; limits unknown");
		}
		if (r.verdict > VERDICT_OK)
			fa->nrisk++;
		add_record(fa, &src, &r);
		if (!fa->at_risk_only || r.verdict > VERDICT_OK) {
			add_line(fa, &src, &r);
			fa->nrows++;
		}
		return;
	}
	audit_mount_source(fa, &src, dev);
}

/* ------------------------------------------------------------------ */
/* output encodings */

/* length of the valid UTF-8 sequence at @s, 0 when invalid */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned c = s[0], cp;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2, cp = c & 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3, cp = c & 0x0F;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))
	    || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

/* @s with every byte that is not part of valid UTF-8 replaced by U+FFFD;
 * NULL when @s is valid (use it as is) */
static char *utf8_fix(const char *s)
{
	const unsigned char *p = (const unsigned char *) s;
	size_t n, o = 0;
	char *d;

	for (p = (const unsigned char *) s; *p; p += n)
		if (!(n = utf8_seq(p)))
			break;
	if (!*p)
		return NULL;
	d = malloc(strlen(s) * 3 + 1);
	if (!d)
		internal_error("memory", ENOMEM);
	for (p = (const unsigned char *) s; *p; p += n) {
		n = utf8_seq(p);
		if (n) {
			memcpy(d + o, p, n);
			o += n;
		} else {
			memcpy(d + o, "\xEF\xBF\xBD", 3);
			o += 3;
			n = 1;
		}
	}
	d[o] = '\0';
	return d;
}

/* Prometheus label value: valid UTF-8, \\, \" and \n escaped */
static void prom_label(FILE *out, const char *name, const char *v, int comma)
{
	char *fixed = utf8_fix(v ? v : "");
	const char *p = fixed ? fixed : (v ? v : "");

	fprintf(out, "%s%s=\"", comma ? "," : "", name);
	for (; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", out);
		else if (*p == '"')
			fputs("\\\"", out);
		else if (*p == '\n')
			fputs("\\n", out);
		else
			fputc(*p, out);
	}
	fputc('"', out);
	free(fixed);
}

static void prom_head(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void prom_src_labels(FILE *out, const struct record *rec)
{
	prom_label(out, "source", rec->source, 0);
	prom_label(out, "target", rec->target, 1);
	prom_label(out, "fstype", rec->fstype, 1);
}

/* YYYY-MM-DD as seconds since the epoch (UTC), -1 when not a date */
static int64_t date_epoch(const char *d)
{
	struct tm tm = { 0 };
	char *end;

	if (!d[0])
		return -1;
	end = strptime(d, "%Y-%m-%d", &tm);
	if (!end || *end)
		return -1;
	return (int64_t) timegm(&tm);
}

static int read_sys_value(const char *dir, const char *name, char *buf, size_t bufsz)
{
	char path[PATH_MAX * 2];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, bufsz - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* a decimal counter file; 0 when present and valid */
static int read_sys_num(const char *dir, const char *name, long long *v)
{
	char buf[64], *end;

	if (read_sys_value(dir, name, buf, sizeof(buf)) != 0 || !buf[0])
		return -1;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return errno || *end ? -1 : 0;
}

static const char *const policy_words[] = { "default", "allow", "warn", "ro", "deny" };
#define N_POLICY_WORDS (sizeof(policy_words) / sizeof(policy_words[0]))

static int item_dir_filter(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* the kernel's inventory: /sys/fs/deprecated/<item>/ and /sys/fs/y2038/ */
static void prometheus_kernel(struct fsaudit *fa, FILE *out)
{
	static const struct { const char *file, *metric, *type, *help; } ctr[] = {
		{ "mounts", "fsaudit_kernel_deprecated_mounts_total", "counter",
		  "Mount attempts of the deprecated item since boot or module load (/sys/fs/deprecated/ITEM/mounts)." },
		{ "refused", "fsaudit_kernel_deprecated_refused_total", "counter",
		  "Mounts and changes to read-write of the item refused by the policy (/sys/fs/deprecated/ITEM/refused)." },
		{ "active", "fsaudit_kernel_deprecated_active", "gauge",
		  "Superblocks with the item mounted now (/sys/fs/deprecated/ITEM/active)." },
		{ "loaded", "fsaudit_kernel_deprecated_loaded", "gauge",
		  "The item's driver is loaded (/sys/fs/deprecated/ITEM/loaded)." },
	};
	static const struct { const char *file, *metric, *type, *help; } y2038[] = {
		{ "mounts", "fsaudit_kernel_y2038_mounts_total", "counter",
		  "Mount attempts of superblocks that cannot store times after 2038 (/sys/fs/y2038/mounts)." },
		{ "refused", "fsaudit_kernel_y2038_refused_total", "counter",
		  "Mounts of 2038-limited superblocks refused by fs.y2038_policy (/sys/fs/y2038/refused)." },
		{ "active", "fsaudit_kernel_y2038_active", "gauge",
		  "2038-limited superblocks mounted now (/sys/fs/y2038/active)." },
	};
	char base[PATH_MAX], dir[PATH_MAX + NAME_MAX + 2], v[64];
	struct dirent **items = NULL;
	long long num;
	size_t c, w;
	int n, i, any;

	snprintf(base, sizeof(base), "%s/sys/fs/deprecated", fa->sysroot);
	n = scandir(base, &items, item_dir_filter, alphasort);
	for (c = 0; n > 0 && c < sizeof(ctr) / sizeof(ctr[0]); c++) {
		for (any = 0, i = 0; i < n; i++) {
			snprintf(dir, sizeof(dir), "%s/%s", base, items[i]->d_name);
			if (read_sys_num(dir, ctr[c].file, &num) != 0)
				continue;
			if (!any++)
				prom_head(out, ctr[c].metric, ctr[c].type, ctr[c].help);
			fprintf(out, "%s{", ctr[c].metric);
			prom_label(out, "item", items[i]->d_name, 0);
			fprintf(out, "} %lld\n", num);
		}
	}
	for (any = 0, i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", base, items[i]->d_name);
		if (read_sys_value(dir, "policy", v, sizeof(v)) != 0)
			continue;
		if (!any++)
			prom_head(out, "fsaudit_kernel_deprecated_policy", "gauge",
				  "Policy of the deprecated item, 1 for the current one (/sys/fs/deprecated/ITEM/policy).");
		for (w = 0; w < N_POLICY_WORDS; w++) {
			fputs("fsaudit_kernel_deprecated_policy{", out);
			prom_label(out, "item", items[i]->d_name, 0);
			prom_label(out, "policy", policy_words[w], 1);
			fprintf(out, "} %d\n", strcmp(v, policy_words[w]) == 0);
		}
	}
	for (any = 0, i = 0; i < n; i++) {
		int64_t t;

		snprintf(dir, sizeof(dir), "%s/%s", base, items[i]->d_name);
		if (read_sys_value(dir, "removal", v, sizeof(v)) != 0 || (t = date_epoch(v)) < 0)
			continue;
		if (!any++)
			prom_head(out, "fsaudit_kernel_deprecated_removal_timestamp_seconds", "gauge",
				  "Upstream removal date of the item (/sys/fs/deprecated/ITEM/removal).");
		fputs("fsaudit_kernel_deprecated_removal_timestamp_seconds{", out);
		prom_label(out, "item", items[i]->d_name, 0);
		fprintf(out, "} %lld\n", (long long) t);
	}
	for (i = 0; i < n; i++)
		free(items[i]);
	if (n >= 0)
		free(items);

	snprintf(base, sizeof(base), "%s/sys/fs/y2038", fa->sysroot);
	for (c = 0; c < sizeof(y2038) / sizeof(y2038[0]); c++) {
		if (read_sys_num(base, y2038[c].file, &num) != 0)
			continue;
		prom_head(out, y2038[c].metric, y2038[c].type, y2038[c].help);
		fprintf(out, "%s %lld\n", y2038[c].metric, num);
	}
	/* the sysctls, where readable */
	for (any = 0, c = 0; c < 2; c++) {
		static const char *const names[] = { "deprecated_policy", "y2038_policy" };

		snprintf(base, sizeof(base), "%s/proc/sys/fs", fa->sysroot);
		if (read_sys_value(base, names[c], v, sizeof(v)) != 0)
			continue;
		if (!any++)
			prom_head(out, "fsaudit_kernel_policy", "gauge",
				  "The fs.deprecated_policy and fs.y2038_policy sysctls, 1 for the current value.");
		for (w = 1; w < N_POLICY_WORDS; w++) {
			fputs("fsaudit_kernel_policy{", out);
			prom_label(out, "sysctl", names[c], 0);
			prom_label(out, "policy", policy_words[w], 1);
			fprintf(out, "} %d\n", strcmp(v, policy_words[w]) == 0);
		}
	}
}

/* Prometheus text format (node_exporter textfile collector) */
static void print_prometheus(struct fsaudit *fa, FILE *out)
{
	size_t i, j, k;
	int v, any;
	unsigned long long count[VERDICT_NOMOUNT + 1] = { 0 }, unreadable = 0;
	char *dup = calloc(fa->nrecs + 1, 1);

	if (!dup)
		internal_error("memory", ENOMEM);
	/* one series per source: a repeated argument is reported once */
	for (i = 0; i < fa->nrecs; i++)
		for (j = 0; j < i && !dup[i]; j++)
			if (!dup[j] && strcmp(fa->recs[i].source, fa->recs[j].source) == 0)
				dup[i] = 1;

	prom_head(out, "fsaudit_filesystem_verdict", "gauge",
		  "Verdict of fsaudit for the filesystem, 1 for the current one (ok, 2038-limited, deprecated, removed-from-mainline, kernel-cannot-mount, unknown).");
	for (i = 0; i < fa->nrecs; i++) {
		if (dup[i])
			continue;
		for (v = 0; v <= VERDICT_NOMOUNT; v++) {
			fputs("fsaudit_filesystem_verdict{", out);
			prom_src_labels(out, &fa->recs[i]);
			prom_label(out, "verdict", fsa_verdict_names[v], 1);
			fprintf(out, "} %d\n", fa->recs[i].verdict == v);
		}
	}
	prom_head(out, "fsaudit_filesystem_at_risk", "gauge",
		  "1 when the verdict is not ok and not unknown.");
	for (i = 0; i < fa->nrecs; i++) {
		if (dup[i])
			continue;
		fputs("fsaudit_filesystem_at_risk{", out);
		prom_src_labels(out, &fa->recs[i]);
		fprintf(out, "} %d\n", fa->recs[i].verdict > VERDICT_OK);
	}
	prom_head(out, "fsaudit_filesystem_unreadable", "gauge",
		  "1 when the source could not be read.");
	for (i = 0; i < fa->nrecs; i++) {
		if (dup[i])
			continue;
		fputs("fsaudit_filesystem_unreadable{", out);
		prom_src_labels(out, &fa->recs[i]);
		fprintf(out, "} %d\n", fa->recs[i].error);
	}
	for (k = 0; k < 3; k++) {
		static const char *const names[] = {
			"fsaudit_filesystem_time_min_seconds",
			"fsaudit_filesystem_time_max_seconds",
			"fsaudit_filesystem_kernel_time_max_seconds" };
		static const char *const helps[] = {
			"Earliest time the on-disk format can store, seconds since the epoch.",
			"Latest time the on-disk format can store, seconds since the epoch.",
			"The kernel's s_time_max for the superblock (later times are clamped to it)." };

		for (any = 0, i = 0; i < fa->nrecs; i++) {
			const struct record *rec = &fa->recs[i];

			if (dup[i] || !rec->has_limits)
				continue;
			if (!any++)
				prom_head(out, names[k], "gauge", helps[k]);
			fprintf(out, "%s{", names[k]);
			prom_src_labels(out, rec);
			fprintf(out, "} %lld\n", (long long) (k == 0 ? rec->time_min
					: k == 1 ? rec->time_max : rec->s_time_max));
		}
	}
	for (any = 0, i = 0; i < fa->nrecs; i++) {
		int64_t t = date_epoch(fa->recs[i].removal);

		if (dup[i] || t < 0)
			continue;
		if (!any++)
			prom_head(out, "fsaudit_filesystem_removal_timestamp_seconds", "gauge",
				  "Earliest upstream removal date of a deprecated item that applies.");
		fputs("fsaudit_filesystem_removal_timestamp_seconds{", out);
		prom_src_labels(out, &fa->recs[i]);
		fprintf(out, "} %lld\n", (long long) t);
	}
	for (any = 0, i = 0; i < fa->nrecs; i++) {
		char *p, *save = NULL, *list;

		if (dup[i] || !fa->recs[i].deps[0])
			continue;
		if (!any++)
			prom_head(out, "fsaudit_filesystem_deprecated_item", "gauge",
				  "Deprecated items (as in /sys/fs/deprecated) that apply to the filesystem.");
		list = xstrdup(fa->recs[i].deps);
		for (p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
			fputs("fsaudit_filesystem_deprecated_item{", out);
			prom_src_labels(out, &fa->recs[i]);
			prom_label(out, "item", p, 1);
			fputs("} 1\n", out);
		}
		free(list);
	}
	for (any = 0, i = 0; i < fa->nrecs; i++) {
		if (dup[i] || fa->recs[i].kernel_can_mount < 0)
			continue;
		if (!any++)
			prom_head(out, "fsaudit_filesystem_kernel_can_mount", "gauge",
				  "1 when the running kernel's configuration can mount the (unmounted) filesystem.");
		fputs("fsaudit_filesystem_kernel_can_mount{", out);
		prom_src_labels(out, &fa->recs[i]);
		fprintf(out, "} %d\n", fa->recs[i].kernel_can_mount);
	}
	for (i = 0; i < fa->nrecs; i++) {
		if (dup[i])
			continue;
		if (fa->recs[i].error)
			unreadable++;
		else
			count[fa->recs[i].verdict]++;
	}
	prom_head(out, "fsaudit_filesystems", "gauge",
		  "Audited filesystems by verdict (unreadable sources not included).");
	for (v = 0; v <= VERDICT_NOMOUNT; v++) {
		fputs("fsaudit_filesystems{", out);
		prom_label(out, "verdict", fsa_verdict_names[v], 0);
		fprintf(out, "} %llu\n", count[v]);
	}
	prom_head(out, "fsaudit_sources_unreadable", "gauge", "Sources that could not be read.");
	fprintf(out, "fsaudit_sources_unreadable %llu\n", unreadable);
	if (fa->series)
		prometheus_kernel(fa, out);
	free(dup);
}

/* "N sources: N at risk (N deprecated, ...), N ok, N unknown, N unreadable" */
static void print_summary(struct fsaudit *fa, FILE *out)
{
	unsigned long count[VERDICT_NOMOUNT + 1] = { 0 }, unreadable = 0, risk = 0;
	size_t i;
	int v, first = 1;

	for (i = 0; i < fa->nrecs; i++) {
		if (fa->recs[i].error)
			unreadable++;
		else
			count[fa->recs[i].verdict]++;
		if (fa->recs[i].verdict > VERDICT_OK)
			risk++;
	}
	fprintf(out, "%zu source%s: %lu at risk", fa->nrecs, fa->nrecs == 1 ? "" : "s", risk);
	for (v = VERDICT_NOMOUNT; v > VERDICT_OK; v--) {
		if (!count[v])
			continue;
		fprintf(out, "%s%lu %s", first ? " (" : ", ", count[v], fsa_verdict_names[v]);
		first = 0;
	}
	fprintf(out, "%s, %lu ok, %lu unknown, %lu unreadable\n", first ? "" : ")",
		count[VERDICT_OK], count[VERDICT_UNKNOWN], unreadable);
}

/* @s word-wrapped to lines of at most @width bytes ('\n' between lines);
 * a word longer than a line is split */
static char *word_wrap(const char *s, size_t width)
{
	char *out = malloc(strlen(s) * 2 + 2), *o = out;
	size_t col = 0;

	if (!out)
		internal_error("memory", ENOMEM);
	while (*s == ' ')
		s++;
	while (*s) {
		size_t wlen = strcspn(s, " ");

		if (col && col + 1 + wlen > width) {
			*o++ = '\n';
			col = 0;
		} else if (col) {
			*o++ = ' ';
			col++;
		}
		while (col + wlen > width) {
			size_t n = width - col;

			memcpy(o, s, n);
			o += n;
			s += n;
			wlen -= n;
			*o++ = '\n';
			col = 0;
		}
		memcpy(o, s, wlen);
		o += wlen;
		col += wlen;
		s += wlen;
		while (*s == ' ')
			s++;
	}
	*o = '\0';
	return out;
}

/* Word-wrap the last column to the width libsmartcols gives it: lay the
 * table out once into /dev/null, read that width, wrap every cell of the
 * column at spaces to it; the real print then splits the cells at the
 * newlines (scols_wrapnl_*) and keeps the same layout. */
static void wrap_last_column(struct fsaudit *fa)
{
	struct libscols_column *cl = scols_table_get_column(fa->tb, ncolumns - 1);
	struct libscols_iter *itr;
	struct libscols_line *ln;
	FILE *null = fopen("/dev/null", "we");
	size_t width;

	if (!null)
		return;		/* libsmartcols cuts the words where it must */
	scols_table_set_stream(fa->tb, null);
	scols_print_table(fa->tb);
	fclose(null);
	scols_table_set_stream(fa->tb, stdout);
	width = scols_column_get_width(cl);
	if (!width)
		return;
	itr = scols_new_iter(SCOLS_ITER_FORWARD);
	if (!itr)
		internal_error("table", ENOMEM);
	while (scols_table_next_line(fa->tb, itr, &ln) == 0) {
		const char *d = scols_cell_get_data(scols_line_get_cell(ln, ncolumns - 1));
		char *w;

		if (!d || strlen(d) <= width)
			continue;
		w = word_wrap(d, width);
		if (scols_line_set_data(ln, ncolumns - 1, w))
			internal_error("table", ENOMEM);
		free(w);
	}
	scols_free_iter(itr);
}

struct outopts {
	int json, raw, pairs, noheadings, notruncate, quiet, prometheus;
	int wrap;		/* a table laid out for a width: terminal or -w */
	int summary;		/* -1 auto (at a terminal), 0 never, 1 always */
	unsigned long width;	/* -w, 0 for the terminal's */
};

static void init_table(struct fsaudit *fa, const struct outopts *o)
{
	size_t i;

	fa->tb = scols_new_table();
	if (!fa->tb)
		internal_error("table", ENOMEM);
	scols_table_set_name(fa->tb, "filesystems");
	scols_table_enable_json(fa->tb, o->json);
	scols_table_enable_raw(fa->tb, o->raw);
	scols_table_enable_export(fa->tb, o->pairs);
	scols_table_enable_shellvar(fa->tb, o->pairs);
	scols_table_enable_noheadings(fa->tb, o->noheadings);
	if (o->width) {
		scols_table_set_termwidth(fa->tb, o->width);
		scols_table_set_termforce(fa->tb, SCOLS_TERMFORCE_ALWAYS);
	}

	for (i = 0; i < ncolumns; i++) {
		const struct colinfo *ci = &infos[columns[i]];
		struct libscols_column *cl;
		int flags = ci->flags;

		/* the last column wraps instead of being cut (text columns) */
		if (i == ncolumns - 1 && (flags & SCOLS_FL_TRUNC) && o->wrap)
			flags = (flags & ~SCOLS_FL_TRUNC) | SCOLS_FL_WRAP;
		if (o->json || o->raw || o->pairs || o->notruncate)
			flags &= ~(SCOLS_FL_TRUNC | SCOLS_FL_WRAP);
		cl = scols_table_new_column(fa->tb, ci->name, ci->whint, flags);
		if (!cl)
			internal_error("table", ENOMEM);
		if (o->json)
			scols_column_set_json_type(cl, ci->json_type);
		if (flags & SCOLS_FL_WRAP) {
			scols_column_set_wrapfunc(cl, scols_wrapnl_chunksize,
						  scols_wrapnl_nextchunk, NULL);
			scols_column_set_safechars(cl, "\n");
		}
	}
}

int main(int argc, char **argv)
{
	struct fsaudit fa = { .ext2_driver = -1, .sysroot = "" };
	struct outopts o = { .summary = -1 };
	int c, all = 0, i, listcols = 0, rc;
	const char *outarg = NULL;
	char *end;

	enum { OPT_SYSROOT = CHAR_MAX + 1, OPT_EXT2_DRIVER, OPT_PROMETHEUS,
	       OPT_UNREADABLE_UNKNOWN, OPT_KERNEL_CONFIG };
	static const struct option longopts[] = {
		{ "all",          no_argument,       NULL, 'a' },
		{ "at-risk",      no_argument,       NULL, 'R' },
		{ "json",         no_argument,       NULL, 'J' },
		{ "pairs",        no_argument,       NULL, 'P' },
		{ "raw",          no_argument,       NULL, 'r' },
		{ "noheadings",   no_argument,       NULL, 'n' },
		{ "output",       required_argument, NULL, 'o' },
		{ "list-columns", no_argument,       NULL, 'H' },
		{ "width",        required_argument, NULL, 'w' },
		{ "notruncate",   no_argument,       NULL, 'u' },
		{ "summary",      optional_argument, NULL, 'S' },
		{ "quiet",        no_argument,       NULL, 'q' },
		{ "prometheus",   no_argument,       NULL, OPT_PROMETHEUS },
		{ "unreadable-unknown", no_argument, NULL, OPT_UNREADABLE_UNKNOWN },
		{ "mountinfo",    required_argument, NULL, 'F' },
		{ "type",         required_argument, NULL, 't' },
		{ "sysroot",      required_argument, NULL, OPT_SYSROOT },
		{ "kernel-config", required_argument, NULL, OPT_KERNEL_CONFIG },
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

	/* getopt's messages name argv[0]: "fsaudit:", not the full path */
	argv[0] = program_invocation_short_name;
	while ((c = getopt_long(argc, argv, "aRJPrno:Hw:uS::qF:t:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': all = 1; break;
		case 'R': fa.at_risk_only = 1; break;
		case 'J': o.json = 1; break;
		case 'P': o.pairs = 1; break;
		case 'r': o.raw = 1; break;
		case 'n': o.noheadings = 1; break;
		case 'o': outarg = optarg; break;
		case 'H': listcols = 1; break;
		case 'w':
			errno = 0;
			o.width = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || optarg[0] == '-' || o.width < 1 || o.width > 100000)
				bad_usage("--width: '%s' is not a width (1-100000)", optarg);
			break;
		case 'u': o.notruncate = 1; break;
		case 'S':
			if (!optarg || strcmp(optarg, "always") == 0)
				o.summary = 1;
			else if (strcmp(optarg, "auto") == 0)
				o.summary = -1;
			else if (strcmp(optarg, "never") == 0)
				o.summary = 0;
			else
				bad_usage("--summary: '%s' is not always, auto or never", optarg);
			break;
		case 'q': o.quiet = 1; break;
		case OPT_PROMETHEUS: o.prometheus = 1; break;
		case OPT_UNREADABLE_UNKNOWN: fa.unreadable_unknown = 1; break;
		case OPT_KERNEL_CONFIG: fa.kconfig_file = optarg; break;
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
#ifdef FSAUDIT_STATIC
			printf("%s from fsdeprecate %s (static: libblkid %s, built-in mount table and output)\n",
			       program_invocation_short_name, FSAUDIT_VERSION, BLKID_VERSION);
#else
			printf("%s from fsdeprecate %s (libblkid %s, libmount %s, libsmartcols %s)\n",
			       program_invocation_short_name, FSAUDIT_VERSION,
			       BLKID_VERSION, LIBMOUNT_VERSION, LIBSMARTCOLS_VERSION);
#endif
			return FSA_EXIT_OK;
		default:
			fprintf(stderr, "Try '%s --help' for more information.\n",
				program_invocation_short_name);
			return FSA_EXIT_USAGE;
		}
	}
	if (o.json + o.raw + o.pairs + o.prometheus > 1)
		bad_usage("--json, --raw, --pairs and --prometheus are mutually exclusive");
	if (listcols) {
		list_columns(o.json);
		return FSA_EXIT_OK;
	}
	if (all && optind < argc)
		bad_usage("--all does not take device arguments");
	if (outarg)
		parse_columns(outarg);
	if (o.summary < 0)
		o.summary = !o.json && !o.raw && !o.pairs && !o.prometheus && !o.quiet
			    && isatty(STDOUT_FILENO);

	fa.series = fsa_items_load(fa.sysroot);
	fa.has_ext2_driver = fa.ext2_driver;	/* -1: find out when needed */
	fa.json = o.json;
	o.wrap = !o.json && !o.raw && !o.pairs && !o.notruncate && !o.prometheus
		 && (o.width || isatty(STDOUT_FILENO));

	init_table(&fa, &o);

	if (optind < argc) {
		for (i = optind; i < argc; i++)
			audit_argument(&fa, argv[i]);
	} else {
		audit_mounted(&fa);
		if (all)
			audit_all_blockdevs(&fa);
	}

	/* at a terminal: the short identifying columns keep their data's width
	 * (up to a cap), the wide text columns are cut or wrapped first */
	for (i = 0; i + 1 < (int) ncolumns; i++) {
		size_t cap = columns[i] == COL_SOURCE ? 40 : columns[i] == COL_FORMAT ? 24
			     : columns[i] == COL_TARGET ? 20 : columns[i] == COL_FSTYPE ? 10 : 0;

		if (cap && colmax[i])
			scols_column_set_whint(scols_table_get_column(fa.tb, i),
					       (double) (colmax[i] < cap ? colmax[i] : cap));
	}

	if (o.wrap && ncolumns && (infos[columns[ncolumns - 1]].flags & SCOLS_FL_TRUNC))
		wrap_last_column(&fa);

	if (o.prometheus) {
		if (!o.quiet)
			print_prometheus(&fa, stdout);
	} else if (!o.quiet && (fa.nrows || o.json))
		scols_print_table(fa.tb);
	if (o.summary && !o.json && !o.raw && !o.pairs && !o.prometheus)
		print_summary(&fa, stdout);
	scols_unref_table(fa.tb);
	mnt_unref_table(fa.mnt);
	free(fa.seen);
	for (i = 0; i < (int) fa.nrecs; i++) {
		free(fa.recs[i].source);
		free(fa.recs[i].target);
		free(fa.recs[i].fstype);
		free(fa.recs[i].format);
		free(fa.recs[i].deps);
	}
	free(fa.recs);
	free(fa.kconfig);

	if (fflush(stdout) != 0 || ferror(stdout))
		internal_error("stdout", errno ? errno : EIO);
	rc = fa.nrisk ? FSA_EXIT_AT_RISK : FSA_EXIT_OK;
	if (fa.nerrors)
		rc = FSA_EXIT_ERROR;
	return rc;
}
