#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Kernel cost of the series (a benchmark, not a test): the bench groups of
# tests/groups.conf booted with QEMU -icount shift=0,sleep=off (guest time
# follows instructions executed, so rounds repeat within ~0.2%) on the kernel
# with the series and on the same config without it; prints medians and ratios.
# Also prints scripts/bloat-o-meter for vmlinux.
#
#   rig/bench-kernel.sh [--base BASE] [GROUP...]
#
# --base BASE (as RIG_BASE=BASE): the kernels of another base (7.3, 6.1),
# its configs/bench/ flavour, the same bench groups.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
if [ "${1:-}" = --base ]; then
	[ $# -ge 2 ] || { echo "bench-kernel: error: --base needs a version" >&2; exit 2; }
	export RIG_BASE=$2
	shift 2
fi
export RIG_KERNEL_FLAVOUR=${RIG_KERNEL_FLAVOUR:-bench}
base=${RIG_BASE:-6.12}
series=$(python3 rig/rig.py bench "$@") || { echo "$series"; echo "bench: failed on the series kernel" >&2; exit 1; }
stock=$(RIG_STOCK=1 python3 rig/rig.py bench "$@") || { echo "$stock"; echo "bench: failed on the stock kernel" >&2; exit 1; }
[ -n "$series" ] || { echo "bench: the series kernel's runs hold no rounds" >&2; exit 1; }
median() { tr ' ' '\n' | grep . | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
mean() { tr ' ' '\n' | grep . | awk '{ s += $1 } END { printf "%.1f\n", s / NR }'; }
# The goal is judged on the ratio of the means: round R of bench-tmpfs holds
# R - 1 more mounts, and its rounds walk every phase of the slab caches a
# cycle uses, so the mean does not hang on the layout the boot left (the
# medians are printed for comparison with older figures).
printf "%-12s %14s %14s %8s %14s %14s %8s\n" bench "series mean" "stock mean" ratio \
	"series median" "stock median" ratio
verdict=
while read -r _ name _ vals; do
	svals=$(echo "$stock" | awk -v n="$name" '$2 == n { $1 = $2 = $3 = ""; print }')
	[ -n "${svals// /}" ] || { echo "bench: no rounds of $name from the stock kernel" >&2; exit 1; }
	sm=$(echo "$vals" | mean)
	km=$(echo "$svals" | mean)
	s=$(echo "$vals" | median)
	k=$(echo "$svals" | median)
	r=$(echo "$sm / $km" | bc -l)
	printf "%-12s %14.1f %14.1f %8.4f %14d %14d %8.4f\n" "$name" "$sm" "$km" "$r" \
		"$s" "$k" "$(echo "$s / $k" | bc -l)"
	echo "  rounds, series: $(echo $vals)" >&2
	echo "  rounds, stock:  $(echo $svals)" >&2
	if [ "$name" = tmpfs ]; then
		if [ "$(echo "$r <= 1.005" | bc -l)" = 1 ]; then
			verdict=$(printf "tmpfs: ratio of means %.4f, goal <= 1.005: met" "$r")
		else
			verdict=$(printf "tmpfs: ratio of means %.4f, goal <= 1.005: NOT met" "$r")
		fi
	fi
done <<< "$series"
echo
[ -n "$verdict" ] && echo "$verdict"
echo
obj() {	# obj KEY [--stock]: a path of rig/kernel.sh --paths
	local key=$1
	shift
	rig/kernel.sh --base "$base" --flavour "$RIG_KERNEL_FLAVOUR" --paths "$@" | tr ' ' '\n' | sed -n "s/^$key=//p"
}
echo "vmlinux size, series vs stock, base $base (scripts/bloat-o-meter):"
"$(obj src --stock)"/scripts/bloat-o-meter "$(obj obj --stock)/vmlinux" "$(obj obj)/vmlinux" | sed -n '1p;$p'
