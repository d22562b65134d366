/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* shim: see gurt/common.h */
#include <gurt/common.h>
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
