#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Base 7.3 (v2, work in progress): the standard line of a deprecated on-disk
# format, once per boot per item and device, on mount(2) and on the new mount
# API (fsopen/fsmount), read-only and read-write; nothing for a control
# image.  Exact lines: the declarations of kernel/7.3/patches (xfs, ext4).
. /tests/ktap.sh
ktap_plan 8
mkdir -p /mnt/t
dev() { basename "$(readlink "/dev/img/$1")"; }
xv4=$(dev xfs-v4) e128=$(dev ext4-128) e256=$(dev ext4-256)
XFS_V4="fs-deprecated: xfs-v4: xfs ($xv4): V4 format (crc=0) deprecated since 2020-12-13, removal planned for 2030-09-30; reason: no metadata checksums, cannot store timestamps after 2038-01-19; remedy: back up, mkfs.xfs with the default V5 format and restore"
EXT4_128="fs-deprecated: ext4-small-inodes: ext4 ($e128): inodes smaller than 256 bytes deprecated since 2026-12-03, no removal date set; reason: cannot store timestamps after 2038-01-19; remedy: back up, mkfs.ext4 -I 256, restore"
# The kernel log since boot, "fs-deprecated:" lines only, without timestamps.
deprecated() { dmesg | sed -n 's/^\[[ 0-9.]*\] //; /fs-deprecated:/p'; }
# mount(2), then umount; the mount must succeed.
mnt() {
	if fsmnt "$@" /mnt/t > /tmp/fsmnt.out 2>&1; then
		umount /mnt/t || ktap_diag "umount after fsmnt $* failed"
		return 0
	fi
	ktap_diag "fsmnt $* /mnt/t: $(tr '\n' ' ' < /tmp/fsmnt.out)"
	return 1
}

ok=0
mnt -r mount xfs /dev/img/xfs-v4 && mnt mount xfs /dev/img/xfs-v4 && ok=1
expect "xfs-v4: mount(2) ro then rw succeed" 1 $ok
expect "xfs-v4: one standard line, the first mount's" "$XFS_V4" "$(deprecated | grep "xfs-v4:")"
ok=0
mnt -r mount ext4 /dev/img/ext4-128 && mnt mount ext4 /dev/img/ext4-128 && ok=1
expect "ext4-128: mount(2) ro then rw succeed" 1 $ok
expect "ext4-128: one standard line, the first mount's" "$EXT4_128" "$(deprecated | grep "ext4-small-inodes:")"
# The new mount API: the same device again, no new line (once per boot).
ok=0
mnt -r fsopen xfs /dev/img/xfs-v4 && mnt fsopen ext4 /dev/img/ext4-128 && ok=1
expect "fsopen/fsmount of both succeed" 1 $ok
expect "still one line each after fsopen/fsmount" "2" "$(deprecated | grep -c "fs-deprecated: \(xfs-v4: xfs ($xv4)\|ext4-small-inodes: ext4 ($e128)\): ")"
# The control: ext4 with 256-byte inodes is not deprecated.
ok=0
mnt mount ext4 /dev/img/ext4-256 && mnt fsopen ext4 /dev/img/ext4-256 && ok=1
expect "ext4-256: mount(2) and fsopen/fsmount succeed" 1 $ok
expect "ext4-256: no line" "" "$(deprecated | grep "($e256)")"
ktap_done
