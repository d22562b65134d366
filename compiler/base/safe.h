/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* safe.h - what a byte of the description may become in an output.
 *
 * dslc's output runs as root on every node (scripts, units, the kernel
 * command line), and dslc itself runs on untrusted pull requests, so nothing
 * in a description is trusted. One function per output context; every
 * target uses them, and safety_check_model (safety.h) reports at the source line each
 * value a target would refuse. Neither depends on a lint rule: suppressions
 * and --disable silence reports, never these checks (SPEC.md, "Security
 * model"). */
#ifndef DSLC_SAFE_H
#define DSLC_SAFE_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "buf.h"

/* 253: a DNS name; a path component stays under the file systems' 255 */
enum { SAFE_NAME_MAX = 253, SAFE_ECHO_MAX = 80 };

/* Well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF). */
bool safe_utf8(const char *s, size_t n);
/* The length of the well-formed UTF-8 sequence at s (n bytes left), 0 when
 * the bytes there are not one. */
size_t safe_utf8_seq(const char *s, size_t n);
/* s itself when it is UTF-8; else a copy with each byte that starts no
 * well-formed sequence as U+FFFD (JSON and SARIF carry only UTF-8 strings:
 * a file name or a node's /proc/cmdline need not be). */
const char *safe_utf8_repair(arena *a, const char *s);
/* A file-name component: 1-253 letters, digits, '.', '_' or '-', not starting
 * with '.' or '-'. NULL when safe, else why not. */
const char *safe_name(const char *s);
/* A Linux interface name: a safe_name of at most 15 characters (IFNAMSIZ). */
const char *safe_ifname(const char *s);
/* An absolute path for a unit and a command line: '/' then safe_name
 * components separated by single '/', none starting with '.' (no "." or
 * ".."), no trailing '/': nothing for sh, systemd or a shell to expand. */
const char *safe_mount_path(const char *s);
/* systemd-escape -p of a path (unit_name_path_escape, src/basic/unit-name.c),
 * appended to b: the path without its leading '/', '/' as '-', every byte
 * outside [A-Za-z0-9:_.] (and a leading '.') as \xNN. */
void safe_unit_path_escape(buf *b, const char *path);
/* NULL when "dfuse-" + the escaped path + ".service" is a unit name systemd
 * takes (at most 255 bytes: UNIT_NAME_MAX), else why not. */
const char *safe_dfuse_unit(const char *path);
/* NULL when PATH (already a safe_mount_path) may become a mount point that a
 * boot-time tmpfiles.d line creates and chowns, or that daos_server mounts
 * tmpfs over: not a directory the OS owns (FHS 3.0, systemd's
 * file-hierarchy(7)): the whole of /etc, /usr, /var, /boot, /dev, /proc,
 * /run, /sys, /root, /bin, /sbin, /lib*, /efi; /home, /media, /mnt, /opt,
 * /srv, /tmp themselves; and a home directory, /home/NAME. tmpfiles.d's `d`
 * adjusts an existing directory's owner and mode at every boot. */
const char *safe_mount_point(const char *path);
/* Whether path is dir or below it ("/procfs" is not below "/proc"). */
bool safe_path_under(const char *path, const char *dir);
/* A value of a unit's Environment=NAME=VALUE, read by systemd verbatim: 1-256
 * of [A-Za-z0-9._:/,=+@-], so no quote, space, '%' specifier, '$' or '\\'
 * escape (systemd.exec(5), Environment=). */
const char *safe_unit_env_value(const char *s);
/* A user account as shadow's useradd takes it by default
 * (is_valid_user_name: [a-z_][a-z0-9_-]*, at most 32). */
const char *safe_account(const char *s);
/* One line of text for a comment or a unit value: UTF-8, no control bytes. */
const char *safe_line(const char *s);
/* A kernel command-line word that sh and GRUB both read verbatim. */
const char *safe_kernel_word(const char *s, char *bad);
/* A kernel parameter: its name and its value are both safe_kernel_words. */
const char *safe_kernel_param(const char *name, const char *value, char *bad);
/* One line of an ACL file as dmg reads it (src/control/lib/control/acl.go
 * ParseACL: lines trimmed of spaces, '#' lines skipped): a safe_line that
 * trimming does not change and that is not a comment. */
const char *safe_acl_line(const char *s);
/* A positional argument of dmg or daos (a pool or container label): a
 * safe_line that no option parser takes for an option (no leading '-').
 * Labels are written single-quoted; quoting protects them from sh, not
 * from dmg's own flag parser. */
const char *safe_cli_arg(const char *s);
/* Kubernetes names (k8s.io/apimachinery/pkg/util/validation/validation.go):
 * a node name is a DNS-1123 subdomain (IsDNS1123Subdomain: at most 253 of
 * [a-z0-9.-], each dot-separated label alphanumeric at both ends); a label
 * value (IsValidLabelValue) is at most 63 of [A-Za-z0-9_.-], alphanumeric at
 * both ends. NULL when valid, else why not. */
const char *safe_k8s_subdomain(const char *s);
/* A DNS-1123 label (IsDNS1123Label: a namespace, one part of a node name):
 * the n bytes at s are 1-63 of [a-z0-9-], alphanumeric at both ends. */
bool safe_k8s_label(const char *s, size_t n);
const char *safe_k8s_label_value(const char *s);
/* A CPU list as the kubelet parses reservedSystemCPUs (k8s.io/utils/cpuset
 * Parse): "N" or "N-M" with N <= M, comma-separated, decimal; each CPU below
 * ncpus when ncpus > 0. NULL when valid, else why not (in the arena). */
const char *safe_cpulist(arena *a, const char *s, int ncpus);
/* A relative output path: safe_name components separated by single '/'; a
 * component may also hold systemd's \xNN escapes (lower-case hex, not
 * first): unit names such as dfuse-mnt-daos\x2dscratch.service. */
bool safe_rel_path(const char *rel);
/* Appends s as one POSIX shell word, single-quoted (always). */
void safe_sh_word(buf *b, const char *s);
/* s cut to SAFE_ECHO_MAX bytes (at a UTF-8 boundary) with "...", and control
 * bytes shown as '?': what diagnostics echo of a user's value. */
const char *safe_echo(arena *a, const char *s);

#endif
