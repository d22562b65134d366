/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* acl.h - DAOS access control entries (ACEs) as `dmg pool create
 * --acl-file` sends them and the pool service parses them: the short form
 * TYPES:FLAGS:PRINCIPAL:PERMS of src/common/acl_util.c (daos_ace_from_str)
 * with the validity rules of src/common/acl_api.c (daos_ace_is_valid,
 * validate_aces) and src/common/acl_principal.c. */
#ifndef DSLC_ACL_H
#define DSLC_ACL_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/base/arena.h"

enum {
	ACL_MAX_ACE_STR = 255 + 64, /* DAOS_ACL_MAX_ACE_STR_LEN */
	ACL_MAX_PRINCIPAL = 255,    /* DAOS_ACL_MAX_PRINCIPAL_LEN */
};

/* Access types (DAOS_ACL_ACCESS_*), flags (DAOS_ACL_FLAG_*), permissions
 * (DAOS_ACL_PERM_*), with the letters of the short form. */
enum { ACL_ALLOW = 1, ACL_AUDIT = 2, ACL_ALARM = 4 };
enum { ACL_F_GROUP = 1, ACL_F_POOL_INHERIT = 2, ACL_F_FAIL = 4, ACL_F_SUCCESS = 8 };
/* src/include/daos_security.h enum daos_acl_principal_type: the order the
 * pool service sorts entries in */
typedef enum acl_principal { ACL_OWNER, ACL_USER, ACL_OWNER_GROUP, ACL_GROUP, ACL_EVERYONE } acl_principal;

/* Permissions with meaning on a pool (DAOS_ACL_PERM_POOL_ALL: r, w, c, d, t). */
extern const unsigned acl_pool_perms;
/* Permissions with meaning on a container (DAOS_ACL_PERM_CONT_ALL: r, w, d,
 * t, T, a, A, o). */
extern const unsigned acl_cont_perms;

typedef struct acl_ace {
	unsigned types, flags, perms;
	acl_principal principal;
	const char *name; /* the principal as written ("alice@", "GROUP@") */
	size_t name_len;
} acl_ace;

/* Why an ACE is refused, with the bytes of the string that are wrong. */
typedef struct acl_error {
	size_t off, len;
	const char *why; /* static text or a printf format for the one bad letter */
	char bad;        /* the letter, when why names one */
	const char *fix; /* NULL, or the corrected entry (static buffer of the call) */
} acl_error;

/* Parses s as DAOS does; false with *err filled when DAOS refuses it. */
bool acl_parse(const char *s, acl_ace *out, acl_error *err);
/* The principal as a key: equal keys are the same principal, which DAOS
 * refuses twice in one ACL. In the arena. */
const char *acl_principal_key(arena *a, const acl_ace *ace);
/* The letters of a permission mask, in DAOS's order ("rw"). */
void acl_perm_letters(unsigned perms, char out[16]);

#endif
