#!/usr/bin/env python3
"""Run rig/ktap.py on the canned logs in cases/ and compare with cases/*.expected.

Prints TAP 13 (one result per case) so the rig reports it like any guest test.
Regenerate an expected file after a deliberate change with: run.py --update NAME
"""
import io
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "rig"))
import ktap  # noqa: E402


def render(path):
    with open(path, errors="replace") as f:
        res = ktap.parse(f.read().splitlines())
    out = io.StringIO()
    ktap.report(res, out)
    print(ktap.summary(res), file=out)
    return out.getvalue()


def main():
    cases = sorted(f[:-5] for f in os.listdir(os.path.join(here, "cases")) if f.endswith(".ktap"))
    if sys.argv[1:2] == ["--update"]:
        for name in sys.argv[2:]:
            with open(os.path.join(here, "cases", name + ".expected"), "w") as f:
                f.write(render(os.path.join(here, "cases", name + ".ktap")))
        return 0
    print("TAP version 13")
    print(f"1..{len(cases)}")
    bad = 0
    for i, name in enumerate(cases, 1):
        exp_path = os.path.join(here, "cases", name + ".expected")
        got = render(os.path.join(here, "cases", name + ".ktap"))
        try:
            with open(exp_path) as f:
                exp = f.read()
        except FileNotFoundError:
            exp = None
        if got == exp:
            print(f"ok {i} ktap parser: {name}")
        else:
            bad += 1
            print(f"# expected ({exp_path}):")
            for line in (exp or "<missing>\n").splitlines():
                print("#   " + line)
            print("# got:")
            for line in got.splitlines():
                print("#   " + line)
            print(f"not ok {i} ktap parser: {name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
