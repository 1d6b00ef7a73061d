#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Not a test group: rig/rig.py boots this to make a root filesystem image for
# groups with `rootfs =` (no initramfs, root=/dev/vda).  The image is /dev/vda,
# attached writable; the host never mounts it.  It gets busybox with its links,
# the rig's /init and the guest scripts.
. /tests/ktap.sh
ktap_plan 1
set -e
mount /dev/vda /mnt
for d in bin sbin dev proc sys tmp mnt tests; do mkdir -p /mnt/$d; done
cp /bin/busybox /mnt/bin/busybox
chroot /mnt /bin/busybox --install -s /bin
cp /init /mnt/init
cp /tests/*.sh /mnt/tests/
umount /mnt
ktap_ok "root filesystem prepared on /dev/vda"
