/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* acl_oracle.c - DAOS's own ACL parser and validator (the vendored
 * src/common/acl_*.c of release/2.6) over ACLs read from stdin: one ACL per
 * line, its entries separated by tabs, as daos_acl_from_strs gets them from
 * the pool service. Prints "ok" or "refused" per line. Not DAOS code. */
#include <daos_security.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char line[65536];
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		const char *strs[256];
		size_t n = 0;
		for (char *tok = line, *tab; n < 256; tok = tab + 1) {
			tab = strchr(tok, '\t');
			if (tab)
				*tab = '\0';
			strs[n++] = tok;
			if (!tab)
				break;
		}
		struct daos_acl *acl = NULL;
		int rc = daos_acl_from_strs(strs, n, &acl);
		puts(rc == 0 ? "ok" : "refused");
		daos_acl_free(acl);
	}
	return 0;
}
