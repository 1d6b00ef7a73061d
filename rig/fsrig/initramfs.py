# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""The initramfs of a kernel: what every guest boots.

build() stages static busybox with its applet links, tests/guest/init, the
guest scripts tests/guest/*.sh, the C programs tests/guest/*.c as one static
multi-call binary (build_guest_programs()), a modular kernel's modules with
busybox's module tools, and a wrapper script per `selftest =` group; and
beside it the extras: the kselftests of tests/selftests.conf built static
from the kernel's own tree, and the host programs of tests/host-programs.conf
with their libraries.  It writes initramfs-kobj-X.cpio (the base) and
initramfs-kobj-X-full.cpio (the base followed by the extras, for groups with
`extras = yes` or `selftest =`: initrd_for()), again only when the staged
content changes (content_key()).
"""

import os
import re
import shutil
import subprocess

from .common import BUILD, TOP, die, file_sha, read, sha, write_if_changed

GUEST_DIR = os.path.join(TOP, "tests", "guest")


def selftest_dirs():
    text = read(os.path.join(TOP, "tests", "selftests.conf"), "")
    return [l.split("#")[0].strip() for l in text.splitlines() if l.split("#")[0].strip()]


def series_adds(patches_dir, path):
    """Whether a patch of the series in PATCHES_DIR creates or changes files under PATH/."""
    if not patches_dir or not os.path.isdir(patches_dir):
        return False
    needle = f"+++ b/{path.rstrip('/')}/"
    return any(needle in read(os.path.join(patches_dir, f), "")
               for f in sorted(os.listdir(patches_dir)) if f.endswith(".patch"))


def fs_kunit_suites(src):
    """The suites of tests/fs-kunit.conf whose source the tree SRC has."""
    suites = []
    for line in read(os.path.join(TOP, "tests", "fs-kunit.conf"), "").splitlines():
        words = line.split("#", 1)[0].split()
        if len(words) != 2:
            if words:
                die(f"tests/fs-kunit.conf: not SUITE SOURCE: {line!r}")
            continue
        if os.path.isfile(os.path.join(src, words[1])):
            suites.append(words[0])
    return suites


def build_selftests(src, obj, dest, patches_dir=None):
    """Build the kselftests named in tests/selftests.conf from the tree SRC,
    statically linked (as the kselftest documentation asks for a minimal
    guest), copied stripped (debug info is most of their size), on every
    base.  A directory that SRC does not have is listed in DEST/absent, one
    per line, so that the guest reports its programs as not in this
    kernel's tree (tests/guest/upstream.sh): the series' own on the stock
    tree, upstream's that a base predates (6.1 has no filesystems/statmount).
    One that the series applied to SRC (PATCHES_DIR; None for the stock
    tree) adds must be there."""
    hdrs = os.path.join(obj, "usr-headers", "include")
    absent = []
    for d in selftest_dirs():
        sdir = os.path.join(src, "tools", "testing", "selftests", d)
        if not os.path.isdir(sdir):
            if series_adds(patches_dir, f"tools/testing/selftests/{d}"):
                die(f"selftest directory {d} listed in tests/selftests.conf is not in the patched tree")
            absent.append(d)
            continue
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
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(dest, "absent"), "w") as f:
        f.write("".join(d + "\n" for d in absent))


def program_key(source, headers, hdrs, ident):
    """The key of one guest program's object: its source, the headers beside
    it (guest.h), the kernel UAPI headers' directory and its main()'s name."""
    return sha(source, *headers, hdrs, ident)


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
    gdir = GUEST_DIR
    # Headers beside the programs (guest.h) are part of every program's key.
    shared = [read(os.path.join(gdir, h)) for h in sorted(os.listdir(gdir)) if h.endswith(".h")]
    progs, objs = [], []
    for f in sorted(os.listdir(gdir)):
        if not f.endswith(".c"):
            continue
        name = f[:-2]
        ident = "guest_main_" + re.sub(r"\W", "_", name)
        src = os.path.join(gdir, f)
        key = program_key(read(src), shared, hdrs, ident)
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


def content_key(parts):
    """The key of staged trees PARTS ((part name, directory), ...): every
    file's path, content and mode, every link's target; not the times."""
    files = []
    for part, d in parts:
        for root, _, fs in os.walk(d):
            for f in fs:
                p = os.path.join(root, f)
                if os.path.islink(p):       # busybox's applets, the multi-call programs
                    files.append((part, os.path.relpath(p, d), "-> " + os.readlink(p)))
                else:
                    files.append((part, os.path.relpath(p, d), file_sha(p), os.stat(p).st_mode))
    return sha(sorted(files))


def build(src, obj, groups, out_dir=BUILD, patches_dir=None):
    """The initramfs of the kernel in OBJ (built from the tree SRC):
    OBJ's initramfs-kobj-X.cpio, and beside it
    initramfs-kobj-X-full.cpio, the same followed by the extras: the
    kselftests (tests/selftests.conf) and the host programs
    (tests/host-programs.conf: fsaudit, mkfs.ext4, their libraries).  Only
    the groups that use them (`extras = yes`, or `selftest =`) boot the full
    one (initrd_for()): every boot unpacks its initramfs, ~17 ms of TCG per
    MB on the boot's critical path, and the extras are 11 of its 15 MB.
    GROUPS: the run's groups ({name: Group}), for the wrappers of `selftest =`
    groups.  OUT_DIR: where the archives and their staging trees go (build/,
    or build/vNN/ for another base: Kernel.build_root); PATCHES_DIR: the
    series applied to SRC, None for a stock kernel (build_selftests()).
    Returns the path of the first."""
    os.makedirs(out_dir, exist_ok=True)
    stage = os.path.join(out_dir, f"initramfs-{os.path.basename(obj)}.d")
    xstage = os.path.join(out_dir, f"initramfs-{os.path.basename(obj)}-extras.d")
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
    shutil.copy2(os.path.join(GUEST_DIR, "init"), os.path.join(stage, "init"))
    for f in os.listdir(GUEST_DIR):
        if f.endswith(".sh"):
            shutil.copy2(os.path.join(GUEST_DIR, f), os.path.join(stage, "tests", f))
    build_guest_programs(obj, os.path.join(stage, "tests"))
    with open(os.path.join(stage, "tests", "fs-kunit"), "w") as f:
        f.write("".join(n + "\n" for n in fs_kunit_suites(src)))
    build_selftests(src, obj, os.path.join(xstage, "tests", "selftests"), patches_dir)
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
    for name, g in groups.items():
        if g.selftest:
            p = os.path.join(stage, "tests", (g.script or name) + ".sh")
            with open(p, "w") as f:
                f.write(f"#!/bin/sh\nexec env {g.env} /tests/selftests/{g.selftest} {g.args}\n")
            os.chmod(p, 0o755)
    # Content hash of the trees decides whether the archives are rewritten.
    key = content_key((("base", stage), ("extras", xstage)))
    out = os.path.join(out_dir, f"initramfs-{os.path.basename(obj)}.cpio")
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


def kernel_tag(initrd):
    """The name of the kernel of initramfs INITRD in file names:
    kobj-FLAVOUR for build/initramfs-kobj-FLAVOUR.cpio, vNN-kobj-FLAVOUR for
    another base's build/vNN/initramfs-kobj-FLAVOUR.cpio (Kernel.build_root)."""
    kern = os.path.basename(initrd)[len("initramfs-"):-len(".cpio")]
    d = os.path.basename(os.path.dirname(os.path.abspath(initrd)))
    return f"{d}-{kern}" if re.fullmatch(r"v\d+", d) else kern


def initrd_for(initrd, group):
    """The initramfs GROUP boots: INITRD (build()), or its full variant with
    the kselftests and host programs if GROUP uses them."""
    if initrd and group.extras:
        return initrd[:-len(".cpio")] + "-full.cpio"
    return initrd
