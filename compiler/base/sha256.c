/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* sha256.c - see sha256.h (nettle). */
#include "sha256.h"

#include <nettle/sha2.h>

void sha256_bytes(const void *data, size_t len, uint8_t out[SHA256_SIZE])
{
	struct sha256_ctx ctx;
	sha256_init(&ctx);
	sha256_update(&ctx, len, data);
	sha256_digest(&ctx, SHA256_SIZE, out);
}

void sha256_to_hex(const uint8_t sha[SHA256_SIZE], char out[65])
{
	static const char hex[] = "0123456789abcdef";
	for (int i = 0; i < SHA256_SIZE; i++) {
		out[2 * i] = hex[sha[i] >> 4];
		out[2 * i + 1] = hex[sha[i] & 15];
	}
	out[64] = '\0';
}

void sha256_hex(const void *data, size_t len, char out[65])
{
	uint8_t d[SHA256_SIZE];
	sha256_bytes(data, len, d);
	sha256_to_hex(d, out);
}
