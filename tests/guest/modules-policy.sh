#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Modules kernel (issue 13): per-item policies set before the owning module is
# loaded apply to the first mount.  Without argument the policies are written
# to /sys/fs/deprecated/<item>/policy at run time (group modules-policy); with
# "boot" they come from fs_deprecated_policy= on the command line (group
# modules-policy-boot): reiserfs:deny, ext2:ro, xfs-v4:ro,
# ext4-small-inodes:deny, xfs-ascii-ci:default.
. /tests/ktap.sh
. /tests/modlib.sh
how=${1:-sysfs}
ktap_plan 25
mkdir -p /mnt/a
expect "no filesystem module loaded at boot" "" "$(fs_modules)"
for p in reiserfs:deny ext2:ro xfs-v4:ro ext4-small-inodes:deny xfs-ascii-ci:default; do
	it=${p%:*} mode=${p#*:}
	if removed $it; then
		ktap_skip "$it is not in this kernel's base" "$it: policy $mode before its module is loaded"
	elif [ $how = sysfs ]; then
		err=$( { echo $mode > $DEP/$it/policy; } 2>&1)
		[ -z "$err" ] || ktap_diag "$err"
		expect "$it: policy $mode written before its module is loaded" $mode "$(item $it policy)"
	else
		expect "$it: policy $mode from fs_deprecated_policy= before its module is loaded" $mode \
			"$(item $it policy)"
	fi
done
expect "setting the policies loaded no module" "" "$(fs_modules)"

# reiserfs under deny: refused before its module is requested.
if removed reiserfs; then
	for n in "first mount(2) fails with EPERM" "the mount loaded no module" \
		"the kernel log gives the reason" "refused 1"; do
		ktap_skip "reiserfs is not in this kernel's base" "reiserfs (deny): $n"
	done
else
	kmsg_mark
	out=$(fsmnt mount reiserfs /dev/img/reiserfs36 /mnt/a)
	expect "reiserfs (deny): first mount(2) fails with EPERM" "result: EPERM" "$(last_line "$out")"
	expect "reiserfs (deny): the mount loaded no module" "" "$(fs_modules)"
	kmsg_has "reiserfs (deny): the kernel log gives the reason" \
		"$(refuse_line reiserfs reiserfs /dev/img/reiserfs36 mount deny)"
	expect "reiserfs (deny): refused 1" 1 "$(item reiserfs refused)"
fi

# ext2 under ro: read-write refused, read-only mounts (with the warning).
kmsg_mark
out=$(fsmnt mount ext2 /dev/img/ext2 /mnt/a)
expect "ext2 (ro): first read-write mount(2) fails with EACCES" "result: EACCES" "$(last_line "$out")"
kmsg_has "ext2 (ro): the kernel log gives the reason" \
	"$(refuse_line ext2 ext2 /dev/img/ext2 "read-write mount" ro)"
out=$(fsmnt -r mount ext2 /dev/img/ext2 /mnt/a)
expect "ext2 (ro): read-only mount(2) succeeds" "result: ok" "$(last_line "$out")"
kmsg_has "ext2 (ro): the standard warning" "$(std_line ext2 ext2 "$(dev_id ext2)")"
umount /mnt/a 2>/dev/null
expect "ext2 (ro): refused 1, active 0 after umount" "1 0" "$(item ext2 refused) $(item ext2 active)"

# xfs-v4 under ro (a format: the xfs module has to be loaded to see it).
kmsg_mark
out=$(fsmnt mount xfs /dev/img/xfs-v4 /mnt/a)
expect "xfs-v4 (ro): first read-write mount(2) fails with EACCES" "result: EACCES" "$(last_line "$out")"
if kmsg_since | grep -q '^fs-deprecated: xfs-v4: xfs (.*): read-write mount refused by policy ro; see fs.deprecated_policy and /sys/fs/deprecated/xfs-v4/policy$'; then
	ktap_ok "xfs-v4 (ro): the kernel log gives the reason"
else
	kmsg_since | grep fs-deprecated | while IFS= read -r l; do ktap_diag "$l"; done
	ktap_fail "xfs-v4 (ro): the kernel log gives the reason"
fi
out=$(fsmnt -r mount xfs /dev/img/xfs-v4 /mnt/a)
expect "xfs-v4 (ro): read-only mount(2) succeeds" "result: ok" "$(last_line "$out")"
umount /mnt/a 2>/dev/null
expect "xfs-v4 (ro): refused 1, active 0" "1 0" "$(item xfs-v4 refused) $(item xfs-v4 active)"

# ext4-small-inodes under deny; ext4-256 (no item) mounts read-write.
out=$(fsmnt mount ext4 /dev/img/ext4-128 /mnt/a)
expect "ext4-small-inodes (deny): first mount(2) of ext4-128 fails with EPERM" "result: EPERM" \
	"$(last_line "$out")"
expect "ext4-small-inodes (deny): refused 1" 1 "$(item ext4-small-inodes refused)"
kmsg_mark
out=$(fsmnt mount ext4 /dev/img/ext4-256 /mnt/a)
expect "ext4-256 (no item): read-write mount(2) succeeds" "result: ok" "$(last_line "$out")"
umount /mnt/a 2>/dev/null
expect "ext4-256 (no item): no fs-deprecated line" "" "$(kmsg_since | grep fs-deprecated)"
expect "xfs-ascii-ci (default): untouched" "default 0 0" \
	"$(item xfs-ascii-ci policy) $(item xfs-ascii-ci mounts) $(item xfs-ascii-ci refused)"
ktap_done
