/*
 * wspx's help (usage.c): `wspx --help` and `wspx run --help`, written
 * from the options table.
 */
#ifndef WSPX_USAGE_H
#define WSPX_USAGE_H

#include <stdbool.h>
#include <stdio.h>

/* Write the help to f: that of `wspx --help`, or with jobfile that of
 * `wspx run --help`, which leaves out the options of the input and puts
 * the job files' first.  Every line fits in 80 columns. */
void usage_write(FILE *f, bool jobfile);

#endif /* WSPX_USAGE_H */
