/*
 * Options from GNU parallel's profiles and $PARALLEL, read before the
 * command line's (profile.c).
 */
#ifndef WSPX_PROFILE_H
#define WSPX_PROFILE_H

struct config;

/* With c parsed from argv (its -J names and --plain), parse again into
 * c, from the defaults: the profiles (c's -J names, or the config files),
 * $PARALLEL, then argv's options; unless --plain, which leaves all as it
 * is.  Returns argv, or a new one with the words a profile or $PARALLEL
 * has after its options put before the command; *argc and *first (the
 * first word after the options) are updated.  An error, naming the file
 * and line or $PARALLEL, exits 255. */
char **profile_options(struct config *c, int *argc, char **argv,
    int *first);

#endif /* WSPX_PROFILE_H */
