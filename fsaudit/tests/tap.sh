# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# shellcheck shell=bash
# TAP helpers of run.sh and install.sh (sourced once $tmp, the test directory,
# exists).
# Each test is one line in $results, numbered in order; tap_report prints
# "TAP version 13", the plan, the lines and "# N passed, N failed" on stdout
# and returns non-zero when any test failed.
results=${tmp:?}/results
: >"$results"
n=0
failed=0

ok()    { n=$((n + 1)); echo "ok $n - $1" >>"$results"; }
skip()  { n=$((n + 1)); echo "ok $n - $1 # SKIP $2" >>"$results"; }
# notok NAME [LOGFILE]: the log's first 40 lines follow as TAP comments
notok() {
	n=$((n + 1)); failed=$((failed + 1))
	echo "not ok $n - $1" >>"$results"
	if [ -n "${2:-}" ] && [ -s "$2" ]; then head -40 "$2" | sed 's/^/# /' >>"$results"; fi
}
# check NAME CONDITION-STATUS [LOGFILE]
check() { if [ "$2" -eq 0 ]; then ok "$1"; else notok "$1" "${3:-}"; fi; }

tap_report() {
	echo "TAP version 13"
	echo "1..$n"
	cat "$results"
	echo "# $((n - failed)) passed, $failed failed"
	[ $failed = 0 ]
}
