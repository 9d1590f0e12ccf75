/* The shared half of the in-process transports (see transport_backend.h).
 * Its DMA callbacks play the IOMMU: a bus address is the process virtual
 * address of a driver DMA buffer, and any access not entirely inside a live
 * buffer is refused, so that a bad translation entry faults on the card
 * instead of corrupting the host. dma_read is safe on the card's own host
 * threads (dma_read_any_thread): the buffer list only changes in calls that
 * hold the handle's lock, never during advance(), and the last hit is an
 * atomic hint. */
#include "transport_backend.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "internal.h"
#include "ipu_backends/registry.h"

struct region {
    struct region *next;
    uintptr_t start;
    size_t size;
};

struct backend_transport {
    struct ipudrv_transport base;
    struct ipu_backend *card;
    struct region *regions;
    struct region *_Atomic last_hit; /* bulk transfers hit the same buffer over and over */
    uint64_t budget;         /* instructions per tile per advance(), adapted to ~5 ms */
    uint64_t min_budget;     /* the budget never adapts below this */
};

/* The model's smallest slice. Below a few blocks per worker its fast ISS is
 * defeated: each worker's share ends inside a block, which the reference
 * interpreter finishes, and that marks the code for re-verification. On a
 * 1472-tile card every slice over all tiles exceeds the time target, so the
 * budget used to fall to the floor: a 1024^3 matMul then ran ~10x the CPU time
 * (and waited a scheduler round per slice on a busy host). The RTL, orders of
 * magnitude slower, keeps a small floor so that its slices stay short. */
#define MODEL_MIN_BUDGET 4096u
#define RTL_MIN_BUDGET 64u

/* Driver buffers at least this large get huge-page advice (ipudrv_backend_mem_alloc). */
#define HUGE_PAGE_ADVICE_MIN (4u << 20)

static struct backend_transport *bt(struct ipudrv_transport *t)
{
    return (struct backend_transport *)t;
}

static void *lookup(struct backend_transport *b, uint64_t bus, size_t len)
{
    struct region *r = atomic_load_explicit(&b->last_hit, memory_order_relaxed);
    if (!(r && bus >= r->start && len <= r->size && bus - r->start <= r->size - len)) {
        for (r = b->regions; r; r = r->next)
            if (bus >= r->start && len <= r->size && bus - r->start <= r->size - len)
                break;
        if (!r)
            return NULL;
        atomic_store_explicit(&b->last_hit, r, memory_order_relaxed);
    }
    return (void *)(uintptr_t)bus;
}

static int host_dma_read(void *opaque, uint64_t bus, void *buf, size_t len)
{
    void *src = lookup(opaque, bus, len);
    if (!src)
        return -EFAULT;
    memcpy(buf, src, len);
    return 0;
}

static int host_dma_write(void *opaque, uint64_t bus, const void *buf, size_t len)
{
    void *dst = lookup(opaque, bus, len);
    if (!dst)
        return -EFAULT;
    memcpy(dst, buf, len);
    return 0;
}

int ipudrv_backend_open(const struct ipudrv_transport_ops *ops, const char *embodiment,
                        const struct ipudrv_node *node, const struct ipu_board *board, struct ipudrv_transport **out,
                        char *err, size_t err_len)
{
#if IPUDRV_HAVE_BACKENDS
    const struct ipu_backend_factory *factory = ipu_backend_find(embodiment);
    if (!factory) {
        snprintf(err, err_len, "no card embodiment named '%s' in this build", embodiment);
        return -ENOTSUP;
    }
#else
    (void)ops;
    (void)node;
    (void)board;
    (void)out;
    snprintf(err, err_len, "this libipudrv was built without the card embodiments (ipu_backends, which needs the "
             "card model ipu_model), so the %s card cannot be made; rebuild with them", embodiment);
    return -ENOTSUP;
#endif
#if IPUDRV_HAVE_BACKENDS
    struct backend_transport *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, err_len, "out of memory");
        return -ENOMEM;
    }
    b->base.ops = ops;
    b->min_budget = strcmp(embodiment, "model") == 0 ? MODEL_MIN_BUDGET : RTL_MIN_BUDGET;
    b->budget = 4096 > b->min_budget ? 4096 : b->min_budget;
    struct ipu_backend_host host = {
        .opaque = b, .dma_read = host_dma_read, .dma_write = host_dma_write, .dma_read_any_thread = 1};
    struct ipu_backend_options options = {.host_threads = node->host_threads, .trace = node->trace};
    int rc = ipu_backend_create(factory, board, &host, &options, &b->card, err, err_len);
    if (rc) {
        free(b);
        return rc;
    }
    *out = &b->base;
    return 0;
#endif
}

struct ipu_backend *ipudrv_backend_card(struct ipudrv_transport *t)
{
    return bt(t)->card;
}

void ipudrv_backend_close(struct ipudrv_transport *t)
{
    struct backend_transport *b = bt(t);
    if (b->card)
        b->card->ops->destroy(b->card);
    while (b->regions) {
        struct region *r = b->regions;
        b->regions = r->next;
        munmap((void *)r->start, r->size);
        free(r);
    }
    free(b);
}

int ipudrv_backend_reg_read(struct ipudrv_transport *t, uint32_t offset, uint32_t *value)
{
    return ipu_backend_read32(bt(t)->card, offset, value);
}

int ipudrv_backend_reg_write(struct ipudrv_transport *t, uint32_t offset, uint32_t value)
{
    return ipu_backend_write32(bt(t)->card, offset, value);
}

/* Natural alignment: single bytes up to an 8-byte boundary, then 8 bytes. */
int ipudrv_backend_window_read(struct ipudrv_transport *t, uint32_t offset, void *buf, size_t len)
{
    struct ipu_backend *card = bt(t)->card;
    uint8_t *p = buf;
    while (len) {
        unsigned size = (offset % 8 == 0 && len >= 8) ? 8 : 1;
        uint64_t v = 0;
        int rc = card->ops->bar_read(card, IPU_BAR_TILEMEM, offset, size, &v);
        if (rc)
            return rc;
        memcpy(p, &v, size); /* little-endian host, as the card */
        p += size;
        offset += size;
        len -= size;
    }
    return 0;
}

int ipudrv_backend_window_write(struct ipudrv_transport *t, uint32_t offset, const void *buf, size_t len)
{
    struct ipu_backend *card = bt(t)->card;
    const uint8_t *p = buf;
    while (len) {
        unsigned size = (offset % 8 == 0 && len >= 8) ? 8 : 1;
        uint64_t v = 0;
        memcpy(&v, p, size);
        int rc = card->ops->bar_write(card, IPU_BAR_TILEMEM, offset, size, v);
        if (rc)
            return rc;
        p += size;
        offset += size;
        len -= size;
    }
    return 0;
}

int ipudrv_backend_mem_alloc(struct ipudrv_transport *t, size_t size, void **va, uint64_t *bus)
{
    struct backend_transport *b = bt(t);
    struct region *r = calloc(1, sizeof *r);
    if (!r)
        return -ENOMEM;
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        free(r);
        return -ENOMEM;
    }
#ifdef MADV_HUGEPAGE
    /* Stream staging buffers are megabytes that the host and the card's threads
     * each touch once per run: huge pages make that a few faults instead of one
     * per 4 KiB. Only advice: where the kernel declines, small pages serve. */
    if (size >= HUGE_PAGE_ADVICE_MIN)
        (void)madvise(p, size, MADV_HUGEPAGE);
#endif
    r->start = (uintptr_t)p;
    r->size = size;
    r->next = b->regions;
    b->regions = r;
    *va = p;
    *bus = (uint64_t)(uintptr_t)p;
    return 0;
}

void ipudrv_backend_mem_free(struct ipudrv_transport *t, void *va, size_t size, uint64_t bus)
{
    struct backend_transport *b = bt(t);
    (void)bus;
    for (struct region **p = &b->regions; *p; p = &(*p)->next)
        if ((*p)->start == (uintptr_t)va) {
            struct region *r = *p;
            *p = r->next;
            if (atomic_load_explicit(&b->last_hit, memory_order_relaxed) == r)
                atomic_store_explicit(&b->last_hit, NULL, memory_order_relaxed);
            free(r);
            break;
        }
    munmap(va, size);
}

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* One advance() slice; the budget adapts so that a slice takes a few
 * milliseconds whatever the board size and the embodiment's speed (the RTL is
 * orders of magnitude slower than the model), which keeps timeouts responsive.
 * A DMA chain moves here too, budget * IPU_BACKEND_DMA_BYTES_PER_BUDGET bytes
 * per slice (the card's DMA_CTRL.START only starts it). */
int ipudrv_backend_progress(struct ipudrv_transport *t, int max_ms)
{
    struct backend_transport *b = bt(t);
    uint64_t t0 = now_us();
    b->card->ops->advance(b->card, b->budget);
    uint64_t us = now_us() - t0;
    uint64_t target = max_ms > 0 && max_ms < 5 ? (uint64_t)max_ms * 1000u : 5000u;
    if (us < target / 2 && b->budget < (1ull << 26))
        b->budget *= 2;
    else if (us > target * 2 && b->budget / 2 >= b->min_budget)
        b->budget /= 2;
    return 0;
}
