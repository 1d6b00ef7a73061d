// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * tsc-khz: the host's TSC frequency in kHz, measured against
 * CLOCK_MONOTONIC_RAW over 3 x 20 ms (the median).
 *
 * Under TCG a guest's TSC is the host's (QEMU reads the host's counter), and
 * the guest kernel calibrates it against the emulated PIT in a busy loop
 * that fails when the host is loaded ("tsc: Unable to calibrate against
 * PIT", 19 of 66 boots of one run); such a guest keeps time with jiffies, a
 * 4 ms clock, and its timeouts and sleeps are rounded to it.  rig/rig.py
 * passes the figure as tsc_early_khz=: every boot has the same clock.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	double khz[3], t0, t1;
	uint64_t c0, c1;
	int i;

	for (i = 0; i < 3; i++) {
		/* each counter read between two clock reads, at their midpoint */
		t0 = now();
		c0 = __rdtsc();
		t0 = (t0 + now()) / 2;
		nanosleep(&pause, NULL);
		t1 = now();
		c1 = __rdtsc();
		t1 = (t1 + now()) / 2;
		khz[i] = (c1 - c0) / (t1 - t0) / 1000;
	}
	qsort(khz, 3, sizeof(khz[0]), cmp);
	if (khz[1] < 1000)
		return 1;
	printf("%.0f\n", khz[1]);
	return 0;
}
