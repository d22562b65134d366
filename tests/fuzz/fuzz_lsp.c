/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fuzz_lsp.c - libFuzzer target: `dslc lsp`'s framing and dispatcher. Each
 * input is what an editor writes to the server's standard input (headers,
 * bodies, several messages; the seeds are whole sessions: initialize, open,
 * change, every request, shutdown, exit), served to the end of the input.
 *
 * Beyond "no crash, no sanitizer report, no hang": every byte the server
 * writes is a framed message (Content-Length headers, then exactly that
 * many bytes of a JSON object), as a client must be able to read it. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/lsp/server.h"

static void check_output(const char *out, size_t len)
{
	size_t p = 0;
	while (p < len) {
		unsigned long n;
		int used = 0;
		if (sscanf(out + p, "Content-Length: %lu\r\n\r\n%n", &n, &used) != 1 || !used || p + (size_t)used + n > len) {
			fprintf(stderr, "the server wrote an unframed message at byte %zu\n", p);
			abort();
		}
		p += (size_t)used;
		json_error_t err;
		json_t *msg = json_loadb(out + p, n, 0, &err);
		if (!json_is_object(msg)) {
			fprintf(stderr, "the server wrote a body that is no JSON object: %s\n", err.text);
			abort();
		}
		json_decref(msg);
		p += n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *in = fmemopen((void *)data, size, "rb");
	if (!in)
		return 0; /* fmemopen of zero bytes */
	char *out = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&out, &len);
	FILE *log = fopen("/dev/null", "w");
	lsp_serve(in, o, log);
	fclose(in);
	fclose(o);
	fclose(log);
	check_output(out, len);
	free(out);
	return 0;
}
