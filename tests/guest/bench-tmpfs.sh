#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Cost every user pays: tmpfs mount/umount, 20,000 cycles x 7 rounds, each
# round from another slab layout (0..6 more tmpfs mounts held, see mountloop.c).
exec /tests/mountloop tmpfs tmpfs none /mnt 20000 7 layouts
