# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""judge(): verdicts on canned boot records (more whole boots, with their
expected reports, in tests/parser/judge/)."""
import unittest

from fsrig import ktap
from fsrig.common import BUILD
from fsrig.judge import judge, kmemleak_result

OK_RESULTS = "KTAP version 1\n1..2\nok 1 first\nok 2 second\n"
CONSOLE = "[    0.000000] Linux version 6.12\n[    0.500000] rig: init\n"


def leaked(addr, allocator):
    """One object of a kmemleak report: ALLOCATOR above the same chain."""
    return (f"unreferenced object {addr} (size 64):\n"
            '  comm "pollsleep", pid 70, jiffies 4294893040\n'
            "  backtrace (crc 0):\n"
            f"    {allocator}\n"
            "    do_sys_poll+0x12a/0x5b0\n"
            "    __x64_sys_poll+0x9c/0x140\n")


# Two objects leaked by one chain through two allocator entry points: one leak.
LEAK = ("rig-kmemleak begin\n" + leaked("0xffff888004a1c000", "__kmalloc_noprof+0x2a0/0x400")
        + leaked("0xffff888004a1c400", "kmalloc_trace+0x20/0x40") + "rig-kmemleak end 2\n")


def record(results=OK_RESULTS, console=CONSOLE, status="rig-exit 0\n", timed_out=False):
    return {"console": console, "results": results, "status": status, "qemu": "qemu: terminating", "rc": 0,
            "timed_out": timed_out, "seconds": 12.0, "first_result": 1.0, "cpu": 1.0,
            "run_dir": f"{BUILD}/runs/g"}


def verdicts(res):
    return [(r.name, r.status) for r in res]


class Judge(unittest.TestCase):
    def test_a_clean_boot_passes_with_its_own_results(self):
        self.assertEqual(verdicts(judge("g", record())), [
            ("g: first", ktap.PASS), ("g: second", ktap.PASS),
            ("g: guest finished", ktap.PASS), ("g: kernel log clean", ktap.PASS)])

    def test_a_timeout_is_a_hang(self):
        res = judge("g", record(status="", timed_out=True))
        self.assertIn(("g: guest finished", ktap.FAIL), verdicts(res))
        self.assertIn("timeout after 12 s (hang?)", res[-2].detail)

    def test_no_exit_status_is_a_crash(self):
        res = judge("g", record(status=""))
        finished = [r for r in res if r.name == "g: guest finished"][0]
        self.assertEqual(finished.status, ktap.FAIL)
        self.assertIn("guest stopped without an exit status (panic or crash?)", finished.detail)

    def test_a_failing_exit_status_needs_a_failed_result(self):
        res = judge("g", record(status="rig-exit 1\n"))
        self.assertIn(("g: guest finished", ktap.FAIL), verdicts(res))
        res = judge("g", record(results="KTAP version 1\n1..1\nnot ok 1 first\n", status="rig-exit 1\n"))
        self.assertIn(("g: first", ktap.FAIL), verdicts(res))
        self.assertIn(("g: guest finished", ktap.PASS), verdicts(res))

    def test_a_warning_in_the_console_fails_kernel_log_clean(self):
        console = CONSOLE + "[    1.000000] WARNING: CPU: 0 PID: 1 at fs/super.c:1 x\n" \
            "[    1.000001] Call Trace:\n[    1.100000] BUG: KASAN: use-after-free in y\n"
        res = judge("g", record(console=console))
        clean = res[-1]
        self.assertEqual((clean.name, clean.status), ("g: kernel log clean", ktap.FAIL))
        self.assertTrue(clean.detail[0].startswith("3 bad line(s), first: [    1.000000] WARNING:"))
        self.assertIn("also: BUG: KASAN: use-after-free in y", clean.detail)
        self.assertNotIn("also: Call Trace:", clean.detail)
        self.assertEqual(clean.detail[-1], "logs kept in build/runs/g/")

    def test_a_known_report_excuses_only_its_own_stack_dump(self):
        dup = ("[  269.178098] sysfs: cannot create duplicate filename '/fs/ext4'\n"
               "[  269.179265] CPU: 0 UID: 0 PID: 957 Comm: modprobe Not tainted 6.12.118 #2\n"
               "[  269.179823] Call Trace:\n[  269.179900]  <TASK>\n")
        known = r"sysfs: cannot create duplicate filename '/fs/ext4'"
        res = judge("g", record(console=CONSOLE + dup), known=known)
        self.assertEqual(verdicts(res)[-1], ("g: kernel log clean", ktap.PASS))
        # Without the key the same console fails
        res = judge("g", record(console=CONSOLE + dup))
        self.assertEqual(verdicts(res)[-1], ("g: kernel log clean", ktap.FAIL))
        # A WARNING after the known line, and a stack far from it, still fail
        warn = dup + "[  270.000000] WARNING: CPU: 0 PID: 1 at fs/super.c:1 x\n"
        res = judge("g", record(console=CONSOLE + warn), known=known)
        self.assertEqual(verdicts(res)[-1], ("g: kernel log clean", ktap.FAIL))
        far = dup + "".join(f"[  271.{i:06d}] x\n" for i in range(8)) + "[  272.000000] Call Trace:\n"
        res = judge("g", record(console=CONSOLE + far), known=known)
        self.assertEqual(verdicts(res)[-1], ("g: kernel log clean", ktap.FAIL))

    def test_only_the_last_failure_names_the_logs(self):
        res = judge("g", record(results="KTAP version 1\n1..1\nnot ok 1 first\n", status=""))
        self.assertEqual([r.detail[-1:] == ["logs kept in build/runs/g/"] for r in res], [False, True, False])

    def test_empty_results_are_a_failure(self):
        res = judge("g", record(results=""))
        self.assertEqual(res[0].name, "g: (parser)")
        self.assertEqual(res[0].status, ktap.FAIL)

    def test_an_expected_panic_passes_and_the_log_after_it_is_not_judged(self):
        console = CONSOLE + "[    1.0] fs-deprecated: reiserfs: mount refused by policy deny\n" \
            "[    1.1] Kernel panic - not syncing: VFS: Unable to mount root fs\n[    1.2] Call Trace:\n"
        res = judge("g", record(results="", console=console, status=""), expect="mount refused by policy deny")
        self.assertEqual(verdicts(res), [("g: boot refused as expected", ktap.PASS),
                                         ("g: kernel log clean", ktap.PASS)])

    def test_an_expected_panic_must_happen_and_say_it(self):
        res = judge("g", record(results="", status="rig-exit 0\n"), expect="refused")
        self.assertEqual(res[0].status, ktap.FAIL)
        console = CONSOLE + "[    1.1] Kernel panic - not syncing: VFS: Unable to mount root fs\n"
        res = judge("g", record(results="", console=console, status=""), expect="refused")
        self.assertEqual(res[0].status, ktap.FAIL)
        self.assertEqual(res[0].detail[-2], "expected a panic after /refused/")

    def test_a_warning_before_the_expected_panic_fails(self):
        console = CONSOLE + "[    0.9] WARNING: at x\n[    1.0] refused\n[    1.1] Kernel panic - not syncing\n"
        res = judge("g", record(results="", console=console, status=""), expect="refused")
        self.assertEqual(verdicts(res), [("g: boot refused as expected", ktap.PASS),
                                         ("g: kernel log clean", ktap.FAIL)])


class Kmemleak(unittest.TestCase):
    def test_not_required_and_absent_gives_no_result(self):
        self.assertIsNone(kmemleak_result("g", "rig-exit 0\n", False))
        self.assertEqual(len(judge("g", record())), 4)

    def test_required_and_absent_fails(self):
        r = kmemleak_result("g", "rig-exit 0\n", True)
        self.assertEqual((r.name, r.status), ("g: kmemleak: no leaks", ktap.FAIL))
        res = judge("g", record(), kmemleak=True)
        self.assertIn(("g: kmemleak: no leaks", ktap.FAIL), verdicts(res))

    def test_an_empty_report_passes(self):
        r = kmemleak_result("g", "rig-exit 0\nrig-kmemleak begin\nrig-kmemleak end 0\n", True)
        self.assertEqual(r.status, ktap.PASS)

    def test_an_unavailable_kmemleak_fails(self):
        r = kmemleak_result("g", "rig-kmemleak begin\nrig-kmemleak unavailable: disabled\n", True)
        self.assertEqual(r.status, ktap.FAIL)
        self.assertEqual(r.detail[0], "unavailable: disabled")

    def test_leaks_are_named_below_the_allocator_and_counted(self):
        r = kmemleak_result("g", "rig-exit 0\n" + LEAK, False)
        self.assertEqual(r.status, ktap.FAIL)
        self.assertTrue(r.detail[0].startswith("2 suspected leak(s), 1 distinct backtrace(s)"))
        self.assertTrue(r.detail[1].startswith("leak in do_sys_poll (2 object(s)), e.g. unreferenced object"))


if __name__ == "__main__":
    unittest.main()
