/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* image_ref.h - container image references as containerd reads them: the
 * distribution reference grammar (github.com/distribution/reference,
 * regexp.go and reference.go) after Docker's normalization
 * (normalize.go ParseNormalizedNamed, which containerd's CRI calls through
 * ParseDockerRef before a pull; a reference it refuses is the kubelet's
 * InvalidImageName). */
#ifndef DSLC_IMAGE_REF_H
#define DSLC_IMAGE_REF_H

/* NULL when s is a reference containerd pulls; else why not, in words. */
const char *image_ref_check(const char *s);

#endif
