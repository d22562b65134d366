/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* Image references as containerd parses them: cases from
 * distribution/reference's own tests (reference_test.go TestReferenceParse,
 * normalize_test.go TestValidateReferenceName) and the rules of its
 * regexp.go, each accepted or refused as ParseDockerRef does. */
#include <stddef.h>

#include "compiler/base/image_ref.h"
#include "unit.h"

#define HEX64 "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"

START_TEST(references_containerd_pulls)
{
	static const char *const ok[] = {
		"test_com", "test.com:tag", "test.com:5000", "test.com/repo:tag", "test:5000/repo", "test:5000/repo:tag",
		"test:5000/repo@sha256:" HEX64, "test:5000/repo:tag@sha256:" HEX64, "lowercase:Uppercase",
		"sub-dom1.foo.com/bar/baz/quux", "sub-dom1.foo.com/bar/baz/quux:some-long-tag",
		"b.gcr.io/test.example.com/my-app:test.example.com", "xn--n3h.com/myimage:xn--n3h.com",
		"[fc00::1]:5000/repo", "[::1]/repo:tag", "foo_bar.com:8080", "foo/foo_bar.com:8080", "192.168.1.1:5000/repo",
		"Localhost:5000/repo", "docker/docker", "library/debian", "debian", "localhost/library/debian",
		"registry.example.com/daos/daos:2.6.3", "a__b/c--d/e.f",
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		ck_assert_msg(image_ref_check(ok[i]) == NULL, "%s refused: %s", ok[i], image_ref_check(ok[i]));
}
END_TEST

START_TEST(references_containerd_refuses)
{
	static const char *const bad[] = {
		"", ":justtag", "@sha256:" HEX64, "repo@sha256:ffffffffffffffffffffffffffffffffff",
		"validname@invaliddigest:" HEX64, "Uppercase:tag", "test:5000/Uppercase/lowercase:tag",
		"registry.example.com/DAOS/daos:2.6.3", "aa/asdf$$^/aa", "[fe80::1%eth0]:5000/repo", "-foo/bar", "foo/-bar",
		"foo/bar-", "a___b", "a_.b", "foo:tag:tag", "foo:-tag", HEX64, "test.com:5000/repo:" HEX64 HEX64 HEX64,
		"registry .example.com/daos", "-registry.example.com/daos", "registry.example.com./daos",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(image_ref_check(bad[i]) != NULL, "%s accepted", bad[i]);
}
END_TEST

Suite *suite_image_ref(void)
{
	Suite *s = suite_create("image_ref");
	TCase *tc = tcase_create("grammar");
	tcase_add_test(tc, references_containerd_pulls);
	tcase_add_test(tc, references_containerd_refuses);
	suite_add_tcase(s, tc);
	return s;
}
