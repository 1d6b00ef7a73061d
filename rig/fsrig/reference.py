# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""The reference cache: the stock side of the comparison pairs is not booted
again while nothing it depends on changed.

A reference boot (the kernel without the series) keeps its record in
ROOT/reference/NAME.json under key() (ROOT: the build root of the kernel's
base, build/ or build/vNN/): the record format, QEMU's version,
its command line (but for the measured TSC rate, which varies from run to
run) and the content of the kernel, the initramfs and every disk image.  A
boot with the same key is not repeated: the kept record is judged again, and
its logs are written into ROOT/runs/NAME/ as a boot would leave them.  Only
a record without a failure is kept; RIG_NO_REFERENCE_CACHE=1 boots anyway.
"""

import json
import os
import re
import shutil
import time

from . import qemu
from .common import BUILD, file_sha, load_json, sha, write_if_changed
from .report import failed, log, stamp

# The format of the records kept (qemu.run()'s dict): part of their key, so
# that a record of another format is never judged.
RECORD_FORMAT = 1


def key(qemu_version, cmd, file_hashes):
    """The key of a reference boot: QEMU's version, its command line CMD
    without the TSC rate, the hashes of the kernel, initramfs and images."""
    return sha(RECORD_FORMAT, qemu_version, [re.sub(r"\btsc_early_khz=\d+", "", a) for a in cmd], file_hashes)


def boot_key(accel, bz, initrd, name, images, cmdline, rtc, smp, run_dir):
    """key() of a boot of kernel BZ, INITRD, disks IMAGES ({name: path})."""
    cmd = qemu.qemu_cmd(accel, bz, initrd, run_dir, name, images, cmdline, rtc, smp)
    files = [bz, initrd or ""] + sorted(images.values())
    return key(qemu.version(), cmd, [file_sha(f) if f else "" for f in files])


def reference_boot(queue, judge, accel, bz, initrd, name, images, cmdline="", rtc="", timeout=120, smp=1,
                   use_cache=True, root=BUILD):
    """queue.boot() of reference group NAME, unless its kept record has the
    same key.  JUDGE(record) -> results decides whether a new record is kept
    (only without a failure).  ROOT: the build root of the kernel's base."""
    run_dir = os.path.join(root, "runs", name)
    k = boot_key(accel, bz, initrd, name, images, cmdline, rtc, smp, run_dir)
    path = os.path.join(root, "reference", name + ".json")
    shown = os.path.relpath(path, os.path.dirname(BUILD))
    if use_cache:
        kept = load_json(path)
        if kept.get("key") == k:
            log(f"{stamp()} {name}: the same boot as on {kept['when']} "
                f"({shown}): its record, judged again")
            r = dict(kept["record"], run_dir=run_dir, cached=True)
            shutil.rmtree(run_dir, ignore_errors=True)
            os.makedirs(run_dir)
            for field, f in (("console", "console.log"), ("results", "results.ktap"), ("status", "status")):
                write_if_changed(os.path.join(run_dir, f), r[field])
            write_if_changed(os.path.join(run_dir, "reference"),
                             f"logs of {shown}, a boot of {kept['when']}\n")
            return r
    r = queue.boot(accel, bz, initrd, name, images, cmdline, rtc, timeout, smp, run_dir=run_dir)
    if not failed(judge(r)):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_if_changed(path, json.dumps({"key": k, "when": time.strftime("%Y-%m-%d %H:%M:%S"), "record": r}))
    return r
