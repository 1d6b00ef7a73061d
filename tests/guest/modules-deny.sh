#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Modules kernel (issues 13 and 14): a deprecated filesystem type under deny
# is refused before its module is requested, by mount(2) and by fsopen(),
# with EPERM and the standard reason in the kernel log and in the fs_context
# log; the driver reads nothing from the device.  Explicit modprobe still
# loads it, and the refusal (reading nothing) stays the same then.
. /tests/ktap.sh
. /tests/modlib.sh
ktap_plan 28
mkdir -p /mnt/a
expect "no filesystem module loaded at boot" "" "$(fs_modules)"

# refused NAME SOURCE ITEM TYPE HOW [loaded]: mount(2) or fsopen (HOW)
# refused with EPERM, the reason in the kernel (and fc) log, refused +1, no
# sector of the device read or written.  The line names the source as given;
# with "loaded" (the module is in) the device name (vda) is accepted too.
refused() {
	name=$1 src=$2 it=$3 type=$4 how=$5
	line=$(refuse_line $it $type $src mount deny)
	alt=$line
	[ "$6" = loaded ] && alt=$(refuse_line $it $type "$(basename "$(readlink -f $src)")" mount deny)
	r0=$(num "$(item $it refused)")
	s0=$(devstate -n $src)
	kmsg_mark
	out=$(fsmnt $how $type $src /mnt/a)
	umount /mnt/a 2>/dev/null	# (if it was mounted after all)
	s1=$(devstate -n $src)
	if [ $how = fsopen ]; then
		expect "$name: fsopen(\"$type\") succeeds, FSCONFIG_CMD_CREATE fails with EPERM" \
			"fsopen: ok|create: EPERM|result: EPERM" \
			"$(echo "$out" | grep -E '^(fsopen|create|result):' | tr '\n' '|' | sed 's/|$//')"
		if echo "$out" | grep -qxF "fclog: e $line"; then
			ktap_ok "$name: the fs_context log gives the reason"
		else
			ktap_diag "want: fclog: e $line"
			echo "$out" | while IFS= read -r l; do ktap_diag "got:  $l"; done
			ktap_fail "$name: the fs_context log gives the reason"
		fi
	else
		expect "$name: mount(2) fails with EPERM" "result: EPERM" "$(last_line "$out")"
	fi
	if kmsg_since | grep -qxF "$alt"; then
		ktap_ok "$name: the kernel log gives the reason"
	else
		kmsg_has "$name: the kernel log gives the reason" "$line"
	fi
	want="(no $it item before the mount)"
	[ "$r0" -ge 0 ] && want=$((r0 + 1))
	expect "$name: refused +1" "$want" "$(item $it refused)"
	expect "$name: the device was neither read nor written" \
		"$(field rsect "$s0") $(field wsect "$s0")" "$(field rsect "$s1") $(field wsect "$s1")"
}

# By item name, the sysctl left at its default (reiserfs, or ext2 where the
# base has no reiserfs: modlib.sh TYPE_ITEM).
T=$TYPE_ITEM
echo deny > $DEP/$T/policy
refused "$T (item policy deny), mount(2)" /dev/img/$TYPE_IMG $T $T mount
refused "$T (item policy deny), fsopen" /dev/img/$TYPE_IMG $T $T fsopen
expect "$T (item policy deny): no module loaded by either" "" "$(fs_modules)"
echo default > $DEP/$T/policy

# By the sysctl, item policy default: the ext2 driver.
echo deny > /proc/sys/fs/deprecated_policy
refused "ext2 (fs.deprecated_policy=deny), mount(2)" /dev/img/ext2 ext2 ext2 mount
refused "ext2 (fs.deprecated_policy=deny), fsopen" /dev/img/ext2 ext2 ext2 fsopen
expect "ext2 (fs.deprecated_policy=deny): no module loaded by either" "" "$(fs_modules)"

# A type that is not deprecated still loads and mounts under deny.
out=$(fsmnt mount ext4 /dev/img/ext4-256 /mnt/a)
expect "ext4-256 under fs.deprecated_policy=deny: mounts, ext4 autoloaded" "result: ok ext4" \
	"$(last_line "$out") $(mod_loaded ext4 && echo ext4)"
umount /mnt/a 2>/dev/null

# Explicit modprobe by root works; the refusal does not change.
if modprobe $T 2>/tmp/err; then ktap_ok "modprobe $T under deny"; else
	ktap_diag "$(cat /tmp/err)"; ktap_fail "modprobe $T under deny"; fi
expect "$T loaded: loaded=1" 1 "$(item $T loaded)"
refused "$T (deny, module loaded), mount(2)" /dev/img/$TYPE_IMG $T $T mount loaded
ktap_done
