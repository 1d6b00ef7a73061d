#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Kernel cost of the series (a benchmark, not a test): the bench groups of
# tests/groups.conf booted with QEMU -icount shift=0,sleep=off (guest time
# follows instructions executed, so rounds repeat within ~0.2%) on the kernel
# with the series and on the same config without it; prints medians and ratios.
# Also prints scripts/bloat-o-meter for vmlinux.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export RIG_KERNEL_FLAVOUR=${RIG_KERNEL_FLAVOUR:-bench}
series=$(python3 rig/rig.py bench "$@") || { echo "$series"; echo "bench: failed on the series kernel" >&2; exit 1; }
stock=$(RIG_STOCK=1 python3 rig/rig.py bench "$@") || { echo "$stock"; echo "bench: failed on the stock kernel" >&2; exit 1; }
median() { tr ' ' '\n' | grep . | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# paired: the median of the round-by-round ratios (round R of both kernels
# starts from the same slab layout in bench-tmpfs, see tests/guest/mountloop.c)
paired() { paste -d' ' <(echo "$1" | tr ' ' '\n' | grep .) <(echo "$2" | tr ' ' '\n' | grep .) |
	awk '{ printf "%.6f\n", $1 / $2 }' | median; }
printf "%-12s %14s %14s %8s %8s   rounds(series) / rounds(stock)\n" bench "series ns/cyc" "stock ns/cyc" ratio paired
while read -r _ name _ vals; do
	s=$(echo "$vals" | median)
	svals=$(echo "$stock" | awk -v n="$name" '$2 == n { $1 = $2 = $3 = ""; print }')
	k=$(echo "$svals" | median)
	printf "%-12s %14d %14d %8.4f %8.4f   %s / %s\n" "$name" "$s" "$k" "$(echo "$s / $k" | bc -l)" \
		"$(paired "$vals" "$svals")" "$vals" "$(echo $svals)"
done <<< "$series"
echo
echo "vmlinux size, series vs stock (scripts/bloat-o-meter):"
build/linux/scripts/bloat-o-meter "build/kobj-stock-$RIG_KERNEL_FLAVOUR/vmlinux" "build/kobj-$RIG_KERNEL_FLAVOUR/vmlinux" | sed -n '1p;$p'
