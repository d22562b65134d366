/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* selfcheck.h - the build checks what it writes.
 *
 * Before a tree is written (or compared with --check), every distinct
 * daos_server.yml and daos_agent.yml the build renders goes through the
 * YAML linter with the node type's topology and the declared release: the
 * same rules `dslc lint daos_server.yml --topology` applies, DAOS's own
 * loader rules among them. The files are rendered through the build's own
 * render memo, so the bytes checked are the bytes written and nothing is
 * rendered twice; nodes of one spec share them, and equal files of several
 * specs are linted once. A YAML error is an `internal-consistency`
 * error at the DSL statement that produced the value, with the rendered line
 * as a note: defence in depth, never the place a rule lives (no example or
 * fixture trips it). It cannot be suppressed or disabled; YAML findings of
 * rules the description itself silences are not raised again. */
#ifndef DSLC_SELFCHECK_H
#define DSLC_SELFCHECK_H

#include "compiler/model/model.h"
#include "render.h"

/* Reports into m->dc; disabled: the rules --disable switched off (may be
 * NULL); memo: the render memo the build will use (output_opts.memo).
 * Returns the number of errors it reported. */
unsigned selfcheck_model(model *m, const bool *disabled, render_memo *memo);

#endif
