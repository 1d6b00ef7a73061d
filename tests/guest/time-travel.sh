#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Time travel: the guest clock is 2038-01-20 (rtc = 2038-01-20).  Under
# fs.y2038_policy=warn a new file on a 2038-limited filesystem (ext4 with
# 128-byte inodes, XFS V4) gets its time clamped to 2038-01-19 03:14:07
# (2147483647), while ext4 with 256-byte inodes and XFS bigtime keep the date.
# Under fs.y2038_policy=ro the limited ones mount only read-only.  The
# generic timestamp expiry line is printed under warn, not under allow.
. /tests/ktap.sh
ktap_plan 11
S32_MAX=2147483647
d=$(date -u +%Y-%m-%d)
[ "$d" = 2038-01-20 ] && ktap_ok "guest clock is 2038-01-20" ||
	{ ktap_diag "date says $d"; ktap_fail "guest clock is 2038-01-20"; }

fstype() { case $1 in ext4-*) echo ext4 ;; xfs-*) echo xfs ;; esac; }

# mtime of a file created now on image $1
new_mtime() {
	mount -t "$(fstype "$1")" "/dev/img/$1" /mnt || return 1
	touch /mnt/f && stat -c %Y /mnt/f
	umount /mnt
}

EXPIRY='ext4 filesystem being mounted at /mnt supports timestamps until 2038-01-19 (0x7fffffff)'
# allow: no message at all, not even the generic one (once per boot per
# device, so this comes before the first warn mount of ext4-128)
echo allow > /proc/sys/fs/y2038_policy
kmsg_mark
t=$(new_mtime ext4-128)
if [ "$t" = $S32_MAX ] && ! kmsg_since | grep -q 'supports timestamps until'; then
	ktap_ok "y2038_policy=allow: ext4-128 mounts without the timestamp expiry line"
else
	ktap_diag "mtime $t"; kmsg_since | ktap_diag "$(cat)"
	ktap_fail "y2038_policy=allow: ext4-128 mounts without the timestamp expiry line"
fi
echo warn > /proc/sys/fs/y2038_policy

for img in ext4-128 xfs-v4 ext4-256 xfs-v5-bigtime; do
	kmsg_mark
	t=$(new_mtime "$img")
	if [ "$img" = ext4-128 ]; then
		kmsg_since | grep -qxF "$EXPIRY" && ktap_ok "warn: ext4-128 gets the timestamp expiry line" ||
			{ kmsg_since | ktap_diag "$(cat)"; ktap_fail "warn: ext4-128 gets the timestamp expiry line"; }
	fi
	case $img in
	ext4-128|xfs-v4)
		[ "$t" = $S32_MAX ] && ktap_ok "warn: $img clamps to 2038-01-19 03:14:07" ||
			{ ktap_diag "mtime $t"; ktap_fail "warn: $img clamps to 2038-01-19 03:14:07"; } ;;
	*)
		[ -n "$t" ] && [ "$t" -gt $S32_MAX ] && ktap_ok "warn: $img keeps $(date -u -d @$t +%F 2>/dev/null || echo $t)" ||
			{ ktap_diag "mtime $t"; ktap_fail "warn: $img keeps the date"; } ;;
	esac
done

echo ro > /proc/sys/fs/y2038_policy
# mount(8) (busybox) retries read-only after EACCES, as util-linux does
mode_of() { awk '$2 == "/mnt" { split($4, o, ","); print o[1] }' /proc/mounts; }
for img in ext4-128 xfs-v4 ext4-256 xfs-v5-bigtime; do
	mount -t "$(fstype "$img")" -o rw "/dev/img/$img" /mnt 2>/dev/null
	m=$(mode_of)
	case $img in
	ext4-128|xfs-v4)
		if [ "$m" = ro ] && ! mount -o remount,rw /mnt 2>/dev/null; then
			ktap_ok "y2038_policy=ro: $img mounts only read-only"
		else
			ktap_diag "mode '$m'"; ktap_fail "y2038_policy=ro: $img mounts only read-only"
		fi ;;
	*)
		[ "$m" = rw ] && ktap_ok "y2038_policy=ro: $img mounts read-write" ||
			{ ktap_diag "mode '$m'"; ktap_fail "y2038_policy=ro: $img mounts read-write"; } ;;
	esac
	umount /mnt 2>/dev/null
done
echo warn > /proc/sys/fs/y2038_policy
ktap_done
