/* The functional card model: the IPU Model of ipu-emu and the engine inside the
 * QEMU card. It executes real RV32IMF tile binaries and implements the device
 * backend interface (ipu_card/backend.h) exactly as contract/card.toml says. */
#ifndef IPU_MODEL_MODEL_H
#define IPU_MODEL_MODEL_H

#include "ipu_card/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ipu_board;

/* Creates a card for `board` attached to the bus described by `host` (both are
 * copied). `options` may be NULL for defaults.
 * Returns 0 and sets *out, or -EINVAL (NULL argument, or a board that
 * ipu_board_check refuses: call it for the message) or -ENOMEM.
 * Free with (*out)->ops->destroy(*out). */
int ipu_model_create(const struct ipu_board *board, const struct ipu_backend_host *host,
                     const struct ipu_backend_options *options, struct ipu_backend **out);

/* For benchmarks: nanoseconds that this process's card models have spent, in
 * total, in the phases of their run loops that are spread over host threads
 * (tiles executing, exchange writes landing, clocks aligned at a sync). The
 * rest of a run's wall time (drains in tile order, the host's register
 * traffic) is serial, so 1 - this / wall time on one thread is the serial
 * fraction that bounds the speed-up on more threads (Amdahl). */
uint64_t ipu_model_parallel_phase_ns(void);

/* The parallel phases of a card's run loop, for ipu_model_phase_ns. */
enum ipu_model_phase {
    IPU_MODEL_PHASE_ROUND,   /* tiles executing, until each needs the card */
    IPU_MODEL_PHASE_LANDING, /* at a sync: exchange writes land, by destination tile */
    IPU_MODEL_PHASE_RESUME,  /* at a sync: clocks aligned, send buffers returned, tiles resumed */
    IPU_MODEL_PHASE_COUNT
};

/* For benchmarks: the part of ipu_model_parallel_phase_ns spent in one phase
 * (0 for an unknown phase). Comparing them between host thread counts shows
 * which phase does not scale. */
uint64_t ipu_model_phase_ns(enum ipu_model_phase phase);

#ifdef __cplusplus
}
#endif
#endif /* IPU_MODEL_MODEL_H */
