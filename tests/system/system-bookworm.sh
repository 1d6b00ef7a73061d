#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Group system-bookworm (Debian 12: systemd 252, util-linux 2.38) on the
# same kernel: what the README says of Debian 12.  mount(8) 2.38 mounts with
# mount(2), which has no fs_context log: the fs-deprecated line is not at
# the terminal, only in the kernel log (journalctl -k); a refusal is
# util-linux's generic message, the reason again only in the kernel log.
# fsaudit's package installs and its timer runs.
. /usr/lib/rig/ktap.sh
ktap_plan 9
export LC_ALL=C.UTF-8

expect "boot reached multi-user.target" active "$(systemctl is-active multi-user.target)"
ver=$(mount --version)
ktap_diag "$ver"
expect "util-linux is 2.38" yes "$(grep -q 'util-linux 2\.38' <<<"$ver" && echo yes)"
mkdir -p /mnt/a /mnt/b

# warn: the mount succeeds read-write; mount(8) prints nothing.
script -qec "mount /dev/img/ext2 /mnt/a" /dev/null >/tmp/out 2>&1
rc=$?
out=$(tr -d '\r' </tmp/out)
ktap_diag "mount /dev/img/ext2 /mnt/a (at a pty): exit $rc, output: '${out}'"
expect "warn: mount(8) 2.38 mounts ext2 read-write" "0 rw" "$rc $(findmnt -no OPTIONS /mnt/a | cut -d, -f1)"
expect "warn: mount(8) 2.38 shows nothing at the terminal" "" "$out"
umount /mnt/a
j=$(journalctl -k -b -o cat --no-pager | grep 'fs-deprecated: ext2: ext2 (vdb):')
ktap_diag "journalctl -k: $j"
expect "warn: the line is in the kernel log (journalctl -k), once" 1 "$(grep -c . <<<"$j")"

# deny: the refusal is util-linux's generic message; the reason only in the journal.
sysctl -q fs.deprecated_policy=deny
err=$(mount /dev/img/xfs-v4 /mnt/b 2>&1)
rc=$?
ktap_diag "mount /dev/img/xfs-v4 /mnt/b under deny: exit $rc: $err"
expect "deny: mount(8) 2.38 fails, without the kernel's reason" "fails no-reason" \
	"$([ $rc -ne 0 ] && echo fails) $(grep -q 'fs-deprecated' <<<"$err" && echo reason || echo no-reason)"
k=$(journalctl -k -b -o cat --no-pager | grep '^fs-deprecated: xfs-v4: xfs (.*): .*refused by policy deny')
ktap_diag "journalctl -k: $k"
expect "deny: the reason is in the kernel log" 1 "$(grep -c . <<<"$k")"
sysctl -q fs.deprecated_policy=warn

# fsaudit's package on Debian 12: the service runs and writes the textfile.
systemctl start fsaudit.service
expect "fsaudit.service succeeds on Debian 12" success "$(systemctl show -P Result fsaudit.service)"
expect "the textfile has fsaudit_* series" yes \
	"$(grep -q '^fsaudit_' /var/lib/prometheus/node-exporter/fsaudit.prom 2>/dev/null && echo yes)"
ktap_done
