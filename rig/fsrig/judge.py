# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""A boot's record -> results: the group's own KTAP results, plus

  "GROUP: guest finished"          the status channel's rig-exit N arrived (no
                                   timeout, hang, panic or crash) and N is 0
                                   unless a result already failed;
  "GROUP: boot refused as expected" instead, for an `expect_panic = RE` group:
                                   a kernel panic after RE;
  "GROUP: kmemleak: no leaks"      the kmemleak report tests/guest/init sends
                                   (required on debug kernels, absent elsewhere);
  "GROUP: kernel log clean"        no line of the console matches CONSOLE_BAD
                                   (before the expected panic, if any).

Pure functions of the record: tests/parser/judge/ holds canned boots and
the verdicts expected of them.
"""

import os
import re

from . import ktap
from .common import TOP

CONSOLE_BAD = re.compile(
    r"Kernel panic|Oops[:\s]|BUG:|kernel BUG at|WARNING:|general protection fault|"
    r"Call Trace:|UBSAN:|KASAN:|kmemleak:.*unreferenced|possible recursive locking|"
    r"possible circular locking|Unable to handle kernel|"
    # The debug kernel's reports (KASAN and lockdep headers start with BUG: or
    # WARNING:): lockdep's unannotated lock, RCU stalls, kmemleak losing track.
    r"INFO: trying to register non-static key|rcu: INFO: .*detected stall|"
    r"kmemleak: (Memory pool empty|Cannot allocate)")

# Allocator frames at the top of a kmemleak backtrace: a leak is named after
# the first frame below them.
_ALLOC_FRAME = re.compile(
    r"^(kmemleak_\w+|__?kmalloc\w*|kmalloc\w*|__?kmem_cache_\w*|kmem_cache_\w+|slab_\w+|__slab_\w+|"
    r"__?alloc_pages\w*|alloc_pages\w*|__?kvmalloc\w*|kvmalloc\w*|__?kzalloc\w*|kzalloc\w*|kcalloc\w*|"
    r"kmalloc_array\w*|krealloc\w*|__?vmalloc\w*|vmalloc\w*|vzalloc\w*|__?get_free_pages\w*|"
    r"kstrdup\w*|kstrndup\w*|kmemdup\w*|kasprintf\w*|kvasprintf\w*|__do_kmalloc\w*|__kmem_cache_alloc\w*)$")


def kmemleak_result(name, status, required):
    """The kmemleak report tests/guest/init puts on the status channel.

    Returns a Result ("NAME: kmemleak: no leaks"), or None when the boot has no
    report and none is REQUIRED (kernels without kmemleak).  Each distinct
    leak (same function chain) is named by its first frames below the
    allocator, with how many objects leaked that way."""
    test = f"{name}: kmemleak: no leaks"
    m = re.search(r"^rig-kmemleak begin\n(.*?)^rig-kmemleak (end (\d+)|unavailable[^\n]*)$", status, re.S | re.M)
    if not m:
        if not required:
            return None
        return ktap.Result(test, ktap.FAIL, ["no kmemleak report on the status channel (the guest did not "
                                             "finish, or kmemleak is not in this kernel)"])
    if m.group(3) is None:
        return ktap.Result(test, ktap.FAIL, [m.group(2)] + m.group(1).strip().splitlines()[-5:])
    leaks = {}      # function chain below the allocator -> [objects, first object's header, its frames]
    for block in re.split(r"^(?=unreferenced object )", m.group(1), flags=re.M):
        if not block.startswith("unreferenced object"):
            continue
        lines = block.splitlines()
        bt = next((i + 1 for i, l in enumerate(lines) if l.strip().startswith("backtrace")), len(lines))
        frames = [l.strip() for l in lines[bt:] if l.strip()]
        funcs = [re.split(r"[+ ]", f)[0] for f in frames]
        top = next((i for i, f in enumerate(funcs) if not _ALLOC_FRAME.match(f)), 0)
        comm = next((l.strip() for l in lines if l.strip().startswith("comm ")), "")
        e = leaks.setdefault(tuple(funcs[top:top + 6]), [0, f"{lines[0].strip()} {comm}", frames[top:top + 3]])
        e[0] += 1
    total = int(m.group(3))
    if total == 0 and not leaks:
        return ktap.Result(test, ktap.PASS)
    ranked = sorted(leaks.items(), key=lambda kv: -kv[1][0])
    detail = [f"{total} suspected leak(s), {len(leaks)} distinct backtrace(s) in the first 400 lines of "
              "/sys/kernel/debug/kmemleak" + (", the first 3:" if len(leaks) > 3 else ":")]
    for chain, (n, head, frames) in ranked[:3]:
        detail.append(f"leak in {chain[0] if chain else '?'} ({n} object(s)), e.g. {head}")
        detail += [f"    {f}" for f in frames]
    return ktap.Result(test, ktap.FAIL, detail)


def known_stacks(lines, known):
    """The indexes of the "Call Trace:" lines that belong to a known report:
    a dump_stack() within the 6 lines after one that matches KNOWN (a
    group's known_report).  Only a bare stack dump is excused, never a BUG,
    WARNING, KASAN, UBSAN or lockdep report."""
    if not known:
        return set()
    pat = re.compile(known)
    out = set()
    for i, line in enumerate(lines):
        if pat.search(line):
            out |= {j for j in range(i + 1, min(len(lines), i + 7))
                    if re.search(r"\bCall Trace:\s*$", lines[j])}
    return out


def judge(name, r, expect="", kmemleak=False, known=""):
    """Turn one boot into results: the group's own KTAP plus boot/console checks.

    EXPECT: the group's expect_panic regular expression, if any.  KMEMLEAK:
    whether the boot must carry a kmemleak report (a debug kernel).  KNOWN:
    the group's known_report regular expression (see known_stacks())."""
    res = ktap.parse(r["results"].splitlines(), prefix=f"{name}: ")
    console = r["console"]
    tail = console.splitlines()[-25:]
    m = re.search(r"rig-exit (\d+)", r["status"])
    if expect:
        # The boot is expected to end in a panic that says EXPECT, with no
        # results; the kernel log before the panic must be clean.
        if not r["results"].strip():
            res = []
        lines = console.splitlines()
        cut = next((i for i, l in enumerate(lines) if "Kernel panic" in l), None)
        ok = cut is not None and re.search(expect, console) and not r["timed_out"]
        res.append(ktap.Result(f"{name}: boot refused as expected", ktap.PASS if ok else ktap.FAIL,
                               [] if ok else tail + [f"expected a panic after /{expect}/"]))
        console = "\n".join(lines[:cut] if cut is not None else lines)
    elif r["timed_out"]:
        res.append(ktap.Result(f"{name}: guest finished", ktap.FAIL,
                               tail + [f"timeout after {r['seconds']:.0f} s (hang?)"]))
    elif not m:
        res.append(ktap.Result(f"{name}: guest finished", ktap.FAIL,
                               tail + ["guest stopped without an exit status (panic or crash?)",
                                       r["qemu"].strip()]))
    else:
        rc = int(m.group(1))
        if rc != 0 and not any(x.status == ktap.FAIL for x in res):
            res.append(ktap.Result(f"{name}: guest finished", ktap.FAIL,
                                   tail + [f"test script exited {rc} although no result failed"]))
        else:
            res.append(ktap.Result(f"{name}: guest finished", ktap.PASS))
    if not expect:
        leak = kmemleak_result(name, r["status"], kmemleak)
        if leak:
            res.append(leak)
    lines = console.splitlines()
    excused = known_stacks(lines, known)
    bad_at = [i for i, l in enumerate(lines) if CONSOLE_BAD.search(l) and i not in excused]
    bad = [lines[i] for i in bad_at]
    if bad:
        # The first unexcused line itself, not an excused one of the same text
        idx = bad_at[0]
        # Name every distinct report (up to 3 more), then the first one's context;
        # report() shows the last 16 detail lines, one is the logs line.
        strip = lambda l: re.sub(r"^\[\s*[\d.]+\]\s*", "", l).strip()  # noqa: E731
        heads = []
        for l in bad[1:]:
            h = strip(l)
            if h not in heads and h not in (strip(bad[0]), "Call Trace:"):
                heads.append(h)
        head = [f"{len(bad)} bad line(s), first: {bad[0].strip()}"] + [f"also: {h}" for h in heads[:3]]
        ctx = lines[max(0, idx - 3): idx + 20]
        res.append(ktap.Result(f"{name}: kernel log clean", ktap.FAIL,
                               head + ["context:"] + ctx[:14 - len(head)]))
    else:
        res.append(ktap.Result(f"{name}: kernel log clean", ktap.PASS))
    failed = [x for x in res if x.status == ktap.FAIL]
    if failed:
        failed[-1].detail.append(f"logs kept in {os.path.relpath(r['run_dir'], TOP)}/")
    return res
