#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Group ext2-options (kernel with the series) and ext2-options-stock (the
# same config without it): every ext2 mount option, alone and combined, on
# mount(2), fsopen(), remount and fspick(); tests/guest/ext2-options.c.
# rig/compare.py requires the two kernels' results to be identical.
# A second, bigger ext2 filesystem (3 groups of 8192 1 KiB blocks, so
# backup superblocks at 8193 and later) is made here on a loop device for
# sb=; the image under test is /dev/img/ext2.
img=/tmp/ext2-backup.img
if ! { truncate -s 24M $img && mke2fs -F -b 1024 $img >/dev/null 2>&1 &&
	losetup /dev/loop0 $img; }; then
	echo "KTAP version 1"
	echo "1..1"
	echo "not ok 1 ext2-options: loop device with a 3-group ext2 filesystem"
	exit 1
fi
exec /tests/ext2-options /dev/img/ext2 /dev/loop0
