#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Concurrent mounts of deprecated images while the policies change
# (tests/guest/stress.c): one worker per image, ITERATIONS mount cycles each,
# stopped early after SECONDS (a bound on the run, not a result).  Kernel
# command line: stress.iterations=N stress.seconds=S (group stress-debug).
# On the debug kernel (kmemleak present) the bound is 8 times longer, like
# the rig's timeouts there.
it=100 sec=15
[ -e /sys/kernel/debug/kmemleak ] && sec=120
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	stress.iterations=*) it=${arg#*=} ;;
	stress.seconds=*) sec=${arg#*=} ;;
	esac
done
. /tests/ktap.sh
. /tests/modlib.sh
# shellcheck disable=SC2046 # one word per item and image
exec /tests/stress -i "$it" -t "$sec" $(for r in $REMOVED; do echo "-x $r"; done) \
	$(present reiserfs36 ext2 xfs-v4 ext4-128 ext4-256)
