#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Booted from a cramfs root (made on the host with mkfs.cramfs from the
# initramfs tree) under fs_y2038_policy=deny: cramfs stores no times, so
# the kernel's root mount is not refused and this script, on the cramfs,
# runs at all; nothing counts the root as limited to 2038.
. /tests/ktap.sh
ktap_plan 4
expect "the root filesystem is the cramfs, read-only" "cramfs ro" \
	"$(awk '$2 == "/" { split($4, o, ","); print $3, o[1] }' /proc/mounts | tail -n 1)"
expect "fs.y2038_policy is deny" "deny" "$(cat /proc/sys/fs/y2038_policy)"
expect "/sys/fs/y2038 counts no mount, no refusal" "0 0 0" \
	"$(cat /sys/fs/y2038/mounts) $(cat /sys/fs/y2038/refused) $(cat /sys/fs/y2038/active)"
expect "no y2038 line in the kernel log" "" "$(dmesg | grep 'fs-deprecated: y2038')"
ktap_done
