# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# gdb script for slabwho.sh: break on new_slab() in a QEMU guest without debug
# info and report the cache name and a guessed call chain per hit.
# Environment: SMAP (System.map), PORT (gdbstub), OUT (report file), NHITS.
import bisect
import collections
import os

import gdb

syms = []
with open(os.environ["SMAP"]) as f:
    for line in f:
        addr, kind, name = line.split()[:3]
        if kind in "tTwW":
            syms.append((int(addr, 16), name))
syms.sort()
addrs = [a for a, _ in syms]
lo, hi = syms[0][0], syms[-1][0] + 0x10000


def symbol(x):
    """Name of the text symbol containing x, or None outside kernel text."""
    if not lo <= x <= hi:
        return None
    return syms[bisect.bisect_right(addrs, x) - 1][1]


inf = None


def u64(addr):
    return int.from_bytes(inf.read_memory(addr, 8).tobytes(), "little")


def cache_name(cache):
    """struct kmem_cache has no fixed layout here: take the first field that
    points at a plausible cache name."""
    for off in range(0, 256, 8):
        try:
            text = inf.read_memory(u64(cache + off), 32).tobytes().split(b"\0")[0]
        except gdb.error:
            continue
        if len(text) >= 4 and all(32 < c < 127 for c in text):
            return text.decode()
    return "?"


gdb.execute("set pagination off")
gdb.execute(f"target remote :{os.environ['PORT']}")
inf = gdb.selected_inferior()
new_slab = next(a for a, n in syms if n == "new_slab")
gdb.execute(f"break *0x{new_slab:x}")
hits = collections.Counter()
for _ in range(int(os.environ.get("NHITS", "40"))):
    gdb.execute("continue", to_string=True)
    cache = int(gdb.parse_and_eval("$rdi")) & (2**64 - 1)
    sp = int(gdb.parse_and_eval("$rsp")) & (2**64 - 1)
    # No frame pointers: every kernel text address on the stack, in order.
    chain = []
    for i in range(96):
        s = symbol(u64(sp + 8 * i))
        if s and (not chain or chain[-1] != s):
            chain.append(s)
    hits[cache_name(cache) + " <- " + " < ".join(chain[:10])] += 1
with open(os.environ["OUT"], "w") as f:
    for key, n in hits.most_common():
        print(n, key, file=f)
gdb.execute("kill")
