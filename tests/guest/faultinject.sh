#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Allocation failures on the mount paths (tests/guest/faultinject.c); debug
# kernel only (group faultinject, kind = debug), skips elsewhere.  Kernel
# command line: faultinject.points=N faultinject.cycles=N faultinject.seconds=S.
k=12 r=40 t=600
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	faultinject.points=*) k=${arg#*=} ;;
	faultinject.cycles=*) r=${arg#*=} ;;
	faultinject.seconds=*) t=${arg#*=} ;;
	esac
done
. /tests/ktap.sh
. /tests/modlib.sh
# shellcheck disable=SC2046 # one word per item and image
exec /tests/faultinject -k "$k" -r "$r" -t "$t" $(for x in $REMOVED; do echo "-x $x"; done) \
	$(present reiserfs36 ext2 xfs-v4 ext4-128 ext4-256)
