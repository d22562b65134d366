/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static const src_overlay *installed;

void src_overlay_install(const src_overlay *o)
{
	installed = o;
}

void src_set_init(src_set *s, arena *ar)
{
	s->ar = ar;
	s->overlay = installed;
	s->files = NULL;
	s->nfiles = 0;
	s->cap = 0;
	src_file none = {0};
	ARENA_PUSH(ar, s->files, s->nfiles, s->cap, none);
}

/* text is in the set's arena already */
static uint32_t push(src_set *s, const char *path, const char *text, size_t len)
{
	src_file f = {0};
	f.path = arena_strdup(s->ar, path);
	f.text = text;
	f.len = len;
	ARENA_PUSH(s->ar, s->files, s->nfiles, s->cap, f);
	return s->nfiles - 1;
}

uint32_t src_add(src_set *s, const char *path, const char *text, size_t len)
{
	/* the set's own copy: a diagnostic that points into the text outlives
	 * the caller's buffer (issue 41: import freed its text before the
	 * findings on it were printed) */
	return push(s, path, arena_strndup(s->ar, text, len), len);
}

static char *read_fail(FILE *fp, int err)
{
	fclose(fp);
	errno = err;
	return NULL;
}

int src_open_regular(int dirfd, const char *path, bool nofollow, struct stat *st)
{
	/* O_PATH opens no device (no driver's open runs: /dev/watchdog arms
	 * on one) and no FIFO; the inode it names is then opened for reading
	 * through /proc/self/fd only when it is a regular file, so a path
	 * swapped between the check and the open changes nothing */
	int pfd = openat(dirfd, path, O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
	if (pfd < 0)
		return -1;
	int e = fstat(pfd, st) != 0 ? errno : S_ISDIR(st->st_mode) ? EISDIR : S_ISLNK(st->st_mode) ? ELOOP
		: !S_ISREG(st->st_mode) ? SRC_ENOTREG : 0;
	int fd = -1;
	if (!e) {
		char self[64];
		snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
		fd = open(self, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		e = fd < 0 ? errno : 0;
		if (fd < 0 && (e == ENOENT || e == ENOTDIR)) {
			/* no /proc (a minimal chroot): the path again, then the same
			 * inode asked of what was opened; O_NONBLOCK keeps a FIFO
			 * swapped in from waiting */
			struct stat again;
			fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (nofollow ? O_NOFOLLOW : 0));
			e = fd < 0 ? errno : 0;
			if (fd >= 0 && (fstat(fd, &again) != 0 || again.st_dev != st->st_dev || again.st_ino != st->st_ino)) {
				close(fd);
				fd = -1;
				e = SRC_ENOTREG;
			}
		}
	}
	close(pfd);
	errno = e;
	return fd;
}

char *src_read_file(arena *a, const char *path, size_t max, bool regular_only, size_t *len)
{
	/* only standard input (dslc's "-") may be a pipe: a FIFO named on the
	 * command line (--topology, fmt --check) waited for a writer forever
	 * (issue 41) */
	if (strcmp(path, "/dev/stdin") != 0)
		regular_only = true;
	/* a regular file is opened only once it is known to be one (a
	 * description's `topology "/dev/watchdog"` opened nothing); standard
	 * input is what it is */
	struct stat pst;
	int fd = regular_only ? src_open_regular(AT_FDCWD, path, false, &pst) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	FILE *fp = fdopen(fd, "rb");
	if (!fp) {
		int e = errno;
		close(fd);
		errno = e;
		return NULL;
	}
	struct stat st;
	if (fstat(fileno(fp), &st) != 0)
		return read_fail(fp, errno);
	if (S_ISDIR(st.st_mode))
		return read_fail(fp, EISDIR);
	if (regular_only && !S_ISREG(st.st_mode))
		return read_fail(fp, SRC_ENOTREG);
	if (st.st_size > 0 && (size_t)st.st_size > max)
		return read_fail(fp, EFBIG);
	size_t cap = (st.st_size > 0 ? (size_t)st.st_size : 65536) + 1, n = 0, r;
	char *text = arena_alloc(a, cap);
	while ((r = fread(text + n, 1, cap - 1 - n, fp)) > 0) {
		n += r;
		if (n > max)
			return read_fail(fp, EFBIG);
		if (n < cap - 1)
			continue;
		/* full: grow only when there is more, so a regular file is read
		 * into exactly the allocation its size asked for */
		int c = fgetc(fp);
		if (c == EOF)
			break;
		ungetc(c, fp);
		text = arena_grow(a, text, cap, cap * 2);
		cap *= 2;
	}
	if (ferror(fp))
		return read_fail(fp, EIO);
	fclose(fp);
	text[n] = '\0';
	*len = n;
	return text;
}

const char *src_strerror(int err)
{
	switch (err) {
	case EFBIG: return "larger than 16 MiB";
	case EILSEQ: return "not a text file (NUL byte)";
	case SRC_ENOTREG: return "not a regular file (a FIFO or device could block or never end)";
	default: return strerror(err);
	}
}

uint32_t src_load(src_set *s, const char *path, bool regular_only)
{
	return src_load_as(s, path, path, regular_only);
}

uint32_t src_load_as(src_set *s, const char *path, const char *name, bool regular_only)
{
	size_t len;
	const char *over = s->overlay ? s->overlay->find(s->overlay->ctx, path, &len) : NULL;
	if (over && len > SRC_MAX_FILE_BYTES) {
		errno = EFBIG;
		return 0;
	}
	char *text = over ? arena_strndup(s->ar, over, len) : src_read_file(s->ar, path, SRC_MAX_FILE_BYTES, regular_only, &len);
	if (!text)
		return 0;
	if (memchr(text, '\0', len)) {
		errno = EILSEQ; /* a NUL byte: not a text file */
		return 0;
	}
	return push(s, name, text, len);
}

const src_file *src_get(const src_set *s, uint32_t id)
{
	return id && id < s->nfiles ? &s->files[id] : NULL;
}

static void build_lines(src_set *s, src_file *f)
{
	uint32_t n = 1;
	for (size_t i = 0; i < f->len; i++)
		n += f->text[i] == '\n';
	f->line_starts = arena_alloc(s->ar, (n + 1) * sizeof(uint32_t));
	uint32_t k = 0;
	f->line_starts[k++] = 0;
	for (size_t i = 0; i < f->len; i++)
		if (f->text[i] == '\n')
			f->line_starts[k++] = (uint32_t)i + 1;
	f->nlines = k;
}

src_pos src_position(src_set *s, uint32_t file, uint32_t offset)
{
	src_pos p = {0, 0};
	if (!file || file >= s->nfiles)
		return p;
	src_file *f = &s->files[file];
	if (!f->line_starts)
		build_lines(s, f);
	if (offset > f->len)
		offset = (uint32_t)f->len;
	uint32_t lo = 0, hi = f->nlines; /* last line start <= offset */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (f->line_starts[mid] <= offset)
			lo = mid;
		else
			hi = mid;
	}
	p.line = lo + 1;
	p.col = offset - f->line_starts[lo] + 1;
	return p;
}

const char *src_line_text(src_set *s, uint32_t file, uint32_t line, size_t *len)
{
	*len = 0;
	if (!file || file >= s->nfiles || line == 0)
		return "";
	src_file *f = &s->files[file];
	if (!f->line_starts)
		build_lines(s, f);
	if (line > f->nlines)
		return "";
	uint32_t st = f->line_starts[line - 1];
	const char *nl = memchr(f->text + st, '\n', f->len - st);
	size_t n = nl ? (size_t)(nl - (f->text + st)) : f->len - st;
	if (n && f->text[st + n - 1] == '\r')
		n--;
	*len = n;
	return f->text + st;
}

src_loc src_loc_join(src_loc a, src_loc b)
{
	if (!a.file)
		return b;
	if (!b.file || a.file != b.file)
		return a;
	src_loc r = a;
	if (b.start < r.start)
		r.start = b.start;
	if (b.end > r.end)
		r.end = b.end;
	return r;
}

bool src_loc_valid(src_loc l)
{
	return l.file != 0;
}

void src_copy_files(src_set *to, const src_set *from)
{
	for (uint32_t id = 1; id < from->nfiles; id++) {
		const src_file *f = &from->files[id];
		src_file c = {.path = arena_strdup(to->ar, f->path), .text = arena_strndup(to->ar, f->text, f->len), .len = f->len,
			      .included_from = f->included_from};
		ARENA_PUSH(to->ar, to->files, to->nfiles, to->cap, c);
	}
}
