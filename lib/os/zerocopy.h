/*
 * Moving a file's bytes without passing them through wspx's memory, where
 * the system allows (Linux: splice(2) into a pipe, copy_file_range(2)
 * into a file), else by pread() and write() through a small buffer; and
 * memory into a pipe without a copy (vmsplice(2)), else by write().
 */
#ifndef WSPX_ZEROCOPY_H
#define WSPX_ZEROCOPY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Move up to n bytes of the file fd from *off into the pipe p, whose
 * write end is non-blocking, and advance *off.  Returns the bytes moved,
 * 0 at the file's end, or -errno (-EAGAIN: the pipe is full; -EPIPE: its
 * reader is gone).  Any thread. */
ssize_t wspx__zerocopy_filetopipe(int fd, uint64_t *off, int p, size_t n);

/* Put up to n bytes at mem into the pipe p (non-blocking) without copying
 * them (vmsplice): the pipe refers to the memory itself, which must not
 * change until every reader of the pipe is gone.  Returns the bytes
 * moved or -errno, as wspx__zerocopy_filetopipe().  Any thread. */
ssize_t wspx__zerocopy_memtopipe(int p, const char *mem, size_t n);

/* Append n bytes of the file fd from off to the file dst.  Returns 0 or
 * -errno (-EIO if fd ends before them).  Any thread. */
int wspx__zerocopy_copyrange(int fd, uint64_t off, uint64_t n, int dst);

#endif /* WSPX_ZEROCOPY_H */
