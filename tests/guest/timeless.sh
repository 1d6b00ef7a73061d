#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# cramfs and romfs store no times at all (s_time_min == s_time_max == 0):
# nothing of them ends in 2038, so under every fs.y2038_policy they mount
# (read-only, as they always are), /sys/fs/y2038 does not count them and
# the kernel log has no y2038 line for them.
. /tests/ktap.sh
. /tests/modlib.sh
ktap_plan 16
mkdir -p /mnt/t
for img in cramfs romfs; do
	for mode in allow warn ro deny; do
		echo $mode > /proc/sys/fs/y2038_policy
		m0=$(cat /sys/fs/y2038/mounts) r0=$(cat /sys/fs/y2038/refused)
		kmsg_mark
		out=$(fsmnt mount $img /dev/img/$img /mnt/t)
		got="$(last_line "$out") $(cat /mnt/t/file 2>/dev/null)"
		umount /mnt/t 2>/dev/null
		expect "$img under y2038 $mode: mounts, file readable" "result: ok $img" "$got"
		expect "$img under y2038 $mode: not counted, no y2038 line" \
			"$m0 $r0 " "$(cat /sys/fs/y2038/mounts) $(cat /sys/fs/y2038/refused) $(kmsg_since | grep 'y2038')"
	done
done
echo warn > /proc/sys/fs/y2038_policy
ktap_done
