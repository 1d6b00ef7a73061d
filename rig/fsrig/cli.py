# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""fsdeprecate QEMU rig.

  rig.py check [GROUP…]     build what changed, run host suites and guest groups, report;
                            a group whose kept result is still valid is not booted again
                            but reported "(cached)" (--no-cache: boot every group)
  rig.py check --flavour debug   the guest groups on the debug kernel (`make check-debug`)
  rig.py run GROUP…         boot only these guest groups (always; what passes is kept)
  rig.py demo               the demo groups: what the kernel says, policies, evacuation,
                            2038, fsaudit, one summary table (rig/fsrig/demo.py)
  rig.py build              kernel, images and initramfs only
  rig.py boot GROUP [--cmdline ARGS] [--rtc DATE] [--images A,B]   one boot, console shown
  rig.py check-upstream     upstream's mount-API kselftests and fs KUnit suites on the
                            patched and the stock kernel: identical results (rig/fsrig/compare.py)
  rig.py check-ext2-options every ext2 mount option on the patched and the stock kernel:
                            identical errnos, options and ext2 log lines (rig/fsrig/compare.py)

Environment: RIG_ACCEL=kvm|tcg forces the accelerator (default: probe KVM once,
bounded, and fall back to TCG); RIG_JOBS=N parallel boots (default: CPUs);
RIG_KERNEL_FLAVOUR=NAME (as --flavour NAME) / RIG_STOCK=1 select another kernel
build (see rig/kernel.sh); RIG_BASE=BASE (as --base BASE) another kernel base
(7.3: kernel/7.3/, build/v73/; 6.1: kernel/6.1/, build/v61/; default 6.12); RIG_BZIMAGE=OBJ/arch/x86/boot/bzImage (or OBJ/vmlinux
of a kernel with CONFIG_PVH=y) boots a kernel built elsewhere instead of the
patched one (e.g. a development tree; OBJ needs usr-headers/, `make
headers_install`); RIG_DEBUG_TIMEOUT_SCALE=N multiplies group timeouts on the
debug kernel (default 8); RIG_PROGRESS_INTERVAL=S at most one progress line
per S seconds in a log (default 10); RIG_QEMU_NICE=N QEMU's nice level
(default 5); RIG_NO_REFERENCE_CACHE=1 boots the stock side of the comparison
pairs even when its record is kept; RIG_NO_CACHE=1 (as --no-cache) boots
every guest group even when its result is kept (build/result-cache/); RIG_CCACHE=0
compiles kernels without ccache (rig/ccache.sh); COLUMNS=N the width make demo's table is
fitted to (default: stdout's terminal).  See docs/rig.md.
"""

import argparse
import fcntl
import os
import sys

from . import commands, report
from .common import BUILD, RigError
from .report import log
from .session import STORE, USE, Session, Settings


def parser():
    ap = argparse.ArgumentParser(prog="rig.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    flav = dict(metavar="NAME", help="kernel flavour kernel/configs/NAME/ (as RIG_KERNEL_FLAVOUR=NAME); "
                "debug: the sanitizer kernel, guest groups of kind check and debug")
    base = dict(metavar="BASE", help="kernel base (as RIG_BASE=BASE): 6.12 (default, kernel/), 7.3 "
                "(kernel/7.3/, built in build/v73/) or 6.1 (kernel/6.1/, build/v61/); check without groups runs that base's groups")
    nocache = dict(action="store_true", help="boot every guest group, even one whose kept result "
                   "(build/result-cache/) is still valid (as RIG_NO_CACHE=1); what passes is kept")
    p = sub.add_parser("check")
    p.add_argument("groups", nargs="*")
    p.add_argument("--flavour", **flav)
    p.add_argument("--base", **base)
    p.add_argument("--no-cache", **nocache)
    p.set_defaults(fn=lambda s, a: commands.check(s, a.groups, USE))
    p = sub.add_parser("run")
    p.add_argument("groups", nargs="+")
    p.add_argument("--flavour", **flav)
    p.add_argument("--base", **base)
    p.add_argument("--no-cache", **nocache)
    p.set_defaults(fn=lambda s, a: commands.check(s, a.groups, STORE))
    sub.add_parser("demo").set_defaults(fn=lambda s, a: commands.demo(s))
    p = sub.add_parser("build")
    p.add_argument("--flavour", **flav)
    p.add_argument("--base", **base)
    p.set_defaults(fn=lambda s, a: commands.build(s))
    p = sub.add_parser("bench")
    p.add_argument("groups", nargs="*")
    p.set_defaults(fn=lambda s, a: commands.bench(s, a.groups))
    # Upstream's tests on the patched and the stock kernel, results compared (compare.py).
    for name, pair in (("check-upstream", "upstream"), ("check-ext2-options", "ext2-options")):
        p = sub.add_parser(name)
        p.add_argument("--no-cache", **nocache)
        p.add_argument("--base", **base)
        p.set_defaults(fn=lambda s, a, pair=pair: commands.check_pair(s, pair))
    p = sub.add_parser("boot")
    p.add_argument("group")
    p.add_argument("--cmdline")
    p.add_argument("--rtc")
    p.add_argument("--images")
    p.add_argument("--flavour", **flav)
    p.add_argument("--base", **base)
    p.set_defaults(fn=lambda s, a: commands.boot(s, a.group, a.cmdline, a.rtc, a.images))
    return ap


def main(argv=None):
    args = parser().parse_args(argv)
    # The only place the rig reads its environment variables.
    try:    # the width tables are fitted to (make demo's summary): stdout's terminal
        tty_columns = os.get_terminal_size(sys.stdout.fileno()).columns if sys.stdout.isatty() else 0
    except OSError:
        tty_columns = 0
    settings = Settings.from_environ(os.environ, flavour=getattr(args, "flavour", None),
                                     tty_columns=tty_columns, base=getattr(args, "base", None),
                                     no_cache=getattr(args, "no_cache", False))
    report.set_progress_interval(settings.progress_interval)
    try:
        # Settings the rig cannot use (an unknown base) fail at once, not
        # after waiting for another run.
        session = Session(settings)
    except RigError as e:
        log(f"error: {e}")
        sys.exit(2)
    # One rig run at a time per checkout: runs share build/ (kernel objects,
    # initramfs, build/runs/GROUP); a second one waits instead of clobbering.
    os.makedirs(BUILD, exist_ok=True)
    lock = open(os.path.join(BUILD, ".rig.lock"), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        log("another rig run is using build/; waiting for it")
        fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        sys.exit(args.fn(session, args))
    except RigError as e:
        log(f"error: {e}")
        sys.exit(2)
