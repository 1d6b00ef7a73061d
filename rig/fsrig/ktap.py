#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""Strict KTAP / TAP 13 parser for the rig's results channel.

Accepts what KUnit (debugfs results), kselftest_harness.h and the rig's shell
tests print: a version line, a plan, "ok"/"not ok" result lines with optional
"# SKIP" directives, "#" diagnostics and subtests nested by indentation
(KUnit indents by 4, TAP 13 "# Subtest:" blocks likewise).

Anything that prevents trusting the results is itself reported as a failed
result, so a caller only has to count: no version line, no plan, fewer
results than planned (the guest died mid-run), results out of order, a parent
whose own line disagrees with its subtests, and lines that are not KTAP.

It imports nothing from the rig: `python3 rig/fsrig/ktap.py FILE...` parses
files (or stdin) and reports one line per test.
"""

import re
import sys
from dataclasses import dataclass, field

PASS, FAIL, SKIP = "ok", "not ok", "skip"

_VERSION = re.compile(r"^(KTAP version \d+|TAP version \d+)$")
_PLAN = re.compile(r"^1\.\.(\d+)$")
_RESULT = re.compile(r"^(ok|not ok)\s+(\d+)(?:\s+-)?(?:\s+([^#]*?))?\s*(?:#\s*(.*))?$")
_SUBTEST = re.compile(r"^#\s*Subtest:\s*(.*)$")


@dataclass
class Result:
    """One leaf line of the report: a path of names, a status, the diagnostics."""
    name: str
    status: str
    detail: list = field(default_factory=list)
    cached: bool = False    # from a record the rig kept, not a boot of this run (resultcache.py)


def _indent(line):
    return len(line) - len(line.lstrip(" "))


class _Parser:
    def __init__(self, lines):
        self.lines = [l.rstrip("\r\n").expandtabs(8) for l in lines]
        self.i = 0
        self.out = []

    def block(self, indent, prefix, top):
        """Parse the test list at `indent`.

        Returns (number of results, all passed, "# Subtest:" name seen in it).
        Only the top level must have a plan: KUnit omits it for parameterised tests.
        """
        plan = None
        subtest_name = None
        last = None         # the Result of the line just before, for a split "# SKIP"
        seen_version = False
        expect = 1
        diag = []
        pending = None      # (subtests ok, count) of a nested block awaiting its result line
        pending_name = None
        all_ok = True
        count = 0
        while self.i < len(self.lines):
            raw = self.lines[self.i]
            if not raw.strip():
                self.i += 1
                continue
            ind = _indent(raw)
            line = raw.strip()
            # Diagnostics belong to the innermost open block whatever their
            # indentation (KUnit logs "# SKIP …" at column 0); only "# Subtest:"
            # takes part in the nesting.
            if line.startswith("#") and not _SUBTEST.match(line):
                self.i += 1
                # KUnit's debugfs log splits "ok 3 name # SKIP why" in two
                # lines: a bare "# SKIP" right after a result belongs to it.
                if re.match(r"#\s*SKIP\b", line) and last is not None and last.status == PASS:
                    last.status = SKIP
                    last.detail.append(line.lstrip("# ").rstrip())
                    last = None
                    continue
                diag.append(line.lstrip("# ").rstrip())
                continue
            last = None
            if ind < indent:
                break
            if ind > indent:
                mark = len(self.out)
                n, ok, hint = self.block(ind, prefix, False)
                pending = (n, ok, mark)
                pending_name = pending_name or hint
                continue
            self.i += 1
            if _VERSION.match(line):
                if seen_version and not top:
                    self.fail(prefix + "(parser)", f"second version line in one block: {line}")
                seen_version = True
                continue
            m = _PLAN.match(line)
            if m:
                if plan is not None:
                    self.fail(prefix + "(parser)", f"second plan line: {line}")
                plan = int(m.group(1))
                continue
            m = _SUBTEST.match(line)
            if m:
                if pending is None and not count and subtest_name is None:
                    subtest_name = m.group(1).strip()
                pending_name = m.group(1).strip()
                continue
            m = _RESULT.match(line)
            if m:
                status = PASS if m.group(1) == "ok" else FAIL
                num = int(m.group(2))
                name = (m.group(3) or "").strip() or pending_name or f"test {num}"
                directive = (m.group(4) or "").strip()
                if directive.upper().startswith("SKIP"):
                    status = SKIP if status == PASS else FAIL
                    diag.append(directive)
                if num != expect:
                    self.fail(prefix + "(parser)", f"{name!r} is numbered {num}, expected {expect}")
                    all_ok = False
                expect = num + 1
                count += 1
                full = prefix + name
                if pending is not None:
                    n, sub_ok, mark = pending
                    # Re-root the subtests recorded before we knew the name.
                    for r in self.out[mark:]:
                        r.name = full + "." + r.name[len(prefix):]
                    if status == FAIL and sub_ok:
                        self.fail(full, "failed although all its subtests passed", diag)
                    elif status == PASS and not sub_ok:
                        self.fail(full, "reported ok although a subtest failed", diag)
                    if status == FAIL or not sub_ok:
                        all_ok = False
                else:
                    last = Result(full, status, diag)
                    self.out.append(last)
                    if status == FAIL:
                        all_ok = False
                diag, pending, pending_name = [], None, None
                continue
            self.fail(prefix + "(parser)", f"line {self.i}: not KTAP: {line[:120]!r}")
            all_ok = False
        if pending is not None:
            full = prefix + (pending_name or "(subtest)")
            for r in self.out[pending[2]:]:
                r.name = full + "." + r.name[len(prefix):]
            self.fail(full, "subtests without a result line")
            all_ok = False
        if top and not seen_version:
            self.fail(prefix + "(parser)", "no KTAP/TAP version line")
            all_ok = False
        if plan is None:
            if top:
                self.fail(prefix + "(parser)", "no plan line (1..N)")
                all_ok = False
        elif count < plan:
            self.fail(prefix + "(parser)",
                      f"plan 1..{plan} but only {count} result(s): run ended early (crash, panic or timeout?)")
            all_ok = False
        elif count > plan:
            self.fail(prefix + "(parser)", f"plan 1..{plan} but {count} results")
            all_ok = False
        return count, all_ok, subtest_name

    def fail(self, name, why, detail=()):
        self.out.append(Result(name, FAIL, list(detail) + [why]))


def parse(lines, prefix=""):
    """Parse KTAP text (iterable of lines) into a flat list of Result."""
    p = _Parser(lines)
    if not any(l.strip() for l in p.lines):
        return [Result(prefix + "(parser)", FAIL, ["empty results: the guest printed nothing"])]
    p.block(_indent(next(l for l in p.lines if l.strip())), prefix, True)
    return p.out


def summary(results):
    c = {PASS: 0, FAIL: 0, SKIP: 0}
    for r in results:
        c[r.status] += 1
    s = f"{c[PASS]} passed, {c[FAIL]} failed"
    if c[SKIP]:
        s += f", {c[SKIP]} skipped"
    return s


def report(results, out=sys.stdout, verbose_fail=True):
    for r in results:
        tag = {PASS: "PASS", FAIL: "FAIL", SKIP: "SKIP"}[r.status]
        extra = ""
        if r.status == SKIP and r.detail:
            extra = f"  ({r.detail[-1]})"
        print(f"{tag}  {r.name}{extra}{' (cached)' if r.cached else ''}", file=out)
        if r.status == FAIL and verbose_fail:
            for d in r.detail[-16:]:
                print(f"        {d}", file=out)


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description="Parse KTAP from files (or stdin) and report one line per test.")
    ap.add_argument("files", nargs="*")
    ap.add_argument("--prefix", default="")
    a = ap.parse_args(argv)
    results = []
    for f in a.files or ["-"]:
        text = sys.stdin.read() if f == "-" else open(f, errors="replace").read()
        results += parse(text.splitlines(), a.prefix)
    report(results)
    print(summary(results))
    return 1 if any(r.status == FAIL for r in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
