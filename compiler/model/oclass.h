/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* oclass.h - DAOS object class names: the grammar DAOS registers
 * (src/object/obj_class_def.c), what each class tolerates and how wide its
 * redundancy group is. Matching is exact and case-sensitive, as in
 * daos_oclass_name2id. */
#ifndef DSLC_OCLASS_H
#define DSLC_OCLASS_H

#include <stdbool.h>

typedef enum oclass_kind { OC_S, OC_RP, OC_EC } oclass_kind;

typedef struct oclass {
	char name[24];
	oclass_kind kind;
	int k, p;    /* EC: data and parity cells; RP: k = replicas; S: k = shards */
	int groups;  /* 0 = X: as many groups as fit */
	bool xsf;    /* RP_XSF */
} oclass;

/* release: 26 or 28 (and later); patch: the 2.6 patch level, -1 unknown.
 * On failure *why says what is wrong and *suggest (may be NULL) names the
 * closest registered class. */
bool oclass_parse(const char *name, int release, int patch, oclass *out, const char **why,
		  const char **suggest);
int oclass_tolerance(const oclass *c); /* failures the class survives */
int oclass_width(const oclass *c);     /* fault domains one group spans */
/* Writes the name of a class, e.g. EC_8P2GX. */
void oclass_name(oclass_kind kind, int k, int p, int groups, char out[24]);
/* EC (k, p) pairs registered in a release, widest first. */
bool oclass_ec_allowed(int k, int p, int release, int patch);

#endif
