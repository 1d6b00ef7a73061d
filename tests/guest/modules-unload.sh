#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Modules kernel (issue 13): an item's policy and counters survive rmmod and
# modprobe of its module, for a type (reiserfs; ext2 on a base without
# reiserfs: modlib.sh TYPE_ITEM) and for formats (xfs-v4 in
# xfs, ext4-small-inodes in ext4); then each module is unloaded and reloaded
# in a loop while its inventory files are held open, read and written and
# another process mounts and unmounts (tests/guest/unloadstress.c).
. /tests/ktap.sh
. /tests/modlib.sh
secs=$(sed -n 's/.*unloadstress.seconds=\([0-9]*\).*/\1/p' /proc/cmdline)
cycles=$(sed -n 's/.*unloadstress.cycles=\([0-9]*\).*/\1/p' /proc/cmdline)
# Each loop ends after CYCLES unloads, loads and mounts
# (unloadstress.cycles=, default 3), SECONDS at most (unloadstress.seconds=,
# default 60): a count, not a duration, whatever the host's load
# (unloadstress.cycles=0: by duration, SECONDS).
limit="${secs:-60} ${cycles:-3}"
ktap_plan 33
mkdir -p /mnt/a
for c in $TYPE_ITEM:$TYPE_IMG:$TYPE_ITEM:ro xfs-v4:xfs-v4:xfs:deny ext4-small-inodes:ext4-128:ext4:ro; do
	set -- $(echo $c | tr : ' ')
	it=$1 img=$2 type=$3 mode=$4
	image_info $img
	out=$(fsmnt -r mount $type /dev/img/$img /mnt/a)
	umount /mnt/a 2>/dev/null
	echo $mode > $DEP/$it/policy
	out=$(fsmnt mount $type /dev/img/$img /mnt/a)	# refused by the policy
	umount /mnt/a 2>/dev/null
	before="$(item $it policy) mounts=$(item $it mounts) refused=$(item $it refused) active=$(item $it active)"
	expect "$it: one mount and one refusal counted before unload" "$mode mounts=2 refused=1 active=0" "$before"
	for m in $I_MODULE jbd2 mbcache; do mod_loaded $m && rmmod $m; done
	expect "$it: rmmod $I_MODULE" "" "$(mod_loaded $I_MODULE && echo still loaded)"
	expect "$it: policy and counters kept while unloaded" "$before loaded=0" \
		"$(item $it policy) mounts=$(item $it mounts) refused=$(item $it refused) active=$(item $it active) loaded=$(item $it loaded)"
	modprobe $I_MODULE
	expect "$it: policy and counters kept after modprobe $I_MODULE" "$before loaded=1" \
		"$(item $it policy) mounts=$(item $it mounts) refused=$(item $it refused) active=$(item $it active) loaded=$(item $it loaded)"
	out=$(fsmnt mount $type /dev/img/$img /mnt/a)
	umount /mnt/a 2>/dev/null
	want=$([ $mode = deny ] && echo EPERM || echo EACCES)
	expect "$it: the kept policy $mode applies after the reload" "result: $want refused=2" \
		"$(last_line "$out") refused=$(item $it refused)"
	echo default > $DEP/$it/policy
done
for c in $TYPE_ITEM:$TYPE_ITEM:$TYPE_ITEM:$TYPE_IMG xfs-v4:xfs:xfs:xfs-v4 ext4-small-inodes:ext4:ext4:ext4-128; do
	set -- $(echo $c | tr : ' ')
	it=$1 m=$2 type=$3 img=$4
	# Its KTAP lines renumbered into this script's plan.
	unloadstress $it $m $type /dev/img/$img $limit > /tmp/us.out
	while IFS= read -r l; do
		case $l in
		"ok "*) ktap_ok "${l#ok [0-9]* }" ;;
		"not ok "*) ktap_fail "${l#not ok [0-9]* }" ;;
		*) echo "$l" ;;
		esac
	done < /tmp/us.out
	expect "$it: still listed after the loop" "default" "$(item $it policy)"
done
ktap_done
