/*
 * libyaml alone: parse a file's events and do nothing with them, the
 * floor that `wspx check` (parse, validate, expand) is measured against
 * in tests/bench/graph.py.  Prints the number of events.
 *
 *     yamlparse FILE
 */
#include <stdio.h>
#include <stdlib.h>

#include <yaml.h>

int
main(int argc, char **argv)
{
	yaml_parser_t p;
	yaml_event_t e;
	FILE *f;
	long n = 0;
	int done = 0;

	if (argc != 2 || (f = fopen(argv[1], "r")) == NULL) {
		fprintf(stderr, "usage: yamlparse FILE\n");
		return 2;
	}
	yaml_parser_initialize(&p);
	yaml_parser_set_input_file(&p, f);
	while (!done) {
		if (!yaml_parser_parse(&p, &e)) {
			fprintf(stderr, "yamlparse: %s\n", p.problem);
			return 1;
		}
		done = e.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&e);
		n++;
	}
	yaml_parser_delete(&p);
	fclose(f);
	printf("%ld events\n", n);
	return 0;
}
