// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - names in remedies: safe to paste into a POSIX shell.
 */
#include <stdio.h>
#include <string.h>

#include "fsaudit.h"

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
void fsa_remedy_name(const struct source *src, char *buf, size_t bufsz)
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
