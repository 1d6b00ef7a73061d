# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""The kernel value, the settings read from the environment, and the session
that ties them: which kernel a run builds and boots."""
import os
import unittest

from fsrig.common import BUILD, TOP, RigError
from fsrig.kernel import Kernel, obj_dir
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

    def test_obj_dir_of_vmlinux_and_bzimage(self):
        self.assertEqual(obj_dir("/b/kobj-default/vmlinux"), "/b/kobj-default")
        self.assertEqual(obj_dir("/b/kobj-default/arch/x86/boot/bzImage"), "/b/kobj-default")


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

    def test_the_flavour_option_wins_over_the_variable(self):
        s = Settings.from_environ({"RIG_KERNEL_FLAVOUR": "bench"}, flavour="debug")
        self.assertEqual(s.kernel(), Kernel(flavour="debug"))

    def test_rig_bzimage_replaces_the_patched_default_kernel_only(self):
        env = {"RIG_BZIMAGE": "build/kdev-obj/vmlinux"}
        self.assertEqual(Settings.from_environ(env).kernel().prebuilt, os.path.abspath("build/kdev-obj/vmlinux"))
        self.assertEqual(Settings.from_environ(dict(env, RIG_STOCK="1")).kernel().prebuilt, "")
        self.assertEqual(Settings.from_environ(env, flavour="modules").kernel().prebuilt, "")


class SessionKernel(unittest.TestCase):
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


if __name__ == "__main__":
    unittest.main()
