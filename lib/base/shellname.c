/*
 * Shells by name (see shellname.h).
 */
#include "shellname.h"

#include <string.h>

static const struct {
	const char *name;
	enum wspx__shlang lang;
} shells[] = { { "sh", WSPX__SH_POSIX }, { "bash", WSPX__SH_POSIX },
    { "dash", WSPX__SH_POSIX }, { "ash", WSPX__SH_POSIX },
    { "ksh", WSPX__SH_POSIX }, { "mksh", WSPX__SH_POSIX },
    { "pdksh", WSPX__SH_POSIX }, { "oksh", WSPX__SH_POSIX },
    { "loksh", WSPX__SH_POSIX }, { "zsh", WSPX__SH_POSIX },
    { "yash", WSPX__SH_POSIX }, { "posh", WSPX__SH_POSIX },
    { "busybox", WSPX__SH_POSIX }, { "fish", WSPX__SH_FISH },
    { "csh", WSPX__SH_CSH }, { "tcsh", WSPX__SH_CSH } };

const char *
wspx__shellname_known(void)
{
	return "sh, bash, dash, ash, ksh, mksh, pdksh, oksh, loksh, zsh, "
	    "yash, posh, busybox, fish, csh, tcsh";
}

int
wspx__shellname_lang(const char *path, enum wspx__shlang *lang)
{
	const char *base = strrchr(path, '/');
	size_t i, n;

	base = base != NULL ? base + 1 : path;
	for (i = 0; i < sizeof(shells) / sizeof(shells[0]); i++) {
		n = strlen(shells[i].name);
		if (strncmp(base, shells[i].name, n) == 0 &&
		    strspn(base + n, "0123456789.-") == strlen(base + n)) {
			*lang = shells[i].lang;
			return 0;
		}
	}
	return -1;
}
