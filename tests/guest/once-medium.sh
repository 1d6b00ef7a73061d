#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# The once-per-boot rule names every medium: a loop device attached to one
# image, then to another, has the same device number but holds another
# medium, and each gets its line; mounting the same attached image again
# gives none.
. /tests/ktap.sh
. /tests/modlib.sh
ktap_plan 3
mkdir -p /mnt/l
lines() { dmesg | grep -c 'fs-deprecated: xfs-v4: xfs (loop0)'; }
round() {
	losetup /dev/loop0 "$1" || ktap_diag "losetup $1 failed"
	mount -t xfs -o ro /dev/loop0 /mnt/l && umount /mnt/l
	mount -t xfs -o ro /dev/loop0 /mnt/l && umount /mnt/l
	losetup -d /dev/loop0
}
round /dev/img/xfs-v4
expect "first image on loop0: one line, twice mounted" 1 "$(lines)"
round /dev/img/xfs-v4-b
expect "second image on loop0: a line of its own" 2 "$(lines)"
round /dev/img/xfs-v4
expect "the first image attached again: a new medium, a new line" 3 "$(lines)"
ktap_done
