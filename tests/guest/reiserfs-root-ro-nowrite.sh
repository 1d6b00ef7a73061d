#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Issue 14: booted without initramfs from a reiserfs root (root=/dev/vda rw,
# no rootfstype=) with fs_deprecated_policy=ro: the root mount is refused
# read-write, retried read-only, and nothing is written to the root device
# from boot to the end of this script (write sectors of vda stay 0).
. /tests/ktap.sh
ktap_plan 4
set -- $(awk '$2 == "/" && $1 != "rootfs" { print $3, $4 }' /proc/mounts)
expect "root filesystem is reiserfs" reiserfs "$1"
expect "root mounted read-only despite rw" ro "${2%%,*}"
ls -lR / > /dev/null 2>&1	# read the whole tree
cat /tests/*.sh > /dev/null
sleep 6				# past reiserfs's 5 s commit age
sync
stat=$(cat /sys/block/vda/stat)
set -- $stat
expect "nothing written to the root device since boot (vda write sectors)" 0 "$7"
ktap_diag "vda: $stat"
[ "$3" -gt 0 ] && ktap_ok "the root device was read (vda read sectors > 0)" ||
	ktap_fail "the root device was read (vda read sectors > 0)"
dmesg | grep fs-deprecated | sed 's/^/# kernel log: /'
ktap_done
