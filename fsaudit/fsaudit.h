#ifndef FSAUDIT_H
#define FSAUDIT_H

#include <limits.h>

#include "probers/prober.h"

#ifndef FSAUDIT_VERSION
# define FSAUDIT_VERSION "0.1"
#endif

/* exit status, documented in fsaudit.8 */
#define FSA_EXIT_OK		0	/* nothing at risk */
#define FSA_EXIT_AT_RISK	1	/* at least one filesystem at risk */
#define FSA_EXIT_ERROR		2	/* a source could not be read or probed */
#define FSA_EXIT_USAGE		3	/* bad option or argument */
#define FSA_EXIT_INTERNAL	4	/* mount table unreadable, out of memory */

/* in increasing order of severity */
enum {
	VERDICT_UNKNOWN = 0,
	VERDICT_OK,
	VERDICT_2038,
	VERDICT_DEPRECATED,
	VERDICT_REMOVED,
	VERDICT_NOMOUNT,	/* the running kernel cannot mount it */
};

struct fsa_item {
	const char *name;
	int verdict;
	char since[32];
	char removal[32];
	char reason[256];
	char replacement[256];
	char policy[32];
	long active;
	int from_sysfs;
};

extern struct fsa_item fsa_items[FSA_NITEMS];
extern const char *const fsa_verdict_names[];

int fsa_items_load(const char *sysroot);
int fsa_path_exists(const char *sysroot, const char *rel);

#endif
