#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Group system-sysctl: fs.deprecated_policy = deny from /etc/sysctl.d, no
# boot parameter, the fstab of system-deny.  Debian's systemd-sysctl.service
# is ordered before sysinit.target only, as are the fstab mounts: nothing
# orders the two, and the policy could come after the mount.  The group's
# drop-in (systemd-sysctl.service.d/before-local-fs.conf) orders it before
# local-fs-pre.target: then the policy is in force before every fstab mount.
. /usr/lib/rig/ktap.sh
. /usr/lib/rig/denylib.sh
ktap_plan 11
expect "boot reached multi-user.target" active "$(systemctl is-active multi-user.target)"
expect "no policy on the kernel command line" "" "$(grep -o 'fs_deprecated_policy=[^ ]*' /proc/cmdline)"
expect "policy deny from /etc/sysctl.d" deny "$(sysctl -n fs.deprecated_policy)"
vendor=$(grep -h '^Before=\|^After=' /usr/lib/systemd/system/systemd-sysctl.service | paste -sd' ')
ktap_diag "systemd-sysctl.service as Debian ships it: $vendor"
if grep -q 'local-fs' <<<"$vendor"; then
	ktap_fail "Debian's systemd-sysctl.service is not ordered against local-fs (the race this drop-in closes)"
else
	ktap_ok "Debian's systemd-sysctl.service is not ordered against local-fs (the race this drop-in closes)"
fi
expect "with the drop-in: systemd-sysctl.service Before= local-fs-pre.target" yes \
	"$(systemctl show -p Before --value systemd-sysctl.service | tr ' ' '\n' | grep -qx local-fs-pre.target && echo yes)"
applied=$(systemctl show -p ExecMainExitTimestampMonotonic --value systemd-sysctl.service)
tried=$(systemctl show -p InactiveExitTimestampMonotonic --value "$XFS_UNIT")
ktap_diag "systemd-sysctl.service finished at $applied us, $XFS_UNIT started at $tried us (monotonic)"
expect "sysctl.d applied before the fstab mount started" yes "$([ "$applied" -gt 0 ] && [ "$applied" -lt "$tried" ] && echo yes)"
check_refused_unit
expect "control /srv/ext4-256 mounted read-write" rw "$(findmnt -no OPTIONS /srv/ext4-256 | cut -d, -f1)"
check_fsaudit_fstab 1
ktap_done
