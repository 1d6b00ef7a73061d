# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""The system guest (issue 24): a Debian root filesystem with systemd as
PID 1, util-linux, udev, udisks2, prometheus-node-exporter and fsaudit's own
Debian package, booted on the series instead of the busybox initramfs.

Three cached steps, each redone only when its key changes:

  fsaudit_deb()   fsaudit's .deb, dpkg-buildpackage from a copy of the
                  files git tracks in fsaudit/ (key: their paths and content)
                  -> build/system/fsaudit-KEY/fsaudit_*.deb
  root_tree()     mmdebstrap of SUITE from Debian's mirror in a user
                  namespace (--mode=unshare: nothing is mounted on the host),
                  the .deb installed by a customize hook
                  (key: suite, mirror, package list, hooks, the .deb's key)
                  -> build/system/SUITE-root/
  root_image()    the tree plus the rig's guest files (tests/system/) as an
                  ext4 image made by `mkfs.ext4 -d`, never mounted on the host
                  (key: the tree's key and the guest files' content)
                  -> build/system/SUITE.img

A group with `system = SUITE` boots that image as /dev/vda (snapshot mode:
the guest's writes are thrown away), `root=/dev/vda rw`, no initramfs, on
the test kernel of its base (kernel/configs/system.config: what systemd
needs, in every base's default flavour), with
init=/usr/lib/rig/rig-init (the group's /etc overlay, then systemd).  In the
guest, rig-run.service (tests/system/rig-run) waits for the boot to finish,
runs tests/system/GROUP.sh with its KTAP on the results channel (ttyS1),
sends `rig-exit N` on the status channel (ttyS2) and reboots (QEMU exits):
the same channels as the busybox guests, judged the same way.
"""

import os
import shutil
import subprocess
import threading
import time

from .common import BUILD, TOP, die, read, sha, write_if_changed
from .report import log

SYSTEM_DIR = os.path.join(BUILD, "system")
# PID 1 of a system boot: copies the group's overlay, then execs systemd.
INIT = "/usr/lib/rig/rig-init"
GUEST_DIR = os.path.join(TOP, "tests", "system")
MIRROR = "http://deb.debian.org/debian"
# Suites the rig can make: name -> (the release, its keyring on the host).
# debian-archive-keyring of Debian 12 carries trixie's keys.  bookworm:
# Debian 12's util-linux 2.38 (mount(2), no fs_context log at the terminal).
SUITES = {"trixie": ("trixie", "/usr/share/keyrings/debian-archive-trixie-stable.gpg"),
          "bookworm": ("bookworm", "/usr/share/keyrings/debian-archive-bookworm-stable.gpg")}
# The root filesystem's format (group key `system_root`): mkfs.ext4 options.
# ext4-128: 128-byte inodes, the deprecated item ext4-small-inodes (2038).
ROOT_FORMATS = {"ext4": ["-I", "256"], "ext4-128": ["-I", "128"]}
_lock = threading.Lock()


def packages(suite):
    """The packages of SUITE's root (tests/system/packages-SUITE.txt, # comments)."""
    text = read(os.path.join(GUEST_DIR, f"packages-{suite}.txt"))
    if text is None:
        die(f"system guest {suite}: no tests/system/packages-{suite}.txt")
    return sorted({w for line in text.splitlines() for w in line.split("#")[0].split()})


def tracked_files(subdir):
    """The files git tracks under SUBDIR of the project (relative paths), sorted."""
    r = subprocess.run(["git", "-C", TOP, "ls-files", "-z", "--", subdir], stdout=subprocess.PIPE, check=True)
    return sorted(p for p in r.stdout.decode().split("\0") if p and os.path.isfile(os.path.join(TOP, p)))


def content_key(paths):
    """The key of files PATHS (relative to the top): names, modes, contents."""
    parts = []
    for p in paths:
        full = os.path.join(TOP, p)
        with open(full, "rb") as f:
            parts += [p, oct(os.stat(full).st_mode & 0o777), f.read()]
    return sha(*parts)


def fsaudit_key():
    return content_key(tracked_files("fsaudit"))


def fsaudit_deb():
    """fsaudit's Debian package, built from the tracked files of fsaudit/ (cached)."""
    key = fsaudit_key()
    out = os.path.join(SYSTEM_DIR, f"fsaudit-{key}")
    debs = [f for f in os.listdir(out) if f.startswith("fsaudit_") and f.endswith(".deb")] \
        if os.path.isdir(out) else []
    if debs:
        return os.path.join(out, debs[0]), key
    t0 = time.monotonic()
    tmp = os.path.join(SYSTEM_DIR, f"deb-build.{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    src = os.path.join(tmp, "fsaudit")
    for p in tracked_files("fsaudit"):
        dst = os.path.join(src, os.path.relpath(p, "fsaudit"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(os.path.join(TOP, p), dst)
    r = subprocess.run(["dpkg-buildpackage", "-us", "-uc", "-b"], cwd=src,
                       env=dict(os.environ, DEB_BUILD_OPTIONS="nocheck"),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        die("fsaudit .deb: dpkg-buildpackage failed:\n" + "\n".join(r.stdout.splitlines()[-20:]))
    debs = [f for f in os.listdir(tmp) if f.startswith("fsaudit_") and f.endswith(".deb")]
    if len(debs) != 1:
        die(f"fsaudit .deb: expected one fsaudit_*.deb, got {debs}")
    os.makedirs(out + ".tmp", exist_ok=True)
    shutil.copy2(os.path.join(tmp, debs[0]), out + ".tmp")
    os.replace(out + ".tmp", out)
    shutil.rmtree(tmp, ignore_errors=True)
    log(f"system: fsaudit .deb built in {time.monotonic() - t0:.1f} s")
    return os.path.join(out, debs[0]), key


# What mmdebstrap does after the packages are installed, in the new root
# ("$1"), within its user namespace.  The .deb is copied in and installed
# with dpkg (apt's own handling of a local file failed under mmdebstrap
# 1.3.5); a fixed machine id (no first boot: systemd-firstboot would ask
# questions on the console); units that only cost boot time in a test guest
# masked (apt's and e2scrub's timers, fstrim; modprobe@ and modules-load:
# the kernel has no modules; ldconfig, the journal catalog and update-done,
# which every boot of a fresh image would run again: ~2 s of TCG each).
HOOKS = [
    'copy-in {deb} /tmp',
    'chroot "$1" dpkg -i /tmp/{debname}',
    'rm -f "$1"/tmp/{debname}',
    'echo 0f5de9ec0000000000000000000000024 | cut -c1-32 > "$1"/etc/machine-id',
    'echo rig > "$1"/etc/hostname',
    'for u in apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer e2scrub_reap.service fstrim.timer '
    'dpkg-db-backup.timer xfs_scrub_all.timer systemd-timesyncd.service '
    'modprobe@.service systemd-modules-load.service ldconfig.service systemd-journal-catalog-update.service '
    'systemd-update-done.service systemd-pstore.service; do ln -sf /dev/null "$1"/etc/systemd/system/$u; done',
]


def tree_key(suite, deb_key):
    return sha("tree-1", suite, MIRROR, *packages(suite), *HOOKS, deb_key)


def root_tree(suite):
    """build/system/SUITE-root/: SUITE made by mmdebstrap (cached)."""
    if suite not in SUITES:
        die(f"unknown system suite {suite!r}; suites: {', '.join(SUITES)}")
    deb, deb_key = fsaudit_deb()
    key = tree_key(suite, deb_key)
    out = os.path.join(SYSTEM_DIR, f"{suite}-root")
    if read(out + ".stamp") == key and os.path.isdir(out):
        return out, key
    release, keyring = SUITES[suite]
    tmp = out + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    hooks = [h.format(deb=deb, debname=os.path.basename(deb)) for h in HOOKS]
    cmd = ["mmdebstrap", "--mode=unshare", "--variant=apt", "--format=directory", f"--keyring={keyring}",
           "--include=" + ",".join(packages(suite))] + [f"--customize-hook={h}" for h in hooks] + \
        [release, tmp, MIRROR]
    log(f"system: mmdebstrap {release} ({len(packages(suite))} packages asked) ...")
    t0 = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    os.makedirs(SYSTEM_DIR, exist_ok=True)
    with open(os.path.join(SYSTEM_DIR, f"{suite}-mmdebstrap.log"), "w") as f:
        f.write(r.stdout)
    if r.returncode:
        die(f"system {suite}: mmdebstrap failed (build/system/{suite}-mmdebstrap.log):\n"
            + "\n".join(r.stdout.splitlines()[-15:]))
    os.replace(tmp, out)
    write_if_changed(out + ".stamp", key)
    log(f"system: {suite} root made by mmdebstrap in {time.monotonic() - t0:.1f} s")
    return out, key


def guest_files():
    """The rig's files for the image: tests/system/ and tests/guest/ktap.sh."""
    return tracked_files("tests/system") + ["tests/guest/ktap.sh"]


def image_key(tree, files_key):
    return sha("image-1", tree, files_key)


def install_guest_files(tree):
    """The rig's guest files into TREE: /usr/lib/rig/ (runner, scripts, group
    overlays, ktap.sh, rig-init), /etc/fstab, rig-run.service enabled."""
    rig = os.path.join(tree, "usr", "lib", "rig")
    shutil.rmtree(rig, ignore_errors=True)
    for p in guest_files():
        rel = os.path.relpath(p, "tests/system") if p.startswith("tests/system/") else os.path.basename(p)
        dst = os.path.join(rig, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(os.path.join(TOP, p), dst)
    shutil.copy2(os.path.join(rig, "fstab"), os.path.join(tree, "etc", "fstab"))
    etc = os.path.join(tree, "etc", "systemd", "system")
    shutil.copy2(os.path.join(rig, "rig-run.service"), os.path.join(etc, "rig-run.service"))
    # Started by a boot that reaches multi-user.target and by one that ends
    # in emergency mode (a failed fstab mount without nofail).
    for target in ("multi-user.target", "emergency.target"):
        wants = os.path.join(etc, target + ".wants")
        os.makedirs(wants, exist_ok=True)
        link = os.path.join(wants, "rig-run.service")
        if not os.path.lexists(link):
            os.symlink("/etc/systemd/system/rig-run.service", link)
    shutil.rmtree(os.path.join(tree, "etc", "systemd", "system-generators"), ignore_errors=True)


def root_image(suite, fmt="ext4"):
    """build/system/SUITE[-FORMAT].img: the root image of group keys
    `system = SUITE`, `system_root = FORMAT` (cached)."""
    if fmt not in ROOT_FORMATS:
        die(f"unknown system root format {fmt!r}; formats: {', '.join(ROOT_FORMATS)}")
    with _lock:
        tree, tkey = root_tree(suite)
        key = image_key(tkey, content_key(guest_files())) + " " + " ".join(ROOT_FORMATS[fmt])
        out = os.path.join(SYSTEM_DIR, f"{suite}.img" if fmt == "ext4" else f"{suite}-{fmt}.img")
        if read(out + ".stamp") == key and os.path.exists(out):
            return out
        t0 = time.monotonic()
        install_guest_files(tree)
        used = int(subprocess.run(["du", "-sm", tree], stdout=subprocess.PIPE, text=True,
                                  check=True).stdout.split()[0])
        tmp = out + ".tmp"
        if os.path.exists(tmp):
            os.unlink(tmp)
        # Room for the journal, the tests' files and a second boot's writes
        # (thrown away: snapshot mode); the inode size of FMT.
        subprocess.run(["truncate", "-s", f"{used * 3 // 2 + 256}M", tmp], check=True)
        r = subprocess.run(["mkfs.ext4", "-q", "-F", *ROOT_FORMATS[fmt], "-L", "rig-root", "-d", tree, tmp],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode:
            die(f"system {suite}: mkfs.ext4 -d failed:\n{r.stdout}")
        os.replace(tmp, out)
        write_if_changed(out + ".stamp", key)
        log(f"system: {os.path.basename(out)} made in {time.monotonic() - t0:.1f} s ({used} MB of files)")
        return out
