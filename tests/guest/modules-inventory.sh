#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# Modules kernel (issue 13), nothing loaded yet: every deprecated item the
# kernel was built with is listed in /sys/fs/deprecated with its declaration,
# policy "default", zero counters and loaded=0, and reading all that loads no
# module.  Then each filesystem module is loaded and unloaded by hand: its
# items say loaded=1 while it is in, and stay listed after rmmod.
. /tests/ktap.sh
. /tests/modlib.sh
# This kernel's items: those of the default kernel and the "removed
# upstream" ones of the modules flavour, in ls order.
ITEMS=$(echo $ITEMS $REMOVED_ITEMS | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
MODS=$(present reiserfs ext2 xfs ext4 sysv efs freevxfs)
ktap_plan $((3 + 3 * $(echo $ITEMS | wc -w) + 4 * $(echo $MODS | wc -w)))
expect "no filesystem module loaded at boot" "" "$(fs_modules)"
expect "/sys/fs/deprecated lists every item before any module is loaded" "$ITEMS" \
	"$(ls $DEP 2>/dev/null | sort | tr '\n' ' ' | sed 's/ $//')"
for it in $ITEMS; do
	item_decl $it
	expect "$it: declaration before load (since, removal, reason, replacement)" \
		"$D_SINCE|$D_REMOVAL|$D_REASON|$D_REMEDY" \
		"$(item $it since)|$(item $it removal)|$(item $it reason)|$(item $it replacement)"
	expect "$it: policy default, counters 0 before load" "default 0 0 0" \
		"$(item $it policy) $(item $it mounts) $(item $it refused) $(item $it active)"
	expect "$it: loaded=0 before load" 0 "$(item $it loaded)"
done
expect "reading the inventory loaded no module" "" "$(fs_modules)"

# loaded follows modprobe / rmmod of the owning module, items stay listed.
for m in $MODS; do
	its=
	for it in $ITEMS; do item_decl $it; [ "$D_MODULE" = $m ] && its="$its $it"; done
	if modprobe $m 2>/tmp/err; then ktap_ok "modprobe $m"; else ktap_diag "$(cat /tmp/err)"; ktap_fail "modprobe $m"; fi
	want= got=
	for it in $ITEMS; do
		case " $its " in *" $it "*) w=1 ;; *) w=0 ;; esac
		want="$want $it=$w" got="$got $it=$(item $it loaded)"
	done
	expect "$m loaded: loaded=1 for its items ($its ) only" "$want" "$got"
	if rmmod $m 2>/tmp/err; then ktap_ok "rmmod $m"; else ktap_diag "$(cat /tmp/err)"; ktap_fail "rmmod $m"; fi
	want= got=
	for it in $its; do
		item_decl $it
		want="$want $it:0:$D_SINCE:$D_REASON" got="$got $it:$(item $it loaded):$(item $it since):$(item $it reason)"
	done
	expect "$m unloaded: its items still listed with their declaration, loaded=0" "$want" "$got"
done
ktap_done
