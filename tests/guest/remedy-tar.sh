# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Sourced before a remedy that fsaudit prints is run in the guest
# (fsaudit-remedy.sh, fsaudit-remedy-inplace.sh): busybox tar has no --acls,
# --xattrs, --numeric-owner and no -p (it keeps permissions as root anyway),
# so this function drops them.  busybox sh runs its own applets before any
# program of PATH, but not before a function.
tar() {
	n=$#
	while [ "$n" -gt 0 ]; do
		x=$1; shift; n=$((n - 1))
		case $x in
		--acls|--xattrs|--numeric-owner) ;;
		-cpf|-xpf) set -- "$@" "$(echo "$x" | tr -d p)" ;;
		*) set -- "$@" "$x" ;;
		esac
	done
	busybox tar "$@"
}
