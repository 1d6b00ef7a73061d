#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Booted without initramfs from a reiserfs root (root=/dev/vda rw) with
# fs_deprecated_policy=ro: the kernel's read-write root mount is refused, it
# retries read-only, and remounting / read-write is refused.
. /tests/ktap.sh
ktap_plan 5
set -- $(awk '$2 == "/" { print $3, $4 }' /proc/mounts)
[ "$1" = reiserfs ] && ktap_ok "root filesystem is reiserfs" ||
	{ ktap_diag "root: $*"; ktap_fail "root filesystem is reiserfs"; }
case $2 in ro,*|ro) ktap_ok "root mounted read-only despite rw" ;;
*) ktap_diag "options $2"; ktap_fail "root mounted read-only despite rw" ;; esac
p=$(cat /proc/sys/fs/deprecated_policy)
[ "$p" = ro ] && ktap_ok "fs_deprecated_policy=ro applied at boot" ||
	{ ktap_diag "policy $p"; ktap_fail "fs_deprecated_policy=ro applied at boot"; }
dmesg | grep -q 'fs-deprecated: reiserfs: reiserfs (.*): read-write mount refused by policy ro; see fs.deprecated_policy and /sys/fs/deprecated/reiserfs/policy' &&
	ktap_ok "the kernel log says why, and the knob" ||
	{ dmesg | grep fs-deprecated | ktap_diag "$(cat)"; ktap_fail "the kernel log says why, and the knob"; }
if mount -o remount,rw / 2>/dev/null; then
	ktap_fail "remount of / read-write refused"
else
	ktap_ok "remount of / read-write refused"
fi
ktap_done
