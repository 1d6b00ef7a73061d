// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * devstate [-n] DEV...: for each block device, one line
 *
 *	DEV rsect=R wsect=W hash=HASH bytes=N
 *
 * R and W: sectors read and written since boot (/sys/class/block/<dev>/stat,
 * fields 3 and 7), taken before the device is hashed; HASH: dev_hash() (64 bit,
 * guest.h) of the whole device read with O_DIRECT (N bytes).  -n: counters
 * only (hash=-), so that a read-sector comparison is not disturbed by the
 * hash's own reads.
 *
 * "Nothing written" (issue 14): compare hash and wsect before and after; under
 * deny of a deprecated type also rsect, between two -n calls.  Exit status 1
 * if a device cannot be read.
 */
#define _GNU_SOURCE
#include "guest.h"

int main(int argc, char **argv)
{
	unsigned long long rd = 0, wr = 0, h = 0, bytes = 0;
	bool nohash = false;
	int i, rc = 0, err;

	if (argc > 1 && !strcmp(argv[1], "-n")) {
		nohash = true;
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: devstate [-n] DEV...\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		if (dev_sectors(argv[i], &rd, &wr)) {
			fprintf(stderr, "devstate: %s: no block statistics\n", argv[i]);
			rc = 1;
			continue;
		}
		if (nohash) {
			printf("%s rsect=%llu wsect=%llu hash=- bytes=-\n", argv[i], rd, wr);
			continue;
		}
		err = dev_hash(argv[i], &h, &bytes);
		if (err) {
			fprintf(stderr, "devstate: %s: %s\n", argv[i], strerror(-err));
			rc = 1;
			continue;
		}
		printf("%s rsect=%llu wsect=%llu hash=%016llx bytes=%llu\n", argv[i], rd, wr, h, bytes);
	}
	return rc;
}
