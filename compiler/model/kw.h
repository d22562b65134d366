/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kw.h - keyword tables and the dispatcher that applies them (resolver
 * internals).
 *
 * A statement is a stream of values; the dispatcher reads a keyword, looks it
 * up in the block's tables and calls its handler, which consumes the keyword's
 * arguments. Several keywords may share a line. A block `{ }` belongs to the
 * last keyword of the statement. Simple settings need no handler code: the
 * table names the field (offset), its type and its range. */
#ifndef DSLC_KW_H
#define DSLC_KW_H

#include <stddef.h>

#include "model.h"

/* A `nodes` or `node` statement, resolved after every profile is known. */
typedef struct pending_nodes {
	bool single;              /* `node HOST`, an override or a lone node */
	ast_value *hosts;         /* host lists, up to hosts_end (before the ':') */
	ast_value *hosts_end;
	const char *profile;      /* NULL when not given */
	src_loc profile_loc, loc;
	ast_block *body;
} pending_nodes;

typedef struct resolver {
	model *m;
	arena *ar;
	diag_ctx *dc;
	pending_nodes *pend;
	size_t npend, pend_cap;
} resolver;

typedef struct keyword keyword;

typedef struct kw_ctx {
	resolver *r;
	const keyword *kw;
	ast_stmt *st;
	ast_value *cur;   /* next unread value */
	src_loc kwloc;    /* the keyword itself */
	src_loc last;     /* the last value read, for "missing argument" */
	src_loc scope;    /* the enclosing block: a setting given twice in it is a duplicate */
	void *target;
	int numa;         /* NUMA node of the enclosing `numa N` block */
	bool block_taken;
	bool failed;      /* the rest of the statement is skipped */
} kw_ctx;

typedef void (*kw_fn)(kw_ctx *k);

typedef enum kw_type {
	KW_CUSTOM,   /* the handler reads its own arguments */
	KW_INT,      /* opt_int in [min, max] */
	KW_SIZE,     /* opt_int bytes in [min, max] */
	KW_DURATION, /* opt_int milliseconds in [min, max] */
	KW_WORD,     /* opt_str, a bare word or a string */
	KW_ENUM,     /* opt_str, one of choices */
	KW_BOOL,     /* opt_int 0/1 from true/false */
} kw_type;

struct keyword {
	const char *name;
	const char *syntax;  /* as shown in help and SPEC.md */
	const char *doc;     /* one line for SPEC.md */
	kw_type type;
	size_t offset;       /* field in the target, for the typed kinds */
	int64_t min, max;
	const char *const *choices;
	kw_fn fn;            /* KW_CUSTOM */
};

typedef struct kw_table {
	const char *block;   /* "cluster", "engine", ... */
	const keyword *kws;
	size_t n;
} kw_table;

#define KW_TABLE(name, arr) { name, arr, sizeof(arr) / sizeof(arr[0]) }

/* Applies the statements of block (or the top-level statements) to target. */
void kw_apply(resolver *r, ast_block *block, const kw_table *const *tables, size_t ntables,
	      void *target, int numa);

/* ---- argument readers: each reports a located error and returns false ---- */
ast_value *kw_next(kw_ctx *k);              /* any value, or NULL */
bool kw_peek_word(kw_ctx *k, const char *w); /* next value is that word */
bool kw_expect_word(kw_ctx *k, const char *w);
bool kw_word(kw_ctx *k, const char *what, const char **out, src_loc *loc);
bool kw_string(kw_ctx *k, const char *what, const char **out, src_loc *loc);
/* An absolute path of name components (safe_mount_path), refused at its word
 * as "<label> '<path>': <why>". */
bool kw_abs_path(kw_ctx *k, const char *what, const char *label, const char **out, src_loc *loc);
bool kw_word_glued(kw_ctx *k, const char *what, const char **out, src_loc *loc);
bool kw_int(kw_ctx *k, const char *what, int64_t min, int64_t max, int64_t *out, src_loc *loc);
bool kw_size(kw_ctx *k, const char *what, uint64_t *out, src_loc *loc);
bool kw_pci(kw_ctx *k, const char *what, char out[16], src_loc *loc);
/* One or more PCI addresses, appended; the list ends at the first word that is not one. */
bool kw_pci_list(kw_ctx *k, pci_ref **items, size_t *n, size_t *cap);
bool kw_env(kw_ctx *k, env_list *env);
ast_block *kw_block(kw_ctx *k);             /* the statement's block, required */
/* A keyword that opens a block of table t once (`link { ... }`), applied to
 * target; *loc becomes the keyword's. */
void kw_sub_block(kw_ctx *k, const kw_table *t, void *target, src_loc *loc, bool *set);
/* Marks a setting; false (and a duplicate-definition error) when the same
 * block already set it. */
bool kw_once(kw_ctx *k, src_loc *field_loc, bool *field_set);
/* The location is in the statement's enclosing block (set there, not inherited). */
bool kw_in_scope(const kw_ctx *k, src_loc loc);
void kw_missing(kw_ctx *k, const char *what);
void kw_bad(kw_ctx *k, src_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A size DAOS would read otherwise (64GB, 64G): the error, and for a decimal
 * unit the binary one of the same letter as an exact fix. */
void kw_bad_size(kw_ctx *k, src_loc loc, const char *s, const char *why);
/* "did you mean" over a NULL-terminated list, or NULL. */
const char *kw_suggest(const char *word, const char *const *names, size_t n);
/* kw_suggest's answer when no other name is as near, else NULL: what a fix
 * may write without guessing. */
const char *kw_suggest_unique(const char *word, const char *const *names, size_t n);
/* The rule id closest to a misspelt one, or NULL. */
const char *kw_suggest_rule(const char *id);

/* The tables (keywords.c). */
extern const kw_table kw_top, kw_cluster, kw_fabric, kw_hardware, kw_numa, kw_profile,
	kw_engine, kw_node_addr, kw_pool, kw_container, kw_kernel, kw_kubelet, kw_bmc, kw_network, kw_kube, kw_mount,
	kw_mpiio, kw_link, kw_lossless;
/* `mount <path> { ... }` (mounts.c) and its resolution once nodes and
 * containers are known. */
void top_mount(kw_ctx *k);
void mounts_resolve(model *m);
/* Fills in a hardware's derived topology once its block is applied.
 * read_clean: the block was read without an error. When it was not, a
 * topology export is still loaded and each device and count the block did
 * read is checked against it (those checks read their own line and the
 * export's, nothing a bad line elsewhere changes), but the hardware gets no
 * topology: nothing is placed on a half-read node type. */
void hardware_finish(resolver *r, hardware *hw, bool read_clean);
/* Roles of `nic auto` NICs by the cluster's fabric; hand-described storage
 * NICs that cannot carry it are reported. After the cluster block is read. */
void hardware_fabric_roles(resolver *r, hardware *hw);
/* A copy a later block writes into, never the spec it inherits from
 * (node_spec.c). */
node_spec *spec_copy(arena *a, const node_spec *src);
/* The profile of that name, NULL for none or a hardware (lookup.c). */
profile_def *profile_find(const model *m, const char *name);
/* The node index's key for a host: lower case, no trailing dot, as DNS
 * compares names (lookup.c). */
const char *model_host_key(char *buf, size_t size, const char *host);

#endif
