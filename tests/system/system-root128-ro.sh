#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Group system-root128-ro: the ext4 root with 128-byte inodes under
# fs_deprecated_policy=ro, `rw` on the command line.  The kernel mounts the
# root read-only (its read-write attempt is refused with EACCES and retried
# read-only), systemd boots on it, and systemd-remount-fs.service, which
# tries to make the root read-write as its line in /etc/fstab asks
# (tests/system/fstab), fails visibly (a failed unit, the reason in its
# status); not a sector is written to the root device.  Without a root line
# in /etc/fstab systemd-remount-fs does nothing and the root stays read-only
# without a failed unit (seen in this group before the line was added).
. /usr/lib/rig/ktap.sh
ktap_plan 7
export LC_ALL=C.UTF-8
expect "policy ro from the kernel command line" ro "$(sysctl -n fs.deprecated_policy)"
expect "root mounted read-only" ro "$(findmnt -no OPTIONS / | cut -d, -f1)"
expect "boot reached multi-user.target" active "$(systemctl is-active multi-user.target)"
expect "systemd-remount-fs.service failed" failed "$(systemctl is-failed systemd-remount-fs.service)"
st=$(systemctl status --no-pager -l -n 10 systemd-remount-fs.service 2>&1)
ktap_diag "$st"
expect "its status says the remount of / failed" yes \
	"$(grep -q 'mount: /: .*\(write-protected\|permission denied\|fs-deprecated\)' <<<"$st" && echo yes)"
k=$(journalctl -k -b -o cat --no-pager | grep '^fs-deprecated: ext4-small-inodes: ext4 (vda):')
ktap_diag "$k"
expect "the kernel log: the root's read-write mount refused, its warning, systemd-remount-fs's remount refused" \
	"read-write mount refused by policy ro|inodes smaller than 256 bytes deprecated|change to read-write refused by policy ro" \
	"$(sed 's/^fs-deprecated: ext4-small-inodes: ext4 (vda): //; s/ since.*//; s/;.*//' <<<"$k" | paste -sd'|')"
expect "not a sector written to the root device" 0 "$(awk '{ print $7 }' /sys/block/vda/stat)"
ktap_diag "systemctl --failed: $(systemctl list-units --failed --plain --no-legend | awk '{ print $1 }' | paste -sd' ')"
ktap_done
