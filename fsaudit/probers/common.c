// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - bounds-checked reader and helpers shared by the probers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prober.h"

struct fsa_buf {
	struct fsa_buf *next;
	uint64_t off;
	size_t len;
	unsigned char data[];
};

void fsa_dev_init_fd(struct fsa_dev *dev, int fd, uint64_t size)
{
	memset(dev, 0, sizeof(*dev));
	dev->fd = fd;
	dev->size = size;
}

void fsa_dev_init_mem(struct fsa_dev *dev, const void *mem, size_t size)
{
	memset(dev, 0, sizeof(*dev));
	dev->fd = -1;
	dev->mem = mem;
	dev->size = size;
}

void fsa_dev_reset(struct fsa_dev *dev)
{
	struct fsa_buf *b = dev->bufs;

	while (b) {
		struct fsa_buf *next = b->next;
		free(b);
		b = next;
	}
	dev->bufs = NULL;
	dev->nbytes = 0;
}

static int read_all(int fd, unsigned char *p, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pread(fd, p, len, (off_t) off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;	/* shorter than it said it was */
		p += n;
		off += (uint64_t) n;
		len -= (size_t) n;
	}
	return 0;
}

const void *fsa_read(struct fsa_dev *dev, uint64_t off, size_t len)
{
	struct fsa_buf *b;
	int rc;

	if (len == 0 || len > FSA_READ_MAX || off > dev->size
	    || len > dev->size - off || len > FSA_HELD_MAX - dev->nbytes) {
		errno = 0;
		return NULL;
	}
	for (b = dev->bufs; b; b = b->next)
		if (b->off == off && b->len == len)
			return b->data;

	/* exact size: ASan sees any read past what was asked for */
	b = malloc(sizeof(*b) + len);
	if (!b) {
		errno = ENOMEM;
		return NULL;
	}
	b->off = off;
	b->len = len;
	if (dev->mem)
		memcpy(b->data, dev->mem + off, len);
	else if ((rc = read_all(dev->fd, b->data, len, dev->offset + off)) != 0) {
		free(b);
		errno = -rc;
		return NULL;
	}
	b->next = dev->bufs;
	dev->bufs = b;
	dev->nbytes += len;
	return b->data;
}

int fsa_read_fail(struct fsa_info *info, const char *what)
{
	if (errno)
		return -errno;
	return fsa_nomatch(info, "%s is outside the device", what);
}

void fsa_info_init(struct fsa_info *info)
{
	memset(info, 0, sizeof(*info));
	info->rev = -1;
}

void fsa_set_limits(struct fsa_info *info, int64_t tmin, int64_t tmax,
		    int64_t s_time_max)
{
	info->time_min = tmin;
	info->time_max = tmax;
	info->s_time_max = s_time_max;
	info->has_limits = 1;
}

static void vappend(char *buf, size_t bufsz, const char *fmt, va_list ap)
{
	size_t len = strnlen(buf, bufsz);

	if (len + 1 >= bufsz)
		return;
	vsnprintf(buf + len, bufsz - len, fmt, ap);
}

void fsa_append(char *buf, size_t bufsz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(buf, bufsz, fmt, ap);
	va_end(ap);
}

int fsa_nomatch(struct fsa_info *info, const char *fmt, ...)
{
	va_list ap;

	info->why[0] = '\0';
	va_start(ap, fmt);
	vappend(info->why, sizeof(info->why), fmt, ap);
	va_end(ap);
	return 1;
}

void fsa_strncpy_disk(char *dst, size_t dstsz, const void *src, size_t srclen)
{
	const unsigned char *s = src;
	size_t i, n = 0;

	if (!dstsz)
		return;
	for (i = 0; i < srclen && s[i] && n + 1 < dstsz; i++)
		dst[n++] = (s[i] >= 0x20 && s[i] < 0x7f) ? (char) s[i] : '?';
	dst[n] = '\0';
}

/* days since 1970-01-01 -> civil date (H. Hinnant's algorithm), int64 safe */
static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	int64_t era, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	yoe = z - era * 146097;
	yoe = (yoe - yoe / 1460 + yoe / 36524 - yoe / 146096) / 365;
	doy = (z - era * 146097) - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (unsigned) (doy - (153 * mp + 2) / 5 + 1);
	*m = (unsigned) (mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

char *fsa_strtime(int64_t t, char *buf, size_t bufsz)
{
	int64_t days = t / 86400, secs = t % 86400, y;
	unsigned m, d;

	if (secs < 0) {
		secs += 86400;
		days--;
	}
	civil_from_days(days, &y, &m, &d);
	snprintf(buf, bufsz, "%04lld-%02u-%02u %02lld:%02lld:%02lld",
		 (long long) y, m, d, (long long) (secs / 3600),
		 (long long) (secs / 60 % 60), (long long) (secs % 60));
	return buf;
}

char *fsa_strsize(uint64_t bytes, char *buf, size_t bufsz)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned i = 0;
	uint64_t v = bytes, rem = 0;

	while (v >= 1024 && i < 6) {
		rem = v % 1024;
		v /= 1024;
		i++;
	}
	if (i && v < 10 && rem)
		snprintf(buf, bufsz, "%llu.%llu %s", (unsigned long long) v,
			 (unsigned long long) (rem * 10 / 1024), unit[i]);
	else
		snprintf(buf, bufsz, "%llu %s", (unsigned long long) v, unit[i]);
	return buf;
}

const struct fsa_prober *const fsa_probers[] = {
	&ext_prober, &xfs_prober, &reiserfs_prober, &minix_prober,
	&vfat_prober, &exfat_prober, &btrfs_prober, &f2fs_prober,
	&jfs_prober, &nilfs2_prober, &udf_prober, &iso9660_prober,
	&squashfs_prober, &ntfs_prober, &hfs_prober, &bfs_prober,
	&cramfs_prober, &romfs_prober, &erofs_prober, &ufs_prober,
	&ocfs2_prober, &gfs2_prober,
	NULL
};

const struct fsa_prober *fsa_prober_for_type(const char *type)
{
	size_t i, j;

	if (!type)
		return NULL;
	for (i = 0; fsa_probers[i]; i++)
		for (j = 0; fsa_probers[i]->types[j]; j++)
			if (strcmp(fsa_probers[i]->types[j], type) == 0)
				return fsa_probers[i];
	return NULL;
}

const struct fsa_prober *fsa_prober_by_name(const char *name)
{
	size_t i;

	for (i = 0; fsa_probers[i]; i++)
		if (strcmp(fsa_probers[i]->name, name) == 0)
			return fsa_probers[i];
	return NULL;
}
