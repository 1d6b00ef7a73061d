# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""tests/groups.conf: the guest test groups, one QEMU boot each.

parse() turns the file's text into Group values (the keys are documented at
the top of tests/groups.conf and in docs/rig.md); keys the rig does not know
are ignored.  The values depend on the kernel the run is for: on the debug
kernel (`make check-debug`) timeouts are multiplied by the scale
(RIG_DEBUG_TIMEOUT_SCALE) and `debug_env =` replaces `env =`; a group on a
flavour of its own ending in -debug gets the scaled timeout everywhere.

A group with `bases = 7.3 ...` is also run on those bases, as a group of its
own named NAME@BASE (its `base =` that base, its script or kselftest the
same), without the images of the filesystems that base no longer has
(removed_filesystems()): one script tests every base.

for_check() selects what `check` runs: the groups of kind check (and, on the
debug kernel, of kind debug; there a group with a flavour or a base of its
own runs only if it is of kind debug, the others ran in `make check`).  A run
on another base (`--base 7.3`) selects only the groups of that base.
"""

import configparser
import dataclasses
import os

from .common import TOP, die
from .kernel import BASES, DEFAULT_BASE, Kernel

GROUPS_CONF = os.path.join(TOP, "tests", "groups.conf")
KINDS = ("check", "demo", "bench", "stock", "debug", "pending")
DEFAULT_TIMEOUT = 120


# Read-only root filesystems the host makes from the initramfs tree (mkfs,
# never a mount): `hostroot = TYPE` boots the group from one (images.host_rootfs()).
HOSTROOT_TYPES = ("cramfs",)
# Debian roots with systemd as PID 1 (rig/fsrig/system.py): `system = SUITE`
# boots the group from one, its script is tests/system/NAME.sh.
SYSTEM_SUITES = ("trixie", "bookworm")
# `system_root = FORMAT`: the format of that root (system.ROOT_FORMATS).
SYSTEM_ROOTS = ("ext4", "ext4-128")


@dataclasses.dataclass(frozen=True)
class Group:
    """One section of tests/groups.conf, as the run sees it."""
    name: str
    images: tuple = ()
    cmdline: str = ""
    rtc: str = ""
    timeout: int = DEFAULT_TIMEOUT
    selftest: str = ""
    env: str = ""
    args: str = ""
    smp: int = 1
    kind: str = "check"
    icount: bool = False
    rootfs: str = ""
    hostroot: str = ""
    system: str = ""
    system_root: str = "ext4"
    hotplug: tuple = ()
    expect_panic: str = ""
    known_report: str = ""      # a console report that is not a failure (judge.known_stacks())
    flavour: str = ""
    base: str = ""              # the kernel base it boots on ("": the run's)
    script: str = ""            # the guest script it runs, /tests/SCRIPT.sh ("": its name)
    extras: bool = False
    sleeps: bool = False


def removed_filesystems(base):
    """The filesystem types that BASE no longer has (kernel/BASE/removed-filesystems,
    one per line, # comments): an image named after one (reiserfs36,
    reiserfs-root) is left out of a group's run on that base."""
    if base not in BASES:
        return ()
    try:
        with open(os.path.join(TOP, BASES[base], "removed-filesystems")) as f:
            return tuple(w for line in f for w in line.split("#", 1)[0].split())
    except FileNotFoundError:
        return ()


def on_base(images, removed):
    """IMAGES without those of the REMOVED filesystem types."""
    return tuple(i for i in images if not any(i.startswith(t) for t in removed))


def parse(text, debug=False, timeout_scale=8, flavour_exists=None, removed=removed_filesystems):
    """{name: Group} of groups.conf TEXT, in the file's order.

    DEBUG: for the debug kernel (timeouts scaled, debug_env).  FLAVOUR_EXISTS:
    a function telling whether kernel flavour NAME exists on BASE (default: a
    directory kernel/configs/NAME/, kernel/BASE/configs/NAME/ for another
    base)."""
    if flavour_exists is None:
        flavour_exists = lambda f, b=DEFAULT_BASE: os.path.isdir(  # noqa: E731
            os.path.join(Kernel(base=b).configs_dir, f))
    cp = configparser.ConfigParser(interpolation=None)
    cp.read_string(text, source="tests/groups.conf")
    out = {}
    for name in cp.sections():
        s = cp[name]
        g = dict(
            images=tuple(s.get("images", "").split()),
            cmdline=s.get("cmdline", ""),
            rtc=s.get("rtc", ""),
            timeout=int(s.get("timeout", str(DEFAULT_TIMEOUT))),
            selftest=s.get("selftest", ""),
            env=s.get("env", ""),
            args=s.get("args", ""),
            smp=int(s.get("smp", "1")),
            kind=s.get("kind", "check"),
            icount=s.getboolean("icount", False),
            rootfs=s.get("rootfs", ""),
            hostroot=s.get("hostroot", ""),
            system=s.get("system", ""),
            system_root=s.get("system_root", "ext4"),
            hotplug=tuple(s.get("hotplug", "").split()),
            expect_panic=s.get("expect_panic", ""),
            known_report=s.get("known_report", ""),
            flavour=s.get("flavour", ""),
            base=s.get("base", ""),
            extras=s.getboolean("extras", False) or bool(s.get("selftest", "")),
            sleeps=s.getboolean("sleeps", False),
        )
        if debug:
            g["timeout"] *= timeout_scale
            g["env"] = s.get("debug_env", g["env"])
        elif g["flavour"].endswith("-debug"):
            # A debug flavour of its own (modules-debug): scaled as on the debug kernel.
            g["timeout"] *= timeout_scale
        if g["rootfs"] and g["rootfs"] != (g["images"] or ("",))[0]:
            die(f"tests/groups.conf [{name}]: rootfs must be the first image")
        if g["hostroot"] and (g["hostroot"] not in HOSTROOT_TYPES or g["rootfs"]):
            die(f"tests/groups.conf [{name}]: hostroot must be one of {', '.join(HOSTROOT_TYPES)}, without rootfs")
        if g["system"] and (g["system"] not in SYSTEM_SUITES or g["rootfs"] or g["hostroot"]):
            die(f"tests/groups.conf [{name}]: system must be one of {', '.join(SYSTEM_SUITES)}, "
                "without rootfs or hostroot")
        if g["system_root"] not in SYSTEM_ROOTS:
            die(f"tests/groups.conf [{name}]: system_root must be one of {', '.join(SYSTEM_ROOTS)}")
        if g["kind"] not in KINDS:
            die(f"tests/groups.conf [{name}]: kind must be check, demo, bench, stock, debug or pending")
        if g["base"] and g["base"] not in BASES:
            die(f"tests/groups.conf [{name}]: unknown kernel base {g['base']!r}; bases: {', '.join(BASES)}")
        if g["flavour"] and not (flavour_exists(g["flavour"], g["base"]) if g["base"] and g["base"] != DEFAULT_BASE
                                 else flavour_exists(g["flavour"])):
            d = os.path.relpath(Kernel(base=g["base"] or DEFAULT_BASE).configs_dir, TOP)
            die(f"tests/groups.conf [{name}]: no kernel flavour {d}/{g['flavour']}/")
        out[name] = Group(name, **g)
        for b in s.get("bases", "").split():
            if b not in BASES or b == DEFAULT_BASE or g["base"]:
                die(f"tests/groups.conf [{name}]: bases must name bases other than {DEFAULT_BASE} "
                    f"({', '.join(b for b in BASES if b != DEFAULT_BASE)}), without base =")
            if g["flavour"] and not flavour_exists(g["flavour"], b):
                d = os.path.relpath(Kernel(base=b).configs_dir, TOP)
                die(f"tests/groups.conf [{name}]: no kernel flavour {d}/{g['flavour']}/ for bases = {b}")
            if g["rootfs"] and g["rootfs"] not in on_base(g["images"], removed(b)):
                die(f"tests/groups.conf [{name}]: its root image is of a filesystem base {b} no longer has")
            copy = dict(g, base=b, script=name, images=on_base(g["images"], removed(b)),
                        hotplug=on_base(g["hotplug"], removed(b)))
            out[f"{name}@{b}"] = Group(f"{name}@{b}", **copy)
    return out


def load(debug=False, timeout_scale=8, path=GROUPS_CONF):
    with open(path) as f:
        return parse(f.read(), debug, timeout_scale)


def unknown(name, timeout):
    """A group not in groups.conf (`rig.py boot NAME`): no disks, defaults."""
    return Group(name, timeout=timeout)


def for_check(allg, debug=False, base=DEFAULT_BASE):
    """The groups `check` runs when none are named: on the default base,
    those of kind check, whatever their base (each boots on its own); on
    another BASE (`check --base 7.3`), only the groups of that base.  DEBUG
    adds those of kind debug and leaves out the groups of another flavour
    (and, on the default base, of another base) and the system guests: they
    would not boot on the debug kernel, which lacks systemd's options.  A
    debug group's `bases =` copies (NAME@BASE: their script is NAME's) run
    only on their own base's debug kernel (`check --base BASE`)."""
    kinds = ("check", "debug") if debug else ("check",)
    if base != DEFAULT_BASE:
        return [n for n, g in allg.items()
                if g.base == base and g.kind in kinds
                and not (debug and (g.flavour or g.system) and g.kind != "debug")]
    return [n for n, g in allg.items()
            if g.kind in kinds and not (debug and (g.script or (g.flavour or g.base or g.system)
                                                   and g.kind != "debug"))]


def of_kind(allg, kind):
    return [n for n, g in allg.items() if g.kind == kind]


def check_names(allg, names):
    """NAMES, all of them groups of ALLG (else the error names the groups)."""
    for n in names:
        if n not in allg:
            die(f"unknown group {n!r}; groups: {', '.join(allg)}")
    return list(names)


def flavours(allg, names):
    """The kernel flavours groups NAMES ask for (`flavour =`), in order, once each."""
    return list(dict.fromkeys(allg[n].flavour for n in names if allg[n].flavour))


def kernels(allg, names):
    """The kernels other than the run's that groups NAMES ask for, as
    (base, flavour) keys ("": the run's), once each, in the order of the
    groups; a base's default kernel before its flavours (rig/kernel.sh
    builds a new modules kernel from the default kernel's objects)."""
    keys = list(dict.fromkeys((allg[n].base, allg[n].flavour) for n in names
                              if allg[n].base or allg[n].flavour))
    bases = list(dict.fromkeys(b for b, _ in keys))
    return sorted(keys, key=lambda k: (bases.index(k[0]), k[1] != ""))    # stable: the groups' order
