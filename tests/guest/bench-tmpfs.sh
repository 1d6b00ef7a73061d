#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Cost every user pays: tmpfs mount/umount, 5,000 cycles x 32 rounds, round R
# with R - 1 more tmpfs mounts held (see mountloop.c).  The 32 rounds walk
# every phase of the slab caches a cycle uses (a slab of super_blocks,
# mounts, dentries or shmem inodes holds at most 32 of them), so the mean over
# the rounds does not depend on where the boot left those caches; a median of
# a few layouts did (one revision measured 1.0006, the next, with the same
# code on this path, 1.0139).
exec /tests/mountloop tmpfs tmpfs none /mnt 5000 32 layouts
