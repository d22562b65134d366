/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* value.h - parsing of typed values: sizes, durations, host lists, address
 * templates, PCI addresses. Pure functions: on failure they return false and
 * set *why to a static explanation that the caller turns into a diagnostic. */
#ifndef DSLC_VALUE_H
#define DSLC_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

enum { HOSTLIST_MAX = 65536 };

#define KiB (1024ULL)
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)
#define TiB (1024ULL * GiB)
#define PiB (1024ULL * TiB)

/* The largest size val_size takes: 1 EiB, so that thousands of sizes add up
 * without overflowing 64 bits. */
#define VAL_SIZE_MAX (1ULL << 60)

bool val_int(const char *s, int64_t *out);
/* Sizes take binary units (B, KiB, MiB, GiB, TiB, PiB); decimal ones are refused. */
bool val_size(const char *s, uint64_t *bytes, const char **why);
/* Durations: ms, s, min, h. Result in milliseconds. */
bool val_duration(const char *s, uint64_t *ms, const char **why);
/* "90%" -> 90. */
bool val_percent(const char *s, int64_t *pct, const char **why);

/* Expands "gpu[001-014]" and "gpu[001-003,007]" (several bracket groups make
 * a product). Zero padding follows the width of the range's first bound.
 * The numeric value of the last group is stored in numbers (for {n}). */
bool hostlist_expand(arena *a, const char *s, const char ***hosts, int64_t **numbers,
		     size_t *n, size_t max, const char **why);
/* The reverse: "gpu[001-006,008-014]" for a set of host names (any order,
 * duplicates kept once). Names with the same prefix and the same width of
 * trailing digits share brackets; others are listed as they are, comma
 * separated. */
char *hostlist_compress(arena *a, const char *const *hosts, size_t n);
/* A host name that is safe as a directory name: letters, digits, '-', '.',
 * '_', starting with a letter or digit, no "..", at most 253 bytes. */
bool val_hostname(const char *s, const char **why);

/* Whether s ends with suffix. */
bool val_ends_with(const char *s, const char *suffix);

/* Replaces each {expr} in tmpl (integers, i, n, + - * and parentheses). */
bool template_eval(arena *a, const char *tmpl, int64_t i, int64_t n, const char **out,
		   const char **why);
bool template_has_vars(const char *tmpl);

/* IPv4 address, optionally with /prefix. */
bool val_ipv4(const char *s, bool allow_prefix, uint32_t *addr, int *prefix, const char **why);

/* PCI address DDDD:BB:DD.F (or a VMD backing address XXXXXX:BB:DD.F);
 * written into out (>= 16 bytes) in lower case. */
bool val_pci(const char *s, char *out, const char **why);

/* Edit distance, for "did you mean". */
size_t val_edit_distance(const char *a, const char *b);
/* The distance when it is at most max, else max + 1 (cheap for far words). */
size_t val_edit_distance_within(const char *a, const char *b, size_t max);

#endif
