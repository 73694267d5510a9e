/*
 * Temporary files and directories, made close-on-exec in the same step
 * that makes them: another thread may be spawning a job meanwhile, and an
 * fd it inherited would keep the file's data, or a pipe's end, alive.
 * Every temporary name of wspx has six random characters made here.
 */
#ifndef WSPX_TMP_H
#define WSPX_TMP_H

/* Make a new file dir/PREFIXxxxxxxSUFFIX (xxxxxx random; dir NULL: the
 * current directory; suffix may be NULL), mode 0600 less the umask, open
 * for reading and writing.  Returns the fd and sets *path to its malloc'd
 * name, or returns -errno (-ENOMEM if no memory). */
int wspx__tmp_file(const char *dir, const char *prefix, const char *suffix,
    char **path);

/* Make a new directory dir/PREFIXxxxxxx, mode 0700.  Returns 0 and sets
 * *path to its malloc'd name, or -errno. */
int wspx__tmp_dir(const char *dir, const char *prefix, char **path);

/* Open a file in dir with no name left on disk (its space is freed when
 * it is closed), for reading and writing.  Returns the fd or -errno. */
int wspx__tmp_anon(const char *dir);

#endif /* WSPX_TMP_H */
