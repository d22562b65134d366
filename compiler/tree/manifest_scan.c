/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* manifest_scan.c - see manifest.h (manifest_each): a manifest.json read a
 * piece at a time. jansson parses each value dslc uses (the head's
 * scalars, one entry of "files" at a time: JSON_DISABLE_EOF_CHECK tells how
 * many bytes it took); what dslc does not use (node_digests, identical, any
 * other key) is stepped over by its brackets and strings without being
 * built. A manifest padded with a 50 MB list cost 980 MB and 30 s read whole;
 * this reads it in a 1 MiB window. */
#include "manifest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/base/source.h"
#include "output.h"

/* The window; a value dslc parses is at most MANIFEST_VALUE_MAX bytes. */
enum { WINDOW = 1 << 20, MANIFEST_VALUE_MAX = 64 * 1024, SKIP_DEPTH_MAX = 512 };

typedef struct reader {
	int fd;
	char *buf;
	size_t len, pos; /* buf[pos, len) not yet consumed */
	bool eof, failed;
} reader;

/* At least want bytes from pos, unless the file ends first. */
static void fill(reader *r, size_t want)
{
	if (r->len - r->pos >= want || r->eof)
		return;
	memmove(r->buf, r->buf + r->pos, r->len - r->pos);
	r->len -= r->pos;
	r->pos = 0;
	while (r->len < WINDOW && !r->eof) {
		ssize_t n = read(r->fd, r->buf + r->len, WINDOW - r->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r->eof = true;
			r->failed |= n < 0;
			break;
		}
		r->len += (size_t)n;
	}
}

/* The next byte that is not JSON white space, not consumed; -1 at the end. */
static int next(reader *r)
{
	for (;;) {
		fill(r, 1);
		if (r->pos == r->len)
			return -1;
		char c = r->buf[r->pos];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			return (unsigned char)c;
		r->pos++;
	}
}

static bool take(reader *r, char c)
{
	if (next(r) != (unsigned char)c)
		return false;
	r->pos++;
	return true;
}

/* One value parsed by jansson: at most MANIFEST_VALUE_MAX bytes. */
static json_t *parse_value(reader *r)
{
	next(r);
	fill(r, MANIFEST_VALUE_MAX);
	json_error_t err;
	size_t avail = r->len - r->pos;
	json_t *v = json_loadb(r->buf + r->pos, avail < MANIFEST_VALUE_MAX ? avail : MANIFEST_VALUE_MAX,
			       JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &err);
	if (v)
		r->pos += (size_t)err.position;
	return v;
}

/* Past one value without building it: a string, a run of brackets with the
 * strings in them, or a scalar's bytes. False when it is not well formed. */
static bool skip_value(reader *r)
{
	int depth = 0;
	bool in_string = false;
	int c = next(r);
	if (c == -1)
		return false;
	for (;;) {
		fill(r, 2);
		if (r->pos == r->len)
			return false;
		char ch = r->buf[r->pos];
		if (in_string) {
			r->pos += ch == '\\' && r->len - r->pos >= 2 ? 2 : 1;
			if (ch == '"') {
				in_string = false;
				if (!depth)
					return true;
			}
			continue;
		}
		if (ch == '"') {
			in_string = true;
		} else if (ch == '[' || ch == '{') {
			if (++depth > SKIP_DEPTH_MAX)
				return false;
		} else if (ch == ']' || ch == '}') {
			if (!depth)
				return true; /* a scalar ended by its container's close: not consumed */
			if (--depth == 0) {
				r->pos++;
				return true;
			}
		} else if (!depth && (ch == ',' || ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r')) {
			return true; /* a scalar's end */
		}
		r->pos++;
	}
}

typedef struct head {
	json_t *format, *version, *generator, *nodes;
	bool files;
} head;

static bool ours_so_far(const head *h)
{
	const char *format = json_string_value(h->format), *gen = json_string_value(h->generator);
	if (format)
		return strcmp(format, OUTPUT_FORMAT) == 0 && json_is_integer(h->version) &&
		       json_integer_value(h->version) == OUTPUT_FORMAT_VERSION;
	return !h->format && gen && strncmp(gen, "dslc ", 5) == 0;
}

/* "files": each entry to fn, one at a time. */
static bool scan_files(reader *r, manifest_entry_fn fn, void *ctx, size_t *count)
{
	if (!take(r, '['))
		return false;
	if (take(r, ']'))
		return true;
	for (;;) {
		json_t *e = parse_value(r);
		bool ok = json_is_object(e) && fn(ctx, e);
		json_decref(e);
		if (!ok)
			return false;
		++*count;
		if (take(r, ']'))
			return true;
		if (!take(r, ','))
			return false;
	}
}

/* A head key's value, once: the slot it goes in, or NULL for a key the
 * scan steps over. */
static json_t **head_slot(head *h, const char *key)
{
	return strcmp(key, "format") == 0 ? &h->format : strcmp(key, "format_version") == 0 ? &h->version
	       : strcmp(key, "generator") == 0 ? &h->generator : strcmp(key, "nodes") == 0 ? &h->nodes : NULL;
}

static bool scan_top(reader *r, off_t size, manifest_entry_fn fn, void *ctx, int *err)
{
	head h = {0};
	size_t count = 0;
	bool ok = take(r, '{');
	if (ok && take(r, '}'))
		ok = false; /* no files: not a manifest */
	while (ok) {
		json_t *key = parse_value(r);
		const char *k = json_string_value(key);
		ok = k && take(r, ':');
		json_t **slot = ok ? head_slot(&h, k) : NULL;
		if (ok && slot) {
			ok = !*slot && (*slot = parse_value(r)) != NULL; /* twice: not dslc's */
			/* the size a manifest of that many nodes may have */
			if (ok && slot == &h.nodes && json_is_integer(h.nodes) && json_integer_value(h.nodes) >= 0 &&
			    (uint64_t)size > MANIFEST_HEAD_BYTES + (uint64_t)json_integer_value(h.nodes) * MANIFEST_NODE_BYTES) {
				*err = EFBIG;
				ok = false;
			}
		} else if (ok && strcmp(k, "files") == 0) {
			/* the head comes first in what dslc writes: entries are
			 * handed on only once the file is known to be dslc's */
			ok = !h.files && ours_so_far(&h) && (h.files = true) && scan_files(r, fn, ctx, &count);
		} else if (ok) {
			ok = skip_value(r);
		}
		json_decref(key);
		if (!ok || take(r, '}'))
			break;
		ok = take(r, ',');
	}
	ok = ok && h.files && next(r) == -1 && !r->failed && (json_is_string(h.format) || count > 0);
	json_decref(h.format);
	json_decref(h.version);
	json_decref(h.generator);
	json_decref(h.nodes);
	return ok;
}

int manifest_each(int dirfd, size_t max_bytes, manifest_entry_fn fn, void *ctx, int *err)
{
	struct stat st;
	int fd = src_open_regular(dirfd, "manifest.json", true, &st);
	*err = 0;
	if (fd < 0 || (size_t)st.st_size > max_bytes) { /* src_open_regular checked the type */
		*err = fd < 0 ? errno : EFBIG;
		if (fd >= 0)
			close(fd);
		return -1;
	}
	reader r = {.fd = fd, .buf = malloc(WINDOW)};
	if (!r.buf)
		abort();
	bool ok = scan_top(&r, st.st_size, fn, ctx, err);
	free(r.buf);
	close(fd);
	if (!ok && !*err && r.failed)
		*err = EIO;
	return ok ? 1 : *err ? -1 : 0;
}
