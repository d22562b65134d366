/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/base/diag.h"
#include "compiler/lint/fix.h"
#include "compiler/tree/output.h"
#include "unit.h"

START_TEST(positions_from_offsets)
{
	arena a;
	arena_init(&a);
	src_set s;
	src_set_init(&s, &a);
	uint32_t id = src_add(&s, "x.dsl", "ab\ncde\n\nf", 9);
	src_pos p = src_position(&s, id, 4);
	ck_assert_uint_eq(p.line, 2);
	ck_assert_uint_eq(p.col, 2);
	p = src_position(&s, id, 8);
	ck_assert_uint_eq(p.line, 4);
	ck_assert_uint_eq(p.col, 1);
	size_t len;
	const char *line = src_line_text(&s, id, 2, &len);
	ck_assert_uint_eq(len, 3);
	ck_assert(strncmp(line, "cde", 3) == 0);
	arena_free(&a);
}
END_TEST

START_TEST(same_finding_twice_is_kept_once)
{
	arena a;
	arena_init(&a);
	src_set s;
	src_set_init(&s, &a);
	diag_ctx dc;
	diag_init(&dc, &a, &s);
	src_loc l = {1, 5, 9};
	diag_report(&dc, R_SCM_SIZE_SMALL, l, "too small");
	diag *d = diag_report(&dc, R_SCM_SIZE_SMALL, l, "too small");
	diag_note_at(&dc, d, l, "dropped with the duplicate");
	/* the same rule at the same place with another text: the same mistake
	 * seen once more, a note of the first finding; its notes join it */
	diag *m = diag_report(&dc, R_SCM_SIZE_SMALL, l, "another message");
	diag_note_at(&dc, m, SRC_LOC_NONE, "the other case's note");
	ck_assert_uint_eq(dc.n, 1);
	ck_assert_ptr_nonnull(dc.items[0]->notes);
	ck_assert_str_eq(dc.items[0]->notes->msg, "also: another message");
	ck_assert_ptr_nonnull(dc.items[0]->notes->next);
	ck_assert_str_eq(dc.items[0]->notes->next->msg, "the other case's note");
	ck_assert_ptr_null(dc.items[0]->notes->next->next);
	arena_free(&a);
}
END_TEST

START_TEST(findings_sort_in_source_order)
{
	arena a;
	arena_init(&a);
	src_set s;
	src_set_init(&s, &a);
	diag_ctx dc;
	diag_init(&dc, &a, &s);
	diag_report(&dc, R_SYNTAX, (src_loc){1, 50, 51}, "late");
	diag_report(&dc, R_SYNTAX, (src_loc){1, 10, 11}, "early");
	diag_sort(&dc);
	ck_assert_str_eq(dc.items[0]->msg, "early");
	arena_free(&a);
}
END_TEST

START_TEST(sha256_known_vector)
{
	char hex[65];
	sha256_hex("abc", 3, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
END_TEST

START_TEST(every_rule_is_documented)
{
	for (int i = 0; i < R__COUNT; i++) {
		const rule_info *r = &rule_table[i];
		ck_assert_msg(r->id && strlen(r->summary) > 10 && strlen(r->explanation) > 40 && strlen(r->fix) > 5,
			      "rule %d lacks text", i);
		ck_assert_ptr_eq(rule_find(r->id), r);
	}
}
END_TEST

/* The one file reader: its bound, directories, and a file without a size
 * (a pipe or /proc) read to its end. */
START_TEST(read_file_bounds)
{
	arena a;
	arena_init(&a);
	char path[] = "/tmp/dslc-read-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	char data[100];
	memset(data, 'x', sizeof(data));
	ck_assert_int_eq(write(fd, data, sizeof(data)), (int)sizeof(data));
	close(fd);
	size_t len = 0;
	errno = 0;
	ck_assert_ptr_null(src_read_file(&a, path, 99, false, &len));
	ck_assert_int_eq(errno, EFBIG);
	char *text = src_read_file(&a, path, 100, false, &len);
	ck_assert_ptr_nonnull(text);
	ck_assert_uint_eq(len, 100);
	ck_assert_int_eq(text[100], '\0');
	unlink(path);
	ck_assert_ptr_null(src_read_file(&a, "/tmp", 100, false, &len));
	ck_assert_int_eq(errno, EISDIR);
	/* 70,000 bytes through a pipe: more than the first 64 KiB guess */
	FILE *p = popen("head -c 70000 /dev/zero | tr '\\0' y", "r");
	ck_assert_ptr_nonnull(p);
	char dev[64];
	snprintf(dev, sizeof(dev), "/dev/fd/%d", fileno(p));
	errno = 0;
	ck_assert_ptr_null(src_read_file(&a, dev, 1 << 20, true, &len)); /* named by a description: refused */
	ck_assert_int_eq(errno, SRC_ENOTREG);
	/* a pipe named on the command line is refused too (issue 41: a FIFO
	 * without a writer hung); only standard input may be one */
	errno = 0;
	ck_assert_ptr_null(src_read_file(&a, dev, 1 << 20, false, &len));
	ck_assert_int_eq(errno, SRC_ENOTREG);
	int saved = dup(0);
	ck_assert_int_ge(saved, 0);
	ck_assert_int_eq(dup2(fileno(p), 0), 0);
	text = src_read_file(&a, "/dev/stdin", 1 << 20, false, &len);
	ck_assert_int_eq(dup2(saved, 0), 0);
	close(saved);
	pclose(p);
	ck_assert_ptr_nonnull(text);
	ck_assert_uint_eq(len, 70000);
	ck_assert_int_eq(text[69999], 'y');
	/* a FIFO without a writer: refused at once, never waited on */
	char fifo[64];
	snprintf(fifo, sizeof(fifo), "/tmp/dslc-fifo-%d", (int)getpid());
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	errno = 0;
	ck_assert_ptr_null(src_read_file(&a, fifo, 1 << 20, true, &len));
	ck_assert_int_eq(errno, SRC_ENOTREG);
	unlink(fifo);
	arena_free(&a);
}
END_TEST


/* A file on disk, loaded into a src_set as lint would. */
static uint32_t fix_file(src_set *s, const char *dir, const char *name, const char *text)
{
	char *path = arena_printf(s->ar, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return src_load(s, path, true);
}

static char *slurp(arena *a, const char *path)
{
	size_t len;
	return src_read_file(a, path, 1 << 20, true, &len);
}

/* The places and texts the fix helpers build from the source (fixes of
 * kernel params, mount blocks, kubelet cpulists, NVMe file blocks). */
START_TEST(fix_helpers_place_their_edits_in_the_source)
{
	arena a;
	arena_init(&a);
	src_set s;
	src_set_init(&s, &a);
	diag_ctx dc;
	diag_init(&dc, &a, &s);
	/* the brace of the block at 14, `param` at 18, its value 24-33 and the
	 * line's newline at 33; `xparam` at 35, its value 42-45 */
	const char *t = "mount \"/m{x}\" {\n  param iommu=off\n xparam a=1 b\n}\n";
	uint32_t id = src_add(&s, "a.dsl", t, strlen(t));
	diag *d = diag_report(&dc, R_BAD_VALUE, (src_loc){id, 0, 50}, "one");
	/* the block's brace, not the one inside the quoted path */
	diag_fix_in_block(&dc, d, (src_loc){id, 0, 50}, " caching off ");
	ck_assert_ptr_nonnull(d->fixes);
	ck_assert_uint_eq(d->fixes->at.start, 15);
	ck_assert_uint_eq(d->fixes->at.end, 15);
	/* `param` before a value, but not inside a longer word */
	src_loc l = diag_loc_with_keyword(&dc, (src_loc){id, 24, 33}, "param");
	ck_assert_uint_eq(l.start, 18);
	ck_assert_uint_eq(diag_loc_with_keyword(&dc, (src_loc){id, 42, 45}, "param").start, 42);
	/* a statement alone on its line takes the line; one beside another does not */
	l = diag_loc_line_if_alone(&dc, l);
	ck_assert_uint_eq(l.start, 16);
	ck_assert_uint_eq(l.end, 34);
	ck_assert_uint_eq(diag_loc_line_if_alone(&dc, (src_loc){id, 42, 45}).end, 45);
	/* a quoted value of safe bytes, and a whole block; never a quote in the
	 * value or a brace left open */
	diag *q = diag_report(&dc, R_BAD_VALUE, (src_loc){id, 1, 2}, "two");
	diag_fix_quoted(&dc, q, (src_loc){id, 1, 2}, "reserved_cpus ", "0-3,8-11", "");
	ck_assert_str_eq(q->fixes->text, "reserved_cpus \"0-3,8-11\"");
	diag *r = diag_report(&dc, R_BAD_VALUE, (src_loc){id, 3, 4}, "three");
	diag_fix_quoted(&dc, r, (src_loc){id, 3, 4}, "x ", "a\"b", "");
	diag_fix_quoted(&dc, r, (src_loc){id, 3, 4}, "e { f ", "p", "");
	diag_fix_quoted(&dc, r, (src_loc){id, 3, 4}, "e } f ", "p", " {");
	ck_assert_ptr_null(r->fixes);
	diag_fix_quoted(&dc, r, (src_loc){id, 3, 4}, "e { f ", "p", " }");
	ck_assert_str_eq(r->fixes->text, "e { f \"p\" }");
	arena_free(&a);
}
END_TEST

START_TEST(fix_applies_disjoint_edits_and_never_two_that_overlap)
{
	arena a;
	arena_init(&a);
	src_set s;
	src_set_init(&s, &a);
	diag_ctx dc;
	diag_init(&dc, &a, &s);
	char dir[] = "/tmp/dslc-fix-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	/*                               0123456789012345678901234 */
	uint32_t id = fix_file(&s, dir, "a.dsl", "profle p { first_core 3 }\n");
	diag *d1 = diag_report(&dc, R_UNKNOWN_KEYWORD, (src_loc){id, 0, 6}, "one");
	diag_fix_edit(&dc, d1, (src_loc){id, 0, 6}, "profile");
	diag *d2 = diag_report(&dc, R_FIRST_CORE_LINUX_CPU, (src_loc){id, 11, 23}, "two");
	diag_fix_edit(&dc, d2, (src_loc){id, 11, 23}, "first_core 7");
	/* overlaps d2's edit: left for the next run, whole */
	diag *d3 = diag_report(&dc, R_BAD_VALUE, (src_loc){id, 22, 23}, "three");
	diag_fix_edit(&dc, d3, (src_loc){id, 22, 23}, "9");
	diag_fix_edit(&dc, d3, (src_loc){id, 24, 24}, " x");
	/* the same edit as d1's from a finding of another rule is one edit */
	diag *d4 = diag_report(&dc, R_SYNTAX, (src_loc){id, 0, 6}, "four");
	diag_fix_edit(&dc, d4, (src_loc){id, 0, 6}, "profile");
	/* never a byte that could open a comment, a string or a block */
	diag *d5 = diag_report(&dc, R_BAD_VALUE, (src_loc){id, 9, 10}, "five");
	diag_fix_edit(&dc, d5, (src_loc){id, 9, 10}, "{ # }");
	ck_assert_ptr_null(d5->fixes);
	diag_sort(&dc);
	FILE *log = fopen("/dev/null", "w");
	fix_result r = fix_apply(&dc, log);
	ck_assert_uint_eq(r.applied, 3);
	ck_assert_uint_eq(r.skipped, 1);
	ck_assert_uint_eq(r.files, 1);
	ck_assert_uint_eq(r.refused, 0);
	ck_assert_str_eq(slurp(&a, arena_printf(&a, "%s/a.dsl", dir)), "profile p { first_core 7 }\n");
	/* the file changed since it was read: not rewritten */
	src_set s2;
	src_set_init(&s2, &a);
	diag_ctx dc2;
	diag_init(&dc2, &a, &s2);
	uint32_t id2 = fix_file(&s2, dir, "b.dsl", "abc\n");
	diag *e1 = diag_report(&dc2, R_BAD_VALUE, (src_loc){id2, 0, 1}, "e1");
	diag_fix_edit(&dc2, e1, (src_loc){id2, 0, 1}, "x");
	FILE *f = fopen(arena_printf(&a, "%s/b.dsl", dir), "a");
	fputs("more\n", f);
	fclose(f);
	r = fix_apply(&dc2, log);
	ck_assert_uint_eq(r.refused, 1);
	ck_assert_str_eq(slurp(&a, arena_printf(&a, "%s/b.dsl", dir)), "abc\nmore\n");
	/* a symlink is never replaced by the rename */
	ck_assert_int_eq(symlink("b.dsl", arena_printf(&a, "%s/c.dsl", dir)), 0);
	src_set s3;
	src_set_init(&s3, &a);
	diag_ctx dc3;
	diag_init(&dc3, &a, &s3);
	uint32_t id3 = src_load(&s3, arena_printf(&a, "%s/c.dsl", dir), true);
	diag *g1 = diag_report(&dc3, R_BAD_VALUE, (src_loc){id3, 0, 1}, "g1");
	diag_fix_edit(&dc3, g1, (src_loc){id3, 0, 1}, "x");
	r = fix_apply(&dc3, log);
	ck_assert_uint_eq(r.refused, 1);
	struct stat st;
	ck_assert_int_eq(lstat(arena_printf(&a, "%s/c.dsl", dir), &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	fclose(log);
	unlink(arena_printf(&a, "%s/a.dsl", dir));
	unlink(arena_printf(&a, "%s/b.dsl", dir));
	unlink(arena_printf(&a, "%s/c.dsl", dir));
	rmdir(dir);
	arena_free(&a);
}
END_TEST

Suite *suite_diag(void)
{
	Suite *s = suite_create("diag");
	TCase *tc = tcase_create("diag");
	tcase_add_test(tc, positions_from_offsets);
	tcase_add_test(tc, same_finding_twice_is_kept_once);
	tcase_add_test(tc, findings_sort_in_source_order);
	tcase_add_test(tc, sha256_known_vector);
	tcase_add_test(tc, fix_applies_disjoint_edits_and_never_two_that_overlap);
	tcase_add_test(tc, fix_helpers_place_their_edits_in_the_source);
	tcase_add_test(tc, every_rule_is_documented);
	tcase_add_test(tc, read_file_bounds);
	suite_add_tcase(s, tc);
	return s;
}
