/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: 2026 The fsdeprecate authors */
/*
 * fsaudit - on-disk probers, shared declarations.
 *
 * One prober per filesystem family (probers/<fs>.c), in the style of
 * libblkid's superblocks/ directory: packed on-disk structures, explicit
 * endianness conversions, every read bounds-checked against the device
 * size through fsa_read().  Images are untrusted input.
 *
 * A prober returns 0 when the superblock is confirmed and @info is filled,
 * 1 when it is not (too small, bad magic, inconsistent fields: the reason
 * is left in info->why) and -errno on a read error.
 */
#ifndef FSAUDIT_PROBER_H
#define FSAUDIT_PROBER_H

#include <stddef.h>
#include <stdint.h>
#include <endian.h>

#define FSA_S32_MIN	(-2147483648LL)
#define FSA_S32_MAX	2147483647LL
#define FSA_U32_MAX	4294967295LL
#define FSA_S64_MAX	INT64_MAX
#define FSA_S64_MIN	INT64_MIN

/* deprecation items, named as in /sys/fs/deprecated/<item> */
enum {
	FSA_ITEM_REISERFS = 0,
	FSA_ITEM_EXT2,
	FSA_ITEM_XFS_V4,
	FSA_ITEM_XFS_ASCII_CI,
	FSA_ITEM_EXT4_SMALL_INODES,
	FSA_NITEMS
};

/* what the kernel that will mount this looks like; filled by the caller */
struct fsa_env {
	unsigned int ext2_driver:1;	/* type "ext2" is served by fs/ext2 */
	unsigned int series:1;		/* kernel has the deprecation series
					   (/sys/fs/deprecated): ext rev 0 clamps */
	const char *fstype;		/* type it is mounted as, or NULL */
	const char *options;		/* mount options (fs-specific), or NULL */
};

/* What can be done about the format, for the remedies (fsaudit-remedy.c
 * turns it into commands with the real device, mount point, UUID, label) */
enum {
	FSA_FIX_NONE = 0,
	FSA_FIX_EXT_INODES,	/* tune2fs -I 256 in place (revision 1) */
	FSA_FIX_EXT_REV0,	/* tune2fs -O large_file (to revision 1), then -I 256 */
	FSA_FIX_XFS_BIGTIME,	/* xfs_admin -O bigtime=1 */
	FSA_FIX_RECREATE,	/* back up, a new filesystem (fix_mkfs), restore */
};

struct fsa_info {
	char format[96];	/* e.g. "rev 1, 128-byte inodes", "V4, ascii-ci" */
	char version[32];	/* short version string, e.g. "3.6", "V5", "FAT16" */
	char notes[256];
	char why[128];		/* when the prober returns 1: why */

	int64_t time_min;	/* range the on-disk format can store ... */
	int64_t time_max;
	int64_t s_time_max;	/* ... and the kernel's s_time_max for it */
	unsigned int has_limits:1,	/* time_* and s_time_max are known */
		     no_times:1,	/* the format stores no timestamps */
		     read_only:1;	/* the kernel only mounts it read-only */
	unsigned int items;	/* 1 << FSA_ITEM_* */
	int inode_size;		/* ext and XFS, else 0 */
	int rev;		/* ext only, else -1 */

	int fix;		/* FSA_FIX_* */
	unsigned int ext2_driver:1,	/* served by fs/ext2: the ext4 driver would do */
		     xfs_one_ag:1;	/* XFS with one allocation group: xfs_repair
					 * needs -o force_geometry */
	char fix_mkfs[32];	/* FSA_FIX_RECREATE: the new filesystem's mkfs, "ext4", "xfs" */
	char fix_why[160];	/* what the fix needs, or why not in place */
};

/* A device or image, read-only.  Either a file descriptor or a memory
 * buffer (fuzzing).  Buffers returned by fsa_read() stay valid until
 * fsa_dev_reset(). */
struct fsa_buf;
struct fsa_dev {
	int fd;
	const unsigned char *mem;
	uint64_t size;
	uint64_t offset;	/* where the device starts in fd (a partition) */
	struct fsa_buf *bufs;
	size_t nbytes;		/* bytes held in bufs */
};

#define FSA_READ_MAX	(1U << 20)	/* largest single read */
#define FSA_HELD_MAX	(8U << 20)	/* most bytes a prober may hold */

void fsa_dev_init_fd(struct fsa_dev *dev, int fd, uint64_t size);
void fsa_dev_init_mem(struct fsa_dev *dev, const void *mem, size_t size);
void fsa_dev_reset(struct fsa_dev *dev);

/* Returns @len bytes at @off, or NULL: errno = 0 when the range is outside
 * the device (or too large), errno = EIO etc. on a read error. */
const void *fsa_read(struct fsa_dev *dev, uint64_t off, size_t len);

#define fsa_read_type(dev, off, type) \
	((const type *) fsa_read((dev), (off), sizeof(type)))

/* Result of a failed read for a prober: 1 (no match) or -errno. */
int fsa_read_fail(struct fsa_info *info, const char *what);

void fsa_info_init(struct fsa_info *info);
void fsa_set_limits(struct fsa_info *info, int64_t tmin, int64_t tmax,
		    int64_t s_time_max);
int fsa_nomatch(struct fsa_info *info, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void fsa_append(char *buf, size_t bufsz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define fsa_note(info, ...)	fsa_append((info)->notes, sizeof((info)->notes), __VA_ARGS__)
#define fsa_format(info, ...)	fsa_append((info)->format, sizeof((info)->format), __VA_ARGS__)
#define fsa_fix_why(info, ...)	fsa_append((info)->fix_why, sizeof((info)->fix_why), __VA_ARGS__)

/* Copy a fixed-size on-disk string (not NUL-terminated), printable only. */
void fsa_strncpy_disk(char *dst, size_t dstsz, const void *src, size_t srclen);

/* "2038-01-19 03:14:07" (UTC, proleptic Gregorian, any int64) */
char *fsa_strtime(int64_t t, char *buf, size_t bufsz);
/* "1.5 MiB" */
char *fsa_strsize(uint64_t bytes, char *buf, size_t bufsz);

static inline int fsa_is_power_of_2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* limits from the mounted type and options alone (probers/bytype.c):
 * 0 when the type needs no superblock to be assessed, 1 otherwise */
int fsa_limits_by_type(const char *fstype, const char *options, struct fsa_info *info);
const char *fsa_bytype_type(size_t i);

/* XFS facts from a superblock or XFS_IOC_FSGEOMETRY (probers/xfs.c) */
void fsa_xfs_format(struct fsa_info *info, int v5, int bigtime, int ci, unsigned isize,
		    unsigned agcount);

/* prober registry */
typedef int (*fsa_probe_fn)(struct fsa_dev *dev, const struct fsa_env *env,
			    struct fsa_info *info);
struct fsa_prober {
	const char *name;		/* family, also the fuzz target name */
	const char *const *types;	/* libblkid TYPE values it handles */
	fsa_probe_fn probe;
	unsigned int fallback:1;	/* also tried when libblkid finds nothing */
};

extern const struct fsa_prober *const fsa_probers[];
const struct fsa_prober *fsa_prober_for_type(const char *blkid_type);
const struct fsa_prober *fsa_prober_by_name(const char *name);

#define FSA_DECLARE_PROBER(fam) \
	extern const struct fsa_prober fam##_prober

FSA_DECLARE_PROBER(ext);
FSA_DECLARE_PROBER(xfs);
FSA_DECLARE_PROBER(reiserfs);
FSA_DECLARE_PROBER(minix);
FSA_DECLARE_PROBER(vfat);
FSA_DECLARE_PROBER(exfat);
FSA_DECLARE_PROBER(btrfs);
FSA_DECLARE_PROBER(f2fs);
FSA_DECLARE_PROBER(jfs);
FSA_DECLARE_PROBER(nilfs2);
FSA_DECLARE_PROBER(udf);
FSA_DECLARE_PROBER(iso9660);
FSA_DECLARE_PROBER(squashfs);
FSA_DECLARE_PROBER(ntfs);
FSA_DECLARE_PROBER(hfs);
FSA_DECLARE_PROBER(bfs);
FSA_DECLARE_PROBER(cramfs);
FSA_DECLARE_PROBER(romfs);
FSA_DECLARE_PROBER(erofs);
FSA_DECLARE_PROBER(ufs);
FSA_DECLARE_PROBER(ocfs2);
FSA_DECLARE_PROBER(gfs2);

#endif /* FSAUDIT_PROBER_H */
