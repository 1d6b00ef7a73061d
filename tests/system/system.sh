#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Group system (Debian 13, systemd as PID 1, util-linux 2.41): what an
# administrator meets on a real system.
#  - mount(8) of a deprecated filesystem under warn prints the kernel's
#    fs-deprecated line on its stderr; journalctl -k shows it;
#  - under fs.deprecated_policy=ro a read-write mount(8) ends read-only with
#    util-linux's own message, the file is readable, not a sector written;
#  - fsaudit's service and timer under systemd: the textfile is written
#    atomically, node_exporter serves its fsaudit_* series on 127.0.0.1;
#  - udev runs fsaudit's rules: FSAUDIT_* properties, UDISKS_AUTO=0, also
#    for a disk hot-added while the system runs; udisks2 does not automount
#    it, and under deny `udisksctl mount` fails;
#  - the root filesystem itself is ext4 with 128-byte inodes, under warn.
# (Several scenarios per boot: a systemd boot costs 10-12 s of TCG.)
. /usr/lib/rig/ktap.sh
ktap_plan 37
export LC_ALL=C.UTF-8

expect "boot reached multi-user.target" active "$(systemctl is-active multi-user.target)"
expect "util-linux is 2.41 or later" yes "$(mount --version | awk '{ split($NF, v, "."); print (v[1] > 2 || (v[1] == 2 && v[2] + 0 >= 41)) ? "yes" : "no" }')"
ktap_diag "$(mount --version)"
ktap_diag "$(systemd-analyze time 2>&1 | head -n 1)"
ktap_diag "$(systemd-analyze blame --no-pager 2>&1 | head -n 15)"

# wsect DEV: sectors written to DEV so far (/sys/block/DEV/stat, field 7).
wsect() { awk '{ print $7 }' "/sys/block/$(basename "$(readlink -f "$1")")/stat"; }

# 1. warn: mount(8) says it at the terminal, the journal has it.  util-linux
# 2.41 prints the fs_context log's warnings after the mount, on stdout, as
# "mount warning:" and "      * LINE" (sys-utils/mount.c, libmount_mesgs()).
expect "policy is warn at boot" warn "$(sysctl -n fs.deprecated_policy)"
mkdir -p /mnt/a /mnt/b /mnt/c /mnt/d
out=$(mount /dev/img/ext2 /mnt/a 2>/tmp/err)
rc=$?
err=$(cat /tmp/err)
ktap_diag "mount /dev/img/ext2 /mnt/a: exit $rc, stdout:"
ktap_diag "$out"
ktap_diag "stderr: $err"
expect "warn: mount(8) of ext2 succeeds" 0 $rc
if [ "$(head -n 1 <<<"$out")" = "mount warning:" ] &&
   sed -n 2p <<<"$out" | grep -q '^      \* fs-deprecated: ext2: ext2 (vdb): ext2 driver deprecated since '; then
	ktap_ok "warn: mount(8) prints the kernel's line at the terminal (stdout)"
else
	ktap_fail "warn: mount(8) prints the kernel's line at the terminal (stdout)"
fi
expect "warn: mounted read-write" rw "$(findmnt -no OPTIONS /mnt/a | cut -d, -f1)"
umount /mnt/a
j=$(journalctl -k -b -g 'fs-deprecated: ext2: ext2 \(vdb\)' -o cat --no-pager 2>&1)
ktap_diag "journalctl -k -g: $j"
expect "warn: journalctl -k -g fs-deprecated shows the line once" 1 "$(grep -c 'fs-deprecated: ext2: ext2 (vdb):' <<<"$j")"

# 2. ro: the read-write mount ends read-only, util-linux says why, nothing written.
sysctl -q fs.deprecated_policy=ro
expect "policy set to ro" ro "$(sysctl -n fs.deprecated_policy)"
before=$(wsect /dev/img/ext2-files)
err=$(mount -o rw /dev/img/ext2-files /mnt/b 2>&1)
rc=$?
ktap_diag "mount -o rw /dev/img/ext2-files /mnt/b: exit $rc, stderr:"
ktap_diag "$err"
expect "ro: mount(8) -o rw of ext2 succeeds" 0 $rc
if grep -q '^mount: /mnt/b: WARNING: source write-protected, mounted read-only\.$' <<<"$err"; then
	ktap_ok "ro: util-linux says it mounted read-only"
else
	ktap_fail "ro: util-linux says it mounted read-only"
fi
expect "ro: mounted read-only" ro "$(findmnt -no OPTIONS /mnt/b | cut -d, -f1)"
expect "ro: the file is readable" "hello from ext2" "$(cat /mnt/b/hello.txt 2>&1)"
touch /mnt/b/new 2>/dev/null
expect "ro: a write fails (EROFS)" 1 $?
umount /mnt/b
expect "ro: not a sector written (mount, read, umount)" "$before" "$(wsect /dev/img/ext2-files)"
before=$(wsect /dev/img/xfs-v4)
err=$(mount /dev/img/xfs-v4 /mnt/c 2>&1)
ktap_diag "mount /dev/img/xfs-v4 /mnt/c: $err"
expect "ro: XFS V4 mounted read-only" ro "$(findmnt -no OPTIONS /mnt/c | cut -d, -f1)"
umount /mnt/c
expect "ro: XFS V4: not a sector written" "$before" "$(wsect /dev/img/xfs-v4)"
sysctl -q fs.deprecated_policy=warn

# 4. fsaudit's service and timer, node_exporter.
expect "fsaudit.timer is enabled and active" "enabled active" \
	"$(systemctl is-enabled fsaudit.timer) $(systemctl is-active fsaudit.timer)"
prom=/var/lib/prometheus/node-exporter/fsaudit.prom
# The timer fires by itself: its stamp says it last ran two days ago
# (tests/system/overlay/system.sh), the machine was off at its elapse, and
# Persistent=true catches up at boot rather than at its next daily elapse.
# (systemd delays that run by up to RandomizedDelaySec, an hour, which a
# drop-in of the test sets to 0: overlay/system/etc/systemd/system/.)
# Nothing here starts it.
tsec() { [ -n "$1" ] && date -d "$1" +%s; }
runs() { journalctl -b -u fsaudit.service -o cat --no-pager | grep -c '^Finished fsaudit.service'; }
boot=$(($(date +%s) - $(cut -d. -f1 /proc/uptime)))
for i in $(seq 60); do
	[ "$(runs)" -ge 1 ] && [ "$(systemctl show -P ActiveState fsaudit.service)" = inactive ] && break
	sleep 1
done
last1=$(tsec "$(systemctl show -P LastTriggerUSec fsaudit.timer)")
ktap_diag "$(journalctl -b -u fsaudit.timer -u fsaudit.service -o short-monotonic --no-pager | tail -n 3)"
expect "fsaudit.timer caught up on the missed run by itself (Persistent=true); the service succeeded" \
	"triggered 1 success" \
	"$([ -n "$last1" ] && [ "$last1" -ge "$boot" ] && echo triggered) $(runs) $(systemctl show -P Result fsaudit.service)"
expect "the catch-up run wrote the textfile" yes "$(grep -q '^fsaudit_' $prom 2>/dev/null && echo yes)"
next2=$(tsec "$(systemctl show -P NextElapseUSecRealtime fsaudit.timer)")
# (OnCalendar=daily: the next midnight; no randomized delay in this test)
expect "then fsaudit.timer waits for the next midnight" "yes 00:00:00" \
	"$([ -n "$next2" ] && [ "$next2" -gt "$(date +%s)" ] && [ $((next2 - $(date +%s))) -le 86400 ] && echo yes) $([ -n "$next2" ] && date -d "@$next2" +%T)"
systemctl start fsaudit.service
ino1=$(stat -c %i $prom 2>/dev/null)
systemctl start fsaudit.service
ino2=$(stat -c %i $prom 2>/dev/null)
ktap_diag "$(systemctl status --no-pager -n 5 fsaudit.service 2>&1 | tail -n 8)"
if [ -n "$ino1" ] && [ -n "$ino2" ] && [ "$ino1" != "$ino2" ] &&
   ! ls -A /var/lib/prometheus/node-exporter | grep -q '^\.fsaudit'; then
	ktap_ok "fsaudit.service replaces the textfile by rename (new inode, no temporary left)"
else
	ktap_fail "fsaudit.service replaces the textfile by rename (new inode, no temporary left)"
	ktap_diag "inodes '$ino1' '$ino2'; $(ls -lA /var/lib/prometheus/node-exporter)"
fi
if grep -q '^fsaudit_' $prom 2>/dev/null; then
	ktap_ok "the textfile has fsaudit_* series"
else
	ktap_fail "the textfile has fsaudit_* series"
fi
# node_exporter, scraped from the guest itself (bash's /dev/tcp, no curl).
scrape() {
	exec 3<>/dev/tcp/127.0.0.1/9100 || return 1
	printf 'GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
	cat <&3
	exec 3<&-
}
metrics=
for i in $(seq 60); do
	metrics=$(scrape 2>/dev/null) && [ -n "$metrics" ] && break
	sleep 1
done
n=$(grep -c '^fsaudit_' <<<"$metrics")
ktap_diag "node_exporter: $(systemctl is-active prometheus-node-exporter), $n fsaudit_ samples"
if [ "$n" -gt 0 ]; then
	ktap_ok "node_exporter serves fsaudit_* on 127.0.0.1:9100"
else
	ktap_fail "node_exporter serves fsaudit_* on 127.0.0.1:9100"
	ktap_diag "$(head -c 600 <<<"$metrics")"
fi

# 5. udev: fsaudit's rules on the disks present at boot.  Debian's own
# rules (64-ext4.rules, 64-xfs.rules) already set UDISKS_AUTO=0 for every ext
# and XFS filesystem; for reiserfs only fsaudit's do (5b below).
props=$(udevadm info --query=property /dev/img/xfs-v4)
ktap_diag "$(grep -E '^(ID_FS_TYPE|FSAUDIT_|UDISKS_)' <<<"$props")"
expect "udev: xfs-v4 FSAUDIT_VERDICT" FSAUDIT_VERDICT=deprecated "$(grep '^FSAUDIT_VERDICT=' <<<"$props")"
props=$(udevadm info --query=property /dev/img/ext4-256)
expect "udev: ext4-256 (control) FSAUDIT_VERDICT=ok, FSAUDIT_AT_RISK=0" "FSAUDIT_VERDICT=ok FSAUDIT_AT_RISK=0" \
	"$(grep '^FSAUDIT_VERDICT=' <<<"$props") $(grep '^FSAUDIT_AT_RISK=' <<<"$props")"
# 6. The root itself is ext4 with 128-byte inodes (system_root = ext4-128,
# the deprecated item ext4-small-inodes) under warn: read-write, one line.
expect "the root has 128-byte inodes" 128 "$(tune2fs -l /dev/vda | awk -F': *' '/^Inode size/ { print $2 }')"
expect "root mounted read-write" rw "$(findmnt -no OPTIONS / | cut -d, -f1)"
expect "systemd-remount-fs.service did not fail" no "$(systemctl is-failed -q systemd-remount-fs.service && echo yes || echo no)"
j=$(journalctl -k -b -o cat --no-pager | grep '^fs-deprecated: ext4-small-inodes: ext4 (vda):')
ktap_diag "$j"
expect "journalctl -k: the root's fs-deprecated line, once" 1 "$(grep -c . <<<"$j")"

# 5b. A reiserfs disk (removed from mainline after 6.12) appears in the
# running system, as a USB stick would: the script asks the rig for it
# ("rig-hotplug NAME" on the status channel), the rig adds it through QMP as
# a scsi-hd.  udev gives it fsaudit's properties and UDISKS_AUTO=0 (Debian's
# own rules leave reiserfs to automount), udisks2 turns that into
# HintAuto=false, and under deny `udisksctl mount` fails with EPERM (the
# reason is in the kernel log only).  A base without reiserfs (7.3: the rig
# says rig.removed=reiserfs,... on the command line) skips its 8 checks.
if grep -qE '(^| )rig\.removed=([^ ]*,)?reiserfs(,| |$)' /proc/cmdline; then
	for t in "the hot-added disk appeared (udev's by-id link)" "udev: ID_FS_TYPE reiserfs" \
		"udev: fsaudit's FSAUDIT_VERDICT and UDISKS_AUTO=0" "udisks2: HintAuto false (desktops do not automount it)" \
		"udisks2 mounted nothing by itself" "udisksctl mount under deny fails" \
		"udisksctl's error is EPERM (udisks2 does not relay the kernel's reason)" \
		"the kernel log names the reason for the hot-added disk"; do
		ktap_skip "no reiserfs in this kernel's base" "$t"
	done
	ktap_done
	exit
fi
link=/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_reiserfs36
echo "rig-hotplug reiserfs36" >/dev/ttyS2
for i in $(seq 120); do
	[ -e $link ] && break
	sleep 0.5
done
udevadm settle -t 30
dev=$(readlink -f $link)
ktap_diag "hot-added disk: $link -> $dev"
expect "the hot-added disk appeared (udev's by-id link)" yes "$([ -b "$dev" ] && echo yes)"
props=$(udevadm info --query=property "$dev")
ktap_diag "$(grep -E '^(ID_FS_TYPE|ID_BUS|FSAUDIT_|UDISKS_)' <<<"$props")"
expect "udev: ID_FS_TYPE reiserfs" ID_FS_TYPE=reiserfs "$(grep '^ID_FS_TYPE=' <<<"$props")"
expect "udev: fsaudit's FSAUDIT_VERDICT and UDISKS_AUTO=0" \
	"FSAUDIT_VERDICT=removed-from-mainline UDISKS_AUTO=0" \
	"$(grep '^FSAUDIT_VERDICT=' <<<"$props") $(grep '^UDISKS_AUTO=' <<<"$props")"
hint=
for i in $(seq 40); do
	hint=$(udisksctl info -b "$dev" 2>&1 | grep -o 'HintAuto: *[a-z]*' | tr -s ' ')
	[ -n "$hint" ] && break
	sleep 0.5
done
expect "udisks2: HintAuto false (desktops do not automount it)" "HintAuto: false" "$hint"
expect "udisks2 mounted nothing by itself" "" "$(findmnt -rno TARGET -S "$dev")"
sysctl -q fs.deprecated_policy=deny	# (last: the policy stays)
out=$(udisksctl mount -b "$dev" 2>&1)
rc=$?
ktap_diag "udisksctl mount -b $dev under deny: exit $rc: $out"
expect "udisksctl mount under deny fails" "1 " "$([ $rc -ne 0 ] && echo 1) $(findmnt -rno TARGET -S "$dev")"
# udisks2 mounts with mount(2) through libblockdev: its error is the errno
# alone (EPERM); the reason is in the kernel log, with the device (a denied
# type is refused before any superblock exists: named by its source, /dev/sda).
expect "udisksctl's error is EPERM (udisks2 does not relay the kernel's reason)" "EPERM only" \
	"$(grep -q 'Operation not permitted' <<<"$out" && ! grep -q 'fs-deprecated' <<<"$out" && echo EPERM only)"
k=$(journalctl -k -b -o cat --no-pager | grep "^fs-deprecated: reiserfs: reiserfs (\\(/dev/\\)\\?$(basename "$dev")): .*refused")
ktap_diag "$k"
expect "the kernel log names the reason for the hot-added disk" 1 "$(grep -c . <<<"$k")"
ktap_done
