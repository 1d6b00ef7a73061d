#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
#
# fsaudit where filesystems are really mounted (never on the host): the
# remedy of a mounted reiserfs run as fsaudit prints it (a backup with tar,
# umount, a new ext4 with the same UUID, mounted again, the data back), then
# audited again: ok, with the data; a mounted XFS judged by an unprivileged
# user through XFS_IOC_FSGEOMETRY, a mounted ext4 "needs root"; the KERNEL
# column against what the policies really do to the next mount.
. /tests/ktap.sh
. /tests/modlib.sh
ktap_plan 10
FSA=/tests/fsaudit
mkdir -p /mnt/old /mnt/x /mnt/e /var/tmp
# busybox tar without --acls, --xattrs, -p (tests/guest/remedy-tar.sh); no
# wipefs in the guest: the first MiB zeroed, where the signatures are
{
	cat /tests/remedy-tar.sh
	echo 'wipefs() { dd if=/dev/zero of="$2" bs=1024 count=1024 conv=notrunc 2>/dev/null; }'
} >/tmp/tar.sh
# an unprivileged user: nobody, for busybox su (the initramfs has no /etc)
mkdir -p /etc
[ -f /etc/passwd ] || printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' >/etc/passwd
[ -f /etc/group ] || printf 'root:x:0:\nnogroup:x:65534:\n' >/etc/group
asuser() { su -s /bin/sh nobody -c "$*"; }

# 1-3: the remedy of a mounted reiserfs, as printed
if removed reiserfs; then
	for n in "reiserfs mounted on /mnt/old: its remedy runs as printed" \
		"after the remedy: ext4, verdict ok, same UUID, mounted again on /mnt/old" \
		"after the remedy: the data is back"; do
		ktap_skip "reiserfs is not in this kernel's base" "$n"
	done
else
rdev=$(readlink -f /dev/img/reiserfs36)
mount -t reiserfs "$rdev" /mnt/old && echo hello >/mnt/old/file && mkdir /mnt/old/d && echo x >/mnt/old/d/y
uuid=$($FSA -r -n -o UUID /mnt/old 2>&1)
$FSA -o REMEDY /mnt/old 2>&1 | sed -n '/^\[1\] /,$p' | sed '1d; s/^    //' >/tmp/remedy.sh
ktap_diag "remedy: $(tr '\n' '|' </tmp/remedy.sh)"
if cat /tmp/tar.sh /tmp/remedy.sh | sh -e >/tmp/remedy.out 2>&1; then
	ktap_ok "reiserfs mounted on /mnt/old: its remedy runs as printed"
else
	ktap_diag "$(cat /tmp/remedy.out)"
	ktap_fail "reiserfs mounted on /mnt/old: its remedy runs as printed"
fi
expect "after the remedy: ext4, verdict ok, same UUID, mounted again on /mnt/old" \
	"ext4 ok $uuid" "$($FSA -r -n -o FSTYPE,VERDICT,UUID /mnt/old 2>&1)"
expect "after the remedy: the data is back" "hello x" "$(cat /mnt/old/file /mnt/old/d/y 2>&1 | tr '\n' ' ' | sed 's/ $//')"
umount /mnt/old
fi

# 4-6: unprivileged
xdev=$(readlink -f /dev/img/xfs-v5-nobigtime)
edev=$(readlink -f /dev/img/ext4-128)
mount -t xfs "$xdev" /mnt/x && mount -t ext4 "$edev" /mnt/e
chmod 600 "$xdev" "$edev"; chmod 755 /mnt/x /mnt/e
out=$(asuser $FSA -r -n -o VERDICT,INODE-SIZE,NOTES /mnt/x 2>&1); rc=$?
case "$rc $out" in
"1 2038-limited "*XFS_IOC_FSGEOMETRY*) ktap_ok "unprivileged, mounted XFS: judged through XFS_IOC_FSGEOMETRY" ;;
*) ktap_diag "rc=$rc $out"; ktap_fail "unprivileged, mounted XFS: judged through XFS_IOC_FSGEOMETRY" ;;
esac
out=$(asuser $FSA -r -n -o VERDICT,NOTES /mnt/e 2>&1); rc=$?
case "$rc $out" in
"2 "*needs*root*) ktap_ok "unprivileged, mounted ext4: needs root, exit 2" ;;
*) ktap_diag "rc=$rc $out"; ktap_fail "unprivileged, mounted ext4: needs root, exit 2" ;;
esac
expect "as root, the same XFS from its superblock" "2038-limited" "$($FSA -r -n -o VERDICT /mnt/x 2>&1)"
umount /mnt/x; umount /mnt/e

# 7-10: KERNEL against the policies of this kernel
echo ro >/proc/sys/fs/y2038_policy
expect "fs.y2038_policy=ro: KERNEL says read-only" "read-only" "$($FSA -r -n -o KERNEL "$edev" 2>&1)"
mount -t ext4 -o rw "$edev" /mnt/e 2>/dev/null
if grep -q "^$edev /mnt/e ext4 rw" /proc/mounts; then
	ktap_fail "fs.y2038_policy=ro: a read-write mount is not read-write"; umount /mnt/e
else
	ktap_ok "fs.y2038_policy=ro: a read-write mount is not read-write"
	umount /mnt/e 2>/dev/null
fi
echo deny >/proc/sys/fs/y2038_policy
expect "fs.y2038_policy=deny: KERNEL says refused" "refused" "$($FSA -r -n -o KERNEL "$edev" 2>&1)"
if mount -t ext4 -o ro "$edev" /mnt/e 2>/dev/null; then
	ktap_fail "fs.y2038_policy=deny: the mount is refused"; umount /mnt/e
else
	ktap_ok "fs.y2038_policy=deny: the mount is refused"
fi
echo warn >/proc/sys/fs/y2038_policy
ktap_done
