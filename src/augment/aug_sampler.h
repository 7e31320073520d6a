/* Internals of the augmentation sampler (pf_aug_sample): policy checks
 * (aug_policy_check.c) and the per-transform draws (aug_sampler.c). */
#ifndef PF_CPU_AUG_SAMPLER_H
#define PF_CPU_AUG_SAMPLER_H

#include "pixflow/augment.h"

/* Checks every field of the policy (enabled or not: a default policy is
 * valid, so a bad value is a caller bug worth naming). Sets the error text
 * naming the field and returns PF_ERR_INVALID_ARGUMENT, or PF_OK. */
pf_status pfi_aug_check_policy(const char *op, const pf_aug_policy *p);

#endif
