#!/bin/sh
# The demo: mount every image read-write, then read-only, and show what the
# kernel said about each.  A result per image: mounted (or refused) as the
# running kernel decides; the interesting part is the "#" lines.
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
		-e 'warning: CONFIG_XFS_DEBUG' -e 'write access will be enabled' | sed 's/^/# kernel: /'
	ktap_ok "$img: mount attempted (rc=$rc)"
done
