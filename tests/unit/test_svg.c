/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* xml_escape: every string that reaches a picture (a node's, a NIC's, a
 * file's name) comes out as XML character data that cannot end an
 * attribute or open an element, whatever its bytes. */
#include <string.h>

#include "compiler/base/buf.h"
#include "compiler/base/svg.h"
#include "unit.h"

static char *escaped(buf *b, const char *s, size_t max)
{
	buf_reset(b);
	xml_escape(b, s, max);
	buf_add(b, "", 1);
	return b->data;
}

START_TEST(svg_escape_writes_markup_as_references)
{
	buf b;
	buf_init(&b);
	ck_assert_str_eq(escaped(&b, "a<b>&\"c'", 0), "a&lt;b&gt;&amp;&quot;c&#39;");
	ck_assert_str_eq(escaped(&b, "\"/><script>alert(1)</script>", 0),
			 "&quot;/&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
	ck_assert_str_eq(escaped(&b, "gpu007", 0), "gpu007");
	ck_assert_str_eq(escaped(&b, "line\none\ttab", 0), "line one tab");
	ck_assert_str_eq(escaped(&b, "abcdef", 3), "abc");
	buf_free(&b);
}
END_TEST

START_TEST(svg_escape_replaces_what_xml_forbids)
{
	buf b;
	buf_init(&b);
	/* a C0 control, a byte that is no UTF-8, a truncated sequence, an
	 * overlong '<', a surrogate, U+FFFE: each U+FFFD */
	ck_assert_str_eq(escaped(&b, "a\x01" "b", 0), "a\xef\xbf\xbd" "b");
	ck_assert_str_eq(escaped(&b, "\xff", 0), "\xef\xbf\xbd");
	ck_assert_str_eq(escaped(&b, "\xc3", 0), "\xef\xbf\xbd");
	ck_assert_str_eq(escaped(&b, "\xc0\xbc", 0), "\xef\xbf\xbd\xef\xbf\xbd");
	ck_assert_str_eq(escaped(&b, "\xed\xa0\x80", 0), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	ck_assert_str_eq(escaped(&b, "\xef\xbf\xbe", 0), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	/* well-formed UTF-8 passes: é, €, an emoji */
	ck_assert_str_eq(escaped(&b, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 0), "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	/* a limit inside a character cuts the character, never half of it */
	ck_assert_str_eq(escaped(&b, "a\xc3\xa9", 2), "a\xef\xbf\xbd");
	buf_free(&b);
}
END_TEST

START_TEST(svg_escape_output_is_always_escaped_ok)
{
	/* every 1- and 2-byte input, and 3-byte ones from a small alphabet of
	 * the bytes that matter */
	static const unsigned char alpha[] = {0x00, 0x01, '\t', '\n', '&', '<', '>', '"', '\'', 'a',
					      0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xff};
	buf b;
	buf_init(&b);
	for (unsigned i = 1; i < 256; i++)
		for (unsigned j = 0; j < 256; j++) {
			char s[3] = {(char)i, (char)j, 0};
			escaped(&b, s, 0);
			ck_assert_msg(xml_escaped_ok(b.data, b.len - 1), "%02x %02x", i, j);
		}
	for (size_t i = 0; i < sizeof alpha; i++)
		for (size_t j = 0; j < sizeof alpha; j++)
			for (size_t k = 0; k < sizeof alpha; k++) {
				char s[4] = {(char)alpha[i], (char)alpha[j], (char)alpha[k], 0};
				escaped(&b, s, 0);
				ck_assert(xml_escaped_ok(b.data, b.len - 1));
			}
	/* and the checker refuses what is not escaped */
	ck_assert(!xml_escaped_ok("a<b", 3));
	ck_assert(!xml_escaped_ok("a&b", 3));
	ck_assert(!xml_escaped_ok("\"", 1));
	ck_assert(!xml_escaped_ok("\xff", 1));
	ck_assert(xml_escaped_ok("&amp;&lt;", 9));
	buf_free(&b);
}
END_TEST

START_TEST(svg_text_cuts_with_an_ellipsis)
{
	buf b;
	buf_init(&b);
	svg_text(&b, 1, 2, 10, "start", false, NULL, "abcdefgh", 5);
	ck_assert_str_eq(b.data, "<text x=\"1\" y=\"2\" font-size=\"10\" fill=\"#000000\">abcd\xe2\x80\xa6</text>\n");
	buf_reset(&b);
	svg_rect(&b, 0.25, 1.5, 10, 3.05, "#fff", NULL, "core os", "a<b");
	ck_assert_str_eq(b.data, "<rect class=\"core os\" x=\"0.3\" y=\"1.5\" width=\"10\" height=\"3.1\" fill=\"#fff\">"
				 "<title>a&lt;b</title></rect>\n");
	buf_free(&b);
}
END_TEST

Suite *suite_svg(void)
{
	Suite *s = suite_create("svg");
	TCase *tc = tcase_create("escape");
	tcase_add_test(tc, svg_escape_writes_markup_as_references);
	tcase_add_test(tc, svg_escape_replaces_what_xml_forbids);
	tcase_add_test(tc, svg_escape_output_is_always_escaped_ok);
	tcase_add_test(tc, svg_text_cuts_with_an_ellipsis);
	suite_add_tcase(s, tc);
	return s;
}
