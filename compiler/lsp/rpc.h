/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* rpc.h - JSON-RPC messages framed as the Language Server Protocol frames
 * them (base protocol, LSP 3.17): header lines "Name: value\r\n" up to an
 * empty line, Content-Length required, then that many bytes of JSON. */
#ifndef DSLC_LSP_RPC_H
#define DSLC_LSP_RPC_H

#include <jansson.h>
#include <stdio.h>

#include "compiler/base/buf.h"
#include "compiler/base/source.h"

/* The largest body read into memory: a document of the largest size a
 * source may have (SRC_MAX_FILE_BYTES), each byte escaped by JSON ("\u0001":
 * six bytes), and the message around it. A longer body is read past, a
 * piece at a time, and answered with an error. */
#define RPC_MAX_BODY ((size_t)SRC_MAX_FILE_BYTES * 6 + 65536)
/* The JSON values a body may hold: jansson builds some 100-250 bytes for
 * each (an empty object is a hashtable), so a body of small values is
 * amplified 30-80 times (96 MiB of `[{},{},...]` built 7.7 GB). A client's
 * message holds tens of values; a change with its range about ten. */
enum { RPC_MAX_VALUES = 200000 };
/* A header line longer than this is not one: it is skipped to its end. */
enum { RPC_MAX_HEADER_LINE = 1024 };

typedef enum rpc_status {
	RPC_OK,         /* body holds one message's bytes (not yet parsed) */
	RPC_EOF,        /* the input ended between messages */
	RPC_NO_LENGTH,  /* headers without a usable Content-Length: nothing read */
	RPC_TOO_LARGE,  /* Content-Length over RPC_MAX_BODY: the body was read past */
	RPC_TRUNCATED,  /* the input ended inside a message */
} rpc_status;

/* Reads the next message's body into body (cleared first). Lines that are
 * not headers before a Content-Length (the rest of a body whose length was
 * given short) are skipped, so the stream finds the next message again. */
rpc_status rpc_read(FILE *in, buf *body);
/* The message in body, parsed (NUL bytes allowed inside strings: a
 * document's text may hold one): NULL with *why set when it is not JSON or
 * holds more than RPC_MAX_VALUES values (counted before anything is built). */
json_t *rpc_parse(const buf *body, const char **why);
/* Writes msg framed; false when out cannot be written. */
bool rpc_write(FILE *out, const json_t *msg);

#endif
