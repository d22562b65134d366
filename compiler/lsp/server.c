/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* server.c - see server.h. */
#include "server.h"

#include <jansson.h>
#include <string.h>

#include "analysis.h"
#include "compiler/base/rules.h"
#include "features.h"
#include "rpc.h"

/* JSON-RPC and LSP error codes (LSP 3.17, "Response Message") */
enum { ERR_PARSE = -32700, ERR_INVALID_REQUEST = -32600, ERR_METHOD_NOT_FOUND = -32601, ERR_INVALID_PARAMS = -32602,
       ERR_NOT_INITIALIZED = -32002 };

typedef struct server {
	FILE *out, *log;
	doc_store docs;
	bool initialized, shutdown, utf8;
} server;

static void send(server *sv, json_t *msg)
{
	if (!rpc_write(sv->out, msg))
		fprintf(sv->log, "dslc lsp: cannot write to the client\n");
	json_decref(msg);
}

static void reply(server *sv, json_t *id, json_t *result)
{
	send(sv, json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id ? id : json_null(), "result",
			   result ? result : json_null()));
}

static void reply_error(server *sv, json_t *id, int code, const char *msg)
{
	send(sv, json_pack("{s:s, s:O, s:{s:i, s:s}}", "jsonrpc", "2.0", "id", id ? id : json_null(), "error", "code", code,
			   "message", msg));
}

static void notify(server *sv, const char *method, json_t *params)
{
	send(sv, json_pack("{s:s, s:s, s:o}", "jsonrpc", "2.0", "method", method, "params", params));
}

static json_t *capabilities(server *sv)
{
	return json_pack("{s:{s:s, s:{s:b, s:i, s:{s:b}}, s:b, s:{s:[s,s,s]}, s:b, s:b, s:b, s:{s:[s]}}, s:{s:s, s:s}}",
			 "capabilities", "positionEncoding", sv->utf8 ? "utf-8" : "utf-16", "textDocumentSync", "openClose", 1,
			 "change", 1, "save", "includeText", 0, "hoverProvider", 1, "completionProvider", "triggerCharacters", " ",
			 ":", "#", "definitionProvider", 1, "documentSymbolProvider", 1, "documentFormattingProvider", 1,
			 "codeActionProvider", "codeActionKinds", "quickfix", "serverInfo", "name", "dslc", "version", DSLC_VERSION);
}

/* A string the server compares as a name (a method, a URI, an encoding):
 * NULL when v is not a string, or holds a NUL byte ("shutdown\u0000x" is
 * not shutdown; a URI is not cut at one into another document's). Texts of
 * documents may hold NUL (reported at its line); names never. */
static const char *name_of(json_t *v)
{
	const char *s = json_string_value(v);
	return s && strlen(s) == json_string_length(v) ? s : NULL;
}

/* The client's position encodings: utf-8 when it offers it (LSP 3.17
 * general.positionEncodings), else the protocol's default, utf-16. */
static bool offers_utf8(json_t *params)
{
	json_t *encs = json_object_get(json_object_get(json_object_get(params, "capabilities"), "general"), "positionEncodings");
	size_t i;
	json_t *e;
	json_array_foreach(encs, i, e)
		if (name_of(e) && strcmp(name_of(e), "utf-8") == 0)
			return true;
	return false;
}

static void publish(server *sv, lsp_doc *d)
{
	notify(sv, "textDocument/publishDiagnostics", analysis_run(d, sv->utf8));
}

/* d changed: d, then every other open document whose last analysis read
 * it (a description that includes the hardware.dsl being edited). */
static void changed(server *sv, lsp_doc *d)
{
	publish(sv, d);
	for (size_t i = 0; i < sv->docs.n; i++) {
		lsp_doc *o = sv->docs.v[i];
		if (o != d && d->real && docs_reads(o, d->real))
			publish(sv, o);
	}
}

static const char *uri_of(json_t *params)
{
	return name_of(json_object_get(json_object_get(params, "textDocument"), "uri"));
}

/* The version of a textDocument object (-1: none given). */
static long long version_of(json_t *td)
{
	json_t *v = json_object_get(td, "version");
	return json_is_integer(v) ? json_integer_value(v) : -1;
}

static void did_open(server *sv, json_t *params)
{
	json_t *td = json_object_get(params, "textDocument");
	const char *uri = name_of(json_object_get(td, "uri"));
	json_t *text = json_object_get(td, "text");
	if (!uri || !json_is_string(text))
		return;
	lsp_doc *d = docs_open(&sv->docs, uri, json_string_value(text), json_string_length(text), version_of(td));
	changed(sv, d);
}

static void did_change(server *sv, json_t *params)
{
	lsp_doc *d = docs_find(&sv->docs, uri_of(params));
	json_t *changes = json_object_get(params, "contentChanges");
	/* full sync: the last change holds the whole text */
	json_t *last = json_array_get(changes, json_array_size(changes) ? json_array_size(changes) - 1 : 0);
	json_t *text = json_object_get(last, "text");
	if (!d || !json_is_string(text))
		return;
	docs_set_text(d, json_string_value(text), json_string_length(text), version_of(json_object_get(params, "textDocument")));
	changed(sv, d);
}

static void did_save(server *sv, json_t *params)
{
	lsp_doc *d = docs_find(&sv->docs, uri_of(params));
	docs_saved(&sv->docs); /* the disk changed: the includer search reads it again */
	if (d)
		changed(sv, d);
}

static void did_close(server *sv, json_t *params)
{
	lsp_doc *d = docs_find(&sv->docs, uri_of(params));
	if (!d)
		return;
	/* its findings go with it (the protocol leaves them to the server) */
	notify(sv, "textDocument/publishDiagnostics", json_pack("{s:s, s:[]}", "uri", d->uri, "diagnostics"));
	docs_close(&sv->docs, d);
}

/* The document and the byte offset a position request names; false (with
 * the error sent) when either is not there. */
static lsp_doc *doc_at(server *sv, json_t *id, json_t *params, size_t *offset)
{
	const char *uri = uri_of(params);
	lsp_doc *d = docs_find(&sv->docs, uri);
	if (!d) {
		reply_error(sv, id, ERR_INVALID_PARAMS, uri || !json_is_string(json_object_get(json_object_get(params, "textDocument"), "uri"))
							? "the document is not open (textDocument/didOpen first)"
							: "textDocument.uri is not a URI: it holds a NUL byte");
		return NULL;
	}
	if (offset && !lsp_offset(&d->lines, json_object_get(params, "position"), sv->utf8, offset)) {
		reply_error(sv, id, ERR_INVALID_PARAMS, "position is not {line, character}");
		return NULL;
	}
	return d;
}

static void code_action(server *sv, json_t *id, json_t *params)
{
	lsp_doc *d = doc_at(sv, id, params, NULL);
	if (!d)
		return;
	json_t *range = json_object_get(params, "range");
	size_t start, end;
	if (!lsp_offset(&d->lines, json_object_get(range, "start"), sv->utf8, &start) ||
	    !lsp_offset(&d->lines, json_object_get(range, "end"), sv->utf8, &end)) {
		reply_error(sv, id, ERR_INVALID_PARAMS, "range is not {start, end}");
		return;
	}
	reply(sv, id, analysis_actions(d, start, end));
}

/* A request on a position of a document. */
static void at_position(server *sv, json_t *id, json_t *params, json_t *(*fn)(lsp_doc *, size_t, bool))
{
	size_t offset;
	lsp_doc *d = doc_at(sv, id, params, &offset);
	if (d)
		reply(sv, id, fn(d, offset, sv->utf8));
}

static void on_document(server *sv, json_t *id, json_t *params, json_t *(*fn)(lsp_doc *, bool))
{
	lsp_doc *d = doc_at(sv, id, params, NULL);
	if (d)
		reply(sv, id, fn(d, sv->utf8));
}

/* Returns false at `exit`. */
static bool dispatch(server *sv, json_t *msg, int *status)
{
	json_t *id = json_object_get(msg, "id");
	const char *method = name_of(json_object_get(msg, "method"));
	json_t *params = json_object_get(msg, "params");
	if (!method && json_is_string(json_object_get(msg, "method"))) { /* a NUL in it: no method of ours */
		if (id)
			reply_error(sv, id, ERR_METHOD_NOT_FOUND, "dslc lsp does not serve this method (its name holds a NUL byte)");
		return true;
	}
	if (!method) {
		if (id && !json_object_get(msg, "result") && !json_object_get(msg, "error"))
			reply_error(sv, id, ERR_INVALID_REQUEST, "a request needs a method");
		return true; /* a response to us: the server sends no request */
	}
	if (strcmp(method, "exit") == 0) {
		*status = sv->shutdown ? 0 : 1;
		return false;
	}
	if (strcmp(method, "initialize") == 0) {
		if (sv->initialized)
			reply_error(sv, id, ERR_INVALID_REQUEST, "initialize was sent already");
		else {
			sv->initialized = true;
			sv->utf8 = offers_utf8(params);
			reply(sv, id, capabilities(sv));
		}
		return true;
	}
	if (!sv->initialized) {
		if (id)
			reply_error(sv, id, ERR_NOT_INITIALIZED, "initialize first");
		return true;
	}
	if (sv->shutdown) {
		if (id)
			reply_error(sv, id, ERR_INVALID_REQUEST, "the server is shut down: only exit");
		return true;
	}
	if (strcmp(method, "shutdown") == 0) {
		sv->shutdown = true;
		reply(sv, id, NULL);
	} else if (strcmp(method, "initialized") == 0 || strncmp(method, "$/", 2) == 0) {
		/* nothing to do; $/ notifications (cancel, progress) may be ignored */
	} else if (strcmp(method, "textDocument/didOpen") == 0) {
		did_open(sv, params);
	} else if (strcmp(method, "textDocument/didChange") == 0) {
		did_change(sv, params);
	} else if (strcmp(method, "textDocument/didSave") == 0) {
		did_save(sv, params);
	} else if (strcmp(method, "textDocument/didClose") == 0) {
		did_close(sv, params);
	} else if (strcmp(method, "textDocument/hover") == 0) {
		at_position(sv, id, params, feature_hover);
	} else if (strcmp(method, "textDocument/completion") == 0) {
		at_position(sv, id, params, feature_completion);
	} else if (strcmp(method, "textDocument/definition") == 0) {
		at_position(sv, id, params, feature_definition);
	} else if (strcmp(method, "textDocument/documentSymbol") == 0) {
		on_document(sv, id, params, feature_symbols);
	} else if (strcmp(method, "textDocument/formatting") == 0) {
		on_document(sv, id, params, feature_formatting);
	} else if (strcmp(method, "textDocument/codeAction") == 0) {
		code_action(sv, id, params);
	} else if (id) {
		reply_error(sv, id, ERR_METHOD_NOT_FOUND, "dslc lsp does not serve this method");
	}
	return true;
}

int lsp_serve(FILE *in, FILE *out, FILE *log)
{
	server sv = {.out = out, .log = log};
	docs_init(&sv.docs);
	buf body;
	buf_init(&body);
	int status = 1;
	for (;;) {
		rpc_status st = rpc_read(in, &body);
		if (st == RPC_EOF || st == RPC_TRUNCATED)
			break; /* the client is gone: exit 1, as without shutdown */
		if (st == RPC_NO_LENGTH || st == RPC_TOO_LARGE) {
			reply_error(&sv, NULL, ERR_PARSE,
				    st == RPC_NO_LENGTH ? "a message needs a Content-Length header" : "message larger than dslc reads");
			continue;
		}
		const char *why = NULL;
		json_t *msg = rpc_parse(&body, &why);
		if (!msg || !json_is_object(msg)) {
			reply_error(&sv, NULL, msg ? ERR_INVALID_REQUEST : ERR_PARSE, msg ? "a message is a JSON object" : why);
			json_decref(msg);
			continue;
		}
		json_t *id = json_object_get(msg, "id");
		if (id && ((!json_is_integer(id) && !json_is_string(id)) || (json_is_string(id) && !name_of(id)))) {
			/* a string id with a NUL is echoed to a client that compares
			 * names: refused as a method or URI with one is */
			reply_error(&sv, NULL, ERR_INVALID_REQUEST, json_is_string(id) ? "id holds a NUL byte" : "id is a number or a string");
			json_decref(msg);
			continue;
		}
		bool go_on = dispatch(&sv, msg, &status);
		json_decref(msg);
		if (!go_on)
			break;
	}
	buf_free(&body);
	docs_free(&sv.docs);
	return status;
}
