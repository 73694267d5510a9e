/*
 * Which language a shell speaks, from its name: wspx writes values into
 * command lines for three (POSIX sh and its kin, fish, csh), and a job
 * file's commands run only in a shell whose language it knows.
 */
#ifndef WSPX_SHELLNAME_H
#define WSPX_SHELLNAME_H

enum wspx__shlang {
	WSPX__SH_POSIX,		/* sh, bash, dash, ksh, mksh, zsh, ... */
	WSPX__SH_FISH,
	WSPX__SH_CSH		/* csh, tcsh */
};

/* The language of the shell at path (a path or a name; a version suffix,
 * as in bash5 or ksh93, is allowed): 0 with *lang set, or -1 for a name
 * that is no shell wspx knows. */
int wspx__shellname_lang(const char *path, enum wspx__shlang *lang);

/* The names wspx knows, for a message: "sh, bash, ...".  (A function,
 * not an array: the library exports no data.) */
const char *wspx__shellname_known(void);

#endif /* WSPX_SHELLNAME_H */
