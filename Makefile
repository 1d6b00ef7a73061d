# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
# fsdeprecate: generic filesystem deprecation for Linux 6.12 LTS.
#   make demo    set up, build the patched kernel, boot it on every image, show what it says
#   make check   set up, build, run every test (host and guest); last line "N passed, N failed"
# See README.md.
PY ?= python3

.PHONY: all setup demo check check-debug build bench-rig bench-kernel bench-size fuzz clean check-upstream

all: build

setup:
	@rig/setup.sh

build: setup
	@$(PY) rig/rig.py build
	@if [ -f fsaudit/Makefile ]; then $(MAKE) -s -C fsaudit; fi

demo: setup
	@$(PY) rig/rig.py demo

# make check also boots the groups of base 7.3 (tests/groups.conf, base = 7.3),
# whose source is Debian's linux-source-7.3 from trixie-backports: setup adds
# that apt source, signed by the Debian archive keyring and pinned so that
# nothing else comes from it (rig/apt-backports.sh, checked on every run).
check: export RIG_APT_BACKPORTS = 1
check: setup
	@$(PY) rig/rig.py check

# Upstream's mount-API kselftests and fs KUnit suites on the patched kernel and
# on the same config without the series: identical results (rig/fsrig/compare.py).
# BASE=7.3 or BASE=6.1: on that base's kernels (make check does 6.12's).
check-upstream: setup
	@$(PY) rig/rig.py check-upstream $(if $(BASE),--base $(BASE))

# The guest groups on the debug kernel (KASAN, UBSAN, lockdep, kmemleak, fault
# injection: kernel/configs/debug/); long, not part of `make check`.
# BASE=7.3 or BASE=6.1: that base's groups on its debug kernel.
check-debug: setup
	@$(PY) rig/rig.py check --flavour debug $(if $(BASE),--base $(BASE))

# The benchmarks and check-debug take BASE=7.3 or BASE=6.1 for another base (default 6.12);
# 7.3's source comes from trixie-backports, as for make check.
ifeq ($(BASE),7.3)
bench-kernel bench-size check-debug check-upstream: export RIG_APT_BACKPORTS = 1
endif

bench-kernel: setup
	@rig/bench-kernel.sh $(if $(BASE),--base $(BASE))

# vmlinux growth by part: fixes, feature (the 5 KiB budget), ext2 conversion.
bench-size: setup
	@rig/bench-size.sh $(if $(BASE),--base $(BASE))

bench-rig: setup
	@rig/bench-rig.sh

fuzz: setup
	@$(MAKE) -C fsaudit fuzz

clean:
	rm -rf build
