#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# The policy KUnit suite runs at boot (kunit.enable=1) on a kernel booted
# with fs_y2038_policy=deny and fs_deprecated_policy=ro: the suite passes
# whatever the boot parameters say, and leaves what the admin asked for
# alone.  The tests decide with a state of their own: the policies are
# still deny and ro, no item's policy moved, the y2038 counters count no
# test superblock, and a mount of a 2038-limited filesystem is refused.
. /tests/ktap.sh
ktap_plan 7
r=/sys/kernel/debug/kunit/fs_deprecation/results
last=$(grep -E '^(not )?ok [0-9]+ fs_deprecation$' "$r" 2>/dev/null | tail -n 1)
expect "fs_deprecation suite ran at boot and passed" "ok 1 fs_deprecation" "$last"
if [ "$last" != "ok 1 fs_deprecation" ]; then
	grep -E '^ *not ok|Expected|expected' "$r" 2>/dev/null | head -n 20 | sed 's/^/# /'
fi
expect "fs.y2038_policy is still deny" "deny" "$(cat /proc/sys/fs/y2038_policy)"
expect "fs.deprecated_policy is still ro" "ro" "$(cat /proc/sys/fs/deprecated_policy)"
moved=$(for p in /sys/fs/deprecated/*/policy; do
	[ "$(cat "$p")" = default ] || echo "$p=$(cat "$p")"; done)
expect "no item's policy changed" "" "$moved"
expect "/sys/fs/y2038 counted no test superblock" "0 0" \
	"$(cat /sys/fs/y2038/mounts) $(cat /sys/fs/y2038/refused)"
mkdir -p /mnt/t
out=$(fsmnt mount xfs /dev/img/xfs-v5-nobigtime /mnt/t)
umount /mnt/t 2>/dev/null
expect "a mount of XFS V5 without bigtime (2038-limited) is refused" "result: EPERM" \
	"$(echo "$out" | tail -n 1)"
expect "the refusal names fs.y2038_policy" "1" \
	"$(dmesg | grep -c 'y2038: xfs ([a-z0-9]*): mount refused by policy deny')"
ktap_done
