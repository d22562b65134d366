/* shim: see gurt/common.h */
#include "common.h"
