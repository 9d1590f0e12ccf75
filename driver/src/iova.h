/* A first-fit allocator of I/O virtual addresses for the vfio transport. */
#ifndef IPUDRV_IOVA_H
#define IPUDRV_IOVA_H

#include <stddef.h>
#include <stdint.h>

struct ipudrv_iova_range {
    struct ipudrv_iova_range *next;
    uint64_t start, size;
};

/* The allocated ranges of [base, end), sorted by start. */
struct ipudrv_iova {
    uint64_t base, end;
    struct ipudrv_iova_range *used;
};

void ipudrv_iova_init(struct ipudrv_iova *a, uint64_t base, uint64_t end);
/* Allocates `size` bytes aligned to `align` (a power of two). Returns 0 and
 * sets *out, -EINVAL (size 0, bad align) or -ENOSPC (no gap large enough),
 * -ENOMEM. */
int ipudrv_iova_alloc(struct ipudrv_iova *a, uint64_t size, uint64_t align, uint64_t *out);
/* Frees the range that starts at `start`. Returns 0 or -ENOENT. */
int ipudrv_iova_free(struct ipudrv_iova *a, uint64_t start);
void ipudrv_iova_destroy(struct ipudrv_iova *a);

#endif
