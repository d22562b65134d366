/* shim: daos_security.h includes it; the ACL code uses none of it */
