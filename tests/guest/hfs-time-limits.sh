#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Issue 21 item 2: hfs and hfsplus store u32 seconds since 1904, which
# Linux reads back as 1970-01-01 .. 2106-02-07 06:28:15 (hfs in local time,
# sys_tz, 0 here).  A time outside that range must be clamped by the VFS
# (s_time_min/s_time_max), in core at once and the same after a remount,
# not wrapped on disk by lower_32_bits(); a time inside it (2050) round-trips.
. /tests/ktap.sh
U32_MAX=4294967295
# time set -> time expected back
CASES="7258118400:$U32_MAX 99999999999:$U32_MAX -86400:0 2524608000:2524608000"
ktap_plan 18
mkdir -p /mnt/h
for img in hfs hfsplus; do
	if ! err=$(mount -t $img /dev/img/$img /mnt/h 2>&1) ||
	   ! grep -q " /mnt/h $img rw" /proc/mounts; then
		ktap_diag "$err"; grep /mnt/h /proc/mounts | ktap_diag "$(cat)"
		ktap_fail "$img: mounted read-write"
		for c in $CASES; do
			ktap_skip "no mount" "$img: ${c%:*} in core"
			ktap_skip "no mount" "$img: ${c%:*} on disk"
		done
		continue
	fi
	ktap_ok "$img: mounted read-write"
	i=0
	for c in $CASES; do
		i=$((i + 1))
		touch -d "@${c%:*}" /mnt/h/f$i
		expect "$img: ${c%:*} in core reads ${c#*:}" "${c#*:}" "$(stat -c %Y /mnt/h/f$i)"
	done
	umount /mnt/h
	mount -t $img -o ro /dev/img/$img /mnt/h
	i=0
	for c in $CASES; do
		i=$((i + 1))
		expect "$img: ${c%:*} after a remount reads ${c#*:}" "${c#*:}" "$(stat -c %Y /mnt/h/f$i)"
	done
	umount /mnt/h
done
dmesg | grep -iE 'hfs|timestamps until' | sed 's/^/# kernel log: /'
ktap_done
