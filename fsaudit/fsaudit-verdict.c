// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - the verdict, the deprecation items that apply, and what the
 * kernel that will mount the filesystem can do: its configuration
 * (/proc/config.gz, /boot/config-R) and which driver serves ext2.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsaudit.h"

/* the most severe of: 2038-limited, the verdicts of the items */
int fsa_compute_verdict(const struct fsa_info *in, int have_info)
{
	int v = VERDICT_OK, it;

	if (!have_info || (!in->has_limits && !in->no_times))
		return VERDICT_UNKNOWN;
	if (in->has_limits && !in->no_times && in->time_max <= FSA_S32_MAX)
		v = VERDICT_2038;
	for (it = 0; it < FSA_NITEMS; it++)
		if ((in->items & (1U << it)) && fsa_items[it].verdict > v)
			v = fsa_items[it].verdict;
	return v;
}

/* DEPRECATED, SINCE, REMOVAL, REASON, REPLACEMENT, POLICY from the items
 * that apply */
void fsa_item_strings(const struct fsa_record *rec, struct fsa_item_strings *s)
{
	const struct fsa_info *in = &rec->info;
	int it;

	memset(s, 0, sizeof(*s));
	for (it = 0; it < FSA_NITEMS; it++) {
		const struct fsa_item *d = &fsa_items[it];

		if (!rec->have_info || !(in->items & (1U << it)))
			continue;
		fsa_append(s->deps, sizeof(s->deps), "%s%s", s->deps[0] ? "," : "", d->name);
		if (d->since[0] && (!s->since[0] || strcmp(d->since, s->since) < 0))
			snprintf(s->since, sizeof(s->since), "%s", d->since);
		if (d->removal[0] && (!s->removal[0] || strcmp(d->removal, s->removal) < 0))
			snprintf(s->removal, sizeof(s->removal), "%s", d->removal);
		fsa_append(s->reason, sizeof(s->reason), "%s%s", s->reason[0] ? "; " : "", d->reason);
		fsa_append(s->repl, sizeof(s->repl), "%s%s", s->repl[0] ? "; " : "", d->replacement);
		if (d->policy[0])
			fsa_append(s->policy, sizeof(s->policy), "%s%s", s->policy[0] ? "," : "", d->policy);
	}
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

/* Kconfig options of the table above that are bool: "=y", the others "=y or =m" */
static int kconfig_bool(const char *sym)
{
	return strcmp(sym, "XFS_SUPPORT_V4") == 0 || strcmp(sym, "XFS_SUPPORT_ASCII_CI") == 0;
}

/* "6.13" from the configuration's "# Linux/x86 6.13.0 Kernel Configuration"
 * line: 1 when the kernel is 6.13 or later (no reiserfs at all) */
static int kconfig_after_reiserfs(struct fsaudit *fa)
{
	const char *p = strstr(fa->kconfig, "\n# Linux/");
	unsigned maj, min;

	if (!p || !(p = strchr(p + 9, ' ')) || sscanf(p, " %u.%u", &maj, &min) != 2)
		return 0;
	return maj > 6 || (maj == 6 && min >= 13);
}

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

/* --kernel-config FILE must be readable: 0, or -errno */
int fsa_kconfig_require(struct fsaudit *fa)
{
	if (!fa->kconfig_file || !*fa->kconfig_file || kconfig_load(fa))
		return 0;
	return access(fa->kconfig_file, R_OK) == 0 ? -EINVAL : -errno;
}

/* ------------------------------------------------------------------ */
/* the mount policies: fs.deprecated_policy, fs.y2038_policy and
 * /sys/fs/deprecated/ITEM/policy (Documentation/admin-guide/sysctl/fs.rst) */

const char *const fsa_policy_names[] = { "allow", "warn", "ro", "deny" };

const char *const fsa_kernel_names[] = {
	[FSA_KERNEL_UNKNOWN] = "",
	[FSA_KERNEL_MOUNTS] = "mounts",
	[FSA_KERNEL_WARNS] = "warns",
	[FSA_KERNEL_RO] = "read-only",
	[FSA_KERNEL_REFUSED] = "refused",
	[FSA_KERNEL_CANNOT] = "cannot mount",
};

static int policy_word(const char *w, size_t len)
{
	int m;

	for (m = FSA_POL_ALLOW; m <= FSA_POL_DENY; m++)
		if (strlen(fsa_policy_names[m]) == len && strncmp(w, fsa_policy_names[m], len) == 0)
			return m;
	return FSA_POL_DEFAULT;
}

/* the running kernel's policies, where it has the series */
void fsa_policy_load(struct fsaudit *fa)
{
	char dir[PATH_MAX], v[64];
	int i;

	fa->pol_deprecated = fa->pol_y2038 = FSA_POL_WARN;	/* the default */
	for (i = 0; i < FSA_NITEMS; i++)
		fa->pol_item[i] = policy_word(fsa_items[i].policy, strlen(fsa_items[i].policy));
	if (!fa->series)
		return;
	fa->pol_known = 1;
	snprintf(dir, sizeof(dir), "%s/proc/sys/fs", fa->sysroot);
	if (fsa_read_sys_value(dir, "deprecated_policy", v, sizeof(v)) == 0
	    && policy_word(v, strlen(v)) != FSA_POL_DEFAULT)
		fa->pol_deprecated = policy_word(v, strlen(v));
	if (fsa_read_sys_value(dir, "y2038_policy", v, sizeof(v)) == 0
	    && policy_word(v, strlen(v)) != FSA_POL_DEFAULT)
		fa->pol_y2038 = policy_word(v, strlen(v));
}

/* --policy LIST: "MODE" (both sysctls), "deprecated:MODE", "y2038:MODE",
 * "ITEM:MODE" (an item's policy file; "default" follows the sysctl), as
 * fs_deprecated_policy= takes them; 0, or -1 on a bad entry */
int fsa_policy_preview(struct fsaudit *fa, const char *list)
{
	const char *p = list;

	if (!*p)
		return -1;
	while (*p) {
		size_t len = strcspn(p, ",");
		const char *colon = memchr(p, ':', len);
		int m, i;

		if (!colon) {
			if ((m = policy_word(p, len)) == FSA_POL_DEFAULT)
				return -1;
			fa->pol_deprecated = fa->pol_y2038 = m;
		} else {
			size_t nlen = (size_t) (colon - p), mlen = len - nlen - 1;

			m = policy_word(colon + 1, mlen);
			if (m == FSA_POL_DEFAULT && !(mlen == 7 && strncmp(colon + 1, "default", 7) == 0))
				return -1;
			if (nlen == 10 && strncmp(p, "deprecated", 10) == 0 && m != FSA_POL_DEFAULT)
				fa->pol_deprecated = m;
			else if (nlen == 5 && strncmp(p, "y2038", 5) == 0 && m != FSA_POL_DEFAULT)
				fa->pol_y2038 = m;
			else {
				for (i = 0; i < FSA_NITEMS; i++)
					if (strlen(fsa_items[i].name) == nlen
					    && strncmp(p, fsa_items[i].name, nlen) == 0)
						break;
				if (i == FSA_NITEMS)
					return -1;
				fa->pol_item[i] = m;
			}
		}
		p += len;
		if (*p == ',' && *++p == '\0')
			return -1;
	}
	fa->pol_known = 1;
	return 0;
}

/* The policy the kernel applies to the next mount of @in: the stricter of
 * those that apply; FSA_POL_DEFAULT when none does.  @why says which. */
static int policy_for(const struct fsaudit *fa, const struct fsa_info *in, char *why, size_t whysz)
{
	/* every item of the filesystem: the ext2 driver declares
	 * ext4-small-inodes as well, for 128-byte inodes and revision 0 */
	unsigned items = in->items;
	int m = FSA_POL_DEFAULT, it;

	why[0] = '\0';
	for (it = 0; it < FSA_NITEMS; it++) {
		int im = fa->pol_item[it];

		if (!(items & (1U << it)))
			continue;
		if (im == FSA_POL_DEFAULT)
			im = fa->pol_deprecated;
		if (im > m) {
			m = im;
			if (fa->pol_item[it] != FSA_POL_DEFAULT)
				snprintf(why, whysz, "/sys/fs/deprecated/%s/policy=%s", fsa_items[it].name,
					 fsa_policy_names[im]);
			else
				snprintf(why, whysz, "fs.deprecated_policy=%s for %s", fsa_policy_names[im],
					 fsa_items[it].name);
		}
	}
	if (in->has_limits && !in->no_times && in->s_time_max <= FSA_S32_MAX && fa->pol_y2038 > m) {
		m = fa->pol_y2038;
		snprintf(why, whysz, "fs.y2038_policy=%s", fsa_policy_names[m]);
	}
	return m;
}

/* What the kernel will do with the next mount of the source in @r: its
 * configuration (unmounted filesystems only: a mounted one is mountable),
 * then the policies.  Sets r->kernel, r->kernel_can_mount, r->kernel_note. */
void fsa_kernel_outcome(struct fsaudit *fa, const struct source *src, struct result *r)
{
	const char *sym = NULL;
	char why[200];
	int m;

	r->kernel = FSA_KERNEL_UNKNOWN;
	r->kernel_can_mount = -1;
	r->kernel_note[0] = '\0';
	if (!r->have_info)
		return;
	if (!src->fstype)
		r->kernel_can_mount = kernel_can_mount(fa, r->fstype, r->info.items, &sym);
	if (r->kernel_can_mount == 0) {
		r->kernel = FSA_KERNEL_CANNOT;
		if (strcmp(sym, "REISERFS_FS") == 0 && kconfig_after_reiserfs(fa))
			snprintf(r->kernel_note, sizeof(r->kernel_note),
				 "this kernel cannot mount it (no reiserfs after Linux 6.12): a 6.12 LTS kernel with CONFIG_REISERFS_FS reads it");
		else
			snprintf(r->kernel_note, sizeof(r->kernel_note),
				 "this kernel cannot mount it (CONFIG_%s is not set): to reach the data, boot a kernel with CONFIG_%s=%s",
				 sym, sym, kconfig_bool(sym) ? "y" : "y or =m");
		return;
	}
	if (r->kernel_can_mount == 1)
		r->kernel = FSA_KERNEL_MOUNTS;
	if (!fa->pol_known)
		return;
	m = policy_for(fa, &r->info, why, sizeof(why));
	r->kernel = m == FSA_POL_DENY ? FSA_KERNEL_REFUSED : m == FSA_POL_RO ? FSA_KERNEL_RO
		    : m == FSA_POL_WARN ? FSA_KERNEL_WARNS : FSA_KERNEL_MOUNTS;
	if (m == FSA_POL_DENY)
		snprintf(r->kernel_note, sizeof(r->kernel_note), "the next mount is refused: %s", why);
	else if (m == FSA_POL_RO)
		snprintf(r->kernel_note, sizeof(r->kernel_note),
			 "the next mount is read-only: %s (a read-write mount fails with EACCES, mount(8) retries read-only)",
			 why);
}

/* ------------------------------------------------------------------ */
/* which driver serves ext2 */

/* is this mounted ext2 filesystem served by fs/ext2 (not by ext4)? */
int fsa_mounted_ext2_driver(struct fsaudit *fa, const struct source *src)
{
	char kname[NAME_MAX + 1], rel[NAME_MAX + 32];
	const char *b;

	if (fsa_devno_kname(fa, src->devno, kname, sizeof(kname)) != 0) {
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
int fsa_has_ext2_driver(struct fsaudit *fa)
{
	if (fa->has_ext2_driver < 0)
		fa->has_ext2_driver = fsa_path_exists(fa->sysroot, "/sys/fs/deprecated/ext2")
				   || fsa_path_exists(fa->sysroot, "/sys/module/ext2")
				   /* the kernel configuration, where readable, says
				    * whether fs/ext2 is built in */
				   || (kconfig_load(fa) && kconfig_set(fa, "EXT2_FS"));
	return fa->has_ext2_driver;
}
