# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""What each subcommand of rig/rig.py does, given a Session (cli.py parses
the command line and makes the session).

check: the host suites (started first, beside everything), the run's kernel
and the flavours its groups ask for (a failed build fails only its groups),
the guest groups through the boot queue, the comparison pairs (compare.py)
in a thread of their own, one report in the configured order.
"""

import concurrent.futures
import dataclasses
import os
import re
import subprocess
import sys

from . import compare, demo as demo_mod, groups, hostsuites, images, ktap, report, system
from .common import TOP, RigError, read
from .initramfs import initrd_for
from .judge import judge
from .kernel import DEBUG_FLAVOUR, DEFAULT_BASE, DEFAULT_FLAVOUR
from .report import log
from .session import USE


def check(session, wanted=(), cache=USE):
    """`check [GROUP...]` (CACHE USE: a group whose kept result has the
    same key is not booted, resultcache.py), `run GROUP...` (STORE: every
    group boots; what passed is kept); the exit status."""
    cache = session.cache_mode(cache)
    if cache:
        # The sources and the rig's code as they are before anything is
        # built from them (resultcache.ResultCache.snapshot()).
        session.results.snapshot()
    allg = session.groups
    names = groups.check_names(allg, wanted) if wanted else groups.for_check(allg, session.debug,
                                                                              session.kernel.base)
    other_base = session.kernel.base != DEFAULT_BASE
    # The host suites need no kernel: they start first and run beside
    # everything else.
    # (fsaudit is built first: the initramfs takes the same binary.)
    hostpool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    host = None
    if not wanted and not session.debug and not other_base:
        if os.path.exists(os.path.join(TOP, "fsaudit", "Makefile")):
            subprocess.run(["make", "-s", "-C", os.path.join(TOP, "fsaudit"), "fsaudit"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        host = hostpool.submit(hostsuites.run_all)
    # The Debian roots of the system groups (mmdebstrap: mostly waiting on
    # Debian's mirror, and dpkg) are made beside the kernel builds; a group
    # that boots before its root is made waits for it (system.root_image()
    # holds a lock), one that fails to get it reports why.
    roots = sorted({(allg[n].system, allg[n].system_root) for n in names if allg[n].system})
    rootpool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    if roots:
        rootpool.submit(prefetch_roots, roots)
    # The run's kernel, unless every group named has a kernel of its own
    # (`run v73-kunit`: nothing of 6.12 is prepared).
    own = groups.kernels(allg, names)
    built = None
    run_kernel = not names or any((allg[n].base, allg[n].flavour) == ("", "") for n in names) or \
        pairs_wanted(session, wanted)
    # The kernels in the order they are built (the stock one last, for the
    # pairs); while one builds, the next one's tree is unpacked and
    # configured (Session.prepare_ahead), unless it is the same tree.
    order = ([session.kernel] if run_kernel else []) + [session.group_kernel(b, fl) for b, fl in own] + \
        ([session.kernel.as_stock()] if pairs_wanted(session, wanted) else [])
    ahead = dict(ahead_pairs(order))
    if run_kernel:
        if session.kernel in ahead:
            session.prepare_ahead(ahead[session.kernel])
        try:
            built = session.prepare(session.kernel)
        except RigError as e:
            # Still one line per test and the summary: the build is a test too.
            log(f"error: {e}")
            results = [ktap.Result("build: kernel, images and initramfs", ktap.FAIL, str(e).splitlines()[-16:])]
            return report.finish((host.result() if host else []) + results)
    # Other kernel flavours and bases the groups ask for; a failed build
    # fails its groups only.
    kernels, build_fail = {}, []
    for b, fl in own:
        kern = session.group_kernel(b, fl)
        if kern in ahead:
            session.prepare_ahead(ahead[kern])
        try:
            kernels[(b, fl)] = session.prepare(kern)
        except RigError as e:
            log(f"error: {e}")
            skipped = [n for n in names if (allg[n].base, allg[n].flavour) == (b, fl)]
            what = f"flavour {fl}" if not b else kern.label[len("kernel "):]
            build_fail.append(ktap.Result(f"build: kernel {what} (groups {', '.join(skipped)})", ktap.FAIL,
                                          str(e).splitlines()[-16:]))
            names = [n for n in names if n not in skipped]
    if built is None:
        if not kernels:
            return report.finish((host.result() if host else []) + build_fail)
        built = next(iter(kernels.values()))
    # The debug kernel changes nothing for the host suites: guest groups only,
    # their logs in build/runs/debug-GROUP.
    tag = ""
    if session.debug:
        tag = ("stock-" if session.kernel.stock else "") + DEBUG_FLAVOUR + "-"
    # The pairs of compare.py (upstream's own tests; every ext2 mount
    # option: the same errnos, options, messages) on the patched and the
    # stock kernel, results compared.
    pairs = list(compare.PAIRS) if pairs_wanted(session, wanted) else []

    def comparisons():
        # One pair after the other in this one thread; their boots queue
        # with the groups' in the boot queue.
        return [r for p in pairs for r in compare.check(session, session.kernel, p, cache)[0]]
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as ex:
        comp = ex.submit(comparisons)
        gres, accel = session.run_groups(names, built, kernels, run_tag=tag, cache=cache)
        results = (host.result() if host else []) + build_fail + gres + comp.result()
    hostpool.shutdown()
    rootpool.shutdown()
    return report.finish(results, accel)


def ahead_pairs(order):
    """(kernel, later kernel) of ORDER: while the first builds, the second's
    tree is unpacked and configured.  The later one is the first not yet
    chosen whose tree no kernel builds meanwhile: neither the first kernel
    nor one between them has it."""
    pairs, chosen = [], set()
    for i, k in enumerate(order):
        for j in range(i + 1, len(order)):
            n = order[j]
            between = {m.src_dir for m in order[i:j]}
            if n not in chosen and not n.prebuilt and n.src_dir not in between:
                pairs.append((k, n))
                chosen.add(n)
                break
    return pairs


def prefetch_roots(roots):
    """Make the system roots ROOTS ((suite, format) pairs) ahead of their
    groups; errors are left to the groups, which make them again."""
    for suite, fmt in roots:
        try:
            system.root_image(suite, fmt)
        except RigError:
            pass


def pairs_wanted(session, wanted):
    """Whether `check` runs the comparison pairs: without named groups, on
    the default base's patched kernel of the default flavour."""
    k = session.kernel
    return not wanted and k.flavour == DEFAULT_FLAVOUR and not k.stock and k.base == DEFAULT_BASE


def build(session):
    session.prepare(session.kernel)
    return 0


def demo(session):
    return demo_mod.run(session, session.kernel)


def check_pair(session, pair):
    """`check-upstream`, `check-ext2-options`, on the session's base."""
    session.results.snapshot()
    return compare.cmd(session, session.kernel, pair, USE)


def bench(session, wanted=()):
    """Run the bench groups; print "bench NAME ns_per_cycle R1 R2 …" per benchmark."""
    allg = session.groups
    names = groups.check_names(allg, wanted) if wanted else groups.of_kind(allg, "bench")
    built = session.prepare(session.kernel)
    tag = "stock-" if session.kernel.stock else "series-"
    if session.kernel.base != DEFAULT_BASE:
        tag += session.kernel.tag + "-"    # the runs of each base kept apart
    res, _ = session.run_groups(names, built, run_tag=tag)
    failed = [r for r in res if r.status == ktap.FAIL]
    if failed:
        ktap.report(failed)
        return 1
    rounds = {}
    for n in names:
        text = read(os.path.join(session.kernel.runs_dir, tag + n, "results.ktap"), "")
        for m in re.finditer(r"^# bench (\S+) round \d+ ns_per_cycle (\d+)$", text, re.M):
            rounds.setdefault(m.group(1), []).append(int(m.group(2)))
    for b, v in rounds.items():
        print(f"bench {b} ns_per_cycle " + " ".join(map(str, v)))
    return 0


def boot(session, group, cmdline=None, rtc=None, image_names=None):
    """`boot GROUP`: one boot with the console, the results channel, the
    status and the verdict on stdout.  The group's `flavour =` and `base =`
    pick the kernel unless the run names one."""
    g = session.groups.get(group) or groups.unknown(group, groups.DEFAULT_TIMEOUT * session.timeout_scale)
    kernel = session.kernel
    if g.base and not session.settings.base:
        kernel = kernel.with_base(g.base)
    if g.flavour and not session.settings.flavour:
        kernel = kernel.with_flavour(g.flavour)
    built = session.prepare(kernel)
    names = image_names.split(",") if image_names else list(g.images)
    if g.system:
        # A Debian root (system.py): the group's own boot, with the extra
        # arguments and clock.
        g = dataclasses.replace(g, images=tuple(names), cmdline=(g.cmdline + " " + (cmdline or "")).strip(),
                                rtc=rtc or g.rtc)
        verdict, r = session.boot_group(session.accelerator(built), built, g,
                                        images.build(sorted(set(names) | set(g.hotplug))))
        if not r:
            return report.finish(verdict)
        accel = session.accelerator(built)
    else:
        imgs = images.build(names)
        accel = session.accelerator(built)
        imgs = images.guest_images(session, accel, built, names, imgs)
        r = session.boot(accel, built.image, initrd_for(built.initrd, g), group, {n: imgs[n] for n in names},
                         (g.cmdline + " " + (cmdline or "")).strip(), rtc or g.rtc, g.timeout, g.smp,
                         run_dir=os.path.join(built.kernel.runs_dir, group))
    sys.stdout.write(r["console"])
    print("---- results channel ----")
    sys.stdout.write(r["results"])
    first = f"{r['first_result']:.2f} s" if r["first_result"] is not None else "never"
    print(f"---- status: {r['status'].strip() or '(none)'} ({r['seconds']:.1f} s, first result after {first},"
          f" {accel})")
    return report.finish(judge(group, r, g.expect_panic, kmemleak=built.kernel.debug))
