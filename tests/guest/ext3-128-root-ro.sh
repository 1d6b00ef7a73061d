#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Issue 21 item 6: booted without initramfs from a clean ext3 root with
# 128-byte inodes (root=/dev/vda rw, no rootfstype=) under
# fs_deprecated_policy=ext4-small-inodes:ro.  ext3/ext4 refuse read-write
# (EACCES); the ext2 driver, tried next, must refuse it too, so that the
# kernel retries read-only and ext3/ext4 mounts the root read-only.
. /tests/ktap.sh
ktap_plan 4
set -- $(awk '$2 == "/" && $1 != "rootfs" { print $3, $4 }' /proc/mounts)
case $1 in ext3|ext4) ktap_ok "root mounted by ext3/ext4, not ext2 ($1)" ;;
*) ktap_diag "root: $*"; ktap_fail "root mounted by ext3/ext4, not ext2" ;; esac
expect "root mounted read-only despite rw" ro "${2%%,*}"
expect "ext4-small-inodes:ro applied at boot" ro "$(cat /sys/fs/deprecated/ext4-small-inodes/policy)"
if mount -o remount,rw / 2>/dev/null; then
	ktap_fail "remount of / read-write refused"
else
	ktap_ok "remount of / read-write refused"
fi
dmesg | grep -E 'fs-deprecated|EXT[234]' | sed 's/^/# kernel log: /'
ktap_done
