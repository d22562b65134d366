/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* semdiff.h - what changed between two versions of a generated file, as key
 * paths with old and new values: parsed YAML and JSON (lists of objects with
 * a "label" matched by label), INI sections for systemd units, lines
 * otherwise. Comments and blank lines never count. Used by `dslc plan`. */
#ifndef DSLC_SEMDIFF_H
#define DSLC_SEMDIFF_H

#include <stddef.h>

#include "compiler/base/arena.h"

typedef enum semdiff_kind { SD_YAML, SD_JSON, SD_INI, SD_LINES } semdiff_kind;

/* The kind of the files a target writes (its name in targets/ and the
 * manifest). */
semdiff_kind semdiff_kind_of(const char *target);

/* One difference: key is a path such as "engines[1].storage[1].bdev_list",
 * "pools[tier0].containers[training].rd_fac", "[Network].Address" or
 * "GRUB_CMDLINE_LINUX"; old or new is NULL where the key is absent. */
typedef void (*semdiff_fn)(void *ctx, const char *key, const char *old, const char *new);

/* Calls fn for every difference, in file order. A file that does not parse
 * as its kind (an old tree edited by hand) is compared by lines. */
void semdiff(arena *a, semdiff_kind kind, const char *old, size_t old_len, const char *new, size_t new_len,
	     semdiff_fn fn, void *ctx);

#endif
