/* gc-memorytest's patterns and checker (see memtest_check.h). */
#include "memtest_check.h"

#include <string.h>

static const char *const names[GC_MEM_PATTERNS] = {"address", "walking-ones", "walking-zeros"};

const char *gc_mem_pattern_name(enum gc_mem_pattern pattern)
{
    return (unsigned)pattern < GC_MEM_PATTERNS ? names[pattern] : "unknown";
}

int gc_mem_pattern_parse(const char *name)
{
    for (int p = 0; p < GC_MEM_PATTERNS; p++)
        if (name && strcmp(name, names[p]) == 0)
            return p;
    return -1;
}

uint32_t gc_mem_expected(enum gc_mem_pattern pattern, uint32_t region_start, uint32_t addr)
{
    uint32_t bit = 1u << (((addr - region_start) / 4u) % 32u);
    switch (pattern) {
    case GC_MEM_ADDRESS: return addr;
    case GC_MEM_WALKING_ONES: return bit;
    case GC_MEM_WALKING_ZEROS: return ~bit;
    case GC_MEM_PATTERNS: break;
    }
    return 0;
}

size_t gc_mem_check(enum gc_mem_pattern pattern, uint32_t tile, uint32_t region_start, uint32_t first_addr,
                    const uint32_t *words, size_t n, struct gc_mem_fault *faults, size_t max_faults,
                    size_t *nfaults)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t addr = first_addr + 4u * (uint32_t)i;
        uint32_t want = gc_mem_expected(pattern, region_start, addr);
        if (words[i] == want)
            continue;
        bad++;
        if (*nfaults < max_faults)
            faults[(*nfaults)++] = (struct gc_mem_fault){tile, addr, want, words[i], pattern};
    }
    return bad;
}
