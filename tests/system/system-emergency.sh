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
# (emergency.target is isolated: local-fs.target's failed state is gone, the journal keeps it)
expect "local-fs.target failed on the refused mount" 1 \
	"$(journalctl -b -o cat --no-pager | grep -c '^Dependency failed for local-fs.target')"
check_refused_unit
check_fsaudit_fstab 0
# What an administrator runs before setting the policy: the preview.
out=$(fsaudit --fstab --policy deny -P -o TARGET,KERNEL,NOFAIL,NOTES 2>&1)
ktap_diag "fsaudit --fstab --policy deny: $out"
if grep -q '^TARGET="/srv/xfs-v4" KERNEL="refused" NOFAIL="0" NOTES=".*without nofail in /etc/fstab the boot stops in emergency mode' <<<"$out"; then
	ktap_ok "fsaudit --fstab --policy deny: without nofail the boot stops in emergency mode"
else
	ktap_fail "fsaudit --fstab --policy deny: without nofail the boot stops in emergency mode"
fi
ktap_done
