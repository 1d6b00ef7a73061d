# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""The result cache: a group's kept result is reused while nothing it
depends on changed, and only then; a failure is never kept."""
import contextlib
import io
import os
import shutil
import tempfile
import time
import unittest
from unittest import mock

from fsrig import ktap, qemu, report, resultcache
from fsrig.common import read
from fsrig.groups import Group
from fsrig.kernel import Kernel
from fsrig.session import OFF, STORE, USE, Built, Session, Settings
from test_keys import write

GROUPS_CONF = """# groups
[g]
# a comment
images = a
cmdline = x=1

[other]
images = a

[sys]
system = trixie
"""


class Checkout(unittest.TestCase):
    """A checkout of the project in a temporary directory: the guest's
    sources, groups.conf, the rig's code, fsaudit; kernel, initramfs and
    images in its build/.  QEMU's probes are fixed."""

    def setUp(self):
        self.top = tempfile.mkdtemp(prefix="rig-test-")
        self.addCleanup(shutil.rmtree, self.top)
        for f, text in (("tests/groups.conf", GROUPS_CONF), ("tests/guest/init", "#!/bin/sh\n"),
                        ("tests/guest/ktap.sh", "ktap_plan() { :; }\n"), ("tests/guest/g.sh", "echo g\n"),
                        ("tests/guest/other.sh", "echo other\n"), ("tests/guest/prog.c", "int main;\n"),
                        ("tests/system/sys.sh", "echo sys\n"), ("tests/system/overlay/sys/etc/fstab", "\n"),
                        ("tests/selftests.conf", "mount\n"), ("tests/host-programs.conf", "/f fsaudit/fsaudit\n"),
                        ("rig/rig.py", "main()\n"), ("rig/fsrig/judge.py", "def judge(): pass\n"),
                        ("rig/fsrig/ktap.py", "def parse(): pass\n"), ("rig/images.conf", "a 1M mkfs $IMG\n"),
                        ("fsaudit/fsaudit.c", "int main;\n"),
                        ("build/kobj-default/vmlinux", "kernel"), ("build/kobj-default/.config", "CONFIG_X=y\n"),
                        ("build/initramfs-kobj-default.cpio", "initramfs"), ("build/images/a.img", "image a"),
                        ("build/images/hp.img", "image hp"), ("bin/qemu", "qemu"), ("bin/qboot.rom", "qboot")):
            write(self.p(f), text)
        for name, value in (("host_tsc_khz", lambda: 2000000), ("drive_aio", lambda: ",aio=io_uring"),
                            ("version", lambda: "QEMU emulator version 7.2.15\n")):
            patcher = mock.patch.object(qemu, name, value)
            patcher.start()
            self.addCleanup(patcher.stop)
        for name, value in (("qemu_binary", lambda: self.p("bin/qemu")), ("QBOOT", self.p("bin/qboot.rom"))):
            patcher = mock.patch.object(resultcache, name, value)
            patcher.start()
            self.addCleanup(patcher.stop)
        self.kernel = Kernel()
        self.group = Group("g", images=("a",), cmdline="x=1")
        self.now = 1796500000.0     # 2026-12-05 19:46 UTC

    def p(self, *parts):
        return os.path.join(self.top, *parts)

    def cache(self):
        """A result cache as a new run sees the checkout (snapshot() when it starts)."""
        return resultcache.ResultCache(self.p("build", "result-cache"), resultcache.FileHashes(None), self.top,
                                       clock=lambda: self.now)

    def key(self, group=None, kernel=None, cmdline=None, tsc=None, images=None, hotplug=None, version=None):
        g = group or self.group
        imgs = images or {"a": self.p("build/images/a.img")}
        patches = [mock.patch.object(qemu, "host_tsc_khz", lambda: tsc)] if tsc else []
        patches += [mock.patch.object(qemu, "version", lambda: version)] if version else []
        for p in patches:
            p.start()
        try:
            cmd = qemu.qemu_cmd("tcg", self.p("build/kobj-default/vmlinux"), self.p("build/initramfs-kobj-default.cpio"),
                                self.p("build/runs", g.name), g.name, imgs, g.cmdline if cmdline is None else cmdline,
                                g.rtc, g.smp, hotplug=bool(hotplug))
            files = [self.p("build/kobj-default/vmlinux"), self.p("build/initramfs-kobj-default.cpio")] \
                + list(imgs.values()) + list((hotplug or {}).values())
            return self.cache().boot_key(g, kernel or self.kernel, self.p("build/kobj-default"), qemu.version(),
                                         cmd, files)
        finally:
            for p in patches:
                p.stop()


class Key(Checkout):
    def changes(self, path, text="changed\n", **kw):
        """Whether writing TEXT into PATH (of the checkout) changes the key."""
        k = self.key(**kw)
        old = read(self.p(path)) if os.path.exists(self.p(path)) else None
        write(self.p(path), text)
        try:
            return self.key(**kw) != k
        finally:
            if old is None:
                os.unlink(self.p(path))
            else:
                write(self.p(path), old)

    def test_the_same_inputs_have_the_same_key(self):
        self.assertEqual(self.key(), self.key())

    def test_the_groups_guest_script_invalidates(self):
        self.assertTrue(self.changes("tests/guest/g.sh", "echo g changed\n"))

    def test_any_guest_file_init_program_or_new_script_invalidates(self):
        for f in ("tests/guest/other.sh", "tests/guest/init", "tests/guest/prog.c", "tests/guest/ktap.sh",
                  "tests/guest/new.sh", "tests/guest/guest.h", "tests/selftests.conf", "tests/host-programs.conf",
                  "rig/images.conf", "fsaudit/fsaudit.c"):
            self.assertTrue(self.changes(f), f)

    def test_a_script_made_executable_invalidates(self):
        k = self.key()
        os.chmod(self.p("tests/guest/g.sh"), 0o755)
        self.assertNotEqual(self.key(), k)

    def test_a_system_group_follows_tests_system_and_ktap_sh_only(self):
        sys_group = Group("sys", system="trixie")
        for f in ("tests/system/sys.sh", "tests/system/overlay/sys/etc/fstab", "tests/guest/ktap.sh",
                  "fsaudit/fsaudit.c"):
            self.assertTrue(self.changes(f, group=sys_group), f)
        for f in ("tests/guest/g.sh", "tests/guest/init", "tests/guest/prog.c"):
            self.assertFalse(self.changes(f, group=sys_group), f)
        # and a busybox group does not follow tests/system/
        self.assertFalse(self.changes("tests/system/sys.sh"))

    def test_the_judge_parser_and_the_rest_of_the_rig_invalidate(self):
        for f in ("rig/fsrig/judge.py", "rig/fsrig/ktap.py", "rig/fsrig/new.py", "rig/rig.py"):
            self.assertTrue(self.changes(f), f)

    def test_its_section_of_groups_conf_but_not_another_nor_comments(self):
        text = GROUPS_CONF
        self.assertTrue(self.changes("tests/groups.conf", text.replace("x=1", "x=2")))
        self.assertTrue(self.changes("tests/groups.conf", text.replace("cmdline = x=1", "cmdline = x=1\ntimeout = 9")))
        self.assertFalse(self.changes("tests/groups.conf", text.replace("[other]\nimages = a", "[other]\nimages = b")))
        self.assertFalse(self.changes("tests/groups.conf", text.replace("# a comment", "# another comment")))

    def test_the_group_as_parsed(self):
        import dataclasses
        k = self.key()
        for change in (dict(timeout=240), dict(expect_panic="x"), dict(known_report="y"), dict(smp=2),
                       dict(extras=True), dict(rtc="2038-01-20")):
            self.assertNotEqual(self.key(group=dataclasses.replace(self.group, **change)), k, change)

    def test_the_content_of_kernel_initramfs_disks_and_hotplug_images(self):
        hp = {"hp": self.p("build/images/hp.img")}
        k = self.key(hotplug=hp)
        for f in ("build/kobj-default/vmlinux", "build/initramfs-kobj-default.cpio", "build/images/a.img",
                  "build/images/hp.img", "build/kobj-default/.config", "bin/qemu", "bin/qboot.rom"):
            self.assertTrue(self.changes(f, "other content", hotplug=hp), f)
        self.assertEqual(self.key(hotplug=hp), k)

    def test_the_kernels_modules(self):
        k = self.key()
        write(self.p("build/kobj-default/modules-install/lib/modules/6.12/ext2.ko"), "ko")
        k2 = self.key()
        self.assertNotEqual(k2, k)
        write(self.p("build/kobj-default/modules-install/lib/modules/6.12/ext2.ko"), "ko2")
        self.assertNotEqual(self.key(), k2)

    def test_the_kernel_value(self):
        k = self.key()
        for kern in (Kernel(flavour="modules"), Kernel(stock=True), Kernel(base="7.3"), Kernel(flavour="debug")):
            self.assertNotEqual(self.key(kernel=kern), k, kern)

    def test_the_command_line_disks_and_qemus_version(self):
        k = self.key()
        self.assertNotEqual(self.key(cmdline="x=2"), k)
        self.assertNotEqual(self.key(images={"a": self.p("build/images/a.img"),
                                             "b": self.p("build/images/hp.img")}), k)
        self.assertNotEqual(self.key(version="QEMU emulator version 8.0\n"), k)
        with mock.patch.object(resultcache, "FORMAT", resultcache.FORMAT + 1):
            self.assertNotEqual(self.key(), k)

    def test_not_the_tsc_rate_nor_file_times(self):
        k = self.key()
        self.assertEqual(self.key(tsc=2100000), k)
        os.utime(self.p("build/images/a.img"), (1, 1))
        os.utime(self.p("tests/guest/g.sh"), (1, 1))
        self.assertEqual(self.key(), k)

    def test_the_hosts_date_unless_the_group_sets_the_guest_clock(self):
        import dataclasses
        k = self.key()
        self.now += 3600
        self.assertEqual(self.key(), k)
        self.now += 86400
        self.assertNotEqual(self.key(), k)
        g = dataclasses.replace(self.group, rtc="2038-01-20")
        k = self.key(group=g)
        self.now += 86400
        self.assertEqual(self.key(group=g), k)

    def test_not_the_checkouts_path(self):
        cmd = ["-kernel", self.p("build/kobj-default/vmlinux"), "-serial", f"file:{self.p('build/runs/g')}/console.log"]
        self.assertEqual(resultcache.normalize_cmd(cmd, self.top),
                         ["-kernel", "$BUILD/kobj-default/vmlinux", "-serial", "file:$BUILD/runs/g/console.log"])

    def test_sources_are_read_once_when_the_run_starts(self):
        c = self.cache()
        c.snapshot()
        before = c.sources(self.group)
        write(self.p("tests/guest/g.sh"), "echo changed while the run builds\n")
        self.assertEqual(c.sources(self.group), before)
        self.assertNotEqual(self.cache().sources(self.group), before)


class Section(unittest.TestCase):
    def test_only_the_groups_lines_without_comments(self):
        self.assertEqual(resultcache.group_section(GROUPS_CONF, "g"), "images = a\ncmdline = x=1")
        self.assertEqual(resultcache.group_section(GROUPS_CONF, "other"), "images = a")
        self.assertEqual(resultcache.group_section(GROUPS_CONF, "missing"), "")


class FileHashes(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp(prefix="rig-test-")
        self.addCleanup(shutil.rmtree, self.d)
        self.f = os.path.join(self.d, "img")
        write(self.f, "AAAA")

    def test_a_file_changed_just_now_is_not_remembered(self):
        h = resultcache.FileHashes(os.path.join(self.d, "memo.json"))
        h.sha(self.f)
        self.assertEqual(h.memo, {})

    def test_an_older_file_is_remembered_and_kept_on_disk(self):
        memo = os.path.join(self.d, "memo.json")
        h = resultcache.FileHashes(memo, clock=lambda: time.time() + 10)
        digest = h.sha(self.f)
        self.assertEqual(resultcache.FileHashes(memo).memo[os.path.realpath(self.f)][-1], digest)

    def test_new_content_of_the_same_size_and_mtime_is_seen(self):
        h = resultcache.FileHashes(None, clock=lambda: time.time() + 10)
        os.utime(self.f, ns=(10**18, 10**18))
        a = h.sha(self.f)
        time.sleep(0.05)    # a later tick of the file system's clock: another ctime
        write(self.f, "BBBB")
        os.utime(self.f, ns=(10**18, 10**18))
        self.assertNotEqual(h.sha(self.f), a)

    def test_a_missing_file(self):
        self.assertEqual(resultcache.FileHashes(None).sha(os.path.join(self.d, "none")), "")


class BootGroup(Checkout):
    """Session.boot_group() with the result cache: what boots, what is kept."""

    def setUp(self):
        super().setUp()
        patcher = mock.patch("fsrig.session.log")
        patcher.start()
        self.addCleanup(patcher.stop)
        patcher = mock.patch.object(Kernel, "runs_dir", new_callable=mock.PropertyMock,
                                    return_value=self.p("build/runs"))
        patcher.start()
        self.addCleanup(patcher.stop)
        self.built = Built(self.kernel, self.p("build/kobj-default/vmlinux"), self.p("build/kobj-default"),
                           self.p("build/initramfs-kobj-default.cpio"))
        self.boots = []
        self.results = "TAP version 13\n1..1\nok 1 works\n"

    def session(self, no_cache=False):
        s = Session(Settings(result_cache=not no_cache))
        s._results = self.cache()
        s.boot = self.boot
        return s

    def boot(self, accel, bz, initrd, name, images, cmdline="", rtc="", timeout=120, smp=1, run_dir=None, **kw):
        self.boots.append(name)
        os.makedirs(run_dir, exist_ok=True)
        return {"console": "[    0.1] Linux\n", "results": self.results, "status": "rig-exit 0\n", "qemu": "",
                "rc": 0, "timed_out": False, "seconds": 1.0, "first_result": 0.5, "cpu": 1.0, "run_dir": run_dir}

    def run_group(self, mode=USE, no_cache=False):
        s = self.session(no_cache)
        res, _ = s.boot_group("tcg", self.built, self.group, {"a": self.p("build/images/a.img")}, cache=s.cache_mode(mode))
        return res

    def test_a_pass_is_kept_and_reused_marked_cached(self):
        first = self.run_group()
        self.assertEqual(len(self.boots), 1)
        self.assertFalse(any(r.cached for r in first))
        again = self.run_group()
        self.assertEqual(len(self.boots), 1)
        self.assertEqual([(r.name, r.status) for r in again], [(r.name, r.status) for r in first])
        self.assertTrue(all(r.cached for r in again))
        # the logs are there as a boot would leave them, and say where they come from
        self.assertEqual(read(self.p("build/runs/g/results.ktap")), self.results)
        self.assertTrue(os.path.exists(self.p("build/runs/g/cached")))

    def test_a_changed_guest_script_boots_again(self):
        self.run_group()
        write(self.p("tests/guest/g.sh"), "echo g changed\n")
        self.run_group()
        self.assertEqual(len(self.boots), 2)

    def test_a_changed_kernel_boots_again(self):
        self.run_group()
        write(self.p("build/kobj-default/vmlinux"), "kernel rebuilt")
        self.run_group()
        self.assertEqual(len(self.boots), 2)

    def test_a_failure_is_not_kept_and_drops_the_kept_pass(self):
        self.run_group()
        self.results = "TAP version 13\n1..1\nnot ok 1 works\n"
        res = self.run_group(STORE)
        self.assertTrue(any(r.status == "not ok" for r in res))
        self.assertEqual(os.listdir(self.p("build/result-cache")), [])
        self.run_group()
        self.assertEqual(len(self.boots), 3)

    def test_no_cache_boots_and_refreshes(self):
        self.run_group()
        self.run_group(no_cache=True)
        self.assertEqual(len(self.boots), 2)
        self.run_group()
        self.assertEqual(len(self.boots), 2)

    def test_off_neither_reads_nor_keeps(self):
        self.run_group(OFF)
        self.run_group(OFF)
        self.assertEqual(len(self.boots), 2)
        self.assertFalse(os.path.exists(self.p("build/result-cache")))

    def test_never_on_a_debug_kernel(self):
        s = Session(Settings(flavour="debug"))
        self.assertEqual(s.cache_mode(USE), OFF)
        self.assertEqual(s.cache_mode(STORE), OFF)


class Report(unittest.TestCase):
    def test_a_cached_result_says_so_and_still_counts(self):
        res = [ktap.Result("g: a", ktap.PASS, cached=True), ktap.Result("h: b", ktap.PASS),
               ktap.Result("g: c", ktap.SKIP, ["why"], cached=True)]
        out = io.StringIO()
        ktap.report(res, out=out)
        self.assertEqual(out.getvalue().splitlines(),
                         ["PASS  g: a (cached)", "PASS  h: b", "SKIP  g: c  (why) (cached)"])
        out = io.StringIO()
        with mock.patch.object(ktap, "report"), contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(report.finish(res), 0)
        lines = out.getvalue().splitlines()
        self.assertIn("2 of 3 results", lines[0])
        self.assertEqual(lines[-1], "2 passed, 0 failed, 1 skipped")

if __name__ == "__main__":
    unittest.main()
