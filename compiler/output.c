#include "output.h"

#include "plan.h"
#include "value.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <ftw.h>
#include <sys/file.h>
#include <jansson.h>
#include <nettle/sha2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "safety.h"
#include "targets/targets.h"

void sha256_hex(const void *data, size_t len, char out[65])
{
	struct sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_SIZE];
	sha256_init(&ctx);
	sha256_update(&ctx, len, data);
	sha256_digest(&ctx, sizeof(d), d);
	for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

typedef struct writer {
	const char *dir;     /* the tree being replaced */
	char *stage;         /* sibling staging directory */
	int old_root, new_root; /* directory fds of dir and stage (-1: none) */
	/* The directory of the previous file, open in both trees: files come
	 * grouped by node, so most files need no directory walk. */
	char cur_dir[4096];
	int cur_old, cur_new;
	bool cur_open; /* cur_dir is entered (cur_old/cur_new may still be -1) */
	const strmap *paths; /* every path of the new tree */
	bool check_only, exists;
	bool quiet; /* compare without reporting (the probe before a build) */
	output_stats *st;
	arena *ar;
	/* The manifest's file entries, already serialised: a jansson object per
	 * entry would cost ~1 KiB per file (200 MiB at 16,384 nodes), the text
	 * costs its size. */
	buf files;
	/* Per node: "rel sha256" lines of its files, hashed into its digest when
	 * the next node starts; nodes whose trees have the same digest (manifest
	 * "identical"). */
	buf node_lines;
	const char *node_cur;
	json_t *digests;   /* host -> sha256 of its tree */
	strmap same;       /* sha256 -> same_group */
	struct same_group **groups;
	size_t ngroups, gcap;
	const char *change_target; /* the last file's target and its on_change class */
	const char *change_class;
} writer;

typedef struct same_group {
	const char *sha;
	const char **hosts;
	size_t nhosts, cap;
} same_group;

static void same_add(writer *w, const char *sha, const char *host)
{
	same_group *g = strmap_get(&w->same, sha);
	if (!g) {
		g = arena_alloc(w->ar, sizeof(*g));
		g->sha = arena_strdup(w->ar, sha);
		strmap_put(&w->same, g->sha, g);
		ARENA_PUSH(w->ar, w->groups, w->ngroups, w->gcap, g);
	}
	ARENA_PUSH(w->ar, g->hosts, g->nhosts, g->cap, host);
}

/* The digest of the node whose files came so far. */
static void node_done(writer *w)
{
	if (!w->node_cur)
		return;
	char hex[65];
	sha256_hex(w->node_lines.data, w->node_lines.len, hex);
	json_object_set_new(w->digests, w->node_cur, json_string(hex));
	same_add(w, hex, w->node_cur);
	buf_reset(&w->node_lines);
	w->node_cur = NULL;
}

/* emit_file's answer in the quiet probe: a file differs, stop rendering
 * (a build then stages everything anyway). */
enum { PROBE_STALE = 3 };

static int io_error(const char *what, const char *path)
{
	fprintf(stderr, "dslc: %s '%s': %s\n", what, path, strerror(errno));
	return 2;
}

/* Opens the directory rel (components separated by '/') below root without
 * following a symbolic link at any step, creating missing ones when asked.
 * -1 with errno set (ELOOP or ENOTDIR for a link). */
static int dir_at(int root, const char *rel, bool create)
{
	int fd = dup(root);
	char comp[256];
	for (const char *p = rel; fd >= 0 && *p;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		if (n == 0 || n >= sizeof(comp)) {
			close(fd);
			errno = EINVAL;
			return -1;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		if (create && mkdirat(fd, comp, 0755) != 0 && errno != EEXIST) {
			close(fd);
			return -1;
		}
		int next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = errno;
		close(fd);
		errno = e;
		fd = next;
		p += n + (slash ? 1 : 0);
	}
	return fd;
}

static void close_cur(writer *w)
{
	if (w->cur_old >= 0)
		close(w->cur_old);
	if (w->cur_new >= 0)
		close(w->cur_new);
	w->cur_old = w->cur_new = -1;
	w->cur_open = false;
}

/* Makes dir (relative, may be "") the current directory of both trees. */
static int enter_dir(writer *w, const char *dir)
{
	if (w->cur_open && strcmp(w->cur_dir, dir) == 0)
		return 0;
	close_cur(w);
	if (strlen(dir) >= sizeof(w->cur_dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(w->cur_dir, dir);
	w->cur_open = true;
	w->cur_old = w->old_root >= 0 ? dir_at(w->old_root, dir, false) : -1; /* missing or a link: nothing to reuse */
	if (w->new_root >= 0 && (w->cur_new = dir_at(w->new_root, dir, true)) < 0)
		return -1;
	return 0;
}

/* 1 when name in dirfd is a regular file holding exactly data, 0 when it
 * differs, -1 when it is missing (or is not a regular file). */
int output_same_content(int dirfd, const char *name, const char *data, size_t len)
{
	if (dirfd < 0 && dirfd != AT_FDCWD) /* a tree with no old directory here */
		return -1;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	if ((size_t)st.st_size != len) {
		close(fd);
		return 0;
	}
	char chunk[65536];
	size_t off = 0;
	int same = 1;
	while (same && off < len) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n <= 0) {
			same = 0;
			break;
		}
		same = off + (size_t)n <= len && memcmp(chunk, data + off, (size_t)n) == 0;
		off += (size_t)n;
	}
	close(fd);
	return same && off == len;
}

static int write_file(int dirfd, const char *name, const buf *data, int mode)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0)
		return -1;
	size_t off = 0;
	while (off < data->len) {
		ssize_t n = write(fd, data->data + off, data->len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -1;
		}
		off += (size_t)n;
	}
	return close(fd);
}

/* A JSON string as jansson writes it (JSON_INDENT without ENSURE_ASCII):
 * quote, backslash and control bytes escaped, UTF-8 as it is. */
static void json_str(buf *b, const char *s)
{
	buf_puts(b, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c == '\n')
			buf_puts(b, "\\n");
		else if (c == '\t')
			buf_puts(b, "\\t");
		else if (c == '\r')
			buf_puts(b, "\\r");
		else if (c == '\b')
			buf_puts(b, "\\b");
		else if (c == '\f')
			buf_puts(b, "\\f");
		else if (c < 0x20)
			buf_printf(b, "\\u%04X", c); /* jansson src/dump.c dump_string */
		else
			buf_add(b, s, 1);
	}
	buf_puts(b, "\"");
}

/* Appends one entry of the manifest's "files" array, indented two levels
 * as json_dumps(JSON_INDENT(2)) lays it out: written directly, a jansson
 * object per file cost an allocation per field and a serialisation per file
 * (229k files at 16,384 nodes). tests/golden.sh pins the bytes. */
static void manifest_entry(buf *files, const char *rel, const char *node, const char *target, const char *sha,
			   size_t size, int mode, const char *on_change)
{
	buf_puts(files, files->len ? ",\n    {\n      \"path\": " : "    {\n      \"path\": ");
	json_str(files, rel);
	if (node) {
		buf_puts(files, ",\n      \"node\": ");
		json_str(files, node);
	}
	buf_puts(files, ",\n      \"target\": ");
	json_str(files, target);
	buf_printf(files, ",\n      \"sha256\": \"%s\",\n      \"size\": %zu,\n      \"mode\": \"%04o\",\n      \"on_change\": ", sha,
		   size, mode & 07777);
	json_str(files, on_change);
	buf_puts(files, "\n    }");
}

/* Puts one artifact into the staged tree (or compares it, in check mode). */
static int emit_file(writer *w, const char *rel, const char *node, const char *target, const buf *data, int mode)
{
	char hex[65];
	sha256_hex(data->data, data->len, hex);
	if (w->change_target != target) { /* files come grouped by target: look up once per run */
		w->change_target = target;
		w->change_class = disruption_classes[disruption_of(target, "")].id;
	}
	manifest_entry(&w->files, rel, node, target, hex, data->len, mode, w->change_class);
	if (node) {
		if (!w->node_cur || strcmp(w->node_cur, node) != 0) {
			node_done(w);
			w->node_cur = node;
		}
		buf_printf(&w->node_lines, "%s %s\n", rel + strlen("nodes/") + strlen(node) + 1, hex);
	}
	w->st->files++;

	/* Paths come from validated names only; this is the last line of defence
	 * against a name that would leave the tree. */
	if (!safe_rel_path(rel)) {
		fprintf(stderr, "dslc: refusing to write '%s': not a safe relative path\n", safe_echo(w->ar, rel));
		return 2;
	}
	const char *slash = strrchr(rel, '/');
	const char *base = slash ? slash + 1 : rel;
	char dir[4096];
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - rel) : 0, rel);
	if (enter_dir(w, dir) != 0)
		return io_error("cannot create the directory of", rel);
	int same = output_same_content(w->cur_old, base, data->data, data->len);
	if (w->check_only) {
		if (same != 1) {
			if (w->quiet)
				return PROBE_STALE; /* the probe before a build: one difference is enough */
			fprintf(stderr, "dslc: %s: %s\n", rel, same == 0 ? "differs" : "missing");
			w->st->stale++;
		}
		return 0;
	}
	if (same == 1 && linkat(w->cur_old, base, w->cur_new, base, 0) == 0) {
		w->st->unchanged++;
		return 0;
	}
	if (write_file(w->cur_new, base, data, mode) != 0)
		return io_error("cannot write", rel);
	w->st->written++;
	return 0;
}

/* Files of the old tree that the new one does not have: counted while
 * walking the old tree (check mode), or while deleting it (build mode). */
static struct {
	const strmap *paths;
	size_t root_len;
	size_t extra;
	bool report;
} g_walk;

static void walk_start(const strmap *paths, const char *root, bool report)
{
	g_walk.paths = paths;
	g_walk.root_len = strlen(root);
	g_walk.extra = 0;
	g_walk.report = report;
}

static void walk_file(const char *path)
{
	if (!g_walk.paths || strlen(path) <= g_walk.root_len)
		return;
	const char *rel = path + g_walk.root_len + 1;
	if (!strmap_get(g_walk.paths, rel)) {
		g_walk.extra++;
		if (g_walk.report)
			fprintf(stderr, "dslc: %s: not generated any more\n", rel);
	}
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path);
	walk_file(path);
	return unlink(path);
}

static void remove_tree(const char *path)
{
	nftw(path, rm_entry, 32, FTW_DEPTH | FTW_PHYS);
}

static int count_extra(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (flag == FTW_F || flag == FTW_SL)
		walk_file(path);
	return 0;
}

static size_t read_chunk(void *buffer, size_t size, void *data)
{
	ssize_t n;
	do
		n = read(*(int *)data, buffer, size < 65536 ? size : 65536);
	while (n < 0 && errno == EINTR);
	return n < 0 ? (size_t)-1 : (size_t)n;
}

json_t *output_manifest_read(int dirfd, size_t max_bytes, int *err)
{
	int fd = openat(dirfd, "manifest.json", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	*err = 0;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > max_bytes) {
		*err = fd < 0 ? errno : !S_ISREG(st.st_mode) ? SRC_ENOTREG : EFBIG;
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	/* in 64 KiB reads: jansson's json_loadfd reads one byte per read()
	 * (src/load.c fd_get_func), 70 million system calls for the manifest of
	 * 16,384 nodes; nor is the whole text held beside the parsed tree */
	json_error_t jerr;
	json_t *root = json_load_callback(read_chunk, &fd, JSON_REJECT_DUPLICATES, &jerr);
	close(fd);
	const char *format = json_string_value(json_object_get(root, "format"));
	const char *gen = json_string_value(json_object_get(root, "generator"));
	json_t *files = json_object_get(root, "files");
	bool ours = json_is_array(files) &&
		    ((format && strcmp(format, OUTPUT_FORMAT) == 0 &&
		      json_integer_value(json_object_get(root, "format_version")) == OUTPUT_FORMAT_VERSION) ||
		     (!format && gen && strncmp(gen, "dslc ", 5) == 0 && json_array_size(files) > 0));
	if (!ours) {
		json_decref(root);
		return NULL;
	}
	return root;
}

/* dslc replaces only its own trees: an empty directory, or one whose
 * manifest.json is dslc's (its format marker, or a generator "dslc ..." from
 * before the marker) and lists only files that are there. Never a home
 * directory given by mistake, nor a directory holding a stray manifest. */
static bool replaceable(int dirfd, arena *ar, const char **why)
{
	DIR *d = fdopendir(dup(dirfd));
	bool empty = true;
	if (d) {
		for (struct dirent *e; (e = readdir(d));)
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				empty = false;
		closedir(d);
	}
	if (empty)
		return true;
	int err;
	json_t *root = output_manifest_read(dirfd, SIZE_MAX, &err);
	*why = err ? "has no manifest.json" : "has a manifest.json that dslc did not write";
	bool ours = root != NULL;
	size_t i;
	json_t *f;
	json_array_foreach(ours ? json_object_get(root, "files") : NULL, i, f) {
		const char *path = json_string_value(json_object_get(f, "path"));
		struct stat fs;
		if (!path || !safe_rel_path(path) || fstatat(dirfd, path, &fs, AT_SYMLINK_NOFOLLOW) != 0) {
			*why = arena_printf(ar, "has a manifest.json listing '%s', which is not there", path ? safe_echo(ar, path) : "?");
			ours = false;
			break;
		}
	}
	json_decref(root);
	return ours;
}

int output_render_node(const model *m, const node *nd, arena *ar, output_file_fn fn, void *ctx)
{
	buf b;
	buf_init(&b);
	int rc = 0;
	for (size_t t = 0; t < target_count && !rc; t++) {
		for (int idx = 0; !rc; idx++) {
			buf_reset(&b);
			target_file tf = {&b, target_table[t].path, 0644, idx};
			target_result r = target_table[t].fn(m, nd, &tf);
			if (r == TARGET_SKIP)
				break;
			if (r == TARGET_FAIL) {
				fprintf(stderr, "dslc: target %s refused to write for %s: a value failed its safety check (nothing written)\n", target_table[t].name, nd->host);
				rc = 2;
				break;
			}
			rc = fn(ctx, arena_printf(ar, "nodes/%s/%s", nd->host, tf.path), nd->host, target_table[t].name, &b, tf.mode);
		}
	}
	buf_free(&b);
	return rc;
}

int output_render_cluster(const model *m, arena *ar, output_file_fn fn, void *ctx)
{
	buf b;
	buf_init(&b);
	int rc = 0;
	for (size_t t = 0; t < cluster_target_count && !rc; t++) {
		for (int idx = 0; !rc; idx++) {
			buf_reset(&b);
			target_file tf = {&b, cluster_target_table[t].path, cluster_target_table[t].mode, idx};
			target_result r = cluster_target_table[t].fn(m, &tf);
			if (r == TARGET_SKIP)
				break;
			if (r == TARGET_FAIL) {
				fprintf(stderr, "dslc: target %s refused to write: a value failed its safety check (nothing written)\n",
					cluster_target_table[t].name);
				rc = 2;
				break;
			}
			rc = fn(ctx, arena_printf(ar, "cluster/%s", tf.path), NULL, cluster_target_table[t].name, &b, tf.mode);
		}
	}
	buf_free(&b);
	return rc;
}

typedef struct emit_ctx {
	writer *w;
	strmap *paths;
} emit_ctx;

static int emit_rendered(void *ctx, const char *rel, const char *node, const char *target, const buf *data, int mode)
{
	emit_ctx *e = ctx;
	strmap_put(e->paths, rel, (void *)rel);
	return emit_file(e->w, rel, node, target, data, mode);
}

static int render_all(const model *m, writer *w, strmap *paths, arena *ar)
{
	emit_ctx e = {w, paths};
	int rc = 0;
	for (size_t i = 0; i < m->nnodes && !rc; i++)
		rc = output_render_node(m, &m->nodes[i], ar, emit_rendered, &e);
	return rc ? rc : output_render_cluster(m, ar, emit_rendered, &e);
}

static int emit_manifest(const model *m, writer *w, strmap *paths, const char *version)
{
	json_t *root = json_object();
	json_object_set_new(root, "format", json_string(OUTPUT_FORMAT));
	json_object_set_new(root, "format_version", json_integer(OUTPUT_FORMAT_VERSION));
	json_object_set_new(root, "generator", json_string(version));
	json_object_set_new(root, "daos_release", json_string(m->release->name));
	json_object_set_new(root, "cluster", json_string(m->cluster.name));
	json_object_set_new(root, "nodes", json_integer((json_int_t)m->nnodes));
	node_done(w);
	json_object_set_new(root, "node_digests", json_incref(w->digests));
	json_t *same = json_array();
	for (size_t i = 0; i < w->ngroups; i++) {
		const same_group *g = w->groups[i];
		json_array_append_new(same, json_pack("{s:s, s:I, s:s}", "sha256", g->sha, "count",
						      (json_int_t)g->nhosts, "hosts", hostlist_compress(w->ar, g->hosts, g->nhosts)));
	}
	json_object_set_new(root, "identical", same);
	json_object_set_new(root, "files", json_array());
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!text)
		return io_error("cannot serialise", "manifest.json");
	/* "files" is the last key: its empty array is where the entries go */
	char *files = strstr(text, "\"files\": []");
	if (!files) {
		free(text);
		return io_error("cannot serialise", "manifest.json");
	}
	buf b;
	buf_init(&b);
	buf_add(&b, text, (size_t)(files - text));
	if (w->files.len) {
		buf_puts(&b, "\"files\": [\n");
		buf_add(&b, w->files.data, w->files.len);
		buf_puts(&b, "\n  ]");
	} else {
		buf_puts(&b, "\"files\": []");
	}
	buf_puts(&b, files + strlen("\"files\": []"));
	buf_puts(&b, "\n");
	free(text);
	strmap_put(paths, "manifest.json", "manifest.json");
	/* the manifest lists the artifacts, not itself */
	w->st->files--;
	size_t listed = w->files.len;
	int rc = emit_file(w, "manifest.json", NULL, "manifest", &b, 0644);
	w->files.len = listed;
	w->st->files++;
	buf_free(&b);
	return rc;
}

static int swap_in(writer *w)
{
	if (!w->exists) {
		if (rename(w->stage, w->dir) != 0)
			return io_error("cannot move the new tree to", w->dir);
		return 0;
	}
	if (renameat2(AT_FDCWD, w->stage, AT_FDCWD, w->dir, RENAME_EXCHANGE) == 0) {
		walk_start(w->paths, w->stage, false);
		remove_tree(w->stage); /* now holds the old tree */
		w->st->removed = g_walk.extra;
		return 0;
	}
	if (errno != EINVAL && errno != ENOSYS)
		return io_error("cannot replace", w->dir);
	/* a file system without RENAME_EXCHANGE: two renames */
	char old[4096];
	snprintf(old, sizeof(old), "%s.dslc-old-%ld", w->dir, (long)getpid());
	if (rename(w->dir, old) != 0)
		return io_error("cannot move aside", w->dir);
	if (rename(w->stage, w->dir) != 0) {
		int e = errno;
		rename(old, w->dir);
		errno = e;
		return io_error("cannot move the new tree to", w->dir);
	}
	walk_start(w->paths, old, false);
	remove_tree(old);
	w->st->removed = g_walk.extra;
	return 0;
}

static void writer_init(writer *w, const char *dir, output_stats *st, arena *ar)
{
	memset(w, 0, sizeof(*w));
	w->dir = dir;
	w->st = st;
	w->ar = ar;
	w->old_root = w->new_root = w->cur_old = w->cur_new = -1;
	buf_init(&w->files);
	buf_init(&w->node_lines);
	w->digests = json_object();
	strmap_init(&w->same, ar);
}

static void writer_free(writer *w)
{
	close_cur(w);
	if (w->old_root >= 0)
		close(w->old_root);
	if (w->new_root >= 0)
		close(w->new_root);
	buf_free(&w->files);
	buf_free(&w->node_lines);
	json_decref(w->digests);
}

/* Compares the rendered tree with dir: 0 identical, 1 stale, 2 error. */
static int compare_tree(const model *m, const char *dir, int dirfd, const char *version, output_stats *st, arena *ar,
			bool quiet)
{
	writer w;
	writer_init(&w, dir, st, ar);
	w.check_only = true;
	w.exists = true;
	w.quiet = quiet;
	w.old_root = dup(dirfd);
	strmap paths;
	strmap_init(&paths, ar);
	int rc = render_all(m, &w, &paths, ar);
	if (!rc)
		rc = emit_manifest(m, &w, &paths, version);
	writer_free(&w);
	if (rc == PROBE_STALE)
		return 1;
	if (!rc) {
		walk_start(&paths, dir, !quiet);
		nftw(dir, count_extra, 32, FTW_PHYS);
		st->stale += g_walk.extra;
	}
	return rc ? rc : st->stale ? 1 : 0;
}

/* Renders into a sibling staging directory and swaps it in. */
static int stage_and_swap(const model *m, const char *dir, int dirfd, const char *version, output_stats *st, arena *ar)
{
	memset(st, 0, sizeof(*st));
	writer w;
	writer_init(&w, dir, st, ar);
	w.exists = dirfd >= 0;
	w.old_root = dirfd >= 0 ? dup(dirfd) : -1;
	w.stage = arena_printf(ar, "%s.dslc-new-%ld", dir, (long)getpid());
	walk_start(NULL, w.stage, false);
	remove_tree(w.stage);
	if (mkdir(w.stage, 0755) != 0 ||
	    (w.new_root = open(w.stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		writer_free(&w);
		return io_error("cannot create", w.stage);
	}
	strmap paths;
	strmap_init(&paths, ar);
	w.paths = &paths;
	int rc = render_all(m, &w, &paths, ar);
	if (!rc)
		rc = emit_manifest(m, &w, &paths, version);
	close_cur(&w);
	if (!rc)
		rc = swap_in(&w);
	if (rc) {
		walk_start(NULL, w.stage, false);
		remove_tree(w.stage);
	}
	writer_free(&w);
	return rc;
}

/* Creates the missing parents of path (mkdir -p of its directory). */
static int make_parents(const char *path)
{
	char p[4096];
	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		int r = mkdir(p, 0755);
		*s = '/';
		if (r != 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

/* Splits dir into its parent ("." for a bare name, "/" for "/x") and its
 * last component, which is returned. */
static const char *split_dir(const char *dir, char *parent, size_t size)
{
	const char *slash = strrchr(dir, '/');
	if (!slash) {
		snprintf(parent, size, ".");
		return dir;
	}
	snprintf(parent, size, "%.*s", (int)(slash - dir) + (slash == dir), dir);
	return slash + 1;
}

/* Removes DIR.dslc-new-* and DIR.dslc-old-* left by a build that died:
 * under the lock no other build is staging. */
static void remove_stale_siblings(const char *dir)
{
	char parent[4096];
	const char *base = split_dir(dir, parent, sizeof(parent));
	size_t bl = strlen(base);
	DIR *d = opendir(parent);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		const char *n = e->d_name;
		if (strncmp(n, base, bl) != 0 || (strncmp(n + bl, ".dslc-new-", 10) != 0 && strncmp(n + bl, ".dslc-old-", 10) != 0))
			continue;
		const char *pid = n + bl + 10;
		if (!*pid || strspn(pid, "0123456789") != strlen(pid))
			continue;
		char path[8192];
		snprintf(path, sizeof(path), "%s/%s", parent, n);
		walk_start(NULL, path, false);
		remove_tree(path);
	}
	closedir(d);
}

/* Serialises builds into one directory: flock on DIR.dslc-lock beside it.
 * A second build waits and says so; --check takes a shared lock. */
static int lock_tree(const char *dir, bool shared)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s.dslc-lock", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return io_error("cannot open the lock", path), -1;
	int op = shared ? LOCK_SH : LOCK_EX;
	if (flock(fd, op | LOCK_NB) != 0) {
		fprintf(stderr, "dslc: another dslc is building %s; waiting for it (lock %s)\n", dir, path);
		if (flock(fd, op) != 0) {
			io_error("cannot lock", path);
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* The output directory as given, normalised (no trailing '/'), or NULL
 * with a message for what dslc refuses to replace by renaming. */
static const char *output_dir(const char *given, arena *ar)
{
	size_t len = strlen(given);
	while (len > 1 && given[len - 1] == '/')
		len--;
	const char *dir = arena_strndup(ar, given, len);
	char parent[4096];
	const char *base = split_dir(dir, parent, sizeof(parent));
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		fprintf(stderr, "dslc: -o %s: name the output directory itself (e.g. -o ../out): dslc replaces it by renaming\n", given);
		return NULL;
	}
	return dir;
}

/* Refuses what dslc must not replace; opens an existing tree (*dirfd, -1
 * when there is none). 0 or 2. */
static int check_dir(const char *dir, bool check_only, int *dirfd, arena *ar)
{
	struct stat sb, pb;
	*dirfd = -1;
	if (lstat(dir, &sb) != 0) {
		if (errno == ENOENT)
			return 0;
		return io_error("cannot access", dir);
	}
	if (S_ISLNK(sb.st_mode)) {
		char target[4096];
		ssize_t n = readlink(dir, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		fprintf(stderr, "dslc: '%s' is a symbolic link to '%s': dslc replaces its output tree by renaming, "
			"which would replace the link\nhelp: give the directory itself: -o %s\n", dir, target, target);
		return 2;
	}
	if (!S_ISDIR(sb.st_mode)) {
		errno = ENOTDIR;
		return io_error("output is not a directory:", dir);
	}
	char parent[4096];
	split_dir(dir, parent, sizeof(parent));
	if (!check_only && stat(parent, &pb) == 0 && pb.st_dev != sb.st_dev) {
		fprintf(stderr, "dslc: '%s' is a mount point: dslc replaces its output tree by renaming, which a mount point "
			"cannot be\nhelp: build into a directory inside it, e.g. -o %s/out\n", dir, dir);
		return 2;
	}
	*dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*dirfd < 0)
		return io_error("cannot open", dir);
	const char *why = NULL;
	if (!check_only && !replaceable(*dirfd, ar, &why)) {
		fprintf(stderr, "dslc: '%s' is not empty and %s: refusing to replace it\n"
			"help: give an empty or new directory; dslc owns its output tree\n", dir, why);
		close(*dirfd);
		*dirfd = -1;
		return 2;
	}
	return 0;
}

int output_build(const model *m, const char *given, bool check_only, const char *version, output_stats *st)
{
	memset(st, 0, sizeof(*st));
	arena ar;
	arena_init(&ar);
	int rc = 2, dirfd = -1, lock = -1;
	const char *dir = output_dir(given, &ar);
	if (!dir)
		goto out;
	if (!check_only && make_parents(dir) != 0) {
		rc = io_error("cannot create the parent directories of", dir);
		goto out;
	}
	if (check_only && access(dir, F_OK) != 0) {
		fprintf(stderr, "dslc: %s does not exist\n", dir);
		st->stale = 1;
		rc = 1;
		goto out;
	}
	if ((lock = lock_tree(dir, check_only)) < 0)
		goto out;
	if (!check_only)
		remove_stale_siblings(dir);
	if ((rc = check_dir(dir, check_only, &dirfd, &ar)) != 0)
		goto out;
	if (check_only)
		rc = compare_tree(m, dir, dirfd, version, st, &ar, false);
	else if (dirfd >= 0 && compare_tree(m, dir, dirfd, version, st, &ar, true) == 0)
		st->unchanged = st->files; /* nothing to stage, link or swap */
	else
		rc = stage_and_swap(m, dir, dirfd, version, st, &ar);
out:
	if (dirfd >= 0)
		close(dirfd);
	if (lock >= 0)
		close(lock);
	arena_free(&ar);
	return rc;
}
