#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Upstream's own tests of the mount API and the fs KUnit suites, unchanged:
# group upstream runs them on the patched kernel, upstream-stock on the same
# config without the series, and rig/compare.py requires identical results
# (make check-upstream).  One KTAP document, one subtest per program:
#   kselftests (tests/selftests.conf, built static from each kernel's own tree)
#     mount/ (unprivileged-remount-test, nosymfollow-test: what upstream's
#       run_*.sh wrappers run; they print no TAP, their exit status is the result),
#     mount_setattr/, move_mount_set_group/, filesystems/statmount/ (both
#       programs), tmpfs/
#   KUnit: every suite the kernel ran at boot (kunit.enable=1) but the series'
#     own fs_deprecation, read from debugfs; FS_KUNIT must all be there.
# What cannot run here and why: docs/rig.md, "Upstream's own tests".
S=/tests/selftests

# The tests run as on a booted system, in a mount namespace whose / is a
# mount of its own instead of rootfs: statmount_test_ns "listmount ns id"
# compares a namespace's mounts listed from inside (from the caller's root)
# and from outside (from the namespace's root).  Where pivot_root(2) leaves
# rootfs (7.3), rootfs goes; where it cannot (6.12, 6.1), / is a mount on
# top of rootfs, as switch_root leaves it, which listmount(LSMT_ROOT) of
# another namespace skips there.
if [ "$1" != --rooted ]; then
	exec unshare -m /bin/sh -c '
		for m in $(awk "\$2 != \"/\" { print \$2 }" /proc/mounts | sort -r); do
			umount -l "$m" || exit 1
		done
		mkdir -p /.oldroot
		mount --bind / /mnt && cd /mnt || exit 1
		if pivot_root . .oldroot 2>/dev/null; then
			umount -l /.oldroot && exec /tests/upstream.sh --rooted
			exit 1
		fi
		mount --move . / && exec chroot . /tests/upstream.sh --rooted'
fi
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
cd /tmp
PROGS="
mount/unprivileged-remount-test
mount/nosymfollow-test
mount_setattr/mount_setattr_test
move_mount_set_group/move_mount_set_group_test
filesystems/statmount/statmount_test
filesystems/statmount/statmount_test_ns
tmpfs/bug-link-o-tmpfile
"
# The fs suites of this kernel's tree (tests/fs-kunit.conf), and the
# kselftest directories it does not have (rig/fsrig/initramfs.py)
FS_KUNIT=$(cat /tests/fs-kunit)
absent=$(cat "$S/absent" 2>/dev/null)
KUNIT=/sys/kernel/debug/kunit
suites=$(ls "$KUNIT" 2>/dev/null | grep -vx fs_deprecation)

n=$(( $(echo "$PROGS" | grep -c .) + $(echo "$suites" | grep -c .) + 1 ))
echo "KTAP version 1"
echo "1..$n"
i=0 failed=0
for p in $PROGS; do
	i=$((i + 1))
	if [ -n "$absent" ] && echo "$absent" | grep -qx "${p%/*}"; then
		echo "ok $i $p # SKIP not in this kernel's tree"
		continue
	fi
	if [ ! -x "$S/$p" ]; then
		echo "not ok $i $p # not in the initramfs"
		failed=1
		continue
	fi
	# Like upstream's runner: from the test's directory.  TAP output becomes
	# a subtest; other lines (stderr of programs the tests call, output of
	# programs without TAP) become diagnostics.
	(cd "$S/${p%/*}" && exec "./${p##*/}") > /tmp/out 2>&1
	rc=$?
	if head -n 1 /tmp/out | grep -q '^TAP version'; then
		awk '/^(TAP version |1\.\.[0-9]|ok |not ok |#)/ { print "    " $0; next } { print "    # " $0 }' /tmp/out
	else
		sed 's/^/# /' /tmp/out
	fi
	case $rc in
	0) echo "ok $i $p" ;;
	4) echo "ok $i $p # SKIP exit status 4" ;;
	*) echo "not ok $i $p # exit status $rc"; failed=1 ;;
	esac
done
# KUnit: each suite's results file is a KTAP document with plan 1..1; keep
# its body and renumber its final result line.  Kernels before 6.7 keep 512
# bytes of log per test in debugfs (KUNIT_LOG_SIZE): a parameterised test
# loses its first cases there, so their suites come from the boot log, the
# same KTAP.  Lines a test prints that are not KTAP (7.3's ext4_extents_test
# prints its extents and "-----" lines at column 0, inside its subtests)
# become diagnostics of the (sub)test they are printed in, at its
# indentation; nothing else changes.
ver=$(uname -r)
maj=${ver%%.*} min=${ver#*.}
min=${min%%[!0-9]*}
bootlog=
if [ "$maj" -lt 6 ] || { [ "$maj" -eq 6 ] && [ "$min" -lt 7 ]; }; then
	dmesg | sed 's/^\[[^]]*\] //' > /tmp/boot.log
	bootlog=/tmp/boot.log
fi
suite_results() {	# SUITE: its KTAP, without the plan of its results file
	if [ -z "$bootlog" ]; then
		tail -n +3 "$KUNIT/$1/results"
		return
	fi
	awk -v s="$1" '$0 == "    # Subtest: " s { on = 1; print prev }
		on { print }
		on && $0 ~ "^(not )?ok [0-9]+ " s "$" { exit }
		{ prev = $0 }' "$bootlog"
}
for s in $suites; do
	i=$((i + 1))
	suite_results "$s" > /tmp/suite
	awk '/^ *(KTAP version |TAP version |1\.\.[0-9]|ok |not ok |# Subtest:)/ {
			match($0, /^ */); ind = substr($0, 1, RLENGTH); print; next }
		{ line = $0; sub(/^ *(# ?)?/, "", line); print ind "# " line }' /tmp/suite |
		sed "\$s/^\(not ok\|ok\) [0-9]* /\1 $i /"
	tail -n 1 /tmp/suite | grep -q '^not ok' && failed=1
done
i=$((i + 1))
missing=
for s in $FS_KUNIT; do
	echo "$suites" | grep -qx "$s" || missing="$missing $s"
done
if [ -z "$missing" ]; then
	echo "ok $i fs KUnit suites present:" $FS_KUNIT
else
	echo "# missing:$missing (kunit.enable=1? kernel/configs/kunit.config, upstream.config)"
	echo "not ok $i fs KUnit suites present:" $FS_KUNIT
	failed=1
fi
exit $failed
