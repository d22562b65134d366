#include "daos.h"

#include <stddef.h>
#include <string.h>

const daos_release daos_releases[DAOS__NRELEASES] = {
#define RELEASE(e, name, ctx, ram) [e] = {e, name, ctx, ram},
#include "schemas/daos_releases.def"
#undef RELEASE
};

const daos_key_info daos_keys[DAOS__NKEYS] = {
#define STR KT_STR
#define INT KT_INT
#define BOOL KT_BOOL
#define LIST KT_LIST
#define MAP KT_MAP
#define LIST_MAP KT_LIST_MAP
#define DAOS_KEY(e, sec, type, n26, n28) [e] = {#sec, type, {n26, n28}},
#include "schemas/daos_keys.def"
#undef DAOS_KEY
#undef STR
#undef INT
#undef BOOL
#undef LIST
#undef MAP
#undef LIST_MAP
};

const daos_release *daos_release_find(const char *name)
{
	for (int i = 0; i < DAOS__NRELEASES; i++)
		if (strcmp(daos_releases[i].name, name) == 0)
			return &daos_releases[i];
	return NULL;
}

const char *daos_key_name(const daos_release *rel, daos_key key)
{
	return daos_keys[key].name[rel->id];
}

const char *daos_release_list(void)
{
	static char list[128];
	if (!list[0])
		for (int i = 0; i < DAOS__NRELEASES; i++) {
			if (i)
				strcat(list, ", ");
			strcat(list, daos_releases[i].name);
		}
	return list;
}
