/*
 * Text for the library's error codes.  strerror() is not required to be
 * thread-safe, and the library's codes are few, so they have a table.
 */
#include "wspx.h"

#include <errno.h>
#include <stddef.h>

static const struct {
	int code;
	const char *text;
} texts[] = {
	{ 0, "success" },
	{ -ENOMEM, "out of memory" },
	{ -EINVAL, "invalid argument" },
	{ -EAGAIN, "cannot create a thread" },
	{ -ESHUTDOWN, "pool is shut down" },
	{ -ECANCELED, "cancelled by shutdown" },
	{ -EDEADLK, "would deadlock: called from a worker of the same pool" },
};

const char *
wspx_strerror(int code)
{
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (texts[i].code == code)
			return texts[i].text;
	return "unknown error";
}
