/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fmt_files.c - see fmt_files.h. A changed file is rewritten as --fix
 * rewrites one (compiler/base/file.h): only a regular file that still holds
 * what was read, through a temporary renamed over it, with its mode. */
#include "fmt_files.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compiler/base/file.h"
#include "compiler/base/source.h"
#include "compiler/base/udiff.h"
#include "compiler/lang/format.h"
#include "compiler/lint/compile.h"
#include "report.h"

/* One file: 0 unchanged or rewritten, 1 would change (--check) or does not
 * parse, 2 I/O. */
static int fmt_one(const char *path, const fmt_opts *o)
{
	compilation c;
	compile_init(&c);
	bool stdio = strcmp(path, "-") == 0, check = o->check;
	const char *shown = !stdio ? path : o->stdin_name ? o->stdin_name : "<stdin>";
	uint32_t file = stdio ? src_load_as(&c.src, "/dev/stdin", shown, false) : src_load(&c.src, path, false);
	int rc = 0;
	const char *why;
	buf out;
	buf_init(&out);
	if (!file) {
		fprintf(stderr, "dslc: cannot read '%s': %s\n", shown, src_strerror(errno));
		rc = 2;
	} else if (!format_file(&c.ar, &c.dc, file, &out)) {
		diag_sort(&c.dc);
		report_print(&c.dc, REPORT_TEXT, stderr, 100, NULL);
		fprintf(stderr, "dslc: %s not formatted: it does not parse\n", shown);
		rc = 1;
	} else {
		const src_file *f = src_get(&c.src, file);
		bool same = f->len == out.len && memcmp(f->text, out.data ? out.data : "", out.len) == 0;
		if (o->diff) { /* before --check's name: the diff names the file itself */
			udiff_print(&c.ar, stdout, shown, f->text, f->len, out.data ? out.data : "", out.len);
			rc = !same && check;
		} else if (stdio && !check) {
			fwrite(out.data ? out.data : "", 1, out.len, stdout);
		} else if (!same && check) {
			printf("%s\n", shown);
			rc = 1;
		} else if (!same && (!file_unchanged(&c.ar, path, f->text, f->len, "run dslc fmt", &why) ||
				     !file_replace(&c.ar, path, out.data ? out.data : "", out.len, "fmt", &why))) {
			fprintf(stderr, "dslc: cannot write '%s': %s\n", path, why);
			rc = 2;
		} else if (!same && !o->quiet) {
			fprintf(stderr, "dslc: formatted %s\n", path);
		}
	}
	buf_free(&out);
	compile_free(&c);
	return rc;
}

int fmt_files(const char *const *files, size_t n, const fmt_opts *o)
{
	int worst = 0;
	for (size_t i = 0; i < n; i++) {
		int rc = fmt_one(files[i], o);
		worst = rc > worst ? rc : worst;
	}
	return worst;
}
