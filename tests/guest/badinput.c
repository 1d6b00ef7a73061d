// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * badinput: every file of the deprecation series written with bad input.
 *
 *   badinput [--boot-only] --boot-dep WORD --boot-y2038 WORD
 *
 * Boot parameters: fs_deprecated_policy= and fs_y2038_policy= (and
 * sysctl.fs.*= ) on /proc/cmdline are replayed by the documented rules
 * (Documentation/admin-guide/kernel-parameters.txt, deprecation.rst): a
 * valid word sets the policy, an invalid one is reported as
 * "fs-deprecated: invalid NAME=VALUE, keeping OLD" and ignored.  The final
 * values must be the ones given with --boot-dep/--boot-y2038 (what the group
 * expects), and the kernel log must carry exactly the expected lines.
 *
 * Then (unless --boot-only) the sweep: fs.deprecated_policy, fs.y2038_policy
 * and every /sys/fs/deprecated/<item>/policy get each input of cases[] in one
 * write(); the expected outcome per interface is written out in the table,
 * derived from fs/deprecation.c (proc_dostring into an 8-byte word for the
 * sysctls, sysfs_match_string() for the policy files) and checked against
 * the documentation; where the two interfaces differ, the table says so
 * ("differs:").  Then
 * writes split over two write() calls and at nonzero offsets, the read-only
 * files, and writers without CAP_SYS_ADMIN or without root.  Every value is
 * restored at the end.  Output: KTAP on stdout.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#define SYSCTL_DEP	"/proc/sys/fs/deprecated_policy"
#define SYSCTL_Y2038	"/proc/sys/fs/y2038_policy"
#define SYSFS_DEP	"/sys/fs/deprecated"
#define SYSFS_Y2038	"/sys/fs/y2038"
#define STRICT		"/proc/sys/kernel/sysctl_writes_strict"

/* ------------------------------------------------------------------ KTAP */

static int test_nr, any_failed;
static char diag[1 << 16];
static size_t diag_len;

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (diag_len >= sizeof(diag) - 256)
		return;
	va_start(ap, fmt);
	n = vsnprintf(diag + diag_len, sizeof(diag) - diag_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		diag_len += (size_t)n < sizeof(diag) - diag_len ? (size_t)n : 0;
	if (diag_len < sizeof(diag) - 1)
		diag[diag_len++] = '\n';
	diag[diag_len] = '\0';
}

static void flush_diag(void)
{
	char *p = diag, *nl;

	while (diag_len && *p) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		printf("# %s\n", p);
		if (!nl)
			break;
		p = nl + 1;
	}
	diag_len = 0;
	diag[0] = '\0';
}

static void result(bool pass, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void result(bool pass, const char *fmt, ...)
{
	va_list ap;

	flush_diag();
	printf("%s %d ", pass ? "ok" : "not ok", ++test_nr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!pass)
		any_failed = 1;
}

static void skip(const char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void skip(const char *why, const char *fmt, ...)
{
	va_list ap;

	flush_diag();
	printf("ok %d ", ++test_nr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", why);
	fflush(stdout);
}

/* Printable form of bytes for test names: C escapes, runs as N*'c', no '#' */
static const char *show(const char *buf, size_t len)
{
	static char out[4][128];
	static int which;
	char *o = out[which++ & 3];
	size_t i, n = 0, rep;
	bool quoted = false;

	for (i = 0; i < len && n < 96; i++) {
		unsigned char c = buf[i];
		char esc[8];

		if (c == '\n')
			snprintf(esc, sizeof(esc), "\\n");
		else if (c == '\t')
			snprintf(esc, sizeof(esc), "\\t");
		else if (c == '\r')
			snprintf(esc, sizeof(esc), "\\r");
		else if (c == '\0')
			snprintf(esc, sizeof(esc), "\\0");
		else if (c < 0x20 || c >= 0x7f || c == '#' || c == '"' || c == '\\')
			snprintf(esc, sizeof(esc), "\\x%02x", c);
		else
			snprintf(esc, sizeof(esc), "%c", c);
		for (rep = 1; i + rep < len && buf[i + rep] == buf[i]; rep++)
			;
		if (rep > 8) {
			n += snprintf(o + n, 128 - n, "%s%s%zu*'%s'", quoted ? "\"" : "", n ? "+" : "",
				      rep, esc);
			quoted = false;
			i += rep - 1;
			continue;
		}
		if (!quoted)
			n += snprintf(o + n, 128 - n, "%s\"", n ? "+" : "");
		quoted = true;
		n += snprintf(o + n, 128 - n, "%s", esc);
	}
	if (i < len)
		n += snprintf(o + n, 128 - n, "%s...", quoted ? "\"" : "");
	else if (quoted || !len)
		n += snprintf(o + n, 128 - n, "%s\"", len ? "" : "\"");
	return o;
}

/* ------------------------------------------------------------- file I/O */

/* Read a one-line file without the newline; "<errno>" if it cannot be read */
static void read_value(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	if (n < 0) {
		snprintf(buf, size, "<%s>", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
}

/* One open, one write() of @len bytes: the byte count, or -errno */
static long write_bytes(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	long ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, buf, len);
	if (ret < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int set_value(const char *path, const char *word)
{
	long r = write_bytes(path, word, strlen(word));

	return r == (long)strlen(word) ? 0 : -1;
}

static const char *errname(long r)
{
	static char buf[4][32];
	static int which;
	char *b = buf[which++ & 3];

	switch (r) {
	case -EINVAL: return "EINVAL";
	case -EACCES: return "EACCES";
	case -EPERM: return "EPERM";
	case -E2BIG: return "E2BIG";
	case -EIO: return "EIO";
	case -ENOMEM: return "ENOMEM";
	}
	if (r < 0)
		snprintf(b, 32, "errno %ld", -r);
	else
		snprintf(b, 32, "%ld", r);
	return b;
}

/* -------------------------------------------------------- the files */

#define MAX_FILES 32
struct file {
	char path[128];
	char label[64];		/* "fs.deprecated_policy", "reiserfs/policy" */
	bool sysctl;
	char saved[32];
};
static struct file files[MAX_FILES];
static int nr_files;
static char items[MAX_FILES][32];
static int nr_items;

static void add_file(const char *path, const char *label, bool sysctl)
{
	struct file *f = &files[nr_files++];

	snprintf(f->path, sizeof(f->path), "%s", path);
	snprintf(f->label, sizeof(f->label), "%s", label);
	f->sysctl = sysctl;
	read_value(path, f->saved, sizeof(f->saved));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void find_files(void)
{
	DIR *d = opendir(SYSFS_DEP);
	struct dirent *e;
	char path[128], label[64];
	int i;

	add_file(SYSCTL_DEP, "fs.deprecated_policy", true);
	add_file(SYSCTL_Y2038, "fs.y2038_policy", true);
	while (d && (e = readdir(d)) && nr_items < MAX_FILES - 2) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(items[nr_items++], sizeof(items[0]), "%.31s", e->d_name);
	}
	if (d)
		closedir(d);
	qsort(items, nr_items, sizeof(items[0]), cmp_str);
	for (i = 0; i < nr_items; i++) {
		snprintf(path, sizeof(path), SYSFS_DEP "/%.31s/policy", items[i]);
		snprintf(label, sizeof(label), "%.31s/policy", items[i]);
		add_file(path, label, false);
	}
}

/* ------------------------------------------------- boot parameters */

static const char *const words[] = { "allow", "warn", "ro", "deny" };

static bool is_word(const char *s)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, words[i]))
			return true;
	return false;
}

/* The kernel log, one record per line, without "<N>[   t.tttttt] " */
static char *kernel_log(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf, *out, *p, *q;
	int n;

	if (size < 4096)
		size = 1 << 20;
	buf = malloc(size + 1);
	out = malloc(size + 1);
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	for (p = buf, q = out; *p; ) {
		char *nl = strchr(p, '\n');
		char *text = p;

		if (nl)
			*nl = '\0';
		if (*text == '<' && (text = strchr(text, '>')))
			text++;
		else
			text = p;
		if (*text == '[' && strchr(text, ']'))
			text = strchr(text, ']') + 1 + (strchr(text, ']')[1] == ' ');
		q += sprintf(q, "%s\n", text);
		if (!nl)
			break;
		p = nl + 1;
	}
	*q = '\0';
	free(buf);
	return out;
}

static bool log_has_line(const char *log, const char *line)
{
	size_t len = strlen(line);
	const char *p = log;

	while ((p = strstr(p, line))) {
		if ((p == log || p[-1] == '\n') && p[len] == '\n')
			return true;
		p += len;
	}
	return false;
}

static int count_substr(const char *log, const char *s)
{
	int n = 0;

	while ((log = strstr(log, s))) {
		n++;
		log += strlen(s);
	}
	return n;
}

/*
 * A valid ITEM:MODE entry of fs_deprecated_policy=: ITEM (@len bytes of
 * @name) is an item of this kernel, MODE a policy word or "default".
 */
static bool item_entry_valid(const char *name, size_t len, const char *mode)
{
	char path[128];

	if (!len || len > 31 || (!is_word(mode) && strcmp(mode, "default")))
		return false;
	snprintf(path, sizeof(path), SYSFS_DEP "/%.*s", (int)len, name);
	return !strchr(name, '/') && access(path, F_OK) == 0;
}

/* Words in @s, separated by spaces */
static int nr_words(const char *s)
{
	int n = 0;

	for (; *s; s++)
		if (*s != ' ' && (s[1] == ' ' || !s[1]))
			n++;
	return n;
}

static void boot_checks(const char *want_dep, const char *want_y2038)
{
	int nitem_entries = 0;
	char cmdline[4096], *tok, *save = NULL;
	char expect[32][160];
	char unknown[512] = "";
	char dep[16] = "warn", y2038[16] = "warn";	/* the documented defaults */
	char sdep[16] = "", sy2038[16] = "";		/* sysctl.fs.* on the command line */
	char got[32];
	char *log = kernel_log();
	int nexp = 0, i;
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, cmdline, sizeof(cmdline) - 1);

	if (fd >= 0)
		close(fd);
	cmdline[n > 0 ? n : 0] = '\0';
	note("cmdline: %s", strtok(strdup(cmdline), "\n"));

	for (tok = strtok_r(cmdline, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		static const char dep_prefix[] = "fs_deprecated_policy=";
		static const char y2038_prefix[] = "fs_y2038_policy=";
		char *val, *entry;

		if (!strncmp(tok, y2038_prefix, sizeof(y2038_prefix) - 1)) {
			val = tok + sizeof(y2038_prefix) - 1;
			if (is_word(val))
				snprintf(y2038, sizeof(y2038), "%s", val);
			else if (nexp < 32)
				snprintf(expect[nexp++], sizeof(expect[0]),
					 "fs-deprecated: invalid fs_y2038_policy=%s, keeping %s", val, y2038);
			continue;
		}
		if (!strncmp(tok, dep_prefix, sizeof(dep_prefix) - 1)) {
			/* ENTRY[,ENTRY...]: a mode, or ITEM:MODE; tok is cut up in place */
			val = tok + sizeof(dep_prefix) - 1;
			while ((entry = strsep(&val, ","))) {
				char *colon = strchr(entry, ':');

				if (!colon && is_word(entry))
					snprintf(dep, sizeof(dep), "%s", entry);
				else if (colon && item_entry_valid(entry, colon - entry, colon + 1))
					nitem_entries++;
				else if (nexp < 32)
					snprintf(expect[nexp++], sizeof(expect[0]),
						 "fs-deprecated: invalid fs_deprecated_policy entry \"%s\", ignored",
						 entry);
			}
			continue;
		}
		if (!strncmp(tok, "sysctl.fs.deprecated_policy=", 28) ||
		    !strncmp(tok, "sysctl.fs.y2038_policy=", 23)) {
			char *val = strchr(tok, '=') + 1;
			bool isdep = tok[10] == 'd';

			if (is_word(val))
				snprintf(isdep ? sdep : sy2038, 16, "%s", val);
			else if (nexp < 32)
				snprintf(expect[nexp++], sizeof(expect[0]),
					 "Failed to set sysctl parameter '%.*s=%s': invalid value",
					 (int)(strchr(tok, '=') - tok - 7), tok + 7, val);
			continue;
		}
		/* A bare name (no '='): not our parameter, passed to init */
		if (!strcmp(tok, "fs_deprecated_policy") || !strcmp(tok, "fs_y2038_policy"))
			snprintf(unknown + strlen(unknown), sizeof(unknown) - strlen(unknown),
				 "%s%s", unknown[0] ? " " : "", tok);
	}
	/* sysctl.* on the command line applies after the boot parameters */
	if (sdep[0])
		snprintf(dep, sizeof(dep), "%s", sdep);
	if (sy2038[0])
		snprintf(y2038, sizeof(y2038), "%s", sy2038);

	read_value(SYSCTL_DEP, got, sizeof(got));
	if (strcmp(dep, want_dep))
		note("the command line gives %s by the documented rules, the group expects %s",
		     dep, want_dep);
	note("fs.deprecated_policy reads %s", got);
	result(!strcmp(got, want_dep) && !strcmp(dep, want_dep),
	       "boot: fs.deprecated_policy is %s", want_dep);
	read_value(SYSCTL_Y2038, got, sizeof(got));
	if (strcmp(y2038, want_y2038))
		note("the command line gives %s by the documented rules, the group expects %s",
		     y2038, want_y2038);
	note("fs.y2038_policy reads %s", got);
	result(!strcmp(got, want_y2038) && !strcmp(y2038, want_y2038),
	       "boot: fs.y2038_policy is %s", want_y2038);

	for (i = 0; i < nexp; i++) {
		bool found = log_has_line(log, expect[i]);

		if (!found)
			note("not in the kernel log: %s", expect[i]);
		result(found, "boot: kernel log says: %s", show(expect[i], strlen(expect[i])));
	}
	{
		int invalid = count_substr(log, "fs-deprecated: invalid ");
		int want = 0;

		for (i = 0; i < nexp; i++)
			want += !strncmp(expect[i], "fs-deprecated: invalid ", 23);
		note("%d \"fs-deprecated: invalid\" line(s), %d expected", invalid, want);
		result(invalid == want, "boot: %d invalid boot parameter(s) reported, no more", want);
	}
	if (!nitem_entries) {
		/* No valid ITEM:MODE entry: every item follows the general policy */
		bool all_default = nr_items > 0;
		char path[128];

		for (i = 0; i < nr_items; i++) {
			snprintf(path, sizeof(path), SYSFS_DEP "/%.31s/policy", items[i]);
			read_value(path, got, sizeof(got));
			if (strcmp(got, "default")) {
				note("%s reads %s", path, got);
				all_default = false;
			}
		}
		result(all_default, "boot: no valid item entry, the %d items' policies are default",
		       nr_items);
	}
	if (unknown[0]) {
		char line[600];

		/* The notice lists every unknown parameter: check ours are named */
		snprintf(line, sizeof(line), "Unknown kernel command line parameters \"");
		if (!strstr(log, line) || !strstr(strstr(log, line), unknown))
			note("no \"%s...%s\" notice", line, unknown);
		result(strstr(log, line) && strstr(strstr(log, line), unknown),
		       "boot: %s without '=' is left to init (unknown parameter notice), policy kept",
		       unknown);
	}
	free(log);
}

/* ------------------------------------------------------ the sweep */

enum outcome {
	ACC,		/* accepted: returns the length, the value becomes .word */
	INVAL,		/* -EINVAL, the value unchanged */
	ZERO,		/* returns 0, nothing happens */
	ACC4K,		/* accepted with a short write of 4096 bytes (sysfs) */
};

struct expect {
	enum outcome o;
	const char *word;
};

struct wcase {
	const char *what;	/* the class of input, for the name */
	const char *buf;
	size_t len;
	struct expect sysctl, sysfs;
};

#define A(w)	{ ACC, w }
#define E	{ INVAL, NULL }
#define Z	{ ZERO, NULL }
#define S(s)	s, sizeof(s) - 1

static char big_x[5000], big_warn_x[5005], big_deny_nul[5004], big_ro_sp[4096], big_allow[4100];

static struct wcase cases[] = {
	/* empty: a zero-length write() is no write at all */
	{ "empty", S(""), Z, Z },
	{ "newline only", S("\n"), E, E },
	{ "NUL only", S("\0"), E, E },
	{ "NUL first", S("\0ro"), E, E },
	/* the valid words, with and without one trailing newline */
	{ "valid", S("allow"), A("allow"), A("allow") },
	{ "valid", S("warn"), A("warn"), A("warn") },
	{ "valid", S("ro"), A("ro"), A("ro") },
	{ "valid", S("deny"), A("deny"), A("deny") },
	{ "valid + newline", S("allow\n"), A("allow"), A("allow") },
	{ "valid + newline", S("deny\n"), A("deny"), A("deny") },
	{ "valid + newline", S("ro\n"), A("ro"), A("ro") },
	/* "default" is a word of the policy files only */
	{ "default", S("default"), E, A("default") },
	{ "default + newline", S("default\n"), E, A("default") },
	{ "default, case", S("Default"), E, E },
	{ "default, prefix", S("defaults"), E, E },
	{ "default, partial", S("def"), E, E },
	/* numbers */
	{ "numeric", S("0"), E, E },
	{ "numeric", S("1"), E, E },
	{ "numeric", S("2"), E, E },
	{ "numeric", S("3"), E, E },
	{ "numeric", S("-1"), E, E },
	/* whitespace */
	{ "leading space", S(" ro"), E, E },
	{ "trailing space", S("ro "), E, E },
	{ "leading tab", S("\tro"), E, E },
	{ "trailing tab", S("ro\t"), E, E },
	{ "CRLF", S("ro\r\n"), E, E },
	{ "leading newline", S("\nro"), E, E },
	/* differs: proc_dostring stops at the first newline, sysfs_streq()
	 * allows one trailing newline and nothing after it */
	{ "two newlines", S("ro\n\n"), A("ro"), E },
	{ "newline + more", S("ro\nx"), A("ro"), E },
	{ "newline + word", S("warn\ndeny"), A("warn"), E },
	/* partial words */
	{ "partial", S("r"), E, E },
	{ "partial", S("den"), E, E },
	{ "partial", S("allo"), E, E },
	{ "partial", S("wa"), E, E },
	/* case */
	{ "case", S("RO"), E, E },
	{ "case", S("Deny"), E, E },
	{ "case", S("WARN"), E, E },
	{ "case", S("aLLow"), E, E },
	/* a valid word as prefix */
	{ "valid prefix", S("rox"), E, E },
	{ "valid prefix", S("warnx"), E, E },
	{ "valid prefix", S("deny2"), E, E },
	{ "valid prefix", S("allowed"), E, E },
	{ "valid prefix, 8+ bytes", S("allowwww"), E, E },
	{ "two words", S("ro deny"), E, E },
	{ "two words", S("ro,deny"), E, E },
	{ "other word", S("rw"), E, E },
	{ "other word", S("off"), E, E },
	/* non-ASCII */
	{ "non-ASCII", S("r\xc3\xb6"), E, E },
	{ "non-ASCII", S("\xff\xfe"), E, E },
	{ "non-ASCII", S("ro\xc2\xa0"), E, E },
	{ "non-ASCII", S("\xd0\xb3o"), E, E },
	/* NUL inside: the kernel sees a C string, the rest is ignored */
	{ "NUL inside", S("ro\0x"), A("ro"), A("ro") },
	{ "NUL inside", S("deny\0allow"), A("deny"), A("deny") },
	{ "NUL inside", S("de\0ny"), E, E },
	/* overlong (filled in by fill_big()); differs: sysctls read up to the
	 * first newline or NUL (7 bytes at most), policy files get the first
	 * 4096 bytes of a longer write (a short write if accepted) */
	{ "overlong", big_x, sizeof(big_x), E, E },
	{ "overlong, valid + newline first", big_warn_x, sizeof(big_warn_x), A("warn"), E },
	{ "overlong, valid + NULs", big_deny_nul, sizeof(big_deny_nul), A("deny"), { ACC4K, "deny" } },
	{ "4096 bytes, valid + spaces", big_ro_sp, sizeof(big_ro_sp), E, E },
	{ "overlong, valid prefix", big_allow, sizeof(big_allow), E, E },
};

static void fill_big(void)
{
	memset(big_x, 'x', sizeof(big_x));
	memcpy(big_warn_x, "warn\n", 5);
	memset(big_warn_x + 5, 'x', sizeof(big_warn_x) - 5);
	memcpy(big_deny_nul, "deny", 4);
	memset(big_deny_nul + 4, 0, sizeof(big_deny_nul) - 4);
	memcpy(big_ro_sp, "ro", 2);
	memset(big_ro_sp + 2, ' ', sizeof(big_ro_sp) - 2);
	memcpy(big_allow, "allow", 5);
	memset(big_allow + 5, 'x', sizeof(big_allow) - 5);
}

/* The value a file gets before the write: never the word expected after it */
static const char *other_than(const char *word)
{
	return word && !strcmp(word, "deny") ? "allow" : "deny";
}

static const char *describe(const struct expect *e)
{
	static char buf[2][48];
	static int which;
	char *b = buf[which++ & 1];

	switch (e->o) {
	case ACC:
		snprintf(b, 48, "%s", e->word);
		break;
	case ACC4K:
		snprintf(b, 48, "%s, 4096 bytes taken", e->word);
		break;
	case ZERO:
		snprintf(b, 48, "nothing written");
		break;
	default:
		snprintf(b, 48, "EINVAL");
	}
	return b;
}

static void sweep(void)
{
	size_t c;
	int i;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct wcase *w = &cases[c];
		int bad = 0;

		for (i = 0; i < nr_files; i++) {
			struct file *f = &files[i];
			struct expect *e = f->sysctl ? &w->sysctl : &w->sysfs;
			const char *before = other_than(e->word);
			char after[32];
			long r, want_r;
			const char *want_v;

			if (set_value(f->path, before)) {
				note("%s: cannot set %s first", f->label, before);
				bad++;
				continue;
			}
			r = write_bytes(f->path, w->buf, w->len);
			read_value(f->path, after, sizeof(after));
			switch (e->o) {
			case ACC:
				want_r = w->len;
				want_v = e->word;
				break;
			case ACC4K:
				want_r = 4096;
				want_v = e->word;
				break;
			case ZERO:
				want_r = 0;
				want_v = before;
				break;
			default:
				want_r = -EINVAL;
				want_v = before;
			}
			if (r != want_r || strcmp(after, want_v)) {
				note("%s: write returned %s, value %s; expected %s, value %s",
				     f->label, errname(r), after, errname(want_r), want_v);
				bad++;
			}
		}
		result(!bad, "write %s (%s, %zu B): sysctls: %s; policy files: %s",
		       show(w->buf, w->len), w->what, w->len, describe(&w->sysctl), describe(&w->sysfs));
	}
}

/*
 * Two write() calls on one open file, and pwrite() at an offset (differs).  For the
 * sysctls (kernel.sysctl_writes_strict = 1, the default) the file position
 * counts: a write at position P replaces the current value from byte P on
 * (the handler starts from the current word, not from earlier writes), a
 * failed write does not move the position, and a position beyond the
 * current word makes the write a successful no-op.  sysfs ignores the
 * position: each write() is a whole value.
 */
struct step {
	long off;		/* -1: write() at the file position, else pwrite() */
	const char *buf;
	long ret_sysctl, ret_sysfs;
};

struct seq {
	const char *name;
	const char *start;
	struct step s[2];
	const char *end_sysctl, *end_sysfs;
};

static const struct seq seqs[] = {
	{ "split word \"de\" + \"ny\"", "warn",
	  { { -1, "de", -EINVAL, -EINVAL }, { -1, "ny", -EINVAL, -EINVAL } }, "warn", "warn" },
	{ "split \"ro\" + \"\\n\"", "warn",
	  { { -1, "ro", 2, 2 }, { -1, "\n", 1, -EINVAL } }, "ro", "ro" },
	{ "two words \"deny\" then \"ro\" on one fd", "warn",
	  { { -1, "deny", 4, 4 }, { -1, "ro", -EINVAL, 2 } }, "deny", "ro" },
	{ "pwrite \"rn\" at 2 over warn", "warn",
	  { { 2, "rn", 2, -EINVAL }, { -1, NULL, 0, 0 } }, "warn", "warn" },
	{ "pwrite \"x\" at 2 over warn", "warn",
	  { { 2, "x", -EINVAL, -EINVAL }, { -1, NULL, 0, 0 } }, "warn", "warn" },
	{ "pwrite \"ro\" at 5 over allow", "allow",
	  { { 5, "ro", -EINVAL, 2 }, { -1, NULL, 0, 0 } }, "allow", "ro" },
	{ "pwrite \"\\n\" at 4 over deny", "deny",
	  { { 4, "\n", 1, -EINVAL }, { -1, NULL, 0, 0 } }, "deny", "deny" },
	{ "pwrite \"deny\" at 5 over warn", "warn",
	  { { 5, "deny", 4, 4 }, { -1, NULL, 0, 0 } }, "warn", "deny" },
	{ "pwrite \"deny\" at 100 over warn", "warn",
	  { { 100, "deny", 4, 4 }, { -1, NULL, 0, 0 } }, "warn", "deny" },
};

static void sequences(void)
{
	char strict[16];
	size_t q;
	int i, k;

	read_value(STRICT, strict, sizeof(strict));
	for (q = 0; q < sizeof(seqs) / sizeof(seqs[0]); q++) {
		const struct seq *s = &seqs[q];
		int bad = 0;

		if (strcmp(strict, "1")) {
			skip("kernel.sysctl_writes_strict is not 1", "%s", s->name);
			continue;
		}
		for (i = 0; i < nr_files; i++) {
			struct file *f = &files[i];
			char after[32];
			int fd;

			if (set_value(f->path, s->start)) {
				note("%s: cannot set %s first", f->label, s->start);
				bad++;
				continue;
			}
			fd = open(f->path, O_WRONLY | O_CLOEXEC);
			for (k = 0; k < 2 && s->s[k].buf; k++) {
				const struct step *st = &s->s[k];
				long want = f->sysctl ? st->ret_sysctl : st->ret_sysfs;
				long r = st->off < 0 ? write(fd, st->buf, strlen(st->buf)) :
					 pwrite(fd, st->buf, strlen(st->buf), st->off);

				if (r < 0)
					r = -errno;
				if (r != want) {
					note("%s: step %d returned %s, expected %s", f->label, k + 1,
					     errname(r), errname(want));
					bad++;
				}
			}
			close(fd);
			read_value(f->path, after, sizeof(after));
			if (strcmp(after, f->sysctl ? s->end_sysctl : s->end_sysfs)) {
				note("%s: value %s, expected %s", f->label, after,
				     f->sysctl ? s->end_sysctl : s->end_sysfs);
				bad++;
			}
		}
		result(!bad, "%s: sysctls end at %s, policy files at %s", s->name,
		       s->end_sysctl, s->end_sysfs);
	}
}

/* Legacy sysctl mode (-1): every write starts at byte 0 whatever the position */
static void legacy_mode(void)
{
	char strict[16];
	int bad = 0, i;

	read_value(STRICT, strict, sizeof(strict));
	if (set_value(STRICT, "-1")) {
		skip("cannot set kernel.sysctl_writes_strict", "sysctl_writes_strict=-1: pwrite at 100 sets the word");
		return;
	}
	for (i = 0; i < 2; i++) {
		struct file *f = &files[i];
		char after[32];
		int fd;
		long r;

		set_value(f->path, "warn");
		fd = open(f->path, O_WRONLY | O_CLOEXEC);
		r = pwrite(fd, "deny", 4, 100);
		close(fd);
		read_value(f->path, after, sizeof(after));
		if (r != 4 || strcmp(after, "deny")) {
			note("%s: pwrite returned %s, value %s", f->label, errname(r < 0 ? -errno : r), after);
			bad++;
		}
		fd = open(f->path, O_WRONLY | O_CLOEXEC);
		r = write(fd, "ro", 2);
		r = r == 2 ? write(fd, "x", 1) : r;
		if (r < 0)
			r = -errno;
		close(fd);
		read_value(f->path, after, sizeof(after));
		if (r != -EINVAL || strcmp(after, "ro")) {
			note("%s: \"ro\" then \"x\": %s, value %s (want EINVAL, ro)", f->label, errname(r), after);
			bad++;
		}
	}
	set_value(STRICT, strict);
	result(!bad, "sysctl_writes_strict=-1: pwrite at 100 sets the word, a second write() is a new value");
}

/* Read-only files: no write opens, the contents stay */
static void read_only_files(void)
{
	static const char *const item_ro[] = {
		"since", "removal", "reason", "replacement", "mounts", "refused", "active",
	};
	static const char *const y2038_ro[] = { "mounts", "refused", "active" };
	char path[160], before[512], after[512];
	int i, j, bad, n;

	for (i = 0; i <= nr_items; i++) {
		const char *const *names = i < nr_items ? item_ro : y2038_ro;
		int count = i < nr_items ? 7 : 3;

		bad = n = 0;
		for (j = 0; j < count; j++) {
			int fd, modes[] = { O_WRONLY, O_RDWR, O_WRONLY | O_TRUNC, O_WRONLY | O_APPEND };
			unsigned int m;
			struct stat st;

			if (i < nr_items)
				snprintf(path, sizeof(path), SYSFS_DEP "/%.31s/%s", items[i], names[j]);
			else
				snprintf(path, sizeof(path), SYSFS_Y2038 "/%s", names[j]);
			read_value(path, before, sizeof(before));
			if (stat(path, &st) || (st.st_mode & 0777) != 0444) {
				note("%s: mode %o, expected 0444", path, st.st_mode & 0777);
				bad++;
			}
			for (m = 0; m < 4; m++) {
				fd = open(path, modes[m] | O_CLOEXEC);
				if (fd >= 0) {
					long r = write(fd, "0\n", 2);

					note("%s: opened for writing (flags %#x), write returned %s", path,
					     modes[m], errname(r < 0 ? -errno : r));
					close(fd);
					bad++;
				} else if (errno != EACCES) {
					note("%s: open for writing: %s, expected EACCES", path, strerror(errno));
					bad++;
				}
			}
			read_value(path, after, sizeof(after));
			/* counters may not move: nothing mounts meanwhile */
			if (strcmp(before, after)) {
				note("%s: changed from \"%s\" to \"%s\"", path, before, after);
				bad++;
			}
			n++;
		}
		result(!bad, "read-only files of %s%s (%d): writes refused with EACCES, contents unchanged",
		       i < nr_items ? SYSFS_DEP "/" : SYSFS_Y2038, i < nr_items ? items[i] : "", n);
	}
}

/*
 * In a child: without CAP_SYS_ADMIN (still uid 0, so the files open for
 * writing), every policy write fails with EPERM; as uid 65534 the open fails
 * with EACCES.  The child reports the number of failures as its exit status.
 */
static int drop_cap_sys_admin(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[0].effective &= ~(1u << CAP_SYS_ADMIN);
	d[0].permitted &= ~(1u << CAP_SYS_ADMIN);
	d[0].inheritable &= ~(1u << CAP_SYS_ADMIN);
	return syscall(SYS_capset, &h, d);
}

static void unprivileged(bool nocap)
{
	int status, i, bad = 0;
	pid_t pid;

	for (i = 0; i < nr_files; i++)
		set_value(files[i].path, files[i].sysctl ? "warn" : "default");
	fflush(stdout);
	pid = fork();
	if (!pid) {
		int fails = 0;

		if (nocap ? drop_cap_sys_admin() : (setgroups(0, NULL), setresgid(65534, 65534, 65534) ||
						    setresuid(65534, 65534, 65534)))
			_exit(100);
		for (i = 0; i < nr_files; i++) {
			long r = write_bytes(files[i].path, "deny", 4);

			if (r != (nocap ? -EPERM : -EACCES)) {
				fprintf(stderr, "badinput: %s: write as %s returned %s\n", files[i].path,
					nocap ? "root without CAP_SYS_ADMIN" : "uid 65534", errname(r));
				fails++;
			}
		}
		_exit(fails > 99 ? 99 : fails);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		note("child did not exit");
		bad++;
	} else if (WEXITSTATUS(status) == 100) {
		note("could not drop the privilege");
		bad++;
	} else if (WEXITSTATUS(status)) {
		note("%d write(s) not refused as expected (console has the details)", WEXITSTATUS(status));
		bad++;
	}
	for (i = 0; i < nr_files; i++) {
		char after[32];

		read_value(files[i].path, after, sizeof(after));
		if (strcmp(after, files[i].sysctl ? "warn" : "default")) {
			note("%s: changed to %s", files[i].label, after);
			bad++;
		}
	}
	result(!bad, "%s: every policy write fails with %s, nothing changes",
	       nocap ? "root without CAP_SYS_ADMIN" : "uid 65534", nocap ? "EPERM" : "EACCES");
}

static void restore(void)
{
	int i, bad = 0;

	for (i = 0; i < nr_files; i++) {
		char after[32];

		set_value(files[i].path, files[i].saved);
		read_value(files[i].path, after, sizeof(after));
		if (strcmp(after, files[i].saved)) {
			note("%s: %s, was %s", files[i].label, after, files[i].saved);
			bad++;
		}
	}
	result(!bad, "every policy restored to its value before the sweep");
}

int main(int argc, char **argv)
{
	const char *want_dep = "warn", *want_y2038 = "warn";
	/* The items the base has at least (modlib.sh ITEMS) */
	const char *want_items = "ext2 ext4-small-inodes reiserfs xfs-ascii-ci xfs-v4";
	bool boot_only = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--boot-only"))
			boot_only = true;
		else if (!strcmp(argv[i], "--boot-dep") && i + 1 < argc)
			want_dep = argv[++i];
		else if (!strcmp(argv[i], "--boot-y2038") && i + 1 < argc)
			want_y2038 = argv[++i];
		else if (!strcmp(argv[i], "--items") && i + 1 < argc)
			want_items = argv[++i];
		else {
			fprintf(stderr, "usage: %s [--boot-only] [--boot-dep WORD] [--boot-y2038 WORD] "
				"[--items \"ITEM...\"]\n", argv[0]);
			return 2;
		}
	}
	printf("KTAP version 1\n");
	fill_big();
	find_files();
	boot_checks(want_dep, want_y2038);
	if (!boot_only) {
		note("files: %d sysctls, %d policy files (%d items)", 2, nr_files - 2, nr_items);
		result(nr_items >= nr_words(want_items), "%d items in " SYSFS_DEP " (%s)",
		       nr_items, want_items);
		sweep();
		sequences();
		legacy_mode();
		read_only_files();
		unprivileged(true);
		unprivileged(false);
		restore();
	}
	printf("1..%d\n", test_nr);
	return any_failed;
}
