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
	for (i = 0; i < fsa_ncolumns_all(); i++)
		fprintf(out, " %14s  %s\n", fsa_column_name(i), fsa_column_help(i));
	fputs("\nExit status: 0 nothing at risk, 1 at least one filesystem at risk,\n"
	      "2 a source could not be read (wins over 1; not with --unreadable-unknown),\n"
	      "3 bad usage, 4 internal error.\n"
	      "\nFor more details see fsaudit(8).\n", out);
	exit(FSA_EXIT_OK);
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
	struct fsa_outopts o = { .summary = -1 };
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

	setlocale(LC_ALL, "");
	fsa_set_default_columns();

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
			if (!fsa_prober_for_type(optarg))
				fsa_bad_usage("--type: no prober for '%s'", optarg);
			fa.force_type = optarg;
			break;
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
		fsa_bad_usage("--json, --raw, --pairs and --prometheus are mutually exclusive");
	if (listcols) {
		fsa_list_columns(o.json);
		return FSA_EXIT_OK;
	}
	if (all && optind < argc)
		fsa_bad_usage("--all does not take device arguments");
	if (outarg)
		fsa_parse_columns(outarg);
	if (o.summary < 0)
		o.summary = !o.json && !o.raw && !o.pairs && !o.prometheus && !o.quiet
			    && isatty(STDOUT_FILENO);

	fa.series = fsa_items_load(fa.sysroot);
	fa.has_ext2_driver = fa.ext2_driver;	/* -1: find out when needed */
	o.wrap = !o.json && !o.raw && !o.pairs && !o.notruncate && !o.prometheus
		 && (o.width || isatty(STDOUT_FILENO));

	if (optind < argc) {
		for (i = optind; i < argc; i++)
			fsa_audit_argument(&fa, argv[i]);
	} else {
		fsa_audit_mounted(&fa);
		if (all)
			fsa_audit_all_blockdevs(&fa);
	}

	if (o.prometheus) {
		if (!o.quiet)
			fsa_print_prometheus(&fa, stdout);
	} else
		fsa_print_table(&fa, &o);
	if (o.summary && !o.json && !o.raw && !o.pairs && !o.prometheus)
		fsa_print_summary(&fa, stdout);
	mnt_unref_table(fa.mnt);
	free(fa.seen);
	fsa_free_records(&fa);
	free(fa.kconfig);

	if (fflush(stdout) != 0 || ferror(stdout))
		fsa_internal_error("stdout", errno ? errno : EIO);
	rc = fa.nrisk ? FSA_EXIT_AT_RISK : FSA_EXIT_OK;
	if (fa.nerrors)
		rc = FSA_EXIT_ERROR;
	return rc;
}
