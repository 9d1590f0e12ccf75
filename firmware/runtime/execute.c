/* Compute-set dispatch: run a table of vertices on the worker contexts and join. */
#include <stdint.h>

#include "ipu_rt/runtime.h"
#include "ipu_rt/tile.h"
#include "ipu_rt/vertex.h"

int32_t ipu_rt_execute(const uint32_t *table)
{
    uint32_t count = table[0];
    const struct ipu_vertex_entry *vertices = (const struct ipu_vertex_entry *)(table + 1);
    uint32_t workers = ipu_num_workers();

    if (workers == 0) { /* a board without workers runs vertices on the supervisor */
        for (uint32_t i = 0; i < count; i++) {
            ipu_vertex_fn fn = (ipu_vertex_fn)(uintptr_t)vertices[i].entry;
            if (!fn((void *)(uintptr_t)vertices[i].state))
                return (int32_t)i;
        }
        return -1;
    }

    /* Batches of one vertex per worker: WORKER_JOIN waits for every started
     * worker, so a batch ends when its slowest vertex does. */
    for (uint32_t base = 0; base < count; base += workers) {
        uint32_t n = count - base < workers ? count - base : workers;
        for (uint32_t w = 1; w <= n; w++) {
            ipu_csr_write(IPU_CSR_WORKER_ENTRY, (uintptr_t)ipu_worker_entry);
            ipu_csr_write(IPU_CSR_WORKER_ARG, (uintptr_t)&vertices[base + w - 1u]);
            ipu_csr_write(IPU_CSR_WORKER_START, w);
        }
        uint32_t failed = ipu_csr_read(IPU_CSR_WORKER_JOIN);
        if (failed != 0) { /* bit w: worker w ran vertex base + w - 1 */
            /* A loop, not __builtin_ctz: without Zbb that is libgcc's __ctzsi2 and its 256-byte table on
             * every tile, for a path taken once per failed program. */
            uint32_t w = 0;
            while ((failed & (1u << w)) == 0)
                w++;
            return (int32_t)(base + w - 1u);
        }
    }
    return -1;
}
