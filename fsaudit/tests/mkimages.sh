#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# mkimages.sh DIR - make the fsaudit image matrix in DIR with real mkfs tools.
# Sparse files only; nothing is mounted.  Prints "name<TAB>status" per image
# ("ok" or "skip: reason") on stdout.  Deterministic names, small sizes.
set -u
dir=$1
mkdir -p "$dir/src" || exit 2
cd "$dir" || exit 2
echo hello >src/hello.txt
mkdir -p src/sub && echo world >src/sub/w.txt
touch -d @1000000000 src/hello.txt src/sub/w.txt src/sub src 2>/dev/null

export TEST_DIR=1 TEST_DEV=1 QA_CHECK_FS=1      # mkfs.xfs: allow 16 MiB
export SOURCE_DATE_EPOCH=1000000000 E2FSPROGS_FAKE_TIME=1000000000

have() { command -v "$1" >/dev/null 2>&1; }

# mk NAME SIZE TOOL CMD...   (CMD may use "$img")
mk() {
	name=$1 size=$2 tool=$3; shift 3
	img=$name.img
	if ! have "$tool"; then printf '%s\tskip: %s not installed\n' "$img" "$tool"; return; fi
	rm -f "$img"
	if [ "$size" != - ]; then truncate -s "$size" "$img" || return; fi
	if "$@" >"$name.log" 2>&1; then
		printf '%s\tok\n' "$img"
	else
		rm -f "$img"; printf '%s\tskip: %s failed\n' "$img" "$tool"
	fi
}

mk ext4-256      4M mkfs.ext4 mkfs.ext4 -q -F -U clear -E hash_seed=00000000-0000-0000-0000-000000000000 ext4-256.img
mk ext4-128      4M mkfs.ext4 mkfs.ext4 -q -F -I 128 -U clear ext4-128.img
mk ext4-noflex   4M mkfs.ext4 mkfs.ext4 -q -F -I 128 -O ^flex_bg -U clear ext4-noflex.img
mk ext3-128      4M mkfs.ext3 mkfs.ext3 -q -F -I 128 -U clear ext3-128.img
mk ext2-256      1M mkfs.ext2 mkfs.ext2 -q -F -I 256 -U clear ext2-256.img
mk ext2-128      1M mkfs.ext2 mkfs.ext2 -q -F -I 128 -U clear ext2-128.img
mk ext2-rev0     1M mkfs.ext2 mkfs.ext2 -q -F -r 0 -U clear ext2-rev0.img
mk xfs-v5       16M mkfs.xfs  mkfs.xfs -q -f -m uuid=00000000-0000-0000-0000-000000000001 xfs-v5.img
mk xfs-v5-nobig 16M mkfs.xfs  mkfs.xfs -q -f -m bigtime=0,uuid=00000000-0000-0000-0000-000000000002 xfs-v5-nobig.img
mk xfs-v4       16M mkfs.xfs  mkfs.xfs -q -f -m crc=0,uuid=00000000-0000-0000-0000-000000000003 xfs-v4.img
mk xfs-v4-ci    16M mkfs.xfs  mkfs.xfs -q -f -m crc=0,uuid=00000000-0000-0000-0000-000000000004 -n version=ci xfs-v4-ci.img
mk xfs-v5-ci    16M mkfs.xfs  mkfs.xfs -q -f -m uuid=00000000-0000-0000-0000-000000000005 -n version=ci xfs-v5-ci.img
mk reiserfs-3.6 2304K mkreiserfs mkreiserfs -q -f -f -s 513 -u 00000000-0000-0000-0000-000000000006 reiserfs-3.6.img
mk reiserfs-3.5 2304K mkreiserfs mkreiserfs -q -f -f --format 3.5 -s 513 reiserfs-3.5.img
mk vfat12        1M mkfs.fat  mkfs.fat -F 12 -i 12345678 vfat12.img
mk vfat16        9M mkfs.fat  mkfs.fat -F 16 -i 12345678 vfat16.img
mk vfat32       33M mkfs.fat  mkfs.fat -F 32 -i 12345678 vfat32.img
mk exfat         3M mkfs.exfat mkfs.exfat exfat.img
mk btrfs        16M mkfs.btrfs mkfs.btrfs -q -f --mixed -U 00000000-0000-0000-0000-000000000008 btrfs.img
mk f2fs         53M mkfs.f2fs mkfs.f2fs -q -f -U 00000000-0000-0000-0000-000000000009 f2fs.img
mk jfs          16M mkfs.jfs  mkfs.jfs -q jfs.img
mk nilfs2        2M mkfs.nilfs2 mkfs.nilfs2 -q -f -B 16 nilfs2.img
mk minix1       64K mkfs.minix mkfs.minix -1 minix1.img
mk minix1-14    64K mkfs.minix mkfs.minix -1 -n 14 minix1-14.img
mk minix2       64K mkfs.minix mkfs.minix -2 minix2.img
mk minix3       64K mkfs.minix mkfs.minix -3 minix3.img
mk bfs          64K mkfs.bfs  mkfs.bfs bfs.img
mk udf           1M mkudffs   mkudffs -u 00000000000000aa udf.img
mk udf-102       1M mkudffs   mkudffs --udfrev=0x0102 -u 00000000000000bb udf-102.img
mk udf-250       1M mkudffs   mkudffs --media-type=bdr --udfrev=0x0250 -u 00000000000000cc udf-250.img
mk ntfs          2M mkntfs    mkntfs -F -Q -q ntfs.img
mk hfs           1M hformat   hformat -f hfs.img
mk iso9660       -  genisoimage genisoimage -quiet -R -J -V FSAUDIT -o iso9660.img src
mk squashfs      -  mksquashfs mksquashfs src squashfs.img -noappend -quiet -no-progress
mk cramfs        -  mkfs.cramfs mkfs.cramfs src cramfs.img
mk romfs         -  genromfs  sh -c "genromfs -f romfs.img -d src -V FSAUDIT && truncate -s 64K romfs.img"
mk erofs         -  mkfs.erofs mkfs.erofs -T 1000000000 -U 00000000-0000-0000-0000-00000000000a erofs.img src
mk ufs1          -  makefs    makefs -t ffs -o version=1 -s 1m -T 1000000000 ufs1.img src
mk ufs2          -  makefs    makefs -t ffs -o version=2 -s 1m -T 1000000000 ufs2.img src
mk ocfs2        64M mkfs.ocfs2 mkfs.ocfs2 -F -q -M local -U 00000000-0000-0000-0000-00000000000b ocfs2.img
mk gfs2         16M mkfs.gfs2 mkfs.gfs2 -O -p lock_nolock -U 00000000-0000-0000-0000-00000000000c gfs2.img
mk reiserfs-3.6-std 34M mkreiserfs mkreiserfs -q -f -f -u 00000000-0000-0000-0000-00000000000e reiserfs-3.6-std.img
mk reiserfs-3.5-std 34M mkreiserfs mkreiserfs -q -f -f --format 3.5 reiserfs-3.5-std.img
# libblkid knows it, fsaudit has no limits for it: "limits unknown"
mk swap        256K mkswap    mkswap -U 00000000-0000-0000-0000-00000000000d -L SWAP swap.img
exit 0
