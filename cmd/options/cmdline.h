/*
 * The command line after the options (cmdline.c): COMMAND and its
 * sources, the defaults, the options that cannot be combined.
 */
#ifndef WSPX_CMDLINE_H
#define WSPX_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

struct config;

/* c's defaults, before any option. */
void config_defaults(struct config *c);

/* After options_parse(): COMMAND and its sources from argv[first], then
 * the checks that need every option.  A usage error exits 255. */
void cmdline_finish(struct config *c, int argc, char **argv, int first);

/* The words of a job file's command at argv[first] (run, check, list,
 * graph): FILE, jobs and NAME=value, with the options among them applied
 * to c; after "--" words only.  The array is malloc'd (the words are
 * argv's); *nwords is their count. */
char **cmdline_jobfile(struct config *c, int argc, char **argv, int first,
    size_t *nwords);

/* Whether --header names the fields of the input (GNU parallel's
 * {NAME}): given without --pipe and --semaphore, and not 0. */
bool config_headernames(const struct config *c);

/* --header's names of fields, the n fields of the first record of each
 * source (input_header()): {NAME} and its forms become {1} {2} ... in
 * COMMAND, --tagstring, --transferfile and --return.  Once, before the
 * commands are made. */
void config_namefields(struct config *c, char *const *names, size_t n);

/* Free what the options and cmdline_finish() allocated in c. */
void config_free(struct config *c);

#endif /* WSPX_CMDLINE_H */
