# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
#
# tests/admin.sh - sourced by tests/run.sh from the image directory (issue
# 15): terminal width, shell-safe remedies, partitioned images, directory
# arguments, JSON encoding, summary and quiet mode, kernel configuration,
# Prometheus output with promtool and a real node_exporter.
# Uses run.sh's helpers and variables ($bin, $tmp, $exp, $fix, $empty, $rA, $rB).

# ---------------------------------------------------------------- width
# The mounted fixture of root A plus images, at a terminal of 60, 80, 120
# and 200 columns (a pty: script(1)) and with -w: no line wider than the
# width, every SOURCE, TARGET, FSTYPE and FORMAT whole on one line, the
# remedies numbered under the table.
WARGS="--sysroot $rA -F $fix/basic.mountinfo"
WIMGS=
if command -v script >/dev/null; then
	for w in 60 80 120 200; do
		# shellcheck disable=SC2086
		script -qec "stty cols $w rows 40 2>/dev/null; '$bin' $WARGS $WIMGS" /dev/null >"$tmp/tty" 2>&1
		tr -d '\r' <"$tmp/tty" >"$tmp/width-$w.out"
		compare "at a terminal of $w columns (pty): the table, the numbered remedies, the summary" "$exp/width-$w.txt" "$tmp/width-$w.out"
	done
	# shellcheck disable=SC2086
	"$bin" $WARGS -J -o SOURCE,TARGET,FSTYPE,FORMAT $WIMGS >"$tmp/facts.json" 2>/dev/null
	for w in 60 80 120 200; do
		# shellcheck disable=SC2086
		"$bin" $WARGS -w $w $WIMGS >"$tmp/width-w$w.out" 2>&1
	done
	py - "$tmp" <<'EOF' >"$tmp/width.log" 2>&1
import json, sys
tmp = sys.argv[1]
facts = json.load(open(tmp + "/facts.json"))["filesystems"]
bad = 0
for w in (60, 80, 120, 200):
    for f in ("width-%d.out" % w, "width-w%d.out" % w):
        text = open(tmp + "/" + f).read()
        lines = text.split("\n")
        for l in lines:
            if len(l) > w:
                print(f, "line wider than", w, ":", repr(l)); bad = 1
        for fs in facts:
            for k in ("source", "target", "fstype", "format"):
                v = fs.get(k)
                if v and not any(v in l for l in lines):
                    print(f, k, repr(v), "not whole on a line"); bad = 1
        if "[1]" not in text:
            print(f, "no numbered remedy"); bad = 1
print("checked")
sys.exit(bad)
EOF
	check "60/80/120/200 columns, pty and -w: no line too wide, SOURCE/TARGET/FSTYPE/FORMAT never cut" $? "$tmp/width.log"
	script -qec "'$bin' --sysroot '$empty' -q xfs-v4.img" /dev/null >"$tmp/tty" 2>&1
	[ ! -s "$tmp/tty" ]
	check "at a terminal, -q prints nothing (no automatic summary)" $? "$tmp/tty"
else
	skip "at a terminal of 60/80/120/200 columns" "script(1) not installed"
fi
run_fsaudit "$tmp/out" --sysroot "$empty" -w 60 -u -o SOURCE,VERDICT,REMEDY xfs-v4.img
compare "-u with -w 60: one line per filesystem, remedy lines not wrapped" "$exp/width-notruncate.txt" "$tmp/out"
"$bin" --sysroot "$empty" ext4-128.img xfs-v4.img >"$tmp/a" 2>&1
"$bin" --sysroot "$empty" -w 400 ext4-128.img xfs-v4.img >"$tmp/b" 2>&1
cmp -s "$tmp/a" "$tmp/b" && [ "$(sed '/^$/q' "$tmp/a" | grep -c .)" = 3 ]
check "not a terminal: one table line per filesystem, as wide as the data" $? "$tmp/a"
st "--width 0" 3 -w 0 ext4-256.img
st "--width abc" 3 --width abc ext4-256.img

# ---------------------------------------------------------------- remedies
# copies under hostile names; every remedy must give the name back through sh
mkdir -p names
hostile=("a b.img" "it's.img" '$HOME.img' 'back`id`tick.img' "$(printf 'new\nline.img')" "-x.img" 'semi;colon&amp|pipe.img' '~tilde.img' "back\\slash\"dq.img" "plain.img")
: >"$tmp/names.args"
for nm in "${hostile[@]}"; do
	for src in ext3-128 ext2-rev0 xfs-v5-nobig; do
		cp --sparse=always "$src.img" "names/${nm%.img}.$src.img"
	done
done
(cd names && "$bin" --sysroot "$empty" -J -o SOURCE,REMEDY -- * >"$tmp/names.json" 2>"$tmp/names.err")
(cd names && "$bin" --sysroot "$empty" -w 100 -- * >"$tmp/names.table" 2>>"$tmp/names.err")
py - "$tmp/names.json" "$tmp/names.txt" "$tmp/names.table" <<'EOF' >"$tmp/names.log" 2>&1
import json, re, subprocess, sys
d = json.load(open(sys.argv[1]))["filesystems"]
out = open(sys.argv[2], "w")
table = open(sys.argv[3]).read()
bad = 0
n = 0
for fs in d:
    src, rem = fs["source"], fs["remedy"]
    words = []
    for line in rem.split("\n"):
        m = re.match(r"(?:tune2fs -O large_file|tune2fs -I 256|xfs_admin -O bigtime=1|xfs_repair -o force_geometry -c bigtime=1|e2fsck -f -p|mkfs\.ext4 -F -I 256(?: -U \S+)?) (.+)$", line)
        if m:
            words.append(m.group(1))
        if any(ord(c) < 32 or ord(c) == 127 for c in line):
            print("control character in a remedy line:", repr(line)); bad = 1
        # the same line, whole, in the table: remedies are printable text
        if len(line) < 90 and line not in table:
            print("remedy line not in the table:", repr(line)); bad = 1
    if not words:
        print("no name in remedy:", repr(src), repr(rem)); bad = 1; continue
    for w in words:
        n += 1
        got = subprocess.run(["bash", "-c", "printf '%s\\n' " + w], capture_output=True).stdout.decode("utf-8", "surrogateescape")[:-1]
        want = ("./" + src) if src.startswith("-") else src
        out.write(repr(src) + " -> " + w + "\n")
        if got != want:
            print("round trip failed:", repr(src), repr(w), repr(got)); bad = 1
print(n, "names checked")
sys.exit(bad)
EOF
check "remedies: every name (spaces, quotes, \$, backticks, newline, leading -, ;&|, ~, backslash) round-trips through bash, printable in JSON and the table" $? "$tmp/names.log"
sed -i 's/^/# /' "$tmp/names.txt"
sort "$tmp/names.txt" >"$tmp/names.sorted"
compare "remedies: quoted names" "$exp/remedy-quoting.txt" "$tmp/names.sorted"
rm -rf names

# ---------------------------------------------------------------- partitioned images
mkdir -p parts
cp --sparse=always ext4-128.img ext4-256.img xfs-v4.img vfat16.img ext2-rev0.img reiserfs-3.6.img parts/
if command -v sfdisk >/dev/null && (cd parts && py "$here/tests/mkparts.py" . >"$tmp/parts.list" 2>"$tmp/parts.err"); then
	ok "mkparts.py makes partitioned images with sfdisk (GPT, MBR, hostile tables)"
	cd parts || exit 2
	PCOLS=SOURCE,FSTYPE,FORMAT,TIME-MAX,VERDICT,REMOVAL,REMEDY,NOTES
	run_fsaudit "$tmp/out" --sysroot "$empty" -o "$PCOLS" gpt.img mbr.img gpt-ok.img
	compare "partitions: GPT and MBR (extended, logical) images, every partition as IMAGE:pN" "$exp/partitions.txt" "$tmp/out"
	"$bin" --sysroot "$empty" -J -o "$ALLCOLS" gpt.img mbr.img >"$tmp/out.json" 2>&1
	valid_json "$tmp/out.json" 2>"$tmp/json.err"
	json_ok "$tmp/out.json"
	check "partitions: valid JSON" $? "$tmp/out.json.valid"
	st "partitions: an all-ok disk image" 0 --sysroot "$empty" gpt-ok.img
	st "partitions: a 2038-limited partition makes the image at risk" 1 --sysroot "$empty" gpt-ok.img gpt.img
	st "partitions: -R lists the risky partitions" 1 --sysroot "$empty" -R mbr.img
	"$bin" --sysroot "$empty" -R -n -o SOURCE mbr.img >"$tmp/out" 2>&1
	[ "$(tr '\n' ' ' <"$tmp/out")" = "mbr.img:p5 mbr.img:p6 " ]
	check "partitions: -R lists only mbr.img:p5 and p6" $? "$tmp/out"
	{
		"$bin" --sysroot "$empty" -r -n -o SOURCE,VERDICT mbr.img:p5 gpt.img:p2 mbr.img mbr.img:p5; echo "rc=$?"
		"$bin" --sysroot "$empty" -r -n -o SOURCE,VERDICT,NOTES gpt.img:p99 ext4-256.img:p1 2>&1; echo "rc=$?"
		"$bin" --sysroot "$empty" -J -o SOURCE,REMEDY mbr.img:p5 2>&1
	} >"$tmp/out" 2>&1
	compare "partitions: IMAGE:pN as an argument (each partition once), a missing one is an error; the remedy attaches and detaches" "$exp/partitions-args.txt" "$tmp/out"
	run_fsaudit "$tmp/out" --sysroot "$empty" -o SOURCE,FSTYPE,VERDICT,NOTES \
		mbr-pastend.img mbr-startpast.img mbr-overlap.img mbr-zero.img mbr-huge.img mbr-loop.img gpt-badprimary.img gpt-badboth.img
	compare "partitions: past the end, starting past the end, overlapping, size 0, huge, looping EBR, damaged GPT headers" "$exp/partitions-hostile.txt" "$tmp/out"
	"$bin" --sysroot "$empty" -n -o SOURCE,VERDICT gpt-many.img >"$tmp/out" 2>&1
	rc=$?
	[ $rc = 0 ] && [ "$(wc -l <"$tmp/out")" = 128 ] && grep -q '^gpt-many.img:p128 ' "$tmp/out"
	check "partitions: 128 GPT partitions, each reported (exit $rc)" $? "$tmp/out"
	# random damage in the partition tables (first 34 and last 33 sectors),
	# and the ASan build's inputs: one corrupt.py run
	printf '%s\tf-%s\tflips\t11\t40\t16\t17408\n' gpt.img gpt mbr.img mbr >"$tmp/parts.jobs"
	[ -z "$asan" ] || printf '%s\ta-%s\tflips\t5\t20\t32\t17408\n' gpt.img gpt mbr.img mbr >>"$tmp/parts.jobs"
	py "$here/tests/corrupt.py" --batch "$tmp/parts.jobs" 2>"$tmp/parts.corrupt.err"
	for base in gpt mbr; do
		"$bin" --sysroot "$empty" -o SOURCE,VERDICT f-$base.* >"$tmp/flip.out" 2>&1
		rc=$?
		rm -f f-$base.*
		[ $rc -le 1 ]
		check "partitions: random damage to the $base table, 40 copies (exit $rc)" $? "$tmp/flip.out"
	done
	if [ -n "$asan" ]; then
		asan_check "partitions: ASan/UBSan build on every partitioned and damaged image" \
			--sysroot "$empty" -J -o "$ALLCOLS" ./*.img a-*
		rm -f a-*
	fi
	cd .. || exit 2
else
	notok "mkparts.py makes partitioned images with sfdisk" "$tmp/parts.err"
fi
rm -rf parts

# ---------------------------------------------------------------- directories
mkdir -p "$tmp/tree/sub/dir" "$tmp/tree/tmp" "$tmp/tree/old/x" "$tmp/tree/net" "$tmp/elsewhere"
sed "s|@TMP@|$tmp|g" "$fix/dirs.mountinfo" >"$tmp/dirs.mountinfo"
run_fsaudit "$tmp/out" --sysroot "$rA" -F "$tmp/dirs.mountinfo" -o SOURCE,TARGET,FSTYPE,VERDICT,NOTES \
	"$tmp/tree" "$tmp/tree/sub/dir" "$tmp/tree/sub/../sub" "$tmp/tree/tmp" "$tmp/tree/old/x" "$tmp/tree/net" "$tmp/elsewhere"
# The column widths follow the length of $tmp: compare with runs of blanks squeezed
sed -i -e "s|$tmp|TMP|g" -e 's/  */ /g' "$tmp/out"
compare "directories: the filesystem a directory is on (longest mount point, last mounted wins; tmpfs, nfs)" "$exp/directories.txt" "$tmp/out"
grep -v ' / / ' "$tmp/dirs.mountinfo" >"$tmp/noroot.mountinfo"
st "directories: a directory in no mounted filesystem is unreadable" 2 --sysroot "$rA" -F "$tmp/noroot.mountinfo" "$tmp/elsewhere"
st "directories: with --unreadable-unknown it is unknown" 0 --sysroot "$rA" -F "$tmp/noroot.mountinfo" --unreadable-unknown ext4-256.img "$tmp/elsewhere"

# ---------------------------------------------------------------- JSON
# c-utf8: an ext4 label that is not UTF-8, made with run.sh's corrupt images
cp --sparse=always ext4-256.img "$(printf 'bad\377na\303me.img')"
"$bin" --sysroot "$empty" -J -o SOURCE,LABEL,S-TIME-MAX c-utf8 btrfs.img ntfs.img ext4-256.img bad*me.img >"$tmp/out.json" 2>&1
py - "$tmp/out.json" <<'EOF' >"$tmp/json.err" 2>&1
import json, sys
raw = open(sys.argv[1], "rb").read()
d = json.loads(raw.decode("utf-8"))            # strict: fails on invalid UTF-8
fs = d["filesystems"]
assert fs[0]["label"] == "a\ufffd\ufffd\ufffd(\ufffdA", repr(fs[0]["label"])
big = [f for f in fs if isinstance(f["s-time-max"], str)]
assert [f["source"] for f in big] == ["btrfs.img", "ntfs.img"], big
assert all(int(f["s-time-max"]) == 2**63 - 1 for f in big)
small = [f for f in fs if isinstance(f["s-time-max"], int)]
assert all(abs(f["s-time-max"]) <= 2**53 - 1 for f in small) and small
assert fs[4]["source"] == "bad\ufffdna\ufffdme.img", repr(fs[4]["source"])
print("ok")
EOF
check "JSON: invalid UTF-8 in a label and a file name as U+FFFD, integers beyond 2^53 as decimal strings" $? "$tmp/json.err"
"$bin" --sysroot "$empty" -r -n -o S-TIME-MAX btrfs.img >"$tmp/out" 2>&1
grep -qx '9223372036854775807' "$tmp/out"
check "raw output keeps big integers as plain numbers" $? "$tmp/out"
rm -f c-utf8 bad*me.img
"$bin" -H -J >"$tmp/out.json" 2>&1
py -c 'import json,sys; d=json.load(open(sys.argv[1])); assert any(c["name"]=="REMEDY" and c["type"]=="string" for c in d["columns"])' "$tmp/out.json" >"$tmp/json.err" 2>&1
check "-H -J lists the columns in JSON" $? "$tmp/json.err"
"$bin" -J -H >"$tmp/out2.json" 2>&1
cmp -s "$tmp/out.json" "$tmp/out2.json"
check "-J -H: same as -H -J" $?
"$bin" --no-such-option >"$tmp/out" 2>&1
head -1 "$tmp/out" | grep -q "^fsaudit: unrecognized option '--no-such-option'"
check "unknown option: message starts with 'fsaudit:' (program run by full path)" $? "$tmp/out"
"$bin" -Z >"$tmp/out" 2>&1
head -1 "$tmp/out" | grep -q "^fsaudit: invalid option -- 'Z'"
check "unknown short option: message starts with 'fsaudit:'" $? "$tmp/out"

# ---------------------------------------------------------------- summary, quiet, unreadable
run_fsaudit "$tmp/out" --sysroot "$empty" -S -o SOURCE,VERDICT ext4-128.img xfs-v4.img ext4-256.img swap.img no-such.img
compare "--summary: one line after the table" "$exp/summary.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$empty" -q -S ext4-128.img ext4-256.img
compare "-q -S: only the summary line" "$exp/summary-quiet.txt" "$tmp/out"
"$bin" --sysroot "$empty" -q ext4-128.img >"$tmp/out" 2>&1
rc=$?
[ $rc = 1 ] && [ ! -s "$tmp/out" ]
check "-q: no output, exit 1 for a filesystem at risk" $? "$tmp/out"
st "-q: exit 0 when nothing is at risk" 0 --sysroot "$empty" -q ext4-256.img
st "--unreadable-unknown: at risk (1) is not hidden by an unreadable source" 1 --sysroot "$empty" --unreadable-unknown ext4-128.img no-such.img
st "--unreadable-unknown: unreadable alone gives 0" 0 --sysroot "$empty" --unreadable-unknown ext4-256.img no-such.img
st "without it unreadable (2) wins" 2 --sysroot "$empty" ext4-128.img no-such.img
st "--summary=never" 0 --sysroot "$empty" --summary=never ext4-256.img
st "--summary=bad" 3 --summary=bad ext4-256.img
st "--prometheus with --json" 3 --prometheus -J ext4-256.img

# ---------------------------------------------------------------- kernel configuration
KCOLS=SOURCE,FSTYPE,FORMAT,VERDICT,REMOVAL,REMEDY,NOTES
kimgs="xfs-v4.img xfs-v4-ci.img xfs-v5.img reiserfs-3.6.img ext2-256.img ext4-128.img vfat16.img btrfs.img"
# shellcheck disable=SC2086
run_fsaudit "$tmp/out" --sysroot "$empty" --kernel-config "$fix/config-nov4" -o "$KCOLS" $kimgs
compare "kernel config without XFS V4, reiserfs, ext2, vfat: 'this kernel cannot mount it'" "$exp/kconfig-nov4.txt" "$tmp/out"
# shellcheck disable=SC2086
run_fsaudit "$tmp/out" --sysroot "$empty" --kernel-config "$fix/config-full" -o "$KCOLS" $kimgs
compare "kernel config with everything: removal dates as without a config" "$exp/kconfig-full.txt" "$tmp/out"
# shellcheck disable=SC2086
"$bin" --sysroot "$empty" -o "$KCOLS" $kimgs >"$tmp/a" 2>&1
# shellcheck disable=SC2086
"$bin" --sysroot "$empty" --kernel-config "$fix/config-full" -o "$KCOLS" $kimgs >"$tmp/b" 2>&1
cmp -s "$tmp/a" "$tmp/b"
check "no kernel config: same verdicts as a config that has everything" $? "$tmp/a"
rK=$tmp/rootK
mkdir -p "$rK/proc"
gzip -c "$fix/config-nov4" >"$rK/proc/config.gz"
# shellcheck disable=SC2086
run_fsaudit "$tmp/out" --sysroot "$rK" -o "$KCOLS" $kimgs
compare "kernel config from <sysroot>/proc/config.gz (gzip)" "$exp/kconfig-nov4.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$empty" --kernel-config "$fix/config-ext2" -o SOURCE,TIME-MAX,VERDICT,DEPRECATED ext2-256.img ext2-128.img ext4-256.img
compare "kernel config with CONFIG_EXT2_FS: unmounted ext2 is mounted by the ext2 driver (auto)" "$exp/kconfig-ext2.txt" "$tmp/out"
st "kernel cannot mount it: not at risk for that (KERNEL column, exit 0)" 0 --sysroot "$empty" --kernel-config "$fix/config-nov4" vfat16.img
run_fsaudit "$tmp/out" --sysroot "$rA" -F "$fix/basic.mountinfo" --kernel-config "$fix/config-nov4" -o SOURCE,VERDICT,REMOVAL
compare "kernel config: mounted filesystems are mountable (it is mounted)" "$exp/mount-kconfig.txt" "$tmp/out"

# ---------------------------------------------------------------- Prometheus
# the kernel inventory of root B, with counters, a y2038 directory, the
# sysctls and the new "loaded" file on one item
for i in reiserfs xfs-v4; do printf '1\n' >"$rB/sys/fs/deprecated/$i/loaded"; done
printf '7\n' >"$rB/sys/fs/deprecated/xfs-v4/mounts"; printf '2\n' >"$rB/sys/fs/deprecated/xfs-v4/refused"
mkdir -p "$rB/sys/fs/y2038" "$rB/proc/sys/fs"
printf '5\n' >"$rB/sys/fs/y2038/mounts"; printf '1\n' >"$rB/sys/fs/y2038/refused"; printf '3\n' >"$rB/sys/fs/y2038/active"
printf 'warn\n' >"$rB/proc/sys/fs/deprecated_policy"; printf 'ro\n' >"$rB/proc/sys/fs/y2038_policy"
run_fsaudit "$tmp/out" --sysroot "$rB" -F "$fix/basic.mountinfo" --prometheus
compare "--prometheus: mounted fixture with the kernel inventory (/sys/fs/deprecated, /sys/fs/y2038)" "$exp/prometheus-series.txt" "$tmp/out"
mkdir -p "$tmp/prom"
cp ext4-128.img "$tmp/prom/$(printf 'we"ird\\na\nme\377.img')"
"$bin" --sysroot "$rB" -F "$fix/basic.mountinfo" --prometheus >"$tmp/prom/mounted.prom" 2>/dev/null
"$bin" --sysroot "$empty" --prometheus --kernel-config "$fix/config-nov4" ./*.img "$tmp/prom/"*.img no-such.img ext4-128.img >"$tmp/prom/images.prom" 2>/dev/null
rc=$?
[ $rc = 2 ]
check "--prometheus: exit status as for the table (2: one source unreadable)" $?
if command -v promtool >/dev/null; then
	for f in mounted images; do
		promtool check metrics <"$tmp/prom/$f.prom" >"$tmp/promtool.out" 2>&1
		check "promtool check metrics accepts the $f output" $? "$tmp/promtool.out"
	done
else
	skip "promtool check metrics" "prometheus (promtool) not installed"
fi
grep -c '^fsaudit_filesystem_verdict{device="./ext4-128.img"' "$tmp/prom/images.prom" >"$tmp/out"
[ "$(cat "$tmp/out")" = 5 ]
check "--prometheus: a repeated source gives one series set" $? "$tmp/out"
exporter=$(command -v prometheus-node-exporter || command -v node_exporter || true)
if [ -n "$exporter" ] && command -v curl >/dev/null; then
	mkdir -p "$tmp/textfile"
	cp "$tmp/prom/images.prom" "$tmp/textfile/fsaudit.prom"
	"$bin" --sysroot "$rB" -F "$fix/basic.mountinfo" --prometheus >"$tmp/textfile/fsaudit-mounted.prom" 2>/dev/null
	sed -i 's/^fsaudit_/fsaudit_mounted_/;s/^# \(HELP\|TYPE\) fsaudit_/# \1 fsaudit_mounted_/' "$tmp/textfile/fsaudit-mounted.prom"
	port=$(py -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
	timeout 60 "$exporter" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$tmp/textfile" >"$tmp/exporter.log" 2>&1 &
	epid=$!
	got=0
	for _ in $(seq 1 50); do
		if curl -s --max-time 2 "http://127.0.0.1:$port/metrics" >"$tmp/metrics" 2>/dev/null && [ -s "$tmp/metrics" ]; then
			got=1; break
		fi
		sleep 0.2
	done
	kill "$epid" 2>/dev/null
	wait "$epid" 2>/dev/null
	{ echo "--- exporter log"; cat "$tmp/exporter.log"; echo "--- metrics"; grep -E 'fsaudit|textfile' "$tmp/metrics" | head -30; } >"$tmp/exporter.diag"
	[ $got = 1 ] \
		&& grep -q '^fsaudit_filesystem_verdict{device="./ext4-128.img",fstype="ext4",mountpoint="",verdict="2038-limited"} 1$' "$tmp/metrics" \
		&& grep -q '^fsaudit_filesystem_at_risk{device="./xfs-v4.img",fstype="xfs",mountpoint=""} 1$' "$tmp/metrics" \
		&& grep -q '^fsaudit_filesystem_kernel_can_mount{device="./xfs-v4.img",fstype="xfs",mountpoint=""} 0$' "$tmp/metrics" \
		&& grep -q '^fsaudit_filesystem_next_mount{device="./xfs-v4.img",fstype="xfs",mountpoint="",outcome="cannot mount"} 1$' "$tmp/metrics" \
		&& grep -q '^fsaudit_filesystem_verdict{device="./xfs-v4.img",fstype="xfs",mountpoint="",verdict="deprecated"} 1$' "$tmp/metrics" \
		&& grep -q '^fsaudit_mounted_kernel_deprecated_refused_total{item="xfs-v4"} 2$' "$tmp/metrics" \
		&& grep -q '^fsaudit_mounted_kernel_deprecated_policy{item="reiserfs",policy="deny"} 1$' "$tmp/metrics" \
		&& grep -q '^fsaudit_mounted_kernel_y2038_active 3$' "$tmp/metrics" \
		&& grep -q '^node_textfile_scrape_error 0$' "$tmp/metrics"
	check "node_exporter (127.0.0.1, free port, textfile collector) serves fsaudit's series, no scrape error" $? "$tmp/exporter.diag"
	! kill -0 "$epid" 2>/dev/null
	check "node_exporter stopped by the test" $?
else
	skip "node_exporter serves fsaudit's series" "prometheus-node-exporter or curl not installed"
fi

# ---------------------------------------------------------------- kernel and policy (issue 22)
# root P: a kernel with the series; fs.deprecated_policy=warn,
# fs.y2038_policy=ro, /sys/fs/deprecated/reiserfs/policy=deny.  VERDICT
# and REMOVAL keep their meaning; KERNEL says what the next mount does.
rP=$tmp/rootP
mkroot "$rP"
pitem() {	# pitem ROOT ITEM POLICY
	mkdir -p "$1/sys/fs/deprecated/$2"
	printf '%s\n' "$3" >"$1/sys/fs/deprecated/$2/policy"
}
for i in reiserfs:deny xfs-v4:default xfs-ascii-ci:default ext4-small-inodes:default ext2:default; do
	pitem "$rP" "${i%%:*}" "${i#*:}"
done
mkdir -p "$rP/proc/sys/fs"
echo warn >"$rP/proc/sys/fs/deprecated_policy"; echo ro >"$rP/proc/sys/fs/y2038_policy"
PCOLS=SOURCE,FSTYPE,FORMAT,VERDICT,REMOVAL,KERNEL,NOTES
run_fsaudit "$tmp/out" --sysroot "$rP" -o "$PCOLS" ext4-128.img ext4-256.img xfs-v4.img xfs-v5-nobig.img reiserfs-3.6.img btrfs.img
compare "policy: KERNEL from fs.y2038_policy=ro and reiserfs/policy=deny (sysroot fixture)" "$exp/policy-series.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$rP" --policy deny -o "$PCOLS" ext4-128.img ext4-256.img xfs-v4.img xfs-v5-nobig.img reiserfs-3.6.img btrfs.img
compare "--policy deny: a preview of both sysctls at deny" "$exp/policy-preview-deny.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$empty" --policy y2038:ro,xfs-v4:deny -o "$PCOLS" ext4-128.img xfs-v4.img reiserfs-3.6.img
compare "--policy y2038:ro,xfs-v4:deny on a kernel without the series" "$exp/policy-preview-items.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$rP" --policy y2038:warn,ext4-small-inodes:deny -o "$PCOLS" \
	ext2-128.img ext2-rev0.img ext2-256.img
compare "--policy ext4-small-inodes:deny applies to small inodes mounted by the ext2 driver" "$exp/policy-ext2-small-inodes.txt" "$tmp/out"
"$bin" --sysroot "$rP" -r -o SOURCE,VERDICT,REMOVAL ext4-128.img xfs-v4.img reiserfs-3.6.img >"$tmp/a" 2>&1
"$bin" --sysroot "$rP" --policy deny --kernel-config "$fix/config-nov4" -r -o SOURCE,VERDICT,REMOVAL \
	ext4-128.img xfs-v4.img reiserfs-3.6.img >"$tmp/b" 2>&1
cmp -s "$tmp/a" "$tmp/b"
check "policy and kernel configuration leave VERDICT and REMOVAL alone" $? "$tmp/b"

# ---------------------------------------------------------------- --fstab (issue 22)
# root F: /etc/fstab with LABEL=, UUID= (a by-uuid link, and one found by
# probing <sysroot>/sys/block), a device path, a loop image, a missing UUID,
# nofail on one entry; tmpfs and swap are left out
rF=$tmp/rootF
mkdir -p "$rF/dev/disk/by-uuid" "$rF/etc" "$rF/images" "$rF/proc/sys/fs"
mke2fs -q -F -t ext4 -I 128 -L BOOT -U 0b5e55ed-0000-4000-8000-000000000001 "$tmp/img/fs1.img" 4M >/dev/null 2>&1
mke2fs -q -F -t ext4 -I 256 -U 0b5e55ed-0000-4000-8000-000000000002 "$tmp/img/fs2.img" 4M >/dev/null 2>&1
for d in vda:fs1.img:254:0 vdb:fs2.img:254:16 vdc:reiserfs-3.6.img:254:32 vdg:xfs-v4.img:254:96; do
	IFS=: read -r dn df ma mi <<<"$d"
	ln -sf "../../img/$df" "$rF/dev/$dn"
	mkdir -p "$rF/sys/block/$dn"; echo "$ma:$mi" >"$rF/sys/block/$dn/dev"
done
ln -sf ../../vdb "$rF/dev/disk/by-uuid/0b5e55ed-0000-4000-8000-000000000002"
cp --sparse=always ext2-rev0.img "$rF/images/disk.img"
cat >"$rF/etc/fstab" <<'EOT'
# <file system> <mount point> <type> <options> <dump> <pass>
LABEL=BOOT /boot ext4 defaults 0 2
UUID=0b5e55ed-0000-4000-8000-000000000002 / ext4 errors=remount-ro 0 1
UUID=00000000-0000-0000-0000-000000000006 /srv/old reiserfs defaults,nofail 0 0
/dev/vdg /srv/xfs xfs defaults 0 0
/images/disk.img /mnt/img ext2 loop,noauto 0 0
UUID=0b5e55ed-0000-4000-8000-0000000000ff /data ext4 defaults 0 2
tmpfs /tmp tmpfs defaults 0 0
/swapfile none swap sw 0 0
EOT
for i in reiserfs:deny xfs-v4:default ext4-small-inodes:default ext2:default; do
	pitem "$rF" "${i%%:*}" "${i#*:}"
done
echo ro >"$rF/proc/sys/fs/deprecated_policy"; echo warn >"$rF/proc/sys/fs/y2038_policy"
FCOLS=SPEC,TARGET,SOURCE,FSTYPE,VERDICT,KERNEL,NOFAIL,NOTES
run_fsaudit "$tmp/out" --sysroot "$rF" --fstab -o "$FCOLS"
compare "--fstab: UUID=, LABEL=, paths and loop images resolved; refused/read-only under the current policy; nofail" "$exp/fstab-series.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$rF" --fstab --policy y2038:deny -o "$FCOLS"
compare "--fstab --policy y2038:deny: what breaks at the next boot" "$exp/fstab-preview.txt" "$tmp/out"
run_fsaudit "$tmp/out" --sysroot "$empty" --fstab="$rF/etc/fstab" -o SPEC,SOURCE,VERDICT
sed -i "s|$tmp/||g" "$tmp/out"
compare "--fstab=FILE outside the sysroot: entries that name nothing are errors" "$exp/fstab-file.txt" "$tmp/out"

# root FP: fstab naming partitions by PARTUUID= and PARTLABEL=.  Two disks
# with tables sfdisk wrote (vdh GPT with entry UUIDs and names, vdi MBR with
# a disk id), the filesystems copied to their partitions' offsets; each
# partition of <sysroot>/sys/block is a file with the partition's content,
# as the kernel would show it.  No /dev/disk/by-part* links but one
# (PARTLABEL=XFSDATA): the rest is found in the disks' partition tables.
# A name with a space (\040 in fstab), MBR PARTUUIDs (disk id and number),
# a GPT PARTUUID and a PARTLABEL no partition has, the UUID of vdi1's
# filesystem given as PARTUUID (a common mistake: no partition has it).
if command -v sfdisk >/dev/null; then
	rFP=$tmp/rootFP
	mkdir -p "$rFP/dev/disk/by-partlabel" "$rFP/etc" "$rFP/proc/sys/fs"
	truncate -s 24M fp-gpt.img
	sfdisk -q --no-reread --no-tell-kernel fp-gpt.img >"$tmp/sfdisk.out" 2>&1 <<'EOT'
label: gpt
label-id: 0B5E55ED-1111-4000-8000-000000000000
start=2048, size=8192, uuid=0b5e55ed-2222-4000-8000-000000000001, name="root part"
start=10240, size=32768, uuid=0b5e55ed-2222-4000-8000-000000000002, name=XFSDATA
start=43008, size=2048, uuid=0b5e55ed-2222-4000-8000-000000000003, name="old home"
EOT
	truncate -s 12M fp-mbr.img
	sfdisk -q --no-reread --no-tell-kernel fp-mbr.img >>"$tmp/sfdisk.out" 2>&1 <<'EOT'
label: dos
label-id: 0x0b5e55ed
start=2048, size=8192, type=83
start=10240, size=6144, type=83
EOT
	cp --sparse=always ext4-256.img fp-ext4-uuid.img
	tune2fs -U 0b5e55ed-0000-4000-8000-000000000001 fp-ext4-uuid.img >>"$tmp/sfdisk.out" 2>&1
	for p in fp-gpt.img:2048:ext4-128.img:vdh1 fp-gpt.img:10240:xfs-v4.img:vdh2 fp-gpt.img:43008:ext2-rev0.img:vdh3 \
		 fp-mbr.img:2048:fp-ext4-uuid.img:vdi1 fp-mbr.img:10240:reiserfs-3.6.img:vdi2; do
		IFS=: read -r disk start fs part <<<"$p"
		dd if="$fs" of="$disk" bs=512 seek="$start" conv=notrunc,sparse status=none
		cp --sparse=always "$fs" "fp-$part.img"
	done
	for d in vdh:254:112:gpt vdi:254:128:mbr; do
		IFS=: read -r dn ma mi label <<<"$d"
		ln -sf "../../img/fp-$label.img" "$rFP/dev/$dn"
		mkdir -p "$rFP/sys/block/$dn"; echo "$ma:$mi" >"$rFP/sys/block/$dn/dev"
		for pn in 1 2 3; do	# not n: tap.sh's test counter
			[ "$dn$pn" != vdi3 ] || continue
			ln -sf "../../img/fp-$dn$pn.img" "$rFP/dev/$dn$pn"
			mkdir -p "$rFP/sys/block/$dn/$dn$pn"
			echo "$ma:$((mi + pn))" >"$rFP/sys/block/$dn/$dn$pn/dev"
			echo "$pn" >"$rFP/sys/block/$dn/$dn$pn/partition"
		done
	done
	ln -sf ../../vdh2 "$rFP/dev/disk/by-partlabel/XFSDATA"
	cat >"$rFP/etc/fstab" <<'EOT'
PARTUUID=0b5e55ed-2222-4000-8000-000000000001 / ext4 defaults 0 1
PARTLABEL=XFSDATA /srv/xfs xfs defaults 0 0
PARTLABEL=old\040home /srv/old-home ext2 ro,nofail 0 0
PARTUUID=0b5e55ed-01 /home ext4 defaults 0 2
PARTUUID=0b5e55ed-02 /srv/old reiserfs defaults,nofail 0 0
PARTUUID=0b5e55ed-2222-4000-8000-0000000000ff /data ext4 defaults 0 2
PARTLABEL=nosuchname /backup ext4 defaults,nofail 0 2
PARTUUID=0b5e55ed-0000-4000-8000-000000000001 /boot ext4 defaults 0 2
EOT
	for i in reiserfs:deny xfs-v4:default ext4-small-inodes:default ext2:default; do
		pitem "$rFP" "${i%%:*}" "${i#*:}"
	done
	echo warn >"$rFP/proc/sys/fs/deprecated_policy"; echo ro >"$rFP/proc/sys/fs/y2038_policy"
	run_fsaudit "$tmp/out" --sysroot "$rFP" --fstab -o "$FCOLS"
	grep -v '^tune2fs ' "$tmp/sfdisk.out" >>"$tmp/out"
	compare "--fstab: PARTUUID= (GPT, MBR) and PARTLABEL= found in the disks' partition tables or by-partlabel links; names that no partition has are errors" "$exp/fstab-partitions.txt" "$tmp/out"
	rm -f fp-*.img
else
	skip "--fstab: PARTUUID= and PARTLABEL=" "sfdisk not installed"
fi

# ---------------------------------------------------------------- udev (issue 22)
{
	"$bin" --sysroot "$empty" --udev xfs-v4.img; echo "rc=$?"
	"$bin" --sysroot "$empty" --udev ext4-128.img; echo "rc=$?"
	"$bin" --sysroot "$empty" --udev ext4-256.img; echo "rc=$?"
	"$bin" --sysroot "$empty" --udev no-such.img 2>/dev/null; echo "rc=$?"
} >"$tmp/out" 2>&1
compare "--udev: properties, UDISKS_AUTO=0 for deprecated and 2038-limited filesystems" "$exp/udev.txt" "$tmp/out"
grep -q 'IMPORT{program}="@BINDIR@/fsaudit --udev $devnode"' "$here/dist/61-fsaudit.rules.in"
check "udev rules: import fsaudit --udev for block devices with a filesystem" $? "$here/dist/61-fsaudit.rules.in"

# ---------------------------------------------------------------- conventions (issue 22)
{
	echo "== -t xfs"; "$bin" --sysroot "$empty" -t xfs -r -o SOURCE,FSTYPE ext4-128.img xfs-v4.img xfs-v5.img; echo "rc=$?"
	echo "== -t noxfs,noext4"; "$bin" --sysroot "$empty" -t noxfs,noext4 -r -o SOURCE,FSTYPE ext4-128.img xfs-v4.img btrfs.img; echo "rc=$?"
	echo "== --sort VERDICT"; "$bin" --sysroot "$empty" --sort VERDICT -r -o SOURCE,VERDICT ext4-256.img xfs-v4.img ext4-128.img reiserfs-3.6.img; echo "rc=$?"
	echo "== --sort time-max"; "$bin" --sysroot "$empty" -s time-max -r -o SOURCE,TIME-MAX ext4-256.img xfs-v4.img reiserfs-3.6.img ntfs.img; echo "rc=$?"
	echo "== --time-format full, date"; "$bin" --sysroot "$empty" --time-format full -r -o TIME-MIN,TIME-MAX ntfs.img
	"$bin" --sysroot "$empty" --time-format date -r -o TIME-MIN,TIME-MAX ntfs.img
	echo "== the same file three ways"; "$bin" --sysroot "$empty" -r -o SOURCE ext4-128.img ./ext4-128.img "$PWD/ext4-128.img" | sed "s|$PWD|PWD|"
	echo "== /dev/null"; "$bin" --sysroot "$empty" -r -o SOURCE,NOTES /dev/null; echo "rc=$?"
	echo "== -q -S --unreadable-unknown"; "$bin" --sysroot "$empty" -q -S --unreadable-unknown ext4-128.img no-such.img; echo "rc=$?"
	echo "== INODE-SIZE"; "$bin" --sysroot "$empty" -r -o SOURCE,INODE-SIZE xfs-v5.img ext4-128.img
} >"$tmp/out" 2>&1
compare "conventions: -t filters, --sort, --time-format, duplicates folded, not a block device, summaries, INODE-SIZE" "$exp/conventions.txt" "$tmp/out"
"$bin" --list-types >"$tmp/out" 2>&1
for t in ext2 ext3 ext4 xfs reiserfs vfat jfs btrfs tmpfs; do grep -qx "$t" "$tmp/out" || echo "missing $t"; done >"$tmp/miss"
! grep -qx 'cgroup\|bpf' "$tmp/out" && [ ! -s "$tmp/miss" ]
check "--list-types: the types fsaudit knows (reiserfs, vfat, jfs...; no cgroup, bpf)" $? "$tmp/miss"

# ---------------------------------------------------------------- remedies, run (issue 22)
# Each remedy kind, run as printed on a copy of an image: tune2fs, e2fsck,
# xfs_admin and mkfs for real on the image file; mount, umount, tar and
# losetup (which need the kernel) are stand-ins that log their arguments.
# Then fsaudit again: the verdict is ok.  Mounted, the same steps run in
# the guest (tests/guest/fsaudit-remedy.sh).
mkdir -p "$tmp/rem/bin" "$tmp/rem/img"
for c in mount umount tar losetup; do
	printf '#!/bin/sh\necho "%s $*" >>"$REMLOG"\n' "$c" >"$tmp/rem/bin/$c"
	chmod 755 "$tmp/rem/bin/$c"
done
remimgs="ext2-rev0.img ext3-128.img ext4-128.img xfs-v5-nobig.img xfs-v4.img xfs-v5-ci.img reiserfs-3.6.img ufs1.img ext2-256.img"
for i in $remimgs; do cp --sparse=always "$i" "$tmp/rem/img/$i"; done
# the matrix's XFS V5 without bigtime as it is, with one allocation group:
# its remedy is xfs_repair -o force_geometry (xfs_admin -O fails there)
cp --sparse=always xfs-v5-nobig.img "$tmp/rem/img/xfs-v5-nobig-1ag.img"
remimgs="$remimgs xfs-v5-nobig-1ag.img"
# the matrix's images are as small as mkfs allows; the remedies are for
# real sizes: the ext2 images get room for a journal, the XFS V5 image
# without bigtime four allocation groups (xfs_admin -O bigtime=1)
for i in ext2-rev0.img ext2-256.img; do
	truncate -s 8M "$tmp/rem/img/$i" && resize2fs -f "$tmp/rem/img/$i" >/dev/null 2>&1
done
truncate -s 0 "$tmp/rem/img/xfs-v5-nobig.img" && truncate -s 64M "$tmp/rem/img/xfs-v5-nobig.img" &&
	TEST_DIR=1 TEST_DEV=1 QA_CHECK_FS=1 mkfs.xfs -q -f -m bigtime=0,inobtcount=0 -d agcount=4 \
		"$tmp/rem/img/xfs-v5-nobig.img" >/dev/null 2>&1
(
	cd "$tmp/rem/img" || exit 2
	# ext2 images as the ext2 driver mounts them: the journal remedy too
	"$bin" --sysroot "$empty" --ext2-driver=ext2 -J -o SOURCE,VERDICT,REMEDY $remimgs >"$tmp/rem/before.json" 2>&1
	py - "$tmp/rem/before.json" "$tmp/rem" <<'EOF'
import json, sys
for fs in json.load(open(sys.argv[1]))["filesystems"]:
    open(sys.argv[2] + "/" + fs["source"] + ".sh", "w").write(fs["remedy"] + "\n")
EOF
	for i in $remimgs; do
		echo "== $i"
		REMLOG=$tmp/rem/$i.log PATH=$tmp/rem/bin:$PATH TEST_DIR=1 TEST_DEV=1 QA_CHECK_FS=1 \
			bash -e "$tmp/rem/$i.sh" >"$tmp/rem/$i.out" 2>&1 || { echo "remedy failed:"; cat "$tmp/rem/$i.out"; }
		m=$(grep -c '^mount ' "$tmp/rem/$i.log" 2>/dev/null); u=$(grep -c '^umount ' "$tmp/rem/$i.log" 2>/dev/null)
		[ "${m:-0}" = "${u:-0}" ] || echo "mounts $m, umounts $u: something left mounted"
	done
	"$bin" --sysroot "$empty" --ext2-driver=ext2 -r -n -o SOURCE,VERDICT $remimgs
) >"$tmp/rem/after.out" 2>&1
! grep -v ' ok$' "$tmp/rem/after.out" | grep -v '^== ' | grep -q . &&
	grep -q '^xfs-v5-nobig-1ag.img ok$' "$tmp/rem/after.out" && grep -q '^xfs-v5-nobig.img ok$' "$tmp/rem/after.out"
check "remedies run on image files (stand-ins for mount, umount, tar, losetup): every verdict becomes ok" $? "$tmp/rem/after.out"
rm -rf "$tmp/rem"
