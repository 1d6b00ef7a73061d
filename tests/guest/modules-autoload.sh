#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Modules kernel (issue 13): the first mount of each image autoloads its
# filesystem's module through /sbin/modprobe and gives the standard warning
# (kernel log; fs_context log for fsopen), with the default policy.  Pass 1:
# mount(2) of every image; every module is then unloaded; pass 2: fsopen()
# of every image, autoloading again.  Controls ext4-256 and xfs-v5-bigtime:
# no fs-deprecated line, no 2038 line.
. /tests/ktap.sh
. /tests/modlib.sh
IMAGES=$(present reiserfs36 reiserfs35 ext2 ext3-128 ext4-128 ext4-rev0 xfs-v4 xfs-ascii-ci xfs-v5-nobigtime ext4-256 xfs-v5-bigtime)
# Per image 3 checks a pass, one more for fsopen's context log of an item
n=3
for img in $IMAGES; do image_info $img; n=$((n + 6)); [ -n "$I_ITEM" ] && n=$((n + 1)); done
ktap_plan $n
mkdir -p /mnt/a
expect "no filesystem module loaded at boot" "" "$(fs_modules)"

# check_image IMG HOW: mount IMG (mount(2) or fsopen), expect autoload of its
# module (when it was not loaded), its item's standard warning (or none), the
# 2038 line when its timestamps end in 2038.
check_image() {
	img=$1 how=$2
	image_info $img
	id=$(dev_id $img)
	was=$(mod_loaded $I_MODULE && echo loaded || echo "not loaded")
	kmsg_mark
	out=$(fsmnt $how $I_TYPE /dev/img/$img /mnt/a)
	expect "$img ($how): mounts as $I_TYPE, module $I_MODULE loaded (was $was)" "result: ok $I_MODULE" \
		"$(last_line "$out") $(mod_loaded $I_MODULE && echo $I_MODULE)"
	if [ -n "$I_ITEM" ]; then
		line=$(std_line $I_ITEM $I_TYPE $id)
		kmsg_has "$img ($how): the standard warning in the kernel log" "$line"
		if [ $how = fsopen ]; then
			expect "$img (fsopen): the standard warning in the fs_context log" "fclog: w $line" \
				"$(echo "$out" | grep -F "fclog: w fs-deprecated: $I_ITEM:")"
		fi
	else
		expect "$img ($how): no fs-deprecated line" "" "$(kmsg_since | grep fs-deprecated)"
	fi
	y=$(kmsg_since | grep -c "^$I_TYPE filesystem .* supports timestamps until 2038-01-19 (0x7fffffff)")
	expect "$img ($how): 2038 line $( [ $I_Y2038 = 1 ] && echo present || echo absent)" $I_Y2038 "$y"
	umount /mnt/a 2>/dev/null
}

for img in $IMAGES; do check_image $img mount; done
want= got=
for c in reiserfs:2 ext2:1 ext4-small-inodes:3 xfs-v4:1 xfs-ascii-ci:1; do
	removed ${c%:*} && continue
	want="$want ${c#*:}" got="$got $(item ${c%:*} mounts)"
done
expect "mounts counted per item" "$want" "$got"

for m in xfs ext4 ext2 reiserfs jbd2 mbcache; do mod_loaded $m && rmmod $m; done
expect "every filesystem module unloaded" "" "$(fs_modules | sed 's/libcrc32c //; s/crc32c_generic //; s/crc16 //')"
echo 1 > /sys/kernel/debug/clear_warn_once 2>/dev/null
for img in $IMAGES; do check_image $img fsopen; done
ktap_done
