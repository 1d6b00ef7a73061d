#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Issue 21, items 4 and 10: under ro nothing writes, error paths included,
# and a journal/log that needs recovery is refused alike by ext4, XFS and
# reiserfs.  Both sysctls ro.  For every NAME-dirty image: a read-only
# mount(2) and fsopen() fail with EROFS (what mount(8) reports as "cannot
# mount read-only"; reiserfs gave EINVAL, "wrong fs type, bad option, bad
# superblock"), the kernel log and the fs_context log say why and how to go
# on (the filesystem's own option, with its rootflags= form, or a copy, or
# the policy); the explicit option (ext4 noload, XFS norecovery) is
# honoured.  Clean XFS images mount without a word about missing changes.
# ext4-128: an error met on a read-only mount under ro (a corrupt inode)
# does not write the error to the superblock.  Every image: nothing
# written (write sectors, whole-device hash).
. /tests/ktap.sh
. /tests/modlib.sh
imgs=$(ls /dev/img)
ktap_plan $((5 * $(echo $imgs | wc -w)))
echo ro > /proc/sys/fs/deprecated_policy
echo ro > /proc/sys/fs/y2038_policy
mkdir -p /mnt/a

# The refusal line of sb_policy_no_recovery(): ITEM TYPE DEV WHAT [OPTION]
norec_line() {
	l="fs-deprecated: $1: $2 ($3): mount refused: the $4 needs recovery, which writes, and policy ro allows no writes; to get the changes still in the $4, copy the device and mount the copy where the policy allows writing, or change the policy"
	[ -n "$5" ] && l="$l; to mount without them, read-only: -o ro,$5 (root filesystem: rootflags=$5)"
	echo "$l"
}

# corrupt_ext4_inode DEV INO: garble inode INO's i_block (extent header)
corrupt_ext4_inode() {
	bs=$((1024 << $(od -A n -t u4 -j 1048 -N 4 "$1")))
	isz=$(od -A n -t u2 -j 1112 -N 2 "$1")
	fdb=$(od -A n -t u4 -j 1044 -N 4 "$1")
	it=$(od -A n -t u4 -j $(((fdb + 1) * bs + 8)) -N 4 "$1")
	off=$((it * bs + ($2 - 1) * isz + 40))
	printf '\377\377\377\377' | dd of="$1" bs=1 seek=$off conv=notrunc 2>/dev/null
	sync
	blockdev --flushbufs "$1"
}

for img in $imgs; do
	image_info $img
	dev=/dev/img/$img
	id=$(dev_id $img)
	item=${I_ITEM:-y2038}
	case $I_TYPE in
	ext*) what=journal opt=noload ;;
	xfs) what=log opt=norecovery ;;
	*) what=journal opt= ;;
	esac
	case $img in *-dirty) dirty=1 ;; *) dirty=0 ;; esac
	[ $img = ext4-128 ] && corrupt_ext4_inode $dev 11
	s0=$(devstate $dev)
	kmsg_mark
	if [ $dirty = 1 ]; then
		out=$(fsmnt -r mount $I_TYPE $dev /mnt/a)
		umount /mnt/a 2>/dev/null
		expect "$img (ro): read-only mount(2) refused with EROFS" "result: EROFS" "$(last_line "$out")"
		kmsg_has "$img (ro): the kernel log says why and how to go on" "$(norec_line $item $I_TYPE $id $what $opt)"
		out=$(fsmnt -r fsopen $I_TYPE $dev /mnt/a)
		umount /mnt/a 2>/dev/null
		# reiserfs is on the legacy mount API: no fs_context log in fill_super
		if [ "$(last_line "$out")" = "result: EROFS" ] && { [ $I_TYPE = reiserfs ] ||
		   echo "$out" | grep -qxF "fclog: e $(norec_line $item $I_TYPE $id $what $opt)"; }; then
			ktap_ok "$img (ro): fsopen() refused with EROFS, the line in the fs_context log"
		else
			echo "$out" | while IFS= read -r l; do ktap_diag "$l"; done
			ktap_fail "$img (ro): fsopen() refused with EROFS, the line in the fs_context log"
		fi
		if [ -n "$opt" ]; then
			kmsg_mark
			out=$(fsmnt -r -o $opt mount $I_TYPE $dev /mnt/a)
			# The tree as it was before the replay (XFS: maybe still empty)
			ls -R /mnt/a > /dev/null || out="$out, tree not readable"
			umount /mnt/a 2>/dev/null
			r="$(last_line "$out") $(kmsg_since | grep -c 'mount refused')"
			expect "$img (ro): -o ro,$opt honoured: mounted and readable, no refusal" "result: ok 0" "$r"
		else
			ktap_skip "$I_TYPE has no option to mount without replay" "$img (ro): explicit option honoured"
		fi
	elif [ $img = ext4-128 ]; then
		out=$(fsmnt -r mount $I_TYPE $dev /mnt/a)
		expect "$img (ro): read-only mount(2) succeeds" "result: ok" "$(last_line "$out")"
		ls -l /mnt/a/lost+found/ > /dev/null 2>&1
		sleep 1
		umount /mnt/a 2>/dev/null
		if kmsg_since | grep -q "^EXT4-fs error (device $id)"; then
			ktap_ok "$img (ro): the corrupt inode is an ext4 error"
		else
			kmsg_since | grep -i ext4 | while IFS= read -r l; do ktap_diag "$l"; done
			ktap_fail "$img (ro): the corrupt inode is an ext4 error"
		fi
		ktap_skip "not dirty" "$img: fsopen() refusal"
		ktap_skip "not dirty" "$img: explicit option"
	else
		out=$(fsmnt -r mount $I_TYPE $dev /mnt/a)
		umount /mnt/a 2>/dev/null
		expect "$img (ro): read-only mount(2) succeeds" "result: ok" "$(last_line "$out")"
		expect "$img (ro): clean $what: no word about changes not replayed" "" \
			"$(kmsg_since | grep -E 'fs-deprecated: .*(not replayed|are missing|needs recovery)')"
		ktap_skip "not dirty" "$img: fsopen() refusal"
		ktap_skip "not dirty" "$img: explicit option"
	fi
	s1=$(devstate $dev)
	expect "$img (ro): nothing written (write sectors, whole device)" \
		"$(field wsect "$s0") $(field hash "$s0")" "$(field wsect "$s1") $(field hash "$s1")"
done
ktap_done
