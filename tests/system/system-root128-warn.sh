#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Group system-root128-warn: the root filesystem itself is ext4 with 128-byte
# inodes (the deprecated item ext4-small-inodes, 2038-limited) under the
# default policy warn: the boot reaches multi-user.target read-write, the
# kernel's line for vda is in the journal once.
. /usr/lib/rig/ktap.sh
ktap_plan 5
export LC_ALL=C.UTF-8
expect "the root has 128-byte inodes" 128 "$(tune2fs -l /dev/vda | awk -F': *' '/^Inode size/ { print $2 }')"
expect "boot reached multi-user.target" active "$(systemctl is-active multi-user.target)"
expect "root mounted read-write" rw "$(findmnt -no OPTIONS / | cut -d, -f1)"
expect "systemd-remount-fs.service did not fail" no "$(systemctl is-failed -q systemd-remount-fs.service && echo yes || echo no)"
j=$(journalctl -k -b -o cat --no-pager | grep '^fs-deprecated: ext4-small-inodes: ext4 (vda):')
ktap_diag "$j"
expect "journalctl -k: the root's fs-deprecated line, once" 1 "$(grep -c . <<<"$j")"
ktap_done
