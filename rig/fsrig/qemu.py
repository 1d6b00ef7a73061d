# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""QEMU: the command line of a boot, one boot run to its end, and the
run-wide probes (the host's TSC rate, whether QEMU can use io_uring, KVM).

Three serial ports: ttyS0 the console (kernel log, console.log), ttyS1 the
results channel (KTAP, results.ktap), ttyS2 the status channel (rig-exit N,
the kmemleak report; status), all files in the boot's run directory.  run()
returns the boot's record, a dict: console, results, status, qemu (QEMU's own
output), rc, timed_out, seconds, first_result, cpu, run_dir.
"""

import os
import re
import shlex
import subprocess
import time

from .common import BUILD, TOP, die, once, read, write_if_changed
from .report import log

ACCELS = ("kvm", "tcg")


def qemu_cmd(accel, bz, initrd, run_dir, group, images, cmdline="", rtc="", smp=1, icount=False,
             writable=(), hotplug=False):
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
    if hotplug:
        # Disks added while the guest runs (hotplug_disk()), as a USB stick
        # appears: scsi-hd devices on this virtio-scsi controller (no PCI
        # hotplug, which would need ACPI), added through QMP.
        cmd += ["-device", "virtio-scsi-pci,id=scsi0" + (",ioeventfd=off" if accel == "tcg" else ""),
                "-qmp", f"unix:{run_dir}/qmp.sock,server=on,wait=off"]
    return cmd


def hotplug_disk(run_dir, n, name, path):
    """Add disk NAME (image PATH, snapshot mode) to the running guest of
    RUN_DIR as scsi-hd number N on virtio-scsi controller scsi0, serial NAME
    (the guest finds it as /dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_NAME).
    QMP's answers are appended to RUN_DIR/monitor.log."""
    import json
    import socket
    out = []
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(10)
        s.connect(os.path.join(run_dir, "qmp.sock"))
        f = s.makefile("rw")
        out.append(f.readline())    # the greeting
        # drive_add exists in the human monitor only: through QMP's
        # human-monitor-command, so that every answer is one JSON line.
        for cmd in ({"execute": "qmp_capabilities"},
                    {"execute": "human-monitor-command", "arguments": {"command-line":
                     f"drive_add 0 file={path},format=raw,if=none,id=hp{n},snapshot=on,cache=unsafe"}},
                    {"execute": "device_add", "arguments": {"driver": "scsi-hd", "bus": "scsi0.0",
                                                            "drive": f"hp{n}", "id": f"hpdev{n}",
                                                            "serial": name}}):
            f.write(json.dumps(cmd) + "\n")
            f.flush()
            while True:     # events may come first; the answer has return or error
                line = f.readline()
                out.append(json.dumps(cmd) + " -> " + line if '"return"' in line or '"error"' in line else line)
                if not line or '"return"' in line or '"error"' in line:
                    break
    with open(os.path.join(run_dir, "monitor.log"), "a") as f:
        f.write("".join(out) + "\n")


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


@once
def version():
    """`qemu-system-x86_64 --version` (part of the reference cache's key)."""
    return subprocess.run(["qemu-system-x86_64", "--version"], stdout=subprocess.PIPE, text=True).stdout


def run(cmd, run_dir, timeout, nice="5", hotplug=None):
    """Run QEMU command CMD (qemu_cmd() for RUN_DIR) until it exits or TIMEOUT
    seconds pass; returns the boot's record.  NICE: QEMU's nice level
    (RIG_QEMU_NICE): the host suites' chains of short processes, which run
    beside the boots, get the CPU first and do not end last.  HOTPLUG:
    {name: image path} the guest may ask for with a line "rig-hotplug NAME"
    on the status channel (hotplug_disk())."""
    with open(os.path.join(run_dir, "qemu.cmd"), "w") as f:
        f.write(shlex.join(cmd) + "\n")
    t0 = time.monotonic()
    p = subprocess.Popen(["nice", "-n", nice] + cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    timed_out = False
    first = None        # seconds from QEMU start to the first byte of results
    results = os.path.join(run_dir, "results.ktap")
    status_file = os.path.join(run_dir, "status")
    plugged, last_poll = [], 0.0
    while True:
        # wait4: QEMU's CPU time too (what a boot costs, whatever the load).
        pid, status, ru = os.wait4(p.pid, 0 if timed_out else os.WNOHANG)
        if pid:
            p.returncode = os.waitstatus_to_exitcode(status)
            break
        now = time.monotonic()
        if first is None and os.path.exists(results) and os.path.getsize(results) > 0:
            first = now - t0
        if hotplug and now - last_poll > 0.25:
            last_poll = now
            try:
                with open(status_file, "rb") as f:
                    text = f.read().decode(errors="replace")
            except OSError:
                text = ""
            for name in re.findall(r"^rig-hotplug (\S+)\r?$", text, re.M):
                if name not in plugged and name in hotplug:
                    plugged.append(name)
                    try:
                        hotplug_disk(run_dir, len(plugged), name, hotplug[name])
                    except OSError as e:
                        with open(os.path.join(run_dir, "monitor.log"), "a") as f:
                            f.write(f"hotplug {name}: {e}\n")
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


def choose_accelerator(forced, probe):
    """KVM or TCG.  FORCED (RIG_ACCEL) decides if set; else TCG without
    /dev/kvm, else the answer cached in build/accel, else PROBE(): a boot
    record of a bounded KVM boot (a KVM guest must reach the end of init
    within 15 s; TCG needs ~2 s; on these machines KVM guests can hang)."""
    if forced:
        if forced not in ACCELS:
            die(f"RIG_ACCEL={forced!r}: use kvm or tcg")
        return forced
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return "tcg"
    cache = os.path.join(BUILD, "accel")
    cached = read(cache, "").strip()
    if cached in ACCELS:
        return cached
    r = probe()
    acc = "kvm" if "rig-exit 0" in r["status"] else "tcg"
    why = "works" if acc == "kvm" else "no answer in 15 s" if r["timed_out"] else \
        "failed: " + (r["qemu"].strip().splitlines() or ["no exit status"])[0]
    log(f"KVM probe: {why} -> using {acc.upper()}")
    write_if_changed(cache, acc + "\n")
    return acc
