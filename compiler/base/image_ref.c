/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* image_ref.c - see image_ref.h. Each check names the production of
 * distribution/reference regexp.go it implements. */
#include "image_ref.h"

#include <stdbool.h>
#include <string.h>

static bool lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static bool alnum(char c)
{
	return lower_alnum(c) || (c >= 'A' && c <= 'Z');
}

static bool hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* pathComponent = alphanumeric (separator alphanumeric)*, alphanumeric
 * [a-z0-9]+, separator [._] | __ | [-]+ */
static bool path_component(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		size_t run = i;
		while (i < n && lower_alnum(s[i]))
			i++;
		if (i == run)
			return false; /* an alphanumeric run is needed here */
		if (i == n)
			return true;
		size_t sep = i;
		while (i < n && s[i] == '-')
			i++;
		if (i == sep) {
			if (s[i] == '.' || (s[i] == '_' && (i + 1 >= n || s[i + 1] != '_')))
				i++;
			else if (s[i] == '_' && s[i + 1] == '_')
				i += 2;
			else
				return false;
		}
		if (i == n)
			return false; /* a separator ends the component */
	}
	return n > 0;
}

/* domainNameComponent = [a-zA-Z0-9] | [a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9] */
static bool domain_component(const char *s, size_t n)
{
	if (!n || !alnum(s[0]) || !alnum(s[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!alnum(s[i]) && s[i] != '-')
			return false;
	return true;
}

/* domainAndPort = (domainName | ipv6address) (:[0-9]+)? */
static bool domain(const char *s, size_t n)
{
	size_t host = n;
	if (n && s[0] == '[') {
		const char *close = memchr(s, ']', n);
		if (!close || close == s + 1)
			return false;
		for (const char *p = s + 1; p < close; p++)
			if (!hex(*p) && *p != ':')
				return false;
		host = (size_t)(close - s) + 1;
	} else {
		const char *colon = memchr(s, ':', n);
		host = colon ? (size_t)(colon - s) : n;
		for (size_t i = 0; i < host;) {
			const char *dot = memchr(s + i, '.', host - i);
			size_t end = dot ? (size_t)(dot - s) : host;
			if (!domain_component(s + i, end - i))
				return false;
			i = end + (dot ? 1 : 0);
			if (dot && i == host)
				return false;
		}
		if (!host)
			return false;
	}
	if (host == n)
		return true;
	if (s[host] != ':' || host + 1 == n)
		return false;
	for (size_t i = host + 1; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* digestPat: algorithm [A-Za-z][A-Za-z0-9]* ([-_+.][A-Za-z][A-Za-z0-9]*)*,
 * ':', then the encoding; go-digest then wants a known algorithm with its
 * length of lower-case hex (digest.Parse -> Validate). */
static const char *digest(const char *d)
{
	static const struct {
		const char *alg;
		size_t len;
	} known[] = {{"sha256", 64}, {"sha384", 96}, {"sha512", 128}};
	const char *colon = strchr(d, ':');
	if (!colon)
		return "a digest is algorithm:hex, e.g. @sha256:<64 hex digits>";
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if ((size_t)(colon - d) != strlen(known[i].alg) || strncmp(d, known[i].alg, strlen(known[i].alg)))
			continue;
		size_t n = strlen(colon + 1);
		for (const char *p = colon + 1; *p; p++)
			if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
				return "a digest's encoding is lower-case hex";
		return n == known[i].len ? NULL : "the digest has the wrong number of hex digits for its algorithm";
	}
	return "a digest's algorithm is sha256, sha384 or sha512";
}

/* tag = [\w][\w.-]{0,127} */
static bool tag(const char *t)
{
	size_t n = strlen(t);
	if (!n || n > 128 || t[0] == '.' || t[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!alnum(t[i]) && t[i] != '_' && t[i] != '.' && t[i] != '-')
			return false;
	return true;
}

/* splitDockerDomain: the first component is a registry when it holds '.'
 * or ':', is localhost, or has upper case; else the name is Docker Hub's */
static bool first_is_domain(const char *s, size_t n)
{
	if (n == 9 && strncmp(s, "localhost", 9) == 0)
		return true;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '.' || s[i] == ':' || (s[i] >= 'A' && s[i] <= 'Z'))
			return true;
	return false;
}

const char *image_ref_check(const char *s)
{
	size_t n = strlen(s);
	if (!n)
		return "an image reference is not empty";
	bool ident = n == 64;
	for (size_t i = 0; ident && i < n; i++)
		ident = (s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f');
	if (ident)
		return "64 hex digits alone are an image ID, not a reference: containerd refuses it";
	const char *at = strchr(s, '@');
	size_t name_tag = at ? (size_t)(at - s) : n;
	if (at) {
		const char *why = digest(at + 1);
		if (why)
			return why;
	}
	/* the tag: after the last ':' that follows the last '/' */
	const char *slash = NULL, *colon = NULL;
	for (size_t i = 0; i < name_tag; i++) {
		if (s[i] == '/')
			slash = s + i, colon = NULL;
		else if (s[i] == ':')
			colon = s + i;
	}
	size_t name = colon && (!slash || colon > slash) ? (size_t)(colon - s) : name_tag;
	if (name < name_tag) {
		char t[160];
		size_t tl = name_tag - name - 1;
		if (tl >= sizeof(t) || (memcpy(t, s + name + 1, tl), t[tl] = '\0', !tag(t)))
			return "a tag is 1 to 128 letters, digits, '_', '.' or '-', not starting with '.' or '-'";
	}
	const char *first_slash = memchr(s, '/', name);
	size_t path = 0;
	if (first_slash && first_is_domain(s, (size_t)(first_slash - s))) {
		if (!domain(s, (size_t)(first_slash - s)))
			return "the registry is not a host name or address with an optional :port";
		path = (size_t)(first_slash - s) + 1;
	}
	if (name - path > 255)
		return "the repository name is longer than 255 characters";
	for (size_t i = path; i < name; i++)
		if (s[i] >= 'A' && s[i] <= 'Z')
			return "the repository name must be lower case (only a registry host may have upper case)";
	for (size_t i = path; i <= name;) {
		const char *end = memchr(s + i, '/', name - i);
		size_t e = end ? (size_t)(end - s) : name;
		if (!path_component(s + i, e - i))
			return "each part of the repository name is lower-case letters and digits, separated by one '.', "
			       "one or two '_', or '-'s";
		i = e + 1;
	}
	return NULL;
}
