/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* shim: daos_security.h includes it; the ACL code uses none of it */
