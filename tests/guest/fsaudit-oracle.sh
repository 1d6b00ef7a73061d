#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Oracle for fsaudit: for every image, the latest timestamp fsaudit says the
# kernel keeps (S-TIME-MAX) must equal the kernel's s_time_max, measured by
# setting a file's mtime far in the future on the mounted image and reading
# back what the VFS clamped it to (timestamp_truncate() clamps to s_time_max).
. /tests/ktap.sh
FAR=99999999999		# year 5138: beyond every limit of these images
set -- $(ls /dev/img)
ktap_plan $#
# One fsaudit run for every image (under TCG each run of the dynamically
# linked program costs ~0.1 s of loading): SOURCE FSTYPE S-TIME-MAX per line.
all=$(cd /dev/img && /tests/fsaudit --ext2-driver=ext2 -n -r -o SOURCE,FSTYPE,S-TIME-MAX "$@" 2>&1)
for img in "$@"; do
	dev=/dev/img/$img
	out=$(echo "$all" | awk -v s="$img" '$1 == s { $1 = ""; sub(/^ /, ""); print }')
	[ -n "$out" ] || out=$(echo "$all" | grep -F "$img")
	fs=${out%% *}
	want=${out##* }
	name="$img: fsaudit S-TIME-MAX equals the kernel's s_time_max"
	case "$want" in
	''|*[!0-9-]*) ktap_diag "fsaudit said: $out"; ktap_fail "$name"; continue ;;
	esac
	if ! err=$(mount -t "$fs" "$dev" /mnt 2>&1); then
		ktap_diag "mount -t $fs failed: $err"; ktap_fail "$name"; continue
	fi
	touch -d "@$FAR" /mnt/oracle && got=$(stat -c %Y /mnt/oracle)
	umount /mnt
	if [ "$got" = "$want" ]; then
		ktap_ok "$name ($want)"
	else
		ktap_diag "fsaudit: $want, kernel clamped $FAR to: $got"
		ktap_fail "$name"
	fi
done
ktap_done
