/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* snapshot.c - a node's reads written back as a root. Paths come from the
 * checks (fixed names and the build's safe file names); the bytes from the
 * node. Everything is created fresh under a new directory (O_EXCL, no
 * link followed), so a hostile node's values cannot steer a write. */
#include "snapshot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>

#include "compiler/base/source.h"
#include "compiler/base/strmap.h"

/* mkdir -p of rel's directories below fd (rel's last component excluded
 * unless whole). */
static bool make_dirs(int fd, const char *rel, bool whole)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s", rel);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdirat(fd, path, 0755) != 0 && errno != EEXIST)
			return false;
		*p = '/';
	}
	return !whole || mkdirat(fd, path, 0755) == 0 || errno == EEXIST;
}

/* Every file 0644: the node's mode is data (SNAPSHOT_MODES), never applied. */
static bool write_file(int dir, const char *rel, const char *data, size_t len)
{
	if (!make_dirs(dir, rel, false))
		return false;
	int fd = openat(dir, rel, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno == EEXIST; /* read twice: the same bytes */
	size_t off = 0;
	while (off < len) {
		ssize_t k = write(fd, data + off, len - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			close(fd);
			return false;
		}
		off += (size_t)k;
	}
	bool ok = fchmod(fd, 0644) == 0;
	return close(fd) == 0 && ok;
}

static bool write_seen(int dir, const seen *s)
{
	switch (s->kind) {
	case SEEN_FILE:
		return write_file(dir, s->rel, s->data, s->len);
	case SEEN_LINK:
		return make_dirs(dir, s->rel, false) && (symlinkat(s->data, dir, s->rel) == 0 || errno == EEXIST);
	case SEEN_DIR:
		if (!make_dirs(dir, s->rel, true))
			return false;
		for (int i = 0; i < s->nnames; i++) {
			char rel[4096];
			snprintf(rel, sizeof(rel), "%s/%s", s->rel, s->names[i]);
			if (!make_dirs(dir, rel, true))
				return false;
		}
		return true;
	case SEEN_EXISTS: {
		struct stat st;
		return fstatat(dir, s->rel, &st, AT_SYMLINK_NOFOLLOW) == 0 || make_dirs(dir, s->rel, true);
	}
	}
	return false;
}

/* SNAPSHOT_MODES: each file read, with the mode it had on the node. */
static bool write_modes(int dir, const doctor_ctx *c)
{
	json_t *modes = json_object();
	for (size_t i = 0; i < c->nseen; i++) {
		if (c->seen[i].kind != SEEN_FILE)
			continue;
		char octal[8];
		snprintf(octal, sizeof(octal), "%04o", c->seen[i].mode & 07777);
		json_object_set_new(modes, c->seen[i].rel, json_string(octal));
	}
	json_t *doc = json_pack("{s:s, s:o}", "format", "dslc-snapshot-modes", "modes", modes);
	char *text = doc ? json_dumps(doc, JSON_INDENT(1) | JSON_SORT_KEYS) : NULL;
	json_decref(doc);
	if (!text) {
		errno = ENOMEM;
		return false;
	}
	size_t len = strlen(text);
	text[len] = '\n'; /* json_dumps's NUL: the file ends with a newline */
	bool ok = write_file(dir, SNAPSHOT_MODES, text, len + 1);
	free(text);
	return ok;
}

/* A mode as recorded: "0640". */
static bool mode_of(const char *s, unsigned *mode)
{
	char *end;
	unsigned long v = strtoul(s, &end, 8);
	if (!*s || *end || strspn(s, "01234567") != strlen(s) || v > 07777)
		return false;
	*mode = (unsigned)v;
	return true;
}

void snapshot_load_modes(doctor_ctx *c)
{
	rootfs_file f = rootfs_read(c->ar, c->root, SNAPSHOT_MODES, DOCTOR_MAX_FILE, true);
	if (f.status == ROOTFS_ABSENT)
		return;
	const char *why = NULL;
	json_error_t err;
	json_t *doc = f.status == ROOTFS_OK ? json_loadb(f.data, f.len, JSON_REJECT_DUPLICATES, &err) : NULL;
	json_t *modes = json_object_get(doc, "modes");
	const char *format = json_string_value(json_object_get(doc, "format"));
	if (f.status != ROOTFS_OK)
		why = rootfs_why(c->ar, &f);
	else if (!doc)
		why = arena_printf(c->ar, "not JSON (line %d: %s)", err.line, err.text);
	else if (!format || strcmp(format, "dslc-snapshot-modes") != 0 || !json_is_object(modes))
		why = "not a snapshot's modes (no \"format\": \"dslc-snapshot-modes\" and \"modes\" object)";
	strmap *m = arena_alloc(c->ar, sizeof(*m));
	strmap_init(m, c->ar);
	const char *rel;
	json_t *v;
	json_object_foreach(why ? NULL : modes, rel, v) {
		unsigned mode;
		if (!json_is_string(v) || !mode_of(json_string_value(v), &mode)) {
			why = arena_printf(c->ar, "the mode of %s is not an octal mode (0000 to 7777)", rel);
			break;
		}
		strmap_put(m, arena_strdup(c->ar, rel), (void *)(uintptr_t)(mode + 1));
	}
	json_decref(doc);
	if (why) {
		diag *d = doctor_report(c, R_NODE_UNCHECKED, doctor_node_loc(c), "the files' modes not checked: %s is %s",
					doctor_path(c, SNAPSHOT_MODES), why);
		diag_help(c->dc, d, "collect the snapshot again: dslc doctor FILE --node %s --collect DIR", c->nd->host);
		if (c->strict)
			diag_set_severity(c->dc, d, SEV_ERROR);
		c->modes_unknown = true;
		return;
	}
	c->modes = m;
}

/* rm -r of a directory this process made (a failed snapshot). */
static void remove_tree(int parent, const char *name)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		DIR *d = fdopendir(fd);
		for (struct dirent *e; d && (e = readdir(d));)
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && unlinkat(fd, e->d_name, 0) != 0)
				remove_tree(fd, e->d_name);
		if (d)
			closedir(d);
		else
			close(fd);
	}
	unlinkat(parent, name, AT_REMOVEDIR);
}

bool snapshot_write(const doctor_ctx *c, const char *dir, const char *xml, size_t xml_len, const char **why)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof(tmp), "%s.dslc-tmp-%ld", dir, (long)getpid()) >= (int)sizeof(tmp)) {
		*why = "the path is too long";
		return false;
	}
	struct stat st;
	if (lstat(dir, &st) == 0 && (!S_ISDIR(st.st_mode) || rmdir(dir) != 0)) {
		*why = "it exists and is not an empty directory (a snapshot is written whole, never over another)";
		return false;
	}
	if (mkdir(tmp, 0755) != 0) {
		*why = src_strerror(errno);
		return false;
	}
	int fd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	bool ok = fd >= 0;
	for (size_t i = 0; ok && i < c->nseen; i++)
		ok = write_seen(fd, &c->seen[i]);
	if (ok && xml)
		ok = write_file(fd, SNAPSHOT_TOPOLOGY, xml, xml_len);
	if (ok)
		ok = write_modes(fd, c);
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (ok && rename(tmp, dir) != 0) {
		e = errno;
		ok = false;
	}
	if (!ok) {
		remove_tree(AT_FDCWD, tmp);
		*why = src_strerror(e);
	}
	return ok;
}
