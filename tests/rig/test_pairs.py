# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""The comparison pairs on every base: the stock side's reference cache and
logs under the base's build root, the selftests and fs KUnit suites a
kernel's tree has."""
import os
import tempfile
import unittest
from unittest import mock

from fsrig import initramfs, reference
from fsrig.common import RigError


class FakeQueue:
    """A boot queue that records where a boot was asked to log."""

    def __init__(self):
        self.run_dirs = []

    def boot(self, accel, bz, initrd, name, images, cmdline, rtc, timeout, smp, run_dir=None):
        self.run_dirs.append(run_dir)
        return {"console": "", "results": "", "status": "0", "seconds": 1.0, "cpu": 1.0}


class ReferenceRoot(unittest.TestCase):
    def test_another_base_keeps_its_own_reference(self):
        with tempfile.TemporaryDirectory() as tmp:
            bz = os.path.join(tmp, "vmlinux")
            with open(bz, "w") as f:
                f.write("kernel")
            root = os.path.join(tmp, "v73")
            q = FakeQueue()
            reference.reference_boot(q, lambda r: [], "tcg", bz, None, "upstream-stock", {}, root=root)
            self.assertEqual(q.run_dirs, [os.path.join(root, "runs", "upstream-stock")])
            self.assertTrue(os.path.isfile(os.path.join(root, "reference", "upstream-stock.json")))
            # The same boot again comes from that base's record, into its runs
            reference.reference_boot(q, lambda r: [], "tcg", bz, None, "upstream-stock", {}, root=root)
            self.assertEqual(len(q.run_dirs), 1)
            self.assertTrue(os.path.isfile(os.path.join(root, "runs", "upstream-stock", "reference")))


class TreeContents(unittest.TestCase):
    def tree(self, tmp, files):
        for f in files:
            os.makedirs(os.path.dirname(os.path.join(tmp, f)), exist_ok=True)
            open(os.path.join(tmp, f), "w").close()
        return tmp

    def test_fs_kunit_suites_of_the_tree(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = self.tree(tmp, ["fs/ext4/inode-test.c", "fs/fat/fat_test.c"])
            self.assertEqual(initramfs.fs_kunit_suites(src), ["ext4_inode_test", "fat_test"])

    def test_absent_selftest_directories_are_listed(self):
        with tempfile.TemporaryDirectory() as tmp, \
                mock.patch.object(initramfs, "selftest_dirs", return_value=["filesystems/statmount"]):
            dest = os.path.join(tmp, "dest")
            initramfs.build_selftests(os.path.join(tmp, "src"), os.path.join(tmp, "obj"), dest)
            with open(os.path.join(dest, "absent")) as f:
                self.assertEqual(f.read(), "filesystems/statmount\n")

    def test_a_directory_the_series_adds_must_be_there(self):
        with tempfile.TemporaryDirectory() as tmp, \
                mock.patch.object(initramfs, "selftest_dirs", return_value=["filesystems/deprecation"]):
            patches = os.path.join(tmp, "patches")
            os.makedirs(patches)
            with open(os.path.join(patches, "0011-selftests.patch"), "w") as f:
                f.write("+++ b/tools/testing/selftests/filesystems/deprecation/Makefile\n")
            dest = os.path.join(tmp, "dest")
            with self.assertRaises(RigError):
                initramfs.build_selftests(os.path.join(tmp, "src"), os.path.join(tmp, "obj"), dest,
                                          patches_dir=patches)
            # The stock tree (no series) lacks it: listed, not an error
            initramfs.build_selftests(os.path.join(tmp, "src"), os.path.join(tmp, "obj"), dest)
            with open(os.path.join(dest, "absent")) as f:
                self.assertEqual(f.read(), "filesystems/deprecation\n")


if __name__ == "__main__":
    unittest.main()
