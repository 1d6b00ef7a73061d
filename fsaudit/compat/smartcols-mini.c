/*
 * fsaudit - the subset of libsmartcols that fsaudit uses, for the static
 * build only (Debian ships no libsmartcols.a).  Same prototypes as
 * <libsmartcols.h>; JSON, raw and pairs output follow libsmartcols 2.38,
 * the table is a plain left-aligned one.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libsmartcols.h>

struct libscols_column {
	char *name;
	int flags, json_type;
};

struct libscols_line {
	char **data;
};

struct libscols_table {
	char *name;
	int json, raw, export, noheadings, shellvar;
	struct libscols_column **cols;
	size_t ncols;
	struct libscols_line **lines;
	size_t nlines;
};

struct libscols_table *scols_new_table(void)
{
	return calloc(1, sizeof(struct libscols_table));
}

void scols_unref_table(struct libscols_table *tb)
{
	size_t i, j;

	if (!tb)
		return;
	for (i = 0; i < tb->nlines; i++) {
		for (j = 0; j < tb->ncols; j++)
			free(tb->lines[i]->data[j]);
		free(tb->lines[i]->data);
		free(tb->lines[i]);
	}
	for (j = 0; j < tb->ncols; j++) {
		free(tb->cols[j]->name);
		free(tb->cols[j]);
	}
	free(tb->lines);
	free(tb->cols);
	free(tb->name);
	free(tb);
}

int scols_table_set_name(struct libscols_table *tb, const char *name)
{
	free(tb->name);
	tb->name = strdup(name);
	return tb->name ? 0 : -1;
}

int scols_table_enable_json(struct libscols_table *tb, int e) { tb->json = e; return 0; }
int scols_table_enable_raw(struct libscols_table *tb, int e) { tb->raw = e; return 0; }
int scols_table_enable_export(struct libscols_table *tb, int e) { tb->export = e; return 0; }
int scols_table_enable_noheadings(struct libscols_table *tb, int e) { tb->noheadings = e; return 0; }
int scols_table_enable_shellvar(struct libscols_table *tb, int e) { tb->shellvar = e; return 0; }

struct libscols_column *scols_table_new_column(struct libscols_table *tb,
		const char *name, double whint, int flags)
{
	struct libscols_column *cl, **n;

	(void) whint;
	if (tb->nlines)
		return NULL;
	cl = calloc(1, sizeof(*cl));
	n = realloc(tb->cols, (tb->ncols + 1) * sizeof(*n));
	if (!cl || !n || !(cl->name = strdup(name))) {
		free(cl);
		if (n)
			tb->cols = n;
		return NULL;
	}
	cl->flags = flags;
	tb->cols = n;
	tb->cols[tb->ncols++] = cl;
	return cl;
}

int scols_column_set_json_type(struct libscols_column *cl, int type)
{
	cl->json_type = type;
	return 0;
}

struct libscols_line *scols_table_new_line(struct libscols_table *tb,
		struct libscols_line *parent)
{
	struct libscols_line *ln, **n;

	(void) parent;
	ln = calloc(1, sizeof(*ln));
	n = realloc(tb->lines, (tb->nlines + 1) * sizeof(*n));
	if (n)
		tb->lines = n;
	if (!ln || !n || !(ln->data = calloc(tb->ncols ? tb->ncols : 1, sizeof(char *)))) {
		free(ln);
		return NULL;
	}
	tb->lines[tb->nlines++] = ln;
	return ln;
}

int scols_line_set_data(struct libscols_line *ln, size_t n, const char *data)
{
	char *d = data ? strdup(data) : NULL;

	if (data && !d)
		return -1;
	free(ln->data[n]);
	ln->data[n] = d;
	return 0;
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char) *s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void print_json(struct libscols_table *tb, FILE *out)
{
	size_t i, j;

	fprintf(out, "{\n   \"%s\": [\n", tb->name ? tb->name : "table");
	for (i = 0; i < tb->nlines; i++) {
		fputs(i ? "      },{\n" : "      {\n", out);
		for (j = 0; j < tb->ncols; j++) {
			const char *d = tb->lines[i]->data[j];
			const char *p;

			fputs("         \"", out);
			for (p = tb->cols[j]->name; *p; p++)
				fputc(tolower((unsigned char) *p), out);
			fputs("\": ", out);
			switch (tb->cols[j]->json_type) {
			case SCOLS_JSON_NUMBER:
				fputs(d && *d ? d : "null", out);
				break;
			case SCOLS_JSON_BOOLEAN:
				fputs(d && *d && *d != '0' && *d != 'n' && *d != 'N' ? "true" : "false", out);
				break;
			default:
				if (d && *d)
					json_string(out, d);
				else
					fputs("null", out);
			}
			fputs(j + 1 < tb->ncols ? ",\n" : "\n", out);
		}
		if (i + 1 == tb->nlines)
			fputs("      }\n", out);
	}
	if (!tb->nlines)
		fputs("\n", out);
	fputs("   ]\n}\n", out);
}

static void raw_string(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char) *s;

		if (c <= 0x20 || c == '\\' || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

static void export_name(struct libscols_table *tb, FILE *out, const char *name)
{
	for (; *name; name++)
		fputc(tb->shellvar && !isalnum((unsigned char) *name) ? '_' : *name, out);
}

static void print_export(struct libscols_table *tb, FILE *out)
{
	size_t i, j;

	for (i = 0; i < tb->nlines; i++) {
		for (j = 0; j < tb->ncols; j++) {
			const char *d = tb->lines[i]->data[j];

			if (j)
				fputc(' ', out);
			export_name(tb, out, tb->cols[j]->name);
			fputs("=\"", out);
			for (; d && *d; d++) {
				if ((unsigned char) *d < 0x20 || *d == 0x7f) {
					fprintf(out, "\\x%02x", (unsigned char) *d);
					continue;
				}
				if (*d == '"' || *d == '\\' || *d == '`' || *d == '$')
					fputc('\\', out);
				fputc(*d, out);
			}
			fputc('"', out);
		}
		fputc('\n', out);
	}
}

/* control characters from untrusted images are printed as \xNN */
static size_t safe_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char) *s < 0x20 || *s == 0x7f) ? 4 : 1;
	return n;
}

static void fputs_safe(FILE *out, const char *s)
{
	for (; *s; s++) {
		if ((unsigned char) *s < 0x20 || *s == 0x7f)
			fprintf(out, "\\x%02x", (unsigned char) *s);
		else
			fputc(*s, out);
	}
}

static void print_table(struct libscols_table *tb, FILE *out)
{
	size_t *w = calloc(tb->ncols ? tb->ncols : 1, sizeof(size_t));
	size_t i, j;

	if (!w)
		return;
	for (j = 0; j < tb->ncols; j++) {
		w[j] = strlen(tb->cols[j]->name);
		for (i = 0; i < tb->nlines; i++) {
			const char *d = tb->lines[i]->data[j];

			if (d && safe_len(d) > w[j])
				w[j] = safe_len(d);
		}
	}
	for (i = tb->noheadings ? 1 : 0; i <= tb->nlines; i++) {
		for (j = 0; j < tb->ncols; j++) {
			const char *d = i ? tb->lines[i - 1]->data[j] : tb->cols[j]->name;
			int right = (tb->cols[j]->flags & SCOLS_FL_RIGHT) != 0;
			int last = j + 1 == tb->ncols;

			if (!d)
				d = "";
			if (tb->raw) {
				if (j)
					fputc(' ', out);
				if (i)
					raw_string(out, d);
				else
					fputs(d, out);
				continue;
			}
			if (right)
				fprintf(out, "%*s", (int) (w[j] - safe_len(d)), "");
			fputs_safe(out, d);
			if (!right && !last)
				fprintf(out, "%*s", (int) (w[j] - safe_len(d)), "");
			if (!last)
				fputc(' ', out);
		}
		fputc('\n', out);
	}
	free(w);
}

int scols_print_table(struct libscols_table *tb)
{
	if (tb->json)
		print_json(tb, stdout);
	else if (tb->export)
		print_export(tb, stdout);
	else
		print_table(tb, stdout);
	return fflush(stdout) == 0 ? 0 : -1;
}
