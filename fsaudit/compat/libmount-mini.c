/*
 * fsaudit - the subset of libmount that fsaudit uses, for the static
 * build only (Debian ships no libmount.a).  Parses /proc/self/mountinfo
 * format; same prototypes as <libmount.h>.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include <libmount.h>

struct libmnt_fs {
	char *source, *target, *fstype, *fs_options;
	dev_t devno;
};

struct libmnt_table {
	struct libmnt_fs *fs;
	size_t nfs;
	int (*errcb)(struct libmnt_table *, const char *, int);
};

struct libmnt_iter {
	size_t pos;
};

struct libmnt_table *mnt_new_table(void)
{
	return calloc(1, sizeof(struct libmnt_table));
}

void mnt_unref_table(struct libmnt_table *tb)
{
	size_t i;

	if (!tb)
		return;
	for (i = 0; i < tb->nfs; i++) {
		free(tb->fs[i].source);
		free(tb->fs[i].target);
		free(tb->fs[i].fstype);
		free(tb->fs[i].fs_options);
	}
	free(tb->fs);
	free(tb);
}

int mnt_table_set_parser_errcb(struct libmnt_table *tb,
		int (*cb)(struct libmnt_table *tb, const char *filename, int line))
{
	tb->errcb = cb;
	return 0;
}

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static char *unmangle(const char *s)
{
	char *r = malloc(strlen(s) + 1), *p = r;

	if (!r)
		return NULL;
	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7'
		    && s[3] >= '0' && s[3] <= '7') {
			*p++ = (char) (((s[1] - '0') << 6) | ((s[2] - '0') << 3) | (s[3] - '0'));
			s += 4;
		} else
			*p++ = *s++;
	}
	*p = '\0';
	return r;
}

static int parse_line(char *line, struct libmnt_fs *fs)
{
	char *f[64], *save = NULL, *tok;
	unsigned maj, min;
	int n = 0, sep = -1, i;

	for (tok = strtok_r(line, " \t\n", &save); tok && n < 64; tok = strtok_r(NULL, " \t\n", &save))
		f[n++] = tok;
	for (i = 6; i < n; i++)
		if (strcmp(f[i], "-") == 0) {
			sep = i;
			break;
		}
	if (sep < 0 || n < sep + 3 || sscanf(f[2], "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	memset(fs, 0, sizeof(*fs));
	fs->devno = makedev(maj, min);
	fs->target = unmangle(f[4]);
	fs->fstype = unmangle(f[sep + 1]);
	fs->source = unmangle(f[sep + 2]);
	fs->fs_options = n > sep + 3 ? strdup(f[sep + 3]) : NULL;
	if (!fs->target || !fs->fstype || !fs->source)
		return -ENOMEM;
	return 0;
}

int mnt_table_parse_file(struct libmnt_table *tb, const char *filename)
{
	FILE *f = fopen(filename, "re");
	char buf[8192];
	int lineno = 0;

	if (!f)
		return -errno;
	while (fgets(buf, sizeof(buf), f)) {
		struct libmnt_fs fs, *n;

		lineno++;
		if (buf[0] == '\n' || buf[0] == '#')
			continue;
		if (parse_line(buf, &fs) != 0) {
			if (tb->errcb && tb->errcb(tb, filename, lineno) < 0)
				break;
			continue;
		}
		n = realloc(tb->fs, (tb->nfs + 1) * sizeof(*n));
		if (!n) {
			fclose(f);
			return -ENOMEM;
		}
		tb->fs = n;
		tb->fs[tb->nfs++] = fs;
	}
	fclose(f);
	return 0;
}

struct libmnt_iter *mnt_new_iter(int direction)
{
	(void) direction;
	return calloc(1, sizeof(struct libmnt_iter));
}

void mnt_free_iter(struct libmnt_iter *itr)
{
	free(itr);
}

int mnt_table_next_fs(struct libmnt_table *tb, struct libmnt_iter *itr,
		      struct libmnt_fs **fs)
{
	if (itr->pos >= tb->nfs)
		return 1;
	*fs = &tb->fs[itr->pos++];
	return 0;
}

struct libmnt_fs *mnt_table_find_devno(struct libmnt_table *tb, dev_t devno,
				       int direction)
{
	size_t i;

	(void) direction;
	for (i = 0; i < tb->nfs; i++)
		if (tb->fs[i].devno == devno)
			return &tb->fs[i];
	return NULL;
}

static int in_list(const char *s, const char *const *list)
{
	for (; s && *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

int mnt_fs_is_pseudofs(struct libmnt_fs *fs)
{
	static const char *const pseudo[] = {
		"anon_inodefs", "apparmorfs", "autofs", "bdev", "binder", "binfmt_misc",
		"bpf", "cgroup", "cgroup2", "configfs", "cpuset", "debugfs", "devfs",
		"devpts", "devtmpfs", "dlmfs", "efivarfs", "fuse.gvfs-fuse-daemon",
		"fusectl", "hugetlbfs", "mqueue", "nfsd", "none", "nsfs", "overlay",
		"pipefs", "proc", "pstore", "ramfs", "resctrl", "rootfs", "rpc_pipefs",
		"securityfs", "selinuxfs", "smackfs", "sockfs", "spufs", "sysfs",
		"tmpfs", "tracefs", NULL
	};
	return in_list(fs->fstype, pseudo);
}

int mnt_fs_is_netfs(struct libmnt_fs *fs)
{
	static const char *const net[] = {
		"cifs", "smb3", "smbfs", "nfs", "nfs3", "nfs4", "ncpfs", "9p", "afs",
		"ceph", "glusterfs", "fuse.sshfs", "fuse.curlftpfs", "coda", "lustre",
		NULL
	};
	return in_list(fs->fstype, net);
}

const char *mnt_fs_get_srcpath(struct libmnt_fs *fs)
{
	static const char *const tags[] = { "LABEL=", "UUID=", "PARTLABEL=", "PARTUUID=", NULL };
	size_t i;

	for (i = 0; fs->source && tags[i]; i++)
		if (strncmp(fs->source, tags[i], strlen(tags[i])) == 0)
			return NULL;
	return fs->source;
}

dev_t mnt_fs_get_devno(struct libmnt_fs *fs) { return fs->devno; }
const char *mnt_fs_get_target(struct libmnt_fs *fs) { return fs->target; }
const char *mnt_fs_get_fstype(struct libmnt_fs *fs) { return fs->fstype; }
const char *mnt_fs_get_fs_options(struct libmnt_fs *fs) { return fs->fs_options; }
