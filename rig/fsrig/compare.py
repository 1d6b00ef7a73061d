# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""Comparison pairs: one guest script on the patched kernel and on the same
config without the series, the result sets compared (`rig.py
check-upstream`, `rig.py check-ext2-options`, and part of `check`).

The pair upstream / upstream-stock runs upstream's own tests; the result
sets, test name -> ok / not ok / skip, must be identical.  compare() turns
the two sides' results into one result per test, named "upstream-compare: TEST":
  - the same status on both sides: passes (a skip on both stays a skip);
  - different statuses, or a test only one side ran: fails, naming both;
  - not ok on both: fails too.  It is no regression of the series, but a
    test that cannot pass in the guest compares nothing; the environment
    must make it pass (or the test must leave the group, documented).
Each side's own boot checks ("guest finished", "kernel log clean") and
results-parser failures (no plan, run ended early, ...) are reported as they
are: a hang, an oops or broken output on either kernel is a failure.

The pair ext2-options / ext2-options-stock ("ext2-options-compare: TEST")
compares what each test observed too: a test that passed on both kernels
must also have the same diagnostics, but for those starting with "info:"
(shown, not compared).

run() boots both sides at once: the series side on the kernel it is given,
the stock side on kernel.as_stock(), a reference boot (the reference cache,
reference.py).
"""

import concurrent.futures
import dataclasses
import difflib

from . import images as images_mod, ktap, report
from .common import RigError, die
from .report import log

SERIES, STOCK = "upstream", "upstream-stock"
BOOT_CHECKS = ("guest finished", "kernel log clean", "boot refused as expected")
PREFIX = "upstream-compare: "
# Group pairs: name -> (series group, stock group, result prefix, compare diagnostics)
PAIRS = {
    "upstream": (SERIES, STOCK, PREFIX, False),
    "ext2-options": ("ext2-options", "ext2-options-stock", "ext2-options-compare: ", True),
}


def _strip(results, group):
    """{test name without the group prefix: Result}, and the side's own checks."""
    tests, boot = {}, []
    for r in results:
        name = r.name[len(group) + 2:] if r.name.startswith(group + ": ") else r.name
        if name in BOOT_CHECKS or name.endswith("(parser)"):
            boot.append(r)
        elif name in tests:
            # The parser can report one name twice (a parent that disagrees
            # with its subtests): keep the worse.
            if r.status == ktap.FAIL:
                tests[name] = r
        else:
            tests[name] = r
    return tests, boot


def _observed(r):
    return [d for d in r.detail if not d.startswith("info:")]


def compare(series, stock, series_group=SERIES, stock_group=STOCK, prefix=PREFIX, details=False):
    """Results of the two groups (ktap.Result lists as judge() returns them)
    -> the comparison as ktap.Result list.  DETAILS: a test that passed on
    both must have the same diagnostics (but "info:" ones) too."""
    a, a_boot = _strip(series, series_group)
    b, b_boot = _strip(stock, stock_group)
    out = []
    for name in list(a) + [n for n in b if n not in a]:
        ra, rb = a.get(name), b.get(name)
        full = prefix + name
        if ra is None or rb is None:
            side, other = ("series", "stock") if rb is None else ("stock", "series")
            r = ra or rb
            out.append(ktap.Result(full, ktap.FAIL, r.detail[-8:] + [
                f"ran only on the {side} kernel ({r.status}), not on the {other} kernel"]))
        elif ra.status != rb.status:
            detail = []
            for side, r in (("series", ra), ("stock", rb)):
                if r.status != ktap.PASS and r.detail:
                    detail += [f"{side}:"] + ["  " + d for d in r.detail[-8:]]
            out.append(ktap.Result(full, ktap.FAIL, detail + [
                f"series kernel: {ra.status}, stock kernel: {rb.status}"]))
        elif ra.status == ktap.FAIL:
            out.append(ktap.Result(full, ktap.FAIL, ra.detail[-8:] + [
                "not ok on both kernels: no regression of the series, but a test that cannot "
                "pass here compares nothing (fix the guest environment)"]))
        elif details and ra.status == ktap.PASS and _observed(ra) != _observed(rb):
            diff = difflib.unified_diff(_observed(rb), _observed(ra), "stock", "series", n=2, lineterm="")
            out.append(ktap.Result(full, ktap.FAIL, list(diff)[2:] + [
                "the kernels observed different results (- stock, + series)"]))
        else:
            out.append(ktap.Result(full, ra.status, list(ra.detail)))
    if not out:
        out.append(ktap.Result(prefix + "(results)", ktap.FAIL, ["neither kernel reported any test"]))
    return out + a_boot + b_boot


def run(session, kernel, pair="upstream", cache=""):
    """Build KERNEL and its stock twin with their initramfs, boot both groups
    of PAIRS[PAIR] in parallel, compare: (results, accelerator).  CACHE: the
    result cache's mode for the series side (session.boot_group()); the
    comparison of a series side from the cache is reported "(cached)", and
    a comparison that fails drops the series side's kept result."""
    series_group, stock_group, prefix, details = PAIRS[pair]
    allg = session.groups
    for n in (series_group, stock_group):
        if n not in allg:
            die(f"tests/groups.conf has no group [{n}]")
    series_built = session.prepare(kernel)
    stock_built = session.prepare(kernel.as_stock())
    accel = session.accelerator(series_built)
    images = images_mod.build(sorted(set(allg[series_group].images + allg[stock_group].images)))
    # The stock side is the reference: an identical boot (same kernel,
    # initramfs, images, QEMU) is not repeated (reference.py).
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        fa = ex.submit(session.boot_group, accel, series_built, allg[series_group], images,
                       cache=session.cache_mode(cache))
        fb = ex.submit(session.boot_group, accel, stock_built, allg[stock_group], images, reference_side=True)
        (series, series_rec), stock = fa.result(), fb.result()[0]
    out = compare(series, stock, series_group, stock_group, prefix, details)
    if series_rec.get("cached"):
        out = [dataclasses.replace(r, cached=True) if r.name.startswith(prefix) else r for r in out]
    if report.failed(out) and session.cache_mode(cache):
        session.forget(series_built, series_group)
    return out, accel


def check(session, kernel, pair="upstream", cache=""):
    """run(), with a build failure reported as a failed test (for `check`)."""
    prefix = PAIRS[pair][2]
    try:
        return run(session, kernel, pair, cache)
    except RigError as e:
        log(f"error: {e}")
        return [ktap.Result(prefix + "build: both kernels and initramfs", ktap.FAIL,
                            str(e).splitlines()[-16:])], "none"


def cmd(session, kernel, pair="upstream", cache=""):
    """rig.py check-upstream, check-ext2-options"""
    results, accel = check(session, kernel, pair, cache)
    return report.finish(results, accel)
