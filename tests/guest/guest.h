/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: 2026 The fsdeprecate authors */
/*
 * Shared by the static guest test programs (the .c files beside it): KTAP output,
 * one-line file I/O, the new mount API and the series' policy and inventory
 * files.  Everything is static inline: each program is one translation unit.
 */
#ifndef FSDEPRECATE_GUEST_H
#define FSDEPRECATE_GUEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>

/* The new mount API, from <linux/mount.h> (which clashes with <sys/mount.h>) */
#ifndef FSOPEN_CLOEXEC
#define FSOPEN_CLOEXEC		0x00000001
#define FSPICK_CLOEXEC		0x00000001
#define FSMOUNT_CLOEXEC		0x00000001
#define MOVE_MOUNT_F_EMPTY_PATH	0x00000004
#define FSCONFIG_SET_FLAG	0
#define FSCONFIG_SET_STRING	1
#define FSCONFIG_CMD_CREATE	6
#define FSCONFIG_CMD_RECONFIGURE 7
#endif

/*
 * What the mount at @dir says and does: *@ro_flag is its ST_RDONLY, and
 * *@create_err 0 if @file (a path under @dir) could be created (and was
 * removed again), else the errno of the create.
 * Return: 0, or -errno if statvfs() failed.
 */
static inline int probe_writable(const char *dir, const char *file, bool *ro_flag,
				 int *create_err)
{
	struct statvfs sv;
	int fd;

	*ro_flag = false;
	*create_err = 0;
	if (statvfs(dir, &sv))
		return -errno;
	*ro_flag = sv.f_flag & ST_RDONLY;
	fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0) {
		*create_err = errno;
		return 0;
	}
	close(fd);
	unlink(file);
	return 0;
}

static inline int sys_fsopen(const char *fs, unsigned int flags)
{
	return syscall(__NR_fsopen, fs, flags);
}

static inline int sys_fsconfig(int fd, unsigned int cmd, const char *key, const void *val, int aux)
{
	return syscall(__NR_fsconfig, fd, cmd, key, val, aux);
}

static inline int sys_fsmount(int fd, unsigned int flags, unsigned int attr)
{
	return syscall(__NR_fsmount, fd, flags, attr);
}

static inline int sys_move_mount(int from_dfd, const char *from, int to_dfd, const char *to,
				 unsigned int flags)
{
	return syscall(__NR_move_mount, from_dfd, from, to_dfd, to, flags);
}

static inline int sys_fspick(int dfd, const char *path, unsigned int flags)
{
	return syscall(__NR_fspick, dfd, path, flags);
}

/* ------------------------------------------------------------------ KTAP */

static int test_nr, any_failed;

static inline void result(bool pass, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void result(bool pass, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d ", pass ? "ok" : "not ok", ++test_nr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!pass)
		any_failed = 1;
}

static inline void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* ------------------------------------------------------- one-line files */

/* Write @s in one write(); 0 or -errno */
static inline int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		ret = -errno;
	close(fd);
	return ret;
}

/* The file's first line without trailing newlines; "" if unreadable */
static inline void read_line(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	if (fd >= 0)
		close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
}

/* ------------------------------------------- the series' policy files */

#define SYSCTL_DEP	"/proc/sys/fs/deprecated_policy"
#define SYSCTL_Y2038	"/proc/sys/fs/y2038_policy"
#define SYSFS_DEP	"/sys/fs/deprecated"
#define SYSFS_Y2038	"/sys/fs/y2038"

/* Counters: the items of /sys/fs/deprecated, then /sys/fs/y2038 */
enum { C_REISERFS, C_EXT2, C_XFSV4, C_XFSCI, C_EXT4SMALL, C_Y2038, NCOUNTERS };
static const char *const counter_names[] = {
	"reiserfs", "ext2", "xfs-v4", "xfs-ascii-ci", "ext4-small-inodes", "y2038",
};

struct snapshot {
	long mounts[NCOUNTERS], refused[NCOUNTERS], active[NCOUNTERS];
};

/* Counter @file ("mounts", "refused", "active") of @c; -1 if unreadable */
static inline long read_counter(int c, const char *file)
{
	char path[128], buf[32];

	if (c == C_Y2038)
		snprintf(path, sizeof(path), SYSFS_Y2038 "/%s", file);
	else
		snprintf(path, sizeof(path), SYSFS_DEP "/%s/%s", counter_names[c], file);
	read_line(path, buf, sizeof(buf));
	return buf[0] ? strtol(buf, NULL, 10) : -1;
}

static inline void snap(struct snapshot *s)
{
	int c;

	for (c = 0; c < NCOUNTERS; c++) {
		s->mounts[c] = read_counter(c, "mounts");
		s->refused[c] = read_counter(c, "refused");
		s->active[c] = read_counter(c, "active");
	}
}

/* ------------------------------------------- what a device went through */

/*
 * Sectors read and written on block device @dev (a path, symlinks followed,
 * e.g. /dev/img/NAME) since boot, from /sys/class/block/<dev>/stat (fields 3
 * and 7).  Return: 0, or -1 if unreadable.
 */
static inline int dev_sectors(const char *dev, unsigned long long *rd, unsigned long long *wr)
{
	char real[4096], path[4200], buf[512];
	const char *base;

	if (!realpath(dev, real))
		return -1;
	base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	snprintf(path, sizeof(path), "/sys/class/block/%s/stat", base);
	read_line(path, buf, sizeof(buf));
	if (sscanf(buf, "%*u %*u %llu %*u %*u %*u %llu", rd, wr) != 2)
		return -1;
	return 0;
}

/*
 * A 64-bit hash of the whole device @dev, read with O_DIRECT (XFS writes
 * through its own buffer cache, the block device's page cache may be stale),
 * 1 MiB at a time.  Per 8-byte word w (little endian): h = (h ^ w) * FNV's
 * 64-bit prime, then h ^= h >> 32 (the high half folded back, so that every
 * bit of every word reaches every bit of h; each step is a bijection of h,
 * so a change of one word always changes the hash).  A word at a time, not
 * FNV-1a's byte: 8 times fewer steps, which under TCG is most of the cost.
 * A device size that is not a multiple of 8 is hashed with zero padding.
 * The read itself adds the device's size to its read-sector counter: take
 * dev_sectors() first.  Return: 0, or -errno.
 */
static inline int dev_hash(const char *dev, unsigned long long *hash, unsigned long long *bytes)
{
	const unsigned long long prime = 0x100000001b3ULL;
	unsigned long long h = 0xcbf29ce484222325ULL, w;
	unsigned char *buf;
	ssize_t n, i;
	int fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC), err;

	*bytes = 0;
	if (fd < 0)
		return -errno;
	if (posix_memalign((void **)&buf, 4096, 1 << 20)) {
		close(fd);
		return -ENOMEM;
	}
	while ((n = read(fd, buf, 1 << 20)) > 0) {
		for (i = n; i % 8; i++)
			buf[i] = 0;
		for (i = 0; i < n; i += 8) {
			memcpy(&w, buf + i, 8);
			h = (h ^ w) * prime;
			h ^= h >> 32;
		}
		*bytes += n;
	}
	err = n < 0 ? -errno : 0;
	free(buf);
	close(fd);
	*hash = h;
	return err;
}

#endif /* FSDEPRECATE_GUEST_H */
