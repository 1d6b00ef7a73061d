#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Bad input for every policy file (tests/guest/badinput.c).  The group boots
# with valid boot parameters, repeated, and one invalid one:
#   fs_deprecated_policy=allow fs_deprecated_policy=nosuch:ro,deny -> deny (last
#   wins; the unknown item is reported, the entry after it applies)
#   fs_y2038_policy=ro fs_y2038_policy=RO                 -> ro, "keeping ro"
. /tests/ktap.sh
. /tests/modlib.sh
exec /tests/badinput --boot-dep deny --boot-y2038 ro --items "$ITEMS"
