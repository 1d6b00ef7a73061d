// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * faultinject: allocation failures on the mount paths of deprecated images.
 *
 *   faultinject [-k POINTS] [-r CYCLES] [-p PERCENT] [-i INTERVAL] [-t SECONDS]
 *               [-x ITEM]... IMAGE...
 *
 * Needs the debug kernel (kernel/configs/debug: FAILSLAB, FAIL_PAGE_ALLOC,
 * FAULT_INJECTION_DEBUG_FS, FAULT_INJECTION_STACKTRACE_FILTER); elsewhere it
 * reports one skipped test.  Both fault types are set to fail any
 * allocation, sleeping ones included (ignore-gfp-wait=N, min-order=0), never
 * in vmalloc (reject range: vmalloc warns with a stack dump by design), and
 * only in this task.
 *
 * 1. The series' own allocations: the stacktrace filter requires
 *    fs_deprecation_precheck() or __fs_deprecation_check() on the stack and
 *    /proc/thread-self/fail-nth fails the 1st, 2nd, ... of them in each
 *    operation (mount(2), fsopen+fsconfig, remount, fspick+reconfigure, rw and
 *    ro) until an operation has no more, under warn, ro and deny.  They are
 *    best effort: the outcome must be exactly the policy's (success, EACCES,
 *    EPERM).
 * 2. The whole operation: the same with no filter but vmalloc's, at POINTS
 *    (default 12) failure points spread over the N the operation has (N
 *    measured first), under warn and, for read-write, under ro.  Every failure
 *    must be an errno, no read-write mount may succeed under ro, a success must
 *    be mounted as asked, a failure must leave nothing mounted.
 * 3. Random failures: PERCENT of every INTERVALth allocation of this task
 *    fails (default 10 % of every 20th: 1 in 200; task-filter,
 *    /proc/thread-self/make-it-fail around each operation) for CYCLES
 *    (default 40) random operations, under warn or ro.
 * 4. Injection off: every image mounts read-write and read-only again.
 *
 * After each operation everything is unmounted and /sys/fs/deprecated and
 * /sys/fs/y2038 "active" must be back at its value before; at the end
 * "mounts" has grown by at least the operations that reached the policy
 * check and at most the attempts, "refused" by exactly the refusals seen,
 * and neither ever went down.  Phases 2 and 3 stop early after SECONDS
 * (default 600; a bound on the run, not a result).  -x ITEM: an item of a
 * filesystem the kernel's base no longer has (reiserfs on 7.3), neither set
 * nor counted.  The kmemleak scan is the rig's (tests/guest/init).  KTAP on
 * stdout.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "guest.h"

#define DBG		"/sys/kernel/debug"
#define MNT		"/tmp/fi"

/* ------------------------------------------------------------------ KTAP */

/* At most this many problem lines per test, then a count */
static int problems;

static void problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void problem(const char *fmt, ...)
{
	va_list ap;

	if (++problems > 8)
		return;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static bool test_end(void)
{
	bool ok = !problems;

	if (problems > 8)
		printf("# ... %d problems in all\n", problems);
	problems = 0;
	return ok;
}

/* ------------------------------------------------------------- counters */

/*
 * Items of a filesystem this kernel's base no longer has (-x ITEM: reiserfs
 * on 7.3): no policy file, no counters (read as -1 throughout).
 */
static bool gone[NCOUNTERS];
static struct snapshot base, last;
/* What the operations allow the counters to have done since base */
static long mounts_min[NCOUNTERS], mounts_max[NCOUNTERS], refusals[NCOUNTERS];
static long went_down, active_wrong;

/* After each operation, with everything unmounted */
static void check_counters(const char *what)
{
	struct snapshot now;
	int c;

	snap(&now);
	for (c = 0; c < NCOUNTERS; c++) {
		if (now.mounts[c] < last.mounts[c] || now.refused[c] < last.refused[c]) {
			if (!went_down++)
				problem("%s: %s counters went down: mounts %ld -> %ld, refused %ld -> %ld",
					what, counter_names[c], last.mounts[c], now.mounts[c],
					last.refused[c], now.refused[c]);
		}
		if (now.active[c] != base.active[c]) {
			if (!active_wrong++)
				problem("%s: %s/active %ld, %ld before", what, counter_names[c],
					now.active[c], base.active[c]);
		}
	}
	last = now;
}

/* ----------------------------------------------------------- the images */

enum { ALLOW, WARN, RO, DENY };
static const char *const mode_names[] = { "allow", "warn", "ro", "deny" };

struct image {
	const char *name, *fstype;
	int type_item, item;
	bool limited;
	bool jbd2;		/* journal by jbd2, see set_rejects() */
};

static const struct image known_images[] = {
	{ "reiserfs36", "reiserfs", C_REISERFS, C_REISERFS, false, false },
	{ "ext2", "ext2", C_EXT2, C_EXT2, true, false },
	{ "xfs-v4", "xfs", -1, C_XFSV4, true, false },
	{ "ext4-128", "ext4", -1, C_EXT4SMALL, true, true },
	{ "ext4-256", "ext4", -1, -1, false, true },
	{ "ext4-rev0", "ext4", -1, C_EXT4SMALL, true, false },
	{ "xfs-ascii-ci", "xfs", -1, C_XFSCI, false, false },
};

enum { OP_MOUNT_RW, OP_MOUNT_RO, OP_FSOPEN_RW, OP_FSOPEN_RO, OP_REMOUNT_RW, OP_RECONF_RW, NOPS };
static const char *const op_names[] = {
	"mount rw", "mount ro", "fsopen rw", "fsopen ro", "remount rw", "reconfigure rw",
};

static bool op_rw(int op)
{
	return op == OP_MOUNT_RW || op == OP_FSOPEN_RW;
}

static bool op_reconf(int op)
{
	return op == OP_REMOUNT_RW || op == OP_RECONF_RW;
}

/* The policy's answer without faults: 0, -EACCES or -EPERM */
static int policy_says(const struct image *im, int mode, int op)
{
	if (im->item < 0 && !im->limited)
		return 0;
	if (op_reconf(op))
		return mode == DENY ? -EPERM : mode == RO ? -EACCES : 0;
	if (mode == DENY)
		return -EPERM;
	return mode == RO && op_rw(op) ? -EACCES : 0;
}

/* Both policies and every item to @mode (the image's effective mode) */
static void set_policy(int mode)
{
	char path[128];
	int c;

	write_str(SYSCTL_DEP, mode_names[mode]);
	write_str(SYSCTL_Y2038, mode_names[mode]);
	for (c = 0; c < C_Y2038; c++) {
		if (gone[c])
			continue;
		snprintf(path, sizeof(path), SYSFS_DEP "/%s/policy", counter_names[c]);
		write_str(path, "default");
	}
}

/* --------------------------------------------------------- fault knobs */

static int fail_nth_fd = -1, make_it_fail_fd = -1;

static const char *const fault_dirs[] = { DBG "/failslab", DBG "/fail_page_alloc" };

static int knob(const char *dir, const char *name, const char *val)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return write_str(path, val);
}

static unsigned long sym_addr(const char *name, unsigned long *next)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long a, found = 0, best_next = ~0UL;
	char type, sym[256], line[512];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx %c %255s", &a, &type, sym) == 3 && !strcmp(sym, name))
			found = a;
	rewind(f);
	while (found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx %c %255s", &a, &type, sym) == 3 && a > found && a < best_next)
			best_next = a;
	fclose(f);
	if (next)
		*next = best_next;
	return found;
}

static unsigned long series_start, series_end, vmalloc_start, vmalloc_end, jbd2_start, jbd2_end;

static bool find_ranges(void)
{
	unsigned long pre_end, chk_end;
	unsigned long pre = sym_addr("fs_deprecation_precheck", &pre_end);
	unsigned long chk = sym_addr("__fs_deprecation_check", &chk_end);

	vmalloc_start = sym_addr("__vmalloc_node_range_noprof", &vmalloc_end);
	if (!vmalloc_start)
		vmalloc_start = sym_addr("__vmalloc_node_range", &vmalloc_end);
	jbd2_start = sym_addr("jbd2_journal_init_inode", &jbd2_end);
	if (!pre || !chk || !vmalloc_start || !jbd2_start)
		return false;
	series_start = pre < chk ? pre : chk;
	series_end = pre < chk ? chk_end : pre_end;
	return true;
}

/* Restrict both fault types to the stacks through [start, end) (0, 0: anywhere) */
static void fault_filter(unsigned long start, unsigned long end)
{
	char buf[32];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		snprintf(buf, sizeof(buf), "%#lx", start);
		knob(fault_dirs[i], "require-start", buf);
		snprintf(buf, sizeof(buf), "%#lx", end ? end : ~0UL);
		knob(fault_dirs[i], "require-end", buf);
	}
}

static void reject(const char *dir, unsigned long start, unsigned long end)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%#lx", start);
	knob(dir, "reject-start", buf);
	snprintf(buf, sizeof(buf), "%#lx", end);
	knob(dir, "reject-end", buf);
}

/*
 * Where faults are never injected.  vmalloc: a failed vmalloc reports itself
 * with a stack dump (warn_alloc()), by design.  For ext4 with jbd2,
 * jbd2_journal_init_inode() instead: its jbd2_stats_proc_init() ignores a
 * failure to create /proc/fs/jbd2/<dev>/info but jbd2_stats_proc_exit()
 * removes it unconditionally at unmount, which WARNs in remove_proc_entry()
 * (a bug of the stock kernel; jbd2_info_ok() names the operation if it
 * happens).  jbd2_stats_proc_init() tail-calls proc_create_data(), so only
 * its caller is on the stack of that allocation.
 * ext4 calls vmalloc only as kvmalloc()'s fallback after a failed kmalloc,
 * and fail-nth fails one allocation per operation, so vmalloc's own
 * allocations never fail there; the random phase leaves ext4 out.
 */
static void set_rejects(const struct image *im)
{
	static const struct image *cur;
	unsigned int i;

	if (im == cur)
		return;
	cur = im;
	for (i = 0; i < 2; i++) {
		if (im->jbd2)
			reject(fault_dirs[i], jbd2_start, jbd2_end);
		else
			reject(fault_dirs[i], vmalloc_start, vmalloc_end);
	}
}

static bool fault_setup(void)
{
	unsigned int i;
	bool ok = true;

	for (i = 0; i < 2; i++) {
		ok &= !knob(fault_dirs[i], "probability", "0");
		ok &= !knob(fault_dirs[i], "interval", "1");
		ok &= !knob(fault_dirs[i], "times", "-1");
		ok &= !knob(fault_dirs[i], "verbose", "1");
		ok &= !knob(fault_dirs[i], "task-filter", "Y");
		ok &= !knob(fault_dirs[i], "ignore-gfp-wait", "N");
		ok &= !knob(fault_dirs[i], "stacktrace-depth", "32");
	}
	ok &= !knob(DBG "/failslab", "space", "0");
	ok &= !knob(DBG "/fail_page_alloc", "min-order", "0");
	ok &= !knob(DBG "/fail_page_alloc", "ignore-gfp-highmem", "N");
	fault_filter(0, 0);
	fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	make_it_fail_fd = open("/proc/thread-self/make-it-fail", O_RDWR | O_CLOEXEC);
	return ok && fail_nth_fd >= 0 && make_it_fail_fd >= 0;
}

static bool fault_restore(void)
{
	unsigned int i;
	bool ok = true;

	for (i = 0; i < 2; i++) {
		ok &= !knob(fault_dirs[i], "probability", "0");
		ok &= !knob(fault_dirs[i], "task-filter", "N");
		ok &= !knob(fault_dirs[i], "ignore-gfp-wait", "Y");
		ok &= !knob(fault_dirs[i], "verbose", "2");
		ok &= !knob(fault_dirs[i], "reject-start", "0");
		ok &= !knob(fault_dirs[i], "reject-end", "0");
	}
	ok &= !knob(DBG "/fail_page_alloc", "min-order", "1");
	ok &= !knob(DBG "/fail_page_alloc", "ignore-gfp-highmem", "Y");
	fault_filter(0, 0);
	return ok;
}

static void fail_nth_set(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(fail_nth_fd, buf, len, 0) != len)
		fprintf(stderr, "faultinject: fail-nth <- %u: %s\n", n, strerror(errno));
}

/* What is left of fail-nth: 0 if the failure was injected */
static unsigned int fail_nth_get(void)
{
	char buf[16] = "";

	if (pread(fail_nth_fd, buf, sizeof(buf) - 1, 0) <= 0)
		return ~0U;
	return strtoul(buf, NULL, 10);
}

/* Through a file opened beforehand: turning it off must not allocate */
static void make_it_fail(bool on)
{
	int tries;

	for (tries = 0; tries < 100; tries++)
		if (pwrite(make_it_fail_fd, on ? "1" : "0", 1, 0) == 1)
			return;
	fprintf(stderr, "faultinject: make-it-fail <- %d: %s\n", on, strerror(errno));
}

/* ---------------------------------------------------------- operations */

/*
 * How faults are armed around the one syscall under test: fail-nth N
 * (stacktrace filter as set), or make-it-fail (random, probability as set).
 */
enum arm { ARM_NONE, ARM_NTH, ARM_RANDOM };

struct outcome {
	int r;			/* 0 or -errno of the syscall under test */
	bool injected;		/* fail-nth: the Nth failure happened */
	unsigned int left;	/* fail-nth: what was left of N */
	bool mounted;		/* something is mounted at the target afterwards */
	int premount;		/* changes to rw: the read-only mount before, 1 ok, -1 failed */
};

static void arm(enum arm a, unsigned int n)
{
	if (a == ARM_NTH)
		fail_nth_set(n);
	else if (a == ARM_RANDOM)
		make_it_fail(true);
}

static void disarm(enum arm a, struct outcome *o)
{
	if (a == ARM_NTH) {
		o->left = fail_nth_get();
		o->injected = o->left == 0;
		fail_nth_set(0);
	} else if (a == ARM_RANDOM) {
		make_it_fail(false);
	}
}

static bool is_mounted(const char *dir)
{
	struct stat a, b;
	char parent[128];

	snprintf(parent, sizeof(parent), "%s/..", dir);
	return !stat(dir, &a) && !stat(parent, &b) && a.st_dev != b.st_dev;
}

/*
 * Run @op on @im at @dir with faults armed by @a only around the syscall
 * that does the operation (mount(2), fsconfig(CMD_CREATE), the remount,
 * fsconfig(CMD_RECONFIGURE)); the read-only mount before a change to
 * read-write is made without faults.  Under ARM_RANDOM the whole sequence
 * (fsopen, fsconfig, fsmount, move_mount, fspick) is armed.
 */
static struct outcome run_op(const struct image *im, int op, enum arm a, unsigned int n)
{
	char dev[64];
	struct outcome o = { 0 };
	bool api = op == OP_FSOPEN_RW || op == OP_FSOPEN_RO || op == OP_RECONF_RW;
	bool whole = a == ARM_RANDOM;
	int fd = -1, mfd = -1, r = 0;

	snprintf(dev, sizeof(dev), "/dev/img/%s", im->name);
	set_rejects(im);
	if (op_reconf(op)) {
		/* read-only first, no faults; for fspick a read-only superblock
		 * under a writable mount (mount(2) would make the mount read-only) */
		if (api) {
			fd = sys_fsopen(im->fstype, FSOPEN_CLOEXEC);
			if (fd < 0 || sys_fsconfig(fd, FSCONFIG_SET_STRING, "source", dev, 0) ||
			    sys_fsconfig(fd, FSCONFIG_SET_FLAG, "ro", NULL, 0) ||
			    sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) ||
			    (mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0)) < 0 ||
			    sys_move_mount(mfd, "", AT_FDCWD, MNT, MOVE_MOUNT_F_EMPTY_PATH))
				r = -errno;
			if (mfd >= 0)
				close(mfd);
			if (fd >= 0)
				close(fd);
			fd = mfd = -1;
		} else if (mount(dev, MNT, im->fstype, MS_RDONLY, NULL)) {
			r = -errno;
		}
		if (r) {
			o.r = r;
			o.left = ~0U;
			o.premount = -1;
			o.mounted = is_mounted(MNT);
			if (o.mounted)
				umount2(MNT, 0);
			return o;
		}
		o.premount = 1;
		if (whole)
			arm(a, n);
		if (api) {
			fd = sys_fspick(AT_FDCWD, MNT, FSPICK_CLOEXEC);
			if (fd < 0 || sys_fsconfig(fd, FSCONFIG_SET_FLAG, "rw", NULL, 0))
				r = -errno;
		}
		if (!whole)
			arm(a, n);
		if (!r && api)
			r = sys_fsconfig(fd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0) ? -errno : 0;
		else if (!r)
			r = mount(NULL, MNT, NULL, MS_REMOUNT, NULL) ? -errno : 0;
		disarm(a, &o);
		if (fd >= 0)
			close(fd);
		o.r = r;
		o.mounted = true;
		return o;
	}
	if (whole)
		arm(a, n);
	if (api) {
		fd = sys_fsopen(im->fstype, FSOPEN_CLOEXEC);
		if (fd < 0 || sys_fsconfig(fd, FSCONFIG_SET_STRING, "source", dev, 0) ||
		    (op == OP_FSOPEN_RO && sys_fsconfig(fd, FSCONFIG_SET_FLAG, "ro", NULL, 0)))
			r = -errno;
		if (!whole)
			arm(a, n);
		if (!r)
			r = sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) ? -errno : 0;
		if (!whole)
			disarm(a, &o);
		if (!r) {
			mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
			if (mfd < 0 || sys_move_mount(mfd, "", AT_FDCWD, MNT, MOVE_MOUNT_F_EMPTY_PATH))
				r = -errno;
		}
		if (whole)
			disarm(a, &o);
		if (mfd >= 0)
			close(mfd);
		if (fd >= 0)
			close(fd);
	} else {
		arm(a, n);
		r = mount(dev, MNT, im->fstype, op == OP_MOUNT_RO ? MS_RDONLY : 0, NULL) ? -errno : 0;
		disarm(a, &o);
	}
	o.r = r;
	o.mounted = is_mounted(MNT);
	return o;
}

/* Is what is mounted read-only or writable as asked? */
static bool state_ok(const struct image *im, bool want_rw, const char *what)
{
	bool ro_flag, created;
	int err, r = probe_writable(MNT, MNT "/fi", &ro_flag, &err);

	if (r) {
		problem("%s: %s: statvfs: %s", im->name, what, strerror(-r));
		return false;
	}
	created = !err;
	if (want_rw ? (ro_flag || !created) : (!ro_flag || created)) {
		problem("%s: %s: %s (ST_RDONLY %d, create: %s)", im->name, what,
			want_rw ? "not writable" : "writable", ro_flag, created ? "ok" : strerror(err));
		return false;
	}
	return true;
}

/*
 * jbd2 creates /proc/fs/jbd2/<dev>-<inode>/info for each journal and ignores
 * a failure to; its unmount then WARNs.  Name the operation that got there.
 */
static bool jbd2_info_ok(const struct image *im, const char *what)
{
	char link[64], path[160], *dev;
	DIR *d;
	struct dirent *e;
	bool ok = true;
	ssize_t n;

	snprintf(path, sizeof(path), "/dev/img/%s", im->name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0 || !(d = opendir("/proc/fs/jbd2")))
		return true;
	link[n] = '\0';
	dev = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, dev, strlen(dev)) && e->d_name[strlen(dev)] == '-') {
			snprintf(path, sizeof(path), "/proc/fs/jbd2/%.100s/info", e->d_name);
			if (access(path, F_OK)) {
				problem("%s: %s: %s is missing (jbd2: the unmount will WARN)", im->name,
					what, path);
				ok = false;
			}
		}
	closedir(d);
	return ok;
}

/* Histogram of the errnos of injected failures, and the first of each */
static long errnos[256];
static char errno_first[256][200];

/*
 * Judge one outcome under @mode, then unmount.  @exact: faults only in the
 * series' best-effort code, so the outcome must be the policy's.
 * Returns false on a problem.
 */
static bool judge(const struct image *im, int op, int mode, struct outcome *o, bool exact,
		  const char *how)
{
	int want = policy_says(im, mode, op);
	bool ok = true, policy_refusal = o->r == -EACCES || o->r == -EPERM;
	char what[160];

	snprintf(what, sizeof(what), "%s under %s, %s", op_names[op], mode_names[mode], how);
	if (o->premount) {
		/* the read-only mount before a change to rw, made without faults */
		if (im->item >= 0)
			mounts_max[im->item]++, mounts_min[im->item] += o->premount > 0;
		if (im->limited)
			mounts_max[C_Y2038]++, mounts_min[C_Y2038] += o->premount > 0;
		if (o->premount < 0) {
			problem("%s: %s: the read-only mount before it failed: %s", im->name, what,
				strerror(-o->r));
			check_counters(what);
			return false;
		}
	}
	if (o->r < 0 && -o->r < 256 && !errnos[-o->r]++)
		snprintf(errno_first[-o->r], sizeof(errno_first[0]), "%.30s %.160s", im->name, what);
	if (exact && o->r != want) {
		problem("%s: %s: %s, the policy says %s", im->name, what, strerror(-o->r),
			want ? strerror(-want) : "success");
		ok = false;
	}
	/* A refusal only where the policy refuses, and never another errno for it */
	if (policy_refusal && o->r != want) {
		problem("%s: %s: %s where the policy says %s", im->name, what, strerror(-o->r),
			want ? strerror(-want) : "success");
		ok = false;
	}
	if (!o->r && want) {
		problem("%s: %s: succeeded, the policy refuses it (%s)", im->name, what,
			strerror(-want));
		ok = false;
	}
	if (o->r > 0 || (o->r < 0 && -o->r >= 4096)) {
		problem("%s: %s: returned %d", im->name, what, o->r);
		ok = false;
	}
	/* Counter bounds: mounts only for mount attempts */
	if (!op_reconf(op)) {
		/*
		 * Refused by fs_deprecation_precheck() before fill_super: a
		 * deprecated type under deny (every mount, EPERM) or under ro
		 * (read-write, EACCES).  It counts the item's mounts, never
		 * y2038's: there is no superblock yet, so no time limits.
		 */
		bool pre = im->type_item >= 0 &&
			   ((mode == DENY && o->r == -EPERM) ||
			    (mode == RO && op_rw(op) && o->r == -EACCES));

		if (im->item >= 0) {
			mounts_max[im->item]++;
			mounts_min[im->item] += !o->r || policy_refusal;
		}
		if (im->limited) {
			mounts_max[C_Y2038] += !pre;
			mounts_min[C_Y2038] += !o->r || (policy_refusal && !pre);
		}
	}
	if (policy_refusal) {
		/* one mode everywhere: the item gets it if there is one */
		refusals[im->item >= 0 ? im->item : C_Y2038]++;
	}
	if (o->mounted) {
		bool want_rw = op_rw(op) || (op_reconf(op) && !o->r);

		if (!o->r || op_reconf(op)) {
			ok &= state_ok(im, want_rw, what);
		} else {
			problem("%s: %s: failed with %s but something is mounted", im->name, what,
				strerror(-o->r));
			ok = false;
		}
		if (im->jbd2)
			ok &= jbd2_info_ok(im, what);
		if (umount2(MNT, 0)) {
			problem("%s: %s: umount: %s", im->name, what, strerror(errno));
			ok = false;
		}
	} else if (!o->r) {
		problem("%s: %s: succeeded but nothing is mounted", im->name, what);
		ok = false;
	}
	check_counters(what);
	return ok;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --------------------------------------------------------------- phases */

static const struct image *imgs[16];
static int nimgs;

/* 1: each allocation of the series' code on the path, in turn */
static void phase_series(void)
{
	static const int modes[] = { WARN, RO, DENY };
	long ops = 0, injected = 0;
	unsigned int m, n;
	int i, op;

	fault_filter(series_start, series_end);
	for (i = 0; i < nimgs; i++) {
		long img_injected = 0;

		for (m = 0; m < 3; m++) {
			set_policy(modes[m]);
			for (op = 0; op < NOPS; op++) {
				if (op_reconf(op) && modes[m] == DENY)
					continue;	/* no read-only mount to start from */
				for (n = 1; n <= 64; n++) {
					struct outcome o = run_op(imgs[i], op, ARM_NTH, n);
					char how[32];

					snprintf(how, sizeof(how), "series allocation %u", n);
					judge(imgs[i], op, modes[m], &o, true, how);
					ops++;
					if (!o.injected)
						break;
					injected++;
					img_injected++;
				}
			}
		}
		diag("%s: %ld failures injected into the series' allocations", imgs[i]->name,
		     img_injected);
	}
	fault_filter(0, 0);
	set_policy(WARN);
	result(test_end() && injected > 0,
	       "the series' own allocations failed in turn (%ld operations, %ld failures): the outcome is the policy's every time",
	       ops, injected);
}

/* 2: failure points spread over each whole operation */
static void phase_whole(int points, double deadline)
{
	long ops = 0, injected = 0, failed = 0;
	bool capped = false;
	int i, op, k, m;

	for (i = 0; i < nimgs && !capped; i++) {
		char sum[256] = "";
		int n_sum = 0;

		for (m = WARN; m <= RO && !capped; m++) {
			set_policy(m);
			for (op = 0; op < NOPS && !capped; op++) {
				struct outcome o;
				unsigned int total, prev;

				if (m == RO && !op_rw(op))
					continue;
				/* how many fault points the operation passes */
				o = run_op(imgs[i], op, ARM_NTH, 1000000);
				judge(imgs[i], op, m, &o, false, "counting");
				total = o.injected || o.left == ~0U ? 0 : 1000000 - o.left;
				if (m == WARN)
					n_sum += snprintf(sum + n_sum, sizeof(sum) - n_sum, "%s %s %u",
							  op ? "," : "", op_names[op], total);
				for (k = 0, prev = 0; k < points && total; k++) {
					unsigned int n = 1 + (unsigned long)k * (total - 1) / (points > 1 ? points - 1 : 1);
					char how[48];

					if (n == prev)
						continue;
					prev = n;
					if (now() > deadline) {
						capped = true;
						break;
					}
					o = run_op(imgs[i], op, ARM_NTH, n);
					snprintf(how, sizeof(how), "allocation %u of %u", n, total);
					judge(imgs[i], op, m, &o, false, how);
					ops++;
					injected += o.injected;
					failed += o.r != 0;
				}
			}
		}
		diag("%s: allocations:%s", imgs[i]->name, sum);
	}
	set_policy(WARN);
	if (capped)
		diag("time cap reached in %s", nimgs > i - 1 && i > 0 ? imgs[i - 1]->name : "?");
	result(test_end() && injected > 0,
	       "whole operations, %d failure points each (%ld operations, %ld failures injected, %ld failed): errnos only, nothing writable under ro, nothing left mounted",
	       points, ops, injected, failed);
}

/* 3: random failures in this task */
static void phase_random(int cycles, int percent, int interval, double deadline)
{
	char buf[16], ibuf[16];
	long failed = 0;
	int k, i, usable = 0;
	unsigned int seed = 12345;

	for (i = 0; i < nimgs; i++)
		usable += !imgs[i]->jbd2;
	if (!usable) {
		printf("ok %d random failures # SKIP only ext4 images with jbd2\n", ++test_nr);
		return;
	}
	snprintf(buf, sizeof(buf), "%d", percent);
	snprintf(ibuf, sizeof(ibuf), "%d", interval);
	for (i = 0; i < 2; i++) {
		knob(fault_dirs[i], "interval", ibuf);
		knob(fault_dirs[i], "probability", buf);
	}
	for (k = 0; k < cycles && now() < deadline; k++) {
		const struct image *im;
		int op, mode;
		struct outcome o;

		seed = seed * 1103515245 + 12345;
		im = imgs[(seed >> 16) % nimgs];
		if (im->jbd2) {
			k--;
			continue;
		}
		op = (seed >> 8) % NOPS;
		mode = (seed >> 4) % 2 ? WARN : RO;
		set_policy(mode);
		o = run_op(im, op, ARM_RANDOM, 0);
		failed += o.r != 0;
		judge(im, op, mode, &o, false, "random");
	}
	for (i = 0; i < 2; i++) {
		knob(fault_dirs[i], "probability", "0");
		knob(fault_dirs[i], "interval", "1");
	}
	set_policy(WARN);
	result(test_end() && failed > 0 && failed < k,
	       "random failures, %d%% of every %dth allocation of this task: %d operations, %ld failed, errnos only, nothing writable under ro",
	       percent, interval, k, failed);
}

/* 4: no faults: everything mounts again */
static void phase_after(void)
{
	int i, op;

	set_policy(WARN);
	for (i = 0; i < nimgs; i++)
		for (op = 0; op < NOPS; op++) {
			struct outcome o = run_op(imgs[i], op, ARM_NONE, 0);

			judge(imgs[i], op, WARN, &o, true, "after injection");
		}
	result(test_end(), "injection off: every image mounts again, by every path, read-only and read-write");
}

int main(int argc, char **argv)
{
	int points = 12, cycles = 40, percent = 10, interval = 20, opt, i, k, c;
	double seconds = 600, t0;
	char saved_dep[16], saved_y2038[16];
	struct snapshot end;
	bool ok;

	while ((opt = getopt(argc, argv, "k:r:p:i:t:x:")) != -1) {
		if (opt == 'x') {
			for (c = 0; c < C_Y2038; c++)
				if (!strcmp(counter_names[c], optarg))
					gone[c] = true;
		} else if (opt == 'k')
			points = atoi(optarg);
		else if (opt == 'r')
			cycles = atoi(optarg);
		else if (opt == 'p')
			percent = atoi(optarg);
		else if (opt == 'i')
			interval = atoi(optarg);
		else if (opt == 't')
			seconds = atof(optarg);
		else {
			fprintf(stderr, "usage: %s [-k POINTS] [-r CYCLES] [-p PERCENT] [-i INTERVAL] [-t SECONDS] [-x ITEM]... IMAGE...\n",
				argv[0]);
			return 2;
		}
	}
	printf("KTAP version 1\n");
	if (access(DBG "/failslab", F_OK) || access(DBG "/fail_page_alloc", F_OK) ||
	    access("/proc/thread-self/fail-nth", F_OK)) {
		printf("ok 1 fault injection # SKIP no " DBG "/failslab, fail_page_alloc or fail-nth (not the debug kernel)\n1..1\n");
		return 0;
	}
	if (access(DBG "/failslab/require-start", F_OK)) {
		printf("ok 1 fault injection # SKIP no stacktrace filter (CONFIG_FAULT_INJECTION_STACKTRACE_FILTER)\n1..1\n");
		return 0;
	}
	for (i = optind; i < argc; i++) {
		char path[128];

		for (k = 0; k < (int)(sizeof(known_images) / sizeof(known_images[0])); k++)
			if (!strcmp(known_images[k].name, argv[i]))
				break;
		snprintf(path, sizeof(path), "/dev/img/%s", argv[i]);
		if (k == (int)(sizeof(known_images) / sizeof(known_images[0])) || access(path, F_OK))
			diag("image %s: unknown or not attached", argv[i]);
		else if (nimgs < 16)
			imgs[nimgs++] = &known_images[k];
	}
	mkdir(MNT, 0755);
	read_line(SYSCTL_DEP, saved_dep, sizeof(saved_dep));
	read_line(SYSCTL_Y2038, saved_y2038, sizeof(saved_y2038));
	set_policy(WARN);
	snap(&base);
	last = base;

	ok = find_ranges();
	diag("series code %#lx-%#lx, vmalloc %#lx-%#lx, jbd2_journal_init_inode %#lx-%#lx",
	     series_start, series_end, vmalloc_start, vmalloc_end, jbd2_start, jbd2_end);
	ok = ok && fault_setup();
	for (c = 0; c < NCOUNTERS; c++)
		ok &= gone[c] || (base.mounts[c] >= 0 && base.active[c] >= 0);
	result(ok && nimgs > 0, "setup: %d images, failslab and fail_page_alloc armed for this task, counters readable",
	       nimgs);
	if (!ok || !nimgs) {
		fault_restore();
		printf("1..%d\n", test_nr);
		return 1;
	}

	t0 = now();
	phase_series();
	diag("%.0f s", now() - t0);
	phase_whole(points, t0 + seconds);
	diag("%.0f s", now() - t0);
	phase_random(cycles, percent, interval, t0 + seconds);
	diag("%.0f s", now() - t0);
	result(fault_restore(), "fault injection off again");
	phase_after();

	for (k = 1; k < 256; k++)
		if (errnos[k])
			diag("errno %s: %ld (first: %s)", strerror(k), errnos[k], errno_first[k]);
	snap(&end);
	for (c = 0; c < NCOUNTERS; c++) {
		long dm = end.mounts[c] - base.mounts[c], dr = end.refused[c] - base.refused[c];

		if (dm < mounts_min[c] || dm > mounts_max[c] || dr != refusals[c])
			problem("%s: mounts +%ld (%ld..%ld expected), refused +%ld (%ld expected)",
				counter_names[c], dm, mounts_min[c], mounts_max[c], dr, refusals[c]);
		else
			diag("%s: mounts +%ld (%ld..%ld), refused +%ld", counter_names[c], dm,
			     mounts_min[c], mounts_max[c], dr);
	}
	result(test_end(), "counters: mounts between the checks reached and the attempts, refused = refusals seen");
	result(!went_down && !active_wrong,
	       "counters never went down; active back to its value after every operation");
	write_str(SYSCTL_DEP, saved_dep);
	write_str(SYSCTL_Y2038, saved_y2038);
	printf("1..%d\n", test_nr);
	return any_failed;
}
