/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* network.c - the node's interfaces against the networkd units dslc wrote
 * for it: each unit's interface exists with its MTU, a macvlan sits on its
 * NIC, the bond runs its mode, and each Address= is the node's. The units
 * are read back from the rendered bytes: what the node should run is what
 * the build wrote, whatever placement decided on the way. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "compiler/base/value.h"

enum { UNIT_MAX_ADDRS = 8 };

typedef struct unit {
	const rendered *file;
	bool netdev;
	const char *name, *kind, *mtu, *bond_mode, *macvlan[4];
	int nmacvlan;
	const char *addrs[UNIT_MAX_ADDRS];
	int naddrs;
} unit;

/* The value of `Key=` on the line at l (up to end), or NULL. */
static const char *key_value(arena *a, const char *l, const char *end, const char *key)
{
	size_t n = strlen(key);
	if ((size_t)(end - l) <= n || strncmp(l, key, n) != 0 || l[n] != '=')
		return NULL;
	return arena_strndup(a, l + n + 1, (size_t)(end - l) - n - 1);
}

static unit parse_unit(arena *a, const rendered *r)
{
	unit u = {.file = r, .netdev = val_ends_with(r->path, ".netdev")};
	const char *section = "";
	for (const char *l = r->data; l < r->data + r->len;) {
		const char *nl = memchr(l, '\n', (size_t)(r->data + r->len - l));
		const char *end = nl ? nl : r->data + r->len, *v;
		if (*l == '[')
			section = arena_strndup(a, l, (size_t)(end - l));
		else if ((v = key_value(a, l, end, "Name")) && (!strcmp(section, "[Match]") || !strcmp(section, "[NetDev]")))
			u.name = v;
		else if ((v = key_value(a, l, end, "Kind")))
			u.kind = v;
		else if ((v = key_value(a, l, end, "MTUBytes")))
			u.mtu = v;
		else if ((v = key_value(a, l, end, "Mode")) && !strcmp(section, "[Bond]"))
			u.bond_mode = v;
		else if ((v = key_value(a, l, end, "MACVLAN")) && u.nmacvlan < 4)
			u.macvlan[u.nmacvlan++] = v;
		else if ((v = key_value(a, l, end, "Address")) && u.naddrs < UNIT_MAX_ADDRS)
			u.addrs[u.naddrs++] = v;
		l = nl ? nl + 1 : end;
	}
	return u;
}

/* The description's line for an interface: its storage address, else the
 * management address (macvlans and the bond), else the node. */
static src_loc iface_loc(const doctor_ctx *c, const char *ifname, bool mtu)
{
	const node_spec *s = c->nd->spec;
	for (size_t i = 0; i < s->nstorage; i++)
		if (s->storage[i].iface && strcmp(s->storage[i].iface, ifname) == 0)
			return mtu && s->network.storage_mtu.set ? s->network.storage_mtu.loc : s->storage[i].loc;
	if (mtu && s->network.mgmt_mtu.set)
		return s->network.mgmt_mtu.loc;
	return doctor_loc_or(s->mgmt.loc, doctor_node_loc(c));
}

/* The node's local IPv4 addresses: /proc/net/fib_trie lists each under its
 * "|-- A.B.C.D" leaf with a "/32 host LOCAL" entry (net/ipv4/fib_trie.c,
 * fib_trie_seq_show and fib_route_seq_show's type names). */
static bool has_ipv4(const char *trie, const char *addr)
{
	size_t n = strlen(addr);
	for (const char *l = trie; (l = strstr(l, "|-- "));) {
		l += 4;
		if (strncmp(l, addr, n) != 0 || l[n] != '\n')
			continue;
		const char *next = strstr(l, "|-- ");
		const char *local = strstr(l, "/32 host LOCAL");
		if (local && (!next || local < next))
			return true;
	}
	return false;
}

/* /proc/net/if_inet6: "<32 hex digits> <ifindex> <prefix> <scope> <flags> <name>"
 * (net/ipv6/addrconf.c if6_seq_show). */
static bool has_ipv6(const char *table, const char *addr, const char *ifname)
{
	unsigned char want[16];
	if (inet_pton(AF_INET6, addr, want) != 1)
		return false;
	char hex[33];
	for (int i = 0; i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", want[i]);
	for (const char *l = table; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		char h[33], name[32];
		if (sscanf(l, "%32s %*x %*x %*x %*x %31s", h, name) == 2 && strcmp(h, hex) == 0 && strcmp(name, ifname) == 0)
			return true;
	}
	return false;
}

static void check_addresses(doctor_ctx *c, const unit *u, const rootfs_file *trie, const rootfs_file *inet6)
{
	for (int i = 0; i < u->naddrs; i++) {
		char addr[64];
		snprintf(addr, sizeof(addr), "%s", u->addrs[i]);
		addr[strcspn(addr, "/")] = '\0';
		bool v6 = strchr(addr, ':') != NULL;
		const rootfs_file *src = v6 ? inet6 : trie;
		if (src->status != ROOTFS_OK)
			continue; /* said once, by the caller */
		if (v6 ? has_ipv6(src->data, addr, u->name) : has_ipv4(src->data, addr))
			continue;
		diag *d = doctor_report(c, R_NODE_NETWORK, iface_loc(c, u->name, false), "%s is not an address of %s",
					u->addrs[i], v6 ? u->name : "the node");
		diag_help(c->dc, d, "install /%s and run `networkctl reload`, or look for another address manager on %s",
			  u->file->path, u->name);
	}
}

static bool check_unit(doctor_ctx *c, const unit *u, const unit *units, int n)
{
	char rel[128];
	snprintf(rel, sizeof(rel), "sys/class/net/%s", u->name);
	if (!doctor_exists(c, rel)) {
		diag *d = doctor_report(c, R_NODE_NETWORK, iface_loc(c, u->name, false), "interface %s of %s does not exist",
					u->name, u->file->path);
		diag_help(c->dc, d, "install the unit and run `networkctl reload` (systemd-networkd must be enabled)");
		return false;
	}
	if (u->mtu) {
		snprintf(rel, sizeof(rel), "sys/class/net/%s/mtu", u->name);
		rootfs_file f = doctor_read(c, rel, DOCTOR_MAX_SYS);
		if (f.status != ROOTFS_OK)
			doctor_unchecked(c, arena_printf(c->ar, "the MTU of %s", u->name), rel, &f);
		else if (strtoul(f.data, NULL, 10) != strtoul(u->mtu, NULL, 10)) {
			diag *d = doctor_report(c, R_NODE_NETWORK, iface_loc(c, u->name, true), "%s has MTU %lu, %s says %s",
						u->name, strtoul(f.data, NULL, 10), u->file->path, u->mtu);
			diag_help(c->dc, d, "run `networkctl reload`; an MTU the NIC or its switch port refuses stays lower");
		}
	}
	if (u->kind && strcmp(u->kind, "bond") == 0) {
		snprintf(rel, sizeof(rel), "sys/class/net/%s/bonding/mode", u->name);
		rootfs_file f = doctor_read(c, rel, DOCTOR_MAX_SYS);
		size_t len = u->bond_mode ? strlen(u->bond_mode) : 0;
		diag *d = NULL;
		if (f.status == ROOTFS_ABSENT)
			d = doctor_report(c, R_NODE_NETWORK, iface_loc(c, u->name, false), "%s is not a bond", u->name);
		else if (f.status == ROOTFS_OK && len && (strncmp(f.data, u->bond_mode, len) || f.data[len] != ' '))
			d = doctor_report(c, R_NODE_NETWORK, iface_loc(c, u->name, false), "bond %s runs mode %.*s, %s says %s",
					  u->name, (int)strcspn(f.data, " \n"), f.data, u->file->path, u->bond_mode);
		else if (f.status != ROOTFS_OK)
			doctor_unchecked(c, arena_printf(c->ar, "the mode of %s", u->name), rel, &f);
		if (d)
			diag_help(c->dc, d, "a bond's mode changes only when it is made: delete it (ip link delete %s) and run "
					    "`networkctl reload`", u->name);
	}
	/* a macvlan's lower device: the NIC whose .network names it */
	for (int k = 0; u->kind && strcmp(u->kind, "macvlan") == 0 && k < n; k++)
		for (int j = 0; j < units[k].nmacvlan; j++)
			if (units[k].name && strcmp(units[k].macvlan[j], u->name) == 0) {
				snprintf(rel, sizeof(rel), "sys/class/net/%s/lower_%s", u->name, units[k].name);
				if (!doctor_exists(c, rel)) {
					diag *d = doctor_report(c, R_NODE_NETWORK, iface_loc(c, u->name, false),
								"macvlan %s is not on %s, as %s says", u->name, units[k].name,
								units[k].file->path);
					diag_help(c->dc, d, "delete it (ip link delete %s) and run `networkctl reload`: networkd makes "
							    "it again on %s", u->name, units[k].name);
				}
			}
	return true;
}

void doctor_check_network(doctor_ctx *c)
{
	unit *units = arena_alloc(c->ar, (c->nfiles + 1) * sizeof(*units));
	int n = 0;
	for (size_t i = 0; i < c->nfiles; i++)
		if (strncmp(c->files[i].path, "etc/systemd/network/", 20) == 0 &&
		    (val_ends_with(c->files[i].path, ".network") || val_ends_with(c->files[i].path, ".netdev")))
			units[n++] = parse_unit(c->ar, &c->files[i]);
	if (!n)
		return;
	if (!doctor_exists(c, "sys/class/net")) {
		rootfs_file f = {.status = ROOTFS_ABSENT};
		doctor_unchecked(c, "the network interfaces", "sys/class/net", &f);
		return;
	}
	rootfs_file trie = doctor_read(c, "proc/net/fib_trie", DOCTOR_MAX_PROC);
	rootfs_file inet6 = doctor_read(c, "proc/net/if_inet6", DOCTOR_MAX_PROC);
	bool v4 = false, v6 = false;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < units[i].naddrs; k++)
			*(strchr(units[i].addrs[k], ':') ? &v6 : &v4) = true;
	if (v4 && trie.status != ROOTFS_OK)
		doctor_unchecked(c, "the IPv4 addresses", "proc/net/fib_trie", &trie);
	if (v6 && inet6.status != ROOTFS_OK)
		doctor_unchecked(c, "the IPv6 addresses", "proc/net/if_inet6", &inet6);
	/* a .netdev and its .network name one interface: it is checked once,
	 * with what both say, and its twin takes the verdict */
	bool *present = arena_alloc(c->ar, (size_t)n * sizeof(*present));
	for (int i = 0; i < n; i++) {
		if (!units[i].name)
			continue;
		int first = i;
		for (int k = 0; k < i && first == i; k++)
			if (units[k].name && strcmp(units[k].name, units[i].name) == 0)
				first = k;
		if (first == i) {
			unit merged = units[i];
			for (int k = i + 1; k < n; k++)
				if (units[k].name && strcmp(units[k].name, units[i].name) == 0) {
					if (!merged.kind)
						merged.kind = units[k].kind;
					if (!merged.mtu)
						merged.mtu = units[k].mtu;
					if (!merged.bond_mode)
						merged.bond_mode = units[k].bond_mode;
				}
			present[i] = check_unit(c, &merged, units, n);
		} else {
			present[i] = present[first];
		}
		if (present[i])
			check_addresses(c, &units[i], &trie, &inet6);
	}
}
