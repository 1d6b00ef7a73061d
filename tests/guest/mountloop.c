// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * mountloop: fork-free mount/umount benchmark for the rig's deterministic
 * (-icount) boots.
 *
 *   mountloop NAME FSTYPE SOURCE TARGET CYCLES ROUNDS [ro|layouts]
 *
 * Prints KTAP: one result, and per round a diagnostic line
 *   # bench NAME round R ns_per_cycle N
 * which rig/bench-kernel.sh collects.  Any failing mount fails the result.
 *
 * "layouts": before round R, R - 1 more mounts of the same filesystem stay
 * mounted (at TARGET.hold1, TARGET.hold2, ...), so that every round starts
 * from another slab layout.  Under -icount a cycle's cost depends on
 * whether the caches it uses happen to be exactly full (a new slab is set
 * up and freed in every cycle); the median over several layouts does not
 * hang on the layout one boot happens to leave, which boot-time
 * allocations of the kernel under test shift.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long flags = 0;
	long cycles, rounds, r, i;
	int layouts = 0;
	char hold[256];

	if (argc < 7) {
		fprintf(stderr, "usage: %s NAME FSTYPE SOURCE TARGET CYCLES ROUNDS [ro]\n", argv[0]);
		return 2;
	}
	cycles = atol(argv[5]);
	rounds = atol(argv[6]);
	if (argc > 7 && !strcmp(argv[7], "ro"))
		flags |= MS_RDONLY;
	if (argc > 7 && !strcmp(argv[7], "layouts"))
		layouts = 1;
	printf("KTAP version 1\n1..1\n");
	for (r = 1; r <= rounds; r++) {
		long long t0;

		if (layouts && r > 1) {
			snprintf(hold, sizeof(hold), "%s.hold%ld", argv[4], r - 1);
			if ((mkdir(hold, 0755) && errno != EEXIST) ||
			    mount(argv[3], hold, argv[2], flags, NULL)) {
				printf("# %s: %s\nnot ok 1 bench %s\n", hold, strerror(errno), argv[1]);
				return 1;
			}
		}
		t0 = now_ns();

		for (i = 0; i < cycles; i++) {
			if (mount(argv[3], argv[4], argv[2], flags, NULL) ||
			    umount2(argv[4], 0)) {
				printf("# cycle %ld: %s\nnot ok 1 bench %s\n", i, strerror(errno), argv[1]);
				return 1;
			}
		}
		printf("# bench %s round %ld ns_per_cycle %lld\n", argv[1], r,
		       (now_ns() - t0) / cycles);
		fflush(stdout);
	}
	printf("ok 1 bench %s\n", argv[1]);
	return 0;
}
