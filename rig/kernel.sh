#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Build the guest kernel from Debian's linux-source-6.12 plus kernel/patches/.
#
#   rig/kernel.sh [--base BASE] [--stock] [--flavour NAME] [EXTRA_FRAGMENT...]
#   rig/kernel.sh --paths|--fragments [...]   print the paths / fragments, build nothing
#   rig/kernel.sh --prepare [...]   the source tree and configuration only
#
# A flavour is a directory kernel/configs/NAME/ of extra fragments, built in
# build/kobj-NAME (e.g. "bench": the series without KUnit, for size and speed).
#
# --base BASE: another kernel base (default 6.12, the paths above).  7.3:
# Debian's linux-source-7.3 as rig/base-source.sh unpacks it (the version in
# kernel/7.3/base-version, build/v73/linux-source-7.3), the series
# kernel/7.3/patches/, the tree build/v73/linux (stock: build/v73/linux-stock),
# objects build/v73/kobj-NAME (stock: build/v73/kobj-stock-NAME).  Its config
# fragments are kernel/7.3/configs/*.config after the fragments of
# kernel/configs/ that kernel/7.3/configs/shared names (written for 6.12: an
# option they ask for that the tree no longer has is reported and skipped),
# its flavours kernel/7.3/configs/NAME/.  6.1 the same way: Debian 12's
# linux-source-6.1 (kernel/6.1/base-version), kernel/6.1/fixes and patches, build/v61/.
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
stock=0 flavour=default base=6.12 paths=0 prepare=0 extra=()
die() { echo "rig/kernel: error: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
	case "$1" in
	--base) [ $# -ge 2 ] || die "--base needs a version"; base=$2; shift ;;
	--stock) stock=1 ;;
	--flavour) flavour=$2; shift ;;
	--paths) paths=1 ;;	# print the paths this build would use, and stop
	--fragments) paths=2 ;;	# print the configuration fragments, and stop
	--prepare) prepare=1 ;;	# the tree and the configuration only (below)
	*) extra+=("$(readlink -f "$1")") ;;
	esac
	shift
done
if [ "$base" = 6.12 ]; then
	# The first base: everything directly in kernel/ and build/, as always.
	series=kernel out=build pkg=linux-source-6.12
else
	# Another base: kernel/BASE/, build/vNN/ (7.3 -> v73).
	case $base in
	*[!0-9.]* | "" | .* | *. | *..*) die "bad base '$base'" ;;
	esac
	series=kernel/$base out=build/v$(echo "$base" | tr -d .) pkg=linux-source-$base
	[ -r "$series/base-version" ] || die "unknown base $base: no $series/base-version"
	[ -d "$series/configs" ] || die "base $base has no $series/configs/"
fi
if [ $stock = 1 ]; then
	src=$out/linux-stock obj=$out/kobj-stock-$flavour patches=()
else
	src=$out/linux obj=$out/kobj-$flavour
	# Every patch file but the cover letter (which carries no diff).
	# The fixes (a series of their own, kernel/fixes/) first; a base
	# without fixes has no such directory.
	mapfile -t patches < <({ grep -l '^diff ' "$series"/fixes/*.patch 2>/dev/null | sort || :
		grep -l '^diff ' "$series"/patches/*.patch 2>/dev/null | sort || :; })
fi
# The objects are built in a subdirectory of the tree ($objs, e.g.
# build/linux/kobj-default), which $obj links to: kbuild then names every
# source and header relative to the object directory ("../fs/super.c",
# srctree ".."), so an object's compiler command is the same in every tree of
# the same base and in every checkout, and ccache (below) recognises it.
objs=$src/${obj##*/}
# The configuration fragments, in order (step 3 below).
# A flavour (kernel/configs/NAME/) adds its own *.config fragments; its file
# "fragments", if present, lists the top-level fragments it keeps (default: all).
# Another base's kernel/BASE/configs/shared names fragments of kernel/configs/
# (6.12's) it is built with, before its own.
cfgdir=$series/configs
shared=()
if [ -f "$cfgdir/shared" ] && [ "$base" != 6.12 ]; then
	mapfile -t shared < <(sed 's/#.*//; /^[[:space:]]*$/d; s|^|kernel/configs/|' "$cfgdir/shared")
fi
top_frags=("${shared[@]}" "$cfgdir"/*.config)
flav_frags=() seed=
if [ "$flavour" != default ]; then
	fdir=$cfgdir/$flavour
	[ -d "$fdir" ] || die "no flavour directory $fdir"
	if [ -f "$fdir/fragments" ]; then
		# A name in the base's configs/, else one of kernel/configs/.
		mapfile -t top_frags < <(sed 's/#.*//; /^[[:space:]]*$/d' "$fdir/fragments" |
			while read -r f; do if [ -f "$cfgdir/$f" ]; then echo "$cfgdir/$f"; else echo "kernel/configs/$f"; fi; done)
	fi
	mapfile -t flav_frags < <(ls "$fdir"/*.config 2>/dev/null)
	# The objects a new build of this flavour starts from (step 2 below).
	if [ -f "$fdir/seed" ]; then
		seed=${obj%-"$flavour"}-$(sed 's/#.*//; /^[[:space:]]*$/d' "$fdir/seed")
	fi
fi
# A stock kernel starts from the patched kernel of its flavour (step 2),
# once that is built; else from its flavour's seed.
[ $stock = 0 ] || seed="$out/kobj-$flavour${seed:+ $seed}"
frags=("${top_frags[@]}" "${flav_frags[@]}" "${extra[@]}")
if [ $paths = 2 ]; then
	printf '%s\n' "${frags[@]}"
	exit 0
elif [ $paths = 1 ]; then
	echo "series=$series package=$pkg src=$src obj=$obj objects=$objs stage=$out/stage.PID patches=${#patches[@]} seed=$(echo ${seed:-none} | tr ' ' ,)"
	exit 0
fi
if [ "$base" = 6.12 ]; then
	tarball=/usr/src/$pkg.tar.xz
	[ -r "$tarball" ] || die "$tarball missing (run rig/setup.sh)"
	pkgver=$(dpkg-query -W -f='${Version}' "$pkg")
	tested=$(cat kernel/base-version)
	if [ "$pkgver" != "$tested" ]; then
		echo "rig/kernel: WARNING: apt installed $pkg $pkgver; the series was tested on $tested" >&2
	fi
else
	# The pristine tree of rig/base-source.sh (which fetches the recorded
	# version with apt-get download and warns when it is gone from the archive).
	pristine=$(rig/base-source.sh "$base" "$out") || die "rig/base-source.sh $base failed"
	pkgver=$(sed -n "s/^$pkg //p" "$pristine.stamp")
	[ -n "$pkgver" ] || die "$pristine.stamp names no version of $pkg"
fi
mkdir -p "$out"
jobs=$(nproc)

# 1. Source tree.
srcstamp=$( { echo "$pkgver"; for p in "${patches[@]}"; do sha256sum "$p"; done; } | sha256sum | cut -c1-16)
if [ "$(cat "$src.stamp" 2>/dev/null)" != "$srcstamp" ]; then
	echo "rig/kernel: unpacking $pkg $pkgver and applying ${#patches[@]} patches into $src"
	stage=$out/stage.$$
	rm -rf "$stage" && mkdir -p "$stage"
	trap 'rm -rf "$top/$stage"' EXIT
	if [ "$base" = 6.12 ]; then
		# Debian's tarball is made of xz blocks: decompressed on every CPU
		xz -T0 -dc "$tarball" | tar -x -C "$stage"
	else
		# The tree's content, also when build/ holds a symlink to it
		mkdir -p "$stage/$pkg" && cp -a "$pristine/." "$stage/$pkg/"
	fi
	for p in "${patches[@]}"; do
		if ! pout=$(patch -d "$stage/$pkg" -p1 -N -F0 --batch --no-backup-if-mismatch -s < "$p" 2>&1); then
			printf '%s\n' "$pout" >&2
			die "patch $(basename "$p") does not apply to $pkg $pkgver"
		fi
	done
	if [ -d "$src" ]; then
		# Copy only what differs, without preserving times: changed files
		# become newer than their objects, unchanged ones keep theirs.
		rsync -rlc --delete --exclude='/kobj-*' "$stage/$pkg/" "$src/"
	else
		mv "$stage/$pkg" "$src"
	fi
	rm -rf "$stage"
	trap - EXIT
	echo "$srcstamp" > "$src.stamp"
fi

# --prepare (rig/rig.py, for the next kernel while one builds): the tree,
# and the configuration of a kernel that starts from no seed's objects (a
# seed is copied only into an unconfigured object directory, step 2).
[ $prepare = 0 ] || [ -z "$seed" ] || exit 0

# $obj is a link to $objs; an object directory of the rig's earlier layout
# ($obj itself, absolute paths in every command) is removed.
if [ -d "$obj" ] && [ ! -L "$obj" ]; then
	echo "rig/kernel: removing $obj (objects are now built in $objs)" >&2
	rm -rf "$obj"
fi
mkdir -p "$objs"
ln -sfn "${src##*/}/${obj##*/}" "$obj"

# 2. Objects to start from.  A new object directory starts as a copy of a
# finished build of the same Debian package, and kbuild rebuilds only what
# differs: objects whose command line changed (-DMODULE), that use a changed
# option (fixdep's per-option dependencies) or include a changed file.  The
# seed of a flavour is named in its directory's file "seed" (modules: the
# default kernel with the filesystems as modules, the same tree); a stock
# kernel's is the patched kernel of its flavour, another tree: the files of
# the stock tree that differ from the patched one (size or time: both trees
# come from the same package, only what the series changed has another time)
# are touched, to be newer than the objects made from the patched ones.
if [ -n "$seed" ] && [ ! -e "$obj/.config" ]; then
	for s in $seed; do
		sdir=$(cd "$s" 2>/dev/null && pwd -P) || continue
		ssrc=${sdir%/*}		# the tree the objects are of
		[ -f "$s/vmlinux" ] && [ "$(cat "$s/package" 2>/dev/null)" = "$pkg $pkgver" ] &&
		    [ "$(cat "$s/tree.stamp" 2>/dev/null)" = "$(cat "$ssrc.stamp" 2>/dev/null)" ] &&
		    [ "$(cat "$s/build.stamp" 2>/dev/null)" = "$(cat "$s/config.stamp" 2>/dev/null)" ] || continue
		echo "rig/kernel: seeding $obj with the objects of $s"
		tree=$(cd "$src" && pwd -P)
		to=$tree/${objs##*/}
		rm -rf "$objs" && mkdir -p "$objs"
		cp -a "$s/." "$objs/"
		rm -rf "$objs/modules-install" "$objs/usr-headers" "$objs/config.stamp" "$objs/build.stamp"
		# objtool's own build records absolute paths, of its objects and
		# of its sources: unless they name the copy and this tree, objtool
		# is rebuilt, and with it every object (each one depends on the
		# objtool binary).  Physical paths, as kbuild records them.
		grep -rIlZF -e "$sdir/" -e "$ssrc/" "$objs/tools" 2>/dev/null | while IFS= read -r -d '' f; do
			t=$(stat -c %Y "$f")
			sed -i "s|$sdir/|$to/|g; s|$ssrc/|$tree/|g" "$f"
			touch -d "@$t" "$f"
		done
		if [ "$ssrc" != "$tree" ]; then
			rsync -rln --exclude='/kobj-*' --out-format='%n' "$ssrc/" "$src/" |
				while IFS= read -r f; do
					if [ -f "$src/$f" ] && [ ! -L "$src/$f" ]; then touch "$src/$f"; fi
				done
		fi
		break
	done
fi

# 3. Configuration: tinyconfig + fragments, every requested option verified.
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
# Through ccache (rig/ccache.sh): an object compiled before with the same
# command and sources, by an earlier build or in another checkout, is not
# compiled again.  (Not between two configurations or the stock and the
# patched tree: every object includes autoconf.h, which differs.)
mk=(rig/ccache.sh make -s -C "$src" O="$top/$objs" ARCH=x86_64)
[ ${#kcflags[@]} = 0 ] || mk+=(KCFLAGS="${kcflags[*]}")
if [ "$(cat "$obj/config.stamp" 2>/dev/null)" != "$cfgstamp" ] || [ ! -f "$obj/.config" ]; then
	echo "rig/kernel: configuring $obj (tinyconfig + ${#frags[@]} fragments)"
	mkdir -p "$obj"
	"${mk[@]}" -j"$jobs" tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}" >/dev/null
	"${mk[@]}" olddefconfig >/dev/null
	# The option lines of the fragments, a later fragment's line for an
	# option replacing an earlier one's, as merge_config.sh merges them (7.3's
	# modules.config turns fs.config's =y into =m); other lines as they are.
	wanted_lines() {
		cat "${frags[@]}" | awk '
			{ sym = "" }
			match($0, /^CONFIG_[A-Za-z0-9_]+=/) { sym = substr($0, 1, RLENGTH - 1) }
			match($0, /^# CONFIG_[A-Za-z0-9_]+ is not set$/) { sym = $2 }
			sym == "" { line[++n] = $0; next }
			!(sym in at) { at[sym] = ++n }
			{ line[at[sym]] = $0 }
			END { for (i = 1; i <= n; i++) print line[i] }'
	}
	bad=0
	# Options of the shared 6.12 fragments: one the base no longer has is
	# only reported (7.3: PROC_SYSCTL is gone, SYSCTL gives /proc/sys).
	declare -A shared_syms=() tree_syms=()
	if [ ${#shared[@]} -gt 0 ]; then
		while read -r sym; do shared_syms[$sym]=1; done < <(grep -ho '^CONFIG_[A-Za-z0-9_]*' "${shared[@]}")
	fi
	# The options the tree has (its Kconfig files read once), for the two
	# cases above; not needed otherwise.
	if [ $stock = 1 ] || [ ${#shared[@]} -gt 0 ]; then
		while read -r sym; do tree_syms[CONFIG_$sym]=1; done < <(grep -rhE --include='Kconfig*' \
			--exclude-dir='kobj-*' '^[[:space:]]*(menu)?config [A-Za-z0-9_]+[[:space:]]*$' "$src" |
			awk '{ print $2 }')
	fi
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=n$ ]] || [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			if grep -q "^${BASH_REMATCH[1]}=" "$obj/.config"; then
				echo "rig/kernel: config: ${BASH_REMATCH[1]} wanted off, got $(grep "^${BASH_REMATCH[1]}=" "$obj/.config")" >&2
				bad=1
			fi
		elif [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			sym=${BASH_REMATCH[1]}
			if [ $stock = 1 ] && [ -z "${tree_syms[$sym]:-}" ]; then
				continue	# added by the series: absent from the stock tree
			fi
			if [ -n "${shared_syms[$sym]:-}" ] && [ -z "${tree_syms[$sym]:-}" ]; then
				echo "rig/kernel: config: $line (kernel/configs/, for 6.12): no such option in $pkg, skipped" >&2
				continue
			fi
			if ! grep -qxF "$line" "$obj/.config"; then
				got=$(grep -E "^(# )?$sym[= ]" "$obj/.config" || echo "absent")
				echo "rig/kernel: config: wanted $line, got: $got" >&2
				bad=1
			fi
		fi
	done < <(wanted_lines)
	[ $bad = 0 ] || { rm -f "$obj/config.stamp"; die "the final .config dropped options the fragments ask for (unmet dependencies?)"; }
	echo "$cfgstamp" > "$obj/config.stamp"
fi

[ $prepare = 0 ] || exit 0

# The compiler flags, for builds of this configuration elsewhere (rig/bench-size.sh)
printf '%s\n' "${kcflags[*]}" > "$obj/kcflags"

# 4. Kernel image and UAPI headers (for static test programs).  The image
# rig/rig.py boots: vmlinux for a kernel with the PVH entry point
# (kernel/configs/tcg.config), so no bzImage is made (its boot code and the
# compressed copy of vmlinux); the bzImage otherwise.
if grep -qx 'CONFIG_PVH=y' "$obj/.config"; then
	target=vmlinux image=vmlinux
else
	target=bzImage image=arch/x86/boot/bzImage
fi
if [ "$(cat "$obj/build.stamp" 2>/dev/null)" != "$cfgstamp" ] || [ ! -f "$obj/$image" ] ||
	[ ! -f "$obj/vmlinux" ]; then
	echo "rig/kernel: building $obj (-j$jobs)"
	# A modular config (flavour "modules"): the modules too, installed
	# stripped with depmod into $obj/modules-install/lib/modules/<release>/,
	# which rig/rig.py copies into that kernel's initramfs.
	modular=0
	grep -qx 'CONFIG_MODULES=y' "$obj/.config" && modular=1
	rm -rf "$obj/modules-install"
	# The UAPI headers in the same make: ~1,000 runs of headers_install.sh
	# beside the compilers rather than one after another at the end.
	"${mk[@]}" -j"$jobs" $target $([ $modular = 0 ] || echo modules) \
		headers_install INSTALL_HDR_PATH="$top/$obj/usr-headers"
	if [ $modular = 1 ]; then
		"${mk[@]}" modules_install INSTALL_MOD_PATH="$top/$obj/modules-install" INSTALL_MOD_STRIP=1 \
			DEPMOD=/sbin/depmod >/dev/null
	fi
	echo "$srcstamp" > "$obj/tree.stamp"	# the tree these objects are of (a seed's test)
	echo "$pkg $pkgver" > "$obj/package"
	echo "$cfgstamp" > "$obj/build.stamp"
fi
echo "$top/$obj/$image"
