# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""A kernel to build and boot, as a value, and its build by rig/kernel.sh.

Kernel(base, flavour, stock, prebuilt) names one kernel: the base (the
kernel source and the directory of its series: 6.12 in kernel/, built in
build/; 7.3 in kernel/7.3/, built in build/v73/; 6.1 in kernel/6.1/, built
in build/v61/),
the flavour (kernel/configs/FLAVOUR/, "default" for the top-level fragments
alone), the series applied or not (stock), or a kernel built elsewhere
(RIG_BZIMAGE).  Everything that depends on which kernel is meant (the object
directory, the source tree, whether selftests must exist, the debug checks)
is derived from the value, never from the process environment.

build() runs rig/kernel.sh for it: each step logged with its duration, and
while kbuild runs, the objects compiled so far against the count of the last
full build (build/kernel-objects.json) with an estimate of the time left.
"""

import dataclasses
import json
import os
import re
import subprocess
import threading
import time

from .common import BUILD, TOP, die, load_json, write_if_changed
from .report import TTY, hms, log, progress, progress_done, stamp

# The bases the rig can build: name -> the directory of its series
# (patches/, configs/, base-version), relative to the top of the project.
# The default base builds in build/ itself, another in build/vNN/ (7.3:
# build/v73/), so that no two bases share a tree, objects, an initramfs, a
# root image or the logs of a boot.
BASES = {"6.12": "kernel", "7.3": "kernel/7.3", "6.1": "kernel/6.1"}
DEFAULT_BASE = "6.12"
DEFAULT_FLAVOUR = "default"
# `make check-debug` (rig.py check --flavour debug): kernel/configs/debug/
# (KASAN, UBSAN, lockdep, kmemleak, fault injection).  A flavour whose name
# ends in -debug (modules-debug) has the same checkers.
DEBUG_FLAVOUR = "debug"


@dataclasses.dataclass(frozen=True)
class Kernel:
    """One kernel to build and boot (hashable: the key of what a run prepared)."""
    base: str = DEFAULT_BASE
    flavour: str = DEFAULT_FLAVOUR
    stock: bool = False         # the same config without the series
    prebuilt: str = ""          # a kernel image built elsewhere (RIG_BZIMAGE)

    def __post_init__(self):
        if self.base not in BASES:
            die(f"unknown kernel base {self.base!r}; bases: {', '.join(BASES)}")
        if not self.flavour:
            object.__setattr__(self, "flavour", DEFAULT_FLAVOUR)

    @property
    def tag(self):
        """"" for the default base, else "vNN" (7.3: "v73"): its directory in build/."""
        return "" if self.base == DEFAULT_BASE else "v" + self.base.replace(".", "")

    @property
    def build_root(self):
        """Where this base's trees, objects and initramfs live: build/ or build/vNN/."""
        return os.path.join(BUILD, self.tag) if self.tag else BUILD

    @property
    def runs_dir(self):
        """The logs of its boots: build/runs/ or build/vNN/runs/."""
        return os.path.join(self.build_root, "runs")

    @property
    def base_dir(self):
        return os.path.join(TOP, BASES[self.base])

    @property
    def patches_dir(self):
        """The series applied to the base (None: stock)."""
        return None if self.stock else os.path.join(self.base_dir, "patches")

    @property
    def configs_dir(self):
        return os.path.join(self.base_dir, "configs")

    @property
    def flavour_dir(self):
        """kernel/configs/FLAVOUR/ (None for the default flavour)."""
        return None if self.flavour == DEFAULT_FLAVOUR else os.path.join(self.configs_dir, self.flavour)

    @property
    def debug(self):
        """A kernel with the debug checkers (every boot must end with a kmemleak report)."""
        return self.flavour == DEBUG_FLAVOUR or self.flavour.endswith("-" + DEBUG_FLAVOUR)

    @property
    def obj_name(self):
        return ("kobj-stock-" if self.stock else "kobj-") + self.flavour

    @property
    def obj_dir(self):
        """The object directory rig/kernel.sh builds it in: build/[vNN/]kobj-…"""
        return os.path.join(self.build_root, self.obj_name)

    @property
    def obj_key(self):
        """Its key in build/kernel-objects.json: kobj-… or vNN/kobj-…"""
        return f"{self.tag}/{self.obj_name}" if self.tag else self.obj_name

    @property
    def src_dir(self):
        """The source tree: the series applied (build/[vNN/]linux) or not (linux-stock)."""
        return os.path.join(self.build_root, "linux-stock" if self.stock else "linux")

    @property
    def label(self):
        base = "" if self.base == DEFAULT_BASE else self.base + " "
        return f"kernel {base}{self.obj_name[len('kobj-'):]}"

    def with_flavour(self, flavour):
        """The same kernel in another flavour (a group's `flavour =`)."""
        return dataclasses.replace(self, flavour=flavour or DEFAULT_FLAVOUR, prebuilt="")

    def with_base(self, base):
        """The same kernel on another base (a group's `base =`)."""
        base = base or DEFAULT_BASE
        return self if base == self.base else dataclasses.replace(self, base=base, prebuilt="")

    def as_stock(self):
        """The same base and config without the series (the stock side of a comparison)."""
        return dataclasses.replace(self, stock=True, prebuilt="")

    def build_cmd(self):
        """The rig/kernel.sh command that builds this kernel."""
        cmd = [os.path.join(TOP, "rig", "kernel.sh")]
        if self.base != DEFAULT_BASE:
            cmd += ["--base", self.base]
        if self.stock:
            cmd.append("--stock")
        if self.flavour != DEFAULT_FLAVOUR:
            cmd += ["--flavour", self.flavour]
        return cmd


def obj_dir(image):
    """The build directory of kernel IMAGE: OBJ/vmlinux or OBJ/arch/x86/boot/bzImage."""
    d = os.path.dirname(image)
    return d if os.path.basename(image) == "vmlinux" else os.path.dirname(os.path.dirname(os.path.dirname(d)))


def build(kernel):
    """Build (or reuse) KERNEL; returns (image, obj dir), the image being what
    QEMU boots: OBJ/vmlinux for a kernel with the PVH entry point
    (kernel/configs/tcg.config), else OBJ/arch/x86/boot/bzImage."""
    if kernel.prebuilt:
        bz = os.path.abspath(kernel.prebuilt)
        if not os.path.isfile(bz):
            die(f"RIG_BZIMAGE={bz}: no such file")
        return bz, obj_dir(bz)
    # rig/kernel.sh prints "rig/kernel: <step> ..." when a step starts and the
    # bzImage path last (stdout); each step is logged with its duration, and
    # while kbuild runs, objects compiled so far against the last full build.
    label = kernel.label
    p = subprocess.Popen(kernel.build_cmd(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    errtail = []

    def errors():
        for line in p.stderr:
            errtail[:] = (errtail + [line.rstrip("\n")])[-40:]
            log(line.rstrip("\n"))
    th = threading.Thread(target=errors, daemon=True)
    th.start()
    lines, step, done, ok = [], [None], threading.Event(), [False]
    watcher = threading.Thread(target=_kbuild_progress,
                               args=(label, kernel.obj_dir, kernel.obj_key, step, done, ok), daemon=True)
    watcher.start()
    t_all = time.monotonic()
    for line in p.stdout:
        line = line.rstrip("\n")
        lines.append(line)
        m = re.match(r"rig/kernel: (\S+)(.*)", line)
        if m:
            _end_step(label, step)
            step[0] = (m.group(1), time.monotonic(), line[len("rig/kernel: "):])
            log(f"{stamp()} {label}: {step[0][2]} ...")
    p.wait()
    th.join()
    _end_step(label, step, failed=p.returncode != 0)
    ok[0] = p.returncode == 0
    done.set()
    watcher.join()
    if p.returncode != 0:
        die(f"{label}: rig/kernel.sh failed after {hms(time.monotonic() - t_all)}:\n" + "\n".join(errtail[-16:]))
    bz = lines[-1]
    return bz, obj_dir(bz)


def _end_step(label, step, failed=False):
    if step[0]:
        progress_done()
        what, t0, _ = step[0]
        log(f"{label}: {what} {'FAILED after' if failed else 'done in'} {hms(time.monotonic() - t0)}")
        step[0] = None


def _kbuild_progress(label, obj, name, step, done, ok):
    """While rig/kernel.sh builds OBJ: objects (*.o) written since the build
    step started, against the count of the last full build of OBJ (key NAME,
    Kernel.obj_key; or of any kernel, for a first build) kept in
    build/kernel-objects.json, with an estimate of the time left."""
    counts_file = os.path.join(BUILD, "kernel-objects.json")
    counts = load_json(counts_file)
    full = started = None
    while not done.wait(1 if TTY else 5):
        if not step[0] or step[0][0] != "building":
            continue
        if started is None:
            started = step[0][1]
            t_start = time.time() - (time.monotonic() - started)
            full = not os.path.exists(os.path.join(obj, "vmlinux"))
            # A first build: another kernel's count, or about what the
            # default flavour has (1067 *.o files, 6.12 with the series).
            expect = counts.get(name) or max(counts.values(), default=1070) if full else 0
        n = 0
        for root, _, files in os.walk(obj):
            for f in files:
                if f.endswith(".o"):
                    try:
                        if os.stat(os.path.join(root, f)).st_mtime >= t_start:
                            n += 1
                    except OSError:
                        pass
        el = time.monotonic() - started
        if expect and n:
            left = max(0.0, el * (expect - n) / n)
            pct = min(99, 100 * n // expect)
            progress(f"{label}: building: {n}/~{expect} objects ({pct}%), {hms(el)}, "
                     + (f"about {hms(left)} left" if n < expect else "linking"))
        else:
            progress(f"{label}: building: {n} objects{' rebuilt' if not full else ''} so far, {hms(el)}")
    if started is not None and full and ok[0]:
        n = sum(1 for _, _, files in os.walk(obj) for f in files if f.endswith(".o"))
        if n:
            counts[name] = n
            write_if_changed(counts_file, json.dumps(counts, sort_keys=True) + "\n")
