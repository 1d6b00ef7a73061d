# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""Cache keys: what makes the rig redo a step, and what must not."""
import os
import shutil
import tempfile
import unittest
from unittest import mock

from fsrig import images, initramfs, qemu, reference, system
from fsrig.kernel import Kernel
from fsrig.session import Built


def write(path, data, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(data)
    if mode is not None:
        os.chmod(path, mode)


class TempDir(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp(prefix="rig-test-")
        self.addCleanup(shutil.rmtree, self.d)

    def p(self, *parts):
        return os.path.join(self.d, *parts)


class ReferenceKey(TempDir):
    """The stock side's kept record is reused while its key is the same."""

    def setUp(self):
        super().setUp()
        for n in ("vmlinux", "initrd.cpio", "a.img", "b.img"):
            write(self.p(n), n)
        # The run-wide probes, fixed: no gcc or QEMU run by a unit test.
        self.tsc = 2000000
        for name, value in (("host_tsc_khz", lambda: self.tsc), ("drive_aio", lambda: ",aio=io_uring"),
                            ("version", lambda: "QEMU emulator version 7.2.15\n")):
            patcher = mock.patch.object(qemu, name, value)
            patcher.start()
            self.addCleanup(patcher.stop)

    def key(self, cmdline="", rtc="", images=("a", "b"), accel="tcg"):
        return reference.boot_key(accel, self.p("vmlinux"), self.p("initrd.cpio"), "upstream-stock",
                                  {i: self.p(i + ".img") for i in images}, cmdline, rtc, 1, self.p("run"))

    def test_the_same_boot_has_the_same_key(self):
        self.assertEqual(self.key(), self.key())

    def test_not_the_measured_tsc_rate(self):
        k = self.key()
        self.tsc = 2100000
        self.assertEqual(self.key(), k)

    def test_not_the_files_times(self):
        k = self.key()
        os.utime(self.p("a.img"), (1, 1))
        self.assertEqual(self.key(), k)

    def test_the_content_of_kernel_initramfs_and_images(self):
        k = self.key()
        for n in ("vmlinux", "initrd.cpio", "b.img"):
            write(self.p(n), n + " changed")
            self.assertNotEqual(self.key(), k, n)
            write(self.p(n), n)
        self.assertEqual(self.key(), k)

    def test_the_command_line_disks_clock_and_accelerator(self):
        k = self.key()
        self.assertNotEqual(self.key(cmdline="x=1"), k)
        self.assertNotEqual(self.key(rtc="2038-01-20"), k)
        self.assertNotEqual(self.key(images=("a",)), k)
        self.assertNotEqual(self.key(accel="kvm"), k)

    def test_qemus_version_and_the_record_format(self):
        k = self.key()
        with mock.patch.object(qemu, "version", lambda: "QEMU emulator version 8.0\n"):
            self.assertNotEqual(self.key(), k)
        with mock.patch.object(reference, "RECORD_FORMAT", reference.RECORD_FORMAT + 1):
            self.assertNotEqual(self.key(), k)

    def test_key_strips_only_the_tsc_rate(self):
        a = reference.key("v", ["-append", "console=ttyS0 tsc_early_khz=1 tsc=reliable"], ["h"])
        b = reference.key("v", ["-append", "console=ttyS0 tsc_early_khz=2 tsc=reliable"], ["h"])
        c = reference.key("v", ["-append", "console=ttyS0 tsc_early_khz=2 tsc=unstable"], ["h"])
        self.assertEqual(a, b)
        self.assertNotEqual(b, c)


class InitramfsKey(TempDir):
    """The archives are rewritten when the staged content changes, not its times."""

    def setUp(self):
        super().setUp()
        write(self.p("base", "init"), "#!/bin/sh\n", 0o755)
        write(self.p("base", "tests", "a.sh"), "echo a\n", 0o644)
        os.symlink("busybox", self.p("base", "sh"))
        write(self.p("extras", "tests", "selftests", "t"), "ELF", 0o755)

    def key(self):
        return initramfs.content_key((("base", self.p("base")), ("extras", self.p("extras"))))

    def test_not_the_times(self):
        k = self.key()
        os.utime(self.p("base", "init"), (1, 1))
        self.assertEqual(self.key(), k)

    def test_content_mode_and_link_targets(self):
        k = self.key()
        write(self.p("base", "tests", "a.sh"), "echo b\n")
        self.assertNotEqual(self.key(), k)
        write(self.p("base", "tests", "a.sh"), "echo a\n")
        self.assertEqual(self.key(), k)
        os.chmod(self.p("base", "tests", "a.sh"), 0o755)
        self.assertNotEqual(self.key(), k)
        os.chmod(self.p("base", "tests", "a.sh"), 0o644)
        os.unlink(self.p("base", "sh"))
        os.symlink("toybox", self.p("base", "sh"))
        self.assertNotEqual(self.key(), k)

    def test_a_new_file_and_the_part_it_is_in(self):
        k = self.key()
        write(self.p("extras", "new"), "")
        k2 = self.key()
        self.assertNotEqual(k2, k)
        os.rename(self.p("extras", "new"), self.p("base", "new"))
        self.assertNotEqual(self.key(), k2)


class GuestImageKeys(TempDir):
    """NAME-dirty images follow their base and scripts, not the kernel;
    prepared root images follow the kernel and its initramfs too."""

    def setUp(self):
        super().setUp()
        write(self.p("ext4-256.img"), "image")
        self.keys = []
        patcher = mock.patch.object(images, "prepare_image",
                                    lambda *a, **kw: self.keys.append(a[7]) or a[6])
        patcher.start()
        self.addCleanup(patcher.stop)

    def built(self, name):
        write(self.p(name, "vmlinux"), name)
        write(self.p(name, "initramfs-kobj-default.cpio"), name)
        write(self.p(name, "initramfs-kobj-default.cpio.stamp"), name + " content")
        return Built(Kernel(), self.p(name, "vmlinux"), self.p(name), self.p(name, "initramfs-kobj-default.cpio"))

    def test_a_dirty_image_does_not_follow_the_kernel(self):
        images.prepare_dirty(None, "tcg", self.built("series"), "ext4-256-dirty", self.p("ext4-256.img"))
        images.prepare_dirty(None, "tcg", self.built("other"), "ext4-256-dirty", self.p("ext4-256.img"))
        write(self.p("ext4-256.img"), "image changed")
        images.prepare_dirty(None, "tcg", self.built("other"), "ext4-256-dirty", self.p("ext4-256.img"))
        self.assertEqual(self.keys[0], self.keys[1])
        self.assertNotEqual(self.keys[1], self.keys[2])

    def test_dirty_key_follows_base_and_scripts(self):
        k = images.dirty_key("base", "script", "lib")
        self.assertNotEqual(images.dirty_key("base2", "script", "lib"), k)
        self.assertNotEqual(images.dirty_key("base", "script2", "lib"), k)
        self.assertNotEqual(images.dirty_key("base", "script", "lib2"), k)

    def test_a_root_image_follows_kernel_and_initramfs(self):
        b = self.built("series")
        images.prepare_rootfs(None, "tcg", b, "reiserfs-root", self.p("ext4-256.img"))
        images.prepare_rootfs(None, "tcg", b, "reiserfs-root", self.p("ext4-256.img"))
        write(b.image, "rebuilt")
        images.prepare_rootfs(None, "tcg", b, "reiserfs-root", self.p("ext4-256.img"))
        write(b.initrd + ".stamp", "other content")
        images.prepare_rootfs(None, "tcg", b, "reiserfs-root", self.p("ext4-256.img"))
        self.assertEqual(self.keys[0], self.keys[1])
        self.assertEqual(len(set(self.keys[1:])), 3)

    def test_root_images_of_other_kernels_are_other_files(self):
        outs = []
        with mock.patch.object(images, "prepare_image", lambda *a, **kw: outs.append(a[6])):
            b = self.built("series")
            images.prepare_rootfs(None, "tcg", b, "r", self.p("ext4-256.img"))
            b = Built(Kernel(flavour="modules"), b.image, self.p("x", "kobj-modules"),
                      self.p("x", "initramfs-kobj-modules.cpio"))
            images.prepare_rootfs(None, "tcg", b, "r", self.p("ext4-256.img"))
        self.assertEqual([os.path.basename(o) for o in outs], ["r.rootfs.img", "r.rootfs-kobj-modules.img"])


class ImageRecipes(unittest.TestCase):
    """An image is remade when its line in rig/images.conf changes, and only then."""

    CONF = "# comment\next4-256 64M mkfs.ext4 -q -I 256 $IMG\n\nxfs-v4  300M  mkfs.xfs -m crc=0 $IMG\n"

    def test_lines_are_name_size_command(self):
        self.assertEqual(images.recipes(self.CONF), {"ext4-256": ("64M", "mkfs.ext4 -q -I 256 $IMG"),
                                                     "xfs-v4": ("300M", "mkfs.xfs -m crc=0 $IMG")})

    def test_other_lines_do_not_change_a_recipe(self):
        a = images.recipes(self.CONF)["ext4-256"]
        b = images.recipes("# other comment\n" + self.CONF.replace("300M", "400M"))["ext4-256"]
        self.assertEqual(images.recipe_key(*a), images.recipe_key(*b))

    def test_size_and_command_do(self):
        k = images.recipe_key("64M", "mkfs.ext4 $IMG")
        self.assertNotEqual(images.recipe_key("65M", "mkfs.ext4 $IMG"), k)
        self.assertNotEqual(images.recipe_key("64M", "mkfs.ext4 -O ^has_journal $IMG"), k)


class GuestProgramKey(unittest.TestCase):
    def test_source_headers_uapi_and_name(self):
        k = initramfs.program_key("int main;", ["guest.h"], "/obj/usr-headers/include", "guest_main_a")
        self.assertEqual(initramfs.program_key("int main;", ["guest.h"], "/obj/usr-headers/include",
                                               "guest_main_a"), k)
        for args in (("int main2;", ["guest.h"], "/obj/usr-headers/include", "guest_main_a"),
                     ("int main;", ["guest.h changed"], "/obj/usr-headers/include", "guest_main_a"),
                     ("int main;", ["guest.h", "other.h"], "/obj/usr-headers/include", "guest_main_a"),
                     ("int main;", ["guest.h"], "/kobj-modules/usr-headers/include", "guest_main_a"),
                     ("int main;", ["guest.h"], "/obj/usr-headers/include", "guest_main_b")):
            self.assertNotEqual(initramfs.program_key(*args), k, args)


class SystemKeys(unittest.TestCase):
    """The system guest: mmdebstrap again when the packages, the hooks or
    fsaudit's .deb change; only mkfs again when the rig's guest files do."""

    def tree(self, pkgs=("systemd-sysv", "udev"), deb="d1", hooks=None):
        with mock.patch.object(system, "packages", return_value=sorted(pkgs)), \
                mock.patch.object(system, "HOOKS", hooks if hooks is not None else system.HOOKS):
            return system.tree_key("trixie", deb)

    def test_tree_follows_packages_deb_and_hooks(self):
        k = self.tree()
        self.assertEqual(self.tree(pkgs=("udev", "systemd-sysv")), k)
        self.assertNotEqual(self.tree(pkgs=("systemd-sysv", "udev", "procps")), k)
        self.assertNotEqual(self.tree(deb="d2"), k)
        self.assertNotEqual(self.tree(hooks=system.HOOKS + ["true"]), k)

    def test_image_follows_tree_and_guest_files(self):
        k = system.image_key("t1", "f1")
        self.assertEqual(system.image_key("t1", "f1"), k)
        self.assertNotEqual(system.image_key("t2", "f1"), k)
        self.assertNotEqual(system.image_key("t1", "f2"), k)

    def test_content_key_is_names_modes_and_content(self):
        with tempfile.TemporaryDirectory() as d, mock.patch.object(system, "TOP", d):
            write(os.path.join(d, "a.sh"), "echo a\n", 0o755)
            k = system.content_key(["a.sh"])
            os.utime(os.path.join(d, "a.sh"), (1, 1))
            self.assertEqual(system.content_key(["a.sh"]), k)
            os.chmod(os.path.join(d, "a.sh"), 0o644)
            self.assertNotEqual(system.content_key(["a.sh"]), k)
            os.chmod(os.path.join(d, "a.sh"), 0o755)
            write(os.path.join(d, "a.sh"), "echo b\n")
            self.assertNotEqual(system.content_key(["a.sh"]), k)


class HotplugCommandLine(unittest.TestCase):
    """A group with `hotplug =` gets a virtio-scsi controller and a QMP socket;
    the others' command lines (and so their reference keys) are unchanged."""

    def cmd(self, hotplug):
        with mock.patch.object(qemu, "host_tsc_khz", return_value=None), \
                mock.patch.object(qemu, "drive_aio", return_value=""):
            return qemu.qemu_cmd("tcg", "vmlinux", None, "/run/g", "g", {"root": "/r.img"}, hotplug=hotplug)

    def test_controller_and_qmp_only_when_asked(self):
        without, with_ = self.cmd(False), self.cmd(True)
        self.assertNotIn("-qmp", without)
        self.assertEqual(with_[:len(without)], without)
        self.assertIn("virtio-scsi-pci,id=scsi0,ioeventfd=off", with_)
        self.assertEqual(with_[with_.index("-qmp") + 1], "unix:/run/g/qmp.sock,server=on,wait=off")


if __name__ == "__main__":
    unittest.main()
