#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Build the guest kernel from Debian's linux-source-6.12 plus kernel/patches/.
#
#   rig/kernel.sh [--stock] [--flavour NAME] [EXTRA_FRAGMENT...]
#
# A flavour is a directory kernel/configs/NAME/ of extra fragments, built in
# build/kobj-NAME (e.g. "bench": the series without KUnit, for size and speed).
#
# The source is unpacked under build/ (never committed) and the series is applied
# with patch(1); a patch that does not apply stops the build, naming the patch.
# Work is redone only when its inputs change: the tree when the Debian package or
# kernel/patches change (and then only changed files get new mtimes, so make
# rebuilds only what the series touches), .config when the fragments change, and
# the kernel itself when either changed.  --stock builds the same config without
# the series (for A/B benchmarks and regression comparisons).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
stock=0 flavour=default extra=()
while [ $# -gt 0 ]; do
	case "$1" in
	--stock) stock=1 ;;
	--flavour) flavour=$2; shift ;;
	*) extra+=("$(readlink -f "$1")") ;;
	esac
	shift
done
tarball=/usr/src/linux-source-6.12.tar.xz
die() { echo "rig/kernel: error: $*" >&2; exit 1; }
[ -r "$tarball" ] || die "$tarball missing (run rig/setup.sh)"
pkgver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
tested=$(cat kernel/base-version)
if [ "$pkgver" != "$tested" ]; then
	echo "rig/kernel: WARNING: apt installed linux-source-6.12 $pkgver; the series was tested on $tested" >&2
fi
mkdir -p build
if [ $stock = 1 ]; then
	src=build/linux-stock obj=build/kobj-stock-$flavour patches=()
else
	src=build/linux obj=build/kobj-$flavour
	# Every patch file but the cover letter (which carries no diff).
	mapfile -t patches < <(grep -l '^diff ' kernel/patches/*.patch 2>/dev/null | sort)
fi
jobs=$(nproc)

# 1. Source tree.
srcstamp=$( { echo "$pkgver"; for p in "${patches[@]}"; do sha256sum "$p"; done; } | sha256sum | cut -c1-16)
if [ "$(cat "$src.stamp" 2>/dev/null)" != "$srcstamp" ]; then
	echo "rig/kernel: unpacking linux-source-6.12 $pkgver and applying ${#patches[@]} patches into $src"
	stage=build/stage.$$
	rm -rf "$stage" && mkdir -p "$stage"
	trap 'rm -rf "$top/$stage"' EXIT
	tar xf "$tarball" -C "$stage"
	for p in "${patches[@]}"; do
		if ! out=$(patch -d "$stage/linux-source-6.12" -p1 -N -F0 --batch --no-backup-if-mismatch -s < "$p" 2>&1); then
			printf '%s\n' "$out" >&2
			die "patch $(basename "$p") does not apply to linux-source-6.12 $pkgver"
		fi
	done
	if [ -d "$src" ]; then
		# Copy only what differs, without preserving times: changed files
		# become newer than their objects, unchanged ones keep theirs.
		rsync -rlc --delete "$stage/linux-source-6.12/" "$src/"
	else
		mv "$stage/linux-source-6.12" "$src"
	fi
	rm -rf "$stage"
	trap - EXIT
	echo "$srcstamp" > "$src.stamp"
fi

# 2. Configuration: tinyconfig + fragments, every requested option verified.
# A flavour (kernel/configs/NAME/) adds its own *.config fragments; its file
# "fragments", if present, lists the top-level fragments it keeps (default: all).
top_frags=(kernel/configs/*.config)
flav_frags=()
if [ "$flavour" != default ]; then
	fdir=kernel/configs/$flavour
	[ -d "$fdir" ] || die "no flavour directory $fdir"
	if [ -f "$fdir/fragments" ]; then
		mapfile -t top_frags < <(sed 's/#.*//; /^[[:space:]]*$/d; s|^|kernel/configs/|' "$fdir/fragments")
	fi
	mapfile -t flav_frags < <(ls "$fdir"/*.config 2>/dev/null)
fi
frags=("${top_frags[@]}" "${flav_frags[@]}" "${extra[@]}")
# A fragment NAME.config may come with NAME.kcflags: compiler flags (KCFLAGS)
# for the kernels that use it, '#' comments allowed (kernel/configs/tcg.*).
kcflags=()
for f in "${frags[@]}"; do
	if [ -f "${f%.config}.kcflags" ]; then
		read -ra words < <(sed 's/#.*//' "${f%.config}.kcflags" | tr '\n' ' '; echo)
		kcflags+=("${words[@]}")
	fi
done
cfgstamp=$( { echo "$srcstamp"; cat "${frags[@]}"; [ ${#kcflags[@]} = 0 ] || echo "KCFLAGS=${kcflags[*]}"; } |
	sha256sum | cut -c1-16)
mk=(make -s -C "$src" O="$top/$obj" ARCH=x86_64)
[ ${#kcflags[@]} = 0 ] || mk+=(KCFLAGS="${kcflags[*]}")
if [ "$(cat "$obj/config.stamp" 2>/dev/null)" != "$cfgstamp" ] || [ ! -f "$obj/.config" ]; then
	echo "rig/kernel: configuring $obj (tinyconfig + ${#frags[@]} fragments)"
	mkdir -p "$obj"
	"${mk[@]}" tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}" >/dev/null
	"${mk[@]}" olddefconfig >/dev/null
	bad=0
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=n$ ]] || [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			if grep -q "^${BASH_REMATCH[1]}=" "$obj/.config"; then
				echo "rig/kernel: config: ${BASH_REMATCH[1]} wanted off, got $(grep "^${BASH_REMATCH[1]}=" "$obj/.config")" >&2
				bad=1
			fi
		elif [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			sym=${BASH_REMATCH[1]}
			if [ $stock = 1 ] && ! grep -rqx --include='Kconfig*' "config ${sym#CONFIG_}" "$src"; then
				continue	# added by the series: absent from the stock tree
			fi
			if ! grep -qxF "$line" "$obj/.config"; then
				got=$(grep -E "^(# )?$sym[= ]" "$obj/.config" || echo "absent")
				echo "rig/kernel: config: wanted $line, got: $got" >&2
				bad=1
			fi
		fi
	done < <(cat "${frags[@]}")
	[ $bad = 0 ] || { rm -f "$obj/config.stamp"; die "the final .config dropped options the fragments ask for (unmet dependencies?)"; }
	echo "$cfgstamp" > "$obj/config.stamp"
fi

# 3. Kernel image and UAPI headers (for static test programs).
if [ "$(cat "$obj/build.stamp" 2>/dev/null)" != "$cfgstamp" ] || [ ! -f "$obj/arch/x86/boot/bzImage" ] ||
	[ ! -f "$obj/vmlinux" ]; then
	echo "rig/kernel: building $obj (-j$jobs)"
	# A modular config (flavour "modules"): the modules too, installed
	# stripped with depmod into $obj/modules-install/lib/modules/<release>/,
	# which rig/rig.py copies into that kernel's initramfs.
	modular=0
	grep -qx 'CONFIG_MODULES=y' "$obj/.config" && modular=1
	rm -rf "$obj/modules-install"
	"${mk[@]}" -j"$jobs" bzImage $([ $modular = 0 ] || echo modules)
	"${mk[@]}" headers_install INSTALL_HDR_PATH="$top/$obj/usr-headers" >/dev/null
	if [ $modular = 1 ]; then
		"${mk[@]}" modules_install INSTALL_MOD_PATH="$top/$obj/modules-install" INSTALL_MOD_STRIP=1 \
			DEPMOD=/sbin/depmod >/dev/null
	fi
	echo "$cfgstamp" > "$obj/build.stamp"
fi
# The image rig/rig.py boots: vmlinux for a kernel with the PVH entry point
# (kernel/configs/tcg.config), the bzImage otherwise.
if grep -qx 'CONFIG_PVH=y' "$obj/.config"; then
	echo "$top/$obj/vmlinux"
else
	echo "$top/$obj/arch/x86/boot/bzImage"
fi
