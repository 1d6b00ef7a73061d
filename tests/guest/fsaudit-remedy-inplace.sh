#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
#
# fsaudit's remedies run as printed where they need a kernel (never on the
# host), then audited again:
# - partitions of an image file (SOURCE IMAGE:pN): the remedy attaches the
#   image with losetup -f -P --show, works on "${dev}pN" and detaches it;
#   p1 ext3 with 128-byte inodes fixed in place (e2fsck, tune2fs -I 256), p2
#   ext4 with 128-byte inodes and flex_bg made again (backup, mkfs.ext4 with
#   the same UUID and label, restore), p3 ext2 given a journal.  Afterwards
#   every partition is ok with its UUID and label, the data is there, and no
#   loop device is left attached;
# - mounted filesystems fixed in place: the remedy unmounts, fixes
#   (tune2fs, xfs_admin) and mounts again on the same mount point; ext3 with
#   128-byte inodes, XFS V5 without bigtime, ext2 and ext2 revision 0
#   (mounted by the ext2 driver: a journal, then the ext4 driver).
# The tools are the real ones (tests/host-programs.conf: e2fsck, tune2fs,
# wipefs, xfs_admin with xfs_db and xfs_repair, util-linux losetup), but for
# tar and mount, busybox's.
. /tests/ktap.sh
ktap_plan 18
FSA=/tests/fsaudit
mkdir -p /mnt/p /mnt/e3 /mnt/x /mnt/e2 /mnt/r0 /var/tmp /etc
[ -e /etc/mtab ] || ln -s /proc/mounts /etc/mtab
# What the remedies run, where busybox has an applet of the same name (busybox
# sh runs its applets before any program of PATH, not before a function):
# util-linux's losetup, which has --show; busybox tar without --acls,
# --xattrs, --numeric-owner and -p (tests/guest/remedy-tar.sh).
{
	echo 'losetup() { /usr/sbin/losetup "$@"; }'
	cat /tests/remedy-tar.sh
} >/tmp/tools.sh
# remedy SOURCE: the lines of its numbered remedy, as a script
remedy() {
	$FSA -o REMEDY "$1" 2>&1 | sed -n '/^\[1\] /,/^$/p' | sed '1d; /^$/d; s/^    //'
}
# run_remedy NAME SCRIPT: ok when it runs to its end under sh -e
run_remedy() {
	ktap_diag "remedy: $(tr '\n' '|' <"$2")"
	if cat /tmp/tools.sh "$2" | sh -e >/tmp/remedy.out 2>&1; then
		ktap_ok "$1"
	else
		ktap_diag "$(cat /tmp/remedy.out)"
		ktap_fail "$1"
	fi
}
commands() { grep -v '^#' "$1"; }

# 1-6: partitions of an image file
pdisk=$(readlink -f /dev/img/parts-ext)
mount -t ext3 "${pdisk}1" /mnt/p && echo one >/mnt/p/file && umount /mnt/p
mount -t ext4 "${pdisk}2" /mnt/p && mkdir /mnt/p/d && echo two >/mnt/p/d/file && umount /mnt/p
dd if="$pdisk" of=/tmp/disk.img bs=1M 2>/dev/null
for p in "1 ext3, 128-byte inodes: fixed in place" "2 ext4, 128-byte inodes, flex_bg: made again" \
	 "3 ext2: a journal added"; do
	remedy "/tmp/disk.img:p${p%% *}" >/tmp/r.sh
	run_remedy "/tmp/disk.img:p${p%% *}, ${p#* }: its remedy runs as printed" /tmp/r.sh
done
out=$(losetup -a 2>&1; /usr/sbin/losetup -a 2>&1)
expect "after the remedies: no loop device left attached" "" "$out"
expect "after the remedies: every partition ok, UUID and label kept" \
	"/tmp/disk.img:p1 ok 5eedfa11-0000-4000-8000-000000000001 part-ext3
/tmp/disk.img:p2 ok 5eedfa11-0000-4000-8000-000000000002 part-ext4
/tmp/disk.img:p3 ok 5eedfa11-0000-4000-8000-000000000003 part-ext2" \
	"$($FSA -r -n -o SOURCE,VERDICT,UUID,LABEL /tmp/disk.img 2>&1)"
d=$(/usr/sbin/losetup -f -P -r --show /tmp/disk.img)
got=$(mount -o ro "${d}p1" /mnt/p && cat /mnt/p/file && umount /mnt/p
      mount -o ro "${d}p2" /mnt/p && cat /mnt/p/d/file && umount /mnt/p)
/usr/sbin/losetup -d "$d"
expect "after the remedies: the data of p1 (in place) and p2 (made again) is there" "one
two" "$got"

# 7-18: mounted filesystems, fixed in place
# inplace IMAGE TYPE MOUNTPOINT
inplace() {
	dev=$(readlink -f "/dev/img/$1")
	mount -t "$2" "$dev" "$4" && echo "$1" >"$4/file"
	uuid=$($FSA -r -n -o UUID "$4" 2>&1)
	remedy "$4" >/tmp/r.sh
	first=$(commands /tmp/r.sh | head -1)
	last=$(commands /tmp/r.sh | tail -1)
	case "$first|$last" in
	"umount $4|mount $dev $4"|"umount $4|mount -t ext4 $dev $4")
		ktap_ok "$1 mounted on $4: the remedy unmounts it, fixes it ($3) and mounts it again" ;;
	*)
		ktap_diag "$(cat /tmp/r.sh)"
		ktap_fail "$1 mounted on $4: the remedy unmounts it, fixes it ($3) and mounts it again" ;;
	esac
	run_remedy "$1 mounted on $4: its remedy runs as printed" /tmp/r.sh
	rw=$(awk -v d="$dev" -v m="$4" '$1 == d && $2 == m { split($4, o, ","); print o[1] }' /proc/mounts)
	expect "$1 after its remedy: ok, same UUID, mounted read-write on $4 again, data kept" \
		"$dev $4 ok $uuid rw $1" "$($FSA -r -n -o SOURCE,TARGET,VERDICT,UUID "$4" 2>&1) $rw $(cat "$4/file" 2>&1)"
	umount "$4" 2>/dev/null
}
inplace ext3-128 ext3 "e2fsck, tune2fs -I 256" /mnt/e3
inplace xfs-v5-nobigtime xfs "xfs_admin -O bigtime=1" /mnt/x
inplace ext2 ext2 "a journal, then the ext4 driver" /mnt/e2
inplace ext4-rev0 ext2 "a journal, tune2fs -I 256, the ext4 driver" /mnt/r0
ktap_done
