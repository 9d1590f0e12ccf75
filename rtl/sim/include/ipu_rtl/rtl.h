/* The Verilator RTL card behind the device backend interface (ipu_card/backend.h).
 * Hosts create it through the registry (ipu_backends/registry.h, entry "rtl");
 * lock-step against the model is backends/lockstep (entry "lockstep"). */
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

/* Clock cycles the RTL card has simulated since it was created (0 for other cards). */
uint64_t ipu_rtl_cycles(struct ipu_backend *card);

#ifdef __cplusplus
}
#endif
#endif /* IPU_RTL_RTL_H */
