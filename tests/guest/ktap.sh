# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# KTAP helpers for guest shell tests (busybox sh).  Source it, call
# ktap_plan N, then ok/not_ok/skip per test; ktap_done checks the count.
KTAP_N=0
KTAP_FAILED=0
ktap_plan() { KTAP_PLAN=$1; echo "KTAP version 1"; echo "1..$1"; }
ktap_ok() { KTAP_N=$((KTAP_N + 1)); echo "ok $KTAP_N $*"; }
ktap_fail() { KTAP_N=$((KTAP_N + 1)); KTAP_FAILED=1; echo "not ok $KTAP_N $*"; }
ktap_skip() { KTAP_N=$((KTAP_N + 1)); r=$1; shift; echo "ok $KTAP_N $* # SKIP $r"; }
ktap_diag() { echo "$*" | sed 's/^/# /'; }
# ktap_check NAME CMD…: ok if CMD succeeds.
ktap_check() { n=$1; shift; if "$@"; then ktap_ok "$n"; else ktap_fail "$n"; fi; }
# expect NAME WANT GOT: ok if equal, else the difference as diagnostics.
expect() {
	if [ "$2" = "$3" ]; then
		ktap_ok "$1"
	else
		ktap_diag "want: $2"
		ktap_diag "got:  $3"
		ktap_fail "$1"
	fi
}
ktap_done() { return $KTAP_FAILED; }

# kmsg_mark / kmsg_since: kernel log lines printed after the mark (no
# timestamps).  Uses the record count so it works without dmesg -c.
kmsg_mark() { KMSG_MARK=$(dmesg | wc -l); }
kmsg_since() { dmesg | sed -n "$((KMSG_MARK + 1)),\$ { s/^\[[ 0-9.]*\] //; p; }"; }
# kunit_require SUITE: the KUnit suite SUITE ran at boot, or the group fails
# with that as its one result (the KUnit groups, before tests/guest/kunit.sh)
kunit_require() {
	[ -r "/sys/kernel/debug/kunit/$1/results" ] && return 0
	echo "KTAP version 1"
	echo "1..1"
	echo "not ok 1 $1 ran at boot (no /sys/kernel/debug/kunit/$1/results)"
	exit 1
}
