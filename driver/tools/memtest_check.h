/* The expected words of gc-memorytest's patterns and the read-back check,
 * apart from the card so that a unit test can feed it corrupted words. */
#ifndef GC_MEMTEST_CHECK_H
#define GC_MEMTEST_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "tile_kernels.h"

/* "address", "walking-ones", "walking-zeros"; "unknown" out of range. */
const char *gc_mem_pattern_name(enum gc_mem_pattern pattern);
/* The pattern called `name`, or -1. */
int gc_mem_pattern_parse(const char *name);

/* The word that gc_kernel_fill(pattern, region_start, ...) leaves at `addr`. */
uint32_t gc_mem_expected(enum gc_mem_pattern pattern, uint32_t region_start, uint32_t addr);

struct gc_mem_fault {
    uint32_t tile, addr, expected, actual;
    enum gc_mem_pattern pattern;
};

/* Compares `n` words read back from `tile`, starting at tile address
 * `first_addr`, with the pattern filled from `region_start`. Returns the
 * number of words that differ; the first ones are appended to faults[] while
 * *nfaults < max_faults. */
size_t gc_mem_check(enum gc_mem_pattern pattern, uint32_t tile, uint32_t region_start, uint32_t first_addr,
                    const uint32_t *words, size_t n, struct gc_mem_fault *faults, size_t max_faults,
                    size_t *nfaults);

#endif
