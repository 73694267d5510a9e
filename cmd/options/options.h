/*
 * wspx's options: parsing the options at the start of argv into struct
 * config, with --help and --version.
 */
#ifndef WSPX_OPTIONS_H
#define WSPX_OPTIONS_H

struct config;

/* Apply the options at the start of argv[1..argc) to c, which holds the
 * defaults, up to the first word that is not an option or after "--".
 * Returns the index of the first word after the options.  A usage error
 * is reported and exits 255; --help and --version print and exit. */
int options_parse(struct config *c, int argc, char **argv);

#endif /* WSPX_OPTIONS_H */
