#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""Rewrite the root directory item of a FRESH `mkreiserfs --format 3.5` image
from the unpadded v1 layout (35 bytes: 2 deh + ".." + ".") to the padded
layout (48 bytes: 2 deh + "..\\0*6" + ".\\0*7"), i.e. the same body the 3.6
mkreiserfs / kernel make_empty_dir_item() write. Keys, item versions and the
v1 stat data stay 3.5-format; only the dir body, its ih_item_len/location,
the leaf free space and the root sd_size change.

Purpose: pass linux >= 5.10 (d24396c5290b) is_leaf() check
  ih_item_len < ih_entry_count * IH_SIZE   (fs/reiserfs/stree.c:475 in 6.12)
which rejects every v1 (unpadded) empty directory (35 < 2*24).

usage: r35fix.py IMAGE   (modifies IMAGE in place; refuses anything but a fresh image)
"""
import struct, sys

path = sys.argv[1]
with open(path, "r+b") as f:
    f.seek(65536)
    sb = f.read(76)
    assert sb[52:60] in (b"ReIsErFs", b"ReIsEr3F") and struct.unpack_from("<H", sb, 72)[0] == 0, \
        "not a 3.5-format superblock at 64K"
    bs = struct.unpack_from("<H", sb, 44)[0]
    root = struct.unpack_from("<I", sb, 8)[0]
    base = root * bs
    f.seek(base)
    blk = bytearray(f.read(bs))

    level, nr, free = struct.unpack_from("<HHH", blk, 0)
    ih0, ih1 = 24, 48
    sd_u, sd_len, sd_loc, sd_ver = struct.unpack_from("<HHHH", blk, ih0 + 16)
    d_cnt, d_len, d_loc, d_ver = struct.unpack_from("<HHHH", blk, ih1 + 16)
    key1 = struct.unpack_from("<IIII", blk, ih1)
    # refuse anything but the exact fresh mkreiserfs 3.5 layout
    assert (level, nr) == (1, 2), (level, nr)
    assert (sd_len, sd_loc, sd_ver) == (32, bs - 32, 0)
    assert key1 == (1, 2, 1, 500), key1
    assert (d_cnt, d_len, d_loc, d_ver) == (2, 35, bs - 32 - 35, 0)
    assert free == bs - 24 - 2 * 24 - 32 - 35
    old = bytes(blk[d_loc:d_loc + 35])
    deh0 = struct.unpack_from("<IIIHH", old, 0)
    deh1 = struct.unpack_from("<IIIHH", old, 16)
    assert deh0[0] == 1 and deh0[3] == 34 and old[34:35] == b"."
    assert deh1[0] == 2 and deh1[3] == 32 and old[32:34] == b".."

    NEW = 48
    new_loc = bs - 32 - NEW
    body = bytearray(NEW)
    struct.pack_into("<IIIHH", body, 0, deh0[0], deh0[1], deh0[2], 40, deh0[4])   # "." at 40
    struct.pack_into("<IIIHH", body, 16, deh1[0], deh1[1], deh1[2], 32, deh1[4])  # ".." at 32
    body[32:34] = b".."
    body[40:41] = b"."

    blk[new_loc:bs - 32] = body                                  # old body lay inside this range
    struct.pack_into("<H", blk, 4, free - (NEW - 35))            # blkh_free_space 3957 -> 3944
    struct.pack_into("<HH", blk, ih1 + 18, NEW, new_loc)         # ih_item_len 35->48, location 4029->4016
    sd = bs - 32
    assert struct.unpack_from("<I", blk, sd + 8)[0] == 35
    struct.pack_into("<I", blk, sd + 8, NEW)                     # stat_data_v1.sd_size 35 -> 48
    f.seek(base)
    f.write(blk)
print("patched root leaf block %d of %s" % (root, path))
