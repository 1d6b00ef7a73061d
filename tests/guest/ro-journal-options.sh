#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Issue 21, item 5: journal options do not break a read-only mount under ro
# (forced noload made ext4 reject them with EINVAL).  Both sysctls ro; each
# option read-only by mount(2) and by fsopen(), on ext4 and ext3 images with
# 128-byte inodes (clean journals); then nothing written to either image.
. /tests/ktap.sh
. /tests/modlib.sh
imgs=$(ls /dev/img)
# journal_async_commit needs a data mode other than ordered; it and
# journal_checksum are ext4 options, refused for type ext3 (stock ext4)
ext3_opts="commit=30 data=journal data=writeback data_err=abort"
ext4_opts="$ext3_opts journal_checksum data=writeback,journal_async_commit"
n=0
for img in $imgs; do
	image_info $img
	eval "opts=\$${I_TYPE}_opts"
	n=$((n + 2 * $(echo $opts | wc -w) + 1))
done
ktap_plan $n
echo ro > /proc/sys/fs/deprecated_policy
echo ro > /proc/sys/fs/y2038_policy
mkdir -p /mnt/a
for img in $imgs; do
	image_info $img
	dev=/dev/img/$img
	eval "opts=\$${I_TYPE}_opts"
	s0=$(devstate $dev)
	for o in $opts; do
		for how in mount fsopen; do
			kmsg_mark
			out=$(fsmnt -r -o $o $how $I_TYPE $dev /mnt/a)
			r=$(last_line "$out")
			if [ "$r" = "result: ok" ] && ! awk '$2 == "/mnt/a" && $4 ~ /^ro(,|$)/ { f = 1 } END { exit !f }' /proc/mounts; then
				r="not read-only: $(grep ' /mnt/a ' /proc/mounts)"
			fi
			[ "$r" = "result: ok" ] || kmsg_since | grep -iE 'ext4|fs-deprecated' | while IFS= read -r l; do ktap_diag "$l"; done
			umount /mnt/a 2>/dev/null
			expect "$img (ro): -o ro,$o by $how mounts" "result: ok" "$r"
		done
	done
	s1=$(devstate $dev)
	expect "$img (ro): nothing written (write sectors, whole device)" \
		"$(field wsect "$s0") $(field hash "$s0")" "$(field wsect "$s1") $(field hash "$s1")"
done
ktap_done
