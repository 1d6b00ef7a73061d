#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""mkparts.py DIR - partitioned disk images for the fsaudit tests, made in DIR
from the image matrix already there (tests/mkimages.sh): partition tables
written by sfdisk (util-linux) on plain files, filesystems copied into place
at their offsets.  Nothing is mounted, no loop device is used.  Also hostile
tables written byte by byte: partitions past the end, overlapping, of size 0,
many partitions, damaged GPT headers.  Prints one name per line."""
import os
import struct
import subprocess
import sys

from corrupt import data_segments, write_sparse

d = sys.argv[1]
os.chdir(d)
made = []


def sfdisk(img, size, script):
    with open(img, "wb") as f:
        f.truncate(size)
    subprocess.run(["sfdisk", "-q", "--no-reread", "--no-tell-kernel", img],
                   input=script.encode(), check=True, stdout=subprocess.DEVNULL)
    out = subprocess.run(["sfdisk", "-J", img], check=True, capture_output=True).stdout
    import json
    return {int(p["node"][len(img):]): p for p in json.loads(out)["partitiontable"]["partitions"]}


BLOCK = 65536


def write_at(f, off, data):
    """DATA at OFF in F, block by block, skipping the blocks F already holds
    (zeros over a hole): the same bytes as f.write, and holes stay holes."""
    for i in range(0, len(data), BLOCK):
        chunk = data[i:i + BLOCK]      # bytes: == is memcmp
        f.seek(off + i)
        if f.read(len(chunk)) != chunk:
            f.seek(off + i)
            f.write(chunk)


def put(img, fs, sector):
    data = open(fs, "rb").read()
    with open(img, "r+b") as f:
        write_at(f, sector * 512, data)


M = 1 << 20
# GPT: ext4 with 128-byte inodes, XFS V4, FAT16, an empty partition
parts = sfdisk("gpt.img", 40 * M, "label: gpt\n,4M\n,16M\n,9M\n,1M\n")
put("gpt.img", "ext4-128.img", parts[1]["start"])
put("gpt.img", "xfs-v4.img", parts[2]["start"])
put("gpt.img", "vfat16.img", parts[3]["start"])
made.append("gpt.img")

# MBR: a primary ext4, an extended partition with ext2 rev 0 and reiserfs
parts = sfdisk("mbr.img", 16 * M, "label: dos\n,4M,L\n,,E\n,1M,L\n,3M,L\n")
put("mbr.img", "ext4-256.img", parts[1]["start"])
put("mbr.img", "ext2-rev0.img", parts[5]["start"])
put("mbr.img", "reiserfs-3.6.img", parts[6]["start"])
made.append("mbr.img")

# an all-ok disk (exit 0) and one with a filesystem ok disk: ext4-256 only
parts = sfdisk("gpt-ok.img", 6 * M, "label: gpt\n,4M\n")
put("gpt-ok.img", "ext4-256.img", parts[1]["start"])
made.append("gpt-ok.img")


def mbr(img, size, entries, fill=()):
    """entries: (type, start, nsectors); fill: (image, start sector)"""
    with open(img, "w+b") as f:
        f.truncate(size)
        for fs, start in fill:
            write_at(f, start * 512, open(fs, "rb").read())
        f.seek(446)
        for t, start, n in entries:
            f.write(struct.pack("<B3sB3sII", 0, b"\0\0\0", t, b"\0\0\0", start, n))
        f.seek(510)
        f.write(b"\x55\xaa")
    made.append(img)


# hostile MBR tables (ext4-128.img is 8192 sectors)
mbr("mbr-pastend.img", 6 * M, [(0x83, 2048, 16384)], [("ext4-128.img", 2048)])
mbr("mbr-startpast.img", 6 * M, [(0x83, 2048, 8192), (0x83, 1 << 30, 2048)], [("ext4-128.img", 2048)])
mbr("mbr-overlap.img", 8 * M, [(0x83, 2048, 8192), (0x83, 2048, 8192), (0x83, 4096, 4096)],
    [("ext4-128.img", 2048)])
mbr("mbr-zero.img", 6 * M, [(0x83, 2048, 0), (0x83, 2048, 8192)], [("ext4-128.img", 2048)])
mbr("mbr-huge.img", 6 * M, [(0x83, 0xffffffff, 0xffffffff), (0x83, 1, 0xffffffff)])
mbr("mbr-loop.img", 6 * M, [(0x05, 2048, 4096)])      # an extended partition that is all zero
# extended partition whose EBR points at itself
with open("mbr-loop.img", "r+b") as f:
    f.seek(2048 * 512 + 446)
    f.write(struct.pack("<B3sB3sII", 0, b"\0\0\0", 0x83, b"\0\0\0", 16, 64))
    f.write(struct.pack("<B3sB3sII", 0, b"\0\0\0", 0x05, b"\0\0\0", 0, 4096))
    f.seek(2048 * 512 + 510)
    f.write(b"\x55\xaa")

# GPT with 128 small partitions
sfdisk("gpt-many.img", 12 * M, "label: gpt\nunit: sectors\n"
       + "".join("start=%d, size=64\n" % (2048 + 64 * i) for i in range(128)))
made.append("gpt-many.img")

# GPT with a damaged primary header (libblkid falls back to the backup),
# and with both headers damaged
for name, offs in (("gpt-badprimary.img", [512 + 16]),
                   ("gpt-badboth.img", [512 + 16, 40 * M - 512 + 16])):
    size, segs = data_segments("gpt.img")
    with open("gpt.img", "rb") as f:
        flips = []
        for o in offs:
            f.seek(o)
            flips.append((o, bytes([f.read(1)[0] ^ 0xff])))     # header CRC32
    write_sparse(name, size, segs)
    with open(name, "r+b") as f:
        for o, b in flips:
            f.seek(o)
            f.write(b)
    made.append(name)

print("\n".join(made))
