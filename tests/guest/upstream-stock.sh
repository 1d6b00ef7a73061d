#!/bin/sh
# Group upstream-stock: the same tests as group upstream, on the kernel
# without the series (see upstream.sh).
exec /tests/upstream.sh "$@"
