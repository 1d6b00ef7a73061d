#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# The debug kernel (`make check-debug`, kind = debug) is what it claims: KASAN
# initialized, lockdep on and not switched off by an earlier report, UBSAN and
# the sleep-in-atomic check built in, the fault-injection interfaces present,
# and kmemleak reports an object nothing references (positive control for the
# scan tests/guest/init runs at the end of every group).
. /tests/ktap.sh
ktap_plan 6
kml=/sys/kernel/debug/kmemleak

dmesg | grep -q 'KernelAddressSanitizer initialized' &&
	ktap_ok "KASAN initialized" ||
	{ ktap_diag "$(dmesg | grep -i kasan)"; ktap_fail "KASAN initialized"; }

if grep -q 'debug_locks: *1$' /proc/lockdep_stats 2>/dev/null; then
	ktap_ok "lockdep on (debug_locks 1)"
else
	ktap_diag "$(grep debug_locks /proc/lockdep_stats 2>&1)"
	ktap_fail "lockdep on (debug_locks 1)"
fi

missing=
for sym in __ubsan_handle_out_of_bounds __ubsan_handle_shift_out_of_bounds __might_resched; do
	grep -q " $sym\$" /proc/kallsyms || missing="$missing $sym"
done
[ -z "$missing" ] && ktap_ok "UBSAN (bounds, shift) and DEBUG_ATOMIC_SLEEP built in" ||
	{ ktap_diag "not in /proc/kallsyms:$missing"; ktap_fail "UBSAN (bounds, shift) and DEBUG_ATOMIC_SLEEP built in"; }

# 6.1's stacktrace filter depends on !X86_64 (kernel/6.1/configs/debug/):
# there faultinject skips, and the filter is not asked for.
filter=/sys/kernel/debug/failslab/require-start
what="fault injection: failslab, fail_page_alloc, stacktrace filter, fail-nth"
case $(uname -r) in
6.1.*) filter= what="fault injection: failslab, fail_page_alloc, fail-nth (no stacktrace filter on 6.1's x86_64)" ;;
esac
missing=
for f in /sys/kernel/debug/failslab/probability /sys/kernel/debug/fail_page_alloc/probability \
		$filter /proc/self/fail-nth /proc/self/make-it-fail; do
	[ -e $f ] || missing="$missing $f"
done
[ -z "$missing" ] && ktap_ok "$what" || { ktap_diag "missing:$missing"; ktap_fail "$what"; }

# Positive control: 1000 pollfds make do_sys_poll() kmalloc two blocks that
# only its stack points to; with stack scanning off kmemleak must report them
# (older than 5 s, unchanged over two scans), and nothing once poll is gone.
if [ -e $kml ] && echo stack=off > $kml; then
	pollsleep 1000 &
	pid=$!
	sleep 1
	echo scan > $kml
	sleep 5
	echo scan > $kml
	report=$(cat $kml)
	kill $pid
	wait $pid 2>/dev/null
	echo stack=on > $kml
	n=$(echo "$report" | grep -c '^unreferenced object')
	# A backtrace line: "    do_sys_poll+0x…", on 6.1 "    [<(____ptrval____)>] do_sys_poll+0x…".
	if [ "$n" -ge 1 ] && echo "$report" | grep -qE '^    (\[<[^>]*>\] )?do_sys_poll\+'; then
		ktap_ok "kmemleak reports the blocks only a sleeping task's stack references ($n objects, do_sys_poll)"
	else
		ktap_diag "$report"
		ktap_fail "kmemleak reports the blocks only a sleeping task's stack references ($n objects, do_sys_poll)"
	fi
	ktap_diag "$(echo "$report" | head -n 24)"
	sleep 1
	echo scan > $kml
	left=$(grep -c '^unreferenced object' $kml)
	[ "$left" = 0 ] && ktap_ok "kmemleak: the blocks are gone once poll returned" ||
		{ ktap_diag "$(cat $kml)"; ktap_fail "kmemleak: the blocks are gone once poll returned"; }
else
	ktap_fail "kmemleak reports the blocks only a sleeping task's stack references (no $kml)"
	ktap_fail "kmemleak: the blocks are gone once poll returned"
fi
ktap_done
