// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - remedies an administrator can run: ordered steps with the real
 * device, mount point, UUID and label, as lines of a shell script (commands,
 * and comments starting with "# "); every name quoted for the shell.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsaudit.h"

/* Is @s safe as one word in a POSIX shell without quoting? */
static int shell_safe(const char *s)
{
	if (!*s || *s == '~')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')
		      || (*s >= '0' && *s <= '9') || strchr("_./:+,@%=-", *s)))
			return 0;
	return 1;
}

/* a byte that needs $'...' to be written down: a control character, DEL,
 * or a byte that is not part of valid UTF-8 */
static int needs_ansi_c(const char *s)
{
	const unsigned char *p = (const unsigned char *) s;

	for (; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 1;
	return fsa_utf8_valid(s) ? 0 : 1;
}

/* @s as one word for a shell, for remedies: unchanged when safe; in single
 * quotes (a ' as '\'') when it has only printable characters; as $'...'
 * with \xHH escapes when it has a control character or is not valid UTF-8,
 * so that the remedy text itself is printable in every output format.  A
 * leading "-" gets "./" in front (a relative name read as an option).
 * -1 when it does not fit. */
int fsa_shell_quote(const char *s, char *buf, size_t bufsz)
{
	const unsigned char *p;
	size_t o = 0;
	int ansi;

	if (bufsz < 8)
		return -1;
	if (*s == '-') {
		memcpy(buf, "./", 2);
		o = 2;
	}
	if (shell_safe(s)) {
		if (o + strlen(s) + 1 > bufsz)
			return -1;
		strcpy(buf + o, s);
		return 0;
	}
	ansi = needs_ansi_c(s);
	if (ansi)
		buf[o++] = '$';
	buf[o++] = '\'';
	for (p = (const unsigned char *) s; *p; p++) {
		char e[8];

		if (ansi && (*p < 0x20 || *p >= 0x7f))
			snprintf(e, sizeof(e), "\\x%02x", *p);
		else if (ansi && (*p == '\'' || *p == '\\'))
			snprintf(e, sizeof(e), "\\%c", *p);
		else if (*p == '\'')
			snprintf(e, sizeof(e), "'\\''");
		else
			snprintf(e, sizeof(e), "%c", *p);
		if (o + strlen(e) + 2 > bufsz)
			return -1;
		memcpy(buf + o, e, strlen(e));
		o += strlen(e);
	}
	buf[o++] = '\'';
	buf[o] = '\0';
	return 0;
}

/* the remedy being written: lines of a shell script */
struct steps {
	char buf[12288];
	char dev[PATH_MAX * 4 + 32];	/* the device, quoted */
	char target[PATH_MAX * 4 + 8];	/* the mount point, quoted, or "" */
};

static void __attribute__((format(printf, 2, 3))) step(struct steps *st, const char *fmt, ...)
{
	char line[sizeof(st->buf)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fsa_append(st->buf, sizeof(st->buf), "%s%s", st->buf[0] ? "\n" : "", line);
}

static void quote_or(const char *s, char *buf, size_t bufsz, const char *fallback)
{
	if (fsa_shell_quote(s, buf, bufsz) != 0)
		snprintf(buf, bufsz, "%s", fallback);
}

/* a file name for the backup of @src: its base name, letters and digits */
static void backup_name(const struct source *src, char *buf, size_t bufsz)
{
	const char *b = strrchr(src->partition ? src->image : src->name, '/');
	size_t o;

	b = b ? b + 1 : (src->partition ? src->image : src->name);
	o = (size_t) snprintf(buf, bufsz, "/var/tmp/fsaudit-");
	for (; *b && o + 12 < bufsz; b++)
		buf[o++] = (*b >= 'a' && *b <= 'z') || (*b >= 'A' && *b <= 'Z')
			   || (*b >= '0' && *b <= '9') || *b == '-' || *b == '.' ? *b : '_';
	if (src->partition)
		o += (size_t) snprintf(buf + o, bufsz - o, "-p%d", src->partno);
	snprintf(buf + o, bufsz - o, ".tar");
}

/* a UUID mkfs.ext4 -U and mkfs.xfs -m uuid= take: 8-4-4-4-12 hex digits */
static int uuid_form(const char *u)
{
	int i;

	for (i = 0; i < 36; i++)
		if ((i == 8 || i == 13 || i == 18 || i == 23) ? u[i] != '-' : !isxdigit((unsigned char) u[i]))
			return 0;
	return u[36] == '\0';
}

/* mkfs of the new filesystem, keeping the UUID and label that fstab and
 * bootloaders name */
static void mkfs_step(struct steps *st, const struct result *r)
{
	const char *new = r->info.fix_mkfs;
	char uuid[256] = "", label[1024] = "", q[1000];
	int xfs = strcmp(new, "xfs") == 0;

	if (r->uuid && *r->uuid && !uuid_form(r->uuid))
		step(st, "# the new filesystem gets a new UUID: name it in /etc/fstab by the new one (blkid)");
	else if (r->uuid && *r->uuid) {
		quote_or(r->uuid, q, sizeof(q), "UUID");
		snprintf(uuid, sizeof(uuid), xfs ? " -m uuid=%s" : " -U %s", q);
	}
	if (r->label && *r->label) {
		if (strlen(r->label) > (xfs ? 12 : 16))
			step(st, "# the label is longer than %s keeps (%d bytes): choose a shorter one",
			     xfs ? "XFS" : "ext4", xfs ? 12 : 16);
		else {
			quote_or(r->label, q, sizeof(q), "LABEL");
			snprintf(label, sizeof(label), " -L %s", q);
		}
	}
	/* the old signatures go first: a reiserfs superblock at 64 KiB outlives
	 * mkfs.ext4, and mount and libblkid would find both */
	step(st, "wipefs -a %s", st->dev);
	if (xfs)
		step(st, "mkfs.xfs -f%s%s %s", uuid, label, st->dev);
	else
		step(st, "mkfs.ext4 -F -I 256%s%s %s", uuid, label, st->dev);
}

/* what is done to the device: everything between umount and mount */
static void fix_steps(struct steps *st, const struct result *r, const char *mnt)
{
	const struct fsa_info *in = &r->info;

	if (in->ext2_driver) {
		step(st, "# the ext2 driver keeps times up to 2038 only; the ext4 driver mounts this filesystem");
		step(st, "# as it is (mount -t ext4), or by default once it has a journal (ext3):");
		step(st, "tune2fs -O has_journal %s", st->dev);
	}
	switch (in->fix) {
	case FSA_FIX_EXT_REV0:
		step(st, "# back up the data first: tune2fs -I rewrites every inode table (%s)", in->fix_why);
		step(st, "tune2fs -O large_file %s", st->dev);
		step(st, "e2fsck -f -p %s", st->dev);
		step(st, "tune2fs -I 256 %s", st->dev);
		break;
	case FSA_FIX_EXT_INODES:
		step(st, "# back up the data first: tune2fs -I rewrites every inode table (%s)", in->fix_why);
		step(st, "e2fsck -f -p %s", st->dev);
		step(st, "tune2fs -I 256 %s", st->dev);
		break;
	case FSA_FIX_XFS_BIGTIME:
		if (in->xfs_one_ag) {
			/* xfs_admin -O runs xfs_repair -c, which stops at
			 * "Only one AG detected - cannot validate filesystem
			 * geometry" */
			step(st, "# one allocation group: xfs_admin -O fails in xfs_repair, which needs");
			step(st, "# -o force_geometry to trust the geometry with no second superblock");
			step(st, "xfs_repair -o force_geometry -c bigtime=1 %s", st->dev);
		} else {
			step(st, "xfs_admin -O bigtime=1 %s", st->dev);
		}
		break;
	case FSA_FIX_RECREATE:
		mkfs_step(st, r);
		step(st, "mount -t %s %s %s", in->fix_mkfs, st->dev, mnt);
		step(st, "tar --acls --xattrs --numeric-owner -C %s -xpf \"$backup\"", mnt);
		break;
	}
}

/* The remedy for @src as probed in @r: "" when there is nothing to do.
 * Mounted filesystems are unmounted first and mounted again at the end; a
 * partition of an image file is attached with losetup and detached. */
char *fsa_remedy_steps(const struct source *src, const struct result *r, const char *kernel_note)
{
	const struct fsa_info *in = &r->info;
	int recreate = in->fix == FSA_FIX_RECREATE;
	struct steps *st;
	char *out;

	if ((!kernel_note || !*kernel_note) && (!r->have_info || (in->fix == FSA_FIX_NONE && !in->ext2_driver)))
		return fsa_xstrdup("");		/* nothing to do: most filesystems */
	st = malloc(sizeof(*st));
	if (!st)
		fsa_internal_error("memory", ENOMEM);
	st->buf[0] = st->dev[0] = st->target[0] = '\0';
	if (kernel_note && *kernel_note)
		step(st, "# %s", kernel_note);
	if (!r->have_info || (in->fix == FSA_FIX_NONE && !in->ext2_driver))
		goto done;

	if (src->partition) {
		char q[PATH_MAX * 4 + 8];

		quote_or(src->image, q, sizeof(q), "IMAGE");
		step(st, "dev=$(losetup -f -P --show %s)", q);
		snprintf(st->dev, sizeof(st->dev), "\"${dev}p%d\"", src->partno);
	} else {
		quote_or(src->name, st->dev, sizeof(st->dev), "DEVICE");
	}
	if (src->fstype && src->target && *src->target)	/* mounted now */
		quote_or(src->target, st->target, sizeof(st->target), "TARGET");

	if (recreate) {
		char backup[PATH_MAX];

		backup_name(src, backup, sizeof(backup));
		step(st, "# %s: back up, make a new %s filesystem with the same UUID and label, restore",
		     in->fix_why, in->fix_mkfs);
		step(st, "# the backup: a file on another filesystem, with room for the data");
		step(st, "backup=%s", backup);
	}
	if (st->target[0]) {
		if (recreate)
			step(st, "tar --acls --xattrs -C %s -cpf \"$backup\" .", st->target);
		step(st, "umount %s", st->target);
		fix_steps(st, r, st->target);
		if (recreate || in->ext2_driver)
			step(st, "# /etc/fstab: give %s the type %s", st->target,
			     recreate ? in->fix_mkfs : "ext4");
		if (!recreate)
			step(st, "mount%s %s %s", in->ext2_driver ? " -t ext4" : "", st->dev, st->target);
	} else if (recreate) {
		step(st, "m=$(mktemp -d)");
		step(st, "mount -o ro %s \"$m\"", st->dev);
		step(st, "tar --acls --xattrs -C \"$m\" -cpf \"$backup\" .");
		step(st, "umount \"$m\"");
		fix_steps(st, r, "\"$m\"");
		step(st, "umount \"$m\"");
		step(st, "rmdir \"$m\"");
	} else {
		fix_steps(st, r, NULL);
	}
	if (src->partition)
		step(st, "losetup -d \"$dev\"");
done:
	out = fsa_xstrdup(st->buf);
	free(st);
	return out;
}
