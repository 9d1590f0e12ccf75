/* The Verilator RTL card behind the device backend interface (ipu_card/backend.h),
 * and the lock-step mode that runs the functional model beside it. */
#ifndef IPU_RTL_RTL_H
#define IPU_RTL_RTL_H

#include <stdint.h>

#include "ipu_card/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ipu_board;

/* Creates an RTL card for `board` on the bus described by `host` (both copied).
 * `options` may be NULL; options->trace prints every retired instruction to
 * stderr; host_threads is ignored (Verilator threads are chosen at build time).
 * Waveforms: with a build configured -DIPU_RTL_TRACE=ON, $IPU_RTL_FST names an
 * FST file to write. The board must match a Verilated configuration (tiles,
 * bytes_per_tile, worker_contexts) and must not need the F extension.
 * Returns 0 and sets *out, or -EINVAL (NULL argument, or no RTL build for this
 * board), or -ENOMEM. Free with (*out)->ops->destroy(*out). */
int ipu_rtl_create(const struct ipu_board *board, const struct ipu_backend_host *host,
                   const struct ipu_backend_options *options, struct ipu_backend **out);

/* As ipu_rtl_create, but a functional model of the same board runs beside the
 * RTL: BAR writes go to both, reads come from the RTL, and every instruction
 * the RTL retires is compared (tile, context, PC, instruction, rd and its
 * value) with the model's stream for that tile and context. The first
 * divergence halts both cards and is printed to stderr with both sides' state.
 * Returns as ipu_rtl_create. */
int ipu_rtl_lockstep_create(const struct ipu_board *board, const struct ipu_backend_host *host,
                            const struct ipu_backend_options *options, struct ipu_backend **out);

/* The first divergence of a lock-step card as text, or NULL while there is none
 * (and for cards that are not lock-step cards). The string lives as long as the card. */
const char *ipu_rtl_lockstep_divergence(struct ipu_backend *card);

/* Instructions compared so far by a lock-step card (0 for other cards). */
uint64_t ipu_rtl_lockstep_compared(struct ipu_backend *card);

/* Clock cycles the RTL card has simulated since it was created (0 for other cards). */
uint64_t ipu_rtl_cycles(struct ipu_backend *card);

#ifdef __cplusplus
}
#endif
#endif /* IPU_RTL_RTL_H */
