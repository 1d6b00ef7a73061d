#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Issue 14: booted without initramfs from an ext4 root (root=/dev/vda, no
# rootfstype=) with fs_deprecated_policy=deny: the kernel's root mount tries
# the registered types in turn, and the deprecated ones (ext2, reiserfs)
# being denied must not stop it before ext4 mounts the root.
. /tests/ktap.sh
ktap_plan 3
set -- $(awk '$2 == "/" && $1 != "rootfs" { print $3, $4 }' /proc/mounts)
expect "root filesystem is ext4" ext4 "$1"
expect "root mounted read-write" rw "${2%%,*}"
expect "fs_deprecated_policy=deny applied at boot" deny "$(cat /proc/sys/fs/deprecated_policy)"
dmesg | grep fs-deprecated | sed 's/^/# kernel log: /'
ktap_done
