#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Cost of mounting deprecated images (the warning path): 300 cycles x 5 rounds each
# (a base without reiserfs: xfs-v4 only).
echo "KTAP version 1"
echo "1..2"
n=0
for spec in "reiserfs36 reiserfs" "xfs-v4 xfs"; do
	set -- $spec
	n=$((n + 1))
	# A base without the filesystem (7.3: reiserfs) cannot mount its image.
	if ! grep -qw "$2" /proc/filesystems; then echo "ok $n bench $1 # SKIP no $2 in this kernel"; continue; fi
	out=$(/tests/mountloop "$1" "$2" "/dev/img/$1" /mnt 300 5 ro)
	rc=$?
	echo "$out" | grep '^#'
	if [ $rc = 0 ]; then echo "ok $n bench $1"; else echo "not ok $n bench $1"; fi
done
