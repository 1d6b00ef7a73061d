// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - output: the columns (an enum and a designated-initializer
 * table, as findmnt and lsblk), the records as a table, JSON, raw or
 * key="value" pairs through libsmartcols, and the summary line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* SOURCE,TARGET,FSTYPE,FORMAT,TIME-MAX,VERDICT,REMOVAL,REMEDY */
void fsa_set_default_columns(void)
{
	static const int defaults[] = {
		COL_SOURCE, COL_TARGET, COL_FSTYPE, COL_FORMAT, COL_TIME_MAX,
		COL_VERDICT, COL_REMOVAL, COL_REMEDY
	};

	for (ncolumns = 0; ncolumns < sizeof(defaults) / sizeof(defaults[0]); ncolumns++)
		columns[ncolumns] = defaults[ncolumns];
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


static void add_line(struct libscols_table *tb, const struct fsa_record *r, int json)
{
	struct libscols_line *ln;
	struct fsa_item_strings is;
	char buf[64];
	const struct fsa_info *in = &r->info;
	int limits = r->have_info && in->has_limits;
	char *fixed = NULL;
	size_t i;

	fsa_item_strings(r, &is);
	ln = scols_table_new_line(tb, NULL);
	if (!ln)
		fsa_internal_error("table", ENOMEM);

	for (i = 0; i < ncolumns; i++) {
		const char *s = NULL;

		buf[0] = '\0';
		switch (columns[i]) {
		case COL_SOURCE:
			s = r->source;
			break;
		case COL_TARGET:
			s = r->target;
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
			s = is.deps;
			break;
		case COL_SINCE:
			s = is.since;
			break;
		case COL_REMOVAL:
			s = r->removal_note[0] ? r->removal_note : is.removal;
			break;
		case COL_REASON:
			s = is.reason;
			break;
		case COL_REPLACEMENT:
			s = is.repl;
			break;
		case COL_POLICY:
			s = is.policy;
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
		if (json) {
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
		if (*s && scols_line_set_data(ln, i, s))
			fsa_internal_error("table", ENOMEM);
		if (strlen(s) > colmax[i])
			colmax[i] = strlen(s);
		free(fixed);
		fixed = NULL;
	}
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


/* "N sources: N at risk (N deprecated, ...), N ok, N unknown, N unreadable" */
void fsa_print_summary(struct fsaudit *fa, FILE *out)
{
	unsigned long count[VERDICT_NOMOUNT + 1] = { 0 }, unreadable = 0, risk = 0;
	size_t i;
	int v, first = 1;

	for (i = 0; i < fa->nrecs; i++) {
		if (fa->recs[i].unreadable)
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
		fsa_internal_error("memory", ENOMEM);
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
static void wrap_last_column(struct libscols_table *tb)
{
	struct libscols_column *cl = scols_table_get_column(tb, ncolumns - 1);
	struct libscols_iter *itr;
	struct libscols_line *ln;
	FILE *null = fopen("/dev/null", "we");
	size_t width;

	if (!null)
		return;		/* libsmartcols cuts the words where it must */
	scols_table_set_stream(tb, null);
	scols_print_table(tb);
	fclose(null);
	scols_table_set_stream(tb, stdout);
	width = scols_column_get_width(cl);
	if (!width)
		return;
	itr = scols_new_iter(SCOLS_ITER_FORWARD);
	if (!itr)
		fsa_internal_error("table", ENOMEM);
	while (scols_table_next_line(tb, itr, &ln) == 0) {
		const char *d = scols_cell_get_data(scols_line_get_cell(ln, ncolumns - 1));
		char *w;

		if (!d || strlen(d) <= width)
			continue;
		w = word_wrap(d, width);
		if (scols_line_set_data(ln, ncolumns - 1, w))
			fsa_internal_error("table", ENOMEM);
		free(w);
	}
	scols_free_iter(itr);
}

static struct libscols_table *init_table(const struct fsa_outopts *o)
{
	struct libscols_table *tb = scols_new_table();
	size_t i;

	if (!tb)
		fsa_internal_error("table", ENOMEM);
	scols_table_set_name(tb, "filesystems");
	scols_table_enable_json(tb, o->json);
	scols_table_enable_raw(tb, o->raw);
	scols_table_enable_export(tb, o->pairs);
	scols_table_enable_shellvar(tb, o->pairs);
	scols_table_enable_noheadings(tb, o->noheadings);
	if (o->width) {
		scols_table_set_termwidth(tb, o->width);
		scols_table_set_termforce(tb, SCOLS_TERMFORCE_ALWAYS);
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
		cl = scols_table_new_column(tb, ci->name, ci->whint, flags);
		if (!cl)
			fsa_internal_error("table", ENOMEM);
		if (o->json)
			scols_column_set_json_type(cl, ci->json_type);
		if (flags & SCOLS_FL_WRAP) {
			scols_column_set_wrapfunc(cl, scols_wrapnl_chunksize,
						  scols_wrapnl_nextchunk, NULL);
			scols_column_set_safechars(cl, "\n");
		}
	}
	return tb;
}

/* the records as a table, JSON, raw or pairs (not with -q) */
void fsa_print_table(struct fsaudit *fa, const struct fsa_outopts *o)
{
	struct libscols_table *tb = init_table(o);
	size_t i, nrows = 0;

	for (i = 0; i < fa->nrecs; i++) {
		if (fa->at_risk_only && fa->recs[i].verdict <= VERDICT_OK)
			continue;
		add_line(tb, &fa->recs[i], o->json);
		nrows++;
	}

	/* at a terminal: the short identifying columns keep their data's width
	 * (up to a cap), the wide text columns are cut or wrapped first */
	for (i = 0; i + 1 < ncolumns; i++) {
		size_t cap = columns[i] == COL_SOURCE ? 40 : columns[i] == COL_FORMAT ? 24
			     : columns[i] == COL_TARGET ? 20 : columns[i] == COL_FSTYPE ? 10 : 0;

		if (cap && colmax[i])
			scols_column_set_whint(scols_table_get_column(tb, i),
					       (double) (colmax[i] < cap ? colmax[i] : cap));
	}

	if (o->wrap && ncolumns && (infos[columns[ncolumns - 1]].flags & SCOLS_FL_TRUNC))
		wrap_last_column(tb);

	if (!o->quiet && (nrows || o->json))
		scols_print_table(tb);
	scols_unref_table(tb);
}
