# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Sourced by rig-init (PID 1, before systemd) in group system: this machine
# last ran fsaudit.timer two days ago and was off since (its stamp, which
# Persistent=true keeps in /var/lib/systemd/timers).  systemd must catch up
# on the missed run at boot, by itself (tests/system/system.sh).
mkdir -p /var/lib/systemd/timers &&
	touch -d "@$(($(date +%s) - 2 * 86400))" /var/lib/systemd/timers/stamp-fsaudit.timer
