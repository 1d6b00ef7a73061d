#!/bin/sh
# Group nothing-written-deny: see nothing-written.sh
exec /tests/nothing-written.sh deny
