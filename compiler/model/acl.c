/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* acl.c - DAOS ACE strings, parsed as src/common/acl_util.c
 * (create_ace_from_mutable_str) and judged as src/common/acl_api.c
 * (daos_ace_is_valid) does. */
#include "acl.h"

#include <stdio.h>
#include <string.h>

/* DAOS_ACL_PERM_*, bit order, with their letters (acl_util.c PERM_*_CH). */
static const char perm_letters[] = "rwcdtTaAo";
const unsigned acl_pool_perms = 1u << 0 | 1u << 1 | 1u << 2 | 1u << 3 | 1u << 4;
const unsigned acl_cont_perms = 1u << 0 | 1u << 1 | 1u << 3 | 1u << 4 | 1u << 5 | 1u << 6 | 1u << 7 | 1u << 8;

void acl_perm_letters(unsigned perms, char out[16])
{
	size_t n = 0;
	for (size_t i = 0; perm_letters[i]; i++)
		if (perms & 1u << i)
			out[n++] = perm_letters[i];
	out[n] = '\0';
}

static bool fail(acl_error *err, size_t off, size_t len, const char *why, char bad)
{
	err->off = off;
	err->len = len;
	err->why = why;
	err->bad = bad;
	err->fix = NULL;
	return false;
}

/* One letter field: each letter a bit of the table, in any order. */
static bool letters(const char *s, size_t off, size_t n, const char *table, const unsigned *bits, unsigned *out,
		    const char *why, acl_error *err)
{
	for (size_t i = 0; i < n; i++) {
		const char *at = s[off + i] ? strchr(table, s[off + i]) : NULL;
		if (!at)
			return fail(err, off + i, 1, why, s[off + i]);
		*out |= bits[at - table];
	}
	return true;
}

/* daos_acl_principal_is_valid: 1-255 bytes, a name, one '@', an optional
 * domain; the special names are of that form too. */
static bool principal_ok(const char *s, size_t n)
{
	if (n == 0 || n > ACL_MAX_PRINCIPAL || s[0] == '@')
		return false;
	const char *at = memchr(s, '@', n);
	return at && !memchr(at + 1, '@', n - (size_t)(at - s) - 1);
}

static bool is(const char *s, size_t n, const char *word)
{
	return n == strlen(word) && memcmp(s, word, n) == 0;
}

bool acl_parse(const char *s, acl_ace *out, acl_error *err)
{
	static char fix[ACL_MAX_ACE_STR + 8];
	static const unsigned type_bits[] = {ACL_ALLOW, ACL_AUDIT, ACL_ALARM};
	static const unsigned flag_bits[] = {ACL_F_GROUP, ACL_F_SUCCESS, ACL_F_FAIL, ACL_F_POOL_INHERIT};
	static const unsigned perm_bits[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
	size_t len = strlen(s);
	memset(out, 0, sizeof(*out));
	if (len > ACL_MAX_ACE_STR)
		return fail(err, 0, len, "an ACE is at most 319 bytes (DAOS_ACL_MAX_ACE_STR_LEN)", 0);
	size_t start[4], end[4], nf = 0;
	size_t b = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != ':')
			continue;
		if (nf == 4)
			return fail(err, b - 1, len - b + 1, "an ACE has 4 fields, TYPES:FLAGS:PRINCIPAL:PERMS; this has more", 0);
		start[nf] = b;
		end[nf++] = i;
		b = i + 1;
	}
	if (nf < 4)
		return fail(err, 0, len, "an ACE has 4 fields, TYPES:FLAGS:PRINCIPAL:PERMS, such as A::OWNER@:rw", 0);
	if (!letters(s, start[0], end[0] - start[0], "AUL", type_bits, &out->types,
		     "'%c' is not an access type: A (allow), U (audit), L (alarm)", err) ||
	    !letters(s, start[1], end[1] - start[1], "GSFP", flag_bits, &out->flags,
		     "'%c' is not a flag: G (group), S (audit success), F (audit failure), P (pool inherit)", err))
		return false;
	const char *name = s + start[2];
	size_t nn = end[2] - start[2];
	if (!principal_ok(name, nn))
		return fail(err, start[2], nn ? nn : 1,
			    "not a principal: OWNER@, GROUP@, EVERYONE@, or a user or group as name@ or name@domain", 0);
	if (!letters(s, start[3], end[3] - start[3], perm_letters, perm_bits, &out->perms,
		     "'%c' is not a permission: r w c d t T a A o", err))
		return false;
	out->name = name;
	out->name_len = nn;
	out->principal = is(name, nn, "OWNER@") ? ACL_OWNER : is(name, nn, "GROUP@") ? ACL_OWNER_GROUP
		: is(name, nn, "EVERYONE@") ? ACL_EVERYONE : (out->flags & ACL_F_GROUP) ? ACL_GROUP : ACL_USER;
	if (!out->types)
		return fail(err, 0, 1, "no access type: an ACE starts with A (allow), U (audit) or L (alarm)", 0);
	bool group = out->principal == ACL_OWNER_GROUP || out->principal == ACL_GROUP;
	if (group != !!(out->flags & ACL_F_GROUP)) {
		/* daos_ace_is_valid: the group flag exactly on group principals;
		 * GROUP@ needs it written (the parser overwrites the flags it sets) */
		fail(err, start[1], end[1] - start[1] ? end[1] - start[1] : 1,
		     group ? "GROUP@ needs the G flag" : "the G flag makes sense only for GROUP@ and named groups", 0);
		char f[8];
		size_t fl = 0;
		for (size_t i = start[1]; i < end[1]; i++)
			if (s[i] != 'G')
				f[fl++] = s[i];
		if (group)
			f[fl++] = 'G';
		f[fl] = '\0';
		snprintf(fix, sizeof(fix), "%.*s:%s:%s", (int)end[0], s, f, s + start[2]);
		err->fix = fix;
		return false;
	}
	bool alert = (out->types & (ACL_AUDIT | ACL_ALARM)) != 0;
	bool alert_flags = (out->flags & (ACL_F_SUCCESS | ACL_F_FAIL)) != 0;
	if (alert != alert_flags)
		return fail(err, alert ? start[1] : start[0], alert ? (end[1] - start[1] ? end[1] - start[1] : 1) : end[0],
			    alert ? "audit and alarm entries need S (success) or F (failure) among the flags"
				  : "S and F are for audit and alarm entries (U, L), not for allow", 0);
	return true;
}

const char *acl_principal_key(arena *a, const acl_ace *ace)
{
	return arena_printf(a, "%d\x1f%.*s", (int)ace->principal, (int)ace->name_len, ace->name);
}
