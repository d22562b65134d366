/* file.h - an existing file compared with bytes in memory, never through a
 * symbolic link and never blocking on a FIFO: how the build judges a file
 * of the old tree and `lint --fix` checks what it wrote. */
#ifndef DSLC_FILE_H
#define DSLC_FILE_H

#include <stddef.h>
#include <sys/stat.h>

/* 1 when name (under dirfd, AT_FDCWD for a path) is a regular file holding
 * exactly data, 0 when it holds other bytes, -1 when it is absent, not a
 * regular file or unreadable; *st is filled when the file could be opened. */
int file_same(int dirfd, const char *name, const char *data, size_t len, struct stat *st);

#endif
