# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""The kernel value, the settings read from the environment, and the session
that ties them: which kernel a run builds and boots."""
import os
import subprocess
import sys
import tempfile
import unittest

from fsrig.common import BUILD, TOP, RigError
from fsrig.kernel import BASES, Kernel, obj_dir
from fsrig.commands import ahead_pairs
from fsrig.session import Session, Settings


class KernelValue(unittest.TestCase):
    def test_the_default_kernel_is_the_series_on_6_12(self):
        k = Kernel()
        self.assertEqual((k.base, k.flavour, k.stock, k.prebuilt), ("6.12", "default", False, ""))
        self.assertEqual(k.obj_name, "kobj-default")
        self.assertEqual(k.label, "kernel default")
        self.assertEqual(k.src_dir, os.path.join(BUILD, "linux"))
        self.assertEqual(k.patches_dir, os.path.join(TOP, "kernel", "patches"))
        self.assertEqual(k.configs_dir, os.path.join(TOP, "kernel", "configs"))
        self.assertIsNone(k.flavour_dir)
        self.assertEqual(k.build_cmd(), [os.path.join(TOP, "rig", "kernel.sh")])

    def test_stock_is_the_same_config_without_the_series(self):
        k = Kernel().as_stock()
        self.assertEqual((k.obj_name, k.label), ("kobj-stock-default", "kernel stock-default"))
        self.assertEqual(k.src_dir, os.path.join(BUILD, "linux-stock"))
        self.assertIsNone(k.patches_dir)
        self.assertEqual(k.build_cmd()[1:], ["--stock"])
        self.assertEqual(Kernel(flavour="modules").as_stock().build_cmd()[1:], ["--stock", "--flavour", "modules"])

    def test_a_flavour(self):
        k = Kernel().with_flavour("modules")
        self.assertEqual((k.obj_name, k.label), ("kobj-modules", "kernel modules"))
        self.assertEqual(k.flavour_dir, os.path.join(TOP, "kernel", "configs", "modules"))
        self.assertEqual(k.build_cmd()[1:], ["--flavour", "modules"])
        self.assertEqual(Kernel().with_flavour(""), Kernel())

    def test_debug_kernels(self):
        self.assertTrue(Kernel(flavour="debug").debug)
        self.assertTrue(Kernel(flavour="modules-debug").debug)
        self.assertFalse(Kernel(flavour="modules").debug)
        self.assertFalse(Kernel().debug)

    def test_a_prebuilt_kernel_stands_for_the_series_default_only(self):
        k = Kernel(prebuilt="/x/vmlinux")
        self.assertEqual(k.with_flavour("modules").prebuilt, "")
        self.assertEqual(k.as_stock().prebuilt, "")

    def test_values_are_the_keys_of_what_a_run_prepared(self):
        self.assertEqual(Kernel(flavour=""), Kernel(flavour="default"))
        self.assertEqual(hash(Kernel(flavour="")), hash(Kernel()))
        distinct = {Kernel(), Kernel().as_stock(), Kernel(flavour="modules"), Kernel(prebuilt="/x/vmlinux"),
                    Kernel(flavour="modules").as_stock()}
        self.assertEqual(len(distinct), 5)
        with self.assertRaises(Exception):
            Kernel().flavour = "modules"

    def test_an_unknown_base_is_an_error(self):
        with self.assertRaisesRegex(RigError, "unknown kernel base '2.6'"):
            Kernel(base="2.6")

    def test_a_base_is_known_by_its_directory(self):
        self.assertEqual(Kernel(base="7.3").base_dir, os.path.join(TOP, "kernel", "7.3"))
        for base in BASES:
            self.assertTrue(os.path.isfile(os.path.join(Kernel(base=base).base_dir, "base-version")), base)
            self.assertTrue(os.path.isdir(Kernel(base=base).configs_dir), base)

    def test_obj_dir_of_vmlinux_and_bzimage(self):
        self.assertEqual(obj_dir("/b/kobj-default/vmlinux"), "/b/kobj-default")
        self.assertEqual(obj_dir("/b/kobj-default/arch/x86/boot/bzImage"), "/b/kobj-default")


class Bases(unittest.TestCase):
    """The default base keeps the paths it always had; another base builds in
    build/vNN/, so that two bases never share a tree, objects or logs."""

    def test_6_12_paths_are_unchanged(self):
        k = Kernel()
        self.assertEqual((k.tag, k.build_root, k.runs_dir), ("", BUILD, os.path.join(BUILD, "runs")))
        self.assertEqual(k.obj_dir, os.path.join(BUILD, "kobj-default"))
        self.assertEqual(k.obj_key, "kobj-default")
        self.assertEqual(Kernel(flavour="modules").as_stock().obj_dir, os.path.join(BUILD, "kobj-stock-modules"))
        self.assertEqual(Kernel(base="6.12"), Kernel())
        self.assertEqual(Kernel().with_base(""), Kernel())
        self.assertEqual(Kernel().with_base("6.12").build_cmd(), [os.path.join(TOP, "rig", "kernel.sh")])

    def test_7_3_paths(self):
        k = Kernel(base="7.3")
        v73 = os.path.join(BUILD, "v73")
        self.assertEqual((k.tag, k.build_root, k.runs_dir), ("v73", v73, os.path.join(v73, "runs")))
        self.assertEqual(k.obj_dir, os.path.join(v73, "kobj-default"))
        self.assertEqual(k.obj_key, "v73/kobj-default")
        self.assertEqual(k.src_dir, os.path.join(v73, "linux"))
        self.assertEqual(k.as_stock().src_dir, os.path.join(v73, "linux-stock"))
        self.assertEqual(k.as_stock().obj_dir, os.path.join(v73, "kobj-stock-default"))
        self.assertEqual(k.patches_dir, os.path.join(TOP, "kernel", "7.3", "patches"))
        self.assertEqual(k.configs_dir, os.path.join(TOP, "kernel", "7.3", "configs"))
        self.assertEqual(k.with_flavour("modules").flavour_dir, os.path.join(TOP, "kernel", "7.3", "configs", "modules"))
        self.assertEqual(k.label, "kernel 7.3 default")
        self.assertEqual(k.as_stock().label, "kernel 7.3 stock-default")
        self.assertEqual(k.build_cmd()[1:], ["--base", "7.3"])
        self.assertEqual(k.with_flavour("modules").as_stock().build_cmd()[1:],
                         ["--base", "7.3", "--stock", "--flavour", "modules"])

    def test_no_two_kernels_share_a_path(self):
        kernels = [Kernel(base=b, flavour=f, stock=s) for b in BASES for f in ("default", "modules", "debug")
                   for s in (False, True)]
        for what in ("obj_dir", "obj_key", "label"):
            self.assertEqual(len({getattr(k, what) for k in kernels}), len(kernels), what)
        self.assertEqual(len({(k.src_dir, k.stock) for k in kernels}), 2 * len(BASES))
        self.assertEqual(len({k.src_dir for k in kernels}), 2 * len(BASES))
        self.assertEqual(len({k.runs_dir for k in kernels}), len(BASES))

    def test_with_base_keeps_flavour_and_stock_not_a_prebuilt_image(self):
        k = Kernel(flavour="modules", stock=True).with_base("7.3")
        self.assertEqual((k.base, k.flavour, k.stock), ("7.3", "modules", True))
        self.assertEqual(Kernel(prebuilt="/x/vmlinux").with_base("7.3").prebuilt, "")
        self.assertEqual(Kernel(base="7.3").with_base(""), Kernel())

    def test_an_unknown_base_from_the_environment_is_an_error(self):
        with self.assertRaisesRegex(RigError, "unknown kernel base '7.4'; bases: 6.12, 7.3"):
            Settings.from_environ({"RIG_BASE": "7.4"}).kernel()

    def test_initramfs_and_root_images_are_named_per_base(self):
        from fsrig import initramfs
        self.assertEqual(initramfs.kernel_tag(os.path.join(BUILD, "initramfs-kobj-default.cpio")), "kobj-default")
        self.assertEqual(initramfs.kernel_tag(os.path.join(BUILD, "v73", "initramfs-kobj-default.cpio")),
                         "v73-kobj-default")


class Ccache(unittest.TestCase):
    """rig/ccache.sh: the kernel make through ccache, or as it is."""

    def env_of(self, **env):
        r = subprocess.run([os.path.join(TOP, "rig", "ccache.sh"), "sh", "-c", 'echo "$PATH|${CCACHE_DEPEND:-}"'],
                           stdout=subprocess.PIPE, text=True, env={**os.environ, **env}, check=True)
        return r.stdout.strip().split("|")

    def test_through_ccache_in_depend_mode(self):
        if not os.access("/usr/lib/ccache/gcc", os.X_OK):
            self.skipTest("ccache is not installed (rig/setup.sh installs it)")
        with tempfile.TemporaryDirectory() as d:
            path, depend = self.env_of(CCACHE_DIR=os.path.join(d, "cache"), RIG_CCACHE="1")
            self.assertEqual((path.split(":")[0], depend), ("/usr/lib/ccache", "1"))
            self.assertTrue(os.path.isdir(os.path.join(d, "cache")))

    def test_without_ccache_the_command_as_it_is(self):
        plain = os.environ["PATH"]
        self.assertEqual(self.env_of(RIG_CCACHE="0", CCACHE_DEPEND=""), [plain, ""])
        # A cache directory that cannot be made: the build goes on without it
        self.assertEqual(self.env_of(CCACHE_DIR="/proc/no-such-cache", CCACHE_DEPEND=""), [plain, ""])


class KernelSh(unittest.TestCase):
    """rig/kernel.sh --paths: the directories a build uses, nothing done."""

    def paths(self, *args, mode="--paths"):
        r = subprocess.run([os.path.join(TOP, "rig", "kernel.sh"), mode, *args],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        return r.returncode, r.stdout.strip(), r.stderr.strip()

    def fields(self, *args):
        rc, out, err = self.paths(*args)
        self.assertEqual(rc, 0, err)
        return dict(w.split("=", 1) for w in out.split())

    def test_6_12_is_the_default_and_unchanged(self):
        f = self.fields()
        self.assertEqual(f, self.fields("--base", "6.12"))
        self.assertEqual((f["series"], f["package"], f["src"], f["obj"], f["stage"]),
                         ("kernel", "linux-source-6.12", "build/linux", "build/kobj-default", "build/stage.PID"))
        f = self.fields("--stock", "--flavour", "modules")
        self.assertEqual((f["src"], f["obj"], f["patches"]), ("build/linux-stock", "build/kobj-stock-modules", "0"))

    def test_7_3(self):
        f = self.fields("--base", "7.3")
        self.assertEqual((f["series"], f["package"], f["src"], f["obj"], f["stage"]),
                         ("kernel/7.3", "linux-source-7.3", "build/v73/linux", "build/v73/kobj-default",
                          "build/v73/stage.PID"))
        # The fixes (kernel/7.3/fixes/, a series of their own) and the series
        n = sum(len([p for p in os.listdir(os.path.join(TOP, "kernel", "7.3", d))
                     if p.endswith(".patch") and not p.startswith("0000-")])
                for d in ("fixes", "patches"))
        self.assertEqual(int(f["patches"]), n)
        f = self.fields("--base", "7.3", "--stock", "--flavour", "modules")
        self.assertEqual((f["src"], f["obj"], f["patches"]), ("build/v73/linux-stock", "build/v73/kobj-stock-modules", "0"))

    def test_6_1(self):
        """kernel/6.1/: its fixes (a series of their own) and its series, both applied."""
        ns = [len([p for p in os.listdir(os.path.join(TOP, "kernel", "6.1", d))
                   if p.endswith(".patch") and not p.startswith("0000-")])
              for d in ("fixes", "patches")]
        self.assertTrue(all(ns))
        self.assertEqual(int(self.fields("--base", "6.1")["patches"]), sum(ns))

    def test_the_python_side_agrees(self):
        for base in BASES:
            for stock in (False, True):
                k = Kernel(base=base, flavour="modules", stock=stock)
                f = self.fields(*k.build_cmd()[1:])
                self.assertEqual(os.path.join(TOP, f["obj"]), k.obj_dir)
                self.assertEqual(os.path.join(TOP, f["src"]), k.src_dir)

    def test_objects_are_built_in_a_subdirectory_of_their_tree(self):
        """kbuild names sources relative to such a directory (srctree ".."),
        which makes an object's compiler command the same in the stock and the
        patched tree and in every checkout: what ccache needs to find it."""
        for base in BASES:
            for stock in (False, True):
                for flavour in ("default", "modules", "debug"):
                    k = Kernel(base=base, flavour=flavour, stock=stock)
                    f = self.fields(*k.build_cmd()[1:])
                    self.assertEqual(os.path.dirname(f["objects"]), f["src"], (base, stock, flavour))
                    # $obj, the path the rest of the rig uses, links there
                    self.assertEqual(os.path.basename(f["objects"]), os.path.basename(f["obj"]))

    def fragments(self, *args):
        rc, out, err = self.paths(*args, mode="--fragments")
        self.assertEqual((rc, err), (0, ""))
        return out.split()

    def test_a_seeded_flavour_is_its_seeds_configuration_and_more(self):
        """A new modules build starts from the default kernel's objects
        (kernel.sh step 2): worth it only while the modules configuration is
        the default one with the flavour's own fragments last."""
        for base in BASES:
            default = self.fragments("--base", base)
            mods = self.fragments("--base", base, "--flavour", "modules")
            self.assertEqual(mods[:len(default)], default, base)
            own = os.path.join(BASES[base], "configs", "modules") + os.sep
            self.assertTrue(mods[len(default):] and all(f.startswith(own) for f in mods[len(default):]),
                            (base, mods[len(default):]))
            f = self.fields("--base", base, "--flavour", "modules")
            self.assertEqual(f["seed"], self.fields("--base", base)["obj"], base)

    def test_only_the_test_kernels_are_tuned_and_lean(self):
        """tcg.config and lean.config are for the kernels the guests boot
        under TCG (default, modules, and so their stock twins) on every
        base; the bench kernels are measured as distributions build them and
        the debug ones keep what their checkers may reach."""
        tuned = {"kernel/configs/tcg.config", "kernel/configs/lean.config"}
        for base in BASES:
            for flavour in ("default", "modules", "bench", "debug", "modules-debug"):
                frags = set(self.fragments("--base", base, "--flavour", flavour))
                want = tuned if flavour in ("default", "modules") else set()
                self.assertEqual(frags & tuned, want, (base, flavour))

    def test_a_stock_kernel_starts_from_the_patched_one(self):
        """The same configuration in the other tree of the same package
        (kernel.sh step 2): the patched kernel of the flavour first, then the
        flavour's own seed in the stock tree."""
        for base in BASES:
            for flavour in ("default", "bench", "modules"):
                args = ["--base", base, "--flavour", flavour]
                self.assertEqual(self.fragments(*args, "--stock"), self.fragments(*args))
                seeds = [self.fields(*args)["obj"]]
                if flavour == "modules":
                    seeds.append(self.fields("--base", base, "--stock")["obj"])
                self.assertEqual(self.fields(*args, "--stock")["seed"], ",".join(seeds), args)

    def test_no_seed_unless_the_flavour_names_one(self):
        for args in ([], ["--flavour", "debug"], ["--flavour", "modules-debug"], ["--flavour", "bench"],
                     ["--base", "7.3", "--flavour", "debug"]):
            self.assertEqual(self.fields(*args)["seed"], "none", args)

    def test_unknown_and_bad_bases(self):
        self.assertEqual(self.paths("--base", "2.6")[::2], (1, "rig/kernel: error: unknown base 2.6: no kernel/2.6/base-version"))
        for bad in ("../7.3", "7.3/..", "", ".7"):
            rc, _, err = self.paths("--base", bad)
            self.assertEqual((rc, err), (1, f"rig/kernel: error: bad base '{bad}'"), bad)
        self.assertEqual(self.paths("--base")[::2], (1, "rig/kernel: error: --base needs a version"))


class Cli(unittest.TestCase):
    def test_an_unknown_base_fails_before_waiting_for_another_run(self):
        """rig.py checks the base before it takes build/.rig.lock (another run may hold it)."""
        for args, env in ((["--base", "5.10"], {}), ([], {"RIG_BASE": "7.4"})):
            r = subprocess.run([sys.executable, os.path.join(TOP, "rig", "rig.py"), "run", *args, "v73-kunit"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30,
                               env=dict(os.environ, **env))
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertRegex(r.stderr, r"error: unknown kernel base '(5\.10|7\.4)'; bases: 6\.12, 7\.3, 6\.1")


class SettingsFromEnviron(unittest.TestCase):
    def test_defaults(self):
        s = Settings.from_environ({})
        self.assertEqual(s, Settings())
        self.assertEqual((s.accel, s.qemu_nice, s.debug_timeout_scale, s.progress_interval), ("", "5", 8, 10.0))
        self.assertTrue(s.reference_cache)
        self.assertEqual(s.kernel(), Kernel())

    def test_variables(self):
        s = Settings.from_environ({"RIG_JOBS": "3", "RIG_ACCEL": "tcg", "RIG_QEMU_NICE": "0",
                                   "RIG_DEBUG_TIMEOUT_SCALE": "2", "RIG_PROGRESS_INTERVAL": "1.5",
                                   "RIG_NO_REFERENCE_CACHE": "1"})
        self.assertEqual((s.jobs, s.accel, s.qemu_nice, s.debug_timeout_scale, s.progress_interval),
                         (3, "tcg", "0", 2, 1.5))
        self.assertFalse(s.reference_cache)

    def test_stock_and_flavour(self):
        self.assertEqual(Settings.from_environ({"RIG_STOCK": "1"}).kernel(), Kernel(stock=True))
        self.assertEqual(Settings.from_environ({"RIG_STOCK": "0"}).kernel(), Kernel())
        self.assertEqual(Settings.from_environ({"RIG_KERNEL_FLAVOUR": "bench", "RIG_STOCK": "1"}).kernel(),
                         Kernel(flavour="bench", stock=True))

    def test_base(self):
        self.assertEqual(Settings.from_environ({"RIG_BASE": "7.3"}).kernel(), Kernel(base="7.3"))
        self.assertEqual(Settings.from_environ({"RIG_BASE": "7.3"}, base="6.12").kernel(), Kernel())
        self.assertEqual(Settings.from_environ({}, base="7.3").kernel(), Kernel(base="7.3"))
        self.assertEqual(Settings.from_environ({"RIG_BASE": "7.3", "RIG_STOCK": "1"}, flavour="modules").kernel(),
                         Kernel(base="7.3", flavour="modules", stock=True))

    def test_the_flavour_option_wins_over_the_variable(self):
        s = Settings.from_environ({"RIG_KERNEL_FLAVOUR": "bench"}, flavour="debug")
        self.assertEqual(s.kernel(), Kernel(flavour="debug"))

    def test_rig_bzimage_replaces_the_patched_default_kernel_only(self):
        env = {"RIG_BZIMAGE": "build/kdev-obj/vmlinux"}
        self.assertEqual(Settings.from_environ(env).kernel().prebuilt, os.path.abspath("build/kdev-obj/vmlinux"))
        self.assertEqual(Settings.from_environ(dict(env, RIG_STOCK="1")).kernel().prebuilt, "")
        self.assertEqual(Settings.from_environ(env, flavour="modules").kernel().prebuilt, "")


class SessionKernel(unittest.TestCase):
    def test_a_groups_kernel(self):
        s = Session(Settings())
        self.assertEqual(s.group_kernel(), Kernel())
        self.assertEqual(s.group_kernel("7.3"), Kernel(base="7.3"))
        self.assertEqual(s.group_kernel("7.3", "modules"), Kernel(base="7.3", flavour="modules"))
        s = Session(Settings(base="7.3", stock=True))
        self.assertEqual(s.group_kernel(), Kernel(base="7.3", stock=True))
        self.assertEqual(s.group_kernel("6.12", "modules"), Kernel(flavour="modules", stock=True))

    def test_an_unknown_base_stops_the_session(self):
        with self.assertRaisesRegex(RigError, "unknown kernel base '7'"):
            Session(Settings(base="7"))

    def test_a_run_on_the_debug_kernel(self):
        s = Session(Settings(flavour="debug", debug_timeout_scale=5))
        self.assertTrue(s.debug)
        self.assertEqual(s.timeout_scale, 5)
        self.assertEqual(s.kernel, Kernel(flavour="debug"))

    def test_other_runs(self):
        for flavour in ("", "modules", "modules-debug", "bench"):
            s = Session(Settings(flavour=flavour, debug_timeout_scale=5))
            self.assertFalse(s.debug, flavour)
            self.assertEqual(s.timeout_scale, 1)


class PrepareAhead(unittest.TestCase):
    """While a kernel builds, a later one's tree is unpacked and configured
    (commands.ahead_pairs, rig/kernel.sh --prepare): never one whose tree a
    kernel builds meanwhile."""
    def check_order(self, order):
        pairs = ahead_pairs(order)
        chosen = [n for _, n in pairs]
        self.assertEqual(len(chosen), len(set(chosen)))
        for k, n in pairs:
            i, j = order.index(k), order.index(n)
            self.assertLess(i, j)
            self.assertNotIn(n.src_dir, {m.src_dir for m in order[i:j]}, (k.label, n.label))
        return [(k.label, n.label) for k, n in pairs]

    def test_make_checks_kernels(self):
        order = [Kernel(), Kernel(base="7.3"), Kernel(base="7.3", flavour="modules"), Kernel(base="6.1"),
                 Kernel(base="6.1", flavour="modules"), Kernel(flavour="modules"), Kernel(stock=True)]
        self.assertEqual(self.check_order(order), [
            ("kernel default", "kernel 7.3 default"),       # while 6.12 builds
            ("kernel 7.3 default", "kernel 6.1 default"),   # not 7.3 modules: the same tree
            ("kernel 7.3 modules", "kernel modules"),
            ("kernel 6.1 default", "kernel stock-default"),
        ])

    def test_one_tree_has_nothing_to_prepare_ahead(self):
        self.assertEqual(self.check_order([Kernel(), Kernel(flavour="modules"), Kernel(flavour="debug")]), [])
        self.assertEqual(self.check_order([Kernel(base="7.3")]), [])

    def test_a_prebuilt_kernel_is_not_prepared(self):
        self.assertEqual(self.check_order([Kernel(), Kernel(base="6.1", prebuilt="/x/vmlinux")]), [])

    def test_prepare_stops_before_the_configuration_of_a_seeded_kernel(self):
        """A seed is copied only into an unconfigured object directory:
        kernel.sh --prepare of a stock or modules kernel must leave it so.
        The two exits of --prepare, among the script's steps."""
        with open(os.path.join(TOP, "rig", "kernel.sh")) as f:
            text = f.read()
        seeded = text.index('[ $prepare = 0 ] || [ -z "$seed" ] || exit 0')
        self.assertLess(text.index("# 1. Source tree."), seeded)
        self.assertLess(seeded, text.index("# 2. Objects to start from."))
        configured = text.index("[ $prepare = 0 ] || exit 0")
        self.assertLess(text.index("# 3. Configuration"), configured)
        self.assertLess(configured, text.index("# 4. Kernel image"))


if __name__ == "__main__":
    unittest.main()
