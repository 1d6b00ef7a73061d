#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Rig speed figures (a benchmark, not a test):
#   boot to first test result under the rig's accelerator (goal <= 1.5 s under TCG),
#   warm `make check` with nothing changed (goal <= 45 s; the guest groups come
#   from the result cache), and the same with every group booted (RIG_NO_CACHE=1),
#   cold `make check` from a fresh clone in a temporary directory (goal <= 45 min;
#   apt packages are already installed here, add their install time on a fresh
#   machine): with ccache's objects of earlier builds (a new checkout on this
#   machine) and, with BENCH_COLD_EMPTY=1, once more with an empty ccache (a new
#   machine: every kernel compiled).
# Set BENCH_COLD=0 to skip the cold runs.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
python3 rig/rig.py build >/dev/null
echo "== boot to first result (5 boots of the kunit group, no disks; and stock-warnings, 11 disks)"
for g in kunit stock-warnings; do
	for i in 1 2 3 4 5; do
		python3 rig/rig.py boot $g 2>/dev/null | sed -n 's/^---- status: .*first result after \([0-9.]* s\).*, \([a-z]*\))$/\1 \2/p'
	done | awk -v g=$g '{ s[NR] = $1; acc = $3 } END { n = asort(s); printf "%-15s median %.2f s  min %.2f s  max %.2f s  (%s)\n", g, s[int((n + 1) / 2)], s[1], s[n], acc }'
done
echo "== warm make check (nothing changed: guest groups from the result cache; then all booted)"
make -s check >/dev/null 2>&1 || true
start=$(date +%s.%N)
make -s check > build/bench-warm.log 2>&1 || true
end=$(date +%s.%N)
printf "warm make check: %.1f s (%s)\n" "$(echo "$end - $start" | bc)" "$(tail -n1 build/bench-warm.log)"
start=$(date +%s.%N)
RIG_NO_CACHE=1 make -s check > build/bench-warm-nocache.log 2>&1 || true
end=$(date +%s.%N)
printf "warm make check, every group booted (RIG_NO_CACHE=1): %.1f s (%s)\n" "$(echo "$end - $start" | bc)" \
	"$(tail -n1 build/bench-warm-nocache.log)"
cold() {	# cold WHAT [VAR=VALUE...]: make check in a fresh clone
	local what=$1 tmp start end
	shift
	tmp=$(mktemp -d)
	git clone -q "$top" "$tmp/repo"
	start=$(date +%s.%N)
	(cd "$tmp/repo" && env "$@" make -s check > "$top/build/bench-cold.log" 2>&1) || true
	end=$(date +%s.%N)
	printf "cold make check, %s: %.0f s (%s)\n" "$what" "$(echo "$end - $start" | bc)" \
		"$(tail -n1 build/bench-cold.log)"
	rm -rf "$tmp"
}
if [ "${BENCH_COLD:-1}" = 1 ]; then
	echo "== cold make check (fresh clone)"
	cold "ccache as earlier builds left it"
	if [ "${BENCH_COLD_EMPTY:-0}" = 1 ]; then
		ccdir=$(mktemp -d)
		cold "empty ccache" CCACHE_DIR="$ccdir"
		rm -rf "$ccdir"
	fi
fi
