# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""The boot queue: every QEMU boot of a run waits here.

At most JOBS boots (RIG_JOBS, default: CPUs) run at once, whichever thread
asks (guest groups, the comparison pairs, image preparation, the KVM probe);
a waiting boot that took longest last time goes first, so that parallel
boots end together.  The times are kept in build/group-times.json, by run
directory name (GROUP, or TAG-GROUP for a tagged run such as debug-GROUP).
A boot that mostly sleeps in the guest (`sleeps = yes`) takes no slot.
"""

import heapq
import json
import os
import shutil
import threading

from . import qemu
from .common import BUILD, load_json, write_if_changed
from .report import log, stamp

TIMES_FILE = os.path.join(BUILD, "group-times.json")


def last_times(path=TIMES_FILE):
    return load_json(path)


def longest_first(names, times, tag=""):
    """NAMES ordered by the last run's times (TAG-NAME's, else NAME's), longest first."""
    return sorted(names, key=lambda n: -times.get(tag + n, times.get(n, 0)))


class BootQueue:
    """At most JOBS boots at once, the longest expected first; nice level NICE for QEMU."""

    def __init__(self, jobs, nice="5", times_file=TIMES_FILE):
        self.jobs = max(1, jobs)
        self.nice = nice
        self.times_file = times_file
        self.cv = threading.Condition()
        self.busy = 0
        self.waiting = []
        self.seq = 0
        self.times_lock = threading.Lock()

    def acquire(self, expected):
        with self.cv:
            self.seq += 1
            me = (-expected, self.seq)
            heapq.heappush(self.waiting, me)
            while self.busy >= self.jobs or self.waiting[0] != me:
                self.cv.wait()
            heapq.heappop(self.waiting)
            self.busy += 1
            self.cv.notify_all()

    def release(self):
        with self.cv:
            self.busy -= 1
            self.cv.notify_all()

    def boot(self, accel, bz, initrd, name, images, cmdline="", rtc="", timeout=120, smp=1, run_dir=None,
             icount=False, writable=(), sleeps=False, hotplug=None):
        """Boot once (waiting for a free slot; SLEEPS: a boot that mostly
        sleeps takes none); returns the boot's record (qemu.run()).
        HOTPLUG: {name: image} the guest may have added while it runs."""
        run_dir = run_dir or os.path.join(BUILD, "runs", name)
        key = os.path.basename(run_dir)
        times = last_times(self.times_file)
        last = times.get(key, times.get(name, 0))
        if not sleeps:
            self.acquire(last)
        log(f"{stamp()} {key}: booting" + (f" (last time {last:.1f} s)" if last else "")
            + (" (sleeps: no CPU slot)" if sleeps else ""))
        try:
            shutil.rmtree(run_dir, ignore_errors=True)
            os.makedirs(run_dir)
            cmd = qemu.qemu_cmd(accel, bz, initrd, run_dir, name, images, cmdline, rtc, smp, icount, writable,
                                hotplug=bool(hotplug))
            r = qemu.run(cmd, run_dir, timeout, self.nice, hotplug)
        finally:
            if not sleeps:
                self.release()
        with self.times_lock:
            times = last_times(self.times_file)
            times[key] = round(r["seconds"], 1)
            write_if_changed(self.times_file, json.dumps(times))
        return r
