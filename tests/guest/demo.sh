#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# `make demo`, first boot (clock: today): what the kernel says when each image
# is mounted, the inventory in /sys/fs/deprecated, evacuation under the ro
# policy (a read-write mount falls back to read-only, the data is copied to a
# modern filesystem and verified with checksums), the deny policy and a
# per-item override, and fsaudit's report of the same images.  The story goes
# out as KTAP diagnostics ("# "), every claim it makes is a KTAP result, and
# "# @row IMAGE COLUMN VALUE" lines feed the summary table rig/demo.py prints
# (with the 2038 column from tests/guest/demo-2038.sh).  Few forks: under TCG
# each one costs milliseconds.
. /tests/ktap.sh
say() { echo "# $*"; }
row() { echo "# @row $1 $2 $3"; }
# check NAME CONDITION…: ok if every CONDITION (shell code) holds; the first
# that does not is named.
check() {
	_name=$1; shift
	for _c; do eval "$_c" || { ktap_diag "failed: $_c"; ktap_fail "$_name"; return; }; done
	ktap_ok "$_name"
}
# Section times on the console (not part of the story).
mark() { read -r up _ < /proc/uptime; echo "demo: $* at $up s" >&2; }
# The kernel log since kmark, in $KLOG; the standard lines shown.
kmark() { dmesg -c > /dev/null; }
klog() {
	KLOG=$(dmesg | sed 's/^\[[ 0-9.]*\] //')
	echo "$KLOG" | while IFS= read -r l; do
		case $l in *fs-deprecated:*|*"supports timestamps until"*) echo "#     kernel: $l" ;; esac
	done
}
# mode (rw/ro) of the mount on $1, in $MODE
mode_of() {
	MODE=
	while read -r _dev _mnt _t _opts _; do
		[ "$_mnt" = "$1" ] && MODE=${_opts%%,*}
	done < /proc/mounts
}
line() { say "================================================================================"; }

# What each image is, and what the kernel must do with it:
# IMAGE FSTYPE ITEM(- = none) 2038-LIMITED DESCRIPTION
EXPECT='reiserfs36 reiserfs reiserfs no reiserfs 3.6 (removed from Linux 6.13)
reiserfs35 reiserfs reiserfs no reiserfs 3.5 (removed from Linux 6.13)
ext2 ext2 ext2 yes ext2, mounted by the deprecated ext2 driver
ext3-128 ext3 ext4-small-inodes yes ext3 with 128-byte inodes
ext4-128 ext4 ext4-small-inodes yes ext4 with 128-byte inodes
ext4-rev0 ext4 ext4-small-inodes yes ext2 revision 0, mounted by ext4
xfs-v4 xfs xfs-v4 yes XFS V4 (no CRCs)
xfs-ascii-ci xfs xfs-ascii-ci no XFS V5 with ascii-ci names
xfs-v5-nobigtime xfs - yes XFS V5 without bigtime
ext4-256 ext4 - no ext4 with 256-byte inodes (modern)
xfs-v5-bigtime xfs - no XFS V5 with bigtime (modern)'
EVACUATE="reiserfs36:ext4-256 xfs-v4:xfs-v5-bigtime"
# each_image CMD: CMD runs once per image with img fs item y2038 desc risk set
# (in this shell: KTAP counters survive; the list comes on fd 3).
each_image() {
	while read -r img fs item y2038 desc <&3; do
		risk=no
		{ [ $item != - ] || [ $y2038 = yes ]; } && risk=yes
		"$@"
	done 3<<EOF
$EXPECT
EOF
}
fstype_of() { while read -r _i _f _; do [ "$_i" = "$1" ] && echo $_f; done <<EOF
$EXPECT
EOF
}
# try_mount [OPTS] [NOTE]: show "mount -t $fs [-o OPTS] /dev/img/$img /mnt", what
# mount(8) and the kernel said; the exit status in $rc.
try_mount() {
	say ""
	say "# mount -t $fs ${1:+-o $1 }/dev/img/$img /mnt${2:+          ($2)}"
	kmark
	out=$(mount -t $fs ${1:+-o $1} /dev/img/$img /mnt 2>&1)
	rc=$?
	klog
	[ -n "$out" ] && say "    mount: $out"
}
# policies MODE: fs.deprecated_policy and fs.y2038_policy both MODE
policies() {
	echo $1 > /proc/sys/fs/deprecated_policy
	echo $1 > /proc/sys/fs/y2038_policy
}
mkdir -p /new

ktap_plan 51
for img in $(echo "$EXPECT" | while read -r i _; do echo $i; done); do
	[ -e /dev/img/$img ] || { ktap_diag "missing disk /dev/img/$img"; exit 1; }
done

mark "section 1"
line
say "1. Mounting each image read-write, default policy (warn): what the kernel says"
line
read -r p1 < /proc/sys/fs/deprecated_policy
read -r p2 < /proc/sys/fs/y2038_policy
say "Policies: fs.deprecated_policy=$p1, fs.y2038_policy=$p2"
warn_mount() {
	try_mount "" "$desc"
	if [ $rc = 0 ]; then
		mode_of /mnt
		say "    -> mounted $MODE"
		case " $EVACUATE" in *" $img:"*)
			# Some data to evacuate later.
			mkdir -p /mnt/home/alice/photos && echo "notes of $img" > /mnt/home/alice/notes.txt &&
				dd if=/dev/urandom of=/mnt/home/alice/photos/img001.raw bs=1k count=96 2>/dev/null &&
				ln -s notes.txt /mnt/home/alice/README
			(cd /mnt && sha256sum ./home/alice/notes.txt ./home/alice/photos/img001.raw) > /tmp/sum.$img
			say "    wrote /mnt/home/alice/{notes.txt,photos/img001.raw,README -> notes.txt}" ;;
		esac
		umount /mnt
	fi
	said=
	for it in reiserfs ext2 ext4-small-inodes xfs-v4 xfs-ascii-ci; do
		case $KLOG in *"fs-deprecated: $it: "*) said="$said $it" ;; esac
	done
	case $KLOG in *"supports timestamps until 2038-01-19"*) said="$said 2038" ;; esac
	said=${said# }
	want=
	[ $item != - ] && want=$item
	[ $y2038 = yes ] && want="${want:+$want }2038"
	row $img warn "${said:-nothing}"
	check "$img: mounts read-write and the kernel says: ${want:-nothing}" '[ $rc = 0 ]' '[ "$said" = "$want" ]'
}
each_image warn_mount

say ""
mark "section 2"
line
say "2. The inventory: /sys/fs/deprecated/<item>/ and /sys/fs/y2038/"
line
items=
for d in /sys/fs/deprecated/*; do
	for f in since removal policy mounts refused active reason replacement; do
		read -r $f < $d/$f
	done
	items="$items ${d##*/}"
	say ""
	say "${d##*/}: since $since, removal ${removal:-(none set)}, policy $policy;" \
		"mounts $mounts, refused $refused, active $active"
	say "    reason:      $reason"
	say "    replacement: $replacement"
	eval "mounts_$(echo ${d##*/} | tr - _)=$mounts refused_$(echo ${d##*/} | tr - _)=$refused"
done
read -r ymounts < /sys/fs/y2038/mounts
read -r yrefused < /sys/fs/y2038/refused
read -r yactive < /sys/fs/y2038/active
say ""
say "y2038 (any filesystem whose times end on 2038-01-19): mounts $ymounts, refused $yrefused, active $yactive"
check "inventory lists the five items:$items" '[ "$items" = " ext2 ext4-small-inodes reiserfs xfs-ascii-ci xfs-v4" ]'
check "inventory counted the two reiserfs mounts and the three ext4-small-inodes mounts, nothing refused" \
	'[ "$mounts_reiserfs $refused_reiserfs" = "2 0" ]' '[ "$mounts_ext4_small_inodes" = 3 ]'
# ext2, ext3-128, ext4-128, ext4-rev0, xfs-v4, xfs-v5-nobigtime
check "inventory counted the six mounts of 2038-limited filesystems, none active now" \
	'[ "$ymounts $yactive" = "6 0" ]'

say ""
mark "section 3"
line
say "3. Evacuation: fs.deprecated_policy=ro and fs.y2038_policy=ro"
say "   A read-write mount is refused with EACCES; mount(8) retries read-only."
line
policies ro
ro_mount() {
	try_mount rw
	mode_of /mnt
	say "    -> $([ $rc = 0 ] && echo "mounted $MODE" || echo "failed ($rc)")"
	if [ $risk = yes ]; then
		rw=no
		mount -o remount,rw /mnt 2>/dev/null && rw=yes
		touch /mnt/x 2>/dev/null && rw=yes
		[ $rw = no ] && say "    remount,rw refused; writing refused (read-only file system)"
		row $img ro "read-only"
		check "ro: $img falls back to read-only; remount rw and writes refused" \
			'[ $rc = 0 ]' '[ "$MODE" = ro ]' '[ $rw = no ]'
	else
		row $img ro "$MODE"
		check "ro: $img (no policy applies) mounts read-write" '[ $rc = 0 ]' '[ "$MODE" = rw ]'
	fi
	umount /mnt 2>/dev/null
}
each_image ro_mount

evacuate() {	# SOURCE-IMAGE TARGET-IMAGE
	src=$1 dst=$2
	say ""
	say "Evacuating $src (read-only) to $dst:"
	mount -t $(fstype_of $src) -o rw /dev/img/$src /mnt 2>/dev/null
	mount -t $(fstype_of $dst) /dev/img/$dst /new
	say "# grep -e /mnt -e /new /proc/mounts"
	while read -r dev mnt t opts _; do
		case $mnt in /mnt|/new) say "    $dev on $mnt type $t ($opts)" ;; esac
	done < /proc/mounts
	say "# cp -a /mnt/. /new/from-$src/"
	cp -a /mnt/. /new/from-$src/
	c1=$(cd /mnt && sha256sum -c /tmp/sum.$src >/dev/null 2>&1 && echo ok)
	lnk=$(readlink /new/from-$src/home/alice/README)
	umount /new; umount /mnt
	# Read the copy back from a fresh mount of the target.
	mount -t $(fstype_of $dst) -o ro /dev/img/$dst /new
	say "# umount /new; mount -o ro /dev/img/$dst /new; cd /new/from-$src && sha256sum -c   (checksums taken when the data was written)"
	(cd /new/from-$src && sha256sum -c /tmp/sum.$src) 2>&1 | sed 's/^/#     /'
	c2=$(cd /new/from-$src && sha256sum -c /tmp/sum.$src >/dev/null 2>&1 && echo ok)
	umount /new
	say "    -> copied, checksums match on $dst and still on $src; symlink README -> $lnk kept"
	row $src evacuated "to $dst, checksums verified"
	check "ro: $src evacuated read-only to $dst, sha256 verified after a remount, symlink kept" \
		'[ "$c1$c2" = okok ]' '[ "$lnk" = notes.txt ]'
}
for e in $EVACUATE; do evacuate ${e%%:*} ${e#*:}; done
not_evacuated() { case " $EVACUATE" in *" $img:"*) ;; *) row $img evacuated - ;; esac; }
each_image not_evacuated

say ""
mark "section 4"
line
say "4. fs.deprecated_policy=deny and fs.y2038_policy=deny: mounts refused"
say "   (EPERM; busybox mount says \"permission denied (are you root?)\")"
line
policies deny
deny_mount() {
	try_mount ro
	if [ $rc = 0 ]; then say "    -> mounted"; umount /mnt; else say "    -> refused"; fi
	if [ $risk = yes ]; then
		row $img deny refused
		check "deny: $img refused (EPERM), the kernel says why" \
			'[ $rc != 0 ]' 'case $out in *"permission denied"*) ;; *) false ;; esac' \
			'case $KLOG in *"refused by policy deny"*) ;; *) false ;; esac'
	else
		row $img deny mounts
		check "deny: $img (no policy applies) mounts" '[ $rc = 0 ]'
	fi
}
each_image deny_mount
say ""
say "A per-item policy overrides fs.deprecated_policy for that item:"
say "# echo warn > /sys/fs/deprecated/reiserfs/policy"
echo warn > /sys/fs/deprecated/reiserfs/policy
mount -t reiserfs /dev/img/reiserfs36 /mnt 2>/dev/null; rc1=$?
mode_of /mnt; umount /mnt 2>/dev/null
mount -t xfs -o ro /dev/img/xfs-ascii-ci /mnt 2>/dev/null; rc2=$?
umount /mnt 2>/dev/null
say "# mount -t reiserfs /dev/img/reiserfs36 /mnt      -> $([ $rc1 = 0 ] && echo "mounted $MODE" || echo refused)"
say "# mount -t xfs /dev/img/xfs-ascii-ci /mnt         -> $([ $rc2 = 0 ] && echo mounted || echo "refused (still deny)")"
check "per-item override: reiserfs mounts read-write under warn while xfs-ascii-ci stays denied" \
	'[ $rc1 = 0 ]' '[ "$MODE" = rw ]' '[ $rc2 != 0 ]'
say ""
say "The counters now (a refusal counts for the item that decided it):"
total=0
for d in /sys/fs/deprecated/* /sys/fs/y2038; do
	read -r m < $d/mounts; read -r r < $d/refused; read -r a < $d/active
	say "    ${d#/sys/fs/}: mounts $m, refused $r, active $a"
	total=$((total + r))
done
check "every refusal was counted: $total (at least 9 ro fallbacks + 9 denials)" '[ $total -ge 18 ]'
for f in /sys/fs/deprecated/*/policy; do echo warn > $f; done
policies warn

say ""
mark "section 5"
line
say "5. fsaudit, the userspace audit, on the same (unmounted) images"
line
FSAUDIT="/tests/fsaudit --ext2-driver=ext2"
devs=$(echo "$EXPECT" | while read -r i _; do echo /dev/img/$i; done)
say "# fsaudit --ext2-driver=ext2 -o SOURCE,FSTYPE,FORMAT,TIME-MAX,VERDICT,DEPRECATED,POLICY /dev/img/*"
$FSAUDIT -o SOURCE,FSTYPE,FORMAT,TIME-MAX,VERDICT,DEPRECATED,POLICY $devs 2>&1 | sed 's/^/#     /'
FSA=$($FSAUDIT -r -n -o SOURCE,VERDICT,DEPRECATED $devs 2>&1)
audit() {
	v=none dep=-
	while read -r s vv dd; do
		[ "$s" = /dev/img/$img ] && v=$vv dep=${dd:--}
	done <<EOF
$FSA
EOF
	row $img fsaudit "$v"
	if [ $risk = yes ]; then
		check "fsaudit: $img is at risk ($v), items: $dep" '[ "$v" != ok ]' '[ "$v" != none ]' \
			'[ $item = - ] || case ,$dep, in *,$item,*) true ;; *) false ;; esac'
	else
		check "fsaudit: $img is ok" '[ "$v" = ok ]' '[ "$dep" = - ]'
	fi
}
each_image audit
mark end
ktap_done
