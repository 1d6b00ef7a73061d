#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Not a test group: rig/rig.py boots this to make an image whose journal/log
# needs recovery (NAME-dirty, from image NAME): the image is /dev/img/NAME-dirty,
# attached writable.  Mount it read-write, write files, sync, and leave it
# mounted: tests/guest/init then stops the guest with reboot -f, which
# unmounts nothing, so the journal (ext3/ext4, reiserfs) or log (XFS) holds
# committed transactions that a mount replays.  The host never mounts it; it
# checks the result read-only (dumpe2fs, xfs_logprint, debugreiserfs).
. /tests/ktap.sh
. /tests/modlib.sh
ktap_plan 1
img=$(ls /dev/img)
image_info $img
set -e
mount -t $I_TYPE /dev/img/$img /mnt
mkdir /mnt/recent
i=0
while [ $i -lt 40 ]; do
	echo "file $i of $img, written before the crash" > /mnt/recent/f$i
	i=$((i + 1))
done
dd if=/dev/zero of=/mnt/recent/zeros bs=4k count=2 2>/dev/null
rm /mnt/recent/f1 /mnt/recent/f2
mv /mnt/recent/f3 /mnt/recent/renamed
sync
ktap_ok "$img: mounted read-write ($I_TYPE), written, synced, left mounted for reboot -f"
