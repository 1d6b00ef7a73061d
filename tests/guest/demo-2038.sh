#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# `make demo`, second boot (rtc = 2038-01-20, in parallel with the first):
# a file created now on each image gets which time?  The 2038-limited ones
# clamp it to 2038-01-19 03:14:07; fsaudit's S-TIME-MAX said so beforehand.
# "# @row IMAGE 2038 VALUE" lines feed rig/demo.py's summary table.
. /tests/ktap.sh
say() { echo "# $*"; }
row() { echo "# @row $1 $2 $3"; }
check() {
	_name=$1; shift
	for _c; do eval "$_c" || { ktap_diag "failed: $_c"; ktap_fail "$_name"; return; }; done
	ktap_ok "$_name"
}
S32_MAX=2147483647
# IMAGE FSTYPE 2038-LIMITED
EXPECT='reiserfs36 reiserfs no
reiserfs35 reiserfs no
ext2 ext2 yes
ext3-128 ext3 yes
ext4-128 ext4 yes
ext4-rev0 ext4 yes
xfs-v4 xfs yes
xfs-ascii-ci xfs no
xfs-v5-nobigtime xfs yes
ext4-256 ext4 no
xfs-v5-bigtime xfs no'

ktap_plan 12
say "================================================================================"
say "6. Time travel: a second guest booted with its clock at 2038-01-20"
say "================================================================================"
now=$(date -u +%s)
say "# date -u"
say "    $(date -u)"
check "the guest clock is 2038-01-20" '[ "$(date -u +%F)" = 2038-01-20 ]'
devs=$(echo "$EXPECT" | while read -r i _; do echo /dev/img/$i; done)
FSA=$(/tests/fsaudit --ext2-driver=ext2 -r -n -o SOURCE,S-TIME-MAX $devs 2>&1)
say "fsaudit's S-TIME-MAX column: the last time the kernel can keep on each image."
while read -r img fs y2038 <&3; do
	pred=
	while read -r s p; do [ "$s" = /dev/img/$img ] && pred=$p; done <<EOF
$FSA
EOF
	say ""
	say "# mount -t $fs /dev/img/$img /mnt && touch /mnt/new-file && stat -c %y /mnt/new-file"
	dmesg -c > /dev/null
	mount -t $fs /dev/img/$img /mnt 2>&1 | sed 's/^/#     mount: /'
	dmesg | sed -n 's/^\[[ 0-9.]*\] //; /fs-deprecated:\|supports timestamps until/s/^/#     kernel: /p'
	t=$(touch /mnt/new-file && stat -c %Y /mnt/new-file)
	umount /mnt
	case $t in ''|*[!0-9]*) t=0 ;; esac
	case $pred in ''|*[!0-9]*) pred=0 ;; esac
	say "    $(date -u -d "@$t" '+%Y-%m-%d %H:%M:%S')   (fsaudit: the kernel keeps times up to" \
		"$(date -u -d "@$pred" '+%Y-%m-%d %H:%M:%S' 2>/dev/null || echo "$pred"))"
	if [ $y2038 = yes ]; then
		row $img 2038 "clamped to 2038-01-19 03:14:07"
		check "2038-01-20: $img clamps a new file's time to 2038-01-19 03:14:07, as fsaudit predicted" \
			'[ "$t" = $S32_MAX ]' '[ "$pred" = $S32_MAX ]'
	else
		row $img 2038 "keeps $(date -u -d "@$t" +%F)"
		check "2038-01-20: $img keeps the date, as fsaudit predicted" \
			'[ "$t" -ge "$now" ]' '[ "$t" -lt $((now + 600)) ]' '[ "$pred" -gt "$t" ]'
	fi
done 3<<EOF
$EXPECT
EOF
ktap_done
