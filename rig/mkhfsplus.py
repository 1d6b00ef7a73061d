#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""mkhfsplus.py IMAGE [VOLNAME]: write an empty HFS+ volume into IMAGE.

Debian 12 has no mkfs.hfsplus (hfsprogs is not in bookworm; the hfsplus
package has only the hp* tools).  This writes the smallest volume that
Linux's hfsplus driver mounts read-write, from Apple's Technical Note TN1150
("HFS Plus Volume Format"): a volume header at byte 1024 and its copy 1024
bytes before the end, the allocation file (a bitmap), an empty extents
overflow B-tree (a header node) and a catalog B-tree with the root folder
and its thread record in one leaf node.  Clean (unmounted bit set), not
journaled, not locked, case-insensitive HFS+ (not HFSX), 4 KiB blocks.
IMAGE must exist (e.g. truncate -s 1M); its size gives the block count.
"""
import os
import struct
import sys

BS = 4096                    # allocation block size
NODE = 4096                  # B-tree node size
CAT_NODES = 8                # catalog file: 8 nodes, header + 1 leaf used
HFS_EPOCH = 2082844800       # seconds from 1904-01-01 to 1970-01-01
NOW = HFS_EPOCH + 1767225600  # 2026-01-01 00:00:00 UTC: reproducible images


def fork(logical, blocks, start):
    """HFSPlusForkData: size, clump, block count, 8 extents (one used)."""
    ext = struct.pack(">II", start, blocks) + bytes(8 * 7)
    return struct.pack(">QII", logical, 0, blocks) + ext


def node(kind, height, records, extra_free=0):
    """A B-tree node: descriptor, records, record offsets at the end."""
    buf = bytearray(NODE)
    struct.pack_into(">IIbBHH", buf, 0, 0, 0, kind, height, len(records), 0)
    off, offs = 14, []
    for r in records:
        offs.append(off)
        buf[off:off + len(r)] = r
        off += len(r)
    offs.append(off)                      # start of the free space
    for i, o in enumerate(offs):
        struct.pack_into(">H", buf, NODE - 2 * (i + 1), o)
    return bytes(buf)


def header_node(depth, root, leaf_records, first_leaf, last_leaf, max_key,
                total, free, key_type, attributes, used):
    hdr = struct.pack(">HIIIIHHIIHIBBI", depth, root, leaf_records,
                      first_leaf, last_leaf, NODE, max_key, total, free, 0,
                      NODE, 0, key_type, attributes) + bytes(64)
    assert len(hdr) == 106
    user = bytes(128)
    # Map record: the rest of the node less 4 record offsets.
    bitmap = bytearray(NODE - 14 - 106 - 128 - 2 * 4)
    for n in range(used):
        bitmap[n // 8] |= 0x80 >> (n % 8)
    return node(1, 0, [hdr, user, bytes(bitmap)])


def unistr(s):
    u = s.encode("utf-16-be")
    return struct.pack(">H", len(s)) + u


def cat_key(parent, name):
    body = struct.pack(">I", parent) + unistr(name)
    return struct.pack(">H", len(body)) + body


def main():
    img = sys.argv[1]
    vol = sys.argv[2] if len(sys.argv) > 2 else "hfsplus"
    size = os.path.getsize(img)
    total = size // BS
    if total < 16:
        sys.exit("mkhfsplus: image too small")
    # Layout: block 0 volume header, 1.. allocation bitmap, then the extents
    # file (1 node), the catalog file; the last block holds the copy of the
    # volume header.
    alloc_blocks = (total + 8 * BS - 1) // (8 * BS)
    ext_start = 1 + alloc_blocks
    cat_start = ext_start + 1
    cat_blocks = CAT_NODES * NODE // BS
    used = cat_start + cat_blocks
    free = total - used - 1

    root_folder = struct.pack(">hHII5I", 1, 0, 0, 2, NOW, NOW, NOW, NOW, 0)
    root_folder += struct.pack(">IIBBHI", 0, 0, 0, 0, 0o40755, 0)  # BSD info
    root_folder += bytes(16) + bytes(16) + struct.pack(">II", 0, 0)
    assert len(root_folder) == 88
    thread = struct.pack(">hhI", 3, 0, 1) + unistr(vol)
    leaf = node(-1, 1, [cat_key(1, vol) + root_folder, cat_key(2, "") + thread])
    cat = header_node(1, 1, 2, 1, 1, 516, CAT_NODES, CAT_NODES - 2, 0xCF,
                      2 | 4, 2) + leaf + bytes((CAT_NODES - 2) * NODE)
    ext = header_node(0, 0, 0, 0, 0, 10, 1, 0, 0, 2, 1)

    bitmap = bytearray(alloc_blocks * BS)
    for b in list(range(used)) + [total - 1]:
        bitmap[b // 8] |= 0x80 >> (b % 8)

    vh = struct.pack(">2sHIII", b"H+", 4, 1 << 8, 0x31302E30, 0)  # '10.0'
    vh += struct.pack(">4I", NOW, NOW, 0, NOW)
    vh += struct.pack(">IIIIIIIIIIQ", 0, 0, BS, total, free, used,
                      65536, 65536, 16, 0, 1)
    vh += bytes(32)                                                # finderInfo
    vh += fork(alloc_blocks * BS, alloc_blocks, 1)
    vh += fork(NODE, 1, ext_start)
    vh += fork(CAT_NODES * NODE, cat_blocks, cat_start)
    vh += fork(0, 0, 0) + fork(0, 0, 0)                 # attributes, startup
    assert len(vh) == 512

    with open(img, "r+b") as f:
        f.seek(1024)
        f.write(vh)
        f.seek(BS)
        f.write(bitmap)
        f.seek(ext_start * BS)
        f.write(ext)
        f.seek(cat_start * BS)
        f.write(cat)
        f.seek(size - 1024)
        f.write(vh)


if __name__ == "__main__":
    main()
