// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - audit mounted filesystems, block devices and image files for
 * deprecated or 2038-limited on-disk formats.
 *
 * libmount reads the mount table, libblkid identifies (read-only, nothing
 * is mounted), the probers in probers/ read what libblkid does not report
 * (ext revision and inode size, XFS V4/V5, bigtime, ascii-ci, reiserfs
 * 3.5/3.6, ...), libsmartcols prints -- as findmnt and lsblk do.  This
 * file: the options and the run; see fsaudit.h for the other parts.
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <blkid.h>
#include <libmount.h>
#include <libsmartcols.h>

#include "fsaudit.h"

static void __attribute__((__noreturn__)) usage(void)
{
	FILE *out = stdout;
	size_t i;

	fputs("\nUsage:\n", out);
	fprintf(out, " %s [options] [<device>|<file>|<file>:p<N>|<directory> ...]\n",
		program_invocation_short_name);
	fprintf(out, " %s [options] --fstab [<file>]\n", program_invocation_short_name);
	fprintf(out, " %s --udev <device>\n", program_invocation_short_name);
	fputs("\nAudit filesystems for deprecated or 2038-limited on-disk formats.\n"
	      "Without arguments: every mounted filesystem.  An image file with a\n"
	      "partition table: every partition (IMAGE:pN, also accepted as an\n"
	      "argument).  A directory: the filesystem it is on.\n", out);
	fputs("\nOptions:\n"
	      " -a, --all                also every block device that holds a filesystem\n"
	      " -R, --at-risk            print only filesystems whose verdict is neither\n"
	      "                          ok nor unknown (the exit status is the same)\n"
	      " -t, --types <list>       only filesystems of these types (comma-separated;\n"
	      "                          \"no\" before each to exclude them)\n"
	      "     --fstab[=<file>]     check the entries of /etc/fstab (or <file>) before\n"
	      "                          a boot: refused or read-only mounts, nofail\n"
	      "     --policy <list>      preview the kernel's mount policies: <mode>,\n"
	      "                          deprecated:<mode>, y2038:<mode>, <item>:<mode>\n"
	      "                          (modes allow, warn, ro, deny)\n"
	      "     --udev <device>      print udev properties of <device> (UDISKS_AUTO)\n"
	      " -J, --json               use JSON output format\n"
	      " -P, --pairs              use key=\"value\" output format\n"
	      " -r, --raw                use raw output format\n"
	      " -n, --noheadings         don't print headings\n"
	      " -o, --output <list>      output columns (+LIST appends to the default)\n"
	      " -H, --list-columns       list the available columns (with -J: in JSON)\n"
	      "     --list-types         list the filesystem types fsaudit knows\n"
	      " -s, --sort <column>      sort the filesystems by <column>\n"
	      "     --time-format <fmt>  iso (default), full or date\n"
	      " -w, --width <num>        lay the table out for <num> columns (default:\n"
	      "                          the terminal's)\n"
	      " -u, --notruncate         one line per filesystem, whatever the width\n"
	      " -S, --summary[=<when>]   one-line summary after the table: always (-S),\n"
	      "                          auto (at a terminal, the default) or never\n"
	      " -q, --quiet              no table, only the exit status (and -S)\n"
	      "     --prometheus         Prometheus text format (node_exporter textfile)\n"
	      "     --unreadable-unknown an unreadable source is unknown, not exit 2\n"
	      "     --kernel-config <file>\n"
	      "                          the running kernel's configuration (default:\n"
	      "                          /proc/config.gz, /boot/config-$(uname -r))\n"
	      "     --force-type <type>  skip libblkid, probe as <type> (e.g. xfs)\n"
	      " -F, --mountinfo <file>   read the mount table from <file>\n"
	      "     --sysroot <dir>      use <dir> as the root for /proc, /sys, /dev, /etc\n"
	      "     --ext2-driver <auto|ext2|ext4>\n"
	      "                          driver that mounts unmounted ext2 filesystems\n"
	      "\n"
	      " -h, --help               display this help\n"
	      " -V, --version            display version\n", out);
	fputs("\nAvailable output columns:\n", out);
	for (i = 0; i < fsa_ncolumns_all(); i++)
		fprintf(out, " %14s  %s\n", fsa_column_name(i), fsa_column_help(i));
	fputs("\nExit status: 0 nothing at risk, 1 at least one filesystem at risk,\n"
	      "2 a source or an input file could not be read, or nothing was audited\n"
	      "(wins over 1), 3 bad usage, 4 internal error.\n"
	      "\nFor more details see fsaudit(8).\n", out);
	exit(FSA_EXIT_OK);
}

/* --list-types: every type a prober or the type table knows, sorted */
static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

static void list_types(void)
{
	const char *names[256];
	size_t n = 0, i, j;

	for (i = 0; fsa_probers[i]; i++)
		for (j = 0; fsa_probers[i]->types[j] && n < 256; j++)
			names[n++] = fsa_probers[i]->types[j];
	for (i = 0; fsa_bytype_type(i) && n < 256; i++)
		names[n++] = fsa_bytype_type(i);
	qsort(names, n, sizeof(names[0]), cmpstr);
	for (i = 0; i < n; i++)
		if (!i || strcmp(names[i], names[i - 1]) != 0)
			puts(names[i]);
}

/* the terminal's width, 0 when the output is not a terminal */
static unsigned long terminal_width(void)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS");

	if (!isatty(STDOUT_FILENO))
		return 0;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col)
		return ws.ws_col;
	if (c && strtoul(c, NULL, 10) > 0)
		return strtoul(c, NULL, 10);
	return 80;
}

void fsa_bad_usage(const char *fmt, ...)
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

void fsa_internal_error(const char *what, int rc)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what,
		strerror(rc < 0 ? -rc : rc));
	exit(FSA_EXIT_INTERNAL);
}

char *fsa_xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		fsa_internal_error("memory", ENOMEM);
	return d;
}

int main(int argc, char **argv)
{
	struct fsaudit fa = { .ext2_driver = -1, .sysroot = "" };
	struct fsa_outopts o = { .summary = -1, .sort = -1 };
	int c, all = 0, i, listcols = 0, listtypes = 0, fstab = 0, rc;
	const char *outarg = NULL, *policy = NULL, *fstab_file = NULL, *udev = NULL;
	const char *sortarg = NULL;
	size_t k, naudited = 0;
	char *end;

	enum { OPT_SYSROOT = CHAR_MAX + 1, OPT_EXT2_DRIVER, OPT_PROMETHEUS,
	       OPT_UNREADABLE_UNKNOWN, OPT_KERNEL_CONFIG, OPT_FORCE_TYPE, OPT_POLICY,
	       OPT_FSTAB, OPT_UDEV, OPT_TIME_FORMAT, OPT_LIST_TYPES };
	static const struct option longopts[] = {
		{ "all",          no_argument,       NULL, 'a' },
		{ "at-risk",      no_argument,       NULL, 'R' },
		{ "json",         no_argument,       NULL, 'J' },
		{ "pairs",        no_argument,       NULL, 'P' },
		{ "raw",          no_argument,       NULL, 'r' },
		{ "noheadings",   no_argument,       NULL, 'n' },
		{ "output",       required_argument, NULL, 'o' },
		{ "list-columns", no_argument,       NULL, 'H' },
		{ "list-types",   no_argument,       NULL, OPT_LIST_TYPES },
		{ "sort",         required_argument, NULL, 's' },
		{ "time-format",  required_argument, NULL, OPT_TIME_FORMAT },
		{ "width",        required_argument, NULL, 'w' },
		{ "notruncate",   no_argument,       NULL, 'u' },
		{ "summary",      optional_argument, NULL, 'S' },
		{ "quiet",        no_argument,       NULL, 'q' },
		{ "prometheus",   no_argument,       NULL, OPT_PROMETHEUS },
		{ "unreadable-unknown", no_argument, NULL, OPT_UNREADABLE_UNKNOWN },
		{ "mountinfo",    required_argument, NULL, 'F' },
		{ "types",        required_argument, NULL, 't' },
		{ "force-type",   required_argument, NULL, OPT_FORCE_TYPE },
		{ "fstab",        optional_argument, NULL, OPT_FSTAB },
		{ "policy",       required_argument, NULL, OPT_POLICY },
		{ "udev",         required_argument, NULL, OPT_UDEV },
		{ "sysroot",      required_argument, NULL, OPT_SYSROOT },
		{ "kernel-config", required_argument, NULL, OPT_KERNEL_CONFIG },
		{ "ext2-driver",  required_argument, NULL, OPT_EXT2_DRIVER },
		{ "help",         no_argument,       NULL, 'h' },
		{ "version",      no_argument,       NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};

	setlocale(LC_ALL, "");
	fsa_set_default_columns();

	/* getopt's messages name argv[0]: "fsaudit:", not the full path */
	argv[0] = program_invocation_short_name;
	while ((c = getopt_long(argc, argv, "aRJPrno:Hs:w:uS::qF:t:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': all = 1; break;
		case 'R': fa.at_risk_only = 1; break;
		case 'J': o.json = 1; break;
		case 'P': o.pairs = 1; break;
		case 'r': o.raw = 1; break;
		case 'n': o.noheadings = 1; break;
		case 'o': outarg = optarg; break;
		case 'H': listcols = 1; break;
		case OPT_LIST_TYPES: listtypes = 1; break;
		case 's': sortarg = optarg; break;
		case OPT_TIME_FORMAT:
			if (strcmp(optarg, "iso") == 0)
				o.time_format = FSA_TIME_ISO;
			else if (strcmp(optarg, "full") == 0)
				o.time_format = FSA_TIME_FULL;
			else if (strcmp(optarg, "date") == 0)
				o.time_format = FSA_TIME_DATE;
			else
				fsa_bad_usage("--time-format: '%s' is not iso, full or date", optarg);
			break;
		case 'w':
			errno = 0;
			o.width = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || optarg[0] == '-' || o.width < 1 || o.width > 100000)
				fsa_bad_usage("--width: '%s' is not a width (1-100000)", optarg);
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
				fsa_bad_usage("--summary: '%s' is not always, auto or never", optarg);
			break;
		case 'q': o.quiet = 1; break;
		case OPT_PROMETHEUS: o.prometheus = 1; break;
		case OPT_UNREADABLE_UNKNOWN: fa.unreadable_unknown = 1; break;
		case OPT_KERNEL_CONFIG: fa.kconfig_file = optarg; break;
		case 'F': fa.mountinfo = optarg; break;
		case 't':
			if (!*optarg || optarg[strlen(optarg) - 1] == ',' || strstr(optarg, ",,"))
				fsa_bad_usage("--types: '%s' is not a list of types", optarg);
			fa.types = optarg;
			break;
		case OPT_FORCE_TYPE:
			if (!fsa_prober_for_type(optarg))
				fsa_bad_usage("--force-type: no prober for '%s'", optarg);
			fa.force_type = optarg;
			break;
		case OPT_FSTAB:
			fstab = 1;
			fstab_file = optarg;
			break;
		case OPT_POLICY: policy = optarg; break;
		case OPT_UDEV: udev = optarg; break;
		case OPT_SYSROOT:
			if (!*optarg)
				fsa_bad_usage("--sysroot needs a directory");
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
				fsa_bad_usage("--ext2-driver: '%s' is not auto, ext2 or ext4", optarg);
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
	if (o.json + o.raw + o.pairs + o.prometheus > 1)
		fsa_bad_usage("--json, --raw, --pairs and --prometheus are mutually exclusive");
	if (listcols) {
		fsa_list_columns(o.json);
		return FSA_EXIT_OK;
	}
	if (listtypes) {
		list_types();
		return FSA_EXIT_OK;
	}
	if (all + fstab + !!udev > 1)
		fsa_bad_usage("--all, --fstab and --udev are mutually exclusive");
	if ((all || udev) && optind < argc)
		fsa_bad_usage("--%s does not take device arguments", all ? "all" : "udev");
	if (fstab && optind < argc)
		fsa_bad_usage("--fstab takes its file as --fstab=FILE");
	if (udev && (o.json || o.raw || o.pairs || o.prometheus || outarg))
		fsa_bad_usage("--udev prints udev properties only");
	if (fstab)
		fsa_fstab_columns();
	if (outarg) {
		fsa_parse_columns(outarg);
		o.columns_given = outarg[0] != '+';
	}
	if (sortarg && (o.sort = fsa_column_id(sortarg)) < 0)
		fsa_bad_usage("--sort: unknown column: %s", sortarg);
	if (o.summary < 0)
		o.summary = !o.json && !o.raw && !o.pairs && !o.prometheus && !o.quiet && !udev
			    && isatty(STDOUT_FILENO);
	if (!o.width)
		o.width = terminal_width();

	fa.series = fsa_items_load(fa.sysroot);
	fa.has_ext2_driver = fa.ext2_driver;	/* -1: find out when needed */
	fsa_policy_load(&fa);
	if (policy && fsa_policy_preview(&fa, policy) != 0)
		fsa_bad_usage("--policy: '%s' is not MODE, deprecated:MODE, y2038:MODE or ITEM:MODE "
			      "(MODE: allow, warn, ro, deny)", policy);
	rc = fsa_kconfig_require(&fa);
	if (rc) {
		fprintf(stderr, "%s: cannot read %s: %s\n", program_invocation_short_name,
			fa.kconfig_file, rc == -EINVAL ? "not a kernel configuration" : strerror(-rc));
		return FSA_EXIT_ERROR;
	}

	if (udev) {
		fa.udev = 1;
		fsa_audit_argument(&fa, udev);
	} else if (fstab) {
		char path[PATH_MAX];

		if (!fstab_file) {
			snprintf(path, sizeof(path), "%s/etc/fstab", fa.sysroot);
			fstab_file = path;
		}
		if (fsa_audit_fstab(&fa, fstab_file) != 0)
			return FSA_EXIT_ERROR;
	} else if (optind < argc) {
		for (i = optind; i < argc; i++)
			fsa_audit_argument(&fa, argv[i]);
	} else {
		fsa_audit_mounted(&fa);
		if (all)
			fsa_audit_all_blockdevs(&fa);
	}
	for (k = 0; k < fa.nrecs; k++)
		naudited += !fa.recs[k].unreadable;

	if (udev)
		rc = fsa_print_udev(&fa, stdout);
	else {
		if (o.prometheus) {
			if (!o.quiet)
				fsa_print_prometheus(&fa, stdout);
		} else
			fsa_print_table(&fa, &o);
		if (o.summary && !o.json && !o.raw && !o.pairs && !o.prometheus)
			fsa_print_summary(&fa, &o, stdout);
		rc = fa.nrisk ? FSA_EXIT_AT_RISK : FSA_EXIT_OK;
		if (fa.nerrors)
			rc = FSA_EXIT_ERROR;
		/* an empty audit is not a clean one */
		if (!naudited && !fa.naudited_filtered) {
			fprintf(stderr, "%s: %s\n", program_invocation_short_name, fa.nrecs
				? "nothing could be audited" : "no filesystem to audit");
			rc = FSA_EXIT_ERROR;
		}
	}
	mnt_unref_table(fa.mnt);
	free(fa.seen);
	fsa_free_records(&fa);
	free(fa.kconfig);

	if (fflush(stdout) != 0 || ferror(stdout))
		fsa_internal_error("stdout", errno ? errno : EIO);
	return rc;
}
