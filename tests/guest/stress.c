// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * stress: concurrent mounts of deprecated images while the policies change.
 *
 *   stress [-i ITERATIONS] [-t SECONDS] [IMAGE...]
 *
 * One worker process per image (/dev/img/IMAGE, default: reiserfs36 ext2
 * xfs-v4 ext4-128 and the control ext4-256) mounts and unmounts it in a loop:
 * mount(2) or fsopen()/fsconfig(CREATE)/fsmount(), read-only or read-write,
 * and read-only followed by a change to read-write (MS_REMOUNT or
 * fspick()/FSCONFIG_CMD_RECONFIGURE).  Each worker stops after ITERATIONS
 * (default 30) or SECONDS (default 8, a bound on the run, not a result).
 * Meanwhile a flipper process sets fs.deprecated_policy, fs.y2038_policy and
 * /sys/fs/deprecated/<item>/policy to random modes.
 *
 * The flipper brackets every change with a sequence counter in shared
 * memory (odd while it writes, the modes published before it turns even),
 * and a worker reads it before and after each mount syscall: when both
 * reads are the same even number no policy changed during the syscall, and
 * the outcome must be exactly the one of the decision table in
 * fs/deprecation.c (EACCES for read-write under ro, EPERM under deny, the
 * stricter mode of the items and of the 2038 policy deciding).  Whatever
 * the policy, a mount that succeeds must be what was asked: read-only mounts
 * read-only (statvfs ST_RDONLY, creating a file fails with EROFS), read-write
 * ones writable (a file can be created).  Any other errno fails.
 *
 * At the end the /sys/fs/deprecated and /sys/fs/y2038 counters must have
 * moved by what the workers saw: mounts by the mount attempts per item
 * (exact; for the 2038 counter of a deprecated type, a refused read-write
 * mount counts only if it was refused after fill_super, so a range when the
 * policy changed during it), refused by the refusals (the stricter policy
 * gets the count: exact when the policy was stable, else a range; the sum
 * over all counters exact), active back to its value before.  KTAP on stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "guest.h"

#define MNT_DIR		"/tmp/stress"

/* ------------------------------------------------------------ the model */

enum { ALLOW, WARN, RO, DENY, NMODES };
static const char *const mode_names[] = { "allow", "warn", "ro", "deny" };

/* Counters: the items, then y2038 */
#define NITEMS C_Y2038

struct image {
	const char *name, *fstype;
	int type_item;		/* item of the whole type (refused before fill_super), or -1 */
	int item;		/* the one item the image carries, or -1 */
	bool limited;		/* s_time_max <= S32_MAX */
};

static const struct image known_images[] = {
	{ "reiserfs36", "reiserfs", C_REISERFS, C_REISERFS, false },
	{ "ext2", "ext2", C_EXT2, C_EXT2, true },
	{ "xfs-v4", "xfs", -1, C_XFSV4, true },
	{ "ext4-128", "ext4", -1, C_EXT4SMALL, true },
	{ "ext4-256", "ext4", -1, -1, false },
	{ "ext4-rev0", "ext4", -1, C_EXT4SMALL, true },
	{ "xfs-v5-nobigtime", "xfs", -1, -1, true },
	{ "xfs-ascii-ci", "xfs", -1, C_XFSCI, false },
};

/* The modes in force, as published by the flipper */
struct policy {
	int dep, y2038;
	int item[NITEMS];	/* -1: default (fs.deprecated_policy) */
};

static int item_mode(const struct policy *p, int item)
{
	return p->item[item] >= 0 ? p->item[item] : p->dep;
}

/*
 * What the decision table of fs/deprecation.c gives for an operation on an
 * image under @p: 0, -EACCES or -EPERM, and in *counter the counter that
 * gets the refusal.  @reconf: a change of a read-only superblock to
 * read-write (rw is then implied); else a new mount, read-write if @rw.
 */
static int decide(const struct image *im, const struct policy *p, bool reconf, bool rw,
		  bool sticky_ro, int *counter)
{
	int mode = -1, worst = -1;

	/*
	 * fs_deprecation_precheck(), before fill_super: a deprecated type
	 * under deny, or under ro read-write
	 */
	if (!reconf && im->type_item >= 0 &&
	    (item_mode(p, im->type_item) == DENY ||
	     (item_mode(p, im->type_item) == RO && rw))) {
		*counter = im->type_item;
		return item_mode(p, im->type_item) == DENY ? -EPERM : -EACCES;
	}
	if (im->limited)
		mode = p->y2038;
	if (im->item >= 0 && item_mode(p, im->item) >= mode) {
		mode = item_mode(p, im->item);
		worst = im->item;
	}
	*counter = worst >= 0 ? worst : C_Y2038;
	/* A superblock mounted under ro stays read-only (SB_I_POLICY_RO) */
	if (reconf && sticky_ro && mode < RO)
		mode = RO;
	if (reconf)
		return mode >= RO ? (mode == DENY ? -EPERM : -EACCES) : 0;
	if (mode == DENY)
		return -EPERM;
	if (mode == RO && rw)
		return -EACCES;
	return 0;
}

/* The effective mode of @im under @p: the strictest that applies, or -1 */
static int eff_mode(const struct image *im, const struct policy *p)
{
	int mode = im->limited ? p->y2038 : -1;

	if (im->item >= 0 && item_mode(p, im->item) > mode)
		mode = item_mode(p, im->item);
	return mode;
}

/* --------------------------------------------------------- shared state */

enum { OP_MOUNT_RW, OP_MOUNT_RO, OP_FSOPEN_RW, OP_FSOPEN_RO, OP_REMOUNT_RW, OP_RECONF_RW, NOPS };
static const char *const op_names[] = {
	"mount rw", "mount ro", "fsopen rw", "fsopen ro", "mount ro + remount rw",
	"fsopen ro + reconfigure rw",
};

struct wstats {
	long iterations;
	long attempts;			/* mount attempts (syscalls that create a superblock) */
	long reconfs;			/* changes to read-write attempted */
	long ok[2], eacces[2], eperm[2];	/* [0] mounts, [1] changes to rw */
	long stable, unstable;
	long other;			/* errors that are not policy refusals */
	long wrong;			/* stable outcome not the decision table's */
	long rw_state;			/* succeeded but read-only/writable state wrong */
	long mounts_min[NCOUNTERS], mounts_max[NCOUNTERS];
	long refused_min[NCOUNTERS], refused_max[NCOUNTERS];
	long per_op[NOPS];
	bool time_cap;
	char first_problem[3][200];	/* other, wrong, rw_state */
};

struct shared {
	unsigned int seq;		/* odd while the flipper writes */
	struct policy pol;		/* valid while seq is even */
	int stop;
	long flips, flip_errors;
	long long syscall_ns;		/* time in the bracketed syscalls, all workers */
	long syscalls;
	char flip_problem[200];
	struct wstats w[16];
};

static struct shared *sh;

static unsigned int seq_read(void)
{
	return __atomic_load_n(&sh->seq, __ATOMIC_SEQ_CST);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* For the flipper's pace: how long a bracketed syscall takes */
static void syscall_took(long long t0)
{
	__atomic_add_fetch(&sh->syscall_ns, now_ns() - t0, __ATOMIC_RELAXED);
	__atomic_add_fetch(&sh->syscalls, 1, __ATOMIC_RELAXED);
}

/*
 * Items of a filesystem this kernel's base no longer has (-x ITEM: reiserfs
 * on 7.3): no policy file, no counters; never written, never checked.
 */
static bool gone[NCOUNTERS];

static bool knob_gone(int knob)
{
	return knob >= 2 && gone[knob - 2];
}

static const char *policy_path(int knob, char *buf, size_t size)
{
	if (knob == 0)
		return SYSCTL_DEP;
	if (knob == 1)
		return SYSCTL_Y2038;
	snprintf(buf, size, SYSFS_DEP "/%s/policy", counter_names[knob - 2]);
	return buf;
}

/* --------------------------------------------------------------- random */

static uint64_t rnd_state;

static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state >> 11;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --------------------------------------------------------------- flipper */

/*
 * Random modes, biased to the permissive ones so that read-write mounts
 * also succeed: each knob that applies makes a mount stricter.
 */
static int random_mode(bool item)
{
	static const int weights[] = { 3, 3, 2, 1 };	/* allow warn ro deny */
	int r = rnd() % (9 + (item ? 4 : 0)), m;

	if (item && r >= 9)
		return -1;		/* default */
	for (m = 0; m < NMODES; m++) {
		if (r < weights[m])
			return m;
		r -= weights[m];
	}
	return WARN;
}

static void flipper(void)
{
	char path[128];

	rnd_state = 0x9e3779b97f4a7c15ULL;
	while (!__atomic_load_n(&sh->stop, __ATOMIC_SEQ_CST)) {
		int knob = rnd() % (2 + NITEMS), n = 1 + rnd() % 2, k, m;
		long long avg_us;
		struct policy p = sh->pol;

		__atomic_store_n(&sh->seq, sh->seq + 1, __ATOMIC_SEQ_CST);	/* odd */
		for (k = 0; k < n; k++, knob = rnd() % (2 + NITEMS)) {
			if (knob_gone(knob))
				continue;
			m = random_mode(knob >= 2);
			if (write_str(policy_path(knob, path, sizeof(path)), m < 0 ? "default" : mode_names[m])) {
				if (!sh->flip_errors++)
					snprintf(sh->flip_problem, sizeof(sh->flip_problem), "%s <- %s: %s",
						 policy_path(knob, path, sizeof(path)),
						 m < 0 ? "default" : mode_names[m], strerror(errno));
				continue;
			}
			if (knob == 0)
				p.dep = m;
			else if (knob == 1)
				p.y2038 = m;
			else
				p.item[knob - 2] = m;
		}
		sh->pol = p;
		sh->flips++;
		__atomic_store_n(&sh->seq, sh->seq + 1, __ATOMIC_SEQ_CST);	/* even */
		/*
		 * Next change after 0 to 3 times the average mount syscall: about
		 * half the syscalls see no change (checked exactly), the others
		 * race one (checked by ranges), on any kernel speed.
		 */
		n = __atomic_load_n(&sh->syscalls, __ATOMIC_RELAXED);
		avg_us = n ? __atomic_load_n(&sh->syscall_ns, __ATOMIC_RELAXED) / n / 1000 : 5000;
		usleep(rnd() % (3 * avg_us + 1));
	}
	_exit(0);
}

/* ---------------------------------------------------------------- worker */

static void problem(struct wstats *w, int kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void problem(struct wstats *w, int kind, const char *fmt, ...)
{
	va_list ap;

	if (w->first_problem[kind][0])
		return;
	va_start(ap, fmt);
	vsnprintf(w->first_problem[kind], sizeof(w->first_problem[kind]), fmt, ap);
	va_end(ap);
}

static const char *err_str(int r)
{
	return r == 0 ? "success" : r == -EACCES ? "EACCES" : r == -EPERM ? "EPERM" : strerror(-r);
}

static const char *pol_str(const struct policy *p)
{
	static char buf[160];
	int n, i;

	n = snprintf(buf, sizeof(buf), "dep=%s y2038=%s", mode_names[p->dep], mode_names[p->y2038]);
	for (i = 0; i < NITEMS; i++)
		if (p->item[i] >= 0)
			n += snprintf(buf + n, sizeof(buf) - n, " %s=%s", counter_names[i],
				      mode_names[p->item[i]]);
	return buf;
}

/* Is the mount at @dir read-only, and does that match @want_rw? */
static bool check_state(struct wstats *w, const struct image *im, const char *dir, bool want_rw,
			const char *what)
{
	char file[128];
	bool ro_flag, created;
	int err, r;

	snprintf(file, sizeof(file), "%s/stress-%ld", dir, w->iterations);
	r = probe_writable(dir, file, &ro_flag, &err);
	if (r) {
		problem(w, 2, "%s: %s: statvfs: %s", im->name, what, strerror(-r));
		return false;
	}
	created = !err;
	if (want_rw ? (ro_flag || !created) : (!ro_flag || created || err != EROFS)) {
		problem(w, 2, "%s: %s succeeded but is %s (ST_RDONLY %d, create: %s)", im->name, what,
			want_rw ? "not writable" : "writable", ro_flag, created ? "ok" : strerror(err));
		w->rw_state++;
		return false;
	}
	return true;
}

/*
 * Account for one operation: the outcome @r, seen under @p if @stable.
 * @reconf: a change to read-write, else a mount attempt (read-write if @rw).
 */
static void account(struct wstats *w, const struct image *im, bool reconf, bool rw, int r,
		    bool stable, bool sticky_ro, const struct policy *p, const char *what)
{
	int k = reconf, counter, want;

	if (r == 0)
		w->ok[k]++;
	else if (r == -EACCES)
		w->eacces[k]++;
	else if (r == -EPERM)
		w->eperm[k]++;
	else {
		w->other++;
		problem(w, 0, "%s: %s: %s", im->name, what, strerror(-r));
		return;
	}
	stable ? w->stable++ : w->unstable++;
	want = decide(im, p, reconf, rw, sticky_ro, &counter);
	if (stable && r != want) {
		w->wrong++;
		problem(w, 1, "%s: %s under %s: %s, the decision table says %s", im->name, what,
			pol_str(p), err_str(r), err_str(want));
	}
	/* mounts: every mount attempt counts once per item */
	if (!reconf && im->item >= 0) {
		w->mounts_min[im->item]++;
		w->mounts_max[im->item]++;
	}
	/* ... and on y2038 once past fill_super: not when refused by the precheck */
	if (!reconf && im->limited) {
		bool maybe_pre = im->type_item >= 0 &&
				 (r == -EPERM || (rw && r == -EACCES));
		int tm = im->type_item >= 0 ? item_mode(p, im->type_item) : -1;
		bool pre = tm == DENY || (tm == RO && rw);

		if (!maybe_pre || (stable && !pre))
			w->mounts_min[C_Y2038]++, w->mounts_max[C_Y2038]++;
		else if (!stable)
			w->mounts_max[C_Y2038]++;
	}
	if (r) {
		if (stable && r == want) {
			w->refused_min[counter]++;
			w->refused_max[counter]++;
		} else {
			/* any counter that the operation could reach; if one, that one */
			int only = im->item >= 0 && im->limited ? -1 : im->item >= 0 ? im->item :
				   im->limited ? C_Y2038 : -1;

			if (im->item >= 0)
				w->refused_max[im->item]++;
			if (im->limited)
				w->refused_max[C_Y2038]++;
			if (only >= 0)
				w->refused_min[only]++;
		}
	}
}

/* One mount attempt, bracketed by the sequence counter */
static int do_mount(const struct image *im, const char *dev, const char *dir, int op,
		    bool *stable, struct policy *p)
{
	bool ro = op == OP_MOUNT_RO || op == OP_FSOPEN_RO || op == OP_REMOUNT_RW || op == OP_RECONF_RW;
	bool api = op == OP_FSOPEN_RW || op == OP_FSOPEN_RO || op == OP_RECONF_RW;
	unsigned int s1, s2;
	long long t0;
	int r, fd = -1, mfd;

	*stable = false;
	*p = sh->pol;
	if (api) {
		fd = sys_fsopen(im->fstype, FSOPEN_CLOEXEC);
		if (fd < 0 || sys_fsconfig(fd, FSCONFIG_SET_STRING, "source", dev, 0) ||
		    (ro && sys_fsconfig(fd, FSCONFIG_SET_FLAG, "ro", NULL, 0))) {
			r = -errno;
			if (fd >= 0)
				close(fd);
			return r == 0 ? -EIO : r;
		}
	}
	t0 = now_ns();
	s1 = seq_read();
	*p = sh->pol;
	if (api)
		r = sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) ? -errno : 0;
	else
		r = mount(dev, dir, im->fstype, ro ? MS_RDONLY : 0, NULL) ? -errno : 0;
	s2 = seq_read();
	syscall_took(t0);
	*stable = s1 == s2 && !(s1 & 1);
	if (api) {
		if (!r) {
			/* the superblock is read-only or not; the mount itself never is */
			mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
			if (mfd < 0 || sys_move_mount(mfd, "", AT_FDCWD, dir, MOVE_MOUNT_F_EMPTY_PATH)) {
				r = -errno;
				fprintf(stderr, "stress: %s: fsmount/move_mount: %s\n", im->name,
					strerror(errno));
				r = r == -EACCES || r == -EPERM || !r ? -EIO : r;
			}
			if (mfd >= 0)
				close(mfd);
		}
		close(fd);
	}
	return r;
}

static int do_reconf(const struct image *im, const char *dir, int op, bool *stable,
		     struct policy *p)
{
	unsigned int s1, s2;
	long long t0;
	int r, fd = -1;

	(void)im;
	*stable = false;
	*p = sh->pol;
	if (op == OP_RECONF_RW) {
		fd = sys_fspick(AT_FDCWD, dir, FSPICK_CLOEXEC);
		if (fd < 0 || sys_fsconfig(fd, FSCONFIG_SET_FLAG, "rw", NULL, 0)) {
			r = -errno;
			if (fd >= 0)
				close(fd);
			return r;
		}
	}
	t0 = now_ns();
	s1 = seq_read();
	*p = sh->pol;
	if (op == OP_RECONF_RW)
		r = sys_fsconfig(fd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0) ? -errno : 0;
	else
		r = mount(NULL, dir, NULL, MS_REMOUNT, NULL) ? -errno : 0;
	s2 = seq_read();
	syscall_took(t0);
	*stable = s1 == s2 && !(s1 & 1);
	if (fd >= 0)
		close(fd);
	return r;
}

static void worker(int idx, const struct image *im, long iterations, double deadline)
{
	struct wstats *w = &sh->w[idx];
	char dev[64], dir[64], what[96];
	struct policy p;
	bool stable, mounted_stable, sticky_ro;
	int r;

	snprintf(dev, sizeof(dev), "/dev/img/%s", im->name);
	snprintf(dir, sizeof(dir), MNT_DIR "/%s", im->name);
	mkdir(dir, 0755);
	rnd_state = 0x2545f4914f6cdd1dULL * (idx + 1);
	for (w->iterations = 0; w->iterations < iterations; w->iterations++) {
		int op = rnd() % NOPS;
		bool rw = op == OP_MOUNT_RW || op == OP_FSOPEN_RW;

		if (now() > deadline) {
			w->time_cap = true;
			break;
		}
		w->per_op[op]++;
		w->attempts++;
		r = do_mount(im, dev, dir, op, &stable, &p);
		snprintf(what, sizeof(what), "%s (%s)", op_names[op], rw ? "rw" : "ro");
		account(w, im, false, rw, r, stable, false, &p, what);
		if (r)
			continue;
		/* Mounted under ro: stays read-only; unknown if the policy moved */
		mounted_stable = stable;
		sticky_ro = eff_mode(im, &p) >= RO;
		check_state(w, im, dir, rw, what);
		if (op == OP_REMOUNT_RW || op == OP_RECONF_RW) {
			w->reconfs++;
			r = do_reconf(im, dir, op, &stable, &p);
			account(w, im, true, true, r, stable && mounted_stable, sticky_ro, &p,
				op_names[op]);
			/* refused: still read-only; done: writable */
			if (r == 0 || r == -EACCES || r == -EPERM)
				check_state(w, im, dir, r == 0, r ? "refused change to rw" : op_names[op]);
		}
		if (umount2(dir, 0)) {
			w->other++;
			problem(w, 0, "%s: umount: %s", im->name, strerror(errno));
			break;
		}
	}
	_exit(0);
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv)
{
	long iterations = 30;
	double seconds = 8, t0, elapsed;
	const struct image *imgs[16];
	char saved[2 + NITEMS][16], path[128];
	struct snapshot before, after;
	struct wstats tot = { 0 };
	int nimgs = 0, i, c, k, opt, status;
	pid_t pids[17];
	bool ok;

	if (getenv("STRESS_ITERATIONS"))
		iterations = atol(getenv("STRESS_ITERATIONS"));
	if (getenv("STRESS_SECONDS"))
		seconds = atof(getenv("STRESS_SECONDS"));
	while ((opt = getopt(argc, argv, "i:t:x:")) != -1) {
		if (opt == 'x') {
			for (c = 0; c < NITEMS; c++)
				if (!strcmp(counter_names[c], optarg))
					gone[c] = true;
		} else if (opt == 'i')
			iterations = atol(optarg);
		else if (opt == 't')
			seconds = atof(optarg);
		else {
			fprintf(stderr, "usage: %s [-i ITERATIONS] [-t SECONDS] [-x ITEM]... [IMAGE...]\n",
				argv[0]);
			return 2;
		}
	}
	printf("KTAP version 1\n");
	for (i = optind; i < argc || (optind == argc && i < 5); i++) {
		const char *name = optind == argc ? known_images[i].name : argv[i];
		const struct image *im = NULL;

		for (k = 0; k < (int)(sizeof(known_images) / sizeof(known_images[0])); k++)
			if (!strcmp(known_images[k].name, name))
				im = &known_images[k];
		snprintf(path, sizeof(path), "/dev/img/%s", name);
		if (!im || access(path, F_OK)) {
			diag("image %s: %s", name, im ? "not attached" : "unknown");
			continue;
		}
		if (nimgs < 16)
			imgs[nimgs++] = im;
	}
	if (nimgs < 2) {
		printf("ok 1 stress # SKIP fewer than two images attached\n1..1\n");
		return 0;
	}

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* The starting point: warn everywhere, every item following the sysctl */
	for (k = 0; k < 2 + NITEMS; k++)
		if (!knob_gone(k))
			read_line(policy_path(k, path, sizeof(path)), saved[k], sizeof(saved[k]));
	ok = !write_str(SYSCTL_DEP, "warn") && !write_str(SYSCTL_Y2038, "warn");
	sh->pol.dep = sh->pol.y2038 = WARN;
	for (k = 0; k < NITEMS; k++) {
		sh->pol.item[k] = -1;
		if (!gone[k])
			ok &= !write_str(policy_path(k + 2, path, sizeof(path)), "default");
	}
	mkdir(MNT_DIR, 0755);
	snap(&before);
	for (c = 0; c < NCOUNTERS; c++)
		ok &= gone[c] || (before.mounts[c] >= 0 && before.refused[c] >= 0 && before.active[c] >= 0);
	result(ok, "setup: %d images, policies reset to warn/default, every counter readable", nimgs);

	fflush(stdout);
	t0 = now();
	pids[nimgs] = fork();
	if (!pids[nimgs])
		flipper();
	for (i = 0; i < nimgs; i++) {
		pids[i] = fork();
		if (!pids[i])
			worker(i, imgs[i], iterations, t0 + seconds);
	}
	for (i = 0; i < nimgs; i++)
		waitpid(pids[i], &status, 0);
	elapsed = now() - t0;
	__atomic_store_n(&sh->stop, 1, __ATOMIC_SEQ_CST);
	waitpid(pids[nimgs], &status, 0);

	/* Policies back before reading the counters: nothing mounts now */
	for (k = 0; k < 2 + NITEMS; k++)
		if (!knob_gone(k))
			write_str(policy_path(k, path, sizeof(path)), saved[k]);
	snap(&after);

	for (i = 0; i < nimgs; i++) {
		struct wstats *w = &sh->w[i];

		diag("%-10s %ld iterations%s: mounts %ld (ok %ld, EACCES %ld, EPERM %ld), "
		     "changes to rw %ld (ok %ld, EACCES %ld, EPERM %ld); stable %ld, unstable %ld",
		     imgs[i]->name, w->iterations, w->time_cap ? " (time cap)" : "", w->attempts,
		     w->ok[0], w->eacces[0], w->eperm[0], w->reconfs, w->ok[1], w->eacces[1],
		     w->eperm[1], w->stable, w->unstable);
		tot.iterations += w->iterations;
		tot.attempts += w->attempts;
		tot.reconfs += w->reconfs;
		for (k = 0; k < 2; k++) {
			tot.ok[k] += w->ok[k];
			tot.eacces[k] += w->eacces[k];
			tot.eperm[k] += w->eperm[k];
		}
		tot.stable += w->stable;
		tot.unstable += w->unstable;
		tot.other += w->other;
		tot.wrong += w->wrong;
		tot.rw_state += w->rw_state;
		for (c = 0; c < NCOUNTERS; c++) {
			tot.mounts_min[c] += w->mounts_min[c];
			tot.mounts_max[c] += w->mounts_max[c];
			tot.refused_min[c] += w->refused_min[c];
			tot.refused_max[c] += w->refused_max[c];
		}
	}
	diag("%.1f s, %ld policy changes, %.1f ms per mount syscall", elapsed, sh->flips,
	     sh->syscalls ? sh->syscall_ns / 1e6 / sh->syscalls : 0.0);

	result(!sh->flip_errors && sh->flips > 0, "flipper: %ld policy changes, every write accepted",
	       sh->flips);
	if (sh->flip_errors)
		diag("%ld failed writes, first: %s", sh->flip_errors, sh->flip_problem);

	for (i = 0; i < nimgs; i++)
		if (sh->w[i].first_problem[0][0])
			diag("%s", sh->w[i].first_problem[0]);
	result(!tot.other, "%ld mount attempts and %ld changes to rw: each succeeded or failed with EACCES or EPERM",
	       tot.attempts, tot.reconfs);

	for (i = 0; i < nimgs; i++)
		if (sh->w[i].first_problem[1][0])
			diag("%s", sh->w[i].first_problem[1]);
	result(!tot.wrong, "%ld operations under a stable policy: outcome as the decision table says",
	       tot.stable);

	for (i = 0; i < nimgs; i++)
		if (sh->w[i].first_problem[2][0])
			diag("%s", sh->w[i].first_problem[2]);
	result(!tot.rw_state, "%ld successes: read-only ones read-only, read-write ones writable",
	       tot.ok[0] + tot.ok[1]);

	/* Without these the run proved little: ask for each kind of outcome */
	diag("stable: %ld of %ld; outcomes: ok %ld+%ld, EACCES %ld+%ld, EPERM %ld+%ld (mounts+changes)",
	     tot.stable, tot.stable + tot.unstable, tot.ok[0], tot.ok[1], tot.eacces[0], tot.eacces[1],
	     tot.eperm[0], tot.eperm[1]);
	result(tot.stable > 0 && tot.ok[0] && tot.ok[1] && tot.eacces[0] && tot.eperm[0] &&
	       (tot.eacces[1] + tot.eperm[1]),
	       "coverage: successes, EACCES and EPERM seen for mounts, success and refusal for changes to rw");

	{
		long sum = 0, seen = tot.eacces[0] + tot.eperm[0] + tot.eacces[1] + tot.eperm[1];

		for (c = 0; c < NCOUNTERS; c++) {
			long dm = after.mounts[c] - before.mounts[c];
			long dr = after.refused[c] - before.refused[c];
			bool good = dm >= tot.mounts_min[c] && dm <= tot.mounts_max[c] &&
				    dr >= tot.refused_min[c] && dr <= tot.refused_max[c];

			if (gone[c])
				continue;
			sum += dr;
			if (!good)
				diag("mounts %ld..%ld expected, refused %ld..%ld expected",
				     tot.mounts_min[c], tot.mounts_max[c], tot.refused_min[c],
				     tot.refused_max[c]);
			if (tot.mounts_min[c] == tot.mounts_max[c])
				result(good, "%s: mounts +%ld, refused +%ld (%ld..%ld)", counter_names[c],
				       dm, dr, tot.refused_min[c], tot.refused_max[c]);
			else
				result(good, "%s: mounts +%ld (%ld..%ld), refused +%ld (%ld..%ld)",
				       counter_names[c], dm, tot.mounts_min[c], tot.mounts_max[c], dr,
				       tot.refused_min[c], tot.refused_max[c]);
		}
		result(sum == seen, "refused counters moved by %ld in all, %ld refusals seen", sum, seen);
	}
	ok = true;
	for (c = 0; c < NCOUNTERS; c++)
		if (!gone[c] && after.active[c] != before.active[c]) {
			diag("%s/active %ld, was %ld", counter_names[c], after.active[c], before.active[c]);
			ok = false;
		}
	result(ok, "active back to its value before the run for every counter");

	ok = true;
	for (k = 0; k < 2 + NITEMS; k++) {
		char now_v[16];

		if (knob_gone(k))
			continue;
		read_line(policy_path(k, path, sizeof(path)), now_v, sizeof(now_v));
		if (strcmp(now_v, saved[k])) {
			diag("%s: %s, was %s", path, now_v, saved[k]);
			ok = false;
		}
	}
	result(ok, "policies restored");
	printf("1..%d\n", test_nr);
	return any_failed;
}
