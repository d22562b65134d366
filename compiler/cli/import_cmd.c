/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* import_cmd.c - see import_cmd.h. */
#include "import_cmd.h"

#include <stdio.h>

int import_cmd(const import_opts *o, report_format fmt, unsigned max_findings)
{
	import_run r;
	bool ok = import_files(&r, o);
	int rc = 0;
	diag_sort(&r.in.dc);
	if (!ok && r.usage) {
		fprintf(stderr, "dslc: %s\n", r.usage);
		import_free(&r);
		return 2;
	}
	if (!ok) {
		/* a compiled description that failed its check has findings of its own too */
		diag_ctx *const dcs[] = {&r.in.dc, &r.out.dc};
		report_print_all(dcs, r.compiled ? 2 : 1, fmt, stderr, max_findings, "dslc " DSLC_VERSION, NULL, SEV_ERROR);
		bool io = false;
		for (size_t i = 0; i < r.in.dc.n; i++)
			io |= r.in.dc.items[i]->rule->rule == R_IO;
		fprintf(stderr, "dslc: nothing imported\n");
		import_free(&r);
		return io ? 2 : 1;
	}
	if (fwrite(r.text.data, 1, r.text.len, stdout) != r.text.len || fflush(stdout) != 0) {
		perror("dslc: cannot write the description");
		rc = 2;
	}
	report_print(&r.out.dc, fmt, stderr, max_findings, "dslc " DSLC_VERSION);
	unsigned e = diag_count(&r.out.dc, SEV_ERROR), w = diag_count(&r.out.dc, SEV_WARNING);
	if (e + w)
		fprintf(stderr, "dslc: the imported cluster has %u error%s and %u warning%s: `dslc build` %s\n", e,
			e == 1 ? "" : "s", w, w == 1 ? "" : "s", e ? "refuses it until the errors are fixed" : "builds it");
	import_free(&r);
	return rc;
}
