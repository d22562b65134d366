/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* shim: see gurt/common.h */
#include "common.h"
