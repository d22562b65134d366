/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* rpc.c - see rpc.h. */
#include "rpc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One header line without its line end, cut at RPC_MAX_HEADER_LINE (the
 * rest of a longer line is read past). false at the end of the input. */
static bool read_line(FILE *in, char *line, size_t *len, bool *any)
{
	*len = 0;
	int c;
	while ((c = getc(in)) != EOF) {
		*any = true;
		if (c == '\n')
			break;
		if (*len < RPC_MAX_HEADER_LINE)
			line[(*len)++] = (char)c;
	}
	if (*len && line[*len - 1] == '\r')
		(*len)--;
	line[*len] = '\0';
	return c != EOF;
}

/* The value of a Content-Length header anywhere in the line (the bytes
 * before it may be the tail of a body given too short a length): its
 * digits, or -1 when the line holds none, -2 when they overflow. */
static long long content_length(const char *line)
{
	static const char name[] = "content-length:";
	for (const char *p = line; *p; p++) {
		if (strncasecmp(p, name, sizeof(name) - 1) != 0)
			continue;
		p += sizeof(name) - 1;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		long long v = 0;
		for (; isdigit((unsigned char)*p); p++) {
			if (v > (1LL << 62) / 10)
				return -2;
			v = v * 10 + (*p - '0');
		}
		return *p ? -1 : v;
	}
	return -1;
}

/* Reads past n bytes (a body over the bound), a piece at a time. */
static bool skip_bytes(FILE *in, unsigned long long n)
{
	char piece[65536];
	while (n) {
		size_t want = n < sizeof(piece) ? (size_t)n : sizeof(piece);
		size_t got = fread(piece, 1, want, in);
		if (got == 0)
			return false;
		n -= got;
	}
	return true;
}

rpc_status rpc_read(FILE *in, buf *body)
{
	buf_reset(body);
	char line[RPC_MAX_HEADER_LINE + 1];
	long long length = -1;
	bool any = false, headers = false;
	for (;;) {
		size_t len;
		bool more = read_line(in, line, &len, &any);
		if (!more && !len)
			return any ? RPC_TRUNCATED : RPC_EOF;
		if (len) {
			long long v = content_length(line);
			if (v != -1) {
				length = v;
				headers = true;
			} else if (strchr(line, ':')) {
				headers = true; /* Content-Type and others: read and passed over */
			}
			if (!more)
				return RPC_TRUNCATED;
			continue;
		}
		if (!more)
			return RPC_TRUNCATED;
		if (!headers)
			continue; /* blank lines between messages */
		break;
	}
	if (length == -1)
		return RPC_NO_LENGTH;
	if (length == -2) /* no count of bytes to read past: the lines that follow are skipped as above */
		return RPC_TOO_LARGE;
	if ((unsigned long long)length > RPC_MAX_BODY)
		return skip_bytes(in, (unsigned long long)length) ? RPC_TOO_LARGE : RPC_TRUNCATED;
	size_t n = (size_t)length;
	if (body->cap < n + 1) {
		char *p = realloc(body->data, n + 1);
		if (!p)
			return RPC_TOO_LARGE;
		body->data = p;
		body->cap = n + 1;
	}
	size_t got = n ? fread(body->data, 1, n, in) : 0;
	body->len = got;
	body->data[got] = '\0';
	return got == n ? RPC_OK : RPC_TRUNCATED;
}

/* The values of a JSON text, counted from its bytes outside strings: each
 * '[' '{' ',' ':' starts at most one more (a scalar after ':' or ',', a
 * container at its bracket). An upper bound, so the parse stays within it. */
static size_t value_count(const char *s, size_t n)
{
	size_t count = 1;
	bool in_string = false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
		} else if (c == '"') {
			in_string = true;
		} else if (c == '[' || c == '{' || c == ',' || c == ':') {
			count++;
		}
	}
	return count;
}

json_t *rpc_parse(const buf *body, const char **why)
{
	static char text[200];
	if (value_count(body->data ? body->data : "", body->len) > RPC_MAX_VALUES) {
		snprintf(text, sizeof(text), "a message holds at most %d JSON values", RPC_MAX_VALUES);
		*why = text;
		return NULL;
	}
	json_error_t err;
	json_t *msg = json_loadb(body->data ? body->data : "", body->len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &err);
	if (!msg) {
		snprintf(text, sizeof(text), "%s", err.text);
		*why = text;
	}
	return msg;
}

bool rpc_write(FILE *out, const json_t *msg)
{
	char *text = json_dumps(msg, JSON_COMPACT | JSON_ENSURE_ASCII);
	if (!text)
		return false;
	size_t n = strlen(text);
	bool ok = fprintf(out, "Content-Length: %zu\r\n\r\n", n) > 0 && fwrite(text, 1, n, out) == n && fflush(out) == 0;
	free(text);
	return ok;
}
