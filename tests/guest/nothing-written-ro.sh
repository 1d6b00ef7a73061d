#!/bin/sh
# Group nothing-written-ro: see nothing-written.sh
exec /tests/nothing-written.sh ro
