#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Which slab caches get a new slab during the bench-tmpfs loop?
#
#   docs/notes/bench-slab-layout/slabwho.sh OBJDIR INITRAMFS [PORT]
#
# Boots OBJDIR's bzImage with the bench initramfs under QEMU -icount (as
# rig/bench-kernel.sh does), waits until the mount loop has printed its first
# round, attaches gdb to QEMU's gdbstub, breaks on new_slab() NHITS times
# (default 40) and prints, per distinct caller chain, how often it was hit
# and the cache's name.  Needs gdb (apt-get install gdb); nothing runs on the
# host kernel.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
obj=$(readlink -f "$1") initrd=$(readlink -f "$2") port=${3:-1301}
rd=$(mktemp -d)
trap 'kill $qp 2>/dev/null; rm -rf "$rd"' EXIT
qemu-system-x86_64 -M pc -accel tcg -cpu max -m 512 -smp 1 -nodefaults -no-user-config \
	-display none -no-reboot -bios /usr/share/qemu/qboot.rom \
	-kernel "$obj/arch/x86/boot/bzImage" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=5 rig.group=bench-tmpfs" \
	-serial "file:$rd/console.log" -serial "file:$rd/results.ktap" -serial "file:$rd/status" \
	-icount shift=0,sleep=off -gdb "tcp::$port" 2>/dev/null &
qp=$!
until grep -q "round 1" "$rd/results.ktap" 2>/dev/null; do sleep 0.1; done
SMAP=$obj/System.map PORT=$port OUT=$rd/who.txt NHITS=${NHITS:-40} \
	gdb -batch -x "$here/slabwho.py" > "$rd/gdb.log" 2>&1 || { cat "$rd/gdb.log" >&2; exit 1; }
cat "$rd/who.txt"
