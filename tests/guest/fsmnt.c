// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsmnt [-r] [-o OPTS] mount|fsopen TYPE SOURCE DIR: one mount, as a test
 * script needs to see it.
 *
 *   mount   mount(2) (MS_RDONLY with -r, OPTS as its data string)
 *   fsopen  fsopen(TYPE), fsconfig "source" (and "ro" with -r, each OPTS
 *           key[=value]), FSCONFIG_CMD_CREATE, fsmount, move_mount to DIR
 *
 * Prints one line per step, "STEP: ok" or "STEP: ERRNAME" (fsopen, config,
 * create, fsmount, move_mount; mount), every message of the filesystem
 * context log as "fclog: LINE" (e.g. "fclog: e fs-deprecated: ..."), and last
 * "result: ok" or "result: ERRNAME".  Exit status: 0, or the errno.
 */
#define _GNU_SOURCE
#include <sys/mount.h>
#include "guest.h"

static const char *ename(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

static int step(const char *what, int ret)
{
	int e = errno;

	printf("%s: %s\n", what, ret < 0 ? ename(e) : "ok");
	fflush(stdout);
	return ret < 0 ? e : 0;
}

static void fclog(int fd)
{
	char buf[4096];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		printf("fclog: %s\n", buf);
	}
	fflush(stdout);
}

static int done(int err)
{
	printf("result: %s\n", err ? ename(err) : "ok");
	return err;
}

int main(int argc, char **argv)
{
	const char *opts = NULL, *type, *src, *dir;
	bool ro = false;
	int opt, fd, mfd, err;

	while ((opt = getopt(argc, argv, "ro:")) != -1) {
		if (opt == 'r')
			ro = true;
		else if (opt == 'o')
			opts = optarg;
		else
			return 2;
	}
	if (argc - optind != 4) {
		fprintf(stderr, "usage: fsmnt [-r] [-o OPTS] mount|fsopen TYPE SOURCE DIR\n");
		return 2;
	}
	type = argv[optind + 1];
	src = argv[optind + 2];
	dir = argv[optind + 3];
	if (!strcmp(argv[optind], "mount"))
		return done(step("mount", mount(src, dir, type, ro ? MS_RDONLY : 0, opts)));

	fd = sys_fsopen(type, FSOPEN_CLOEXEC);
	if ((err = step("fsopen", fd)))
		return done(err);
	err = step("config source", sys_fsconfig(fd, FSCONFIG_SET_STRING, "source", src, 0));
	if (!err && ro)
		err = step("config ro", sys_fsconfig(fd, FSCONFIG_SET_FLAG, "ro", NULL, 0));
	if (!err && opts) {
		char *copy = strdup(opts), *save = NULL, *kv;

		for (kv = strtok_r(copy, ",", &save); kv && !err; kv = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(kv, '='), what[300];

			snprintf(what, sizeof(what), "config %s", kv);
			if (eq) {
				*eq = '\0';
				err = step(what, sys_fsconfig(fd, FSCONFIG_SET_STRING, kv, eq + 1, 0));
			} else {
				err = step(what, sys_fsconfig(fd, FSCONFIG_SET_FLAG, kv, NULL, 0));
			}
		}
		free(copy);
	}
	if (!err)
		err = step("create", sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	if (!err) {
		mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
		err = step("fsmount", mfd);
		if (!err) {
			err = step("move_mount", sys_move_mount(mfd, "", AT_FDCWD, dir, MOVE_MOUNT_F_EMPTY_PATH));
			close(mfd);
		}
	}
	fclog(fd);
	close(fd);
	return done(err);
}
