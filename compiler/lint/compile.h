/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* compile.h - one compilation: source -> AST -> model -> plans -> findings.
 * Everything it allocates lives in its arena. */
#ifndef DSLC_COMPILE_H
#define DSLC_COMPILE_H

#include "compiler/base/diag.h"
#include "compiler/model/model.h"

typedef struct compilation {
	arena ar;
	src_set src;
	diag_ctx dc;
	model m;
	bool parsed; /* false: the main file could not be read (errno kept) */
} compilation;

/* Reduces c to its findings and the sources they quote (their file ids
 * kept): the model, the AST and the placement are freed. What a report
 * prints is left; c->m is empty. compile_free frees the rest. */
void compile_keep_findings(compilation *c);
/* An empty compilation: its arena, sources and findings, ready for sources
 * added by hand (the formatter, the importer, the fuzz targets). */
void compile_init(compilation *c);
/* Runs the pipeline up to lint. Returns false only when the main file cannot
 * be read; findings (including syntax errors) are in c->dc. */
bool compile_file(compilation *c, const char *path);
bool compile_text(compilation *c, const char *name, const char *text);
/* compile_file with rules switched off (--disable): their findings are
 * dropped before the safety gate runs, so the gate sees what is left. */
bool compile_file_with(compilation *c, const char *path, const bool disabled[R__COUNT]);
/* The same, the file known as name in diagnostics (stdin: "/dev/stdin" as
 * "<stdin>", its includes relative to the working directory). */
bool compile_file_as(compilation *c, const char *path, const char *name, const bool disabled[R__COUNT]);
/* Lints a hand-written daos_server.yml or daos_agent.yml. release: "2.6",
 * "2.8" or NULL (detect); topology: an lstopo export or NULL. Returns false
 * when the file cannot be read; a topology that cannot be loaded is a
 * finding. */
bool compile_yaml(compilation *c, const char *path, const char *release, const char *topology_path, int64_t mem_gib,
		  uint64_t hugepage_size);
void compile_free(compilation *c);

#endif
