#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Collect the KUnit suites that ran at boot (kunit.enable=1) from debugfs
# into one KTAP document: each suite's results file is a KTAP document with
# plan 1..1; keep its body and renumber its final result line.
dir=/sys/kernel/debug/kunit
suites=$(ls "$dir" 2>/dev/null)
n=$(echo "$suites" | grep -c .)
echo "KTAP version 1"
if [ "$n" = 0 ]; then
	echo "1..1"
	echo "not ok 1 KUnit suites ran at boot (none found in $dir)"
	exit 1
fi
echo "1..$n"
i=0
for s in $suites; do
	i=$((i + 1))
	tail -n +3 "$dir/$s/results" | sed "\$s/^\(not ok\|ok\) 1 /\1 $i /"
done
