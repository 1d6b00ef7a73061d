#!/bin/sh
# Group modules-unload-debug: modules-unload.sh on the modules-debug kernel
# (KASAN, lockdep, kmemleak; unloadstress.cycles= and .seconds= from the
# command line).
exec /tests/modules-unload.sh
