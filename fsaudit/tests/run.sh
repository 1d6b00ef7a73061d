#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
#
# fsaudit test suite: prints TAP version 13 on stdout, exits non-zero on any
# failure.  Images are made with real mkfs tools (once per recipe: see
# tests/imgcache.sh) and copied to a temporary directory (never mounted);
# fsaudit runs from there with relative names, against fixture sysroots, so
# the output is deterministic.
#
#   tests/run.sh            run
#   tests/run.sh --update   rewrite tests/expected/ from the current output
set -u
export LC_ALL=C TZ=UTC

here=$(cd "$(dirname "$0")/.." && pwd)
bin=$here/fsaudit
exp=$here/tests/expected
fix=$here/tests/fixtures
update=0
[ "${1:-}" = --update ] && update=1

tmp=$(mktemp -d /tmp/fsaudit-test.XXXXXX) || exit 2
# The image directory $tmp/img, where some 1300 damaged copies come and go:
# on tmpfs (/dev/shm) when it has 512 MB free, $tmp/img a symbolic link to
# it (creating a file on this machine's busy ext4 cost 0.5 ms of CPU: its
# inode allocator walks past the recently deleted ones).
imgdir=
if [ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')" -gt 524288 ] 2>/dev/null; then
	imgdir=$(mktemp -d /dev/shm/fsaudit-img.XXXXXX) && ln -s "$imgdir" "$tmp/img" || imgdir=
fi
trap 'rm -rf "$tmp" ${imgdir:+"$imgdir"}' EXIT
chmod 755 "$tmp"
# shellcheck source=tap.sh
. "$here/tests/tap.sh"
# py ARGS...: the python3 of PATH, found once (through a wrapper such as
# pyenv's shim each start cost 0.1 s of CPU), without site-packages (-S:
# the scripts use the standard library only, and site's imports cost more
# than most of them)
PYTHON=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
[ -x "$PYTHON" ] || PYTHON=python3
py() { "$PYTHON" -S "$@"; }
# same FILE1 FILE2: two readable regular files with the same bytes, read by
# the shell (no process: the suite compares ~120 files).  A file with a NUL
# byte is never "same" here (read stops at it): compare() then leaves the
# verdict to diff, as for a missing or unreadable file.
same() {
	local a b
	[ -f "$1" ] && [ -r "$1" ] && [ -f "$2" ] && [ -r "$2" ] &&
		! IFS= read -r -d '' a <"$1" && ! IFS= read -r -d '' b <"$2" && [ "$a" = "$b" ]
}
# compare NAME EXPECTED ACTUAL
compare() {
	if [ $update = 1 ]; then
		mkdir -p "$(dirname "$2")"; cp "$3" "$2"; ok "$1"
	elif [ ! -f "$2" ]; then
		echo "missing expected file $2" >"$tmp/diff"; notok "$1" "$tmp/diff"
	elif same "$2" "$3" || diff -u "$2" "$3" >"$tmp/diff" 2>&1; then
		ok "$1"
	else
		notok "$1" "$tmp/diff"
	fi
}
# run_fsaudit OUT ARGS... : stdout+stderr and "rc=N" into OUT
run_fsaudit() {
	local out=$1; shift
	"$bin" "$@" >"$out" 2>"$out.err"
	local rc=$?
	[ ! -s "$out.err" ] || cat "$out.err" >>"$out"
	echo "rc=$rc" >>"$out"
	return $rc
}
# valid_json FILE...: one Python run checks them all; FILE.valid gets "ok"
# or why FILE is not valid fsaudit JSON.  json_ok FILE: it was valid.
valid_json() {
	rm -f "${@/%/.valid}"
	py - "$@" <<'EOF'
import json, sys, traceback
def check(path):
    d = json.load(open(path))
    assert list(d) == ["filesystems"], list(d)
    num = ("time-min-epoch", "time-max-epoch", "s-time-max", "inode-size")
    for fs in d["filesystems"]:
        for k in num:
            if k in fs:
                # integers beyond 2^53 are decimal strings (fsaudit.8, JSON)
                assert (fs[k] is None or (type(fs[k]) is int and abs(fs[k]) < 2**53)
                        or (type(fs[k]) is str and abs(int(fs[k])) >= 2**53)), (k, fs[k])
        if "at-risk" in fs:
            assert type(fs["at-risk"]) is bool, fs["at-risk"]
        if "verdict" in fs:
            assert fs["verdict"] in ("ok", "2038-limited", "deprecated", "removed-from-mainline",
                                     "unknown"), fs["verdict"]
        if fs.get("removal") is not None:
            assert len(fs["removal"]) == 10 and fs["removal"][4] == "-", fs["removal"]
for path in sys.argv[1:]:
    try:
        check(path)
        why = "ok\n"
    except Exception:
        why = traceback.format_exc()
    open(path + ".valid", "w").write(why)
EOF
}
json_ok() { local v=; { read -r v <"$1.valid"; } 2>/dev/null; [ "$v" = ok ]; }

# The fuzz smoke test (every prober's libFuzzer target, FUZZ_SMOKE_RUNS
# runs) shares nothing with the others: it runs beside them from the start,
# its result is reported last.
fuzzpid=
if command -v "${CLANG:-clang}" >/dev/null && [ "${FSAUDIT_NO_FUZZ:-}" = "" ]; then
	(
		if make -s -C "$here" -j2 fuzz-build >"$tmp/fuzz.log" 2>&1; then
			make -s -C "$here" fuzz-smoke FUZZ_SMOKE_RUNS="${FUZZ_SMOKE_RUNS:-3000}" >"$tmp/fuzz.out" 2>&1
			echo $? >"$tmp/fuzz.rc"
		else
			echo build >"$tmp/fuzz.rc"
		fi
	) </dev/null &
	fuzzpid=$!
fi

ALLCOLS=SOURCE,TARGET,FSTYPE,FORMAT,VERSION,LABEL,INODE-SIZE,TIME-MIN,TIME-MAX,TIME-MIN-EPOCH,TIME-MAX-EPOCH,S-TIME-MAX,VERDICT,AT-RISK,DEPRECATED,SINCE,REMOVAL,KERNEL,REASON,REPLACEMENT,POLICY,REMEDY,NOTES

# ---------------------------------------------------------------- build
if [ -x "$bin" ]; then ok "fsaudit is built"; else notok "fsaudit is built"; fi

# ---------------------------------------------------------------- images
# mkimages.sh through imgcache.sh: made once per recipe (the script, the
# mkfs tools' versions) in build/test-images/, copied here (see $imgdir)
img=$tmp/img
"$here/tests/imgcache.sh" "$img" >"$tmp/images.txt" 2>"$tmp/images.err"
check "mkimages.sh makes the image matrix" $? "$tmp/images.err"
empty=$tmp/empty-root
mkdir -p "$empty"
cd "$img" || exit 2
py "$here/tests/imgsum.py" ./*.img >"$tmp/md5.before" 2>/dev/null

# ---------------------------------------------------------------- matrix
# every image's table and JSON first, then the JSON files in one valid_json
mkdir -p "$tmp/matrix"
while IFS="$(printf '\t')" read -r name status; do
	[ "$status" = ok ] || continue
	base=${name%.img}
	run_fsaudit "$tmp/matrix/$base.out" --sysroot "$empty" "$name"
	"$bin" --sysroot "$empty" -J -o "$ALLCOLS" "$name" >"$tmp/matrix/$base.json" 2>&1
done <"$tmp/images.txt"
if ls "$tmp/matrix/"*.json >/dev/null 2>&1; then valid_json "$tmp/matrix/"*.json 2>"$tmp/json.err"; fi
nskip=0
while IFS="$(printf '\t')" read -r name status; do
	base=${name%.img}
	if [ "$status" != ok ]; then
		skip "matrix table $base" "${status#skip: }"
		skip "matrix json $base" "${status#skip: }"
		nskip=$((nskip + 1))
		continue
	fi
	compare "matrix table $base" "$exp/matrix/$base.txt" "$tmp/matrix/$base.out"
	if json_ok "$tmp/matrix/$base.json"; then
		compare "matrix json $base" "$exp/matrix/$base.json" "$tmp/matrix/$base.json"
	else
		notok "matrix json $base (invalid JSON)" "$tmp/matrix/$base.json.valid"
	fi
done <"$tmp/images.txt"

if [ $nskip = 0 ]; then
	# shellcheck disable=SC2046
	run_fsaudit "$tmp/out" --sysroot "$empty" $(cut -f1 "$tmp/images.txt")
	compare "matrix: all images in one table" "$exp/matrix-all.txt" "$tmp/out"
	run_fsaudit "$tmp/out" --sysroot "$empty" -r -o SOURCE,FSTYPE,TIME-MAX-EPOCH,S-TIME-MAX,VERDICT $(cut -f1 "$tmp/images.txt")
	compare "matrix: raw epoch limits (oracle columns)" "$exp/matrix-raw.txt" "$tmp/out"
	run_fsaudit "$tmp/out" --sysroot "$empty" -R -o SOURCE,VERDICT $(cut -f1 "$tmp/images.txt")
	compare "matrix: --at-risk lists only filesystems at risk" "$exp/matrix-at-risk.txt" "$tmp/out"
else
	skip "matrix: all images in one table" "some mkfs tools missing"
	skip "matrix: raw epoch limits (oracle columns)" "some mkfs tools missing"
	skip "matrix: --at-risk lists only filesystems at risk" "some mkfs tools missing"
fi

EXTCOLS=SOURCE,FSTYPE,FORMAT,TIME-MAX,S-TIME-MAX,VERDICT,DEPRECATED,REMEDY,NOTES
run_fsaudit "$tmp/out" --sysroot "$empty" --ext2-driver=ext2 -o "$EXTCOLS" \
	ext2-256.img ext2-128.img ext2-rev0.img ext3-128.img ext4-256.img
compare "ext2 driver: ext2 images get 2038 and the ext2 item" "$exp/ext2-driver.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$empty" --ext2-driver=ext4 -o "$EXTCOLS" ext2-256.img ext2-rev0.img
compare "ext4 driver serves ext2: 2446 for 256-byte inodes" "$exp/ext4-driver.txt" "$tmp/out"

# ---------------------------------------------------------------- sysroots
# A: a machine with these devices mounted (see fixtures/basic.mountinfo)
mkroot() {
	local r=$1
	mkdir -p "$r/dev" "$r/sys/dev/block"
	ln -sf ../../img/ext4-128.img "$r/dev/vda1"
	ln -sf ../../img/xfs-v5-nobig.img "$r/dev/vdb"
	ln -sf ../../img/reiserfs-3.6.img "$r/dev/vdc"
	ln -sf ../../img/ext2-256.img "$r/dev/vdd"
	ln -sf ../../img/vfat16.img "$r/dev/vde"
	ln -sf ../../img/btrfs.img "$r/dev/vdf"
	ln -sf ../../img/xfs-v4.img "$r/dev/vdg"
	ln -sf ../../devices/virtual/block/vdg "$r/sys/dev/block/254:0"
}
rA=$tmp/rootA
mkroot "$rA"
MCOLS=SOURCE,TARGET,FSTYPE,FORMAT,TIME-MAX,S-TIME-MAX,VERDICT,DEPRECATED,SINCE,REMOVAL,POLICY,NOTES
run_fsaudit "$tmp/out" --sysroot "$rA" --mountinfo "$fix/basic.mountinfo" -o "$MCOLS"
compare "mounted: fixture mountinfo, stock kernel" "$exp/mount-basic.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$rA" -F "$fix/basic.mountinfo"
compare "mounted: default columns" "$exp/mount-default.txt" "$tmp/out"
"$bin" --sysroot "$rA" --mountinfo "$fix/basic.mountinfo" -J -o "$ALLCOLS" >"$tmp/out.json" 2>&1
valid_json "$tmp/out.json" 2>"$tmp/json.err"
if json_ok "$tmp/out.json"; then
	compare "mounted: JSON" "$exp/mount-basic.json" "$tmp/out.json"
else
	notok "mounted: JSON (invalid)" "$tmp/out.json.valid"
fi
mkdir -p "$rA/proc/self"
cp "$fix/basic.mountinfo" "$rA/proc/self/mountinfo"
run_fsaudit "$tmp/out" --sysroot "$rA" -o "$MCOLS"
compare "mounted: <sysroot>/proc/self/mountinfo without --mountinfo" "$exp/mount-basic.txt" "$tmp/out"

# B: the same with the kernel series (/sys/fs/deprecated) and ext4 serving ext2
rB=$tmp/rootB
mkroot "$rB"
mkdir -p "$rB/sys/fs/ext4/vdd"
item() {
	local d=$rB/sys/fs/deprecated/$1
	mkdir -p "$d"
	printf '%s\n' "$2" >"$d/since"; printf '%s\n' "$3" >"$d/removal"
	printf '%s\n' "$4" >"$d/reason"; printf '%s\n' "$5" >"$d/replacement"
	printf '%s\n' "$6" >"$d/policy"
	printf '0\n' >"$d/mounts"; printf '0\n' >"$d/refused"; printf '1\n' >"$d/active"
}
item reiserfs 2022-05-22 2025-01-19 "kernel says: unmaintained" "kernel says: copy to ext4" deny
item xfs-v4 2020-09-01 2030-09-30 "kernel says: V4" "kernel says: mkfs.xfs" ro
item ext4-small-inodes 2025-01-01 "" "kernel says: 2038" "kernel says: tune2fs -I 256" warn
item ext2 2024-03-01 "" "kernel says: ext2 driver" "kernel says: use ext4" default
run_fsaudit "$tmp/out" --sysroot "$rB" -F "$fix/basic.mountinfo" -o "$MCOLS,REASON,REPLACEMENT"
compare "mounted: kernel with /sys/fs/deprecated, ext4 serves ext2" "$exp/mount-series.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$rB" --ext2-driver=ext4 -o SOURCE,FORMAT,TIME-MAX-EPOCH,S-TIME-MAX,VERDICT,NOTES ext2-rev0.img
compare "series kernel: revision 0 clamps at 2038 (s_time_max S32_MAX)" "$exp/series-rev0.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$rB" -o SOURCE,FSTYPE,TIME-MAX,VERDICT,DEPRECATED ext2-256.img
compare "series kernel with /sys/fs/deprecated/ext2: unmounted ext2 uses the ext2 driver" "$exp/series-ext2.txt" "$tmp/out"

# C: --all adds unmounted block devices from <sysroot>/sys/block
rC=$tmp/rootC
mkroot "$rC"
truncate -s 1M "$tmp/img/zero.raw"
blk() {	# blk NAME MAJ:MIN IMAGE [PARENT]
	local d=$rC/sys/block/$1
	if [ -n "${4:-}" ]; then
		d=$rC/sys/block/$4/$1
		mkdir -p "$d"
		: >"$d/partition"
	else
		mkdir -p "$d"
	fi
	echo "$2" >"$d/dev"
	ln -sf "../../img/$3" "$rC/dev/$1"
}
blk vda 254:192 zero.raw
blk vda1 254:1 ext4-128.img vda
blk vdb 254:16 xfs-v5-nobig.img
blk vdh 254:112 xfs-v4-ci.img
blk vdi 254:128 zero.raw
blk vdj 254:144 ext4-256.img
blk sr0 11:0 no-medium		# empty drive: size 0, skipped, no error
echo 0 >"$rC/sys/block/sr0/size"
run_fsaudit "$tmp/out" --sysroot "$rC" -F "$fix/basic.mountinfo" --all -o SOURCE,TARGET,FSTYPE,FORMAT,VERDICT
compare "--all: mounted plus unmounted block devices with a filesystem" "$exp/mount-all.txt" "$tmp/out"

run_fsaudit "$tmp/out" --sysroot "$rA" -F "$fix/missing.mountinfo" -o SOURCE,TARGET,VERDICT,NOTES
compare "mounted: a missing device is an error (exit 2)" "$exp/mount-missing.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$rA" -F "$fix/garbage.mountinfo"
sed -i "s|$fix/||" "$tmp/out"
compare "mounted: unparsable mount table" "$exp/mount-garbage.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$rA" -F "$tmp/no-such-mountinfo"
sed -i "s|$tmp/||" "$tmp/out"
compare "mounted: missing mount table file is an internal error (exit 4)" "$exp/mount-nofile.txt" "$tmp/out"

"$bin" >"$tmp/out" 2>&1
rc=$?
[ $rc -le 2 ]
check "real system: no arguments runs (exit $rc)" $? "$tmp/out"

# ---------------------------------------------------------------- corrupt
# Every damaged copy of this section and of the sanitizers' (corrupt images,
# the hostile label, random damage) is made by one corrupt.py run (--batch,
# one job per line: a Python start each cost more than the tests); the
# cases below only list them, then each case runs fsaudit on its copies.
TAB=$(printf '\t')
: >"$tmp/corrupt.jobs"
job() { local IFS=$TAB; echo "$*" >>"$tmp/corrupt.jobs"; }
# case NAME IMAGE TYPE OP ARGS...: damaged copy, probed through libblkid
# and with -t TYPE (straight to the prober)
ccases=()
ccase() { local IFS=$TAB; ccases+=("$*"); [ ! -f "$2" ] || job "$2" "c-$1" "${@:4}"; }
ccase_run() {
	local cname=$1 src=$2 type=$3; shift 3
	if [ ! -f "$src" ]; then echo "$cname: image missing" >>"$tmp/corrupt.out"; return; fi
	[ -f "c-$cname" ] || { echo "$cname: corrupt.py failed" >>"$tmp/corrupt.out"; return; }
	{
		printf '%s\n' "== $cname ($*)"
		"$bin" --sysroot "$empty" -n -o FSTYPE,VERDICT,NOTES "c-$cname" 2>&1; echo "blkid rc=$?"
		"$bin" --sysroot "$empty" --force-type "$type" -n -o FSTYPE,VERDICT,NOTES "c-$cname" 2>&1; echo "--force-type rc=$?"
	} >>"$tmp/corrupt.out"
}
ccase ext-trunc ext4-256.img ext4 trunc 1500
ccase ext-zero ext4-256.img ext4 zero 1024 1024
ccase ext-rev7 ext4-256.img ext4 set 1024+0x4C '<I' 7
ccase ext-isize100 ext4-256.img ext4 set 1024+0x58 '<H' 100
ccase ext-isize8192 ext4-256.img ext4 set 1024+0x58 '<H' 8192
ccase ext-logbs30 ext4-256.img ext4 set 1024+0x18 '<I' 30
ccase ext-noinodes ext4-256.img ext4 set 1024+0x00 '<I' 0
ccase ext-rev0-isize ext2-rev0.img ext2 set 1024+0x58 '<H' 1
ccase ext-jbd-flag ext4-256.img ext4 set 1024+0x60 '<I' 0x8
ccase xfs-trunc xfs-v5.img xfs trunc 100
ccase xfs-bsize xfs-v4.img xfs set 4 '>I' 3000
ccase xfs-version6 xfs-v4.img xfs set 0x64 '>H' 0xb4a6
ccase xfs-inprogress xfs-v4.img xfs set 0x7E B 1
ccase xfs-agcount0 xfs-v4.img xfs set 0x58 '>I' 0
ccase xfs-isize xfs-v4.img xfs set 0x68 '>H' 65535
ccase reiserfs-trunc reiserfs-3.6.img reiserfs trunc 65636
ccase reiserfs-bsize reiserfs-3.6.img reiserfs set 65536+0x2C '<H' 1000
ccase reiserfs-count0 reiserfs-3.6.img reiserfs set 65536+0 '<I' 0
ccase reiserfs-root reiserfs-3.6.img reiserfs set 65536+8 '<I' 0xffffffff
ccase reiserfs-version7 reiserfs-3.6.img reiserfs set 65536+0x48 '<H' 7
ccase minix-v3-bsize minix3.img minix set 1024+0x1C '<H' 3
ccase minix-imap0 minix1.img minix set 1024+4 '<H' 0
ccase minix-bigendian minix1.img minix set 1024+0x10 '>H' 0x138F
ccase vfat-ssize vfat16.img vfat set 0x0B '<H' 100
ccase vfat-spc3 vfat16.img vfat set 0x0D B 3
ccase vfat-nofat vfat16.img vfat set 0x10 B 0
ccase vfat-media vfat16.img vfat set 0x15 B 0x12
ccase vfat-fatlen0 vfat32.img vfat set 0x24 '<I' 0
ccase exfat-ssbits exfat.img exfat set 0x6C B 20
ccase exfat-fats3 exfat.img exfat set 0x6E B 3
ccase exfat-mbz exfat.img exfat set 0x20 B 1
ccase btrfs-trunc btrfs.img btrfs trunc 65600
ccase btrfs-ssize btrfs.img btrfs set 65536+0x90 '<I' 1000
ccase btrfs-nsize btrfs.img btrfs set 65536+0x94 '<I' 0x100000
ccase btrfs-bytenr btrfs.img btrfs set 65536+0x30 '<Q' 0
ccase f2fs-logbs f2fs.img f2fs set 1024+0x10 '<I' 13
ccase f2fs-logss f2fs.img f2fs set 1024+0x08 '<I' 8
ccase jfs-version jfs.img jfs set 32768+4 '<I' 9
ccase jfs-bsize jfs.img jfs set 32768+16 '<I' 512
ccase nilfs2-rev nilfs2.img nilfs2 set 1024 '<I' 3
ccase nilfs2-logbs nilfs2.img nilfs2 set 1024+0x14 '<I' 20
ccase nilfs2-bytes nilfs2.img nilfs2 set 1024+8 '<H' 5000
ccase udf-novrs udf.img udf zero 32768 8192
ccase udf-trunc udf.img udf trunc 34000
ccase iso-bsize iso9660.img iso9660 set 32768+128 '<H' 4096
ccase iso-nopvd iso9660.img iso9660 zero 32768 1
ccase squashfs-major squashfs.img squashfs set 28 '<H' 3
ccase squashfs-bsize squashfs.img squashfs set 12 '<I' 1000
ccase squashfs-blog squashfs.img squashfs set 22 '<H' 5
ccase squashfs-used squashfs.img squashfs set 40 '<Q' 0x10000000000
ccase ntfs-bps ntfs.img ntfs set 0x0B '<H' 100
ccase ntfs-fats ntfs.img ntfs set 0x10 B 1
ccase ntfs-spc ntfs.img ntfs set 0x0D B 200
ccase hfs-blksize hfs.img hfs set 1024+0x14 '>I' 100
ccase hfs-embed hfs.img hfs set 1024+0x7C '>H' 0x482b
ccase hfs-embed-far hfs.img hfs set 1024+0x7E '>H' 0xffff
ccase bfs-start bfs.img bfs set 4 '<I' 0xffffffff
ccase bfs-end bfs.img bfs set 8 '<I' 0x7fffffff
ccase cramfs-size cramfs.img cramfs set 4 '<I' 0x40000000
ccase cramfs-sig cramfs.img cramfs set 16 B 0
ccase romfs-small romfs.img romfs set 8 '>I' 5
ccase romfs-big romfs.img romfs set 8 '>I' 0x40000000
ccase erofs-bits erofs.img erofs set 1024+12 B 20
ccase erofs-blocks0 erofs.img erofs set 1024+0x24 '<I' 0
ccase ufs-bsize ufs1.img ufs set 8192+48 '<I' 100
ccase ufs-ncg0 ufs1.img ufs set 8192+44 '<I' 0
ccase ufs-fsize ufs1.img ufs set 8192+52 '<I' 0
ccase ocfs2-bits ocfs2.img ocfs2 set 2048+0xF8 '<I' 12
ccase ocfs2-cbits ocfs2.img ocfs2 set 2048+0xFC '<I' 40
ccase ocfs2-sig ocfs2.img ocfs2 zero 2048 8
ccase gfs2-format gfs2.img gfs2 set 65536+0x18 '>I' 1803
ccase gfs2-bsize gfs2.img gfs2 set 65536+0x24 '>I' 1000
ccase gfs2-trunc gfs2.img gfs2 trunc 65560
ccase reiserfs36-std-bsize reiserfs-3.6-std.img reiserfs set 65536+0x2C '<H' 3

# a label with a terminal escape sequence (the test follows the corrupt images)
job ext4-256.img c-label set 1024+0x78 '<Q' 0x6d31335b1b41

# random damage: every image, 25 copies with 16 random bytes each, cut to
# the probed area; any exit status but 0/1 (or a signal) fails
flipcases=()
flips() { local IFS=$TAB; flipcases+=("$*"); [ ! -f "$1" ] || job "$1" "f-${1%.img}" flips 42 25 16 "$3"; }
flips_run() {	# flips IMAGE TYPE RANGE
	local base=${1%.img} f
	[ -f "$1" ] || { skip "random damage $base" "no image"; return; }
	"$bin" --sysroot "$empty" -o VERDICT f-"$base".* >"$tmp/flip.out" 2>&1
	local r1=$?
	"$bin" --sysroot "$empty" --force-type "$2" -o VERDICT f-"$base".* >>"$tmp/flip.out" 2>&1
	local r2=$?
	[ $r1 -le 1 ] && [ $r2 -le 1 ]
	check "random damage $base (exit $r1/$r2)" $? "$tmp/flip.out"
}
flips ext4-128.img ext4 4096
flips ext2-rev0.img ext2 4096
flips xfs-v4.img xfs 4096
flips xfs-v5.img xfs 4096
flips reiserfs-3.5.img reiserfs 70000
flips reiserfs-3.6.img reiserfs 70000
flips minix3.img minix 4096
flips vfat16.img vfat 4096
flips exfat.img exfat 4096
flips btrfs.img btrfs 70000
flips f2fs.img f2fs 4096
flips jfs.img jfs 40960
flips nilfs2.img nilfs2 4096
flips udf.img udf 49152
flips iso9660.img iso9660 49152
flips squashfs.img squashfs 4096
flips ntfs.img ntfs 4096
flips hfs.img hfs 4096
flips bfs.img bfs 4096
flips cramfs.img cramfs 4096
flips romfs.img romfs 4096
flips erofs.img erofs 4096
flips ufs1.img ufs 16384
flips ocfs2.img ocfs2 12288
flips gfs2.img gfs2 70000
flips reiserfs-3.6-std.img reiserfs 70000

# the sanitizers' inputs (below), and admin.sh's label that is not UTF-8
job ext4-128.img a-ext flips 7 20 32 4096
job xfs-v4.img a-xfs flips 7 20 32 4096
job reiserfs-3.6.img a-rfs flips 7 20 32 70000
job ext4-256.img c-utf8 set 1024+0x78 '<Q' 0x41c328ff80fe61

py "$here/tests/corrupt.py" --batch "$tmp/corrupt.jobs" 2>"$tmp/corrupt.err"
: >"$tmp/corrupt.out"
cfiles=()
for c in "${ccases[@]}"; do
	IFS=$TAB read -r -a a <<<"$c"
	ccase_run "${a[@]}"
	cfiles+=("c-${a[0]}")
done
rm -f "${cfiles[@]}"
if [ $nskip = 0 ]; then
	compare "corrupt images: truncated, zeroed and hostile fields give unknown, never a crash" "$exp/corrupt.txt" "$tmp/corrupt.out"
else
	skip "corrupt images" "some mkfs tools missing"
fi

# a label with a terminal escape sequence must not reach the terminal raw
"$bin" --sysroot "$empty" -o SOURCE,LABEL c-label >"$tmp/out" 2>&1
"$bin" --sysroot "$empty" -r -o SOURCE,LABEL c-label >>"$tmp/out" 2>&1
"$bin" --sysroot "$empty" -P -o SOURCE,LABEL c-label >>"$tmp/out" 2>&1
"$bin" --sysroot "$empty" -J -o SOURCE,LABEL c-label >>"$tmp/out" 2>&1
! grep -q "$(printf '\033')" "$tmp/out"
check "hostile label: no raw control characters in table, raw, pairs or JSON output" $? "$tmp/out"
rm -f c-label

# random damage (the copies listed above)
for c in "${flipcases[@]}"; do
	IFS=$TAB read -r -a a <<<"$c"
	flips_run "${a[@]}"
done
rm -f f-*

# ---------------------------------------------------------------- read-only
py "$here/tests/imgsum.py" ./*.img >"$tmp/md5.after" 2>/dev/null
cmp -s "$tmp/md5.before" "$tmp/md5.after"
check "images are unchanged after all runs (read-only)" $?

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	asuser() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	chmod 755 "$img"; chmod 644 ext4-128.img
	asuser "$bin" --sysroot "$empty" -n -o SOURCE,VERDICT ext4-128.img >"$tmp/out" 2>&1
	rc=$?
	[ $rc = 1 ] && grep -q '2038-limited' "$tmp/out"
	check "unprivileged user on a readable image (exit $rc)" $? "$tmp/out"
	chmod 600 ext4-128.img
	asuser "$bin" --sysroot "$empty" -n -o SOURCE,VERDICT,NOTES ext4-128.img >"$tmp/out" 2>&1
	rc=$?
	[ $rc = 2 ] && grep -q 'Permission denied' "$tmp/out"
	check "unprivileged user on an unreadable image: exit 2 (exit $rc)" $? "$tmp/out"
	chmod 644 ext4-128.img
	# mounted filesystems on devices the user may not read
	rD=$tmp/rootD
	mkdir -p "$rD/dev" "$tmp/priv"
	for i in btrfs vfat16 ext4-128 reiserfs-3.6; do
		cp --sparse=always "$i.img" "$tmp/priv/$i.img"; chmod 600 "$tmp/priv/$i.img"
	done
	ln -s ../../priv/ext4-128.img "$rD/dev/vda1"
	ln -s ../../priv/reiserfs-3.6.img "$rD/dev/vdc"
	ln -s ../../priv/vfat16.img "$rD/dev/vde"
	ln -s ../../priv/btrfs.img "$rD/dev/vdf"
	grep -E ' /dev/(vda1|vdc|vde|vdf) ' "$fix/basic.mountinfo" >"$tmp/priv.mountinfo"
	chmod 755 "$tmp/priv" "$rD" "$rD/dev"; chmod 644 "$tmp/priv.mountinfo"
	asuser "$bin" --sysroot "$rD" -F "$tmp/priv.mountinfo" -o SOURCE,FSTYPE,TIME-MAX,VERDICT,NOTES >"$tmp/out" 2>&1
	echo "rc=$?" >>"$tmp/out"
	compare "unprivileged, mounted: type-only limits where the superblock is not needed" "$exp/mount-unreadable.txt" "$tmp/out"
else
	skip "unprivileged user on a readable image" "needs root and setpriv"
	skip "unprivileged user on an unreadable image" "needs root and setpriv"
	skip "unprivileged, mounted: type-only limits" "needs root and setpriv"
fi

# ---------------------------------------------------------------- exit status and options
st() {	# st NAME EXPECTED-RC ARGS...
	local name=$1 want=$2; shift 2
	"$bin" "$@" >"$tmp/out" 2>&1
	local rc=$?
	[ "$rc" = "$want" ]
	check "exit status $want: $name (got $rc)" $? "$tmp/out"
}
st "nothing at risk" 0 --sysroot "$empty" ext4-256.img xfs-v5.img btrfs.img
st "one filesystem at risk" 1 --sysroot "$empty" ext4-256.img ext4-128.img
st "unknown filesystem is not at risk" 0 --sysroot "$empty" swap.img
st "unreadable source" 2 --sysroot "$empty" no-such-file.img
st "unreadable source wins over at risk" 2 --sysroot "$empty" ext4-128.img no-such-file.img
grep ' / / ' "$fix/basic.mountinfo" >"$tmp/root.mountinfo"
st "a directory: the filesystem it is on, whose device is missing" 2 --sysroot "$empty" -F "$tmp/root.mountinfo" --force-type ext4 .
st "unknown option" 3 --no-such-option
st "unknown column" 3 -o SOURCE,NOPE ext4-256.img
st "empty column list" 3 -o "" ext4-256.img
st "--json with --raw" 3 -J -r ext4-256.img
st "--all with arguments" 3 --all ext4-256.img
st "bad --ext2-driver" 3 --ext2-driver=ext3 ext4-256.img
st "--force-type without a prober" 3 --force-type swap swap.img
st "--types with an empty entry" 3 -t ext4,,xfs ext4-256.img
st "--sort by an unknown column" 3 --sort NOPE ext4-256.img
st "--time-format bad" 3 --time-format=local ext4-256.img
st "--policy bad mode" 3 --policy=strict ext4-256.img
st "--policy unknown item" 3 --policy=ext3:deny ext4-256.img
st "--policy empty entry" 3 --policy=warn, ext4-256.img
st "--kernel-config missing file" 2 --kernel-config /nonexistent ext4-256.img
st "--kernel-config not a configuration" 2 --kernel-config /etc/hostname ext4-256.img
st "--mountinfo missing file" 2 --sysroot "$empty" -F /nonexistent
st "--fstab missing file" 2 --sysroot "$empty" --fstab=/nonexistent
st "--all with --fstab" 3 --all --fstab
st "--udev with --json" 3 --udev ext4-256.img -J
st "a character device is not a source" 2 /dev/null
st "nothing audited: unreadable only, even with --unreadable-unknown" 2 --sysroot "$empty" --unreadable-unknown no-such.img
st "missing option argument" 3 -o
st "--help" 0 --help
st "--version" 0 --version
st "--list-columns" 0 --list-columns

"$bin" --help >"$tmp/help" 2>&1
"$bin" --list-columns >"$tmp/cols" 2>&1
miss=0
for c in $(awk '{print $1}' "$tmp/cols"); do
	grep -q -- " $c " "$tmp/help" || { echo "--help lacks $c"; miss=1; }
	grep -qxF -- ".B $(printf '%s' "$c" | sed 's/-/\\-/g')" "$here/fsaudit.8" || { echo "fsaudit.8 lacks $c"; miss=1; }
done >"$tmp/miss"
check "every column is in --help and in fsaudit.8" $miss "$tmp/miss"
for o in all at-risk json pairs raw noheadings output list-columns types mountinfo sysroot ext2-driver help version \
	width notruncate summary quiet prometheus unreadable-unknown kernel-config force-type fstab policy udev sort \
	time-format list-types; do
	grep -q -- "--$o" "$tmp/help" || echo "--help lacks --$o"
	grep -qF -- "$(printf -- '--%s' "$o" | sed 's/-/\\-/g')" "$here/fsaudit.8" || echo "fsaudit.8 lacks --$o"
done >"$tmp/miss"
[ ! -s "$tmp/miss" ]
check "every long option is in --help and in fsaudit.8" $? "$tmp/miss"
"$bin" --version | grep -q '^fsaudit from fsdeprecate'
check "--version names the program" $?
run_fsaudit "$tmp/out" --sysroot "$empty" -P -o SOURCE,TIME-MAX-EPOCH,VERDICT ext4-128.img xfs-v5.img
compare "--pairs output" "$exp/pairs.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$empty" -n -o source,time_max_epoch ext4-128.img
compare "-o accepts lower case and underscores" "$exp/lowercase.txt" "$tmp/out"

if command -v groff >/dev/null; then
	groff -t -man -ww -z -Tutf8 "$here/fsaudit.8" >"$tmp/man" 2>&1
	[ ! -s "$tmp/man" ]
	check "fsaudit.8 formats without warnings" $? "$tmp/man"
else
	skip "fsaudit.8 formats without warnings" "groff not installed"
fi

# ---------------------------------------------------------------- sanitizers
# the whole tool under ASan/UBSan on the corrupt and damaged images; the
# build is build/fsaudit-asan, remade by make when a source changes.  When
# it fails, a probe tells a compiler without the sanitizer runtime (skip)
# from a broken build (failure).
asan=
if [ "${FSAUDIT_NO_ASAN:-}" != "" ]; then
	asan_skip=1
elif make -s -C "$here" CC=gcc fsaudit-asan >"$tmp/asan.log" 2>&1 && [ -x "$here/build/fsaudit-asan" ]; then
	asan_skip=0 asan=$here/build/fsaudit-asan
elif echo 'int main(void){return 0;}' | gcc -fsanitize=address,undefined -x c -o "$tmp/asan-probe" - 2>/dev/null; then
	asan_skip=0
else
	asan_skip=1
fi
# asan_check NAME ARG...: the ASan/UBSan build with ARGs exits 0 or 1 and
# reports nothing (leaks included)
asan_check() {
	local name=$1 rc
	shift
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 "$asan" "$@" >"$tmp/asan.out" 2>&1
	rc=$?
	[ $rc -le 1 ] && ! grep -q -E 'Sanitizer|runtime error' "$tmp/asan.out"
	check "$name (exit $rc)" $? "$tmp/asan.out"
}
if [ $asan_skip = 1 ]; then
	skip "ASan/UBSan build on every image and damaged copies" "no sanitizer runtime"
	skip "ASan/UBSan build on the mount table fixtures" "no sanitizer runtime"
elif [ -n "$asan" ]; then
	# a-ext.*, a-xfs.*, a-rfs.*: made with the corrupt images
	asan_check "ASan/UBSan build on every image and damaged copies" \
		--sysroot "$empty" -J -o "$ALLCOLS" ./*.img a-*
	asan_check "ASan/UBSan build on the mount table fixtures" \
		--sysroot "$rC" -F "$fix/basic.mountinfo" --all -J
else
	notok "ASan/UBSan build" "$tmp/asan.log"
fi
rm -f a-*

# ---------------------------------------------------------------- issue 15
# shellcheck source=tests/admin.sh
. "$here/tests/admin.sh"

# ---------------------------------------------------------------- fuzz smoke
# (started in the background above; its result here)
if [ -n "$fuzzpid" ]; then
	wait "$fuzzpid"
	case $(cat "$tmp/fuzz.rc" 2>/dev/null) in
	build) notok "fuzz smoke: build" "$tmp/fuzz.log" ;;
	0) ok "fuzz smoke: every prober's libFuzzer target, no crash" ;;
	*) notok "fuzz smoke: every prober's libFuzzer target, no crash" "$tmp/fuzz.out" ;;
	esac
else
	skip "fuzz smoke" "clang not installed"
fi

# ---------------------------------------------------------------- report
tap_report
