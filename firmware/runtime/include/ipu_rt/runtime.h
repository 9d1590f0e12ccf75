/* The supervisor runtime: interprets a per-tile control program and runs compute sets. */
#ifndef IPU_RT_RUNTIME_H
#define IPU_RT_RUNTIME_H

#include <stdint.h>

#include "ipu_card/hw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs the control program at `program` (contract encoding) to its END and
 * returns 0. An invalid instruction faults the tile with
 * IPU_ERR_BAD_CONTROL_PROGRAM (info = its word offset); a failed vertex with
 * IPU_ERR_VERTEX_FAILED (info = its index in the compute set). Supervisor only. */
int ipu_rt_run(const uint32_t *program);

/* Runs the compute-set table at `table` (count, then VERTEX_ENTRY items) on the
 * workers and waits for all of them. Returns -1 when every vertex succeeded,
 * else the index of the first vertex whose compute returned false. */
int32_t ipu_rt_execute(const uint32_t *table);

/* Moves one host-exchange list (count, then HX_DESC items) between this tile
 * and host memory, in order. */
void ipu_rt_host_exchange(const uint32_t *list);

/* Prints `count` elements of `dtype` at `data` as "name: [e0 e1 ...]" on the
 * console. Returns 0, or -1 for an unknown dtype. */
int ipu_rt_print_tensor(const char *name, uint32_t dtype, const void *data, uint32_t count);

/* The worker trampoline: the PC the supervisor gives WORKER_ENTRY. With a0 =
 * the address of a VERTEX_ENTRY it sets up gp and this worker's stack, calls
 * ENTRY(STATE) and writes !result to WORKER_EXIT. Not callable from C. */
void ipu_worker_entry(void);

#ifdef __cplusplus
}
#endif
#endif /* IPU_RT_RUNTIME_H */
