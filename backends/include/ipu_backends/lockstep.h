/* Lock-step: two cards behind the device backend interface run the same
 * program; every instruction the primary retires is compared with the
 * secondary's stream for the same tile and context (through the retire
 * observer of ipu_card/backend.h), and the first divergence halts both.
 * The registry's "lockstep" entry is the RTL (primary) with the functional
 * model (secondary) beside it; any two embodiments with a retire trace work. */
#ifndef IPU_BACKENDS_LOCKSTEP_H
#define IPU_BACKENDS_LOCKSTEP_H

#include <stdint.h>

#include "ipu_card/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Combines `primary` and `secondary` (made for the same board; this takes
 * ownership of both, also on failure) into one card: BAR writes go to both,
 * reads come from the primary, interrupts should come from the primary alone
 * (create the secondary with a host whose irq is NULL). Host memory is read
 * and written by both. Returns 0 and sets *out, -EINVAL (NULL argument) or
 * -ENOTSUP (a side has no retire trace), or -ENOMEM. */
int ipu_lockstep_create(struct ipu_backend *primary, struct ipu_backend *secondary, struct ipu_backend **out);

/* The first divergence of a lock-step card as text (what each side retired,
 * then both sides' tile state), or NULL while there is none and for other
 * cards. The string lives as long as the card. */
const char *ipu_lockstep_divergence(struct ipu_backend *card);

/* Instructions compared so far by a lock-step card (0 for other cards). */
uint64_t ipu_lockstep_compared(struct ipu_backend *card);

#ifdef __cplusplus
}
#endif
#endif /* IPU_BACKENDS_LOCKSTEP_H */
