# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""tests/groups.conf: parsing, validation and which groups a run selects."""
import os
import unittest

from fsrig import groups, images
from fsrig.common import TOP, RigError, read
from fsrig.groups import Group

CONF = """\
# a comment
[plain]

[full]
images = ext4-256 xfs-v4
cmdline = a=1 b
rtc = 2038-01-20
timeout = 30
env = LOOPS=5
debug_env = LOOPS=1
args = -r x
smp = 2
icount = yes
flavour = modules
sleeps = yes
expect_panic = Kernel panic
not_a_key = ignored

[kselftest]
selftest = filesystems/deprecation/deprecation_test
env = LOOPS=20

[demo]
kind = demo

[bench]
kind = bench

[stock]
kind = stock

[pending]
kind = pending

[debug-only]
kind = debug

[on-modules-debug]
kind = debug
flavour = modules-debug
timeout = 10

[on-modules]
flavour = modules
"""
FLAVOURS = {"modules", "modules-debug", "debug"}


def parse(text=CONF, debug=False, scale=8):
    return groups.parse(text, debug, scale, flavour_exists=lambda f: f in FLAVOURS)


class GroupsConf(unittest.TestCase):
    def test_a_section_without_keys_gets_the_defaults(self):
        self.assertEqual(parse()["plain"], Group("plain"))
        self.assertEqual(Group("plain").timeout, 120)
        self.assertEqual(Group("plain").kind, "check")

    def test_every_key_is_read(self):
        g = parse()["full"]
        self.assertEqual(g.images, ("ext4-256", "xfs-v4"))
        self.assertEqual((g.cmdline, g.rtc, g.timeout, g.env, g.args, g.smp), ("a=1 b", "2038-01-20", 30,
                                                                                 "LOOPS=5", "-r x", 2))
        self.assertTrue(g.icount and g.sleeps)
        self.assertEqual((g.flavour, g.expect_panic), ("modules", "Kernel panic"))
        self.assertFalse(g.extras)

    def test_unknown_keys_are_ignored(self):
        self.assertFalse(hasattr(parse()["full"], "not_a_key"))

    def test_selftest_implies_extras(self):
        self.assertTrue(parse()["kselftest"].extras)
        self.assertTrue(parse("[x]\nextras = yes\n")["x"].extras)

    def test_sections_keep_the_file_order(self):
        self.assertEqual(list(parse())[:3], ["plain", "full", "kselftest"])

    def test_debug_kernel_scales_timeouts(self):
        self.assertEqual(parse(debug=True, scale=8)["full"].timeout, 240)
        self.assertEqual(parse(debug=True, scale=3)["plain"].timeout, 360)

    def test_debug_env_replaces_env_on_the_debug_kernel_only(self):
        self.assertEqual(parse()["full"].env, "LOOPS=5")
        self.assertEqual(parse(debug=True)["full"].env, "LOOPS=1")
        self.assertEqual(parse(debug=True)["kselftest"].env, "LOOPS=20")

    def test_a_debug_flavour_of_its_own_scales_its_timeout_everywhere(self):
        self.assertEqual(parse(scale=8)["on-modules-debug"].timeout, 80)
        self.assertEqual(parse(scale=8)["on-modules"].timeout, 120)

    def test_rootfs_must_be_the_first_image(self):
        self.assertEqual(parse("[r]\nrootfs = a\nimages = a b\n")["r"].rootfs, "a")
        with self.assertRaisesRegex(RigError, r"\[r\]: rootfs must be the first image"):
            parse("[r]\nrootfs = b\nimages = a b\n")
        with self.assertRaisesRegex(RigError, r"\[r\]: rootfs must be the first image"):
            parse("[r]\nrootfs = b\n")

    def test_hostroot_is_a_known_type_without_rootfs(self):
        self.assertEqual(parse("[h]\nhostroot = cramfs\n")["h"].hostroot, "cramfs")
        with self.assertRaisesRegex(RigError, r"\[h\]: hostroot must be one of cramfs"):
            parse("[h]\nhostroot = ext4\n")
        with self.assertRaisesRegex(RigError, r"\[h\]: hostroot must be one of cramfs, without rootfs"):
            parse("[h]\nhostroot = cramfs\nrootfs = a\nimages = a\n")

    def test_system_is_a_known_suite_without_rootfs_or_hostroot(self):
        self.assertEqual(parse("[s]\nsystem = trixie\n")["s"].system, "trixie")
        with self.assertRaisesRegex(RigError, r"\[s\]: system must be one of trixie"):
            parse("[s]\nsystem = sid\n")
        with self.assertRaisesRegex(RigError, r"\[s\]: system must be one of trixie, bookworm, without rootfs or hostroot"):
            parse("[s]\nsystem = trixie\nhostroot = cramfs\n")
        self.assertEqual(parse("[s]\nsystem = trixie\nsystem_root = ext4-128\n")["s"].system_root, "ext4-128")
        with self.assertRaisesRegex(RigError, r"\[s\]: system_root must be one of ext4, ext4-128"):
            parse("[s]\nsystem = trixie\nsystem_root = xfs\n")

    def test_unknown_kind_is_an_error(self):
        with self.assertRaisesRegex(RigError, r"\[k\]: kind must be"):
            parse("[k]\nkind = slow\n")

    def test_unknown_flavour_is_an_error(self):
        with self.assertRaisesRegex(RigError, r"\[f\]: no kernel flavour kernel/configs/nosuch/"):
            parse("[f]\nflavour = nosuch\n")

    def test_flavours_are_directories_of_kernel_configs_by_default(self):
        self.assertEqual(groups.parse("[m]\nflavour = modules\n")["m"].flavour, "modules")
        with self.assertRaises(RigError):
            groups.parse("[m]\nflavour = no-such-flavour\n")


class BaseKey(unittest.TestCase):
    CONF = "[a]\n[on-73]\nbase = 7.3\n[on-73-modules]\nbase = 7.3\nflavour = modules\n" \
           "[on-modules]\nflavour = modules\n[debug-73]\nbase = 7.3\nkind = debug\n[pending-73]\nbase = 7.3\nkind = pending\n"

    def parse(self, debug=False):
        return groups.parse(self.CONF, debug, flavour_exists=lambda f, b="6.12": f == "modules")

    def test_the_base_is_read(self):
        allg = self.parse()
        self.assertEqual((allg["a"].base, allg["on-73"].base, allg["on-73-modules"].flavour), ("", "7.3", "modules"))

    def test_an_unknown_base_is_an_error(self):
        with self.assertRaisesRegex(RigError, r"\[b\]: unknown kernel base '5.10'; bases: 6.12, 7.3, 6.1"):
            parse("[b]\nbase = 5.10\n")

    def test_a_flavour_must_exist_on_the_groups_base(self):
        with self.assertRaisesRegex(RigError, r"\[m\]: no kernel flavour kernel/7.3/configs/bench-debug/"):
            groups.parse("[m]\nbase = 7.3\nflavour = bench-debug\n")
        self.assertEqual(groups.parse("[m]\nbase = 7.3\nflavour = modules\n")["m"].flavour, "modules")
        groups.parse("[m]\nflavour = modules-debug\n")
        with self.assertRaisesRegex(RigError, r"\[m\]: no kernel flavour kernel/configs/system/"):
            groups.parse("[m]\nflavour = system\n")

    def test_check_on_the_default_base_runs_every_base(self):
        self.assertEqual(groups.for_check(self.parse()), ["a", "on-73", "on-73-modules", "on-modules"])

    def test_check_on_7_3_runs_that_bases_groups_only(self):
        self.assertEqual(groups.for_check(self.parse(), base="7.3"), ["on-73", "on-73-modules"])

    def test_check_debug_leaves_other_bases_out_unless_of_kind_debug(self):
        self.assertEqual(groups.for_check(self.parse(debug=True), debug=True), ["a", "debug-73"])

    def test_check_debug_on_7_3_runs_that_bases_groups_without_a_flavour(self):
        # The groups of base 7.3 on its debug kernel; a modules group would
        # need a modules-debug flavour of its own.
        self.assertEqual(groups.for_check(self.parse(debug=True), debug=True, base="7.3"), ["on-73", "debug-73"])

    def test_the_kernels_groups_ask_for(self):
        allg = self.parse()
        self.assertEqual(groups.kernels(allg, list(allg)),
                         [("7.3", ""), ("7.3", "modules"), ("", "modules")])
        self.assertEqual(groups.kernels(allg, ["a"]), [])

    def test_a_bases_default_kernel_is_built_before_its_flavours(self):
        # A new modules build starts from the default kernel's objects
        # (rig/kernel.sh, a flavour's file "seed") when that one is built.
        allg = groups.parse("[m]\nbase = 7.3\nflavour = modules\n[d]\nbase = 7.3\n[e]\nbase = 6.1\n"
                            "[n]\nflavour = modules\n")
        self.assertEqual(groups.kernels(allg, ["m", "n", "d", "e"]),
                         [("7.3", ""), ("7.3", "modules"), ("", "modules"), ("6.1", "")])


class Selection(unittest.TestCase):
    def test_check_runs_the_groups_of_kind_check_with_their_flavours(self):
        self.assertEqual(groups.for_check(parse()), ["plain", "full", "kselftest", "on-modules"])

    def test_check_debug_adds_kind_debug_and_drops_other_flavours(self):
        self.assertEqual(groups.for_check(parse(debug=True), debug=True),
                         ["plain", "kselftest", "debug-only", "on-modules-debug"])

    def test_check_debug_leaves_the_bases_copies_to_their_own_base(self):
        # A debug group with `bases = 7.3` runs on 7.3's debug kernel under
        # `check --flavour debug --base 7.3`, not in the default base's run too.
        allg = groups.parse("[plain]\n[dbg]\nkind = debug\nbases = 7.3\n", debug=True)
        self.assertEqual(groups.for_check(allg, debug=True), ["plain", "dbg"])
        self.assertEqual(groups.for_check(allg, debug=True, base="7.3"), ["dbg@7.3"])

    def test_check_debug_leaves_the_system_guests_out_on_every_base(self):
        # The debug kernels lack systemd's options (kernel/configs/system.config).
        allg = groups.parse("[plain]\n[sys]\nbases = 7.3\nsystem = trixie\n", debug=True,
                            flavour_exists=lambda f, b="6.12": False)
        self.assertEqual(groups.for_check(allg), ["plain", "sys", "sys@7.3"])
        self.assertEqual(groups.for_check(allg, debug=True), ["plain"])
        self.assertEqual(groups.for_check(allg, debug=True, base="7.3"), [])

    def test_demo_bench_by_kind(self):
        self.assertEqual(groups.of_kind(parse(), "demo"), ["demo"])
        self.assertEqual(groups.of_kind(parse(), "bench"), ["bench"])
        self.assertNotIn("pending", groups.for_check(parse()))
        self.assertNotIn("stock", groups.for_check(parse()))

    def test_named_groups_must_exist(self):
        self.assertEqual(groups.check_names(parse(), ["pending", "plain"]), ["pending", "plain"])
        with self.assertRaisesRegex(RigError, r"unknown group 'nosuch'; groups: plain, full, "):
            groups.check_names(parse(), ["plain", "nosuch"])

    def test_flavours_asked_for_once_each_in_order(self):
        allg = parse()
        self.assertEqual(groups.flavours(allg, list(allg)), ["modules", "modules-debug"])
        self.assertEqual(groups.flavours(allg, ["plain"]), [])

    def test_unknown_group_for_boot_gets_defaults(self):
        self.assertEqual(groups.unknown("x", 960), Group("x", timeout=960))


class TheProjectsGroups(unittest.TestCase):
    """tests/groups.conf itself, as the rig reads it."""

    def setUp(self):
        self.allg = groups.load()
        self.recipes = images.recipes(read(images.IMAGES_CONF))

    def test_groups_conf_parses(self):
        self.assertTrue(groups.for_check(self.allg))
        groups.load(debug=True)

    def test_every_image_is_in_images_conf(self):
        for g in self.allg.values():
            for i in g.images:
                base = i[:-len(images.DIRTY)] if i.endswith(images.DIRTY) else i
                self.assertIn(base, self.recipes, f"[{g.name}] images = {i}")

    def test_every_group_has_something_to_run(self):
        for g in self.allg.values():
            d = "system" if g.system else "guest"
            script = os.path.join(TOP, "tests", d, (g.script or g.name) + ".sh")
            self.assertTrue(g.selftest or g.expect_panic or os.access(script, os.X_OK),
                            f"[{g.name}]: no selftest =, no expect_panic = and no executable {script}")

    def test_base_7_3_groups_boot_on_7_3(self):
        """Groups named v73-* and the copies of bases = 7.3 (NAME@7.3) are the
        7.3 base's, and only they ask for it."""
        v73 = [n for n, g in self.allg.items() if g.base == "7.3"]
        self.assertTrue(v73)
        self.assertEqual(v73, [n for n in self.allg if n.startswith("v73-") or n.endswith("@7.3")])

    def test_bases_copies(self):
        """bases = 7.3: a copy NAME@7.3 on that base, running NAME's script,
        without the images of the filesystems 7.3 no longer has."""
        text = "[g]\nbases = 7.3\nimages = reiserfs36 ext2 reiserfs35-dirty xfs-v4\ncmdline = x=1\n"
        allg = groups.parse(text, removed=lambda b: ("reiserfs",) if b == "7.3" else ())
        self.assertEqual(list(allg), ["g", "g@7.3"])
        c = allg["g@7.3"]
        self.assertEqual((c.base, c.script, c.images, c.cmdline), ("7.3", "g", ("ext2", "xfs-v4"), "x=1"))
        self.assertEqual((allg["g"].base, allg["g"].script), ("", ""))
        with self.assertRaises(Exception):
            groups.parse("[g]\nbases = 6.12\n")
        with self.assertRaises(Exception):
            groups.parse("[g]\nbase = 7.3\nbases = 7.3\n")
        with self.assertRaises(Exception):
            groups.parse("[g]\nbases = 7.3\nimages = reiserfs-root\nrootfs = reiserfs-root\n",
                         removed=lambda b: ("reiserfs",))

    def test_removed_filesystems_of_7_3(self):
        self.assertIn("reiserfs", groups.removed_filesystems("7.3"))
        self.assertEqual(groups.removed_filesystems("6.12"), ())

    def test_system_groups_boot_a_kernel_with_systemds_needs(self):
        """systemd needs what kernel/configs/system.config gives (cgroups, AF_UNIX, ...):
        the default flavour of 6.12 takes every top-level fragment, another base's
        names it in kernel/BASE/configs/shared; every base has system groups."""
        self.assertTrue(os.path.isfile(os.path.join(TOP, "kernel", "configs", "system.config")))
        bases = set()
        for g in self.allg.values():
            if not g.system:
                continue
            self.assertEqual(g.flavour, "", f"[{g.name}]")
            bases.add(g.base or "6.12")
            if g.base:
                with open(os.path.join(TOP, "kernel", g.base, "configs", "shared")) as f:
                    shared = [ln.split("#")[0].strip() for ln in f]
                self.assertIn("system.config", shared, f"[{g.name}]")
        self.assertEqual(bases, {"6.12", "7.3", "6.1"})

    def test_system_roots_are_the_formats_the_rig_makes(self):
        from fsrig import system
        self.assertEqual(set(groups.SYSTEM_SUITES), set(system.SUITES))
        self.assertEqual(set(groups.SYSTEM_ROOTS), set(system.ROOT_FORMATS))

    def test_every_comparison_pair_is_defined(self):
        from fsrig import compare
        for series, stock, _, _ in compare.PAIRS.values():
            self.assertIn(series, self.allg)
            self.assertIn(stock, self.allg)

    def test_demo_groups_exist(self):
        self.assertTrue(groups.of_kind(self.allg, "demo"))


if __name__ == "__main__":
    unittest.main()
