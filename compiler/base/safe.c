/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* safety.c - output contexts and the gate that reports what they refuse. */
#include "safe.h"

#include <ctype.h>
#include <string.h>

size_t safe_utf8_seq(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	if (!n)
		return 0;
	unsigned c = *p;
	if (c < 0x80)
		return 1;
	size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	if (!len || n < len)
		return 0;
	unsigned lo = 0x80, hi = 0xbf; /* the second byte's range (RFC 3629 table 3-7) */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f; /* no surrogates */
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f; /* nothing past U+10FFFF */
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

bool safe_utf8(const char *s, size_t n)
{
	for (size_t i = 0, k; i < n; i += k)
		if (!(k = safe_utf8_seq(s + i, n - i)))
			return false;
	return true;
}

const char *safe_utf8_repair(arena *a, const char *s)
{
	size_t n = strlen(s);
	if (safe_utf8(s, n))
		return s;
	buf b;
	buf_init(&b);
	for (size_t i = 0, k; i < n; i += k ? k : 1) {
		k = safe_utf8_seq(s + i, n - i);
		if (k)
			buf_add(&b, s + i, k);
		else
			buf_puts(&b, "\xef\xbf\xbd"); /* U+FFFD REPLACEMENT CHARACTER */
	}
	const char *r = arena_strndup(a, b.data, b.len);
	buf_free(&b);
	return r;
}

static bool name_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
	       c == '-';
}

const char *safe_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > SAFE_NAME_MAX)
		return "a name has 1 to 253 characters";
	if (s[0] == '.' || s[0] == '-')
		return "a name does not start with '.' or '-'";
	for (size_t i = 0; i < n; i++)
		if (!name_char((unsigned char)s[i]))
			return "a name has only letters, digits, '.', '_' and '-'";
	return NULL;
}

const char *safe_mount_path(const char *s)
{
	size_t n = strlen(s);
	if (s[0] != '/' || n < 2)
		return "a mount path is absolute and not /";
	if (n > 4095)
		return "a path has at most 4095 characters (PATH_MAX)";
	for (const char *c = s + 1; *c;) {
		size_t len = strcspn(c, "/");
		if (len == 0)
			return "a path has no empty component ('//' or a trailing '/')";
		if (len > 255)
			return "a path component has at most 255 characters";
		for (size_t i = 0; i < len; i++)
			if (!name_char((unsigned char)c[i]))
				return "a path component has only letters, digits, '.', '_' and '-'";
		if (c[0] == '.' || c[0] == '-')
			return "a path component does not start with '.' or '-'";
		c += len;
		if (*c)
			c++; /* past the '/'; a trailing one is caught below */
	}
	if (s[n - 1] == '/')
		return "a path has no trailing '/'";
	return NULL;
}

bool safe_path_under(const char *p, const char *dir)
{
	size_t n = strlen(dir);
	return strncmp(p, dir, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

const char *safe_mount_point(const char *path)
{
	static const char *const trees[] = {"/bin", "/boot", "/dev", "/efi", "/etc", "/lib", "/lib32", "/lib64", "/libx32",
					    "/proc", "/root", "/run", "/sbin", "/sys", "/usr", "/var"};
	static const char *const dirs[] = {"/home", "/media", "/mnt", "/opt", "/srv", "/tmp"};
	for (size_t i = 0; i < sizeof(trees) / sizeof(trees[0]); i++)
		if (safe_path_under(path, trees[i]))
			return "it is in a directory tree the OS owns (FHS 3.0, file-hierarchy(7)): at every boot tmpfiles.d would "
			       "give an existing directory there to the mount's owner, and a mount hides what the OS keeps there";
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (strcmp(path, dirs[i]) == 0)
			return "it is a system directory (FHS 3.0, file-hierarchy(7)): a mount point is a directory below it";
	if (safe_path_under(path, "/home") && !strchr(path + strlen("/home/"), '/'))
		return "it is a user's home directory: tmpfiles.d would give it to the mount's owner at every boot";
	return NULL;
}

const char *safe_account(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 32)
		return "an account name has 1 to 32 characters";
	if (!((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
		return "an account name starts with a lower-case letter or '_'";
	for (size_t i = 1; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-'))
			return "an account name has only lower-case letters, digits, '_' and '-'";
	return NULL;
}

const char *safe_ifname(const char *s)
{
	const char *why = safe_name(s);
	return why ? why : strlen(s) > 15 ? "Linux interface names have at most 15 characters" : NULL;
}

const char *safe_unit_env_value(const char *s)
{
	size_t n = strlen(s);
	if (!n || n > 256)
		return n ? "it is longer than 256 bytes" : "it is empty";
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("._:/,=+@-", c)))
			return "a unit's Environment= takes letters, digits and ._:/,=+@- only here (no space, quote, '%', '$' or '\\')";
	}
	return NULL;
}

const char *safe_line(const char *s)
{
	size_t n = strlen(s);
	if (!safe_utf8(s, n))
		return "it is not valid UTF-8";
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return "it holds a control character (a newline would start a new line of the file)";
	return NULL;
}

const char *safe_kernel_word(const char *s, char *bad)
{
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		*bad = c < 0x20 || c >= 0x7f ? '?' : *p; /* printable in messages */
		if (c <= ' ' || c >= 0x7f)
			return "spaces and control characters split or corrupt the command line";
		if (c == '$')
			return "sh and GRUB both expand it as a variable";
		if (strchr(";&|<>{}", c))
			return "GRUB's script parser ends the linux command there";
		if (strchr("\"'\\`", c))
			return "sh and GRUB read it as quoting";
	}
	return NULL;
}

const char *safe_kernel_param(const char *name, const char *value, char *bad)
{
	const char *why = safe_kernel_word(name, bad);
	return why ? why : safe_kernel_word(value, bad);
}

/* systemd's escape of a byte in a unit name (unit_name_escape): "\x2d" for
 * a '-' of a path component. The one backslash form a file name may hold. */
static bool unit_escape_at(const char *p, size_t left)
{
	return left >= 4 && p[0] == '\\' && p[1] == 'x' && isxdigit((unsigned char)p[2]) &&
	       isxdigit((unsigned char)p[3]) && !isupper((unsigned char)p[2]) && !isupper((unsigned char)p[3]);
}

bool safe_rel_path(const char *rel)
{
	char comp[SAFE_NAME_MAX + 1];
	for (const char *p = rel;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		if (n == 0 || n > SAFE_NAME_MAX)
			return false;
		/* "\x2d" is checked as "_x2d": a safe_name otherwise */
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			bool esc = p[i] == '\\' && i > 0 && unit_escape_at(p + i, n - i);
			comp[k++] = esc ? '_' : p[i];
		}
		comp[k] = '\0';
		if (safe_name(comp))
			return false;
		if (!slash)
			return true;
		p = slash + 1;
	}
}

void safe_sh_word(buf *b, const char *s)
{
	buf_puts(b, "'");
	for (const char *p = s; *p; p++)
		if (*p == '\'')
			buf_puts(b, "'\\''");
		else
			buf_add(b, p, 1);
	buf_puts(b, "'");
}

const char *safe_echo(arena *a, const char *s)
{
	size_t n = strlen(s), keep = n;
	if (n > SAFE_ECHO_MAX) {
		keep = SAFE_ECHO_MAX;
		while (keep > 0 && ((unsigned char)s[keep] & 0xc0) == 0x80)
			keep--; /* not inside a UTF-8 sequence */
	}
	char *r = arena_alloc(a, keep + 4);
	for (size_t i = 0; i < keep; i++)
		r[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	strcpy(r + keep, keep < n ? "..." : "");
	return r;
}

/* ---- the gate ------------------------------------------------------------ */

/* Reports value at loc when why (what a safe_* check said) is set. */

const char *safe_acl_line(const char *s)
{
	const char *why = safe_line(s);
	if (why)
		return why;
	size_t n = strlen(s);
	if (!n)
		return "it is empty";
	if (s[0] == '#')
		return "dmg takes a line starting with '#' for a comment";
	if (isspace((unsigned char)s[0]) || isspace((unsigned char)s[n - 1]))
		return "dmg trims spaces at its ends";
	return NULL;
}

const char *safe_cli_arg(const char *s)
{
	if (!s || !*s)
		return "it is empty";
	if (s[0] == '-')
		return "it starts with '-', which dmg and daos (go-flags) read as an option";
	return safe_line(s);
}

static bool alnum_lower(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static bool alnum(char c)
{
	return alnum_lower(c) || (c >= 'A' && c <= 'Z');
}

bool safe_k8s_label(const char *s, size_t n)
{
	if (n == 0 || n > 63 || !alnum_lower(s[0]) || !alnum_lower(s[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!alnum_lower(s[i]) && s[i] != '-')
			return false;
	return true;
}

const char *safe_k8s_subdomain(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 253)
		return "a Kubernetes object name is 1 to 253 characters";
	for (const char *label = s; label;) {
		const char *dot = strchr(label, '.');
		if (!safe_k8s_label(label, dot ? (size_t)(dot - label) : strlen(label)))
			return "a Kubernetes object name is DNS-1123: dot-separated parts of lower-case letters, digits "
			       "and '-', each starting and ending with a letter or digit";
		label = dot ? dot + 1 : NULL;
	}
	return NULL;
}

const char *safe_k8s_label_value(const char *s)
{
	size_t n = strlen(s);
	if (n > 63)
		return "a Kubernetes label value is at most 63 characters";
	if (n && (!alnum(s[0]) || !alnum(s[n - 1])))
		return "a Kubernetes label value starts and ends with a letter or digit";
	for (const char *p = s; *p; p++)
		if (!alnum(*p) && !strchr("-_.", *p))
			return "a Kubernetes label value has only letters, digits, '-', '_' and '.'";
	return NULL;
}

/* A decimal CPU number at *p (digits only, as strconv.Atoi after the split
 * accepts them; a sign is refused), advancing *p; -1 when there is none. */
static long cpu_number(const char **p)
{
	long v = 0;
	const char *q = *p;
	if (*q < '0' || *q > '9')
		return -1;
	for (; *q >= '0' && *q <= '9'; q++)
		if ((v = v * 10 + (*q - '0')) > 1 << 20)
			return -1;
	*p = q;
	return v;
}

const char *safe_cpulist(arena *a, const char *s, int ncpus)
{
	for (const char *p = s; *p;) {
		const char *start = p;
		long lo = cpu_number(&p), hi = lo;
		if (lo >= 0 && *p == '-') {
			p++;
			hi = cpu_number(&p);
		}
		if (lo < 0 || hi < 0 || (*p && *p != ','))
			return arena_printf(a, "'%.*s' is not a CPU or a range N-M", (int)strcspn(start, ","), start);
		if (hi < lo)
			return arena_printf(a, "the range %ld-%ld runs backwards", lo, hi);
		if (ncpus > 0 && hi >= ncpus)
			return arena_printf(a, "CPU %ld is not on this node type (CPUs 0-%d)", hi, ncpus - 1);
		if (*p == ',' && !*++p)
			return "it ends with ','";
	}
	return NULL;
}

void safe_unit_path_escape(buf *b, const char *path)
{
	const char *p = path;
	while (*p == '/')
		p++;
	for (const char *c = p; *c; c++) {
		unsigned char ch = (unsigned char)*c;
		bool plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
			     ch == ':' || ch == '_' || (ch == '.' && c != p);
		if (ch == '/')
			buf_puts(b, "-");
		else if (plain)
			buf_add(b, &ch, 1);
		else
			buf_printf(b, "\\x%02x", ch);
	}
}

const char *safe_dfuse_unit(const char *path)
{
	buf b;
	buf_init(&b);
	safe_unit_path_escape(&b, path);
	size_t n = strlen("dfuse-") + b.len + strlen(".service");
	buf_free(&b);
	return n > 255 ? "its unit name (dfuse- + systemd-escape -p + .service) is longer than systemd's 255 bytes" : NULL;
}
