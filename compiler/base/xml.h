/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* xml.h - text made safe for an XML 1.0 document: no name or message can
 * close an attribute, open an element or carry a character XML refuses. */
#ifndef DSLC_XML_H
#define DSLC_XML_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

/* Text as XML character data or an attribute value: & < > " ' written as
 * references, bytes that are not UTF-8 and characters XML 1.0 forbids (C0
 * controls but tab and newline, U+FFFE, U+FFFF) as U+FFFD, tab and newline
 * as a space (an attribute value normalises them anyway), at most max
 * bytes of s (0: all of it). */
void xml_escape(buf *b, const char *s, size_t max);
/* Whether s is what xml_escape writes: well-formed UTF-8 of allowed
 * characters with no markup character left raw. The fuzz target holds
 * xml_escape to it. */
bool xml_escaped_ok(const char *s, size_t n);

#endif
