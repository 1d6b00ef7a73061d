# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""The result cache: a guest group is not booted again while nothing it
depends on changed (issue 25: a warm `make check` in seconds, not minutes).

A group's boot that passed keeps its record (qemu.run()'s dict: console,
results channel, status) in build/result-cache/KERNEL.GROUP.json under key().
A later `check` whose key is the same judges that record again with today's
judge() instead of booting, writes its logs into build/runs/GROUP/ as a boot
would (with a file `cached` saying so), and reports every result of it with
"(cached)".  A boot with a failure is never kept, and removes the entry it
would have replaced: a failure boots again next time.

The key errs on the side of booting again.  It is a hash of

  - the record format (FORMAT) and the group's name and run tag;
  - the group as the run parsed it (every key of its section, timeouts
    scaled) and its section of tests/groups.conf, comments left out;
  - the kernel value (base, flavour, series or stock, prebuilt) and the
    content of its image, its .config and its installed modules;
  - QEMU: its version, the content of its binary and of qboot.rom, the
    whole command line but for the measured TSC rate and the checkout's
    path (so that a worktree sharing build/ shares the cache): kernel
    arguments, clock, CPUs, memory, accelerator, disks;
  - the content of every file QEMU is given: the kernel, the initramfs
    (busybox, /init, the guest scripts and programs, the kselftests, the
    host programs such as fsaudit, the modules), every disk image (those
    of rig/images.conf, NAME-dirty, prepared roots, the Debian root of a
    system group) and every image the guest may hot-add;
  - the timeout, expect_panic and known_report (in the group), and whether
    the kernel is a debug kernel (kmemleak report required);
  - the sources the guest side is made of, as read when the run started:
    every file of tests/guest/ (a system group: tests/system/ and
    tests/guest/ktap.sh), tests/selftests.conf, tests/fs-kunit.conf,
    tests/host-programs.conf, the files git tracks in fsaudit/,
    rig/images.conf;
  - the rig's own code: rig/rig.py and rig/fsrig/*.py (the QEMU command,
    the judge and the KTAP parser among them);
  - for a group without `rtc =`, whose guest clock is the host's, the
    host's date (UTC) when the run started: guest scripts compare today
    with removal dates (tests/guest/modlib.sh) and timers' next runs
    (tests/system/system.sh), so the first check of a day boots again.

Not in the key: file times, the host's TSC rate, the time of day, the
host's load.  A test that fails
only sometimes may pass once and be reused until something changes:
`rig.py check --no-cache` (or RIG_NO_CACHE=1) boots every group, and its
results replace the kept ones.

File contents are hashed once: FileHashes keeps the hash of each file by
(device, inode, size, mtime, ctime) in build/result-cache/file-hashes.json,
so that the 760 MB Debian root images are not read again by every run.  A
file changed less than RACY seconds before it was hashed is not kept (two
writes within one tick of the file system's clock have the same times).
"""

import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import threading
import time

from .common import BUILD, TOP, load_json, sha, write_if_changed

CACHE_DIR = os.path.join(BUILD, "result-cache")
# The format of the entries (and of the records in them): part of the key.
FORMAT = 1
RACY = 2.0
QBOOT = "/usr/share/qemu/qboot.rom"


def qemu_binary():
    """The QEMU the rig runs (its content is part of the key)."""
    return shutil.which("qemu-system-x86_64") or "qemu-system-x86_64"


class FileHashes:
    """Content hashes of files, remembered by (dev, inode, size, mtime, ctime)."""

    def __init__(self, path=None, clock=time.time):
        self.path = path if path is not None else os.path.join(CACHE_DIR, "file-hashes.json")
        self.clock = clock
        self.lock = threading.Lock()
        # Entries of files that are gone are forgotten.
        self.memo = {p: v for p, v in (load_json(self.path) if self.path else {}).items() if os.path.exists(p)}

    @staticmethod
    def _ident(st):
        return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]

    def sha(self, path):
        """The hash of PATH's content ("" if there is no such file)."""
        path = os.path.realpath(path)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return ""
        ident = self._ident(st)
        with self.lock:
            kept = self.memo.get(path)
            if kept and kept[:-1] == ident:
                return kept[-1]
        t0 = self.clock()
        h = hashlib.sha256()
        with open(path, "rb") as f:
            while True:
                chunk = f.read(1 << 20)
                if not chunk:
                    break
                h.update(chunk)
        digest = h.hexdigest()[:16]
        st2 = os.stat(path)
        # Kept only if the file did not change while it was read and was
        # last changed well before: a write in the same tick of the file
        # system's clock would leave the same times.
        if self._ident(st2) == ident and t0 - max(st.st_mtime, st.st_ctime) >= RACY:
            with self.lock:
                self.memo[path] = ident + [digest]
                if self.path:
                    os.makedirs(os.path.dirname(self.path), exist_ok=True)
                    tmp = f"{self.path}.{os.getpid()}.{threading.get_ident()}.tmp"
                    with open(tmp, "w") as f:
                        json.dump(self.memo, f)
                    os.replace(tmp, self.path)
        return digest


def tree_key(paths, top=TOP):
    """The key of files and directories PATHS (relative to TOP): every
    file's path, mode and content, every link's target, in order; a missing
    path counts as missing."""
    parts = []
    for p in paths:
        full = os.path.join(top, p)
        if os.path.isdir(full) and not os.path.islink(full):
            files = []
            for root, dirs, fs in os.walk(full):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                files += [os.path.join(root, f) for f in fs if not f.endswith(".pyc")]
        else:
            files = [full]
        for f in sorted(files):
            rel = os.path.relpath(f, top)
            if os.path.islink(f):
                parts += [rel, "-> " + os.readlink(f)]
            elif os.path.isfile(f):
                with open(f, "rb") as fh:
                    parts += [rel, oct(stat.S_IMODE(os.stat(f).st_mode)), fh.read()]
            else:
                parts += [rel, "missing"]
    return sha(*parts)


def group_section(text, name):
    """The lines of section [NAME] of groups.conf TEXT, without comments and blank lines."""
    out, inside = [], False
    for line in text.splitlines():
        s = line.strip()
        if re.match(r"^\[[^\]]+\]$", s):
            inside = s == f"[{name}]"
            continue
        if inside and s and not s.startswith(("#", ";")):
            out.append(s)
    return "\n".join(out)


def guest_sources(system):
    """The files of the project the guest side of a group is made of
    (relative paths); SYSTEM: a group with `system =`."""
    if system:
        # The Debian root: tests/system/ and ktap.sh, fsaudit's .deb; no initramfs.
        return ["tests/system", "tests/guest/ktap.sh", "rig/images.conf"]
    return ["tests/guest", "tests/selftests.conf", "tests/fs-kunit.conf", "tests/host-programs.conf",
            "rig/images.conf"]


def rig_code(top=TOP):
    """The rig's own code: rig/rig.py and the package rig/fsrig/."""
    return tree_key(["rig/rig.py", "rig/fsrig"], top)


def normalize_cmd(cmd, top=TOP):
    """QEMU command line CMD without the measured TSC rate and with the
    checkout's path replaced (a worktree whose build/ is a link to another
    checkout's names the same files by its own path)."""
    out = []
    for a in cmd:
        a = re.sub(r"\btsc_early_khz=\d+", "", a)
        a = a.replace(os.path.realpath(os.path.join(top, "build")), "$BUILD")
        a = a.replace(os.path.join(top, "build"), "$BUILD").replace(top, "$TOP")
        out.append(a)
    return out


def key(group, section, kernel, qemu_version, cmd, file_hashes, sources, code, extra=()):
    """The key of one boot of GROUP (a groups.Group) with its SECTION of
    groups.conf, on KERNEL (a kernel.Kernel): QEMU's version, the command
    line CMD (normalize_cmd()), FILE_HASHES of the files QEMU is given and
    of the kernel's config and modules, the key of the guest's SOURCES, the
    rig's CODE, and EXTRA (anything else)."""
    return sha(FORMAT, repr(group), section, repr(kernel), kernel.debug, qemu_version, cmd,
               file_hashes, sources, code, *extra)


class ResultCache:
    """The entries in DIRECTORY (build/result-cache/), and the run-wide
    parts of their keys, read once (when the run starts)."""

    def __init__(self, directory=CACHE_DIR, hashes=None, top=TOP, clock=time.time):
        self.dir = directory
        self.top = top
        self.clock = clock
        self._day = None
        self.hashes = hashes or FileHashes(os.path.join(directory, "file-hashes.json"))
        self._lock = threading.Lock()
        self._sources = {}
        self._code = None
        self._groups_text = None
        self.used, self.booted = [], []

    def snapshot(self):
        """Read the sources, the rig's code and groups.conf now (call it
        before the kernels and the initramfs are prepared: what the key says
        is then never newer than what boots)."""
        from .groups import GROUPS_CONF
        with self._lock:
            if self._code is None:
                self._day = time.strftime("%Y-%m-%d", time.gmtime(self.clock()))
                self._code = rig_code(self.top)
                with open(os.path.join(self.top, os.path.relpath(GROUPS_CONF, TOP))) as f:
                    self._groups_text = f.read()
                fsaudit = fsaudit_sources(self.top)
                for system in (False, True):
                    self._sources[system] = sha(tree_key(guest_sources(system), self.top), fsaudit)

    def sources(self, group):
        """The key of the sources of GROUP's guest side, as read by snapshot()."""
        self.snapshot()
        return self._sources[bool(group.system)]

    def boot_key(self, group, kernel, obj, qemu_version, cmd, files):
        """key() of a boot of GROUP on KERNEL (object directory OBJ) by QEMU
        command CMD, FILES being every file it reads (kernel, initramfs, disks)."""
        self.snapshot()
        hashes = [(os.path.basename(f), self.hashes.sha(f)) for f in files]
        hashes.append(("qemu", self.hashes.sha(qemu_binary())))
        hashes.append(("qboot", self.hashes.sha(QBOOT)))
        hashes.append((".config", self.hashes.sha(os.path.join(obj, ".config"))))
        mods = os.path.join(obj, "modules-install")
        if os.path.isdir(mods):
            hashes.append(("modules", sorted((os.path.relpath(os.path.join(r, f), mods),
                                              os.readlink(os.path.join(r, f)) if os.path.islink(os.path.join(r, f))
                                              else self.hashes.sha(os.path.join(r, f)))
                                             for r, _, fs in os.walk(mods) for f in fs)))
        return key(group, group_section(self._groups_text, group.script or group.name), kernel, qemu_version,
                   normalize_cmd(cmd, self.top), hashes, self.sources(group), self._code,
                   extra=("" if group.rtc else self._day,))

    def path(self, kernel, name, run_tag=""):
        return os.path.join(self.dir, f"{kernel.obj_key.replace('/', '-')}.{run_tag}{name}.json")

    def load(self, path, k, run_dir):
        """The record kept in PATH under key K, its logs written into RUN_DIR
        (None if there is none with that key)."""
        kept = load_json(path)
        if kept.get("key") != k or not isinstance(kept.get("record"), dict):
            return None
        r = dict(kept["record"], run_dir=run_dir, cached=kept.get("when", "?"))
        shutil.rmtree(run_dir, ignore_errors=True)
        os.makedirs(run_dir)
        for field, f in (("console", "console.log"), ("results", "results.ktap"), ("status", "status")):
            write_if_changed(os.path.join(run_dir, f), r.get(field, ""))
        write_if_changed(os.path.join(run_dir, "cached"),
                         f"logs of build/result-cache/{os.path.basename(path)}, a boot of {r['cached']}\n")
        return r

    def store(self, path, k, r):
        os.makedirs(self.dir, exist_ok=True)
        rec = {f: v for f, v in r.items() if f not in ("run_dir", "cached")}
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w") as f:
            json.dump({"key": k, "when": time.strftime("%Y-%m-%d %H:%M:%S"), "record": rec}, f)
        os.replace(tmp, path)

    def drop(self, path):
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


def fsaudit_sources(top=TOP):
    """The key of the files git tracks in fsaudit/ (the host program in the
    initramfs' extras, the .deb in the Debian root)."""
    r = subprocess.run(["git", "-C", top, "ls-files", "-z", "--", "fsaudit"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    paths = sorted(p for p in r.stdout.decode().split("\0") if p) if r.returncode == 0 else ["fsaudit"]
    return tree_key(paths, top)
