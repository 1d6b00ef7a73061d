#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""Run the KTAP parser (rig/fsrig/ktap.py) on the canned logs in cases/ and
compare with cases/*.expected; run the rig's judge() (rig/fsrig/judge.py) on
the canned boots in judge/ and compare with judge/NAME/expected.

A judge case is a directory: console.log (kernel log), results.ktap and status
(the results and status channels; optional), expect_panic (the group's RE;
optional).  Cases named debug-* are judged as on the debug kernel (a kmemleak
report is required); the others as on the default kernel.

Prints TAP 13 (one result per case) so the rig reports it like any guest test.
Regenerate an expected file after a deliberate change with: run.py --update NAME
"""
import io
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "rig"))
sys.path.insert(0, os.path.join(here, ".."))
import golden  # noqa: E402
from fsrig import ktap  # noqa: E402
from fsrig.common import BUILD  # noqa: E402
from fsrig.judge import judge  # noqa: E402


def render(path):
    with open(path, errors="replace") as f:
        res = ktap.parse(f.read().splitlines())
    out = io.StringIO()
    ktap.report(res, out)
    print(ktap.summary(res), file=out)
    return out.getvalue()


def render_judge(d):
    name = os.path.basename(d)

    def part(f):
        try:
            with open(os.path.join(d, f), errors="replace") as fh:
                return fh.read()
        except FileNotFoundError:
            return ""
    r = {"console": part("console.log"), "results": part("results.ktap"), "status": part("status"),
         "qemu": "", "rc": 0, "timed_out": False, "seconds": 1.0, "first_result": None,
         "run_dir": os.path.join(BUILD, "runs", name)}
    res = judge(name, r, part("expect_panic").strip(), kmemleak=name.startswith("debug-"))
    out = io.StringIO()
    ktap.report(res, out)
    print(ktap.summary(res), file=out)
    return out.getvalue()


def all_cases():
    """(label, expected file, render function) per case."""
    out = []
    for n in sorted(f[:-5] for f in os.listdir(os.path.join(here, "cases")) if f.endswith(".ktap")):
        out.append(("ktap parser: " + n, os.path.join(here, "cases", n + ".expected"),
                    lambda n=n: render(os.path.join(here, "cases", n + ".ktap"))))
    jdir = os.path.join(here, "judge")
    for n in sorted(os.listdir(jdir)) if os.path.isdir(jdir) else []:
        out.append(("rig judge: " + n, os.path.join(jdir, n, "expected"),
                    lambda n=n: render_judge(os.path.join(jdir, n))))
    return out


def main():
    return golden.run(all_cases(), sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
