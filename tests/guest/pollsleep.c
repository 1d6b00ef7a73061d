// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * pollsleep N: sleep in poll(2) on N pollfds (a pipe's read end that never
 * becomes readable) until killed.  do_sys_poll() keeps the first 30 entries
 * on the kernel stack and kmallocs the rest; with kmemleak's task-stack
 * scanning off (echo stack=off > /sys/kernel/debug/kmemleak) those blocks are
 * referenced from nowhere kmemleak looks, so they are reported as leaks until
 * poll returns and frees them: debug-selftest's positive control.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0, p[2], i;
	struct pollfd *fds;

	if (n <= 0 || pipe(p)) {
		fprintf(stderr, "usage: pollsleep N (N > 0)\n");
		return 2;
	}
	fds = calloc(n, sizeof(*fds));
	if (!fds)
		return 1;
	for (i = 0; i < n; i++) {
		fds[i].fd = p[0];
		fds[i].events = POLLIN;
	}
	poll(fds, n, -1);
	perror("pollsleep: poll returned");
	return 1;
}
