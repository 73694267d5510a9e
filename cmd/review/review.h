/*
 * wspx report FILE [--svg OUT] [--top N]: what a run's trace, --events
 * file or joblog says of it: wall and CPU time, the parallelism reached
 * against its slots, the idle slot time, the slowest jobs, and a job
 * file's critical path; --svg draws it (timeline.h).
 */
#ifndef WSPX_REVIEW_H
#define WSPX_REVIEW_H

/* The command, its words after "report"; returns the exit status. */
int review_main(int argc, char **argv);

#endif /* WSPX_REVIEW_H */
