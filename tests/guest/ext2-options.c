// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * Every ext2 mount option, alone and in combinations, on a new mount
 * (mount(2) and fsopen()) and on a remount (mount(2) MS_REMOUNT and
 * fspick()): for each case what the kernel answered and did.  Groups
 * ext2-options (kernel with the series) and ext2-options-stock (the same
 * config without it) run this; rig/compare.py requires identical results, so
 * that converting ext2 to the new mount API is shown to change nothing.
 *
 *   ext2-options DEV LOOPDEV
 *
 * DEV is the ext2 image; LOOPDEV a loop device on a bigger ext2 filesystem
 * with backup superblocks (sb=).  One KTAP result per case, its diagnostics
 * before it, per step:
 *   step: what was done
 *   errno: 0 or the error of the first call that failed
 *   mounts: the options of the mount in /proc/mounts
 *   super: the superblock's options in /proc/self/mountinfo
 *   statfs: blocks, free, available
 *   kmsg: <level>line, every line with "EXT2-fs" the kernel logged meanwhile
 *   info: any other kernel log line (the VFS, the series' warnings): shown,
 *         not compared
 * A case fails only if the test itself could not run it (e.g. umount
 * failed); what ext2 answered is for the comparison.  Cases whose result
 * differs by design on the new mount API are skipped, with the reason; their
 * diagnostics are still shown.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>

#include "guest.h"

#define MNT "/mnt"
#define MNT2 "/tmp/mnt2"

static const char *dev;
static int kmsg = -1;

/* ------------------------------------------------------------ kernel log */

static void kmsg_skip(void)
{
	lseek(kmsg, 0, SEEK_END);
}

/* Report the records logged since kmsg_skip() */
static void kmsg_report(void)
{
	char buf[8192], *text;
	unsigned int pri;
	ssize_t n;

	for (;;) {
		n = read(kmsg, buf, sizeof(buf) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records */
		if (n <= 0)
			break;
		buf[n] = '\0';
		text = strchr(buf, ';');
		if (!text || sscanf(buf, "%u", &pri) != 1)
			continue;
		text++;
		text[strcspn(text, "\n")] = '\0';
		diag("%s: <%u>%s", strstr(text, "EXT2-fs") ? "kmsg" : "info", pri & 7, text);
	}
}

/* ------------------------------------------------------------ the mount */

static const char *errname(int err)
{
	static char buf[32];

	switch (err) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case EROFS: return "EROFS";
	case EBUSY: return "EBUSY";
	case ENOENT: return "ENOENT";
	case ENOMEM: return "ENOMEM";
	case EIO: return "EIO";
	case ENOTBLK: return "ENOTBLK";
	}
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

static bool mounted(const char *where)
{
	char line[1024], dir[256];
	bool found = false;
	FILE *f = fopen("/proc/mounts", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %255s", dir) == 1 && !strcmp(dir, where))
			found = true;
	if (f)
		fclose(f);
	return found;
}

/* What the mount at @where looks like */
static void show_mount(const char *where)
{
	char line[1024], dir[256], opts[512], *super;
	struct statfs st;
	FILE *f;

	f = fopen("/proc/mounts", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %255s %*s %511s", dir, opts) == 2 && !strcmp(dir, where))
			diag("mounts: %s", opts);
	if (f)
		fclose(f);
	/* mountinfo: ... mount-options optional-fields - fstype source super-options */
	f = fopen("/proc/self/mountinfo", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %*s %*s %255s", dir) != 1 || strcmp(dir, where))
			continue;
		super = strrchr(line, ' ');
		if (super) {
			super[strcspn(super, "\n")] = '\0';
			diag("super: %s", super + 1);
		}
	}
	if (f)
		fclose(f);
	if (!statfs(where, &st))
		diag("statfs: blocks %llu free %llu avail %llu", (unsigned long long)st.f_blocks,
		     (unsigned long long)st.f_bfree, (unsigned long long)st.f_bavail);
}

/*
 * The parameters of a fsopen()/fspick() context, separated by spaces:
 * "key" is FSCONFIG_SET_FLAG, "key=value" FSCONFIG_SET_STRING.  0 or errno.
 */
static int fsconfig_params(int fd, const char *params)
{
	char buf[512], *p, *save = NULL, *val;

	snprintf(buf, sizeof(buf), "%s", params);
	for (p = strtok_r(buf, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
		val = strchr(p, '=');
		if (val)
			*val++ = '\0';
		if (sys_fsconfig(fd, val ? FSCONFIG_SET_STRING : FSCONFIG_SET_FLAG, p, val, 0))
			return errno;
	}
	return 0;
}

/* fsopen(), the parameters, create, fsmount() and move to MNT: 0 or errno */
static int do_fsopen(const char *params, const char *source)
{
	int fd, mfd, err = 0;

	fd = sys_fsopen("ext2", FSOPEN_CLOEXEC);
	if (fd < 0)
		return errno;
	if (sys_fsconfig(fd, FSCONFIG_SET_STRING, "source", source, 0))
		err = errno;
	if (!err)
		err = fsconfig_params(fd, params);
	if (!err && sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		err = errno;
	if (!err) {
		mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
		if (mfd < 0) {
			err = errno;
		} else {
			if (sys_move_mount(mfd, "", AT_FDCWD, MNT, MOVE_MOUNT_F_EMPTY_PATH))
				err = errno;
			close(mfd);
		}
	}
	close(fd);
	return err;
}

/*
 * fsopen() here, the parameters set by a child in a new user namespace that
 * maps its 1000 to our 0, create here: whose namespace maps resuid=/resgid=?
 */
static int do_fsopen_userns(const char *params, const char *source)
{
	int fd, mfd, err = 0, status;
	char map[64];
	pid_t pid;

	fd = sys_fsopen("ext2", FSOPEN_CLOEXEC);
	if (fd < 0)
		return errno;
	if (sys_fsconfig(fd, FSCONFIG_SET_STRING, "source", source, 0))
		err = errno;
	pid = err ? -1 : fork();
	if (pid == 0) {
		if (unshare(CLONE_NEWUSER))
			_exit(100);
		snprintf(map, sizeof(map), "1000 %d 1", 0);
		if (write_str("/proc/self/uid_map", map) || write_str("/proc/self/setgroups", "deny") ||
		    write_str("/proc/self/gid_map", map))
			_exit(101);
		_exit(fsconfig_params(fd, params));
	}
	if (pid > 0) {
		waitpid(pid, &status, 0);
		err = WIFEXITED(status) ? WEXITSTATUS(status) : 102;
	}
	if (!err && sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		err = errno;
	if (!err) {
		mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
		if (mfd < 0) {
			err = errno;
		} else {
			if (sys_move_mount(mfd, "", AT_FDCWD, MNT, MOVE_MOUNT_F_EMPTY_PATH))
				err = errno;
			close(mfd);
		}
	}
	close(fd);
	return err;
}

/* fspick(MNT), the parameters, reconfigure: 0 or errno */
static int do_fspick(const char *params)
{
	int fd, err;

	fd = sys_fspick(AT_FDCWD, MNT, FSPICK_CLOEXEC);
	if (fd < 0)
		return errno;
	err = fsconfig_params(fd, params);
	if (!err && sys_fsconfig(fd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0))
		err = errno;
	close(fd);
	return err;
}

/* ------------------------------------------------------------ the cases */

/*
 * A case is a sequence of steps, ';' between them:
 *   m FLAGS DATA   mount(2) of DEV at MNT, new mount
 *   n FLAGS DATA   mount(2) of DEV at MNT2: the superblock of MNT again
 *   r FLAGS DATA   mount(2) MS_REMOUNT of MNT
 *   f PARAMS       fsopen(), fsconfig(), fsmount()
 *   u PARAMS       the same, PARAMS set from a user namespace
 *   p PARAMS       fspick(MNT), fsconfig(), reconfigure
 * FLAGS: "-" or letters: r MS_RDONLY, s MS_SILENT.  DATA and PARAMS run to
 * the end of the step; DATA "-" is NULL, and a leading "@" uses the loop
 * device instead of DEV.  Every case ends unmounted.
 */
struct tcase {
	const char *steps;
	const char *differs;	/* why the result differs by design, or NULL */
};

static unsigned long flags_of(const char *f)
{
	unsigned long fl = 0;

	for (; *f && *f != '-'; f++)
		fl |= *f == 'r' ? MS_RDONLY : *f == 's' ? MS_SILENT : 0;
	return fl;
}

static const char *loopdev;

static int run_step(char *step)
{
	char op = step[0], *flags, *data = NULL;
	const char *source = dev;
	unsigned long fl = 0;
	int err;

	while (*step && !isspace((unsigned char)*step))
		step++;
	while (isspace((unsigned char)*step))
		step++;
	if (op == 'm' || op == 'n' || op == 'r') {
		flags = step;
		step += strcspn(step, " ");
		if (*step)
			*step++ = '\0';
		fl = flags_of(flags);
	}
	data = step;
	if (*data == '@') {
		source = loopdev;
		data++;
	}
	if (op != 'm' && op != 'n' && op != 'r' && !strcmp(data, "-"))
		data = "";
	switch (op) {
	case 'm':
		err = mount(source, MNT, "ext2", fl, strcmp(data, "-") ? data : NULL) ? errno : 0;
		break;
	case 'n':
		err = mount(source, MNT2, "ext2", fl, strcmp(data, "-") ? data : NULL) ? errno : 0;
		break;
	case 'r':
		err = mount(NULL, MNT, NULL, MS_REMOUNT | fl, strcmp(data, "-") ? data : NULL) ? errno : 0;
		break;
	case 'f':
		err = do_fsopen(data, source);
		break;
	case 'u':
		err = do_fsopen_userns(data, source);
		break;
	case 'p':
		err = do_fspick(data);
		break;
	default:
		diag("bad step %c", op);
		return -1;
	}
	return err;
}

static bool run_case(const struct tcase *tc)
{
	char buf[1024], *step, *save = NULL;
	bool ok = true;
	int err;

	snprintf(buf, sizeof(buf), "%s", tc->steps);
	for (step = strtok_r(buf, ";", &save); step; step = strtok_r(NULL, ";", &save)) {
		while (*step == ' ')
			step++;
		diag("step: %s", step);
		kmsg_skip();
		err = run_step(step);
		if (err < 0)
			return false;
		diag("errno: %s", errname(err));
		if (mounted(MNT))
			show_mount(MNT);
		if (mounted(MNT2))
			show_mount(MNT2);
		kmsg_report();
	}
	kmsg_skip();
	if (mounted(MNT2) && umount(MNT2)) {
		diag("umount " MNT2 ": %s", strerror(errno));
		ok = false;
	}
	if (mounted(MNT) && umount(MNT)) {
		diag("umount " MNT ": %s", strerror(errno));
		ok = false;
	}
	kmsg_report();
	return ok;
}

/* Options valid on their own (on this image) */
static const char *const valid[] = {
	"bsddf", "minixdf", "grpid", "bsdgroups", "nogrpid", "sysvgroups",
	"resgid=0", "resgid=1000", "resgid=0x10", "resgid=010", "resgid=2147483647",
	"resuid=0", "resuid=1000", "resuid=0X1f", "resuid=017", "resuid=2147483647",
	/* match_int(): 23 characters at most, wrapped around to an int */
	"resuid=00000000000000000000005", "resuid=18446744073709551614", "resgid=18446744071562067968",
	"sb=1", "sb=0x1", "sb=01", "sb=18446744073709551617",
	"errors=continue", "errors=remount-ro", "errors=panic",
	"nouid32", "debug", "oldalloc", "orlov", "nobh",
	"user_xattr", "nouser_xattr", "acl", "noacl", "xip", "dax",
	"grpquota", "noquota", "quota", "usrquota", "reservation", "noreservation",
};

/* Invalid options, or valid ones this image cannot be mounted with */
static const char *const invalid[] = {
	"resuid=2147483648", "resuid=4294967295", "resuid=99999999999999999999",
	"resuid=-1", "resuid=+5", "resuid=", "resuid", "resuid=1x", "resuid=08",
	"resuid=0x", "resuid= 5", "resgid=abc", "resgid=-0", "resgid=0x80000000",
	"resuid=000000000000000000000005", "resgid=18446744071562067967",
	"sb=0", "sb=", "sb", "sb=abc", "sb=1x", "sb=-1", "sb=+1", "sb=0x", "sb=08",
	"sb=2", "sb=8193", "sb=4294967297",
	"errors=bogus", "errors=", "errors", "errors=Continue", "errors=continue=1",
	"bogus", "check=none", "nocheck", "NOBH", "nobh=1", "nobh=", "acl=1",
	"noreservation=0", "quota=1", "nogrpid=", "user_xattr=yes", " nobh",
	"nobh ",
};

/* Combinations: order, the last one wins, sb= first or not */
static const char *const combos[] = {
	"grpid,nogrpid", "nogrpid,grpid", "bsdgroups,sysvgroups",
	"errors=panic,errors=continue", "errors=continue,errors=remount-ro",
	"errors=remount-ro,errors=panic", "reservation,noreservation",
	"noreservation,reservation", "oldalloc,orlov", "orlov,oldalloc",
	"minixdf,bsddf", "bsddf,minixdf", "xip,dax", "dax,xip", "nobh,nobh",
	"resuid=1000,resuid=0", "resgid=5,resgid=6", "resuid=5,resgid=6",
	"user_xattr,nouser_xattr,acl,noacl", "noacl,acl,nouser_xattr,user_xattr",
	"quota,usrquota,grpquota,noquota", "noquota,grpquota",
	"debug,nouid32,grpid,minixdf,oldalloc,noreservation,errors=continue,resuid=7,resgid=8",
	"sb=1,nobh,debug", "nobh,sb=0", "sb=,nobh", "bogus,nobh",
	"nobh,sb=18446744073709551616", "sb=1,sb=0", "sb=1,sb=abc", "sb=0,nobh",
	"bogus,reservation", "nobh,,reservation", "reservation,", "debug,sb=0x",
};

static const struct tcase special[] = {
	/* read-only and silent new mounts */
	{ .steps = "m r debug,nobh" },
	{ .steps = "m r errors=panic,noreservation,minixdf" },
	{ .steps = "m r sb=0" },
	{ .steps = "m s sb=0" },
	{ .steps = "m s sb=2" },
	{ .steps = "m rs sb=abc" },
	{ .steps = "m - -" },
	{ .steps = "m r -" },
	/* backup superblocks: a filesystem with 3 groups of 8192 1 KiB blocks */
	{ .steps = "m - @-" },
	{ .steps = "m - @sb=8193" },
	{ .steps = "m - @sb=8193,debug,nobh" },
	{ .steps = "m - @sb=0x2001" },
	{ .steps = "m - @sb=020001" },
	{ .steps = "m - @nobh,sb=8193" },
	{ .steps = "m - @sb=8193,sb=0" },
	{ .steps = "m r @sb=8193" },
	{ .steps = "m - @sb=24577" },
	{ .steps = "f @sb=8193" },
	{ .steps = "f @sb=8193 nobh" },
	{ .steps = "f @nobh sb=8193" },
	{ .steps = "f @sb" },
	{ .steps = "m - @sb=8193; r - sb=1" },
	{ .steps = "m - @sb=8193; r - sb=abc" },
	{ .steps = "m - @sb=8193; p sb=1" },
	/* the superblock mounted again: its options stay */
	{ .steps = "m - -; n - -" },
	{ .steps = "m - minixdf,resuid=5; n - -" },
	{ .steps = "m - -; n - nobh,reservation,minixdf" },
	{ .steps = "m - -; n r -" },
	{ .steps = "m r -; n - -" },
	{ .steps = "m - -; n - bogus",
	  .differs = "options are parsed before the superblock is looked up: invalid ones fail a mount of a mounted device too (stock: ignored)" },
	{ .steps = "m - -; n - sb=abc",
	  .differs = "as above: sb= is checked" },
	/* the new mount API */
	{ .steps = "f -" },
	{ .steps = "f nobh reservation" },
	{ .steps = "f noreservation debug errors=continue resuid=5 resgid=6" },
	{ .steps = "f sb=1" },
	{ .steps = "f sb=0" },
	{ .steps = "f sb=" },
	{ .steps = "f nobh sb=0" },
	{ .steps = "f sb=abc" },
	{ .steps = "f bogus" },
	{ .steps = "f bogus nobh" },
	{ .steps = "f nobh bogus",
	  .differs = "options are parsed before the device is read: an invalid one stops the mount before the options before it print their messages" },
	{ .steps = "f errors" },
	{ .steps = "f errors=bogus" },
	{ .steps = "f resuid" },
	{ .steps = "f resuid=-1" },
	{ .steps = "f ro debug" },
	{ .steps = "f ro errors=panic" },
	{ .steps = "f xip" },
	{ .steps = "u resuid=1000 resgid=1000" },
	{ .steps = "u resuid=0" },
	/* remount: options kept, changed, refused */
	{ .steps = "m - resuid=5,resgid=6,errors=panic,minixdf,noreservation,oldalloc,nouid32; r - -" },
	{ .steps = "m - resuid=5,resgid=6,errors=panic,minixdf; r - resuid=0,errors=continue,bsddf" },
	{ .steps = "m - debug; r r -; r - debug,noreservation" },
	{ .steps = "m r -; r - -" },
	{ .steps = "m r -; r - debug" },
	{ .steps = "m r noreservation; r - reservation,debug" },
	{ .steps = "m - -; r r -" },
	{ .steps = "m - -; r r nobh; r - -" },
	{ .steps = "m - noreservation; r - reservation" },
	{ .steps = "m - -; r - xip; r - -" },
	{ .steps = "m - -; r - dax; r - -" },
	{ .steps = "m - nobh; r - reservation,bogus" },
	{ .steps = "m - -; r - bogus,reservation" },
	{ .steps = "m - -; r - sb=0" },
	{ .steps = "m - -; r - sb=" },
	{ .steps = "m - -; r - sb=abc" },
	{ .steps = "m - -; r - nobh,sb=7" },
	{ .steps = "m - -; r - resuid=-1" },
	{ .steps = "m - -; r - resuid=18446744073709551615" },
	{ .steps = "m - -; r - resgid=0xffffffffffffffff" },
	{ .steps = "m - -; r - errors=bogus" },
	{ .steps = "m - -; r s sb=abc" },
	{ .steps = "m - errors=panic; r - errors=remount-ro; r - -" },
	{ .steps = "m - grpid; r - nogrpid; r - sysvgroups,bsdgroups" },
	/* fspick(): reconfigure */
	{ .steps = "m - -; p -" },
	{ .steps = "m - -; p nobh reservation resuid=5" },
	{ .steps = "m - -; p ro" },
	{ .steps = "m - -; p ro; p rw debug" },
	{ .steps = "m - -; p sb=0" },
	{ .steps = "m - -; p sb=abc" },
	{ .steps = "m - -; p bogus" },
	{ .steps = "m - -; p errors=panic minixdf" },
	/* read-only, then fspick() without ro or rw: stock ext2 takes it for rw */
	{ .steps = "m r -; p -" },
	{ .steps = "m r -; p nobh" },
	/* different by design */
	{ .steps = "m - ro",
	  .differs = "VFS: mount(2) data words ro, rw, sync, dirsync, lazytime, mand and their negations are flags for the new mount API; stock ext2 rejects them as unknown options" },
	{ .steps = "m - nobh,ro",
	  .differs = "VFS: as above" },
	{ .steps = "m - =x",
	  .differs = "VFS: generic_parse_monolithic() skips an option without a name; stock ext2 rejects it" },
	{ .steps = "m - ,sb=0",
	  .differs = "VFS: generic_parse_monolithic() skips empty options, so sb= after a leading comma is the first option" },
	{ .steps = "m - sb=abc,nobh",
	  .differs = "ext2 names only the sb= option in \"Invalid sb specification\" (stock: the rest of the option string too)" },
	{ .steps = "m - source=/dev/null" },
	{ .steps = "m - -; r - source=/dev/null",
	  .differs = "VFS: on the new mount API source= is the VFS's, which a remount ignores; stock ext2 rejects it as an unknown option" },
	{ .steps = "m - nobh,sb=",
	  .differs = "options are parsed before the device is read: an invalid one stops the mount before the options before it print their messages" },
	{ .steps = "m - nobh,sb=abc",
	  .differs = "as above" },
	{ .steps = "m - reservation,bogus",
	  .differs = "options are parsed before the device is read: an invalid one stops the mount before the options before it print their messages" },
	{ .steps = "m - resuid=18446744073709551615",
	  .differs = "ext2 cannot name the device in \"Invalid uid value -1\" (uid -1 cannot be mapped) before it opens it: the fs_context log has it (stock: EXT2-fs (DEV): ...)" },
	{ .steps = "m - bogus,sb=2" },
	{ .steps = "m - sb=2,bogus",
	  .differs = "options are parsed before the device is read: an invalid one stops the mount before ext2 looks for its superblock" },
};

int main(int argc, char **argv)
{
	size_t i, n = 0, total;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DEV LOOPDEV\n", argv[0]);
		return 2;
	}
	dev = argv[1];
	loopdev = argv[2];
	mkdir(MNT2, 0755);
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg < 0) {
		perror("/dev/kmsg");
		return 1;
	}
	total = 3 * (sizeof(valid) / sizeof(*valid)) + 2 * (sizeof(invalid) / sizeof(*invalid)) +
		sizeof(combos) / sizeof(*combos) + sizeof(special) / sizeof(*special);
	printf("KTAP version 1\n1..%zu\n", total);

	/* Each valid option: new mount (with debug: ext2's mount options in hex), remount */
	for (i = 0; i < sizeof(valid) / sizeof(*valid); i++) {
		char s[600];
		struct tcase tc = { .steps = s };

		snprintf(s, sizeof(s), "m - %s", valid[i]);
		result(run_case(&tc), "mount \"%s\"", valid[i]);
		snprintf(s, sizeof(s), "m - %s,debug", valid[i]);
		result(run_case(&tc), "mount \"%s,debug\"", valid[i]);
		snprintf(s, sizeof(s), "m - -; r - %s", valid[i]);
		result(run_case(&tc), "remount \"%s\"", valid[i]);
		n += 3;
	}
	for (i = 0; i < sizeof(invalid) / sizeof(*invalid); i++) {
		char s[600];
		struct tcase tc = { .steps = s };

		snprintf(s, sizeof(s), "m - %s", invalid[i]);
		result(run_case(&tc), "mount \"%s\"", invalid[i]);
		snprintf(s, sizeof(s), "m - -; r - %s", invalid[i]);
		result(run_case(&tc), "remount \"%s\"", invalid[i]);
		n += 2;
	}
	for (i = 0; i < sizeof(combos) / sizeof(*combos); i++) {
		char s[600];
		struct tcase tc = { .steps = s };

		snprintf(s, sizeof(s), "m - %s", combos[i]);
		result(run_case(&tc), "mount \"%s\"", combos[i]);
		n++;
	}
	for (i = 0; i < sizeof(special) / sizeof(*special); i++) {
		bool ok = run_case(&special[i]);

		if (special[i].differs && ok) {
			printf("ok %d %s # SKIP differs by design: %s\n", ++test_nr, special[i].steps,
			       special[i].differs);
			fflush(stdout);
		} else {
			result(ok, "%s", special[i].steps);
		}
		n++;
	}
	return any_failed || n != total;
}
