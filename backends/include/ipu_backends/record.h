/* Record and replay of a card session (docs/trace-format.md).
 *
 * A recording card wraps any embodiment: every BAR access, advance() call, DMA
 * transfer (with its data) and interrupt between the host and the card goes to
 * a trace file, in the order it happened. Replay runs a trace against a fresh
 * card model with no host at all: it makes the recorded calls, serves the
 * card's DMA reads from the trace, and checks that every register read, DMA
 * write and interrupt is what was recorded, stopping at the first difference. */
#ifndef IPU_BACKENDS_RECORD_H
#define IPU_BACKENDS_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "ipu_card/backend.h"
#include "ipu_backends/registry.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ipu_board;

/* Environment variable that makes the registry's "model" cards record
 * (the driver's in-process cards): the trace file's path. */
#define IPU_RECORD_ENV "IPU_EMU_RECORD"

/* Creates a card with `factory` whose session is recorded to `path`
 * (created or truncated). The trace is flushed after every host call, so that
 * it is complete even if the process is killed. Returns 0, or a negative code
 * with a message in err: the factory's error, or the file's. */
int ipu_record_create(const struct ipu_backend_factory *factory, const struct ipu_board *board,
                      const struct ipu_backend_host *host, const struct ipu_backend_options *options,
                      const char *path, struct ipu_backend **out, char *err, size_t err_len);

/* The largest advance() budget (instructions per tile) a replay makes: the most
 * any host asks for (the driver's adaptive slice tops out at 2^26, QEMU's
 * budget property at 65536). A trace with a larger one is refused, not run:
 * 2^64-1 on tiles that loop would run for ever. */
#define IPU_REPLAY_BUDGET_MAX (1ull << 26)

/* What a replay came to. */
struct ipu_replay_result {
    uint64_t records;     /* trace records replayed */
    uint64_t reads;       /* BAR reads compared */
    uint64_t dma_bytes;   /* DMA bytes served or compared */
    int differs;          /* 1: stopped at a difference (message says which) */
    char message[512];    /* the difference, or why the trace could not be replayed */
};

/* Replays the trace at `path` on a new card model (host_threads as in
 * ipu_backend_options). Returns 0 when every record matched, 1 at the first
 * difference (result->message has the record number, what it was and both
 * values), or a negative code when the trace cannot be read: not a trace, cut
 * short, a board no card can have, an advance budget above IPU_REPLAY_BUDGET_MAX
 * (message says why). */
int ipu_replay_file(const char *path, unsigned host_threads, struct ipu_replay_result *result);

#ifdef __cplusplus
}
#endif
#endif /* IPU_BACKENDS_RECORD_H */
