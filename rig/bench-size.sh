#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# vmlinux growth of the series by part, bench configuration
# (scripts/bloat-o-meter, stock vs each stage):
#
#   rig/bench-size.sh [--base BASE]
#
#   fixes       the base's fixes/ (kernel/fixes/ on 6.12): upstream fixes, a
#               series of their own sent to stable apart from the feature,
#               applied first
#   feature     everything else but the ext2 conversion: the budget (5 KiB)
#   ext2 conv.  "ext2: convert to the new mount API", counted apart (6.12
#               and 6.1; 7.3's ext2 has the new mount API already)
#
# The stock and the whole-series stages are the bench flavour's kernels of
# rig/kernel.sh (--stock and not: the kernels rig/bench-kernel.sh measures).
# The stages between them are built from the stock tree in OUT/size-tree and
# OUT/kobj-size, incrementally (OUT: build/ on 6.12, build/v73/ on 7.3, ...),
# with the bench configuration (the base's configs/bench/ as rig/kernel.sh
# resolves it, with its fragments' compiler flags).
# Also prints, for the feature, what of it is __init (freed after boot).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
die() { echo "bench-size: error: $*" >&2; exit 1; }
base=6.12
while [ $# -gt 0 ]; do
	case "$1" in
	--base) [ $# -ge 2 ] || die "--base needs a version"; base=$2; shift ;;
	*) die "unknown argument '$1' (usage: rig/bench-size.sh [--base BASE])" ;;
	esac
	shift
done
# The paths of the two bench kernels (rig/kernel.sh --paths: KEY=VALUE words)
whole_paths=$(rig/kernel.sh --base "$base" --flavour bench --paths | tr ' ' '\n')
stock_paths=$(rig/kernel.sh --base "$base" --flavour bench --paths --stock | tr ' ' '\n')
series=$(sed -n 's/^series=//p' <<< "$whole_paths")
whole_obj=$(sed -n 's/^obj=//p' <<< "$whole_paths")
stock_src=$(sed -n 's/^src=//p' <<< "$stock_paths")
stock_obj=$(sed -n 's/^obj=//p' <<< "$stock_paths")
[ -n "$series" ] && [ -n "$stock_obj" ] || die "rig/kernel.sh --paths gave no paths for base $base"
out=$(dirname "$stock_obj")
# The two ends: the bench kernels with and without the series (in that
# order: a new stock kernel starts from the patched one's objects)
rig/kernel.sh --base "$base" --flavour bench >/dev/null
rig/kernel.sh --base "$base" --stock --flavour bench >/dev/null
# The fixes are a series of their own (fixes/), applied first
mapfile -t fixes < <(grep -l '^diff ' "$series"/fixes/*.patch 2>/dev/null | sort || :)
mapfile -t feature < <(grep -l '^diff ' "$series"/patches/*.patch | sort)
patches=("${fixes[@]}" "${feature[@]}")
nfix=${#fixes[@]}
conv=-1
for i in "${!patches[@]}"; do
	grep -q '^Subject: \[PATCH[^]]*\] ext2: convert to the new mount API' "${patches[$i]}" && conv=$i
done
# The configuration of the stock bench kernel, as rig/kernel.sh made it
# (tinyconfig, the fragments, olddefconfig), and its compiler flags.
# The objects in a subdirectory of the tree, as rig/kernel.sh builds them:
# through ccache, what the stock bench kernel compiled is not compiled again.
tree=$out/size-tree obj=$tree/kobj-size
rm -rf "$out/kobj-size"		# where they were before
rsync -rlc --delete --exclude='/kobj-*' "$stock_src/" "$tree/"
mkdir -p "$obj"
cp "$stock_obj/.config" "$obj/.config"
kc=$(cat "$stock_obj/kcflags")
mk=(rig/ccache.sh make -s -C "$top/$tree" O="$top/$obj" ARCH=x86_64)
[ -z "$kc" ] || mk+=(KCFLAGS="$kc")
applied=0
build_at() {	# build_at N NAME: patches 1..N applied, vmlinux copied to $obj/vmlinux.NAME
	while [ $applied -lt "$1" ]; do
		patch -d "$tree" -p1 -N -F0 --batch -s < "${patches[$applied]}" || die "patch ${patches[$applied]}"
		applied=$((applied + 1))
	done
	"${mk[@]}" olddefconfig >/dev/null
	"${mk[@]}" -j"$(nproc)" vmlinux >&2
	cp "$obj/vmlinux" "$obj/vmlinux.$2"
}
cp "$stock_obj/vmlinux" "$obj/vmlinux.stock"
build_at $nfix fixes
if [ $conv -ge 0 ]; then
	build_at $conv preconv
	build_at $((conv + 1)) conv
fi
cp "$whole_obj/vmlinux" "$obj/vmlinux.whole"
stock=$obj/vmlinux.stock whole=$obj/vmlinux.whole
bloat() { "$stock_src"/scripts/bloat-o-meter "$1" "$2" | sed -n '1s/.*(\(-\?[0-9]*\))$/\1/p'; }
all=$(bloat $stock $whole)
fixes=$(bloat $stock $obj/vmlinux.fixes)
ext2=0
[ $conv -lt 0 ] || ext2=$(bloat $obj/vmlinux.preconv $obj/vmlinux.conv)
feature=$((all - fixes - ext2))
echo "base $base ($(cat "$series/base-version")), bench configuration"
printf "%-34s %+7d bytes\n" "whole series (patches 1-${#patches[@]})" "$all"
printf "%-34s %+7d bytes\n" "fixes (patches 1-$nfix)" "$fixes"
[ $conv -lt 0 ] || printf "%-34s %+7d bytes\n" "ext2 conversion (patch $((conv + 1)))" "$ext2"
printf "%-34s %+7d bytes   (budget 5120)\n" "feature (the rest)" "$feature"
inits=$(readelf -SW $whole | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 ~ /^\.init\.(text|data)$/ { print $1 }')
for s in $inits; do
	a=$(readelf -SW $stock | sed 's/^ *\[ *[0-9]*\]//' | awk -v s=$s '$1 == s { print $5 }')
	b=$(readelf -SW $whole | sed 's/^ *\[ *[0-9]*\]//' | awk -v s=$s '$1 == s { print $5 }')
	printf "%-34s %+7d bytes\n" "  of which in $s (freed at boot)" "$((0x$b - 0x$a))"
done
[ $feature -le 5120 ]
