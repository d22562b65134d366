/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "yaml_out.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int write_handler(void *data, unsigned char *bytes, size_t size)
{
	buf_add(data, bytes, size);
	return 1;
}

static void emit(yaml_out *y, yaml_event_t *ev, int ok)
{
	if (y->failed)
		return;
	if (!ok || !yaml_emitter_emit(&y->em, ev))
		y->failed = true;
}

bool yo_begin(yaml_out *y, buf *out, const daos_release *rel)
{
	memset(y, 0, sizeof(*y));
	y->out = out;
	y->rel = rel;
	if (!yaml_emitter_initialize(&y->em)) {
		y->failed = true;
		return false;
	}
	yaml_emitter_set_output(&y->em, write_handler, out);
	yaml_emitter_set_unicode(&y->em, 1);
	yaml_emitter_set_width(&y->em, -1);
	yaml_emitter_set_indent(&y->em, 2);
	yaml_event_t ev;
	emit(y, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
	emit(y, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1));
	return !y->failed;
}

bool yo_end(yaml_out *y)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_document_end_event_initialize(&ev, 1));
	emit(y, &ev, yaml_stream_end_event_initialize(&ev));
	if (!y->failed && !yaml_emitter_flush(&y->em))
		y->failed = true;
	yaml_emitter_delete(&y->em);
	return !y->failed;
}

void yo_map(yaml_out *y)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE));
}

void yo_map_end(yaml_out *y)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_mapping_end_event_initialize(&ev));
}

void yo_seq(yaml_out *y)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE));
}

void yo_seq_end(yaml_out *y)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_sequence_end_event_initialize(&ev));
}

static void scalar(yaml_out *y, const char *s, yaml_scalar_style_t style)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1, style));
}

/* A string that YAML 1.1 (DAOS parses with yaml.v2) could read as a number,
 * a boolean or null is quoted to stay a string. Number-shaped strings such as
 * PCI addresses are quoted too, as in DAOS's own example configs. */
static bool looks_typed(const char *s)
{
	static const char *const words[] = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~",
		".inf", "-.inf", "+.inf", ".nan", NULL};
	if (!*s)
		return true;
	for (const char *const *w = words; *w; w++)
		if (strcasecmp(s, *w) == 0)
			return true;
	if (!(isdigit((unsigned char)s[0]) || strchr("+-.", s[0])))
		return false;
	for (const char *p = s; *p; p++)
		if (!(isxdigit((unsigned char)*p) || strchr("xXoO._:+-", *p)))
			return false;
	return true;
}

void yo_str(yaml_out *y, const char *s)
{
	scalar(y, s, looks_typed(s) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE);
}

void yo_unsafe(yaml_out *y, const char *s)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_scalar_event_initialize(&ev, NULL, (yaml_char_t *)"!unsafe", (yaml_char_t *)s, (int)strlen(s), 0, 0,
						  looks_typed(s) ? YAML_SINGLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE));
}

void yo_int(yaml_out *y, int64_t v)
{
	char b[32];
	snprintf(b, sizeof(b), "%lld", (long long)v);
	scalar(y, b, YAML_PLAIN_SCALAR_STYLE);
}

void yo_bool(yaml_out *y, bool v)
{
	scalar(y, v ? "true" : "false", YAML_PLAIN_SCALAR_STYLE);
}

void yo_key(yaml_out *y, daos_key k)
{
	const char *name = daos_key_name(y->rel, k);
	if (!name) {
		/* a key the release does not have: refuse rather than write it */
		y->failed = true;
		return;
	}
	scalar(y, name, YAML_PLAIN_SCALAR_STYLE);
}

void yo_name(yaml_out *y, const char *name)
{
	scalar(y, name, YAML_PLAIN_SCALAR_STYLE);
}

void yo_kstr(yaml_out *y, daos_key k, const char *s)
{
	yo_key(y, k);
	yo_str(y, s);
}

void yo_kint(yaml_out *y, daos_key k, int64_t v)
{
	yo_key(y, k);
	yo_int(y, v);
}

void yo_kbool(yaml_out *y, daos_key k, bool v)
{
	yo_key(y, k);
	yo_bool(y, v);
}

void yo_literal(yaml_out *y, const char *s)
{
	scalar(y, s, YAML_LITERAL_SCALAR_STYLE);
}

void yo_kv(yaml_out *y, const char *name, const char *s)
{
	yo_name(y, name);
	yo_str(y, s);
}

const char *yo_quantity(arena *a, uint64_t bytes)
{
	static const struct { const char *u; uint64_t m; } units[] = {
		{"Gi", 1ULL << 30}, {"Mi", 1ULL << 20}, {"Ki", 1ULL << 10},
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (bytes && bytes % units[i].m == 0)
			return arena_printf(a, "%llu%s", (unsigned long long)(bytes / units[i].m), units[i].u);
	return arena_printf(a, "%llu", (unsigned long long)bytes);
}
