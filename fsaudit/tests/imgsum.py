#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""imgsum.py FILE... - "MD5  FILE" per file, like md5sum, over what the file
holds: its size, then the offset, length and bytes of each data segment
(SEEK_DATA/SEEK_HOLE); the holes are zeros and not read.  The test images
are 390 MB of which 12 MB are data: md5sum read all of it, twice a run.

Any change of the content changes the sum: bytes written into data, into a
hole (it becomes data), or a segment punched out (it becomes a hole), a
change of size.  Two files of the same content but with their holes in
other places differ too: tests/run.sh compares a file with itself.
"""
import errno
import hashlib
import os
import sys


def data_ranges(f):
    """(start, end) of each data segment of the open file F, in order
    (SEEK_DATA/SEEK_HOLE); AttributeError or OSError where holes cannot be
    asked for."""
    fd = f.fileno()
    size = os.fstat(fd).st_size
    off = 0
    while off < size:
        try:
            start = os.lseek(fd, off, os.SEEK_DATA)
        except OSError as e:
            if e.errno == errno.ENXIO:      # only a hole is left
                return
            raise
        end = os.lseek(fd, start, os.SEEK_HOLE)
        yield start, end
        off = end


def imgsum(path):
    h = hashlib.md5()
    with open(path, "rb") as f:
        h.update(b"size %d\n" % os.fstat(f.fileno()).st_size)
        for start, end in data_ranges(f):
            h.update(b"data %d %d\n" % (start, end - start))
            f.seek(start)
            left = end - start
            while left > 0:
                b = f.read(min(left, 1 << 20))
                if not b:
                    break
                h.update(b)
                left -= len(b)
    return h.hexdigest()


def main(argv):
    rc = 0
    for path in argv[1:]:
        try:
            print("%s  %s" % (imgsum(path), path))
        except OSError as e:
            print("imgsum.py: %s: %s" % (path, e), file=sys.stderr)
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
