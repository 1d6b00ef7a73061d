#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""Unit tests of the rig's own logic (tests/rig/test_*.py, python's unittest):
groups.conf parsing and group selection, cache keys, judge verdicts, the
kernel value, the boot queue.  Host suite "rig" of `make check`.

Prints TAP 13, one result per test ("MODULE: what the test checks"), so that
the rig counts every test in its summary.  One module with unittest's own
output, from the top of the project:
`PYTHONPATH=rig python3 -m unittest -v tests/rig/test_groups.py`.
"""
import os
import sys
import traceback
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "rig"))
sys.path.insert(0, here)


def leaves(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from leaves(t)
        else:
            yield t


def label(test):
    """"groups: debug_env replaces env" from test_groups.GroupsConf.test_debug_env_replaces_env."""
    mod = type(test).__module__.rsplit(".", 1)[-1]
    method = getattr(test, "_testMethodName", str(test))
    return f"{mod[len('test_'):] if mod.startswith('test_') else mod}: " \
        + (method[len("test_"):] if method.startswith("test_") else method).replace("_", " ")


def main():
    tests = list(leaves(unittest.TestLoader().discover(here, pattern="test_*.py", top_level_dir=here)))
    print("TAP version 13")
    print(f"1..{len(tests)}")
    bad = 0
    for i, t in enumerate(tests, 1):
        r = unittest.TestResult()
        t.run(r)
        name = label(t)
        if r.errors or r.failures:
            bad += 1
            for _, tb in r.errors + r.failures:
                for line in tb.rstrip().splitlines()[-12:]:
                    print("# " + line)
            print(f"not ok {i} {name}")
        elif r.skipped:
            print(f"ok {i} {name} # SKIP {r.skipped[0][1]}")
        else:
            print(f"ok {i} {name}")
    return 1 if bad else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:
        traceback.print_exc()
        sys.exit(2)
