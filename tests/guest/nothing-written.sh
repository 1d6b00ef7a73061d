#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Issue 14: a mount that a policy refuses, or a read-only mount under ro,
# leaves every sector of the device as it was (devstate: the write-sector
# counter of /sys/class/block/<dev>/stat and an O_DIRECT hash of the whole
# device), for clean images and for images whose journal/log needs recovery
# (NAME-dirty, made by rig/rig.py in a guest); under deny the driver of a
# deprecated type reads nothing either.  ext4-256 and xfs-v5-bigtime (no
# policy applies) are the controls: mounted read-write, and their dirty images
# are replayed as before (the write counter moves: the check sees writes).
#
#   nothing-written.sh deny   both sysctls deny: mount(2) and fsopen refused
#   nothing-written.sh ro     both sysctls ro: read-write refused, then a
#                             read-only mount + umount; a dirty image is
#                             refused with EROFS (issue 21), the kernel log
#                             saying why and how to proceed
. /tests/ktap.sh
. /tests/modlib.sh
mode=$1
imgs=$(ls /dev/img)
ktap_plan $((3 * $(echo $imgs | wc -w)))
echo $mode > /proc/sys/fs/deprecated_policy
echo $mode > /proc/sys/fs/y2038_policy
mkdir -p /mnt/a
for img in $imgs; do
	image_info $img
	dev=/dev/img/$img
	restricted=0
	{ [ -n "$I_ITEM" ] || [ $I_Y2038 = 1 ]; } && restricted=1
	case $img in *-dirty) dirty=1 ;; *) dirty=0 ;; esac
	s0=$(devstate $dev)
	n0=$(devstate -n $dev)
	kmsg_mark
	if [ $restricted = 0 ]; then
		out=$(fsmnt mount $I_TYPE $dev /mnt/a)
		expect "$img (control, $mode): read-write mount(2) succeeds" "result: ok" "$(last_line "$out")"
		umount /mnt/a 2>/dev/null
		s1=$(devstate $dev)
		if [ $dirty = 1 ]; then
			# Replaying the journal/log writes: the counter must see it.
			w0=$(field wsect "$s0") w1=$(field wsect "$s1")
			ktap_diag "$img: write sectors $w0 -> $w1"
			if [ "$w1" -gt "$w0" ]; then ktap_ok "$img (control, $mode): the replay is seen (write sectors went up)"
			else ktap_fail "$img (control, $mode): the replay is seen (write sectors went up)"; fi
		else
			ktap_ok "$img (control, $mode): mounted and unmounted"
		fi
		expect "$img (control, $mode): no fs-deprecated line" "" "$(kmsg_since | grep fs-deprecated)"
		continue
	fi
	if [ $mode = deny ]; then
		out=$(fsmnt mount $I_TYPE $dev /mnt/a)
		out2=$(fsmnt fsopen $I_TYPE $dev /mnt/a)
		expect "$img (deny): mount(2) and fsopen refused with EPERM" "result: EPERM result: EPERM" \
			"$(last_line "$out") $(last_line "$out2")"
		umount /mnt/a 2>/dev/null
	else
		out=$(fsmnt mount $I_TYPE $dev /mnt/a)
		ro=$(last_line "$(fsmnt -r mount $I_TYPE $dev /mnt/a)")
		[ "$ro" = "result: ok" ] && ls -lR /mnt/a > /dev/null 2>&1
		umount /mnt/a 2>/dev/null
		if [ $dirty = 0 ]; then
			expect "$img (ro): read-write mount(2) refused with EACCES, read-only mount succeeds" \
				"result: EACCES result: ok" "$(last_line "$out") $ro"
		else
			expect "$img (ro): read-write mount(2) refused with EACCES, read-only with EROFS" \
				"result: EACCES result: EROFS" "$(last_line "$out") $ro"
		fi
	fi
	n1=$(devstate -n $dev)
	s1=$(devstate $dev)
	expect "$img ($mode): nothing written (write sectors, whole device)" \
		"$(field wsect "$s0") $(field hash "$s0")" "$(field wsect "$s1") $(field hash "$s1")"
	if [ $mode = deny ] && { [ "$I_ITEM" = reiserfs ] || [ "$I_ITEM" = ext2 ]; }; then
		expect "$img (deny): the $I_TYPE driver read nothing (read sectors)" "$(field rsect "$n0")" "$(field rsect "$n1")"
	elif [ $mode = deny ]; then
		if kmsg_since | grep -qE "^fs-deprecated: ($I_ITEM|y2038): $I_TYPE \(.*\): mount refused by policy deny"; then
			ktap_ok "$img (deny): the kernel log gives the reason"
		else
			kmsg_since | grep fs-deprecated | while IFS= read -r l; do ktap_diag "$l"; done
			ktap_fail "$img (deny): the kernel log gives the reason"
		fi
	elif [ $dirty = 1 ]; then
		# Refused, saying why and how to proceed (the wording of
		# sb_policy_no_recovery(); tests/guest/ro-recovery.sh checks it
		# whole).
		re="^fs-deprecated: ($I_ITEM|y2038): $I_TYPE \\($(dev_id $img)\\): mount refused: the (journal|log) needs recovery, which writes, and policy ro allows no writes; to get the changes still in the (journal|log), copy the device and mount the copy where the policy allows writing, or change the policy(; to mount without them, read-only: -o ro,[a-z]+ \\(root filesystem: rootflags=[a-z]+\\))?\$"
		name="$img (ro): no replay: the kernel log says why and how to proceed"
		if kmsg_since | grep -qE "$re"; then
			ktap_ok "$name"
		else
			ktap_diag "read-only mount: $ro; no line matching /$re/ in:"
			kmsg_since | grep -iE 'fs-deprecated|recover|replay|journal|log' | while IFS= read -r l; do ktap_diag "$l"; done
			ktap_fail "$name"
		fi
	else
		expect "$img (ro): the kernel log gives the reason for refusing read-write" "" \
			"$(kmsg_since | grep -qE "^fs-deprecated: ($I_ITEM|y2038): .*read-write mount refused by policy ro" ||
				echo "no refusal line")"
	fi
done
ktap_done
