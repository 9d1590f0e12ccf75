/* The `model` transport: the card model in-process through the device backend
 * interface. Its DMA callbacks play the IOMMU: a bus address is the process
 * virtual address of a driver DMA buffer, and any access not entirely inside
 * a live buffer is refused, so that a bad translation entry faults on the card
 * instead of corrupting the host. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "internal.h"

#if IPUDRV_HAVE_MODEL
#include "ipu_model/model.h"
#endif

struct region {
    struct region *next;
    uintptr_t start;
    size_t size;
};

struct model_transport {
    struct ipudrv_transport base;
    struct ipu_backend *card;
    struct region *regions;
    struct region *last_hit; /* bulk transfers hit the same buffer over and over */
    uint64_t budget;         /* instructions per tile per advance(), adapted to ~5 ms */
};

static struct model_transport *mt(struct ipudrv_transport *t)
{
    return (struct model_transport *)t;
}

static void *lookup(struct model_transport *m, uint64_t bus, size_t len)
{
    struct region *r = m->last_hit;
    if (!(r && bus >= r->start && len <= r->size && bus - r->start <= r->size - len))
        for (r = m->regions; r; r = r->next)
            if (bus >= r->start && len <= r->size && bus - r->start <= r->size - len)
                break;
    if (!r)
        return NULL;
    m->last_hit = r;
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

static int model_open(const struct ipudrv_node *node, const struct ipu_board *board, struct ipudrv_transport **out,
                      char *err, size_t err_len)
{
    (void)node;
#if IPUDRV_HAVE_MODEL
    struct model_transport *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, err_len, "out of memory");
        return -ENOMEM;
    }
    m->base.ops = &ipudrv_transport_model;
    m->budget = 4096;
    struct ipu_backend_host host = {.opaque = m, .dma_read = host_dma_read, .dma_write = host_dma_write};
    /* Debugging knobs of the model, from the environment. */
    struct ipu_backend_options options = {0};
    const char *threads = getenv("IPU_EMU_HOST_THREADS"), *trace = getenv("IPU_EMU_TRACE");
    if (threads && *threads)
        options.host_threads = (unsigned)strtoul(threads, NULL, 10);
    options.trace = trace && *trace && strcmp(trace, "0") != 0;
    int rc = ipu_model_create(board, &host, &options, &m->card);
    if (rc) {
        snprintf(err, err_len, "the card model refused board '%s' (%s)", board ? board->name : "?",
                 ipudrv_strerror(rc));
        free(m);
        return rc;
    }
    *out = &m->base;
    return 0;
#else
    (void)board;
    (void)out;
    (void)host_dma_read;
    (void)host_dma_write;
    snprintf(err, err_len, "this libipudrv was built without the card model (ipu_model); rebuild with it");
    return -ENOTSUP;
#endif
}

static void model_close(struct ipudrv_transport *t)
{
    struct model_transport *m = mt(t);
    if (m->card)
        m->card->ops->destroy(m->card);
    while (m->regions) {
        struct region *r = m->regions;
        m->regions = r->next;
        munmap((void *)r->start, r->size);
        free(r);
    }
    free(m);
}

static int model_reg_read(struct ipudrv_transport *t, uint32_t offset, uint32_t *value)
{
    return ipu_backend_read32(mt(t)->card, offset, value);
}

static int model_reg_write(struct ipudrv_transport *t, uint32_t offset, uint32_t value)
{
    return ipu_backend_write32(mt(t)->card, offset, value);
}

/* Natural alignment: single bytes up to an 8-byte boundary, then 8 bytes. */
static int model_window_read(struct ipudrv_transport *t, uint32_t offset, void *buf, size_t len)
{
    struct ipu_backend *card = mt(t)->card;
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

static int model_window_write(struct ipudrv_transport *t, uint32_t offset, const void *buf, size_t len)
{
    struct ipu_backend *card = mt(t)->card;
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

static int model_mem_alloc(struct ipudrv_transport *t, size_t size, void **va, uint64_t *bus)
{
    struct model_transport *m = mt(t);
    struct region *r = calloc(1, sizeof *r);
    if (!r)
        return -ENOMEM;
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        free(r);
        return -ENOMEM;
    }
    r->start = (uintptr_t)p;
    r->size = size;
    r->next = m->regions;
    m->regions = r;
    *va = p;
    *bus = (uint64_t)(uintptr_t)p;
    return 0;
}

static void model_mem_free(struct ipudrv_transport *t, void *va, size_t size, uint64_t bus)
{
    struct model_transport *m = mt(t);
    (void)bus;
    for (struct region **p = &m->regions; *p; p = &(*p)->next)
        if ((*p)->start == (uintptr_t)va) {
            struct region *r = *p;
            *p = r->next;
            if (m->last_hit == r)
                m->last_hit = NULL;
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
 * milliseconds whatever the board size, which keeps timeouts responsive. */
static int model_progress(struct ipudrv_transport *t, int max_ms)
{
    struct model_transport *m = mt(t);
    uint64_t t0 = now_us();
    m->card->ops->advance(m->card, m->budget);
    uint64_t us = now_us() - t0;
    uint64_t target = max_ms > 0 && max_ms < 5 ? (uint64_t)max_ms * 1000u : 5000u;
    if (us < target / 2 && m->budget < (1ull << 26))
        m->budget *= 2;
    else if (us > target * 2 && m->budget > 64)
        m->budget /= 2;
    return 0;
}

const struct ipudrv_transport_ops ipudrv_transport_model = {
    .name = "model",
    .open = model_open,
    .close = model_close,
    .reg_read = model_reg_read,
    .reg_write = model_reg_write,
    .window_read = model_window_read,
    .window_write = model_window_write,
    .mem_alloc = model_mem_alloc,
    .mem_free = model_mem_free,
    .progress = model_progress,
};
