# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""rig.py bench: the rounds it prints come from the runs of the kernel's base."""
import contextlib
import io
import os
import tempfile
import types
import unittest

from fsrig import commands


def ktap(name, rounds):
    lines = ["KTAP version 1", "1..1"]
    lines += [f"# bench {name} round {i + 1} ns_per_cycle {v}" for i, v in enumerate(rounds)]
    return "\n".join(lines + [f"ok 1 bench {name}", ""])


class FakeSession:
    """What commands.bench() asks of a session: groups, a kernel, boots."""

    def __init__(self, runs_dir, base, tag, stock):
        self.groups = {"bench-tmpfs": types.SimpleNamespace(kind="bench")}
        self.kernel = types.SimpleNamespace(base=base, tag=tag, stock=stock, runs_dir=runs_dir)

    def prepare(self, kernel):
        return kernel

    def run_groups(self, names, built, run_tag):
        return [], None


class TestBench(unittest.TestCase):
    def bench(self, base, tag, stock, run_tag, rounds):
        with tempfile.TemporaryDirectory() as runs:
            os.makedirs(os.path.join(runs, run_tag + "bench-tmpfs"))
            with open(os.path.join(runs, run_tag + "bench-tmpfs", "results.ktap"), "w") as f:
                f.write(ktap("tmpfs", rounds))
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = commands.bench(FakeSession(runs, base, tag, stock), [])
            return rc, out.getvalue()

    def test_default_base(self):
        rc, out = self.bench("6.12", "", False, "series-", [105, 101, 103])
        self.assertEqual(rc, 0)
        self.assertEqual(out, "bench tmpfs ns_per_cycle 105 101 103\n")

    def test_other_base_reads_its_own_runs(self):
        # 7.3's boots are logged in build/v73/runs/, tagged series-v73-
        rc, out = self.bench("7.3", "v73", True, "stock-v73-", [98, 99])
        self.assertEqual(rc, 0)
        self.assertEqual(out, "bench tmpfs ns_per_cycle 98 99\n")


if __name__ == "__main__":
    unittest.main()
