#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# vmlinux growth of the series by part, bench configuration
# (scripts/bloat-o-meter, stock vs each stage):
#
#   fixes       kernel/fixes/: upstream fixes, a series of their own sent to
#               stable apart from the feature, applied first
#   feature     everything else but the ext2 conversion: the budget (5 KiB)
#   ext2 conv.  "ext2: convert to the new mount API", counted apart
#
# Builds the bench configuration (kernel/configs/bench/, with its fragments'
# compiler flags, as rig/kernel.sh does) at each stage, from the base to the
# whole series, in build/size-tree and build/kobj-size, incrementally.
# Also prints, for the feature, what of it is __init (freed after boot).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
die() { echo "bench-size: error: $*" >&2; exit 1; }
[ -d build/linux-stock ] || rig/kernel.sh --stock --flavour bench >/dev/null
# The fixes are a series of their own (kernel/fixes/), applied first
mapfile -t fixes < <(grep -l '^diff ' kernel/fixes/*.patch 2>/dev/null | sort)
mapfile -t feature < <(grep -l '^diff ' kernel/patches/*.patch | sort)
patches=("${fixes[@]}" "${feature[@]}")
nfix=${#fixes[@]}
conv=-1
for i in "${!patches[@]}"; do
	grep -q '^Subject: \[PATCH[^]]*\] ext2: convert to the new mount API' "${patches[$i]}" && conv=$i
done
[ $conv -ge 0 ] || die "no ext2 conversion patch"
tree=build/size-tree obj=build/kobj-size
rsync -rlc --delete build/linux-stock/ $tree/
mkdir -p $obj
mapfile -t frags < <(sed 's/#.*//; /^[[:space:]]*$/d; s|^|kernel/configs/|' kernel/configs/bench/fragments)
frags+=(kernel/configs/bench/*.config)
kc=""
for f in "${frags[@]}"; do
	[ -f "${f%.config}.kcflags" ] && kc="$kc $(sed 's/#.*//' "${f%.config}.kcflags" | tr '\n' ' ')"
done
mk=(make -s -C "$top/$tree" O="$top/$obj" ARCH=x86_64)
[ -z "${kc// /}" ] || mk+=(KCFLAGS="$kc")
"${mk[@]}" tinyconfig >/dev/null
"$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}" >/dev/null
applied=0
build_at() {	# build_at N NAME: patches 1..N applied, vmlinux copied to $obj/vmlinux.NAME
	while [ $applied -lt "$1" ]; do
		patch -d $tree -p1 -N -F0 --batch -s < "${patches[$applied]}" || die "patch ${patches[$applied]}"
		applied=$((applied + 1))
	done
	"${mk[@]}" olddefconfig >/dev/null
	"${mk[@]}" -j"$(nproc)" vmlinux >&2
	cp $obj/vmlinux $obj/vmlinux.$2
}
build_at 0 stock
build_at $nfix fixes
build_at $conv preconv
build_at $((conv + 1)) conv
build_at ${#patches[@]} whole
stock=$obj/vmlinux.stock whole=$obj/vmlinux.whole
bloat() { build/linux/scripts/bloat-o-meter "$1" "$2" | sed -n '1s/.*(\(-\?[0-9]*\))$/\1/p'; }
all=$(bloat $stock $whole)
fixes=$(bloat $stock $obj/vmlinux.fixes)
ext2=$(bloat $obj/vmlinux.preconv $obj/vmlinux.conv)
feature=$((all - fixes - ext2))
printf "%-34s %+7d bytes\n" "whole series (patches 1-${#patches[@]})" "$all"
printf "%-34s %+7d bytes\n" "fixes (patches 1-$nfix)" "$fixes"
printf "%-34s %+7d bytes\n" "ext2 conversion (patch $((conv + 1)))" "$ext2"
printf "%-34s %+7d bytes   (budget 5120)\n" "feature (the rest)" "$feature"
inits=$(readelf -SW $whole | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 ~ /^\.init\.(text|data)$/ { print $1 }')
for s in $inits; do
	a=$(readelf -SW $stock | sed 's/^ *\[ *[0-9]*\]//' | awk -v s=$s '$1 == s { print $5 }')
	b=$(readelf -SW $whole | sed 's/^ *\[ *[0-9]*\]//' | awk -v s=$s '$1 == s { print $5 }')
	printf "%-34s %+7d bytes\n" "  of which in $s (freed at boot)" "$((0x$b - 0x$a))"
done
[ $feature -le 5120 ]
