#!/bin/sh
# The long stress run for the debug kernel (group stress-debug, kind = debug):
# the same program, more iterations, two CPUs.
exec /tests/stress.sh
