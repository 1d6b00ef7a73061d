#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Group system-hotplug: a disk with a reiserfs filesystem (removed from
# mainline after 6.12) appears in the running system, as a USB stick would:
# the guest asks the rig for it ("rig-hotplug NAME" on the status channel),
# the rig adds it through QEMU's monitor as a scsi-hd.  udev gives it
# fsaudit's properties and UDISKS_AUTO=0 (Debian's own rules leave reiserfs
# to automount), udisks2 turns that into HintAuto=false, and under deny
# `udisksctl mount` fails with EPERM (the reason is in the kernel log only).
. /usr/lib/rig/ktap.sh
ktap_plan 8
export LC_ALL=C.UTF-8
link=/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_reiserfs36
echo "rig-hotplug reiserfs36" >/dev/ttyS2
for i in $(seq 120); do
	[ -e $link ] && break
	sleep 0.5
done
udevadm settle -t 30
dev=$(readlink -f $link)
ktap_diag "hot-added disk: $link -> $dev"
expect "the hot-added disk appeared (udev's by-id link)" yes "$([ -b "$dev" ] && echo yes)"
props=$(udevadm info --query=property "$dev")
ktap_diag "$(grep -E '^(ID_FS_TYPE|ID_BUS|FSAUDIT_|UDISKS_)' <<<"$props")"
expect "udev: ID_FS_TYPE reiserfs" ID_FS_TYPE=reiserfs "$(grep '^ID_FS_TYPE=' <<<"$props")"
expect "udev: fsaudit's FSAUDIT_VERDICT and UDISKS_AUTO=0" \
	"FSAUDIT_VERDICT=removed-from-mainline UDISKS_AUTO=0" \
	"$(grep '^FSAUDIT_VERDICT=' <<<"$props") $(grep '^UDISKS_AUTO=' <<<"$props")"
hint=
for i in $(seq 40); do
	hint=$(udisksctl info -b "$dev" 2>&1 | grep -o 'HintAuto: *[a-z]*' | tr -s ' ')
	[ -n "$hint" ] && break
	sleep 0.5
done
expect "udisks2: HintAuto false (desktops do not automount it)" "HintAuto: false" "$hint"
expect "udisks2 mounted nothing by itself" "" "$(findmnt -rno TARGET -S "$dev")"
sysctl -q fs.deprecated_policy=deny
out=$(udisksctl mount -b "$dev" 2>&1)
rc=$?
ktap_diag "udisksctl mount -b $dev under deny: exit $rc: $out"
expect "udisksctl mount under deny fails" "1 " "$([ $rc -ne 0 ] && echo 1) $(findmnt -rno TARGET -S "$dev")"
# udisks2 mounts with mount(2) through libblockdev: its error is the errno
# alone (EPERM); the reason is in the kernel log, with the device (a denied
# type is refused before any superblock exists: named by its source, /dev/sda).
expect "udisksctl's error is EPERM (udisks2 does not relay the kernel's reason)" "EPERM only" \
	"$(grep -q 'Operation not permitted' <<<"$out" && ! grep -q 'fs-deprecated' <<<"$out" && echo EPERM only)"
k=$(journalctl -k -b -o cat --no-pager | grep "^fs-deprecated: reiserfs: reiserfs (\\(/dev/\\)\\?$(basename "$dev")): .*refused")
ktap_diag "$k"
expect "the kernel log names the reason for the hot-added disk" 1 "$(grep -c . <<<"$k")"
ktap_done
