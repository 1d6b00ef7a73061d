#!/bin/sh
# Cost every user pays: tmpfs mount/umount, 20,000 cycles x 7 rounds.
exec /tests/mountloop tmpfs tmpfs none /mnt 20000 7
