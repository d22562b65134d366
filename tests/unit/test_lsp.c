/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* test_lsp.c - the pieces of `dslc lsp` below the protocol: framing read
 * back from the bytes an editor writes (pinned cases), positions in UTF-16
 * and UTF-8 both ways against Python's own count (pinned), URIs, and the
 * block at the cursor for every keyword table (each reached through the
 * rows of the blocks that open one). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cli/reference.h"
#include "compiler/lsp/context.h"
#include "compiler/lsp/position.h"
#include "compiler/lsp/rpc.h"
#include "unit.h"

static rpc_status read_from(const char *bytes, size_t n, buf *body, FILE **keep)
{
	FILE *f = fmemopen((void *)bytes, n, "rb");
	ck_assert_ptr_nonnull(f);
	rpc_status st = rpc_read(f, body);
	*keep = f;
	return st;
}

START_TEST(framing_is_read_back)
{
	buf b;
	buf_init(&b);
	FILE *f;
	static const char two[] = "Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}"
				  "content-length:3\n\n[1]";
	ck_assert_int_eq(read_from(two, sizeof(two) - 1, &b, &f), RPC_OK);
	ck_assert_str_eq(b.data, "{}");
	ck_assert_int_eq(rpc_read(f, &b), RPC_OK); /* header names are case-insensitive; a bare \n ends a line */
	ck_assert_str_eq(b.data, "[1]");
	ck_assert_int_eq(rpc_read(f, &b), RPC_EOF);
	fclose(f);
	/* the tail of a body given too short: skipped up to the next header */
	static const char resync[] = "Content-Length: 2\r\n\r\n{\"a\":1}Content-Length: 2\r\n\r\n{}";
	ck_assert_int_eq(read_from(resync, sizeof(resync) - 1, &b, &f), RPC_OK);
	ck_assert_str_eq(b.data, "{\"");
	ck_assert_int_eq(rpc_read(f, &b), RPC_OK);
	ck_assert_str_eq(b.data, "{}");
	fclose(f);
	static const char none[] = "Content-Type: x\r\n\r\n";
	ck_assert_int_eq(read_from(none, sizeof(none) - 1, &b, &f), RPC_NO_LENGTH);
	fclose(f);
	static const char huge[] = "Content-Length: 999999999999999999999999\r\n\r\n{}";
	ck_assert_int_eq(read_from(huge, sizeof(huge) - 1, &b, &f), RPC_TOO_LARGE);
	fclose(f);
	static const char big[] = "Content-Length: 900000000\r\n\r\n{}";
	ck_assert_int_eq(read_from(big, sizeof(big) - 1, &b, &f), RPC_TRUNCATED); /* read past, not held: the input ends */
	ck_assert_uint_lt(b.cap, 1024);
	fclose(f);
	static const char cut[] = "Content-Length: 10\r\n\r\n{}";
	ck_assert_int_eq(read_from(cut, sizeof(cut) - 1, &b, &f), RPC_TRUNCATED);
	fclose(f);
	buf_free(&b);
}
END_TEST

START_TEST(written_messages_are_framed)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	json_t *m = json_pack("{s:s}", "k", "\xc3\xa9");
	ck_assert(rpc_write(f, m));
	json_decref(m);
	fclose(f);
	ck_assert_str_eq(out, "Content-Length: 14\r\n\r\n{\"k\":\"\\u00E9\"}");
	free(out);
}
END_TEST

static void assert_pos(const text_lines *tl, size_t offset, bool utf8, int line, int ch)
{
	json_t *p = lsp_position(tl, offset, utf8);
	ck_assert_int_eq(json_integer_value(json_object_get(p, "line")), line);
	ck_assert_int_eq(json_integer_value(json_object_get(p, "character")), ch);
	size_t back;
	ck_assert(lsp_offset(tl, p, utf8, &back));
	ck_assert_uint_eq(back, offset);
	json_decref(p);
}

START_TEST(positions_count_utf16_or_bytes)
{
	/* "é" is 2 bytes, 1 unit; "𝄞" (U+1D11E) 4 bytes, 2 units (a surrogate
	 * pair), as Python's len(s.encode('utf-16-le')) // 2 counts them */
	static const char text[] = "a\xc3\xa9x\n\xf0\x9d\x84\x9ey\r\nz";
	text_lines tl;
	text_lines_init(&tl, text, sizeof(text) - 1);
	assert_pos(&tl, 0, false, 0, 0);
	assert_pos(&tl, 3, false, 0, 2);  /* after é */
	assert_pos(&tl, 4, false, 0, 3);
	assert_pos(&tl, 9, false, 1, 2);  /* after 𝄞 */
	assert_pos(&tl, 9, true, 1, 4);
	assert_pos(&tl, 12, false, 2, 0);
	json_t *past = json_pack("{s:i, s:i}", "line", 1, "character", 99);
	size_t off;
	ck_assert(lsp_offset(&tl, past, false, &off));
	ck_assert_uint_eq(off, 10); /* the line's end, before its \r\n */
	json_decref(past);
	json_t *neg = json_pack("{s:i, s:i}", "line", 0, "character", -1);
	ck_assert(!lsp_offset(&tl, neg, false, &off));
	json_decref(neg);
	text_lines_free(&tl);
}
END_TEST

/* one character of each UTF-8 length between two ASCII letters: the position
 * after it is 1 + its UTF-16 units (1 for the basic plane, 2 past it: RFC
 * 2781 2.1), 1 + its bytes with utf-8 positions, and each maps back */
START_TEST(positions_for_each_utf8_length)
{
	static const struct {
		const char *ch;
		int bytes, units;
	} cs[] = {
		{"x", 1, 1},
		{"\xc2\xb0", 2, 1},         /* U+00B0 degree sign */
		{"\xe2\x80\x94", 3, 1},     /* U+2014 em dash */
		{"\xe2\x82\xac", 3, 1},     /* U+20AC euro sign */
		{"\xef\xbf\xbd", 3, 1},     /* U+FFFD, the last of the 3-byte lengths' range */
		{"\xf0\x9f\x98\x80", 4, 2}, /* U+1F600 */
		{"\xf4\x8f\xbf\xbf", 4, 2}, /* U+10FFFF, the last code point */
	};
	for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		char text[16];
		snprintf(text, sizeof(text), "a%sb", cs[i].ch);
		text_lines tl;
		text_lines_init(&tl, text, strlen(text));
		assert_pos(&tl, 1, false, 0, 1);
		assert_pos(&tl, 1 + (size_t)cs[i].bytes, false, 0, 1 + cs[i].units);
		assert_pos(&tl, 2 + (size_t)cs[i].bytes, false, 0, 2 + cs[i].units);
		assert_pos(&tl, 1 + (size_t)cs[i].bytes, true, 0, 1 + cs[i].bytes);
		text_lines_free(&tl);
	}
}
END_TEST

START_TEST(uris_and_text)
{
	char *p = lsp_uri_path("file:///srv/a%20b/c%C3%A9.dsl");
	ck_assert_str_eq(p, "/srv/a b/c\xc3\xa9.dsl");
	char *u = lsp_path_uri(p);
	ck_assert_str_eq(u, "file:///srv/a%20b/c%C3%A9.dsl");
	free(p);
	free(u);
	ck_assert_ptr_null(lsp_uri_path("untitled:Untitled-1"));
	ck_assert_ptr_null(lsp_uri_path("file://host/x.dsl"));
	ck_assert_ptr_null(lsp_uri_path("file:///a%00b"));
	p = lsp_uri_path("file://localhost/x.dsl");
	ck_assert_str_eq(p, "/x.dsl");
	free(p);
	json_t *j = lsp_text("a\xff" "b\xc3");
	ck_assert_str_eq(json_string_value(j), "a\xef\xbf\xbd" "b\xef\xbf\xbd");
	json_decref(j);
}
END_TEST

/* The block's first keyword typed inside a block opened by each row: the
 * context names that row's tables. */
START_TEST(every_keyword_table_is_reached)
{
	for (size_t s = 0; s < kw_section_count; s++) {
		const kw_table *t = kw_sections[s].table;
		bool found = t == &kw_top;
		for (size_t i = 0; i < block_open_count && !found; i++)
			for (int k = 0; k < 2; k++)
				found |= block_opens[i].tables[k] == t;
		ck_assert_msg(found, "the %s keywords are opened by no row of block_opens", t->block);
	}
	static const struct {
		const char *text, *block;
	} cases[] = {
		{"daos 2.6\n", "the top level"},
		{"cluster c {\n  provider \"x\"\n  ", "cluster"},
		{"cluster c { fabric roce { ", "fabric"},
		{"hardware h {\n  numa 0 {\n    ", "numa"},
		{"hardware h {\n  numa 0 {\n  }\n  ", "hardware"},
		{"hardware h { bmc redfish { ", "bmc"},
		{"profile p : h {\n  engine per numa {\n    ", "engine"},
		/* several keywords on a line: the block is the last one's (kw.h) */
		{"profile p : h {\n  kernel engine per numa {\n    ", "engine"},
		{"hardware h {\n  sockets 2 numa 0 {\n    ", "numa"},
		{"nodes a[1-2], # a comment {\n b[1-2] : p {\n  ", "profile"},
		{"node a : p {\n  kernel {\n", "kernel"},
		{"pool p {\n  ", "pool"},
		{"container c in p {\n  ", "container"},
		{"mount /m {\n  ", "mount"},
		{"lint {\n  ", "lint"},
		{"cluster \"{\" {\n  kubernetes {\n    ", "kubernetes"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		lsp_context cx;
		lsp_context_at(cases[i].text, strlen(cases[i].text), strlen(cases[i].text), &cx);
		ck_assert_msg(cx.block && strcmp(cx.block, cases[i].block) == 0, "%s: block %s, not %s", cases[i].text,
			      cx.block ? cx.block : "(none)", cases[i].block);
	}
	lsp_context cx;
	static const char bios[] = "profile p : h {\n  bios {\n    ";
	lsp_context_at(bios, sizeof(bios) - 1, sizeof(bios) - 1, &cx);
	ck_assert_uint_eq(cx.ntables, 0); /* free keys: no keyword to offer */
	static const char word[] = "cluster c {\n  provi";
	lsp_context_at(word, sizeof(word) - 1, sizeof(word) - 3, &cx);
	ck_assert_uint_eq(cx.word_start, sizeof(word) - 6);
	ck_assert_uint_eq(cx.word_end, sizeof(word) - 1);
}
END_TEST

Suite *suite_lsp(void)
{
	Suite *s = suite_create("lsp");
	TCase *tc = tcase_create("lsp");
	tcase_add_test(tc, framing_is_read_back);
	tcase_add_test(tc, written_messages_are_framed);
	tcase_add_test(tc, positions_count_utf16_or_bytes);
	tcase_add_test(tc, positions_for_each_utf8_length);
	tcase_add_test(tc, uris_and_text);
	tcase_add_test(tc, every_keyword_table_is_reached);
	suite_add_tcase(s, tc);
	return s;
}
