#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# The rig's own guarantees, checked from inside the guest: the clock follows
# QEMU -rtc base=, extra kernel arguments arrive, disks are named.
. /tests/ktap.sh
ktap_plan 4
d=$(date -u +%Y-%m-%d)
[ "$d" = 2038-01-20 ] && ktap_ok "guest clock set by -rtc base=2038-01-20" ||
	{ ktap_diag "date says $d"; ktap_fail "guest clock set by -rtc base=2038-01-20"; }
grep -qw 'rig.selftest=42' /proc/cmdline && ktap_ok "extra kernel command-line argument arrives" ||
	{ ktap_diag "$(cat /proc/cmdline)"; ktap_fail "extra kernel command-line argument arrives"; }
sz=$(cat /sys/block/vda/size 2>/dev/null)
[ -b /dev/img/ext4-256 ] && [ "$sz" = 8192 ] && ktap_ok "/dev/img/ext4-256 is the 4 MiB first disk" ||
	{ ktap_diag "size=$sz"; ktap_fail "/dev/img/ext4-256 is the 4 MiB first disk"; }
[ -b /dev/img/xfs-v5-bigtime ] && [ "$(cat /sys/block/vdb/size)" = 32768 ] &&
	ktap_ok "/dev/img/xfs-v5-bigtime is the 16 MiB second disk" ||
	ktap_fail "/dev/img/xfs-v5-bigtime is the 16 MiB second disk"
ktap_done
