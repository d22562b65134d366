/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* sha256.h - the digests of rendered files, manifests and cache keys. */
#ifndef DSLC_SHA256_H
#define DSLC_SHA256_H

#include <stddef.h>
#include <stdint.h>

enum { SHA256_SIZE = 32 };

void sha256_bytes(const void *data, size_t len, uint8_t out[SHA256_SIZE]);
void sha256_to_hex(const uint8_t sha[SHA256_SIZE], char out[65]);
/* sha256_bytes as 64 lowercase hex digits and a NUL. */
void sha256_hex(const void *data, size_t len, char out[65]);

#endif
