#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""Decode a reiserfs (3.5/3.6) image's tree from the file (no mount) and
replay the checks of linux-6.12 fs/reiserfs/stree.c is_leaf()/is_internal()
(stree.c:408-526) on every tree node.

usage: rfsleaf.py IMAGE [--fixed]
  --fixed : also evaluate the 5093 check with DEH_SIZE (16) instead of IH_SIZE (24)
"""
import struct, sys

BLKH_SIZE, IH_SIZE, DEH_SIZE, KEY_SIZE, DC_SIZE = 24, 24, 16, 16, 8
TYPES = {0: "SD", 1: "INDIRECT", 2: "DIRECT", 3: "DIRENTRY", 15: "ANY"}
UNIQ = {0: 0, 0xFFFFFFFE: 1, 0xFFFFFFFF: 2, 500: 3, 555: 15}


def sb(img):
    for off in (65536, 8192):
        img.seek(off)
        b = img.read(204)
        if b[52:52 + 8] in (b"ReIsErFs", b"ReIsEr2F", b"ReIsEr3F"):
            f = struct.unpack_from("<III", b, 0)
            bs, oidmax, oidcur, ust = struct.unpack_from("<HHHH", b, 44)
            magic = b[52:62].rstrip(b"\0").decode()
            hashc, height, bmapnr, ver, resj = struct.unpack_from("<IHHHH", b, 64)
            return dict(off=off, blocks=f[0], free=f[1], root=f[2], bs=bs,
                        magic=magic, height=height, version=ver,
                        reserved_for_journal=resj, oid_maxsize=oidmax)
    raise SystemExit("no reiserfs superblock")


def key_type(k, ih_version):
    d, o, a, b = struct.unpack("<IIII", k)
    if ih_version == 0:  # KEY_FORMAT_3_5: offset u32, uniqueness u32
        return d, o, a, UNIQ.get(b, 15), "v1 uniq=%d" % b
    v = a | (b << 32)  # KEY_FORMAT_3_6: 60-bit offset, 4-bit type
    return d, o, v & ((1 << 60) - 1), v >> 60, "v2"


def check_leaf(buf, bs, fixed, out):
    level, nr, free = struct.unpack_from("<HHH", buf, 0)
    out.append("  block_head: level=%d nr_item=%d free_space=%d" % (level, nr, free))
    if nr < 1 or nr > (bs - BLKH_SIZE) // (IH_SIZE + 1):
        return "reiserfs-5081 nr_item seems wrong"
    last = BLKH_SIZE + IH_SIZE * (nr - 1)
    used = BLKH_SIZE + IH_SIZE * nr + (bs - struct.unpack_from("<H", buf, last + 20)[0])
    if used != bs - free:
        return "reiserfs-5082 free space seems wrong (used=%d, bs-free=%d)" % (used, bs - free)
    prev = bs
    verdict = None
    for i in range(nr):
        o = BLKH_SIZE + IH_SIZE * i
        k = buf[o:o + 16]
        u, ilen, loc, ver = struct.unpack_from("<HHHH", buf, o + 16)
        d, oid, off, typ, kf = key_type(k, ver)
        out.append("  ih[%d] @%#x: key=(%d %d off=%d %s %s) u(free_space/entry_count)=%#06x"
                   " item_len=%d location=%d ih_version=%d"
                   % (i, o, d, oid, off, TYPES.get(typ, typ), kf, u, ilen, loc, ver))
        body = buf[loc:loc + ilen]
        if typ == 0 and ilen == 32:
            m, nl, uid, gid, sz, at, mt, ct, rdev_blocks, fdb = struct.unpack("<HHHHIIIIII", body)
            out.append("     stat_data_v1: mode=%o nlink=%d uid=%d gid=%d size=%d blocks=%d first_direct_byte=%#x"
                       % (m, nl, uid, gid, sz, rdev_blocks, fdb))
        elif typ == 0 and ilen == 44:
            m, attr, nl, sz = struct.unpack_from("<HHIQ", body, 0)
            out.append("     stat_data_v2: mode=%o nlink=%d size=%d" % (m, nl, sz))
        elif typ == 3:
            for e in range(u):
                doff, did, doid, dloc, dst = struct.unpack_from("<IIIHH", body, e * DEH_SIZE)
                end = ilen if e == 0 else struct.unpack_from("<H", body, (e - 1) * DEH_SIZE + 12)[0]
                out.append("     deh[%d]: offset=%d dir_id=%d objectid=%d location=%d state=%#x name=%r"
                           % (e, doff, did, doid, dloc, dst, body[dloc:end]))
        if verdict:
            continue
        if typ == 15:
            verdict = "reiserfs-5083 wrong item type"
        elif loc >= bs or loc < IH_SIZE * nr:
            verdict = "reiserfs-5084 item location seems wrong"
        elif ilen < 1 or ilen > bs - BLKH_SIZE - IH_SIZE:
            verdict = "reiserfs-5085 item length seems wrong"
        elif prev - loc != ilen:
            verdict = "reiserfs-5086 item location seems wrong (second one)"
        elif typ == 3:
            per = DEH_SIZE if fixed else IH_SIZE
            if ilen < u * per:
                verdict = ("reiserfs-5093 item entry count seems wrong: ih_item_len %d < "
                           "ih_entry_count %d * %s(%d) = %d"
                           % (ilen, u, "DEH_SIZE" if fixed else "IH_SIZE", per, u * per))
            else:
                for e in range(u):
                    dloc = struct.unpack_from("<H", body, e * DEH_SIZE + 12)[0]
                    if dloc > ilen:
                        verdict = "reiserfs-5094 directory entry location seems wrong"
                        break
                else:
                    verdict = "OK (is_leaf returns at first direntry item; items after it unchecked)"
        prev = loc
    return verdict or "OK"


def main():
    path = sys.argv[1]
    fixed = "--fixed" in sys.argv
    with open(path, "rb") as img:
        s = sb(img)
        print("%s: superblock@%d magic=%s version=%d blocksize=%d root=%d height=%d oid_maxsize=%d"
              % (path, s["off"], s["magic"], s["version"], s["bs"], s["root"], s["height"], s["oid_maxsize"]))
        stack = [(s["root"], s["height"] - 1)]
        while stack:
            blk, lvl = stack.pop()
            img.seek(blk * s["bs"])
            buf = img.read(s["bs"])
            level, nr, free = struct.unpack_from("<HHH", buf, 0)
            if level != lvl:
                print(" block %d: level %d != expected %d (reiserfs-5090)" % (blk, level, lvl))
                continue
            out = []
            if level == 1:
                v = check_leaf(buf, s["bs"], False, out)
                print(" leaf %d:" % blk)
                print("\n".join(out))
                print("  => kernel 6.12 is_leaf(): %s" % v)
                if fixed:
                    print("  => with DEH_SIZE instead of IH_SIZE: %s" % check_leaf(buf, s["bs"], True, []))
            else:
                used = BLKH_SIZE + KEY_SIZE * nr + DC_SIZE * (nr + 1)
                ok = used == s["bs"] - free
                print(" internal %d level=%d nr=%d is_internal=%s" % (blk, level, nr, "OK" if ok else "5089"))
                base = BLKH_SIZE + KEY_SIZE * nr
                for c in range(nr + 1):
                    stack.append((struct.unpack_from("<I", buf, base + c * DC_SIZE)[0], level - 1))


main()
