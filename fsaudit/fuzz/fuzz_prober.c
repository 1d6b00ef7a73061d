// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: 2026 The fsdeprecate authors
/*
 * fsaudit - libFuzzer target for one prober, chosen at build time:
 *   clang -DFUZZ_PROBER=xfs -fsanitize=fuzzer,address,undefined ...
 * The input is the device image.  Each input is probed twice: as an
 * unmounted image and as if it were mounted with hostile options.
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "../probers/prober.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define PROBER CAT(FUZZ_PROBER, _prober)

static void run(const uint8_t *data, size_t size, const struct fsa_env *env)
{
	struct fsa_dev dev;
	struct fsa_info info;
	char buf[64];
	int rc;

	fsa_dev_init_mem(&dev, data, size);
	fsa_info_init(&info);
	rc = PROBER.probe(&dev, env, &info);
	fsa_dev_reset(&dev);
	if (rc == 0 && info.has_limits) {
		fsa_strtime(info.time_min, buf, sizeof(buf));
		fsa_strtime(info.time_max, buf, sizeof(buf));
		fsa_strtime(info.s_time_max, buf, sizeof(buf));
	}
	/* every text field must stay NUL-terminated */
	if (strnlen(info.format, sizeof(info.format)) == sizeof(info.format)
	    || strnlen(info.fix_why, sizeof(info.fix_why)) == sizeof(info.fix_why)
	    || strnlen(info.fix_mkfs, sizeof(info.fix_mkfs)) == sizeof(info.fix_mkfs)
	    || strnlen(info.notes, sizeof(info.notes)) == sizeof(info.notes)
	    || strnlen(info.why, sizeof(info.why)) == sizeof(info.why))
		__builtin_trap();
	if (rc > 1)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct fsa_env plain = { 0 };
	static const struct fsa_env mounted = {
		.ext2_driver = 1, .series = 1, .fstype = "ext2",
		.options = "errors=remount-ro,time_offset=-1440,ufstype=ufs2",
	};

	run(data, size, &plain);
	run(data, size, &mounted);
	return 0;
}
