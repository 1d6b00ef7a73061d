# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""Expected-output tests for the rig's host suites (tests/parser, tests/compare).

run(cases, argv): CASES is a list of (label, expected file, render function).
With argv "--update NAME..." rewrite the expected files of the cases whose label
(or its last word) is named; otherwise print TAP 13, one result per case, with
the expected and actual text as diagnostics on a mismatch.  Returns the exit
status.
"""


def run(cases, argv):
    if argv[:1] == ["--update"]:
        for label, exp_path, fn in cases:
            if label in argv[1:] or label.split()[-1] in argv[1:]:
                with open(exp_path, "w") as f:
                    f.write(fn())
        return 0
    print("TAP version 13")
    print(f"1..{len(cases)}")
    bad = 0
    for i, (label, exp_path, fn) in enumerate(cases, 1):
        got = fn()
        try:
            with open(exp_path) as f:
                exp = f.read()
        except FileNotFoundError:
            exp = None
        if got == exp:
            print(f"ok {i} {label}")
        else:
            bad += 1
            print(f"# expected ({exp_path}):")
            for line in (exp or "<missing>\n").splitlines():
                print("#   " + line)
            print("# got:")
            for line in got.splitlines():
                print("#   " + line)
            print(f"not ok {i} {label}")
    return 1 if bad else 0
