/* A tiny calculator: wspx's example job graph builds and tests it. */
#include <stdio.h>
#include <stdlib.h>

#include "calc.h"

int
main(int argc, char **argv)
{
	long a, b;

	if (argc != 4) {
		fprintf(stderr, "usage: calc A OP B\n");
		return 2;
	}
	a = strtol(argv[1], NULL, 10);
	b = strtol(argv[3], NULL, 10);
	printf("%ld\n", calc(a, argv[2][0], b));
	return 0;
}
