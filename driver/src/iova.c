/* First-fit IOVA allocator over a sorted list of used ranges. */
#include "iova.h"

#include <errno.h>
#include <stdlib.h>

void ipudrv_iova_init(struct ipudrv_iova *a, uint64_t base, uint64_t end)
{
    a->base = base;
    a->end = end;
    a->used = NULL;
}

int ipudrv_iova_alloc(struct ipudrv_iova *a, uint64_t size, uint64_t align, uint64_t *out)
{
    if (size == 0 || align == 0 || (align & (align - 1)))
        return -EINVAL;
    uint64_t cand = (a->base + align - 1) & ~(align - 1);
    struct ipudrv_iova_range **link = &a->used;
    for (struct ipudrv_iova_range *r = a->used; r; link = &r->next, r = r->next) {
        if (cand <= r->start && size <= r->start - cand)
            break;
        uint64_t after = r->start + r->size;
        if (after > cand)
            cand = (after + align - 1) & ~(align - 1);
    }
    if (cand < a->base || cand > a->end || size > a->end - cand)
        return -ENOSPC;
    struct ipudrv_iova_range *n = malloc(sizeof *n);
    if (!n)
        return -ENOMEM;
    n->start = cand;
    n->size = size;
    n->next = *link;
    *link = n;
    *out = cand;
    return 0;
}

int ipudrv_iova_free(struct ipudrv_iova *a, uint64_t start)
{
    for (struct ipudrv_iova_range **p = &a->used; *p; p = &(*p)->next)
        if ((*p)->start == start) {
            struct ipudrv_iova_range *r = *p;
            *p = r->next;
            free(r);
            return 0;
        }
    return -ENOENT;
}

void ipudrv_iova_destroy(struct ipudrv_iova *a)
{
    while (a->used) {
        struct ipudrv_iova_range *r = a->used;
        a->used = r->next;
        free(r);
    }
}
