#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""corrupt.py - make damaged copies of a filesystem image for fsaudit's tests.

  corrupt.py SRC DST trunc SIZE            keep the first SIZE bytes
  corrupt.py SRC DST zero OFF LEN          zero LEN bytes at OFF
  corrupt.py SRC DST set OFF FMT VALUE     struct.pack(FMT, VALUE) at OFF
                                           (FMT e.g. '<I', '>H', 'B', '<Q')
  corrupt.py SRC DST flips SEED COUNT N RANGE
                                           COUNT files DST.0 .. DST.COUNT-1,
                                           each with N random bytes replaced
                                           in [0, RANGE) (fixed seed)
  corrupt.py --batch FILE                  one job per line of FILE: the
                                           arguments above separated by tabs;
                                           a failed job leaves no DST and is
                                           reported on stderr, the others are
                                           made (exit 1 if any failed)
Offsets may be written as expressions: 65536+0x2C.

A copy has the content of the original with the change, byte for byte; its
zero blocks are holes (the test images are mostly zeros: writing them out,
75 copies of up to 64 MiB, cost more than the tests that read them).
"""
import os
import random
import struct
import sys

from imgsum import data_ranges

BLOCK = 65536
ZERO = bytes(BLOCK)


def num(s):
    return int(eval(s, {"__builtins__": {}}, {}))  # digits, 0x.., + only


def data_segments(path):
    """(size, [(offset, bytes)]): the file's data outside its holes (SEEK_DATA);
    the whole file as one segment where holes cannot be asked for."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        try:
            segs = []
            for start, end in data_ranges(f):
                f.seek(start)
                segs.append((start, f.read(end - start)))
        except (AttributeError, OSError):
            f.seek(0)
            segs = [(0, f.read())]
    return size, segs


def write_sparse(dst, size, segs, patch=None):
    """DST: SIZE bytes, SEGS (offset, bytes) cut to SIZE, zeros elsewhere
    (holes), then PATCH (offset, bytes) written over them."""
    with open(dst, "wb") as f:
        for start, data in segs:
            for i in range(0, min(len(data), size - start), BLOCK):
                chunk = data[i:min(i + BLOCK, size - start)]    # bytes: == is memcmp
                if chunk != ZERO[:len(chunk)]:
                    f.seek(start + i)
                    f.write(chunk)
        f.truncate(size)
        if patch:
            f.seek(patch[0])
            f.write(patch[1])


_last = (None, None)


def image(src):
    """data_segments(SRC), kept for the next job (jobs come grouped by image)."""
    global _last
    if _last[0] != src:
        _last = (None, None)
        _last = (src, data_segments(src))
    return _last[1]


def job(args):
    src, dst, op = args[0], args[1], args[2]
    if op == "flips":
        seed, count, n, rng = (num(a) for a in args[3:7])
        with open(src, "rb") as f:
            data = f.read(max(rng, 0))
        rnd = random.Random(seed)
        rng = min(rng, os.path.getsize(src))
        for i in range(count):
            d = bytearray(data[:max(rng, 0)])
            for _ in range(n):
                d[rnd.randrange(rng)] = rnd.randrange(256)
            open("%s.%d" % (dst, i), "wb").write(d)
        return
    if op not in ("trunc", "zero", "set"):
        raise ValueError("unknown operation " + op)
    size, segs = image(src)
    if op == "trunc":
        n = num(args[3])
        if n >= 0:
            write_sparse(dst, min(n, size), segs)
            return
        raw = None
    if op == "zero":
        off, n = num(args[3]), num(args[4])
        raw = bytes(n)
    elif op == "set":
        off, fmt, value = num(args[3]), args[4], num(args[5])
        raw = struct.pack(fmt, value)
    if raw is not None and 0 <= off and off + len(raw) <= size:
        write_sparse(dst, size, segs, (off, raw))
        return
    # a negative size or offset, past the end: Python's slices, as they always were
    data = bytearray(open(src, "rb").read())
    if raw is None:
        data = data[:n]
    else:
        data[off:off + len(raw)] = raw
    open(dst, "wb").write(data)


def main(argv):
    if argv[1:2] == ["--batch"]:
        failed = 0
        with open(argv[2]) as f:
            jobs = [line.rstrip("\n").split("\t") for line in f if line.strip()]
        for args in jobs:
            try:
                job(args)
            except Exception as e:  # noqa: BLE001 - reported, the others go on
                failed = 1
                print("corrupt.py: %s: %s" % (" ".join(args), e), file=sys.stderr)
                if len(args) > 1 and os.path.exists(args[1]):
                    os.unlink(args[1])
        return failed
    try:
        job(argv[1:])
    except ValueError as e:
        sys.exit("corrupt.py: %s" % e)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
