# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Shared by the modules-* guest groups (issue 13: filesystems as modules) and
# the issue 14 groups: the series' declarations, module and inventory helpers.
# Source after ktap.sh.  Not a group itself.
DEP=/sys/fs/deprecated
# The filesystems of the 6.12 base that this kernel's base no longer has
# (rig.removed=A,B on the command line: kernel/BASE/removed-filesystems).
REMOVED=
for a in $(cat /proc/cmdline); do
	case $a in rig.removed=*) REMOVED=$(echo "${a#rig.removed=}" | tr , ' ') ;; esac
done
# removed FS: is filesystem FS gone from this kernel's base?
removed() { case " $REMOVED " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
# present WORD...: the WORDs (items, images, modules) not named after a
# removed filesystem, space-separated
present() {
	out=
	for w in "$@"; do
		keep=1
		for r in $REMOVED; do case $w in "$r"*) keep=0 ;; esac; done
		[ $keep = 1 ] && out="$out $w"
	done
	echo "${out# }"
}
ITEMS=$(present ext2 ext4-small-inodes reiserfs xfs-ascii-ci xfs-v4)
# The "removed upstream" items of the filesystems upstream removed after the
# base's release (sysv, efs, freevxfs): the modules flavour builds them
# (kernel/configs/modules/), the default kernel does not.  Sorted as ls sorts.
REMOVED_ITEMS=$(present efs sysv v7 vxfs)
# The deprecated filesystem type (an item of a whole type, a module of its
# own) and its image that the modules-* groups use: reiserfs where the base
# has it, else the ext2 driver.
TYPE_ITEM=reiserfs TYPE_IMG=reiserfs36
removed reiserfs && TYPE_ITEM=ext2 TYPE_IMG=ext2

# item_decl ITEM: D_WHAT D_SINCE D_REMOVAL (YYYY-MM-DD or empty) D_REASON D_REMEDY D_MODULE
item_decl() {
	case $1 in
	reiserfs) D_WHAT="reiserfs filesystem" D_SINCE=2022-05-22 D_REMOVAL=2025-01-19 D_MODULE=reiserfs
		D_REASON="unmaintained, removed in Linux 6.13, kept in 6.12 LTS to migrate data"
		D_REMEDY="copy the data to ext4, XFS or btrfs" ;;
	ext2) D_WHAT="ext2 driver" D_SINCE=2024-05-12 D_REMOVAL= D_MODULE=ext2
		D_REASON="cannot store timestamps after 2038-01-19"
		D_REMEDY="mount it with the ext4 driver (mount -t ext4), which supports ext2" ;;
	xfs-v4) D_WHAT="V4 format (crc=0)" D_SINCE=2020-12-13 D_REMOVAL=2030-09-30 D_MODULE=xfs
		D_REASON="no metadata checksums, cannot store timestamps after 2038-01-19"
		D_REMEDY="back up, mkfs.xfs with the default V5 format and restore" ;;
	xfs-ascii-ci) D_WHAT="ASCII case-insensitive names (ascii-ci=1)" D_SINCE=2023-02-19 D_REMOVAL=2030-09-30
		D_MODULE=xfs
		D_REASON="corrupts UTF-8 names, open to mixed case sensitivity attacks"
		D_REMEDY="back up, mkfs.xfs without ascii-ci and restore" ;;
	ext4-small-inodes) D_WHAT="inodes smaller than 256 bytes" D_SINCE=2026-12-03 D_REMOVAL= D_MODULE=ext4
		D_REASON="cannot store timestamps after 2038-01-19"
		D_REMEDY="back up, mkfs.ext4 -I 256, restore" ;;
	sysv | v7) D_SINCE=2025-05-25 D_REMOVAL=2025-05-25 D_MODULE=sysv
		D_WHAT="System V, Xenix and Coherent filesystems (sysv driver)"
		[ $1 = v7 ] && D_WHAT="Version 7 filesystem (sysv driver)"
		D_REASON="unmaintained, removed in Linux 6.15, kept in 6.12 LTS to migrate data"
		D_REMEDY="copy the data to a maintained filesystem, such as ext4, XFS or btrfs" ;;
	efs) D_WHAT="SGI EFS filesystem (efs driver)" D_SINCE=2026-08-30 D_REMOVAL=2026-08-30 D_MODULE=efs
		D_REASON="unmaintained, removed in Linux 7.3, kept in 6.12 LTS to migrate data"
		D_REMEDY="copy the data to a maintained filesystem, such as ext4, XFS or btrfs" ;;
	vxfs) D_WHAT="Veritas VxFS filesystem (freevxfs driver)" D_SINCE=2026-08-30 D_REMOVAL=2026-08-30
		D_MODULE=freevxfs
		D_REASON="removed in Linux 7.3, kept in 6.12 LTS to migrate data"
		D_REMEDY="copy the data to a maintained filesystem, such as ext4, XFS or btrfs" ;;
	*) return 1 ;;
	esac
}

# image_info IMAGE: I_TYPE (type to mount it with), I_ITEM (deprecated item or
# empty), I_Y2038 (1: timestamps end in 2038), I_MODULE (module of I_TYPE)
image_info() {
	I_Y2038=0 I_ITEM=
	case ${1%-dirty} in
	reiserfs36|reiserfs35|reiserfs-root) I_TYPE=reiserfs I_ITEM=reiserfs I_MODULE=reiserfs ;;
	ext2) I_TYPE=ext2 I_ITEM=ext2 I_Y2038=1 I_MODULE=ext2 ;;
	ext3-128) I_TYPE=ext3 I_ITEM=ext4-small-inodes I_Y2038=1 I_MODULE=ext4 ;;
	ext4-128|ext4-rev0) I_TYPE=ext4 I_ITEM=ext4-small-inodes I_Y2038=1 I_MODULE=ext4 ;;
	ext4-256) I_TYPE=ext4 I_MODULE=ext4 ;;
	xfs-v4) I_TYPE=xfs I_ITEM=xfs-v4 I_Y2038=1 I_MODULE=xfs ;;
	xfs-ascii-ci) I_TYPE=xfs I_ITEM=xfs-ascii-ci I_MODULE=xfs ;;
	xfs-v5-nobigtime) I_TYPE=xfs I_Y2038=1 I_MODULE=xfs ;;
	xfs-v5-bigtime) I_TYPE=xfs I_MODULE=xfs ;;
	*) return 1 ;;
	esac
}

# The standard warning of ITEM for a mount of TYPE on device ID (e.g. vdb),
# worded as the kernel words it today (removal planned / removed upstream).
std_line() {
	item_decl "$1" || return 1
	if [ -z "$D_REMOVAL" ]; then
		rem="no removal date set"
	elif [ "$(date -u +%Y%m%d)" -lt "$(echo "$D_REMOVAL" | tr -d -)" ]; then
		rem="removal planned for $D_REMOVAL"
	else
		rem="removed upstream on $D_REMOVAL"
	fi
	echo "fs-deprecated: $1: $2 ($3): $D_WHAT deprecated since $D_SINCE, $rem; reason: $D_REASON; remedy: $D_REMEDY"
}

# The refusal line: ITEM TYPE SOURCE WHAT("mount", "read-write mount") MODE
refuse_line() {
	echo "fs-deprecated: $1: $2 ($3): $4 refused by policy $5; see fs.deprecated_policy and /sys/fs/deprecated/$1/policy"
}

# Block device name behind /dev/img/NAME (vdb)
dev_id() { basename "$(readlink -f "/dev/img/$1")"; }

# mod_loaded MODULE: is it in /proc/modules?
mod_loaded() { grep -q "^$1 " /proc/modules; }
fs_modules() { awk '$1 ~ /^(ext2|ext4|jbd2|mbcache|reiserfs|xfs|sysv|efs|freevxfs|libcrc32c|crc32c_generic|crc16)$/ { printf "%s ", $1 }' /proc/modules; }

# item ITEM FILE: the file's content ("<missing>" if absent)
item() { cat "$DEP/$1/$2" 2>/dev/null || echo "<missing>"; }
# num VALUE: VALUE if a number, else -1 (for arithmetic on item values)
num() { case $1 in ''|*[!0-9]*) echo -1 ;; *) echo "$1" ;; esac; }

# kmsg_has NAME LINE: ok if the kernel log since kmsg_mark has exactly LINE
kmsg_has() {
	if kmsg_since | grep -qxF "$2"; then
		ktap_ok "$1"
	else
		ktap_diag "want: $2"
		kmsg_since | grep -E 'fs-deprecated|timestamps until|XFS|EXT4|reiserfs|REISERFS' | tail -n 8 | sed 's/^/got:  /' |
			while IFS= read -r l; do ktap_diag "$l"; done
		ktap_fail "$1"
	fi
}

# devstate fields: field NAME LINE (rsect, wsect, hash).  Shell builtins only:
# under TCG each exec costs ~3 ms, and nothing-written-* call this ~90 times.
field() {
	for kv in $2; do
		case $kv in "$1="*) echo "${kv#*=}"; return ;; esac
	done
}
# last_line TEXT: its last line (fsmnt's "result: …"), without a tail process
last_line() { printf '%s\n' "${1##*
}"; }
