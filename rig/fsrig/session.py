# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""One run of the rig: what the user asked for (Settings, read once from the
environment by the CLI), the kernels it prepared (Built), the accelerator,
the boot queue, and the boot of a group on a kernel.

A Session is passed explicitly to whatever boots (commands, compare, demo,
image preparation); nothing in the rig reads the process environment after
Settings.from_environ().  The model is kernel (base x flavour, series or
stock) x group: session.prepare(Kernel) builds a kernel and its initramfs
once per run, session.boot_group(accel, built, group, images) boots a group
on it.
"""

import atexit
import concurrent.futures
import dataclasses
import os
import subprocess
import threading

from . import boots, ktap, groups as groups_mod, images as images_mod, initramfs, kernel as kernel_mod, qemu, reference, \
    resultcache, system
from .common import BUILD, TOP, RigError
from .judge import judge
from .kernel import DEBUG_FLAVOUR, DEFAULT_BASE, Kernel
from .report import Step, failed, log, stamp

# What a run does with the result cache (resultcache.py), per boot_group():
OFF = ""            # neither reads nor keeps (boot, demo, bench, the debug kernel)
USE = "use"         # a kept record with the same key instead of a boot; keeps new ones (check)
STORE = "store"     # boots, and keeps what passed (run, check --no-cache)


@dataclasses.dataclass(frozen=True)
class Settings:
    """What the user's environment asks for (docs/rig.md, "Environment")."""
    jobs: int = os.cpu_count() or 1     # RIG_JOBS: boots at once
    accel: str = ""                     # RIG_ACCEL=kvm|tcg (default: probe KVM once)
    qemu_nice: str = "5"                # RIG_QEMU_NICE
    debug_timeout_scale: int = 8        # RIG_DEBUG_TIMEOUT_SCALE
    progress_interval: float = 10.0     # RIG_PROGRESS_INTERVAL (seconds, in a log)
    reference_cache: bool = True        # not RIG_NO_REFERENCE_CACHE=1
    result_cache: bool = True           # not RIG_NO_CACHE=1 nor --no-cache
    bzimage: str = ""                   # RIG_BZIMAGE: a kernel built elsewhere
    flavour: str = ""                   # RIG_KERNEL_FLAVOUR or --flavour
    base: str = ""                      # RIG_BASE or --base: the kernel base (default 6.12)
    stock: bool = False                 # RIG_STOCK=1: the kernel without the series
    columns: int = 0                    # COLUMNS, else the terminal's width; 0: not a terminal


    @classmethod
    def from_environ(cls, env, flavour=None, tty_columns=0, base=None, no_cache=False):
        """Settings from environment ENV; FLAVOUR (--flavour) wins over
        RIG_KERNEL_FLAVOUR, BASE (--base) over RIG_BASE; COLUMNS (a positive number) over TTY_COLUMNS, the
        width of the terminal stdout is (0: none); NO_CACHE (--no-cache) as RIG_NO_CACHE=1."""
        cols = env.get("COLUMNS", "")
        return cls(jobs=int(env.get("RIG_JOBS", os.cpu_count() or 1)),
                   accel=env.get("RIG_ACCEL", ""),
                   qemu_nice=env.get("RIG_QEMU_NICE", "5"),
                   debug_timeout_scale=int(env.get("RIG_DEBUG_TIMEOUT_SCALE", "8")),
                   progress_interval=float(env.get("RIG_PROGRESS_INTERVAL", "10")),
                   reference_cache=env.get("RIG_NO_REFERENCE_CACHE") != "1",
                   result_cache=env.get("RIG_NO_CACHE") != "1" and not no_cache,
                   bzimage=env.get("RIG_BZIMAGE", ""),
                   flavour=flavour or env.get("RIG_KERNEL_FLAVOUR", ""),
                   base=base or env.get("RIG_BASE", ""),
                   stock=env.get("RIG_STOCK") == "1",
                   columns=int(cols) if cols.isdigit() and int(cols) > 0 else tty_columns)

    def kernel(self):
        """The run's kernel.  RIG_BZIMAGE stands for the patched kernel of the
        default flavour only (not for the stock kernel nor another flavour),
        on the run's base."""
        prebuilt = os.path.abspath(self.bzimage) if self.bzimage and not self.stock and not self.flavour else ""
        return Kernel(base=self.base or DEFAULT_BASE, flavour=self.flavour, stock=self.stock, prebuilt=prebuilt)


@dataclasses.dataclass(frozen=True)
class Built:
    """A kernel prepared for booting: the image QEMU boots, its object
    directory and its initramfs (the base one; initramfs.initrd_for())."""
    kernel: Kernel
    image: str
    obj: str
    initrd: str


class Session:
    def __init__(self, settings=None):
        self.settings = settings or Settings()
        self.kernel = self.settings.kernel()
        # `make check-debug`: the groups of kind check and debug on the debug
        # kernel, timeouts scaled, debug_env, logs in build/runs/debug-GROUP.
        self.debug = self.kernel.flavour == DEBUG_FLAVOUR
        self.timeout_scale = self.settings.debug_timeout_scale if self.debug else 1
        self.queue = boots.BootQueue(self.settings.jobs, self.settings.qemu_nice)
        self._lock = threading.Lock()
        self._groups = None
        self._prepared = {}
        self._prepare_lock = threading.Lock()
        self._ahead = {}
        self._started = set()
        self._accel = None
        self._accel_lock = threading.Lock()
        self._results = None

    @property
    def results(self):
        """The result cache (resultcache.ResultCache), made on first use."""
        with self._lock:
            if self._results is None:
                self._results = resultcache.ResultCache()
            return self._results

    def cache_mode(self, wanted=USE):
        """What this run does with the result cache when a command WANTED
        mode: never on a debug kernel (check-debug looks for races that a
        kept record cannot show); only STORE under --no-cache/RIG_NO_CACHE=1."""
        if wanted == OFF or self.debug:
            return OFF
        return wanted if self.settings.result_cache else STORE

    @property
    def groups(self):
        """tests/groups.conf as this run sees it ({name: Group}), read once."""
        with self._lock:
            if self._groups is None:
                self._groups = groups_mod.load(self.debug, self.settings.debug_timeout_scale)
            return self._groups

    def prepare_ahead(self, kernel):
        """Start KERNEL's source tree and configuration (rig/kernel.sh
        --prepare, at nice 10) while another kernel builds: its unpacking
        and configuring, mostly one process at a time, fill the CPU that the
        other's link leaves idle.  Its prepare() waits for it."""
        with self._lock:
            if kernel.prebuilt or kernel in self._ahead or kernel in self._started:
                return
            os.makedirs(kernel.build_root, exist_ok=True)
            logfile = os.path.join(kernel.build_root, f"prepare-{kernel.obj_name}.log")
            log(f"{kernel.label}: its tree and configuration beside the build ({os.path.relpath(logfile, TOP)})")
            with open(logfile, "w") as out:
                p = subprocess.Popen(["nice", "-n", "10"] + kernel.build_cmd() + ["--prepare"],
                                     stdin=subprocess.DEVNULL, stdout=out, stderr=out)
            self._ahead[kernel] = p
            # A run that stops early (its kernel failed) still lets it end
            # before the rig's lock is released.
            atexit.register(p.wait)

    def prepare(self, kernel):
        """KERNEL built and its initramfs made (once per run): a Built."""
        with self._lock:
            self._started.add(kernel)
        with self._prepare_lock:
            with self._lock:
                ahead = self._ahead.pop(kernel, None)
            if ahead:
                ahead.wait()    # its failure is the build's to report
            if kernel not in self._prepared:
                image, obj = kernel_mod.build(kernel)
                with Step(f"initramfs {os.path.join(kernel.tag, os.path.basename(obj))}"):
                    initrd = initramfs.build(kernel.src_dir, obj, self.groups,
                                             out_dir=kernel.build_root, patches_dir=kernel.patches_dir)
                self._prepared[kernel] = Built(kernel, image, obj, initrd)
            return self._prepared[kernel]

    def group_kernel(self, base="", flavour=""):
        """The kernel of a group with `base = BASE`, `flavour = FLAVOUR`
        ("": the run's): the run's kernel on that base, in that flavour."""
        k = self.kernel.with_base(base) if base else self.kernel
        return k.with_flavour(flavour) if flavour else k

    def accelerator(self, built):
        """KVM or TCG for this run (qemu.choose_accelerator(); a KVM probe boots BUILT)."""
        with self._accel_lock:
            if self._accel is None:
                self._accel = qemu.choose_accelerator(self.settings.accel, lambda: self.boot(
                    "kvm", built.image, built.initrd, "probe", {}, timeout=15,
                    run_dir=os.path.join(BUILD, "runs", "kvm-probe")))
            return self._accel

    def boot(self, *args, **kwargs):
        """One boot through the boot queue (boots.BootQueue.boot())."""
        return self.queue.boot(*args, **kwargs)

    def boot_group(self, accel, built, g, images, run_tag="", reference_side=False, cache=OFF):
        """Boot group G on kernel BUILT with disks IMAGES ({name: path} of
        images.build()) and judge it: (results, record).  Its logs go to
        build/runs/RUN_TAG+NAME.  REFERENCE_SIDE: the stock side of a
        comparison pair, whose record the reference cache may supply.
        CACHE: what to do with the result cache (OFF, USE, STORE; the
        record of a kept result has "cached", the time of its boot)."""
        n = g.name
        imgs = images_mod.guest_images(self, accel, built, g.images, images)
        rd, cmdline = initramfs.initrd_for(built.initrd, g), g.cmdline
        # The filesystems this base no longer has: the guest's scripts
        # (tests/guest/modlib.sh) leave their images and items out.
        removed = groups_mod.removed_filesystems(built.kernel.base)
        if removed:
            cmdline = f"{cmdline} rig.removed={','.join(removed)}".strip()
        if g.rootfs:
            imgs[g.rootfs] = images_mod.prepare_rootfs(self, accel, built, g.rootfs, images[g.rootfs])
            rd, cmdline = None, f"root=/dev/vda init=/init {cmdline}"
        elif g.hostroot:
            imgs = {"root": images_mod.host_rootfs(built, g.hostroot), **imgs}
            rd, cmdline = None, f"root=/dev/vda rootfstype={g.hostroot} init=/init {cmdline}"
        elif g.system:
            # Debian's root, systemd as PID 1 (/sbin/init); tests/system/rig-run
            # reports on the usual channels.
            try:
                imgs = {"root": system.root_image(g.system, g.system_root), **imgs}
            except RigError as e:
                # mmdebstrap needs Debian's mirror: without it, this group
                # fails (named), the others run.
                log(f"error: {e}")
                return [ktap.Result(f"{n}: system image {g.system}", ktap.FAIL, str(e).splitlines()[-16:])], {}
            rd, cmdline = None, f"root=/dev/vda rw rootfstype=ext4 init={system.INIT} {cmdline}"

        def verdict(r):
            return judge(n, r, g.expect_panic, kmemleak=built.kernel.debug, known=g.known_report)
        if reference_side:
            r = reference.reference_boot(self.queue, verdict, accel, built.image, rd, n, imgs, cmdline, g.rtc,
                                         g.timeout, g.smp, use_cache=self.settings.reference_cache,
                                         root=built.kernel.build_root)
            if not r.get("cached"):
                log(f"{n}: {r['seconds']:.1f} s ({r['cpu']:.1f} s CPU, {accel})")
            res = verdict(r)
            return (mark_cached(res) if r.get("cached") else res), r
        run_dir = os.path.join(built.kernel.runs_dir, run_tag + n)
        hotplug = {i: images[i] for i in g.hotplug}
        if g.icount:
            cache = OFF     # a benchmark: its figures are the point
        if cache:
            cmd = qemu.qemu_cmd(accel, built.image, rd, run_dir, g.script or n, imgs, cmdline, g.rtc, g.smp, g.icount,
                                hotplug=bool(hotplug))
            files = [built.image] + ([rd] if rd else []) + [imgs[i] for i in sorted(imgs)] \
                + [hotplug[i] for i in sorted(hotplug)]
            key = self.results.boot_key(g, built.kernel, built.obj, qemu.version(), cmd, files)
            path = self.results.path(built.kernel, n, run_tag)
            if cache == USE:
                r = self.results.load(path, key, run_dir)
                if r:
                    res = verdict(r)
                    if not failed(res):
                        log(f"{stamp()} {run_tag + n}: cached, a boot of {r['cached']} "
                            f"(build/result-cache/{os.path.basename(path)})")
                        return mark_cached(res), r
        # The guest runs /tests/SCRIPT.sh: NAME@BASE runs NAME's script
        r = self.boot(accel, built.image, rd, g.script or n, imgs, cmdline, g.rtc, g.timeout, g.smp, run_dir=run_dir,
                      icount=g.icount, sleeps=g.sleeps, hotplug=hotplug)
        log(f"{n}: {r['seconds']:.1f} s ({r['cpu']:.1f} s CPU, {accel})")
        res = verdict(r)
        if cache:
            # Only a boot without a failure is kept; a failure boots again next time.
            if failed(res):
                self.results.drop(path)
            else:
                self.results.store(path, key, r)
        return res, r

    def forget(self, built, name, run_tag=""):
        """Drop group NAME's kept result on kernel BUILT (a comparison that
        failed although both sides passed their own checks)."""
        self.results.drop(self.results.path(built.kernel, name, run_tag))

    def run_groups(self, names, built, kernels=None, run_tag="", cache=OFF):
        """Boot groups NAMES, all at once through the boot queue, on kernel
        BUILT, or KERNELS[(base, flavour)] ({(base, flavour): Built},
        groups.kernels()) for a group with `base =` or `flavour =`; returns
        (results in NAMES' order, accelerator).  CACHE: the result cache's
        mode (boot_group())."""
        allg = self.groups
        images = images_mod.build(sorted({i for n in names for i in allg[n].images + allg[n].hotplug}))
        accel = self.accelerator(built)

        def one(n):
            g = allg[n]
            return self.boot_group(accel, (kernels or {}).get((g.base, g.flavour), built), g, images, run_tag,
                                   cache=cache)

        # Longest first (by the last run's times), so parallel boots finish together;
        # results are still reported in the configured order.
        order = boots.longest_first(names, boots.last_times(), run_tag)
        # Every group waits in the boot queue at once (at most RIG_JOBS run;
        # the queue records the times).
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(order))) as ex:
            done = dict(zip(order, ex.map(one, order)))
        return [r for n in names for r in done[n][0]], accel


def mark_cached(results):
    """RESULTS reported as coming from a kept record ("(cached)")."""
    return [dataclasses.replace(r, cached=True) for r in results]
