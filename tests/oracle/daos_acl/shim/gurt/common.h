/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* A shim for DAOS's gurt, enough to compile src/common/acl_*.c unchanged
 * (tests/oracle/daos_acl/README.md). Not DAOS code. */
#ifndef SHIM_GURT_COMMON_H
#define SHIM_GURT_COMMON_H
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DER_SUCCESS = 0, DER_NOMEM = 1009, DER_INVAL = 1003, DER_NONEXIST = 1005, DER_TRUNC = 1013 };

#define D_INFO(...) ((void)0)
#define D_ERROR(...) ((void)0)
#define D_DEBUG(...) ((void)0)
#define D_ASSERT(x) do { if (!(x)) abort(); } while (0)
#define D_ASSERTF(x, ...) D_ASSERT(x)
#define D_GOTO(label, expr) do { (void)(expr); goto label; } while (0)
#define D_ALLOC(ptr, size) ((ptr) = calloc(1, (size)))
#define D_ALLOC_PTR(ptr) D_ALLOC(ptr, sizeof(*(ptr)))
#define D_ALLOC_ARRAY(ptr, n) ((ptr) = calloc((n), sizeof(*(ptr))))
#define D_FREE(ptr) do { free(ptr); (ptr) = NULL; } while (0)
#define D_STRNDUP(ptr, s, n) ((ptr) = strndup((s), (n)))
#define D_ASPRINTF(ptr, ...) do { if (asprintf(&(ptr), __VA_ARGS__) < 0) (ptr) = NULL; } while (0)
#define D_REALLOC(newptr, oldptr, oldsize, newsize) ((newptr) = realloc((oldptr), (newsize)))
#define D_ALIGNUP(x, a) (((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define D_FPRINTF(...) fprintf(__VA_ARGS__)
#define DF_RC "%d"
#define DP_RC(rc) (rc)
static inline int d_errno2der(int e) { return e == ENOMEM ? -DER_NOMEM : -DER_INVAL; }

typedef struct d_list { struct d_list *next, *prev; } d_list_t;
#define D_INIT_LIST_HEAD(l) do { (l)->next = (l); (l)->prev = (l); } while (0)
#endif
