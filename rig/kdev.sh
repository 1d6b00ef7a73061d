#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# The kernel development tree, build/kdev by default:
#
#   rig/kdev.sh [DIR]          make DIR: the pristine Debian source as the base
#                              commit (tag "pristine"), kernel/patches applied
#                              as commits, and the cover letter's subject and
#                              text as the branch's description
#   rig/kdev.sh --regen [DIR]  write kernel/patches again from DIR's commits
#                              pristine..HEAD, the cover letter from the
#                              branch's description (edit it with
#                              git branch --edit-description) with format-patch's
#                              shortlog and diffstat.  When DIR has a branch
#                              "fixes" that HEAD contains, the fixes are a
#                              series of their own: pristine..fixes in
#                              kernel/fixes/ (cover letter: the description of
#                              branch "fixes"), fixes..HEAD in kernel/patches/
#   rig/kdev.sh --base 7.3 [--regen] [DIR]
#                              the same for v2 on another base: Debian's
#                              linux-source-7.3 (rig/base-source.sh, unpacked
#                              beside DIR), kernel/7.3/patches, DIR
#                              build/v73/kdev by default (6.1:
#                              linux-source-6.1, build/v61/kdev)
#
# Edit and commit in DIR (git rebase -i pristine for a patch in the middle),
# then --regen; the rig builds from kernel/patches alone.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
regen= base=
while [ $# -gt 0 ]; do
	case $1 in
	--regen) regen=1; shift ;;
	--base) [ $# -ge 2 ] || { echo "rig/kdev: --base needs a version" >&2; exit 1; }
		base=$2; shift 2 ;;
	*) break ;;
	esac
done
if [ -z "$base" ]; then
	dir=${1:-$top/build/kdev}
	patches=$top/kernel/patches
else
	[ -r "$top/kernel/$base/base-version" ] ||
		{ echo "rig/kdev: no kernel/$base/base-version" >&2; exit 1; }
	dir=${1:-$top/build/v$(echo "$base" | tr -d .)/kdev}
	patches=$top/kernel/$base/patches
fi
case $dir in /*) ;; *) dir=$PWD/$dir ;; esac
fixdir=$(dirname "$patches")/fixes
cover=$patches/0000-cover-letter.patch

if [ -n "$regen" ]; then
	[ -d "$dir/.git" ] || { echo "rig/kdev: $dir is not a git tree made by rig/kdev.sh" >&2; exit 1; }
	branch=$(git -C "$dir" symbolic-ref --short HEAD)
	git -C "$dir" config "branch.$branch.description" >/dev/null ||
		{ echo "rig/kdev: branch $branch of $dir has no description (the cover letter)" >&2; exit 1; }
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
	# write_series RANGE TO: format-patch RANGE into directory TO, whole:
	# a patch renamed or dropped in DIR leaves no stale file behind.
	write_series() {
		rm -rf "$out/s" && mkdir -p "$out/s" "$2"
		git -C "$dir" -c core.abbrev=12 format-patch -q --cover-letter --cover-from-description=subject \
			-o "$out/s" "$1"
		rm -f "$2"/*.patch "$2"/*.patch.license
		cp "$out/s"/*.patch "$2/"
		# A patch stays format-patch's output to the byte, so its licence,
		# the kernel's, is in NAME.patch.license beside it; reuse(1) then
		# does not take the SPDX lines of the files a patch adds for the
		# patch's own.
		# REUSE-IgnoreStart
		for p in "$2"/*.patch; do
			printf '%s\n' "SPDX-FileCopyrightText: 2026 The fsdeprecate authors" \
				"SPDX-License-Identifier: GPL-2.0-only" >"$p.license"
		done
		# REUSE-IgnoreEnd
		(cd "$2" && ls -- *.patch) | sed "s|^|rig/kdev: $(basename "$2")/|"
	}
	if git -C "$dir" rev-parse -q --verify refs/heads/fixes >/dev/null &&
	   [ "$branch" != fixes ] && git -C "$dir" merge-base --is-ancestor fixes HEAD; then
		git -C "$dir" config branch.fixes.description >/dev/null ||
			{ echo "rig/kdev: branch fixes of $dir has no description (its cover letter)" >&2; exit 1; }
		# format-patch takes the cover letter from the branch checked out
		git -C "$dir" -c advice.detachedHead=false checkout -q fixes
		write_series pristine..fixes "$fixdir"
		git -C "$dir" checkout -q "$branch"
		write_series fixes..HEAD "$patches"
	else
		write_series pristine..HEAD "$patches"
	fi
	exit 0
fi

[ -e "$dir" ] && { echo "rig/kdev: $dir exists; not touching it" >&2; exit 1; }
if [ -z "$base" ]; then
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
	mkdir -p "$dir.tmp"
	tar xf /usr/src/linux-source-6.12.tar.xz -C "$dir.tmp"
	mv "$dir.tmp/linux-source-6.12" "$dir" && rmdir "$dir.tmp"
	name=linux-source-6.12
else
	# Unpacked beside DIR (build/v73/linux-source-7.3), then copied: a
	# second tree from the same source needs no second download.
	"$top/rig/base-source.sh" "$base" "$(dirname "$dir")"
	ver=$(cat "$top/kernel/$base/base-version")
	cp -a "$(dirname "$dir")/linux-source-$base" "$dir"
	name=linux-source-$base
fi
cd "$dir"
git init -q
# Debian's .gitignore ignores every top-level path ("/*"): add by force.
git add -Af
git commit -qm "$name $ver (Debian, pristine)"
git tag pristine
# cover_description COVER: the description a cover letter was made from
cover_description() {
	# The subject without "[PATCH 00/NN] ", a blank line, the text up to
	# format-patch's shortlog ("Author (N):").
	awk '
		/^Subject: / && !subj { sub(/^Subject: \[PATCH [0-9]+\/[0-9]+\] /, ""); s = $0; subj = insubj = 1; next }
		insubj && /^ / { s = s $0; next }	# a folded subject line
		insubj { print s; insubj = 0 }
		subj && !body && /^$/ { body = 1; print ""; next }
		body && /^[^ ].* \([0-9]+\):$/ { exit }
		body { print }
	' "$1" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}
if ls "$fixdir"/*.patch >/dev/null 2>&1; then
	# The fixes first, a series of their own: branch "fixes"
	git am -q $(ls "$fixdir"/*.patch | grep -v '/0000-cover-letter.patch$')
	git branch fixes
	[ -f "$fixdir/0000-cover-letter.patch" ] &&
		git config branch.fixes.description "$(cover_description "$fixdir/0000-cover-letter.patch")"
fi
if ls "$patches"/*.patch >/dev/null 2>&1; then
	git am -q $(ls "$patches"/*.patch | grep -v '/0000-cover-letter.patch$')
fi
if [ -f "$cover" ]; then
	git config "branch.$(git symbolic-ref --short HEAD).description" "$(cover_description "$cover")"
fi
git log --oneline pristine..HEAD
