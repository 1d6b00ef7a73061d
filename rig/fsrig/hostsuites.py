# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""The host suites of `check`: programs that print TAP on stdout, run on the
host beside the boots (they need no kernel), each reported under its name:

  parser           tests/parser/run.py: the KTAP parser and judge() on canned input
  compare          tests/compare/run.py: the comparison of canned result pairs
  rig              tests/rig/run.py: unit tests of the rig's own logic
  reuse            tests/reuse/run.sh: `reuse lint`, every file's licence stated
  fsaudit          make -C fsaudit check
  fsaudit-install  make -C fsaudit check-install

A suite that exits non-zero without a failed result gets one ("exit status").
"""

import concurrent.futures
import os
import subprocess
import sys
import threading
import time

from . import ktap
from .common import TOP
from .report import log, stamp


def suites():
    """(name, command) of every host suite, in the order they are reported."""
    out = [(name, [sys.executable, os.path.join(TOP, "tests", name, "run.py")])
           for name in ("parser", "compare", "rig")]
    out.append(("reuse", ["sh", os.path.join(TOP, "tests", "reuse", "run.sh")]))
    if os.path.exists(os.path.join(TOP, "fsaudit", "Makefile")):
        # --no-print-directory: their stdout is TAP, also under `make -C DIR check`
        # (whose -w reaches them through MAKEFLAGS).
        make = ["make", "-s", "--no-print-directory", "-C", os.path.join(TOP, "fsaudit")]
        out.append(("fsaudit", make + ["check"]))
        out.append(("fsaudit-install", make + ["check-install"]))
    return out


def run_timed(cmd):
    """subprocess.run(cmd, capture) that also measures the command's CPU time
    (its children's included): (CompletedProcess, wall seconds, CPU seconds)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out = {}
    readers = [threading.Thread(target=lambda k, f: out.__setitem__(k, f.read()), args=(k, f))
               for k, f in (("out", p.stdout), ("err", p.stderr))]
    for t in readers:
        t.start()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    for t in readers:
        t.join()
    return (subprocess.CompletedProcess(cmd, p.returncode, out["out"], out["err"]),
            time.monotonic() - t0, ru.ru_utime + ru.ru_stime)


def run_all():
    """Every host suite at once (each is one process; results in the configured order)."""
    def one(suite):
        name, cmd = suite
        log(f"{stamp()} host suite {name}: starting")
        r, wall, cpu = run_timed(cmd)
        log(f"host suite {name}: {wall:.1f} s ({cpu:.1f} s CPU)")
        res = ktap.parse(r.stdout.splitlines(), prefix=f"{name}: ")
        if r.returncode != 0 and not any(x.status == ktap.FAIL for x in res):
            res.append(ktap.Result(f"{name}: exit status", ktap.FAIL,
                                   r.stderr.splitlines()[-10:] + [f"exited {r.returncode}"]))
        return res
    todo = suites()
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(todo)) as ex:
        return [r for res in ex.map(one, todo) for r in res]
