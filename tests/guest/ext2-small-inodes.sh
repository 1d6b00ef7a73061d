#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Issue 21 item 6: a format item holds whichever driver mounts the format.
# The ext2 driver mounts ext3 and revision 0 images with 128-byte inodes:
# under ext4-small-inodes:deny `mount -t ext2` is refused (EPERM), under
# ext4-small-inodes:ro a read-write one is (EACCES) and a read-only one
# mounts with the item's standard warning.  ext4-128 has features ext2
# cannot mount at all; ext2 (256-byte inodes) is not the item's.
. /tests/ktap.sh
. /tests/modlib.sh
ktap_plan 19
mkdir -p /mnt/a
reason() {	# NAME MODE WHAT: the refusal line of ext4-small-inodes by ext2
	if kmsg_since | grep -q "^fs-deprecated: ext4-small-inodes: ext2 (.*): $3 refused by policy $2; see fs.deprecated_policy and /sys/fs/deprecated/ext4-small-inodes/policy\$"; then
		ktap_ok "$1"
	else
		kmsg_since | grep -E 'fs-deprecated|EXT2|EXT4' | tail -n 6 | while IFS= read -r l; do ktap_diag "$l"; done
		ktap_fail "$1"
	fi
}
for img in ext3-128 ext4-rev0; do
	echo deny > $DEP/ext4-small-inodes/policy
	kmsg_mark
	out=$(fsmnt mount ext2 /dev/img/$img /mnt/a)
	expect "$img: mount -t ext2 under deny fails with EPERM" "result: EPERM" "$(last_line "$out")"
	umount /mnt/a 2>/dev/null
	reason "$img: the kernel log gives the reason (deny)" deny mount
	out=$(fsmnt fsopen ext2 /dev/img/$img /mnt/a)
	expect "$img: fsopen(ext2) under deny fails with EPERM" "result: EPERM" "$(last_line "$out")"
	umount /mnt/a 2>/dev/null

	echo ro > $DEP/ext4-small-inodes/policy
	kmsg_mark
	out=$(fsmnt mount ext2 /dev/img/$img /mnt/a)
	expect "$img: read-write mount -t ext2 under ro fails with EACCES" "result: EACCES" "$(last_line "$out")"
	umount /mnt/a 2>/dev/null
	reason "$img: the kernel log gives the reason (ro)" ro "read-write mount"
	kmsg_mark
	out=$(fsmnt -r mount ext2 /dev/img/$img /mnt/a)
	expect "$img: read-only mount -t ext2 under ro succeeds" "result: ok" "$(last_line "$out")"
	expect "$img: mounted read-only by ext2" "ext2 ro" \
		"$(awk '$2 == "/mnt/a" { print $3, substr($4, 1, 2) }' /proc/mounts)"
	kmsg_has "$img: the item's standard warning names ext2" \
		"$(std_line ext4-small-inodes ext2 "$(dev_id $img)")"
	umount /mnt/a 2>/dev/null
	echo default > $DEP/ext4-small-inodes/policy
	echo 1 > /sys/kernel/debug/clear_warn_once 2>/dev/null
done
echo ro > $DEP/ext4-small-inodes/policy
fsmnt mount ext2 /dev/img/ext4-128 /mnt/a >/dev/null
expect "ext4-128: not mounted read-write by ext2 under ro" "" \
	"$(awk '$2 == "/mnt/a" && $4 ~ /^rw/' /proc/mounts)"
umount /mnt/a 2>/dev/null
echo deny > $DEP/ext4-small-inodes/policy
fsmnt mount ext2 /dev/img/ext4-128 /mnt/a >/dev/null
expect "ext4-128: not mounted by ext2 under deny" "" "$(awk '$2 == "/mnt/a"' /proc/mounts)"
umount /mnt/a 2>/dev/null
out=$(fsmnt mount ext2 /dev/img/ext2 /mnt/a)
expect "ext2 (256-byte inodes): mount -t ext2 under ext4-small-inodes:deny succeeds" "result: ok" \
	"$(last_line "$out")"
umount /mnt/a 2>/dev/null
echo default > $DEP/ext4-small-inodes/policy
ktap_done
