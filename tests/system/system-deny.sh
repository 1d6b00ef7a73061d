#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Group system-deny: fs_deprecated_policy=deny on the kernel command line,
# /etc/fstab (tests/system/overlay/system-deny/) with an XFS V4 disk marked
# nofail and an ext4 control.  The boot reaches multi-user.target degraded,
# the XFS V4 mount unit failed with the reason in `systemctl status`, the
# control is mounted, and fsaudit --fstab says the same.
. /usr/lib/rig/ktap.sh
. /usr/lib/rig/denylib.sh
ktap_plan 9
expect "boot reached multi-user.target" active "$(systemctl is-active multi-user.target)"
expect "system state degraded (a unit failed)" degraded "$RIG_BOOT_STATE"
expect "policy deny from the kernel command line" deny "$(sysctl -n fs.deprecated_policy)"
check_refused_unit
expect "control /srv/ext4-256 mounted read-write" rw "$(findmnt -no OPTIONS /srv/ext4-256 | cut -d, -f1)"
check_fsaudit_fstab 1
# Only the refused unit failed.
expect "systemctl --failed lists only $XFS_UNIT" "$XFS_UNIT" \
	"$(systemctl list-units --failed --plain --no-legend | awk '{ print $1 }' | paste -sd' ')"
ktap_done
