# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""Disk images: those rig/images.conf makes with the real mkfs tools, and
those a guest prepares from them.

build() makes each image of rig/images.conf (`NAME SIZE COMMAND`) in
build/images/, again only when its line changes (the line is the key).

Nothing is ever mounted on the host.  An image that needs a mounted
filesystem is made in a guest: prepare_dirty() (NAME-dirty: NAME whose
journal/log needs recovery, tests/guest/prepare-dirty.sh) and
prepare_rootfs() (a root filesystem for booting without initramfs,
tests/guest/prepare-rootfs.sh) boot the initramfs with a copy of the base
image writable, through the session's boot queue, and keep the result until
their key changes (dirty_key(), rootfs_key()).
"""

import os
import re
import shutil
import subprocess
import threading
import time

from . import initramfs
from .common import BUILD, TOP, die, file_sha, read, sha, write_if_changed
from .report import log

IMAGES_CONF = os.path.join(TOP, "rig", "images.conf")
DIRTY = "-dirty"
_lock = threading.RLock()   # _build() recurses for NAME-dirty images
_prepare_lock = threading.Lock()


def recipes(text):
    """{name: (size, command)} of images.conf TEXT."""
    out = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, size, cmd = line.split(None, 2)
        out[name] = (size, cmd)
    return out


def recipe_key(size, cmd):
    """What build/images/NAME.img.recipe holds: the image is remade when it changes."""
    return f"{size} {cmd}\n"


def build(names):
    """{name: path} of images NAMES, made if their recipe changed (NAME-dirty:
    the path of its base image; guest_images() prepares it)."""
    # One thread at a time: the comparison pairs prepare theirs beside the groups.
    with _lock:
        return _build(names)


def _build(names):
    recs = recipes(read(IMAGES_CONF))
    d = os.path.join(BUILD, "images")
    os.makedirs(d, exist_ok=True)
    paths = {}
    for name in names:
        if name.endswith(DIRTY) and name[:-len(DIRTY)] in recs:
            # Made from its base image by a guest (prepare_dirty()); here the base.
            paths[name] = build([name[:-len(DIRTY)]])[name[:-len(DIRTY)]]
            continue
        if name not in recs:
            die(f"unknown image {name!r} (not in rig/images.conf)")
        size, cmd = recs[name]
        img = os.path.join(d, name + ".img")
        stamp = img + ".recipe"
        recipe = recipe_key(size, cmd)
        if read(stamp) != recipe or not os.path.exists(img):
            t0 = time.monotonic()
            tmp = img + ".tmp"
            if os.path.exists(tmp):
                os.unlink(tmp)
            subprocess.run(["truncate", "-s", size, tmp], check=True)
            r = subprocess.run(["sh", "-c", cmd], env=dict(os.environ, IMG=tmp),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if r.returncode != 0:
                die(f"image {name}: `{cmd}` failed:\n{r.stdout}")
            os.replace(tmp, img)
            write_if_changed(stamp, recipe)
            log(f"image {name}: made in {time.monotonic() - t0:.1f} s")
        paths[name] = img
    return paths


def dirty_key(base_sha, script, lib):
    """The key of a NAME-dirty image: the base image's content and the guest
    scripts that make it (prepare-dirty.sh, modlib.sh), not the kernel: any
    kernel that writes the filesystem makes a valid one."""
    return sha(base_sha, script, lib)


def rootfs_key(base_sha, initrd_stamp, kernel_sha):
    """The key of a prepared root image: the empty image, the initramfs whose
    content it copies (its content stamp) and the kernel that prepared it."""
    return sha(base_sha, initrd_stamp, kernel_sha)


def prepare_dirty(session, accel, built, name, base):
    """Image NAME-dirty: image NAME whose journal/log needs recovery.

    Made in a guest, never on the host: a boot of the initramfs gets a copy of
    the base image writable and runs tests/guest/prepare-dirty.sh (mount
    read-write, write, sync, stop with reboot -f without unmounting).  The host
    then checks read-only that recovery is really needed (check_dirty()).
    Cached in build/images/ until the base image or the script changes: any
    kernel that writes the filesystem makes a valid one (the content differs
    from one preparation to the next anyway: times), so a change to the
    series does not remake them."""
    out = os.path.join(BUILD, "images", name + ".img")
    gdir = os.path.join(TOP, "tests", "guest")
    key = dirty_key(file_sha(base), read(os.path.join(gdir, "prepare-dirty.sh")),
                    read(os.path.join(gdir, "modlib.sh")))
    return prepare_image(session, accel, built, "prepare-dirty", name, base, out, key, check_dirty)


def prepare_rootfs(session, accel, built, name, base):
    """A root filesystem image for booting without initramfs (root=/dev/vda).

    The host never mounts it: a preparation boot of the initramfs gets a copy
    of the empty image NAME as a writable disk, and tests/guest/prepare-rootfs.sh
    mounts it read-write in the guest and copies busybox, /init and the guest
    scripts onto it.  Remade when the base image or the initramfs changes."""
    kern = initramfs.kernel_tag(built.initrd)    # kobj-FLAVOUR, vNN-kobj-FLAVOUR
    out = os.path.join(BUILD, "images", name + (".rootfs.img" if kern == "kobj-default" else f".rootfs-{kern}.img"))
    key = rootfs_key(file_sha(base), read(built.initrd + ".stamp", ""), file_sha(built.image))
    return prepare_image(session, accel, built, "prepare-rootfs", name, base, out, key)


def host_rootfs(built, fstype):
    """A read-only root filesystem of type FSTYPE made on the host from the
    tree of BUILT's initramfs (busybox and its links, /init, the guest
    scripts and programs): mkfs only, nothing is mounted.  For filesystems
    that no kernel writes (cramfs), so no guest can prepare them.  Cached
    in build/images/ until the initramfs changes."""
    kern = initramfs.kernel_tag(built.initrd)    # kobj-FLAVOUR, vNN-kobj-FLAVOUR
    tree = built.initrd[:-len(".cpio")] + ".d"
    out = os.path.join(BUILD, "images", f"root-{kern}.{fstype}.img")
    stamp = read(built.initrd + ".stamp", "")
    if read(out + ".stamp", None) == stamp and os.path.exists(out):
        return out
    if fstype != "cramfs":
        die(f"host_rootfs: no recipe for {fstype}")
    tmp = out + ".tmp"
    r = subprocess.run(["mkfs.cramfs", tree, tmp], capture_output=True, text=True)
    if r.returncode:
        die(f"mkfs.cramfs {tree}: {r.stderr.strip()}")
    os.replace(tmp, out)
    with open(out + ".stamp", "w") as f:
        f.write(stamp)
    return out


def prepare_image(session, accel, built, script, name, base, out, key, check=None):
    """OUT: image BASE after a boot of BUILT's initramfs that ran
    tests/guest/SCRIPT.sh with a copy of it writable as disk NAME, kept until
    KEY changes.  CHECK(NAME, PATH), if given, returns why the result is no
    good (or None)."""
    with _prepare_lock:
        if read(out + ".stamp") == key and os.path.exists(out):
            return out
        tmp = out + ".tmp"
        shutil.copyfile(base, tmp)
        run = os.path.join(BUILD, "runs", f"{script}-{name}")
        r = session.boot(accel, built.image, built.initrd, script, {name: tmp},
                         timeout=120 * session.timeout_scale, run_dir=run, writable=(name,))
        if "rig-exit 0" not in r["status"]:
            die(f"{script} of the image {name} failed; see build/runs/{script}-{name}/\n"
                + "\n".join(r["console"].splitlines()[-15:]))
        why = check(name, tmp) if check else None
        if why:
            die(f"image {name}: {why}; see build/runs/{script}-{name}/")
        os.replace(tmp, out)
        write_if_changed(out + ".stamp", key)
        return out


def check_dirty(name, img):
    """Host-side, read-only: does IMG's journal/log need recovery?  None if so,
    else why not."""
    def run(*cmd):
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return r.returncode, r.stdout
    if name.startswith("ext"):
        rc, out = run("dumpe2fs", "-h", img)
        feats = re.search(r"^Filesystem features:(.*)$", out, re.M)
        if not feats or "needs_recovery" not in feats.group(1).split():
            return "dumpe2fs -h shows no needs_recovery: " + (feats.group(0) if feats else out[-300:])
    elif name.startswith("xfs"):
        # xfs_logprint reads the log only; a clean log is one unmount record.
        rc, out = run("xfs_logprint", "-t", img)
        if rc != 0 or "<DIRTY>" not in out:
            return "xfs_logprint -t shows no dirty log: " + " ".join(out.split())[-300:]
    elif name.startswith("reiserfs"):
        # Transactions of the last mount newer than the last flushed one.
        rc, out = run("debugreiserfs", "-j", img, img)
        last = re.search(r"j_last_flush_trans_id (\d+)", out)
        mid = re.search(r"j_mount_id (\d+)", out)
        if rc != 0 or not last or not mid or not any(
                m == mid.group(1) and int(t) > int(last.group(1))
                for m, t in re.findall(r"^Mountid (\d+), transid (\d+)", out, re.M)):
            return "debugreiserfs -j shows no transaction to replay: " + " ".join(out.split())[-300:]
    return None


def guest_images(session, accel, built, names, images):
    """{name: path} of the disks NAMES as kernel BUILT sees them: IMAGES
    (build()), with NAME-dirty images prepared by that kernel."""
    return {i: prepare_dirty(session, accel, built, i, images[i]) if i.endswith(DIRTY) else images[i]
            for i in names}
