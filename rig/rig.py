#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""fsdeprecate QEMU rig.

  rig.py check [GROUP…]     build what changed, run host suites and guest groups, report
  rig.py check --flavour debug   the guest groups on the debug kernel (`make check-debug`)
  rig.py run GROUP…         boot only these guest groups
  rig.py demo               the demo groups: what the kernel says, policies, evacuation,
                            2038, fsaudit, one summary table (rig/demo.py)
  rig.py build              kernel, images and initramfs only
  rig.py boot GROUP [--cmdline ARGS] [--rtc DATE] [--images A,B]   one boot, console shown
  rig.py check-upstream     upstream's mount-API kselftests and fs KUnit suites on the
                            patched and the stock kernel: identical results (rig/compare.py)
  rig.py check-ext2-options every ext2 mount option on the patched and the stock kernel:
                            identical errnos, options and ext2 log lines (rig/compare.py)

Environment: RIG_ACCEL=kvm|tcg forces the accelerator (default: probe KVM once,
bounded, and fall back to TCG); RIG_JOBS=N parallel boots (default: CPUs);
RIG_KERNEL_FLAVOUR / RIG_STOCK=1 select another kernel build (see rig/kernel.sh);
RIG_BZIMAGE=OBJ/arch/x86/boot/bzImage (or OBJ/vmlinux of a kernel with CONFIG_PVH=y) boots
a kernel built elsewhere instead of the patched one (e.g. a development tree; OBJ needs
usr-headers/, `make headers_install`);
RIG_DEBUG_TIMEOUT_SCALE=N multiplies group timeouts on the debug kernel (default 8).
"""

import argparse
import concurrent.futures
import configparser
import fcntl
import functools
import hashlib
import heapq
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(TOP, "build")
sys.path.insert(0, os.path.join(TOP, "rig"))
import ktap  # noqa: E402
import compare  # noqa: E402

CONSOLE_BAD = re.compile(
    r"Kernel panic|Oops[:\s]|BUG:|kernel BUG at|WARNING:|general protection fault|"
    r"Call Trace:|UBSAN:|KASAN:|kmemleak:.*unreferenced|possible recursive locking|"
    r"possible circular locking|Unable to handle kernel|"
    # The debug kernel's reports (KASAN and lockdep headers start with BUG: or
    # WARNING:): lockdep's unannotated lock, RCU stalls, kmemleak losing track.
    r"INFO: trying to register non-static key|rcu: INFO: .*detected stall|"
    r"kmemleak: (Memory pool empty|Cannot allocate)")

# `make check-debug` (rig.py check --flavour debug): kernel/configs/debug/
# (KASAN, UBSAN, lockdep, kmemleak, fault injection).  It boots the guest
# groups of kind check and debug, with timeouts times RIG_DEBUG_TIMEOUT_SCALE
# and a group's debug_env instead of its env; every boot must end with a clean
# kmemleak report from tests/guest/init.
DEBUG_FLAVOUR = "debug"


def debug_mode():
    return os.environ.get("RIG_KERNEL_FLAVOUR") == DEBUG_FLAVOUR


def timeout_scale():
    return int(os.environ.get("RIG_DEBUG_TIMEOUT_SCALE", "8")) if debug_mode() else 1


_tty = sys.stderr.isatty()
_status = [""]      # the updating progress line on a terminal (cleared before any log line)
_out_lock = threading.Lock()


def log(msg):
    with _out_lock:
        if _status[0]:
            sys.stderr.write("\r\033[K")
        print(f"rig: {msg}", file=sys.stderr, flush=True)
        if _status[0]:
            sys.stderr.write(_status[0])
            sys.stderr.flush()


def progress(msg, last=[0.0]):
    """A progress report: at a terminal one updating line, in a log (CI) at
    most one line per RIG_PROGRESS_INTERVAL seconds (default 10)."""
    now = time.monotonic()
    with _out_lock:
        if _tty:
            _status[0] = f"rig: {msg}"[:(shutil.get_terminal_size().columns - 1)]
            sys.stderr.write("\r\033[K" + _status[0])
            sys.stderr.flush()
            return
    if now - last[0] >= float(os.environ.get("RIG_PROGRESS_INTERVAL", "10")):
        last[0] = now
        log(msg)


def progress_done():
    with _out_lock:
        if _status[0]:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            _status[0] = ""


def hms(secs):
    secs = int(round(secs))
    return f"{secs // 60} min {secs % 60:02d} s" if secs >= 60 else f"{secs} s"


class Step:
    """`with Step("what"):` logs the start (with the time of day) and how long it took."""

    def __init__(self, what):
        self.what = what

    def __enter__(self):
        self.t0 = time.monotonic()
        log(f"{time.strftime('%H:%M:%S')} {self.what} ...")
        return self

    def __exit__(self, et, ev, tb):
        progress_done()
        log(f"{self.what}: {'done' if et is None else 'FAILED'} in {hms(time.monotonic() - self.t0)}")


class RigError(Exception):
    """A build or set-up step failed; `check` reports it as a failed test."""


def die(msg):
    raise RigError(msg)


def sha(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def file_sha(path):
    with open(path, "rb") as f:
        return sha(f.read())


def read(path, default=None):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return default


def write_if_changed(path, text):
    if read(path) != text:
        with open(path, "w") as f:
            f.write(text)


# ---------------------------------------------------------------- kernel

def obj_dir(image):
    """The build directory of kernel IMAGE: OBJ/vmlinux or OBJ/arch/x86/boot/bzImage."""
    d = os.path.dirname(image)
    return d if os.path.basename(image) == "vmlinux" else os.path.dirname(os.path.dirname(os.path.dirname(d)))


def kernel():
    """Build (or reuse) the kernel; returns (image, obj dir), the image being
    what QEMU boots: OBJ/vmlinux for a kernel with the PVH entry point
    (kernel/configs/tcg.config), else OBJ/arch/x86/boot/bzImage."""
    bz = os.environ.get("RIG_BZIMAGE")
    if bz and os.environ.get("RIG_STOCK") != "1" and not os.environ.get("RIG_KERNEL_FLAVOUR"):
        bz = os.path.abspath(bz)
        if not os.path.isfile(bz):
            die(f"RIG_BZIMAGE={bz}: no such file")
        return bz, obj_dir(bz)
    cmd = [os.path.join(TOP, "rig", "kernel.sh")]
    if os.environ.get("RIG_STOCK") == "1":
        cmd.append("--stock")
    flavour = os.environ.get("RIG_KERNEL_FLAVOUR")
    if flavour:
        cmd += ["--flavour", flavour]
    # rig/kernel.sh prints "rig/kernel: <step> ..." when a step starts and the
    # bzImage path last (stdout); each step is logged with its duration, and
    # while kbuild runs, objects compiled so far against the last full build.
    objname = ("kobj-stock-" if "--stock" in cmd else "kobj-") + (flavour or "default")
    label = f"kernel {objname[5:]}"
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    errtail = []

    def errors():
        for line in p.stderr:
            errtail[:] = (errtail + [line.rstrip("\n")])[-40:]
            log(line.rstrip("\n"))
    th = threading.Thread(target=errors, daemon=True)
    th.start()
    lines, step, done, ok = [], [None], threading.Event(), [False]
    watcher = threading.Thread(target=_kbuild_progress, args=(label, os.path.join(BUILD, objname), step, done, ok),
                               daemon=True)
    watcher.start()
    t_all = time.monotonic()
    for line in p.stdout:
        line = line.rstrip("\n")
        lines.append(line)
        m = re.match(r"rig/kernel: (\S+)(.*)", line)
        if m:
            _end_step(label, step)
            step[0] = (m.group(1), time.monotonic(), line[len("rig/kernel: "):])
            log(f"{time.strftime('%H:%M:%S')} {label}: {step[0][2]} ...")
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


def _kbuild_progress(label, obj, step, done, ok):
    """While rig/kernel.sh builds OBJ: objects (*.o) written since the build
    step started, against the count of the last full build of OBJ (or of any
    kernel, for a first build) kept in build/kernel-objects.json, with an
    estimate of the time left."""
    counts_file = os.path.join(BUILD, "kernel-objects.json")
    try:
        with open(counts_file) as f:
            counts = json.load(f)
    except (OSError, ValueError):
        counts = {}
    name = os.path.basename(obj)
    full = started = None
    while not done.wait(1 if _tty else 5):
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


# ---------------------------------------------------------------- images

def image_recipes():
    recipes = {}
    for line in read(os.path.join(TOP, "rig", "images.conf")).splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, size, cmd = line.split(None, 2)
        recipes[name] = (size, cmd)
    return recipes


_images_lock = threading.RLock()   # _build_images() recurses for NAME-dirty images


def build_images(names):
    # One thread at a time: rig/compare.py's pairs prepare theirs beside run_groups().
    with _images_lock:
        return _build_images(names)


def _build_images(names):
    recipes = image_recipes()
    d = os.path.join(BUILD, "images")
    os.makedirs(d, exist_ok=True)
    paths = {}
    for name in names:
        if name.endswith(DIRTY) and name[:-len(DIRTY)] in recipes:
            # Made from its base image by a guest (prepare_dirty()); here the base.
            paths[name] = build_images([name[:-len(DIRTY)]])[name[:-len(DIRTY)]]
            continue
        if name not in recipes:
            die(f"unknown image {name!r} (not in rig/images.conf)")
        size, cmd = recipes[name]
        img = os.path.join(d, name + ".img")
        stamp = img + ".recipe"
        recipe = f"{size} {cmd}\n"
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


# ---------------------------------------------------------------- initramfs

def groups():
    cp = configparser.ConfigParser(interpolation=None)
    cp.read(os.path.join(TOP, "tests", "groups.conf"))
    out = {}
    for name in cp.sections():
        s = cp[name]
        out[name] = {
            "images": s.get("images", "").split(),
            "cmdline": s.get("cmdline", ""),
            "rtc": s.get("rtc", ""),
            "timeout": int(s.get("timeout", "120")),
            "selftest": s.get("selftest", ""),
            "env": s.get("env", ""),
            "args": s.get("args", ""),
            "smp": int(s.get("smp", "1")),
            "kind": s.get("kind", "check"),
            "icount": s.getboolean("icount", False),
            "rootfs": s.get("rootfs", ""),
            "expect_panic": s.get("expect_panic", ""),
            "flavour": s.get("flavour", ""),
            "extras": s.getboolean("extras", False) or bool(s.get("selftest", "")),
            "sleeps": s.getboolean("sleeps", False),
        }
        if debug_mode():
            out[name]["timeout"] *= timeout_scale()
            out[name]["env"] = s.get("debug_env", out[name]["env"])
        elif out[name]["flavour"].endswith("-debug"):
            # A debug flavour of its own (modules-debug): scaled as on the debug kernel.
            out[name]["timeout"] *= int(os.environ.get("RIG_DEBUG_TIMEOUT_SCALE", "8"))
        if out[name]["rootfs"] and out[name]["rootfs"] != (out[name]["images"] or [""])[0]:
            die(f"tests/groups.conf [{name}]: rootfs must be the first image")
        if out[name]["kind"] not in ("check", "demo", "bench", "stock", "debug", "pending"):
            die(f"tests/groups.conf [{name}]: kind must be check, demo, bench, stock, debug or pending")
        if out[name]["flavour"] and not os.path.isdir(os.path.join(TOP, "kernel", "configs",
                                                                   out[name]["flavour"])):
            die(f"tests/groups.conf [{name}]: no kernel flavour kernel/configs/{out[name]['flavour']}/")
    return out


def selftest_dirs():
    text = read(os.path.join(TOP, "tests", "selftests.conf"), "")
    return [l.split("#")[0].strip() for l in text.splitlines() if l.split("#")[0].strip()]


def build_selftests(src, obj, dest):
    """Build the kselftests named in tests/selftests.conf from the patched tree,
    statically linked (as the kselftest documentation asks for a minimal
    guest), copied stripped (debug info is most of their size)."""
    hdrs = os.path.join(obj, "usr-headers", "include")
    for d in selftest_dirs():
        sdir = os.path.join(src, "tools", "testing", "selftests", d)
        if not os.path.isdir(sdir):
            if os.environ.get("RIG_STOCK") == "1":
                continue    # added by the series: the stock tree has none
            die(f"selftest directory {d} listed in tests/selftests.conf is not in the patched tree")
        out = os.path.join(obj, "selftests", d)
        os.makedirs(out, exist_ok=True)
        r = subprocess.run(["make", "-s", "-C", sdir, f"OUTPUT={out}", "CC=gcc -static",
                            f"KHDR_INCLUDES=-isystem {hdrs}", f"-j{os.cpu_count()}"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            die(f"building selftests {d} failed:\n{r.stdout}")
        for f in os.listdir(out):
            p = os.path.join(out, f)
            if os.path.isfile(p) and os.access(p, os.X_OK):
                os.makedirs(os.path.join(dest, d), exist_ok=True)
                subprocess.run(["strip", "-o", os.path.join(dest, d, f), p], check=True)


def build_guest_programs(obj, dest):
    """C helpers in tests/guest/*.c, compiled against the guest kernel's UAPI
    into one static multi-call binary, /tests/guest-programs, that each
    /tests/NAME links to (it runs NAME's main() by argv[0]'s name).

    Static: under TCG a dynamically linked program costs ~30 ms more per exec
    (the loader, libc's relocations; nothing-written-* run devstate and fsmnt
    ~130 times each); one binary: one copy of glibc in the initramfs, not one
    per program."""
    hdrs = os.path.join(obj, "usr-headers", "include")
    cache = os.path.join(BUILD, "guest-bin")
    os.makedirs(cache, exist_ok=True)
    gdir = os.path.join(TOP, "tests", "guest")
    # Headers beside the programs (guest.h) are part of every program's key.
    shared = [read(os.path.join(gdir, h)) for h in sorted(os.listdir(gdir)) if h.endswith(".h")]
    progs, objs = [], []
    for f in sorted(os.listdir(gdir)):
        if not f.endswith(".c"):
            continue
        name = f[:-2]
        ident = "guest_main_" + re.sub(r"\W", "_", name)
        src = os.path.join(gdir, f)
        key = sha(read(src), *shared, hdrs, ident)
        o = os.path.join(cache, name + "." + key + ".o")
        if not os.path.exists(o):
            r = subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-isystem", hdrs, f"-Dmain={ident}",
                                "-c", "-o", o + ".tmp", src], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
            if r.returncode != 0:
                die(f"compiling {f} failed:\n{r.stdout}")
            os.replace(o + ".tmp", o)
        progs.append((name, ident))
        objs.append(o)
    disp = "".join(f"int {i}(int, char **);\n" for _, i in progs) + """
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
	const char *n = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
""" + "".join(f'\tif (!strcmp(n, "{n}"))\n\t\treturn {i}(argc, argv);\n' for n, i in progs) + """	fprintf(stderr, "guest-programs: no program %s\\n", n);
	return 127;
}
"""
    binp = os.path.join(cache, "guest-programs." + sha(disp, *objs))
    if not os.path.exists(binp):
        with open(binp + ".c", "w") as f:
            f.write(disp)
        r = subprocess.run(["gcc", "-static", "-s", "-O2", "-Wall", "-Werror", "-o", binp + ".tmp", binp + ".c"] + objs,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            die(f"linking the guest programs failed:\n{r.stdout}")
        os.replace(binp + ".tmp", binp)
    shutil.copy2(binp, os.path.join(dest, "guest-programs"))
    for name, _ in progs:
        os.symlink("guest-programs", os.path.join(dest, name))


def copy_host_programs(stage):
    """Host files named in tests/host-programs.conf (GUEST_PATH HOST_PATH), with
    the shared libraries of dynamically linked programs, at their host paths."""
    for line in read(os.path.join(TOP, "tests", "host-programs.conf"), "").splitlines():
        line = line.split("#")[0].split()
        if not line:
            continue
        if len(line) == 2:
            line[1] = os.path.join(TOP, line[1])  # a relative HOST_PATH is in the project
        if len(line) != 2 or not os.path.isfile(line[1]):
            die(f"tests/host-programs.conf: {' '.join(line)}: want GUEST_PATH HOST_PATH of an existing file")
        files = [(line[0], line[1])]
        r = subprocess.run(["ldd", line[1]], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if r.returncode == 0:
            libs = re.findall(r"(?:=>\s*)?(/\S+) \(0x", r.stdout)
            files += [(lib, os.path.realpath(lib)) for lib in libs]
        for guest, host in files:
            d = os.path.join(stage, guest.lstrip("/"))
            os.makedirs(os.path.dirname(d), exist_ok=True)
            shutil.copy2(host, d)


def build_initramfs(src, obj):
    """The initramfs of kernel OBJ: OBJ's initramfs-kobj-X.cpio, and beside it
    initramfs-kobj-X-full.cpio, the same followed by the extras: the
    kselftests (tests/selftests.conf) and the host programs
    (tests/host-programs.conf: fsaudit, mkfs.ext4, their libraries).  Only
    the groups that use them (`extras = yes`, or `selftest =`) boot the full
    one (initrd_for()): every boot unpacks its initramfs, ~17 ms of TCG per
    MB on the boot's critical path, and the extras are 11 of its 15 MB.
    Returns the path of the first."""
    stage = os.path.join(BUILD, f"initramfs-{os.path.basename(obj)}.d")
    xstage = os.path.join(BUILD, f"initramfs-{os.path.basename(obj)}-extras.d")
    for d in (stage, xstage):
        shutil.rmtree(d, ignore_errors=True)
    for d in ("bin", "sbin", "dev", "proc", "sys", "tmp", "mnt", "tests"):
        os.makedirs(os.path.join(stage, d))
    os.makedirs(os.path.join(xstage, "tests", "selftests"))
    busybox = shutil.which("busybox") or "/bin/busybox"
    with open(busybox, "rb") as f:
        if b"/lib64/ld-linux" in f.read(4096):
            die(f"{busybox} is dynamically linked (install busybox-static)")
    shutil.copy2(busybox, os.path.join(stage, "bin", "busybox"))
    # Its applets as links in /bin, made here once rather than by
    # `busybox --install` in every boot's /init (~40 ms of TCG per boot).
    applets = subprocess.run([busybox, "--list"], stdout=subprocess.PIPE, text=True, check=True).stdout.split()
    for a in applets:
        if a != "busybox":
            os.symlink("busybox", os.path.join(stage, "bin", a))
    shutil.copy2(os.path.join(TOP, "tests", "guest", "init"), os.path.join(stage, "init"))
    gdir = os.path.join(TOP, "tests", "guest")
    for f in os.listdir(gdir):
        if f.endswith(".sh"):
            shutil.copy2(os.path.join(gdir, f), os.path.join(stage, "tests", f))
    build_guest_programs(obj, os.path.join(stage, "tests"))
    build_selftests(src, obj, os.path.join(xstage, "tests", "selftests"))
    # A modular kernel (flavour "modules"): its modules as rig/kernel.sh
    # installed them (/lib/modules/<release>/, depmod run) and busybox's
    # module tools in /sbin, where the kernel runs modprobe (CONFIG_MODPROBE_PATH)
    # to load a filesystem's module on its first mount.  They are part of the
    # content hash below, so the archive follows the modules.
    mods = os.path.join(obj, "modules-install", "lib", "modules")
    if os.path.isdir(mods):
        shutil.copytree(mods, os.path.join(stage, "lib", "modules"), symlinks=True,
                        ignore=shutil.ignore_patterns("build", "source"))
        for tool in ("modprobe", "insmod", "rmmod", "lsmod", "modinfo", "depmod"):
            os.symlink("../bin/busybox", os.path.join(stage, "sbin", tool))
    # fsaudit for the booted oracle test: tests/host-programs.conf copies it
    # with its shared libraries.
    r = subprocess.run(["make", "-s", "-C", os.path.join(TOP, "fsaudit"), "fsaudit"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        die(f"make -C fsaudit failed:\n{r.stdout}")
    copy_host_programs(xstage)
    for name, g in groups().items():
        if g["selftest"]:
            p = os.path.join(stage, "tests", name + ".sh")
            with open(p, "w") as f:
                f.write(f"#!/bin/sh\nexec env {g['env']} /tests/selftests/{g['selftest']} {g['args']}\n")
            os.chmod(p, 0o755)
    # Content hash of the trees decides whether the archives are rewritten.
    files = []
    for part, d in (("base", stage), ("extras", xstage)):
        for root, _, fs in os.walk(d):
            for f in fs:
                p = os.path.join(root, f)
                if os.path.islink(p):       # busybox's applets, the multi-call programs
                    files.append((part, os.path.relpath(p, d), "-> " + os.readlink(p)))
                else:
                    files.append((part, os.path.relpath(p, d), file_sha(p), os.stat(p).st_mode))
    key = sha(sorted(files))
    out = os.path.join(BUILD, f"initramfs-{os.path.basename(obj)}.cpio")
    full = out[:-len(".cpio")] + "-full.cpio"
    if read(out + ".stamp") != key or not os.path.exists(out) or not os.path.exists(full):
        archives = []
        for d in (stage, xstage):
            names = subprocess.run(["find", "."], cwd=d, stdout=subprocess.PIPE, check=True).stdout
            archives.append(subprocess.run(["cpio", "--quiet", "-o", "-H", "newc", "--owner=0:0"], cwd=d,
                                           input=names, stdout=subprocess.PIPE, check=True).stdout)
        # The kernel unpacks concatenated archives one after the other.
        for path, data in ((full, archives[0] + archives[1]), (out, archives[0])):
            with open(path + ".tmp", "wb") as f:
                f.write(data)
            os.replace(path + ".tmp", path)
        write_if_changed(out + ".stamp", key)
    return out


def initrd_for(initrd, g):
    """The initramfs group G boots: INITRD (build_initramfs()), or its full
    variant with the kselftests and host programs if G uses them."""
    if initrd and g.get("extras"):
        return initrd[:-len(".cpio")] + "-full.cpio"
    return initrd


# ---------------------------------------------------------------- QEMU

def qemu_cmd(accel, bz, initrd, run_dir, group, images, cmdline="", rtc="", smp=1, icount=False,
             writable=()):
    # no_timer_check, noapictimer: no IO-APIC timer check and no local APIC
    # timer calibration (busy loops against the PIT: ~15% of a boot's CPU under
    # TCG, and the check can panic "IO-APIC + timer doesn't work!" on a loaded
    # host; the APIC timer failed its verification under TCG anyway).  The
    # i8042 options: no keyboard and mouse probing (its polling loops were
    # another ~13% of a boot; the guest has no keyboard).  retain_initrd: the
    # kernel does not free the initramfs after unpacking it, which poisons
    # every page of it first (0.1 s of TCG for the 15 MB of the full one).
    # pty.legacy_count=0: no BSD ptys (/dev/ptyp*, which nothing uses; the
    # 256 of CONFIG_LEGACY_PTY_COUNT were 18 of the 66 million instructions
    # of a boot that runs nothing, measured with -icount).
    append = ["console=ttyS0", "panic=-1", "oops=panic", "loglevel=5", "no_timer_check", "noapictimer",
              "i8042.nopnp", "i8042.noaux", "i8042.nokbd", "i8042.dumbkbd", "retain_initrd", "pty.legacy_count=0",
              f"rig.group={group}"]
    if accel == "tcg" and not icount and host_tsc_khz():
        # The guest's TSC is the host's: its frequency given, not calibrated
        # against the emulated PIT (which fails on a loaded host and leaves
        # the guest with a 4 ms jiffies clock, see rig/tsc-khz.c); reliable:
        # no clocksource watchdog to mark it unstable when the host stalls
        # the guest.
        append += [f"tsc_early_khz={host_tsc_khz()}", "tsc=reliable"]
    if images:
        append.append("rig.images=" + ",".join(images))
    append += shlex.split(cmdline)
    # -cpu max without ERMS: with it the guest kernel clears pages with rep
    # stosb, which TCG runs a byte per iteration (11 times as long as a loop
    # of 8-byte stores; clear_page_rep uses rep stosq): ~10% of the CPU of a
    # kselftest group.
    cmd = ["qemu-system-x86_64", "-M", "pc", "-accel", accel,
           "-cpu", "host" if accel == "kvm" else "max,-erms",
           "-m", "512", "-smp", str(smp), "-nodefaults", "-no-user-config", "-display", "none",
           "-no-reboot", "-bios", "/usr/share/qemu/qboot.rom",
           "-kernel", bz] + (["-initrd", initrd] if initrd else []) + ["-append", " ".join(append),
           "-serial", f"file:{run_dir}/console.log",
           "-serial", f"file:{run_dir}/results.ktap",
           "-serial", f"file:{run_dir}/status"]
    if rtc:
        cmd += ["-rtc", f"base={rtc}"]
    if icount:
        # Deterministic benchmark boots: guest time follows instructions executed.
        cmd[cmd.index("-accel") + 1] = "tcg"
        cmd[cmd.index("-cpu") + 1] = "max"
        cmd += ["-icount", "shift=0,sleep=off"]
    for i, (n, p) in enumerate(images.items() if isinstance(images, dict) else []):
        snap = "" if n in writable else ",snapshot=on"
        # cache=unsafe: the guest's flushes (every umount, every journal commit)
        # do not wait for the host disk; snapshot disks are thrown away, and a
        # prepared root image is complete in the page cache when QEMU exits.
        # ioeventfd=off: under TCG a queue notification is handled in the
        # vCPU thread at once instead of being handed to the main loop
        # through an eventfd (a thread wake-up per request).
        cmd += ["-drive", f"file={p},format=raw,if=none,id=disk{i},cache=unsafe{drive_aio()}{snap}",
                "-device", f"virtio-blk-pci,drive=disk{i}" + (",ioeventfd=off" if accel == "tcg" or icount else "")]
    return cmd


def once(fn):
    """FN() computed by the first caller, whichever thread, and kept for the run."""
    lock, value = threading.Lock(), []

    @functools.wraps(fn)
    def first():
        with lock:
            if not value:
                value.append(fn())
            return value[0]
    return first


@once
def host_tsc_khz():
    """The host's TSC frequency in kHz (rig/tsc-khz.c, built into build/ when
    missing or older than its source), measured once per run; None if it
    cannot be measured (the guests then calibrate as before)."""
    src, exe = os.path.join(TOP, "rig", "tsc-khz.c"), os.path.join(BUILD, "tsc-khz")
    try:
        if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
            tmp = f"{exe}.tmp.{os.getpid()}"
            subprocess.run(["gcc", "-O2", "-o", tmp, src], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            os.replace(tmp, exe)
        out = subprocess.run([exe], stdout=subprocess.PIPE, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return int(out) if out.isdigit() else None


@once
def drive_aio():
    """",aio=io_uring" when this QEMU can use io_uring here, else "" (QEMU's
    thread pool).  io_uring costs less CPU per request (~10% of a boot that
    hashes its devices, group policy); a seccomp profile may forbid it, so
    one probe per run decides."""
    probe = ["qemu-system-x86_64", "-M", "none", "-nodefaults", "-no-user-config", "-display", "none",
             "-S", "-monitor", "stdio", "-drive", "file=/dev/null,format=raw,if=none,readonly=on,aio=io_uring"]
    try:
        ok = subprocess.run(probe, input="quit\n", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            text=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    return ",aio=io_uring" if ok else ""


class _BootSlots:
    """At most RIG_JOBS (default: CPUs) QEMU boots at once, whichever thread
    asks (guest groups, the upstream comparison pairs, root image
    preparation); a waiting boot that took longest last time goes first
    (build/group-times.json), so that parallel boots end together."""

    def __init__(self):
        self.cv = threading.Condition()
        self.busy = 0
        self.waiting = []
        self.seq = 0

    def acquire(self, expected):
        jobs = max(1, int(os.environ.get("RIG_JOBS", os.cpu_count() or 1)))
        with self.cv:
            self.seq += 1
            me = (-expected, self.seq)
            heapq.heappush(self.waiting, me)
            while self.busy >= jobs or self.waiting[0] != me:
                self.cv.wait()
            heapq.heappop(self.waiting)
            self.busy += 1
            self.cv.notify_all()

    def release(self):
        with self.cv:
            self.busy -= 1
            self.cv.notify_all()


_slots = _BootSlots()
_times_lock = threading.Lock()


def _last_times():
    try:
        with open(os.path.join(BUILD, "group-times.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def boot(accel, bz, initrd, name, images, cmdline="", rtc="", timeout=120, smp=1, run_dir=None, icount=False,
         writable=(), sleeps=False):
    """Boot once (waiting for a free slot, see _BootSlots; SLEEPS: a boot that
    mostly sleeps takes none); returns dict(console, results, status,
    timed_out, seconds, cpu, run_dir)."""
    run_dir = run_dir or os.path.join(BUILD, "runs", name)
    key = os.path.basename(run_dir)
    last = _last_times().get(key, _last_times().get(name, 0))
    if not sleeps:
        _slots.acquire(last)
    log(f"{time.strftime('%H:%M:%S')} {key}: booting" + (f" (last time {last:.1f} s)" if last else "")
        + (" (sleeps: no CPU slot)" if sleeps else ""))
    try:
        r = _boot(accel, bz, initrd, name, images, cmdline, rtc, timeout, smp, run_dir, icount, writable)
    finally:
        if not sleeps:
            _slots.release()
    with _times_lock:
        times = _last_times()
        times[key] = round(r["seconds"], 1)
        write_if_changed(os.path.join(BUILD, "group-times.json"), json.dumps(times))
    return r


# The format of the records reference_boot() keeps (boot()'s dict): part of
# their key, so that a record of another format is never judged.
REFERENCE_RECORD = 1


def reference_boot(accel, bz, initrd, name, images, cmdline="", rtc="", timeout=120, smp=1, expect=""):
    """boot() of a reference group on the kernel without the series (the
    stock side of rig/compare.py's pairs), whose record is kept in
    build/reference/NAME.json under a key of everything the boot depends on:
    QEMU's version and command line (but for the measured TSC rate), the
    kernel, the initramfs and every disk image, by content.  An identical
    boot is not repeated: its record is judged again (the series side always
    boots).  Only a record without a failure is kept; RIG_NO_REFERENCE_CACHE=1
    boots anyway."""
    run_dir = os.path.join(BUILD, "runs", name)
    cmd = qemu_cmd(accel, bz, initrd, run_dir, name, images, cmdline, rtc, smp)
    ver = subprocess.run(["qemu-system-x86_64", "--version"], stdout=subprocess.PIPE, text=True).stdout
    files = [bz, initrd or ""] + sorted(images.values())
    key = sha(REFERENCE_RECORD, ver, [re.sub(r"\btsc_early_khz=\d+", "", a) for a in cmd],
              [file_sha(f) if f else "" for f in files])
    path = os.path.join(BUILD, "reference", name + ".json")
    if os.environ.get("RIG_NO_REFERENCE_CACHE") != "1":
        try:
            with open(path) as f:
                kept = json.load(f)
        except (OSError, ValueError):
            kept = {}
        if kept.get("key") == key:
            log(f"{time.strftime('%H:%M:%S')} {name}: the same boot as on {kept['when']} "
                f"(build/reference/{name}.json): its record, judged again")
            r = dict(kept["record"], run_dir=run_dir, cached=True)
            shutil.rmtree(run_dir, ignore_errors=True)
            os.makedirs(run_dir)
            for field, f in (("console", "console.log"), ("results", "results.ktap"), ("status", "status")):
                write_if_changed(os.path.join(run_dir, f), r[field])
            write_if_changed(os.path.join(run_dir, "reference"),
                             f"logs of build/reference/{name}.json, a boot of {kept['when']}\n")
            return r
    r = boot(accel, bz, initrd, name, images, cmdline, rtc, timeout, smp)
    if not any(x.status == ktap.FAIL for x in judge(name, r, expect)):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_if_changed(path, json.dumps({"key": key, "when": time.strftime("%Y-%m-%d %H:%M:%S"), "record": r}))
    return r


def _boot(accel, bz, initrd, name, images, cmdline, rtc, timeout, smp, run_dir, icount, writable):
    shutil.rmtree(run_dir, ignore_errors=True)
    os.makedirs(run_dir)
    cmd = qemu_cmd(accel, bz, initrd, run_dir, name, images, cmdline, rtc, smp, icount, writable)
    with open(os.path.join(run_dir, "qemu.cmd"), "w") as f:
        f.write(shlex.join(cmd) + "\n")
    t0 = time.monotonic()
    # QEMU at nice RIG_QEMU_NICE (default 5): the host suites' chains of
    # short processes, which run beside the boots, get the CPU first and do not
    # end last; the boots take the rest.
    nice = ["nice", "-n", os.environ.get("RIG_QEMU_NICE", "5")]
    p = subprocess.Popen(nice + cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    timed_out = False
    first = None        # seconds from QEMU start to the first byte of results
    results = os.path.join(run_dir, "results.ktap")
    while True:
        # wait4: QEMU's CPU time too (what a boot costs, whatever the load).
        pid, status, ru = os.wait4(p.pid, 0 if timed_out else os.WNOHANG)
        if pid:
            p.returncode = os.waitstatus_to_exitcode(status)
            break
        now = time.monotonic()
        if first is None and os.path.exists(results) and os.path.getsize(results) > 0:
            first = now - t0
        if now - t0 > timeout:
            p.kill()
            timed_out = True
            continue
        time.sleep(0.01)
    qout = p.stdout.read()
    p.stdout.close()
    secs = time.monotonic() - t0
    return {"cpu": ru.ru_utime + ru.ru_stime,
        "console": read(os.path.join(run_dir, "console.log"), ""),
        "results": read(os.path.join(run_dir, "results.ktap"), ""),
        "status": read(os.path.join(run_dir, "status"), ""),
        "qemu": qout.decode(errors="replace"), "rc": p.returncode,
        "timed_out": timed_out, "seconds": secs, "first_result": first, "run_dir": run_dir,
    }


_rootfs_lock = threading.Lock()
DIRTY = "-dirty"


def prepare_dirty(accel, bz, initrd, name, base):
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
    key = sha(file_sha(base), read(os.path.join(gdir, "prepare-dirty.sh")), read(os.path.join(gdir, "modlib.sh")))
    return prepare_image(accel, bz, initrd, "prepare-dirty", name, base, out, key, check_dirty)


def prepare_image(accel, bz, initrd, script, name, base, out, key, check=None):
    """OUT: image BASE after a boot of the initramfs that ran
    tests/guest/SCRIPT.sh with a copy of it writable as disk NAME, kept until
    KEY changes.  CHECK(NAME, PATH), if given, returns why the result is no
    good (or None)."""
    with _rootfs_lock:
        if read(out + ".stamp") == key and os.path.exists(out):
            return out
        tmp = out + ".tmp"
        shutil.copyfile(base, tmp)
        run = os.path.join(BUILD, "runs", f"{script}-{name}")
        r = boot(accel, bz, initrd, script, {name: tmp}, timeout=120 * timeout_scale(),
                 run_dir=run, writable=(name,))
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


def guest_images(accel, bz, initrd, names, images):
    """{name: path} of the disks NAMES as the kernel BZ sees them: IMAGES
    (build_images()), with NAME-dirty images prepared by that kernel."""
    return {i: prepare_dirty(accel, bz, initrd, i, images[i]) if i.endswith(DIRTY) else images[i] for i in names}


def prepare_rootfs(accel, bz, initrd, name, base):
    """A root filesystem image for booting without initramfs (root=/dev/vda).

    The host never mounts it: a preparation boot of the initramfs gets a copy
    of the empty image NAME as a writable disk, and tests/guest/prepare-rootfs.sh
    mounts it read-write in the guest and copies busybox, /init and the guest
    scripts onto it.  Remade when the base image or the initramfs changes."""
    kern = os.path.basename(initrd)[len("initramfs-"):-len(".cpio")]    # kobj-FLAVOUR
    out = os.path.join(BUILD, "images", name + (".rootfs.img" if kern == "kobj-default" else f".rootfs-{kern}.img"))
    key = sha(file_sha(base), read(initrd + ".stamp", ""), file_sha(bz))
    return prepare_image(accel, bz, initrd, "prepare-rootfs", name, base, out, key)


_accel_lock = threading.Lock()


def accelerator(bz, initrd):
    # One probe, whichever thread asks first (run_groups(), rig/compare.py).
    with _accel_lock:
        return _accelerator(bz, initrd)


def _accelerator(bz, initrd):
    forced = os.environ.get("RIG_ACCEL")
    if forced:
        if forced not in ("kvm", "tcg"):
            die(f"RIG_ACCEL={forced!r}: use kvm or tcg")
        return forced
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return "tcg"
    cache = os.path.join(BUILD, "accel")
    cached = read(cache, "").strip()
    if cached in ("kvm", "tcg"):
        return cached
    # Bounded probe: a KVM guest must reach the end of init within 15 s
    # (TCG needs ~2 s); on these machines KVM guests can hang forever.
    r = boot("kvm", bz, initrd, "probe", {}, timeout=15, run_dir=os.path.join(BUILD, "runs", "kvm-probe"))
    acc = "kvm" if "rig-exit 0" in r["status"] else "tcg"
    why = "works" if acc == "kvm" else "no answer in 15 s" if r["timed_out"] else \
        "failed: " + (r["qemu"].strip().splitlines() or ["no exit status"])[0]
    log(f"KVM probe: {why} -> using {acc.upper()}")
    write_if_changed(cache, acc + "\n")
    return acc


# Allocator frames at the top of a kmemleak backtrace: a leak is named after
# the first frame below them.
_ALLOC_FRAME = re.compile(
    r"^(kmemleak_\w+|__?kmalloc\w*|kmalloc\w*|__?kmem_cache_\w*|kmem_cache_\w+|slab_\w+|__slab_\w+|"
    r"__?alloc_pages\w*|alloc_pages\w*|__?kvmalloc\w*|kvmalloc\w*|__?kzalloc\w*|kzalloc\w*|kcalloc\w*|"
    r"kmalloc_array\w*|krealloc\w*|__?vmalloc\w*|vmalloc\w*|vzalloc\w*|__?get_free_pages\w*|"
    r"kstrdup\w*|kstrndup\w*|kmemdup\w*|kasprintf\w*|kvasprintf\w*|__do_kmalloc\w*|__kmem_cache_alloc\w*)$")


def kmemleak_result(name, status, required):
    """The kmemleak report tests/guest/init puts on the status channel.

    Returns a Result ("NAME: kmemleak: no leaks"), or None when the boot has no
    report and none is REQUIRED (kernels without kmemleak).  Each distinct
    leak (same function chain) is named by its first frames below the
    allocator, with how many objects leaked that way."""
    test = f"{name}: kmemleak: no leaks"
    m = re.search(r"^rig-kmemleak begin\n(.*?)^rig-kmemleak (end (\d+)|unavailable[^\n]*)$", status, re.S | re.M)
    if not m:
        if not required:
            return None
        return ktap.Result(test, ktap.FAIL, ["no kmemleak report on the status channel (the guest did not "
                                             "finish, or kmemleak is not in this kernel)"])
    if m.group(3) is None:
        return ktap.Result(test, ktap.FAIL, [m.group(2)] + m.group(1).strip().splitlines()[-5:])
    leaks = {}      # function chain below the allocator -> [objects, first object's header, its frames]
    for block in re.split(r"^(?=unreferenced object )", m.group(1), flags=re.M):
        if not block.startswith("unreferenced object"):
            continue
        lines = block.splitlines()
        bt = next((i + 1 for i, l in enumerate(lines) if l.strip().startswith("backtrace")), len(lines))
        frames = [l.strip() for l in lines[bt:] if l.strip()]
        funcs = [re.split(r"[+ ]", f)[0] for f in frames]
        top = next((i for i, f in enumerate(funcs) if not _ALLOC_FRAME.match(f)), 0)
        comm = next((l.strip() for l in lines if l.strip().startswith("comm ")), "")
        e = leaks.setdefault(tuple(funcs[top:top + 6]), [0, f"{lines[0].strip()} {comm}", frames[top:top + 3]])
        e[0] += 1
    total = int(m.group(3))
    if total == 0 and not leaks:
        return ktap.Result(test, ktap.PASS)
    ranked = sorted(leaks.items(), key=lambda kv: -kv[1][0])
    detail = [f"{total} suspected leak(s), {len(leaks)} distinct backtrace(s) in the first 400 lines of "
              "/sys/kernel/debug/kmemleak" + (", the first 3:" if len(leaks) > 3 else ":")]
    for chain, (n, head, frames) in ranked[:3]:
        detail.append(f"leak in {chain[0] if chain else '?'} ({n} object(s)), e.g. {head}")
        detail += [f"    {f}" for f in frames]
    return ktap.Result(test, ktap.FAIL, detail)


def judge(name, r, expect="", kmemleak=None):
    """Turn one boot into results: the group's own KTAP plus boot/console checks.

    EXPECT: the group's expect_panic regular expression, if any.  KMEMLEAK:
    whether the boot must carry a kmemleak report (default: the debug kernel)."""
    if kmemleak is None:
        kmemleak = debug_mode()
    res = ktap.parse(r["results"].splitlines(), prefix=f"{name}: ")
    console = r["console"]
    tail = console.splitlines()[-25:]
    m = re.search(r"rig-exit (\d+)", r["status"])
    if expect:
        # The boot is expected to end in a panic that says EXPECT, with no
        # results; the kernel log before the panic must be clean.
        if not r["results"].strip():
            res = []
        lines = console.splitlines()
        cut = next((i for i, l in enumerate(lines) if "Kernel panic" in l), None)
        ok = cut is not None and re.search(expect, console) and not r["timed_out"]
        res.append(ktap.Result(f"{name}: boot refused as expected", ktap.PASS if ok else ktap.FAIL,
                               [] if ok else tail + [f"expected a panic after /{expect}/"]))
        console = "\n".join(lines[:cut] if cut is not None else lines)
    elif r["timed_out"]:
        res.append(ktap.Result(f"{name}: guest finished", ktap.FAIL,
                               tail + [f"timeout after {r['seconds']:.0f} s (hang?)"]))
    elif not m:
        res.append(ktap.Result(f"{name}: guest finished", ktap.FAIL,
                               tail + ["guest stopped without an exit status (panic or crash?)",
                                       r["qemu"].strip()]))
    else:
        rc = int(m.group(1))
        if rc != 0 and not any(x.status == ktap.FAIL for x in res):
            res.append(ktap.Result(f"{name}: guest finished", ktap.FAIL,
                                   tail + [f"test script exited {rc} although no result failed"]))
        else:
            res.append(ktap.Result(f"{name}: guest finished", ktap.PASS))
    if not expect:
        leak = kmemleak_result(name, r["status"], kmemleak)
        if leak:
            res.append(leak)
    bad = [l for l in console.splitlines() if CONSOLE_BAD.search(l)]
    if bad:
        idx = console.splitlines().index(bad[0])
        # Name every distinct report (up to 3 more), then the first one's context;
        # report() shows the last 16 detail lines, one is the logs line.
        strip = lambda l: re.sub(r"^\[\s*[\d.]+\]\s*", "", l).strip()
        heads = []
        for l in bad[1:]:
            h = strip(l)
            if h not in heads and h not in (strip(bad[0]), "Call Trace:"):
                heads.append(h)
        head = [f"{len(bad)} bad line(s), first: {bad[0].strip()}"] + [f"also: {h}" for h in heads[:3]]
        ctx = console.splitlines()[max(0, idx - 3): idx + 20]
        res.append(ktap.Result(f"{name}: kernel log clean", ktap.FAIL,
                               head + ["context:"] + ctx[:14 - len(head)]))
    else:
        res.append(ktap.Result(f"{name}: kernel log clean", ktap.PASS))
    failed = [x for x in res if x.status == ktap.FAIL]
    if failed:
        failed[-1].detail.append(f"logs kept in {os.path.relpath(r['run_dir'], TOP)}/")
    return res


def run_groups(names, bz, initrd, allgroups, run_tag="", kernels=None):
    """KERNELS: {flavour: (bzImage, initramfs)} for groups with `flavour =`."""
    images = build_images(sorted({i for n in names for i in allgroups[n]["images"]}))
    accel = accelerator(bz, initrd)

    def one(n):
        g = allgroups[n]
        bz, initrd = (kernels or {}).get(g["flavour"], (bz0, initrd0))
        imgs = guest_images(accel, bz, initrd, g["images"], images)
        rd, cmdline = initrd_for(initrd, g), g["cmdline"]
        if g["rootfs"]:
            imgs[g["rootfs"]] = prepare_rootfs(accel, bz, initrd, g["rootfs"], images[g["rootfs"]])
            rd, cmdline = None, f"root=/dev/vda init=/init {cmdline}"
        r = boot(accel, bz, rd, n, imgs, cmdline, g["rtc"], g["timeout"], g["smp"],
                 run_dir=os.path.join(BUILD, "runs", run_tag + n), icount=g["icount"], sleeps=g["sleeps"])
        log(f"{n}: {r['seconds']:.1f} s ({r['cpu']:.1f} s CPU, {accel})")
        return judge(n, r, g["expect_panic"], kmemleak=debug_mode() or g["flavour"].endswith("-debug") or None), r

    # Longest first (by the last run's times), so parallel boots finish together;
    # results are still reported in the configured order.
    times_file = os.path.join(BUILD, "group-times.json")
    try:
        with open(times_file) as f:
            times = json.load(f)
    except (OSError, ValueError):
        times = {}
    order = sorted(names, key=lambda n: -times.get(run_tag + n, times.get(n, 0)))
    bz0, initrd0 = bz, initrd
    # Every group waits in boot()'s queue at once (at most RIG_JOBS run; boot()
    # records the times).
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(order))) as ex:
        done = dict(zip(order, ex.map(one, order)))
    results = []
    for n in names:
        results += done[n][0]
    return results, accel


# ---------------------------------------------------------------- host suites

def host_suites():
    suites = [("parser", [sys.executable, os.path.join(TOP, "tests", "parser", "run.py")])]
    suites.append(("compare", [sys.executable, os.path.join(TOP, "tests", "compare", "run.py")]))
    if os.path.exists(os.path.join(TOP, "fsaudit", "Makefile")):
        # --no-print-directory: their stdout is TAP, also under `make -C DIR check`
        # (whose -w reaches them through MAKEFLAGS).
        make = ["make", "-s", "--no-print-directory", "-C", os.path.join(TOP, "fsaudit")]
        suites.append(("fsaudit", make + ["check"]))
        suites.append(("fsaudit-install", make + ["check-install"]))
    return suites


def run_timed(cmd):
    """subprocess.run(cmd, capture) that also measures the command's CPU time
    (its children's included): (CompletedProcess, wall seconds, CPU seconds)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out = {}
    readers = [threading.Thread(target=lambda k, f: out.__setitem__(k, f.read()), args=(k, f))
               for k, f in (("out", p.stdout), ("err", p.stderr))]
    for t in readers:
        t.start()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    for t in readers:
        t.join()
    return (subprocess.CompletedProcess(cmd, p.returncode, out["out"], out["err"]),
            time.monotonic() - t0, ru.ru_utime + ru.ru_stime)


def run_host_suites():
    """Every host suite at once (each is one process; results in the configured order)."""
    def one(suite):
        name, cmd = suite
        log(f"{time.strftime('%H:%M:%S')} host suite {name}: starting")
        r, wall, cpu = run_timed(cmd)
        log(f"host suite {name}: {wall:.1f} s ({cpu:.1f} s CPU)")
        res = ktap.parse(r.stdout.splitlines(), prefix=f"{name}: ")
        if r.returncode != 0 and not any(x.status == ktap.FAIL for x in res):
            res.append(ktap.Result(f"{name}: exit status", ktap.FAIL,
                                   r.stderr.splitlines()[-10:] + [f"exited {r.returncode}"]))
        return res
    suites = host_suites()
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(suites)) as ex:
        return [r for res in ex.map(one, suites) for r in res]


# ---------------------------------------------------------------- commands

_prepared = {}


def prepare():
    """Kernel and initramfs of the kernel RIG_STOCK / RIG_KERNEL_FLAVOUR select;
    done once per process (rig/compare.py asks again for the patched kernel)."""
    key = tuple(os.environ.get(v) for v in ("RIG_STOCK", "RIG_KERNEL_FLAVOUR", "RIG_BZIMAGE"))
    if key not in _prepared:
        bz, obj = kernel()
        src = os.path.join(BUILD, "linux-stock" if os.environ.get("RIG_STOCK") == "1" else "linux")
        with Step(f"initramfs {os.path.basename(obj)}"):
            initrd = build_initramfs(src, obj)
        _prepared[key] = (bz, initrd)
    return _prepared[key]


def prepare_flavour(flavour):
    """prepare() for kernel flavour FLAVOUR (kernel/configs/FLAVOUR/), as for groups
    with `flavour = FLAVOUR`; the environment is restored afterwards."""
    old = os.environ.get("RIG_KERNEL_FLAVOUR")
    os.environ["RIG_KERNEL_FLAVOUR"] = flavour
    try:
        return prepare()
    finally:
        if old is None:
            del os.environ["RIG_KERNEL_FLAVOUR"]
        else:
            os.environ["RIG_KERNEL_FLAVOUR"] = old


def cmd_check(args):
    allg = groups()
    kinds = ("check", "debug") if debug_mode() else ("check",)
    # A group with its own `flavour =` boots that kernel; in `make check-debug`
    # only such groups of kind debug run (the others ran in `make check`).
    names = args.groups or [n for n in allg if allg[n]["kind"] in kinds
                            and not (debug_mode() and allg[n]["flavour"] and allg[n]["kind"] != "debug")]
    for n in names:
        if n not in allg:
            die(f"unknown group {n!r}; groups: {', '.join(allg)}")
    # The host suites need no kernel: they start first and run beside
    # everything else.
    # (fsaudit is built first: the initramfs takes the same binary.)
    hostpool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    host = None
    if not args.groups and not debug_mode():
        if os.path.exists(os.path.join(TOP, "fsaudit", "Makefile")):
            subprocess.run(["make", "-s", "-C", os.path.join(TOP, "fsaudit"), "fsaudit"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        host = hostpool.submit(run_host_suites)
    try:
        bz, initrd = prepare()
    except RigError as e:
        # Still one line per test and the summary: the build is a test too.
        log(f"error: {e}")
        results = [ktap.Result("build: kernel, images and initramfs", ktap.FAIL, str(e).splitlines()[-16:])]
        results = (host.result() if host else []) + results
        ktap.report(results)
        print(ktap.summary(results))
        return 1
    # Other kernel flavours the groups ask for; a failed build fails its groups only.
    kernels, build_fail = {}, []
    for fl in dict.fromkeys(allg[n]["flavour"] for n in names if allg[n]["flavour"]):
        try:
            kernels[fl] = prepare_flavour(fl)
        except RigError as e:
            log(f"error: {e}")
            skipped = [n for n in names if allg[n]["flavour"] == fl]
            build_fail.append(ktap.Result(f"build: kernel flavour {fl} (groups {', '.join(skipped)})", ktap.FAIL,
                                          str(e).splitlines()[-16:]))
            names = [n for n in names if n not in skipped]
    # The debug kernel changes nothing for the host suites: guest groups only,
    # their logs in build/runs/debug-GROUP.
    tag = ""
    if debug_mode():
        tag = ("stock-" if os.environ.get("RIG_STOCK") == "1" else "") + DEBUG_FLAVOUR + "-"
    pairs = []
    if not args.groups and not os.environ.get("RIG_KERNEL_FLAVOUR") and os.environ.get("RIG_STOCK") != "1":
        # The pairs of rig/compare.py (upstream's own tests; every ext2 mount
        # option: the same errnos, options, messages) on the patched and the
        # stock kernel, results compared.
        pairs = list(getattr(compare, "PAIRS", ["upstream"]))

    def comparisons():
        # One pair after the other in this one thread (rig/compare.py sets
        # RIG_STOCK while it prepares the stock kernel); their boots queue
        # with the groups' in boot().
        return [r for p in pairs for r in compare.check(sys.modules[__name__], *([p] if p != "upstream" else []))[0]]
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as ex:
        comp = ex.submit(comparisons)
        gres, accel = run_groups(names, bz, initrd, allg, run_tag=tag, kernels=kernels)
        results = (host.result() if host else []) + build_fail + gres + comp.result()
    hostpool.shutdown()
    ktap.report(results)
    print(f"(guest accelerator: {accel})", file=sys.stderr)
    print(ktap.summary(results))
    return 1 if any(r.status == ktap.FAIL for r in results) else 0


def cmd_demo(args):
    import demo     # rig/demo.py: the story, the summary table and its checks
    return demo.run(sys.modules[__name__])


def cmd_bench(args):
    """Run the bench groups; print "bench NAME ns_per_cycle R1 R2 …" per benchmark."""
    allg = groups()
    names = args.groups or [n for n in allg if allg[n]["kind"] == "bench"]
    bz, initrd = prepare()
    tag = "stock-" if os.environ.get("RIG_STOCK") == "1" else "series-"
    res, _ = run_groups(names, bz, initrd, allg, run_tag=tag)
    failed = [r for r in res if r.status == ktap.FAIL]
    if failed:
        ktap.report(failed)
        return 1
    rounds = {}
    for n in names:
        text = read(os.path.join(BUILD, "runs", tag + n, "results.ktap"), "")
        for m in re.finditer(r"^# bench (\S+) round \d+ ns_per_cycle (\d+)$", text, re.M):
            rounds.setdefault(m.group(1), []).append(int(m.group(2)))
    for b, v in rounds.items():
        print(f"bench {b} ns_per_cycle " + " ".join(map(str, v)))
    return 0


def cmd_boot(args):
    allg = groups()
    if allg.get(args.group, {}).get("flavour") and not os.environ.get("RIG_KERNEL_FLAVOUR"):
        os.environ["RIG_KERNEL_FLAVOUR"] = allg[args.group]["flavour"]
    bz, initrd = prepare()
    g = allg.get(args.group, {"images": [], "cmdline": "", "rtc": "", "timeout": 120 * timeout_scale(), "smp": 1})
    names = args.images.split(",") if args.images else g["images"]
    imgs = build_images(names)
    accel = accelerator(bz, initrd)
    imgs = guest_images(accel, bz, initrd, names, imgs)
    r = boot(accel, bz, initrd_for(initrd, g), args.group, {n: imgs[n] for n in names},
             (g["cmdline"] + " " + (args.cmdline or "")).strip(), args.rtc or g["rtc"], g["timeout"], g["smp"])
    sys.stdout.write(r["console"])
    print("---- results channel ----")
    sys.stdout.write(r["results"])
    first = f"{r['first_result']:.2f} s" if r["first_result"] is not None else "never"
    print(f"---- status: {r['status'].strip() or '(none)'} ({r['seconds']:.1f} s, first result after {first},"
          f" {accel})")
    res = judge(args.group, r, g.get("expect_panic", ""))
    ktap.report(res)
    print(ktap.summary(res))
    return 1 if any(x.status == ktap.FAIL for x in res) else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    flav = dict(metavar="NAME", help="kernel flavour kernel/configs/NAME/ (sets RIG_KERNEL_FLAVOUR); "
                "debug: the sanitizer kernel, guest groups of kind check and debug")
    p = sub.add_parser("check")
    p.add_argument("groups", nargs="*")
    p.add_argument("--flavour", **flav)
    p.set_defaults(fn=cmd_check)
    p = sub.add_parser("run")
    p.add_argument("groups", nargs="+")
    p.add_argument("--flavour", **flav)
    p.set_defaults(fn=cmd_check)
    sub.add_parser("demo").set_defaults(fn=cmd_demo)
    p = sub.add_parser("build")
    p.add_argument("--flavour", **flav)
    p.set_defaults(fn=lambda a: (prepare(), 0)[1])
    p = sub.add_parser("bench")
    p.add_argument("groups", nargs="*")
    p.set_defaults(fn=cmd_bench)
    # Upstream's tests on the patched and the stock kernel, results compared (rig/compare.py).
    sub.add_parser("check-upstream").set_defaults(fn=lambda a: compare.cmd(sys.modules[__name__], a))
    sub.add_parser("check-ext2-options").set_defaults(
        fn=lambda a: compare.cmd(sys.modules[__name__], a, "ext2-options"))
    p = sub.add_parser("boot")
    p.add_argument("group")
    p.add_argument("--cmdline")
    p.add_argument("--rtc")
    p.add_argument("--images")
    p.add_argument("--flavour", **flav)
    p.set_defaults(fn=cmd_boot)
    args = ap.parse_args()
    if getattr(args, "flavour", None):
        os.environ["RIG_KERNEL_FLAVOUR"] = args.flavour
    # One rig run at a time per checkout: runs share build/ (kernel objects,
    # initramfs, build/runs/GROUP); a second one waits instead of clobbering.
    os.makedirs(BUILD, exist_ok=True)
    lock = open(os.path.join(BUILD, ".rig.lock"), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        log("another rig run is using build/; waiting for it")
        fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        sys.exit(args.fn(args))
    except RigError as e:
        log(f"error: {e}")
        sys.exit(2)


if __name__ == "__main__":
    main()
