#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <ftw.h>
#include <jansson.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
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
	char last_dir[4096]; /* the directory of the previous file: already created */
	const strmap *paths; /* every path of the new tree */
	bool check_only, exists;
	bool quiet; /* compare without reporting (the probe before a build) */
	output_stats *st;
	/* The manifest's file entries, already serialised: a jansson object per
	 * entry would cost ~1 KiB per file (200 MiB at 16,384 nodes), the text
	 * costs its size. */
	buf files;
} writer;

static int io_error(const char *what, const char *path)
{
	fprintf(stderr, "dslc: %s '%s': %s\n", what, path, strerror(errno));
	return 2;
}

/* Creates the directories of path that the previous file's directory (last)
 * did not already have: files come grouped by node, so most need none. */
static int mkdirs(char *path, char *last)
{
	char *slash = strrchr(path, '/');
	if (!slash)
		return 0;
	size_t dl = (size_t)(slash - path);
	if (strlen(last) == dl && strncmp(path, last, dl) == 0)
		return 0;
	size_t common = 0;
	while (common < dl && path[common] == last[common])
		common++;
	while (common > 0 && path[common] != '/' && last[common] != '\0')
		common--;
	for (char *p = path + common + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int r = mkdir(path, 0755);
		*p = '/';
		if (r != 0 && errno != EEXIST)
			return -1;
	}
	if (dl < 4096) {
		memcpy(last, path, dl);
		last[dl] = '\0';
	}
	return 0;
}

/* 1 when path holds exactly data (a regular file, not a link), 0 otherwise. */
static int same_content(const char *path, const buf *data)
{
	struct stat st;
	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != data->len)
		return 0;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	char chunk[65536];
	size_t off = 0;
	int same = 1;
	while (same && off < data->len) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n <= 0) {
			same = 0;
			break;
		}
		same = off + (size_t)n <= data->len && memcmp(chunk, data->data + off, (size_t)n) == 0;
		off += (size_t)n;
	}
	close(fd);
	return same && off == data->len;
}

static int write_file(const char *path, const buf *data, int mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
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

/* Appends one entry, indented as an element of the manifest's "files"
 * array (two levels deep), so the manifest reads as one json_dumps. */
static void manifest_entry(buf *files, const char *text)
{
	if (files->len)
		buf_puts(files, ",\n");
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) + 1 : strlen(line);
		buf_puts(files, "    ");
		buf_add(files, line, n);
		line += n;
	}
}

/* Puts one artifact into the staged tree (or compares it, in check mode). */
static int emit_file(writer *w, const char *rel, const char *node, const char *target, const buf *data, int mode)
{
	char hex[65];
	sha256_hex(data->data, data->len, hex);
	json_t *f = json_object();
	json_object_set_new(f, "path", json_string(rel));
	if (node)
		json_object_set_new(f, "node", json_string(node));
	json_object_set_new(f, "target", json_string(target));
	json_object_set_new(f, "sha256", json_string(hex));
	json_object_set_new(f, "size", json_integer((json_int_t)data->len));
	char *text = json_dumps(f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(f);
	if (!text)
		return io_error("cannot serialise the manifest entry of", rel);
	manifest_entry(&w->files, text);
	free(text);
	w->st->files++;

	char old[4096], neu[4096];
	if (snprintf(old, sizeof(old), "%s/%s", w->dir, rel) >= (int)sizeof(old)) {
		errno = ENAMETOOLONG;
		return io_error("path too long", rel);
	}
	int same = w->exists && same_content(old, data);
	if (w->check_only) {
		if (!same) {
			if (!w->quiet)
				fprintf(stderr, "dslc: %s: %s\n", rel, access(old, F_OK) == 0 ? "differs" : "missing");
			w->st->stale++;
		}
		return 0;
	}
	snprintf(neu, sizeof(neu), "%s/%s", w->stage, rel);
	if (mkdirs(neu, w->last_dir) != 0)
		return io_error("cannot create directories for", neu);
	if (same && link(old, neu) == 0) {
		w->st->unchanged++;
		return 0;
	}
	if (write_file(neu, data, mode) != 0)
		return io_error("cannot write", neu);
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

/* dslc replaces only its own trees: an empty directory, or one holding a
 * manifest.json. Never a home directory given by mistake. */
static bool replaceable(const char *dir)
{
	char p[4096];
	snprintf(p, sizeof(p), "%s/manifest.json", dir);
	if (access(p, F_OK) == 0)
		return true;
	DIR *d = opendir(dir);
	if (!d)
		return false;
	struct dirent *e;
	bool empty = true;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

static int render_all(const model *m, writer *w, strmap *paths, arena *ar)
{
	buf b;
	buf_init(&b);
	int rc = 0;
	for (size_t i = 0; i < m->nnodes && !rc; i++) {
		const node *nd = &m->nodes[i];
		for (size_t t = 0; t < target_count && !rc; t++) {
			for (int idx = 0; !rc; idx++) {
				buf_reset(&b);
				target_file tf = {&b, target_table[t].path, 0644, idx};
				target_result r = target_table[t].fn(m, nd, &tf);
				if (r == TARGET_SKIP)
					break;
				if (r == TARGET_FAIL) {
					fprintf(stderr, "dslc: internal error: target %s failed for %s\n", target_table[t].name, nd->host);
					rc = 2;
					break;
				}
				char *rel = arena_printf(ar, "nodes/%s/%s", nd->host, tf.path);
				strmap_put(paths, rel, rel);
				rc = emit_file(w, rel, nd->host, target_table[t].name, &b, tf.mode);
			}
		}
	}
	for (size_t t = 0; t < cluster_target_count && !rc && m->npools; t++) {
		buf_reset(&b);
		if (!cluster_target_table[t].fn(m, &b)) {
			fprintf(stderr, "dslc: internal error: target %s failed\n", cluster_target_table[t].name);
			rc = 2;
			break;
		}
		char *rel = arena_printf(ar, "cluster/%s", cluster_target_table[t].path);
		strmap_put(paths, rel, rel);
		rc = emit_file(w, rel, NULL, cluster_target_table[t].name, &b, cluster_target_table[t].mode);
	}
	buf_free(&b);
	return rc;
}

static int emit_manifest(const model *m, writer *w, strmap *paths, const char *version)
{
	json_t *root = json_object();
	json_object_set_new(root, "generator", json_string(version));
	json_object_set_new(root, "daos_release", json_string(m->release->name));
	json_object_set_new(root, "cluster", json_string(m->cluster.name));
	json_object_set_new(root, "nodes", json_integer((json_int_t)m->nnodes));
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

/* Compares the rendered tree with dir: 0 identical, 1 stale, 2 error. */
static int compare_tree(const model *m, const char *dir, const char *version, output_stats *st, arena *ar,
			bool quiet)
{
	writer w = {0};
	w.dir = dir;
	w.check_only = true;
	w.exists = true;
	w.quiet = quiet;
	w.st = st;
	buf_init(&w.files);
	strmap paths;
	strmap_init(&paths, ar);
	int rc = render_all(m, &w, &paths, ar);
	if (!rc)
		rc = emit_manifest(m, &w, &paths, version);
	buf_free(&w.files);
	if (!rc) {
		walk_start(&paths, dir, !quiet);
		nftw(dir, count_extra, 32, FTW_PHYS);
		st->stale += g_walk.extra;
	}
	return rc ? rc : st->stale ? 1 : 0;
}

/* Refuses what dslc must not replace; sets *exists. 0 or 2. */
static int check_dir(const char *dir, bool check_only, bool *exists)
{
	struct stat sb;
	*exists = false;
	if (stat(dir, &sb) != 0) {
		if (errno == ENOENT)
			return 0;
		return io_error("cannot access", dir);
	}
	if (!S_ISDIR(sb.st_mode)) {
		errno = ENOTDIR;
		return io_error("output is not a directory:", dir);
	}
	*exists = true;
	if (!check_only && !replaceable(dir)) {
		fprintf(stderr, "dslc: '%s' is not empty and has no manifest.json: refusing to replace it\n"
			"help: give an empty or new directory; dslc owns its output tree\n", dir);
		return 2;
	}
	return 0;
}

/* Renders into a sibling staging directory and swaps it in. */
static int stage_and_swap(const model *m, const char *dir, bool exists, const char *version, output_stats *st,
			  arena *ar)
{
	memset(st, 0, sizeof(*st));
	writer w = {0};
	w.dir = dir;
	w.exists = exists;
	w.st = st;
	size_t len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/')
		len--;
	w.stage = arena_printf(ar, "%.*s.dslc-new-%ld", (int)len, dir, (long)getpid());
	walk_start(NULL, w.stage, false);
	remove_tree(w.stage);
	char last[4096] = "";
	if (mkdirs(w.stage, last) != 0 || mkdir(w.stage, 0755) != 0)
		return io_error("cannot create", w.stage);
	strmap paths;
	strmap_init(&paths, ar);
	w.paths = &paths;
	buf_init(&w.files);
	int rc = render_all(m, &w, &paths, ar);
	if (!rc)
		rc = emit_manifest(m, &w, &paths, version);
	buf_free(&w.files);
	if (!rc)
		rc = swap_in(&w);
	if (rc) {
		walk_start(NULL, w.stage, false);
		remove_tree(w.stage);
	}
	return rc;
}

int output_build(const model *m, const char *dir, bool check_only, const char *version, output_stats *st)
{
	memset(st, 0, sizeof(*st));
	bool exists;
	int rc = check_dir(dir, check_only, &exists);
	if (rc)
		return rc;
	arena ar;
	arena_init(&ar);
	if (check_only) {
		if (exists) {
			rc = compare_tree(m, dir, version, st, &ar, false);
		} else {
			fprintf(stderr, "dslc: %s does not exist\n", dir);
			st->stale = 1;
			rc = 1;
		}
	} else if (exists && compare_tree(m, dir, version, st, &ar, true) == 0) {
		st->unchanged = st->files; /* nothing to stage, link or swap */
	} else {
		rc = stage_and_swap(m, dir, exists, version, st, &ar);
	}
	arena_free(&ar);
	return rc;
}
