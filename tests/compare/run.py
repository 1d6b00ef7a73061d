#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""Run the comparison (rig/fsrig/compare.py) on canned results in cases/ and
compare with cases/*.expected.

Each case is NAME.series.ktap and NAME.stock.ktap (what groups upstream and
upstream-stock would print) and NAME.expected (the comparison's report).
Cases named ext2-options-*: the pair ext2-options / ext2-options-stock, which
compares diagnostics too.
Prints TAP 13, one result per case.  After a deliberate change:
run.py --update NAME
"""
import io
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "rig"))
sys.path.insert(0, os.path.join(here, ".."))
import golden  # noqa: E402
from fsrig import compare, ktap  # noqa: E402


def side(path, group):
    with open(path, errors="replace") as f:
        res = ktap.parse(f.read().splitlines(), prefix=f"{group}: ")
    # What judge() appends to every boot.
    return res + [ktap.Result(f"{group}: guest finished", ktap.PASS),
                  ktap.Result(f"{group}: kernel log clean", ktap.PASS)]


def render(name):
    p = os.path.join(here, "cases", name)
    series, stock, prefix, details = compare.PAIRS["ext2-options" if name.startswith("ext2-options-") else "upstream"]
    res = compare.compare(side(p + ".series.ktap", series), side(p + ".stock.ktap", stock), series, stock, prefix,
                          details)
    out = io.StringIO()
    ktap.report(res, out)
    print(ktap.summary(res), file=out)
    return out.getvalue()


def main():
    cases = sorted(f[:-len(".series.ktap")] for f in os.listdir(os.path.join(here, "cases"))
                   if f.endswith(".series.ktap"))
    return golden.run([("upstream comparison: " + n, os.path.join(here, "cases", n + ".expected"),
                        lambda n=n: render(n)) for n in cases], sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
