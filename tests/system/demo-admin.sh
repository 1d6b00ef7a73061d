#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# `make demo`, the administrator's view: the same kernel under Debian 13
# (systemd, util-linux 2.41).  The real mount(8) at a terminal (a pty made
# by script(1)) prints the kernel's line; the journal keeps it; under the ro
# policy mount(8) ends read-only with its own message; fsaudit --fstab says
# what a boot would do with an fstab entry.  The story goes out as KTAP
# diagnostics, every claim is a KTAP result (rig/fsrig/demo.py renders it).
. /usr/lib/rig/ktap.sh
ktap_plan 5
export LC_ALL=C.UTF-8
# as on a terminal, but without colours in the story
export SYSTEMD_COLORS=0
say() { ktap_diag "$*"; }
# at_terminal CMD: CMD's output as a terminal shows it (script(1) gives it a
# pty), indented, in $OUT.
at_terminal() {
	OUT=$(script -qec "$1" /dev/null 2>&1 | tr -d '\r')
	say "# $1"
	[ -n "$OUT" ] && say "$(sed 's/^/    /' <<<"$OUT")"
}
xfs=$(readlink -f /dev/img/xfs-v4)
ext2=$(readlink -f /dev/img/ext2)
mkdir -p /mnt/data /mnt/old

say "================================================================================"
say "4. The administrator's view: Debian 13 on the same kernel, systemd, $(mount --version | head -n 1 | cut -d' ' -f1-4 | tr -d '(')"
say "   (the busybox guests above print the kernel log; here the real tools speak)"
say ""
say "Policy: fs.deprecated_policy=$(sysctl -n fs.deprecated_policy) (the default)"
at_terminal "mount $xfs /mnt/data"
if grep -q '^mount warning:' <<<"$OUT" && grep -q "^      \* fs-deprecated: xfs-v4: xfs ($(basename "$xfs")): " <<<"$OUT"; then
	ktap_ok "mount(8) prints the kernel's fs-deprecated line at the terminal"
else
	ktap_fail "mount(8) prints the kernel's fs-deprecated line at the terminal"
fi
umount /mnt/data
at_terminal "journalctl -k -b -g fs-deprecated -o short-monotonic --no-pager"
expect "journalctl -k has the line" yes "$(grep -q 'fs-deprecated: xfs-v4: xfs' <<<"$OUT" && echo yes)"

say ""
say "Evacuation: sysctl fs.deprecated_policy=ro; a read-write mount ends read-only"
sysctl -q fs.deprecated_policy=ro
at_terminal "mount -o rw $ext2 /mnt/old"
expect "under ro, mount(8) -o rw ends read-only with util-linux's own message" "ro yes" \
	"$(findmnt -no OPTIONS /mnt/old | cut -d, -f1) $(grep -q 'write-protected, mounted read-only' <<<"$OUT" && echo yes)"
umount /mnt/old

say ""
say "Before the next boot: an fstab entry for each disk; what fsaudit --fstab says"
cat >/tmp/fstab <<FSTAB
UUID=$(blkid -s UUID -o value "$xfs") /srv/archive xfs defaults 0 0
UUID=$(blkid -s UUID -o value "$ext2") /srv/old ext2 defaults,nofail 0 0
FSTAB
say "# cat /tmp/fstab"
say "$(sed 's/^/    /' /tmp/fstab)"
sysctl -q fs.deprecated_policy=warn
say "(policy back to warn; fsaudit previews what deny would do at the next boot)"
COLUMNS=100 at_terminal "fsaudit --fstab=/tmp/fstab --policy deny -o TARGET,FSTYPE,KERNEL,NOFAIL,NOTES"
p=$(fsaudit --fstab=/tmp/fstab --policy deny -P -o TARGET,KERNEL,NOFAIL,NOTES 2>&1)
expect "fsaudit --fstab names both entries, refused under deny" 2 \
	"$(grep -c -e '^TARGET="/srv/archive" KERNEL="refused"' -e '^TARGET="/srv/old" KERNEL="refused"' <<<"$p")"
expect "fsaudit --fstab: the entry without nofail would stop the boot in emergency mode (and says so)" yes \
	"$(grep -q '^TARGET="/srv/archive" KERNEL="refused" NOFAIL="0" NOTES=".*emergency mode' <<<"$p" && echo yes)"
ktap_done
