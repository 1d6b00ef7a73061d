#!/usr/bin/env python3
"""corrupt.py - make damaged copies of a filesystem image for fsaudit's tests.

  corrupt.py SRC DST trunc SIZE            keep the first SIZE bytes
  corrupt.py SRC DST zero OFF LEN          zero LEN bytes at OFF
  corrupt.py SRC DST set OFF FMT VALUE     struct.pack(FMT, VALUE) at OFF
                                           (FMT e.g. '<I', '>H', 'B', '<Q')
  corrupt.py SRC DST flips SEED COUNT N RANGE
                                           COUNT files DST.0 .. DST.COUNT-1,
                                           each with N random bytes replaced
                                           in [0, RANGE) (fixed seed)
Offsets may be written as expressions: 65536+0x2C.
"""
import random
import struct
import sys


def num(s):
    return int(eval(s, {"__builtins__": {}}, {}))  # digits, 0x.., + only


def main(argv):
    src, dst, op = argv[1], argv[2], argv[3]
    data = bytearray(open(src, "rb").read())
    if op == "trunc":
        data = data[:num(argv[4])]
    elif op == "zero":
        off, n = num(argv[4]), num(argv[5])
        data[off:off + n] = bytes(n)
    elif op == "set":
        off, fmt, value = num(argv[4]), argv[5], num(argv[6])
        raw = struct.pack(fmt, value)
        data[off:off + len(raw)] = raw
    elif op == "flips":
        seed, count, n, rng = (num(a) for a in argv[4:8])
        rnd = random.Random(seed)
        rng = min(rng, len(data))
        for i in range(count):
            d = bytearray(data[:max(rng, 0)])
            for _ in range(n):
                d[rnd.randrange(rng)] = rnd.randrange(256)
            open("%s.%d" % (dst, i), "wb").write(d)
        return 0
    else:
        sys.exit("corrupt.py: unknown operation " + op)
    open(dst, "wb").write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
