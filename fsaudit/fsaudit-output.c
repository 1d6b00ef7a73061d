// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - output: the columns (an enum and a designated-initializer
 * table, as findmnt and lsblk), the records as JSON, raw or key="value"
 * pairs through libsmartcols, or as a table laid out for a width: SOURCE,
 * TARGET, FSTYPE, FORMAT are never cut, the long texts (REMEDY, NOTES,
 * REASON, REPLACEMENT) are numbered paragraphs under the table, and when
 * the columns do not fit side by side they are stacked, two or more to a
 * cell; and the summary line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include <libsmartcols.h>

#include "fsaudit.h"

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
	COL_KERNEL,
	COL_REASON,
	COL_REPLACEMENT,
	COL_POLICY,
	COL_REMEDY,
	COL_NOTES,
	COL_SPEC,
	COL_NOFAIL,
};

#define FL_RIGHT	1	/* numbers, right-aligned */
#define FL_DETAIL	2	/* long text: under the table, numbered */

struct colinfo {
	const char *name;	/* header */
	int flags;		/* FL_* */
	const char *help;
	int json_type;		/* SCOLS_JSON_* */
};

static const struct colinfo infos[] = {
	[COL_SOURCE]	  = { "SOURCE", 0, N_("device or image file (IMAGE:pN for a partition)"), SCOLS_JSON_STRING },
	[COL_TARGET]	  = { "TARGET", 0, N_("mountpoint"), SCOLS_JSON_STRING },
	[COL_FSTYPE]	  = { "FSTYPE", 0, N_("filesystem type (libblkid)"), SCOLS_JSON_STRING },
	[COL_FORMAT]	  = { "FORMAT", 0, N_("on-disk format details"), SCOLS_JSON_STRING },
	[COL_VERSION]	  = { "VERSION", 0, N_("format version"), SCOLS_JSON_STRING },
	[COL_LABEL]	  = { "LABEL", 0, N_("filesystem label"), SCOLS_JSON_STRING },
	[COL_UUID]	  = { "UUID", 0, N_("filesystem UUID"), SCOLS_JSON_STRING },
	[COL_INODE_SIZE]  = { "INODE-SIZE", FL_RIGHT, N_("inode size in bytes (ext2/3/4, XFS)"), SCOLS_JSON_NUMBER },
	[COL_TIME_MIN]	  = { "TIME-MIN", 0, N_("earliest time the format can store (UTC)"), SCOLS_JSON_STRING },
	[COL_TIME_MAX]	  = { "TIME-MAX", 0, N_("latest time the format can store (UTC)"), SCOLS_JSON_STRING },
	[COL_TIME_MIN_EPOCH] = { "TIME-MIN-EPOCH", FL_RIGHT, N_("TIME-MIN in seconds since the epoch"), SCOLS_JSON_NUMBER },
	[COL_TIME_MAX_EPOCH] = { "TIME-MAX-EPOCH", FL_RIGHT, N_("TIME-MAX in seconds since the epoch"), SCOLS_JSON_NUMBER },
	[COL_S_TIME_MAX]  = { "S-TIME-MAX", FL_RIGHT, N_("the kernel's s_time_max for this superblock (clamp), seconds"), SCOLS_JSON_NUMBER },
	[COL_VERDICT]	  = { "VERDICT", 0, N_("ok, 2038-limited, deprecated, removed-from-mainline or unknown"), SCOLS_JSON_STRING },
	[COL_AT_RISK]	  = { "AT-RISK", FL_RIGHT, N_("verdict is neither ok nor unknown"), SCOLS_JSON_BOOLEAN },
	[COL_DEPRECATED]  = { "DEPRECATED", 0, N_("deprecated items that apply (names as in /sys/fs/deprecated)"), SCOLS_JSON_STRING },
	[COL_SINCE]	  = { "SINCE", 0, N_("deprecated since (date)"), SCOLS_JSON_STRING },
	[COL_REMOVAL]	  = { "REMOVAL", 0, N_("scheduled or actual removal (date)"), SCOLS_JSON_STRING },
	[COL_KERNEL]	  = { "KERNEL", 0, N_("the next mount: mounts, warns, read-only, refused (policy) or cannot mount (config)"), SCOLS_JSON_STRING },
	[COL_REASON]	  = { "REASON", FL_DETAIL, N_("why it is deprecated"), SCOLS_JSON_STRING },
	[COL_REPLACEMENT] = { "REPLACEMENT", FL_DETAIL, N_("what replaces it"), SCOLS_JSON_STRING },
	[COL_POLICY]	  = { "POLICY", 0, N_("kernel policy for the items (/sys/fs/deprecated)"), SCOLS_JSON_STRING },
	[COL_REMEDY]	  = { "REMEDY", FL_DETAIL, N_("what to do about it: shell commands and # comments"), SCOLS_JSON_STRING },
	[COL_NOTES]	  = { "NOTES", FL_DETAIL, N_("caveats, errors"), SCOLS_JSON_STRING },
	[COL_SPEC]	  = { "SPEC", 0, N_("--fstab: the entry's source (UUID=, LABEL=, a path)"), SCOLS_JSON_STRING },
	[COL_NOFAIL]	  = { "NOFAIL", FL_RIGHT, N_("--fstab: the entry has nofail"), SCOLS_JSON_BOOLEAN },
};

#define N_COLS (sizeof(infos) / sizeof(infos[0]))

static int columns[N_COLS * 2];
static size_t ncolumns;

size_t fsa_ncolumns_all(void)
{
	return N_COLS;
}

const char *fsa_column_name(size_t id)
{
	return infos[id].name;
}

const char *fsa_column_help(size_t id)
{
	return infos[id].help;
}

static void set_columns(const int *ids, size_t n)
{
	for (ncolumns = 0; ncolumns < n; ncolumns++)
		columns[ncolumns] = ids[ncolumns];
}

/* SOURCE,TARGET,FSTYPE,FORMAT,TIME-MAX,VERDICT,REMOVAL,KERNEL,REMEDY */
void fsa_set_default_columns(void)
{
	static const int defaults[] = {
		COL_SOURCE, COL_TARGET, COL_FSTYPE, COL_FORMAT, COL_TIME_MAX,
		COL_VERDICT, COL_REMOVAL, COL_KERNEL, COL_REMEDY
	};

	set_columns(defaults, sizeof(defaults) / sizeof(defaults[0]));
}

/* --fstab: SPEC,TARGET,SOURCE,FSTYPE,VERDICT,KERNEL,NOFAIL,REMEDY */
void fsa_fstab_columns(void)
{
	static const int defaults[] = {
		COL_SPEC, COL_TARGET, COL_SOURCE, COL_FSTYPE, COL_VERDICT,
		COL_KERNEL, COL_NOFAIL, COL_REMEDY
	};

	set_columns(defaults, sizeof(defaults) / sizeof(defaults[0]));
}

static int column_name_to_id(const char *name, size_t namesz);

/* --sort NAME: the column's id, -1 when unknown */
int fsa_column_id(const char *name)
{
	return column_name_to_id(name, strlen(name));
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

void fsa_parse_columns(const char *list)
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
			fsa_bad_usage("empty column name in '%s'", list);
		id = column_name_to_id(p, len);
		if (id < 0)
			fsa_bad_usage("unknown column: %.*s", (int) len, p);
		if (ncolumns >= sizeof(columns) / sizeof(columns[0]))
			fsa_bad_usage("too many columns");
		columns[ncolumns++] = id;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!ncolumns)
		fsa_bad_usage("no columns in '%s'", list);
}

void fsa_list_columns(int json)
{
	struct libscols_table *tb = scols_new_table();
	static const char *const jtypes[] = { "<string>", "<integer>", "<boolean>" };
	static const char *const jnames[] = { "string", "integer", "boolean" };
	size_t i;

	if (!tb)
		fsa_internal_error("table", ENOMEM);
	scols_table_set_name(tb, "columns");
	scols_table_enable_json(tb, json);
	scols_table_new_column(tb, json ? "name" : "NAME", 0, 0);
	scols_table_new_column(tb, json ? "type" : "TYPE", 0, 0);
	scols_table_new_column(tb, json ? "description" : "DESCRIPTION", 0, 0);
	scols_table_enable_noheadings(tb, !json);
	for (i = 0; i < N_COLS; i++) {
		struct libscols_line *ln = scols_table_new_line(tb, NULL);

		if (!ln)
			fsa_internal_error("table", ENOMEM);
		scols_line_set_data(ln, 0, infos[i].name);
		scols_line_set_data(ln, 1, json ? jnames[infos[i].json_type] : jtypes[infos[i].json_type]);
		scols_line_set_data(ln, 2, infos[i].help);
	}
	scols_print_table(tb);
	scols_unref_table(tb);
}

/* an integer (decimal text) a reader with IEEE doubles reads exactly */
static int json_safe_integer(const char *dec)
{
	long long v;
	char *end;

	errno = 0;
	v = strtoll(dec, &end, 10);
	return !errno && !*end && v <= 9007199254740991LL && v >= -9007199254740991LL;
}



/* @t as --time-format says: iso "2038-01-19T03:14:07Z" (ISO 8601, years
 * beyond 9999 with a "+"), full "2038-01-19 03:14:07", date "2038-01-19" */
char *fsa_time(int64_t t, int format, char *buf, size_t bufsz)
{
	char s[64], *sp;

	fsa_strtime(t, s, sizeof(s));
	sp = strchr(s + 1, ' ');
	if (format == FSA_TIME_FULL || !sp)
		snprintf(buf, bufsz, "%s", s);
	else if (format == FSA_TIME_DATE)
		snprintf(buf, bufsz, "%.*s", (int) (sp - s), s);
	else
		snprintf(buf, bufsz, "%s%.*sT%sZ", s[0] != '-' && sp - s > 10 ? "+" : "",
			 (int) (sp - s), s, sp + 1);
	return buf;
}

/* the text of column @col for @r ("" when empty); @buf for numbers */
static const char *cell(const struct fsa_record *r, int col, const struct fsa_item_strings *is,
			int time_format, char *buf, size_t bufsz)
{
	const struct fsa_info *in = &r->info;
	int limits = r->have_info && in->has_limits;

	buf[0] = '\0';
	switch (col) {
	case COL_SOURCE:
		return r->source;
	case COL_TARGET:
		return r->target;
	case COL_FSTYPE:
		return r->fstype;
	case COL_FORMAT:
		return r->have_info ? in->format : "";
	case COL_VERSION:
		return r->have_info && in->version[0] ? in->version : r->version;
	case COL_LABEL:
		return r->label;
	case COL_UUID:
		return r->uuid;
	case COL_INODE_SIZE:
		if (r->have_info && in->inode_size)
			snprintf(buf, bufsz, "%d", in->inode_size);
		break;
	case COL_TIME_MIN:
	case COL_TIME_MAX:
		if (limits)
			fsa_time(col == COL_TIME_MIN ? in->time_min : in->time_max, time_format, buf, bufsz);
		break;
	case COL_TIME_MIN_EPOCH:
	case COL_TIME_MAX_EPOCH:
	case COL_S_TIME_MAX:
		if (limits)
			snprintf(buf, bufsz, "%lld", (long long) (col == COL_TIME_MIN_EPOCH ? in->time_min
				 : col == COL_TIME_MAX_EPOCH ? in->time_max : in->s_time_max));
		break;
	case COL_VERDICT:
		return fsa_verdict_names[r->verdict];
	case COL_AT_RISK:
		return r->verdict > VERDICT_OK ? "1" : "0";
	case COL_DEPRECATED:
		return is->deps;
	case COL_SINCE:
		return is->since;
	case COL_REMOVAL:
		return is->removal;
	case COL_KERNEL:
		return fsa_kernel_names[r->kernel];
	case COL_REASON:
		return is->reason;
	case COL_REPLACEMENT:
		return is->repl;
	case COL_POLICY:
		return is->policy;
	case COL_REMEDY:
		return r->remedy;
	case COL_NOTES:
		return r->notes;
	case COL_SPEC:
		return r->spec ? r->spec : "";
	case COL_NOFAIL:
		return r->nofail < 0 ? "" : r->nofail ? "1" : "0";
	}
	return buf;
}

/* ------------------------------------------------------------------ */
/* --sort */

static int sort_col, sort_time_format;

static int cmp_cells(const void *a, const void *b)
{
	const struct fsa_record *ra = a, *rb = b;
	struct fsa_item_strings ia, ib;
	char ba[64], bb[64];
	const char *sa, *sb;

	fsa_item_strings(ra, &ia);
	fsa_item_strings(rb, &ib);
	sa = cell(ra, sort_col, &ia, sort_time_format, ba, sizeof(ba));
	sb = cell(rb, sort_col, &ib, sort_time_format, bb, sizeof(bb));
	if (sort_col == COL_VERDICT)	/* by severity, the most severe first */
		return rb->verdict - ra->verdict;
	if ((infos[sort_col].flags & FL_RIGHT) && *sa && *sb) {
		long long x = strtoll(sa, NULL, 10), y = strtoll(sb, NULL, 10);

		return x < y ? -1 : x > y;
	}
	if (sort_col == COL_TIME_MIN || sort_col == COL_TIME_MAX) {
		int64_t x = sort_col == COL_TIME_MIN ? ra->info.time_min : ra->info.time_max;
		int64_t y = sort_col == COL_TIME_MIN ? rb->info.time_min : rb->info.time_max;

		if (*sa && *sb)
			return x < y ? -1 : x > y;
	}
	if (!*sa != !*sb)	/* empty last */
		return *sa ? -1 : 1;
	return strverscmp(sa, sb);
}

static int cmp_records(const void *a, const void *b)
{
	int c = cmp_cells(a, b);

	if (c)
		return c;
	return ((const struct fsa_record *) a)->seq < ((const struct fsa_record *) b)->seq ? -1 : 1;
}

static void sort_records(struct fsaudit *fa, const struct fsa_outopts *o)
{
	size_t i;

	if (o->sort < 0)
		return;
	sort_col = o->sort;
	sort_time_format = o->time_format;
	for (i = 0; i < fa->nrecs; i++)
		fa->recs[i].seq = i;	/* qsort is not stable: the audit order breaks ties */
	qsort(fa->recs, fa->nrecs, sizeof(*fa->recs), cmp_records);
}

/* ------------------------------------------------------------------ */
/* JSON, raw, pairs: every column as it is */

static void print_machine(struct fsaudit *fa, const struct fsa_outopts *o)
{
	struct libscols_table *tb = scols_new_table();
	size_t i, j, nrows = 0;

	if (!tb)
		fsa_internal_error("table", ENOMEM);
	scols_table_set_name(tb, "filesystems");
	scols_table_enable_json(tb, o->json);
	scols_table_enable_raw(tb, o->raw);
	scols_table_enable_export(tb, o->pairs);
	scols_table_enable_shellvar(tb, o->pairs);
	scols_table_enable_noheadings(tb, o->noheadings);
	for (i = 0; i < ncolumns; i++) {
		struct libscols_column *cl = scols_table_new_column(tb, infos[columns[i]].name, 0, 0);

		if (!cl)
			fsa_internal_error("table", ENOMEM);
		if (o->json)
			scols_column_set_json_type(cl, infos[columns[i]].json_type);
	}
	for (j = 0; j < fa->nrecs; j++) {
		const struct fsa_record *r = &fa->recs[j];
		struct libscols_line *ln;
		struct fsa_item_strings is;

		if (fa->at_risk_only && r->verdict <= VERDICT_OK)
			continue;
		ln = scols_table_new_line(tb, NULL);
		if (!ln)
			fsa_internal_error("table", ENOMEM);
		fsa_item_strings(r, &is);
		for (i = 0; i < ncolumns; i++) {
			char buf[64], *fixed = NULL;
			const char *s = cell(r, columns[i], &is, o->time_format, buf, sizeof(buf));

			if (o->json) {
				/* integers a 53-bit JSON reader would round: strings */
				if (s == buf && buf[0] && infos[columns[i]].json_type == SCOLS_JSON_NUMBER
				    && !json_safe_integer(buf)) {
					char q[32];

					snprintf(q, sizeof(q), "%.24s", buf);
					snprintf(buf, sizeof(buf), "\"%s\"", q);
				}
				fixed = fsa_utf8_fix(s);	/* invalid UTF-8 bytes: U+FFFD */
				if (fixed)
					s = fixed;
			}
			if (s && *s && scols_line_set_data(ln, i, s))
				fsa_internal_error("table", ENOMEM);
			free(fixed);
		}
		nrows++;
	}
	if (nrows || o->json)
		scols_print_table(tb);
	scols_unref_table(tb);
}

/* ------------------------------------------------------------------ */
/* the table for people */

/* @s for a terminal: every byte that does not make a printable character
 * in this locale as \xHH (as libsmartcols does), newlines included */
static char *safe_text(const char *s)
{
	size_t len = strlen(s), o = 0;
	char *d = malloc(len * 4 + 1);
	mbstate_t st;

	if (!d)
		fsa_internal_error("memory", ENOMEM);
	memset(&st, 0, sizeof(st));
	while (*s) {
		wchar_t wc;
		size_t n;

		if (*s >= 0x20 && *s < 0x7f) {	/* printable ASCII: as it is */
			d[o++] = *s++;
			len--;
			continue;
		}
		n = mbrtowc(&wc, s, len, &st);
		if (n == (size_t) -1 || n == (size_t) -2 || n == 0 || !iswprint((wint_t) wc)) {
			o += (size_t) sprintf(d + o, "\\x%02x", (unsigned char) *s);
			memset(&st, 0, sizeof(st));
			n = 1;
		} else {
			memcpy(d + o, s, n);
			o += n;
		}
		s += n;
		len -= n;
	}
	d[o] = '\0';
	return d;
}

/* columns of the terminal @s takes (safe_text() output) */
static size_t text_width(const char *s)
{
	size_t len = strlen(s), w = 0;
	mbstate_t st;

	memset(&st, 0, sizeof(st));
	while (*s) {
		wchar_t wc;
		size_t n;
		int cw;

		if (*s >= 0x20 && *s < 0x7f) {
			w++;
			s++;
			len--;
			continue;
		}
		n = mbrtowc(&wc, s, len, &st);
		if (n == (size_t) -1 || n == (size_t) -2 || n == 0) {
			n = 1;
			cw = 1;
			memset(&st, 0, sizeof(st));
		} else {
			cw = wcwidth(wc);
			if (cw < 0)
				cw = 1;
		}
		w += (size_t) cw;
		s += n;
		len -= n;
	}
	return w;
}

/* the table being laid out: the visible columns' texts, row by row */
struct layout {
	size_t ncols, nrows;
	int *cols;		/* column ids; -1 for the [N] reference column */
	char **text;		/* nrows x ncols, safe_text() */
	size_t *width;		/* per column: the widest text or header */
	const char *refname;	/* header of the reference column */
};

/* the width of the table with @k columns stacked in each cell */
static size_t stacked_width(const struct layout *l, size_t k)
{
	size_t g, i, total = 0;

	for (g = 0; g * k < l->ncols; g++) {
		size_t w = 0;

		for (i = g * k; i < (g + 1) * k && i < l->ncols; i++)
			if (l->width[i] > w)
				w = l->width[i];
		total += w + (g ? 1 : 0);
	}
	return total;
}

/* one paragraph line, wrapped to @width columns: a command at spaces
 * outside quotes, each piece but the last ending in " \" (pasted, it stays
 * one command); a comment or text at spaces, "# " or blanks before the next
 * pieces.  A word wider than the line is not split. */
static void print_wrapped(FILE *out, const char *indent, const char *line, size_t width)
{
	int comment = line[0] == '#', cmd = !comment && indent[0] && !strchr(line, ':');
	const char *cont = comment ? "# " : "    ", *tail = cmd ? " \\" : "";
	const char *p = line;
	int first = 1;

	for (;;) {
		const char *pre = first ? "" : cont, *q, *brk = NULL;
		size_t used = strlen(indent) + strlen(pre) + strlen(tail);
		int sq = 0, dq = 0, esc = 0;

		if (!width || strlen(indent) + strlen(pre) + text_width(p) <= width) {
			fprintf(out, "%s%s%s\n", indent, pre, p);
			return;
		}
		for (q = p; *q; q++) {
			if (cmd && esc)
				esc = 0;
			else if (cmd && *q == '\\' && !sq)
				esc = 1;
			else if (cmd && *q == '\'' && !dq)
				sq = !sq;
			else if (cmd && *q == '"' && !sq)
				dq = !dq;
			else if (*q == ' ' && !sq && !dq && q > p) {
				char *piece = strndup(p, (size_t) (q - p));
				size_t w = piece ? text_width(piece) : 0;

				free(piece);
				if (brk && used + w > width)
					break;
				brk = q;
				if (used + w > width)
					break;	/* the first word is wider than the line */
			}
		}
		if (!brk) {
			fprintf(out, "%s%s%s\n", indent, pre, p);
			return;
		}
		fprintf(out, "%s%s%.*s%s\n", indent, pre, (int) (brk - p), p, tail);
		p = brk;
		while (*p == ' ')
			p++;
		first = 0;
	}
}

/* the numbered paragraphs under the table: for each row with any, its
 * long texts (REMEDY as it is, a script; the others as "NAME: text") */
static void print_details(FILE *out, struct fsaudit *fa, const struct fsa_outopts *o,
			  const struct fsa_record **rows, size_t nrows, const int *refs)
{
	size_t i, j, width = o->notruncate ? 0 : o->width;

	for (i = 0; i < nrows; i++) {
		const struct fsa_record *r = rows[i];
		struct fsa_item_strings is;
		char head[64], *src;

		if (!refs[i])
			continue;
		fsa_item_strings(r, &is);
		src = safe_text(r->source);
		snprintf(head, sizeof(head), "[%d] ", refs[i]);
		fprintf(out, "\n%s%s\n", head, src);
		free(src);
		for (j = 0; j < ncolumns; j++) {
			char buf[64], *t, *line, *save = NULL;
			const char *s;

			if (!(infos[columns[j]].flags & FL_DETAIL))
				continue;
			s = cell(r, columns[j], &is, o->time_format, buf, sizeof(buf));
			if (!s || !*s)
				continue;
			if (columns[j] != COL_REMEDY) {
				size_t n = strlen(infos[columns[j]].name) + strlen(s) + 3;
				char *x = malloc(n);

				if (!x)
					fsa_internal_error("memory", ENOMEM);
				snprintf(x, n, "%s: %s", infos[columns[j]].name, s);
				t = safe_text(x);
				free(x);
				print_wrapped(out, "    ", t, width);
				free(t);
				continue;
			}
			t = fsa_xstrdup(s);
			for (line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
				char *l = safe_text(line);

				print_wrapped(out, "    ", l, width);
				free(l);
			}
			free(t);
		}
	}
	(void) fa;
}

/* Too narrow even for one column of stacked values: a list, one block per
 * filesystem, its first column (SOURCE) alone, then "NAME value" lines; a
 * value that does not fit beside its name goes on the next line. */
static void print_list(FILE *out, const struct layout *l, size_t width)
{
	size_t i, j, keyw = 0;

	for (j = 1; j < l->ncols; j++) {
		const char *key = l->cols[j] < 0 ? l->refname : infos[l->cols[j]].name;

		if (strlen(key) > keyw)
			keyw = strlen(key);
	}
	for (i = 0; i < l->nrows; i++) {
		if (i)
			fputc('\n', out);
		fprintf(out, "%s\n", l->text[i * l->ncols]);
		for (j = 1; j < l->ncols; j++) {
			const char *key = l->cols[j] < 0 ? l->refname : infos[l->cols[j]].name;
			const char *v = l->text[i * l->ncols + j];

			if (!*v)
				continue;
			if (2 + keyw + 1 + text_width(v) <= width)
				fprintf(out, "  %-*s %s\n", (int) keyw, key, v);
			else
				fprintf(out, "  %s\n    %s\n", key, v);
		}
	}
}

static void print_human(struct fsaudit *fa, const struct fsa_outopts *o)
{
	const struct fsa_record **rows = calloc(fa->nrecs + 1, sizeof(*rows));
	int *refs = calloc(fa->nrecs + 1, sizeof(*refs));
	struct fsa_item_strings *iss = NULL;
	struct layout l = { 0 };
	struct libscols_table *tb;
	size_t i, j, k, g, nrows = 0;
	int nref = 0;

	if (!rows || !refs)
		fsa_internal_error("memory", ENOMEM);
	for (i = 0; i < fa->nrecs; i++)
		if (!fa->at_risk_only || fa->recs[i].verdict > VERDICT_OK)
			rows[nrows++] = &fa->recs[i];
	if (!nrows)
		goto out;

	/* the visible columns: the long texts go under the table, empty ones
	 * are left out unless -o named them */
	l.cols = calloc(ncolumns + 1, sizeof(*l.cols));
	l.width = calloc(ncolumns + 1, sizeof(*l.width));
	l.text = calloc(nrows * (ncolumns + 1), sizeof(*l.text));
	if (!l.cols || !l.width || !l.text)
		fsa_internal_error("memory", ENOMEM);
	iss = malloc((nrows + 1) * sizeof(*iss));
	if (!iss)
		fsa_internal_error("memory", ENOMEM);
	for (i = 0; i < nrows; i++) {
		fsa_item_strings(rows[i], &iss[i]);
		for (j = 0; j < ncolumns; j++) {
			char buf[64];
			const char *s = cell(rows[i], columns[j], &iss[i], o->time_format, buf, sizeof(buf));

			if ((infos[columns[j]].flags & FL_DETAIL) && s && *s && !refs[i])
				refs[i] = ++nref;
		}
	}
	for (j = 0; j < ncolumns; j++) {
		int any = 0;

		for (i = 0; i < nrows && !any; i++) {
			char buf[64];
			const char *s = cell(rows[i], columns[j], &iss[i], o->time_format, buf, sizeof(buf));

			any = s && *s;
		}
		if (infos[columns[j]].flags & FL_DETAIL) {
			/* the [N] column is named after the first long text there is */
			if (any && !l.refname)
				l.refname = infos[columns[j]].name;
			continue;
		}
		if (any || o->columns_given)
			l.cols[l.ncols++] = columns[j];
	}
	if (nref)
		l.cols[l.ncols++] = -1;
	l.nrows = nrows;
	for (j = 0; j < l.ncols; j++)
		l.width[j] = l.cols[j] < 0 ? strlen(l.refname) : strlen(infos[l.cols[j]].name);
	for (i = 0; i < nrows; i++) {
		for (j = 0; j < l.ncols; j++) {
			char buf[64];
			const char *s = buf;

			if (l.cols[j] < 0) {
				if (refs[i])
					snprintf(buf, sizeof(buf), "[%d]", refs[i]);
				else
					buf[0] = '\0';
			} else
				s = cell(rows[i], l.cols[j], &iss[i], o->time_format, buf, sizeof(buf));
			l.text[i * l.ncols + j] = safe_text(s ? s : "");
			if (text_width(l.text[i * l.ncols + j]) > l.width[j])
				l.width[j] = text_width(l.text[i * l.ncols + j]);
		}
	}

	/* as few columns stacked in a cell as the width allows */
	k = 1;
	if (o->width && !o->notruncate)
		while (k < l.ncols && stacked_width(&l, k) > o->width)
			k++;

	/* three values or more to a cell read worse than a list */
	if (k > 2) {
		print_list(stdout, &l, o->width);
		goto details;
	}
	tb = scols_new_table();
	if (!tb)
		fsa_internal_error("table", ENOMEM);
	scols_table_enable_noheadings(tb, 1);
	for (g = 0; g * k < l.ncols; g++) {
		int right = k == 1 && l.cols[g] >= 0 && (infos[l.cols[g]].flags & FL_RIGHT);
		struct libscols_column *cl = scols_table_new_column(tb, "", 0, right ? SCOLS_FL_RIGHT
								    : k > 1 ? SCOLS_FL_WRAP : 0);

		if (!cl)
			fsa_internal_error("table", ENOMEM);
		if (k > 1) {
			scols_column_set_wrapfunc(cl, scols_wrapnl_chunksize, scols_wrapnl_nextchunk, NULL);
			scols_column_set_safechars(cl, "\n");
		}
	}
	for (i = o->noheadings ? 1 : 0; i <= nrows; i++) {
		struct libscols_line *ln = scols_table_new_line(tb, NULL);

		if (!ln)
			fsa_internal_error("table", ENOMEM);
		for (g = 0; g * k < l.ncols; g++) {
			char cellbuf[8192];

			cellbuf[0] = '\0';

			for (j = g * k; j < (g + 1) * k && j < l.ncols; j++) {
				const char *s = i == 0 ? (l.cols[j] < 0 ? l.refname : infos[l.cols[j]].name)
					      : l.text[(i - 1) * l.ncols + j];

				fsa_append(cellbuf, sizeof(cellbuf), "%s%s", j > g * k ? "\n" : "", s);
			}
			if (scols_line_set_data(ln, g, cellbuf))
				fsa_internal_error("table", ENOMEM);
		}
	}
	/* it fits (or nothing would): no shrinking, no spreading */
	scols_table_set_termforce(tb, SCOLS_TERMFORCE_NEVER);
	scols_print_table(tb);
	scols_unref_table(tb);
details:
	print_details(stdout, fa, o, rows, nrows, refs);
	for (i = 0; i < nrows * l.ncols; i++)
		free(l.text[i]);
out:
	free(iss);
	free(l.text);
	free(l.cols);
	free(l.width);
	free(rows);
	free(refs);
}

/* the records as a table, JSON, raw or pairs (nothing with -q) */
void fsa_print_table(struct fsaudit *fa, const struct fsa_outopts *o)
{
	sort_records(fa, o);
	if (o->quiet)
		return;
	if (o->json || o->raw || o->pairs)
		print_machine(fa, o);
	else
		print_human(fa, o);
}

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
char *fsa_utf8_fix(const char *s)
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
		fsa_internal_error("memory", ENOMEM);
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



/* 1 when @s is valid UTF-8 */
int fsa_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *) s;
	size_t n;

	for (; *p; p += n)
		if (!(n = utf8_seq(p)))
			return 0;
	return 1;
}

/* "N sources: N at risk (N deprecated, ...), N ok, N unknown, N unreadable";
 * with --unreadable-unknown: "N unknown (N unreadable)" */
void fsa_print_summary(struct fsaudit *fa, const struct fsa_outopts *o, FILE *out)
{
	unsigned long count[VERDICT_MAX + 1] = { 0 }, unreadable = 0, risk = 0;
	char line[512] = "";
	size_t i;
	int v, first = 1;

	for (i = 0; i < fa->nrecs; i++) {
		if (fa->recs[i].unreadable)
			unreadable++;
		count[fa->recs[i].verdict]++;
		if (fa->recs[i].verdict > VERDICT_OK)
			risk++;
	}
	fsa_append(line, sizeof(line), "%zu source%s: %lu at risk", fa->nrecs, fa->nrecs == 1 ? "" : "s", risk);
	for (v = VERDICT_MAX; v > VERDICT_OK; v--) {
		if (!count[v])
			continue;
		fsa_append(line, sizeof(line), "%s%lu %s", first ? " (" : ", ", count[v], fsa_verdict_names[v]);
		first = 0;
	}
	if (fa->unreadable_unknown)
		fsa_append(line, sizeof(line), "%s, %lu ok, %lu unknown (%lu unreadable)", first ? "" : ")",
			   count[VERDICT_OK], count[VERDICT_UNKNOWN], unreadable);
	else
		fsa_append(line, sizeof(line), "%s, %lu ok, %lu unknown, %lu unreadable", first ? "" : ")",
			   count[VERDICT_OK], count[VERDICT_UNKNOWN] - unreadable, unreadable);
	/* at a terminal or -w: wrapped to the width, as the table */
	print_wrapped(out, "", line, o->notruncate ? 0 : o->width);
}
