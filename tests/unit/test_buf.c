/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* buf_printf and arena_printf format once into the room they have and
 * again only when it is short: every length around that room must come
 * out whole. */
#include <stdio.h>
#include <string.h>

#include "compiler/base/arena.h"
#include "compiler/base/buf.h"
#include "unit.h"

/* "x...x" of n bytes, the expected text for a width of n */
static const char *xs(char *out, size_t n)
{
	memset(out, 'x', n);
	out[n] = '\0';
	return out;
}

START_TEST(buf_printf_appends_every_length)
{
	char want[5000];
	for (size_t n = 0; n < 4200; n += n < 300 ? 1 : 97) {
		buf b;
		buf_init(&b);
		buf_puts(&b, "head:");
		buf_printf(&b, "%s|%d", xs(want, n), 7);
		ck_assert_uint_eq(b.len, 5 + n + 2);
		ck_assert_int_eq(memcmp(b.data, "head:", 5), 0);
		ck_assert_int_eq(memcmp(b.data + 5, want, n), 0);
		ck_assert_str_eq(b.data + 5 + n, "|7");
		buf_free(&b);
	}
}
END_TEST

START_TEST(buf_printf_copies_a_format_without_percent)
{
	buf b;
	buf_init(&b);
	buf_printf(&b, "plain text\n");
	buf_printf(&b, "%s", "");
	buf_printf(&b, "100%% %s", "sure");
	ck_assert_str_eq(b.data, "plain text\n100% sure");
	ck_assert_uint_eq(b.len, strlen("plain text\n100% sure"));
	buf_free(&b);
}
END_TEST

START_TEST(arena_printf_fits_or_spills_at_every_boundary)
{
	/* 3,000 strings of 0 to 249 bytes fill several 64 KiB blocks, so many
	 * land at a block's end (fit exactly, or spill into a new block); a
	 * few are larger than a block. None may overlap another. */
	arena a;
	arena_init(&a);
	static char want[70000];
	enum { N = 3000 };
	static const char *kept[N];
	static size_t lens[N];
	for (size_t i = 0; i < N; i++) {
		lens[i] = i % 1000 == 999 ? 65530 + i / 1000 : (i * 37) % 250;
		kept[i] = arena_printf(&a, "%s", xs(want, lens[i]));
	}
	memset(want, 'x', sizeof(want));
	for (size_t i = 0; i < N; i++) {
		ck_assert_uint_eq(strlen(kept[i]), lens[i]);
		ck_assert_int_eq(memcmp(kept[i], want, lens[i]), 0);
	}
	ck_assert_str_eq(arena_printf(&a, "%s-%zu", "node", (size_t)42), "node-42");
	char *z = arena_alloc(&a, 32); /* the next allocation is still zeroed */
	for (int i = 0; i < 32; i++)
		ck_assert_int_eq(z[i], 0);
	arena_free(&a);
}
END_TEST

Suite *suite_buf(void)
{
	Suite *s = suite_create("buf");
	TCase *tc = tcase_create("printf");
	tcase_add_test(tc, buf_printf_appends_every_length);
	tcase_add_test(tc, buf_printf_copies_a_format_without_percent);
	tcase_add_test(tc, arena_printf_fits_or_spills_at_every_boundary);
	suite_add_tcase(s, tc);
	return s;
}
