# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Checks shared by the groups whose /etc/fstab has a deprecated filesystem
# under deny (system-deny, system-sysctl, system-emergency); sourced by
# their scripts after ktap.sh.  /srv/xfs-v4 is /dev/vdb (XFS V4).
export LC_ALL=C.UTF-8
XFS_UNIT=$(systemd-escape -p --suffix=mount /srv/xfs-v4)

# The refused fstab mount: its unit failed, `systemctl status` names the reason.
check_refused_unit() {
	expect "$XFS_UNIT failed" failed "$(systemctl is-failed "$XFS_UNIT")"
	st=$(systemctl status --no-pager -l -n 20 "$XFS_UNIT" 2>&1)
	ktap_diag "$st"
	if grep -q 'mount: /srv/xfs-v4: .*fs-deprecated: xfs-v4: xfs (vdb): .*refused' <<<"$st"; then
		ktap_ok "systemctl status $XFS_UNIT shows mount(8)'s error with the kernel's reason"
	else
		ktap_fail "systemctl status $XFS_UNIT shows mount(8)'s error with the kernel's reason"
	fi
	expect "the kernel log has the refusal once" 1 \
		"$(journalctl -k -b -o cat --no-pager | grep -c '^fs-deprecated: xfs-v4: xfs (vdb): .*refused')"
}

# fsaudit --fstab on the booted system: what it says of the entries.
# $1: the NOFAIL value of /srv/xfs-v4's entry.
check_fsaudit_fstab() {
	out=$(fsaudit --fstab -P -o TARGET,FSTYPE,VERDICT,KERNEL,NOFAIL 2>&1)
	ktap_diag "fsaudit --fstab: $out"
	expect "fsaudit --fstab: /srv/xfs-v4 is refused under the running policy" \
		"TARGET=\"/srv/xfs-v4\" FSTYPE=\"xfs\" VERDICT=\"deprecated\" KERNEL=\"refused\" NOFAIL=\"$1\"" \
		"$(grep 'TARGET="/srv/xfs-v4"' <<<"$out")"
}
