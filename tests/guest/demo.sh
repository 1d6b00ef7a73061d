#!/bin/sh
# The demo: mount every image read-write and show what the kernel said about
# each (the "#" lines).  A result per image: it mounts read-write, as it must
# under the default policy (warn) — users have to be able to evacuate data.
. /tests/ktap.sh
set -- $(ls /dev/img)
ktap_plan $#
for img in "$@"; do
	case $img in
	reiserfs*) fs=reiserfs ;;
	ext2) fs=ext2 ;;
	ext3*) fs=ext3 ;;
	ext4*) fs=ext4 ;;
	xfs*) fs=xfs ;;
	esac
	kmsg_mark
	out=$(mount -t $fs /dev/img/$img /mnt 2>&1)
	rc=$?
	[ $rc = 0 ] && { touch /mnt/demo-file; umount /mnt; }
	echo "# ---- $img (mount -t $fs): $([ $rc = 0 ] && echo mounted read-write || echo "refused: $out")"
	kmsg_since | grep -v -e 'Mounting V' -e 'Ending clean mount' -e 'Unmounting Filesystem' \
		-e 'mounted filesystem' -e 'unmounting filesystem' -e 'using internal journal' \
		-e 'checking transaction log' -e 'replayed' -e 'found reiserfs format' \
		-e 'journal params' -e 'using ordered data mode' -e 'Using r5 hash' \
		-e 'warning: CONFIG_XFS_DEBUG' -e 'write access will be enabled' \
		-e 'using flush barriers' | sed 's/^/# kernel: /'
	if [ $rc = 0 ]; then ktap_ok "$img: mounts read-write"; else ktap_fail "$img: mounts read-write"; fi
done
# What userspace can read afterwards: the policies and the inventory.
echo "# ---- policies: fs.deprecated_policy=$(cat /proc/sys/fs/deprecated_policy 2>/dev/null) fs.y2038_policy=$(cat /proc/sys/fs/y2038_policy 2>/dev/null)"
for d in /sys/fs/deprecated/* /sys/fs/y2038; do
	[ -d "$d" ] || continue
	printf '# %s:' "${d#/sys/fs/}"
	for f in "$d"/*; do printf ' %s=%s' "${f##*/}" "$(cat "$f")"; done
	echo
done
