#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Group system-emergency: fs_deprecated_policy=deny on the kernel command
# line, an XFS V4 disk in /etc/fstab without nofail: the boot stops in
# emergency mode (rig-run.service is wanted by emergency.target too), and
# fsaudit --fstab, run before the policy was set, would have said so.
. /usr/lib/rig/ktap.sh
. /usr/lib/rig/denylib.sh
ktap_plan 7
expect "the boot stopped in emergency mode" "active inactive" \
	"$(systemctl is-active emergency.target) $(systemctl is-active multi-user.target)"
ktap_diag "system state: $RIG_BOOT_STATE"
expect "local-fs.target failed" failed "$(systemctl is-failed local-fs.target)"
check_refused_unit
check_fsaudit_fstab 0
# What an administrator runs before setting the policy: the preview.
out=$(fsaudit --fstab --policy deny -u 2>&1)
ktap_diag "fsaudit --fstab --policy deny: $out"
if grep -q 'without nofail the boot stops in emergency mode' <<<"$out"; then
	ktap_ok "fsaudit --fstab --policy deny: without nofail the boot stops in emergency mode"
else
	ktap_fail "fsaudit --fstab --policy deny: without nofail the boot stops in emergency mode"
fi
ktap_done
