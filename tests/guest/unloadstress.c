// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * unloadstress ITEM MODULE TYPE DEV SECONDS [CYCLES]: unload and reload MODULE
 * in a loop (delete_module(O_NONBLOCK), /sbin/modprobe) while
 *   - one process holds every file of /sys/fs/deprecated/ITEM/ open and reads
 *     them (pread at 0) and writes the policy ("warn", "allow": neither
 *     refuses anything) in a loop, through the same descriptors;
 *   - another mounts DEV (TYPE, read-only) and unmounts it in a loop, which
 *     autoloads MODULE whenever it is out.
 * A cycle: MODULE unloaded, loaded again (by a mount's autoload that started
 * within 2 ms and ended in a mount, else by modprobe here), then the next
 * unload waits for the mounter's next successful mount (at most 2 s), so
 * that unloads and mounts both progress whatever the host's speed (before,
 * the unloads could starve the mounts: 2 mounts in 30 s under KASAN).  The
 * loop ends after SECONDS, or, with CYCLES, as soon as MODULE was unloaded
 * and loaded again CYCLES times and DEV mounted CYCLES times (SECONDS is then
 * the limit: a count, not a duration, as the time the same work takes
 * depends on the host's load; KASAN: an ext4 unload takes seconds).
 * Then (KTAP): the module went out and back several times; every read and
 * write of the held-open files succeeded (the item outlives its module); the
 * mounts counter moved by exactly the successful mounts; refused 0; active
 * 0; the item is still listed.  A crash or a report in the kernel log fails
 * the group's "kernel log clean".
 */
#define _GNU_SOURCE
#include <signal.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "guest.h"

/* /sys/fs/deprecated/@item/@file as a number; -1 if unreadable */
static long read_counter_item(const char *item, const char *file)
{
	char path[256], buf[32];

	snprintf(path, sizeof(path), SYSFS_DEP "/%s/%s", item, file);
	read_line(path, buf, sizeof(buf));
	return buf[0] ? strtol(buf, NULL, 10) : -1;
}

static const char *const files[] = {
	"since", "removal", "reason", "replacement", "policy", "mounts", "refused", "active", "loaded",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

struct shared {
	volatile int stop;
	long reads, read_err, read_errno, opens_failed;
	long writes, write_err, write_errno;
	long mounts_ok, mounts_failed, mount_errno, umount_err;
	volatile long umounts;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void holder(struct shared *s, const char *item)
{
	int fd[NFILES];
	char path[256], buf[512];
	unsigned int i, n = 0;

	for (i = 0; i < NFILES; i++) {
		snprintf(path, sizeof(path), SYSFS_DEP "/%s/%s", item, files[i]);
		fd[i] = open(path, strcmp(files[i], "policy") ? O_RDONLY : O_RDWR);
		if (fd[i] < 0)
			s->opens_failed++;
	}
	while (!s->stop) {
		for (i = 0; i < NFILES; i++) {
			if (fd[i] < 0)
				continue;
			s->reads++;
			if (pread(fd[i], buf, sizeof(buf), 0) < 0) {
				s->read_err++;
				s->read_errno = errno;
			}
			if (!strcmp(files[i], "policy")) {
				const char *w = n++ % 2 ? "allow\n" : "warn\n";

				s->writes++;
				if (pwrite(fd[i], w, strlen(w), 0) != (ssize_t)strlen(w)) {
					s->write_err++;
					s->write_errno = errno;
				}
			}
		}
	}
	for (i = 0; i < NFILES; i++)
		if (fd[i] >= 0)
			close(fd[i]);
}

/*
 * ext4 puts /sys/fs/ext4 without kobject_del() (ext4_exit_sysfs()): with
 * CONFIG_DEBUG_KOBJECT_RELEASE the directory outlives the module by a few
 * seconds, and a load in that time fails ("cannot create duplicate
 * filename '/fs/ext4'").  Not the series' doing: the loop does not load
 * a module whose directory is still there.
 */
static bool sysfs_lingers(const char *module)
{
	char m[128], d[128];

	snprintf(m, sizeof(m), "/sys/module/%s", module);
	snprintf(d, sizeof(d), "/sys/fs/%s", module);
	return access(m, F_OK) != 0 && access(d, F_OK) == 0;
}

static void mounter(struct shared *s, const char *module, const char *type, const char *dev,
		    const char *dir)
{
	while (!s->stop) {
		if (sysfs_lingers(module)) {
			usleep(20000);
			continue;
		}
		if (mount(dev, dir, type, MS_RDONLY, NULL)) {
			s->mounts_failed++;
			s->mount_errno = errno;
			usleep(20000);
			continue;
		}
		s->mounts_ok++;
		if (umount2(dir, 0))
			s->umount_err++;
		s->umounts++;
		usleep(3000);	/* a window for the unloader */
	}
}

/* true when the mounter mounted once more than @m within 2 s */
static bool wait_mount(struct shared *s, long m)
{
	double until = now() + 2;

	while (s->mounts_ok == m && now() < until)
		usleep(1000);
	return s->mounts_ok != m;
}

int main(int argc, char **argv)
{
	const char *item, *module, *type, *dev, *dir = "/mnt/unloadstress";
	long unloads = 0, busy = 0, unload_err = 0, reloads = 0, autoloads = 0, reload_err = 0, m0, m1, r0, cycles = 0;
	double start, end;
	struct shared *s;
	pid_t p1, p2;
	char cmd[300], path[256];

	if (argc != 6 && argc != 7) {
		fprintf(stderr, "usage: unloadstress ITEM MODULE TYPE DEV SECONDS [CYCLES]\n");
		return 2;
	}
	item = argv[1], module = argv[2], type = argv[3], dev = argv[4];
	start = now();
	end = start + atof(argv[5]);
	if (argc == 7)
		cycles = atol(argv[6]);
	mkdir(dir, 0755);
	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		return 1;
	memset(s, 0, sizeof(*s));
	m0 = read_counter_item(item, "mounts");
	r0 = read_counter_item(item, "refused");
	diag("%s: before: mounts %ld refused %ld loaded %ld", item, m0, r0, read_counter_item(item, "loaded"));

	p1 = fork();
	if (!p1) {
		holder(s, item);
		_exit(0);
	}
	p2 = fork();
	if (!p2) {
		mounter(s, module, type, dev, dir);
		_exit(0);
	}
	snprintf(cmd, sizeof(cmd), "/sbin/modprobe %s", module);
	snprintf(path, sizeof(path), "/sys/module/%s", module);
	while (now() < end &&
	       !(cycles && unloads >= cycles && reloads + autoloads >= cycles && s->mounts_ok >= cycles)) {
		/*
		 * While delete_module() tries a module that is in use, a
		 * concurrent mount cannot take a reference and fails with
		 * ENODEV (stock behaviour): when busy, back off until the
		 * mounter's next unmount (at most 50 ms) and try again in its
		 * window, so that the mounts get on (slow ones too, as XFS
		 * under KASAN) and each retry has its chance.
		 */
		if (syscall(__NR_delete_module, module, O_NONBLOCK) == 0) {
			long m = s->mounts_ok;

			unloads++;
			usleep(2000);
			/* a mount's autoload started: its mount tells that it worked */
			if (access(path, F_OK) == 0 && wait_mount(s, m)) {
				autoloads++;
			} else {
				double until = now() + 30;

				while (sysfs_lingers(module) && now() < until)
					usleep(20000);
				if (system(cmd) == 0)
					reloads++;
				else
					reload_err++;
				wait_mount(s, m);
			}
			continue;
		} else if (errno == EBUSY || errno == EAGAIN || errno == EWOULDBLOCK) {
			long u = s->umounts;
			double until = now() + 0.05;

			busy++;
			while (s->umounts == u && now() < until)
				usleep(1000);
			continue;
		} else if (errno != ENOENT)	/* not loaded: the mounter will load it */
			unload_err++;
		usleep(2000);
	}
	s->stop = 1;
	waitpid(p1, NULL, 0);
	waitpid(p2, NULL, 0);
	umount2(dir, MNT_DETACH);

	diag("%s: %ld unloads (%ld busy, %ld errors), loaded again %ld times by modprobe (%ld failed) and %ld by a "
	     "mount's autoload, in %.1f s", module, unloads, busy, unload_err, reloads, reload_err, autoloads,
	     now() - start);
	diag("%s: %ld mounts ok, %ld failed (last errno %ld), %ld umount errors", dev, s->mounts_ok,
	     s->mounts_failed, s->mount_errno, s->umount_err);
	diag("held files: %ld opens failed, %ld reads (%ld failed, last errno %ld), %ld policy writes (%ld failed, "
	     "last errno %ld)", s->opens_failed, s->reads, s->read_err, s->read_errno, s->writes, s->write_err,
	     s->write_errno);
	/* With CYCLES, every count it asks for; by duration, 2 cycles and 3 mounts */
	result(unloads >= (cycles ?: 2) && reloads + autoloads >= (cycles ?: 2) && s->mounts_ok >= (cycles ?: 3) &&
	       !unload_err && !reload_err && !s->umount_err,
	       "%s: %s unloaded and reloaded while its files were held open and %s was mounted in a loop",
	       item, module, dev);
	result(!s->opens_failed && s->reads > 0 && !s->read_err,
	       "%s: every read of the held-open inventory files succeeded", item);
	result(s->writes > 0 && !s->write_err, "%s: every policy write through the held-open file succeeded", item);
	snprintf(path, sizeof(path), SYSFS_DEP "/%s/policy", item);
	write_str(path, "default");
	m1 = read_counter_item(item, "mounts");
	diag("%s: after: mounts %ld refused %ld active %ld", item, m1, read_counter_item(item, "refused"),
	     read_counter_item(item, "active"));
	result(m0 >= 0 && m1 - m0 == s->mounts_ok,
	       "%s: the mounts counter moved by exactly the successful mounts across the unloads", item);
	result(read_counter_item(item, "refused") == r0 && read_counter_item(item, "active") == 0,
	       "%s: refused unchanged, active 0", item);
	return any_failed;
}
