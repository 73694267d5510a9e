/*
 * The kind of a directory entry (see direntry.h).
 */
#define _GNU_SOURCE
#include "direntry.h"

int
wspx__direntry_kind(const struct dirent *e)
{
#ifdef _DIRENT_HAVE_D_TYPE
	switch (e->d_type) {
	case DT_DIR:
		return 'd';
	case DT_LNK:
		return 'l';
	case DT_UNKNOWN:
		return '?';
	default:
		return 'f';
	}
#else
	(void)e;
	return '?';
#endif
}
