/* The host service of a CAPS.HOST_SERVICE card (driver/src/svc.c) on a fake
 * card behind the transport interface: registers, a translation table, four
 * tiles of SRAM behind the BAR2 window and a queue of scripted requests. The
 * driver must translate host exchanges, validate exchange lists and land them
 * with the card model's rules and records (card_dma.cpp, tile_csr.cpp), service
 * from every STATUS read, stop on a dead transport, and leave a card without
 * HOST_SERVICE alone. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "internal.h"

#define TILES 4u
#define SRAM 16384u
#define BASE IPU_TILE_SRAM_BASE
#define BUS0 0x80000000ull /* buffer 0: 8 KiB */
#define BUS1 0x90000000ull /* buffer 1: 4 KiB */

struct req {
    uint32_t kind, to_host, tile, arg0, arg1, arg2;
};

struct fault {
    uint32_t cause, info, addr;
};

struct fake {
    struct ipudrv_transport base;
    uint32_t regs[IPU_BAR_REGS_SIZE / 4];
    uint8_t sram[TILES][SRAM];
    struct req queue[8];
    unsigned head, count;
    int sticky;          /* completions leave the request pending (a broken card) */
    int refuse_xlat;     /* CTRL reads back without VALID, as a refused entry does */
    uint32_t dones[8];
    unsigned ndones;
    struct fault faults[8];
    unsigned nfaults;
    unsigned svc_accesses; /* any access to SVC_REQ..SVC_DONE */
    unsigned tile_reads;   /* of SVC_TILE */
    unsigned calls, fail_after;
    int fail_rc;
    unsigned seq, irq_clear_seq, complete_seq;
};

static const struct ipudrv_transport_ops fake_ops;

static struct fake *F(struct ipudrv_transport *t)
{
    return (struct fake *)t;
}

static int failing(struct fake *f)
{
    f->calls++;
    return f->fail_after && f->calls >= f->fail_after ? f->fail_rc : 0;
}

static int is_svc(uint32_t offset)
{
    return offset >= IPU_REG_SVC_REQ && offset <= IPU_REG_SVC_DONE;
}

static const struct req *pending(const struct fake *f)
{
    return f->count ? &f->queue[f->head] : NULL;
}

static void pop(struct fake *f)
{
    f->complete_seq = ++f->seq;
    if (f->sticky)
        return;
    f->head++;
    f->count--;
}

static int fake_reg_read(struct ipudrv_transport *t, uint32_t offset, uint32_t *value)
{
    struct fake *f = F(t);
    int rc = failing(f);
    if (rc)
        return rc;
    f->svc_accesses += is_svc(offset);
    const struct req *r = pending(f);
    switch (offset) {
    case IPU_REG_STATUS:
        /* SVC_PENDING whatever CAPS says: a driver that ignores CAPS would act on it. */
        *value = f->regs[offset / 4] | (r ? IPU_REG_STATUS_SVC_PENDING_MASK : 0);
        return 0;
    case IPU_REG_SVC_REQ:
        *value = r ? IPU_REG_SVC_REQ_PENDING_MASK | r->kind | r->to_host << IPU_REG_SVC_REQ_TO_HOST_SHIFT : 0;
        return 0;
    case IPU_REG_SVC_TILE: f->tile_reads++; *value = r ? r->tile : 0; return 0;
    case IPU_REG_SVC_ARG0: *value = r ? r->arg0 : 0; return 0;
    case IPU_REG_SVC_ARG1: *value = r ? r->arg1 : 0; return 0;
    case IPU_REG_SVC_ARG2: *value = r ? r->arg2 : 0; return 0;
    }
    *value = f->regs[offset / 4];
    if (f->refuse_xlat && offset >= IPU_REG_XLAT_BASE && offset % IPU_REG_XLAT_STRIDE == IPU_XLAT_ENTRY_CTRL_OFFSET)
        *value &= ~IPU_XLAT_CTRL_VALID_MASK;
    return 0;
}

static int fake_reg_write(struct ipudrv_transport *t, uint32_t offset, uint32_t value)
{
    struct fake *f = F(t);
    int rc = failing(f);
    if (rc)
        return rc;
    f->svc_accesses += is_svc(offset);
    const struct req *r = pending(f);
    switch (offset) {
    case IPU_REG_SVC_DONE:
        if (r) {
            f->dones[f->ndones++ % 8] = value;
            pop(f);
        }
        return 0;
    case IPU_REG_SVC_FAULT_ADDR:
        if (r) {
            /* The card's record: an EXCHANGE fault is BAD_EXCHANGE with the INFO written
             * before; a host exchange's INFO is its length. */
            const int xu = r->kind == IPU_SVC_KIND_EXCHANGE;
            f->faults[f->nfaults++ % 8] = (struct fault){
                xu ? IPU_ERR_BAD_EXCHANGE : f->regs[IPU_REG_SVC_FAULT_CAUSE / 4] & 0xff,
                xu ? f->regs[IPU_REG_SVC_FAULT_INFO / 4] : r->arg2, value};
            pop(f);
        }
        /* The next fault must write its own cause and info first. */
        f->regs[IPU_REG_SVC_FAULT_CAUSE / 4] = 0xee;
        f->regs[IPU_REG_SVC_FAULT_INFO / 4] = 0xdeadbeef;
        return 0;
    case IPU_REG_IRQ_STATUS:
        if (value & IPU_REG_IRQ_STATUS_SERVICE_MASK)
            f->irq_clear_seq = ++f->seq;
        return 0;
    case IPU_REG_RESET:
        if (value == IPU_RESET_KEY)
            memset(f->regs + IPU_REG_XLAT_BASE / 4, 0, IPU_REG_XLAT_COUNT * IPU_REG_XLAT_STRIDE);
        return 0;
    }
    f->regs[offset / 4] = value;
    return 0;
}

static uint8_t *window_at(struct fake *f, uint32_t offset, size_t len)
{
    const uint32_t tile = f->regs[IPU_REG_TILEMEM_WINDOW_TILE / 4];
    assert_true(tile < TILES);
    assert_true(offset <= SRAM && len <= SRAM - offset);
    return &f->sram[tile][offset];
}

static int fake_window_read(struct ipudrv_transport *t, uint32_t offset, void *buf, size_t len)
{
    struct fake *f = F(t);
    int rc = failing(f);
    if (!rc)
        memcpy(buf, window_at(f, offset, len), len);
    return rc;
}

static int fake_window_write(struct ipudrv_transport *t, uint32_t offset, const void *buf, size_t len)
{
    struct fake *f = F(t);
    int rc = failing(f);
    if (!rc)
        memcpy(window_at(f, offset, len), buf, len);
    return rc;
}

static int fake_mem_alloc(struct ipudrv_transport *t, size_t size, void **va, uint64_t *bus)
{
    (void)t, (void)size, (void)va, (void)bus;
    return -ENOMEM;
}

static void fake_mem_free(struct ipudrv_transport *t, void *va, size_t size, uint64_t bus)
{
    (void)t, (void)va, (void)size, (void)bus;
}

static int fake_progress(struct ipudrv_transport *t, int max_ms)
{
    (void)max_ms;
    return failing(F(t));
}

static const struct ipudrv_transport_ops fake_ops = {
    .name = "fake", .window_preferred = 1, .reg_read = fake_reg_read, .reg_write = fake_reg_write,
    .window_read = fake_window_read, .window_write = fake_window_write, .mem_alloc = fake_mem_alloc,
    .mem_free = fake_mem_free, .progress = fake_progress,
};

/* ---- the device around the fake ------------------------------------------ */

struct rig {
    struct fake *f;
    ipudrv_device *dev;
    struct ipudrv_buffer buf[2];
    uint8_t host0[8192], host1[4096];
};

static struct rig *rig_new(uint32_t caps)
{
    struct rig *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->f = calloc(1, sizeof *r->f);
    r->dev = calloc(1, sizeof *r->dev);
    assert_non_null(r->f);
    assert_non_null(r->dev);
    r->f->base.ops = &fake_ops;
    r->f->regs[IPU_REG_STATUS / 4] = IPU_CARD_STATE_RUNNING;
    r->f->regs[IPU_REG_SVC_FAULT_CAUSE / 4] = 0xee; /* a fault must write its own */
    r->f->regs[IPU_REG_SVC_FAULT_INFO / 4] = 0xdeadbeef;
    ipudrv_device *dev = r->dev;
    pthread_mutex_init(&dev->mutex, NULL);
    dev->lock_fd = -1;
    dev->t = &r->f->base;
    dev->num_tiles = TILES;
    dev->tile_mem_bytes = SRAM;
    dev->num_workers = 6;
    dev->caps = caps;
    dev->xlat_entries = IPU_REG_XLAT_COUNT;
    snprintf(dev->node.label, sizeof dev->node.label, "card fake");
    snprintf(dev->node.location, sizeof dev->node.location, "fake");
    r->buf[0] = (struct ipudrv_buffer){&r->buf[1], r->host0, sizeof r->host0, BUS0, 0};
    r->buf[1] = (struct ipudrv_buffer){NULL, r->host1, sizeof r->host1, BUS1, 0};
    dev->buffers = &r->buf[0];
    for (size_t i = 0; i < sizeof r->host0; i++)
        r->host0[i] = (uint8_t)(i * 7 + 1);
    for (size_t i = 0; i < sizeof r->host1; i++)
        r->host1[i] = (uint8_t)(i * 13 + 5);
    assert_int_equal(ipudrv_registry_add(dev), 0);
    return r;
}

static void rig_free(struct rig *r)
{
    assert_int_equal(ipudrv_registry_remove(r->dev), 0);
    ipudrv_svc_free(r->dev);
    ipudrv_error_free(r->dev);
    pthread_mutex_destroy(&r->dev->mutex);
    free(r->dev);
    free(r->f);
    free(r);
}

static void push(struct rig *r, struct req q)
{
    assert_true(r->f->head + r->f->count < 8);
    r->f->queue[r->f->head + r->f->count++] = q;
}

/* Entry `e` through the public raw register path, as card checks write it. */
static void xlat(struct rig *r, unsigned e, uint32_t dev_base, uint32_t pages, uint32_t ctrl_bits, uint64_t bus)
{
    const uint32_t at = IPU_REG_XLAT_BASE + e * IPU_REG_XLAT_STRIDE;
    assert_int_equal(ipudrv_reg_write(r->dev, at + IPU_XLAT_ENTRY_DEV_BASE_OFFSET, dev_base), 0);
    assert_int_equal(ipudrv_reg_write(r->dev, at + IPU_XLAT_ENTRY_BUS_LO_OFFSET, (uint32_t)bus), 0);
    assert_int_equal(ipudrv_reg_write(r->dev, at + IPU_XLAT_ENTRY_BUS_HI_OFFSET, (uint32_t)(bus >> 32)), 0);
    assert_int_equal(ipudrv_reg_write(r->dev, at + IPU_XLAT_ENTRY_CTRL_OFFSET,
                                      ctrl_bits | (pages - 1) << IPU_XLAT_CTRL_PAGES_MINUS_1_SHIFT), 0);
}

#define RW (IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK | IPU_XLAT_CTRL_WRITE_MASK)
#define RO (IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK)
#define WO (IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_WRITE_MASK)

/* The wait paths: the public STATUS read, and ipudrv_card_state under the lock. */
static int poll_public(struct rig *r)
{
    uint32_t status = 0;
    int rc = ipudrv_reg_read(r->dev, IPU_REG_STATUS, &status);
    if (!rc)
        assert_false(status & IPU_REG_STATUS_SVC_PENDING_MASK);
    return rc;
}

static int poll_state(struct rig *r)
{
    uint32_t state = 0;
    assert_int_equal(ipudrv_enter(r->dev, "test"), 0);
    int rc = ipudrv_card_state(r->dev, &state);
    ipudrv_leave(r->dev);
    if (!rc)
        assert_int_equal(state, IPU_CARD_STATE_RUNNING);
    return rc;
}

static struct req hx(uint32_t tile, int to_host, uint32_t dev_addr, uint32_t tile_addr, uint32_t len)
{
    return (struct req){IPU_SVC_KIND_HOST_EXCHANGE, (uint32_t)to_host, tile, dev_addr, tile_addr, len};
}

static void expect_done(struct rig *r, uint32_t done)
{
    assert_int_equal(r->f->nfaults, 0);
    assert_int_equal(r->f->ndones, 1);
    assert_int_equal(r->f->dones[0], done);
    assert_int_equal(r->f->count, 0);
    assert_true(r->f->irq_clear_seq && r->f->irq_clear_seq < r->f->complete_seq);
}

static void expect_fault(struct rig *r, uint32_t cause, uint32_t addr, uint32_t info)
{
    assert_int_equal(r->f->ndones, 0);
    assert_int_equal(r->f->nfaults, 1);
    assert_int_equal(r->f->faults[0].cause, cause);
    assert_int_equal(r->f->faults[0].addr, addr);
    assert_int_equal(r->f->faults[0].info, info);
    assert_int_equal(r->f->count, 0);
    assert_true(r->f->irq_clear_seq && r->f->irq_clear_seq < r->f->complete_seq);
}

/* ---- HOST_EXCHANGE --------------------------------------------------------- */

static void hx_to_tile_aligned(void **state)
{
    (void)state;
    struct rig *r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK | IPU_REG_CAPS_FPU_MASK);
    xlat(r, 0, 0x100000, 2, RO, BUS0);
    push(r, hx(1, 0, 0x100010, BASE + 0x100, 64));
    assert_int_equal(poll_state(r), 0);
    expect_done(r, IPU_REG_SVC_DONE_DONE_MASK);
    assert_memory_equal(&r->f->sram[1][0x100], r->host0 + 0x10, 64);
    assert_int_equal(r->f->sram[1][0xff], 0);
    assert_int_equal(r->f->sram[1][0x140], 0);
    assert_int_equal(r->f->sram[0][0x100], 0);
    rig_free(r);
}

/* The low 12 bits of DEV_BASE and BUS_LO do not count; odd lengths and addresses. */
static void hx_to_host_unaligned(void **state)
{
    (void)state;
    struct rig *r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
    xlat(r, 0, 0x100abc, 1, WO, BUS0 + 0x123);
    for (unsigned i = 0; i < 13; i++)
        r->f->sram[3][0x205 + i] = (uint8_t)(0xa0 + i);
    uint8_t before[8192];
    memcpy(before, r->host0, sizeof before);
    push(r, hx(3, 1, 0x100003, BASE + 0x205, 13));
    assert_int_equal(poll_public(r), 0);
    expect_done(r, IPU_REG_SVC_DONE_DONE_MASK);
    assert_memory_equal(r->host0 + 3, &r->f->sram[3][0x205], 13);
    assert_memory_equal(r->host0, before, 3);
    assert_memory_equal(r->host0 + 16, before + 16, sizeof before - 16);
    rig_free(r);
}

/* 0x100f00 + 512: 256 bytes through entry 0, 256 through entry 1, both directions. */
static void hx_across_two_entries(void **state)
{
    (void)state;
    for (int to_host = 0; to_host < 2; to_host++) {
        struct rig *r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
        xlat(r, 0, 0x100000, 1, RW, BUS0);
        xlat(r, 1, 0x101000, 1, RW, BUS1);
        for (unsigned i = 0; i < 512; i++)
            r->f->sram[2][0x1000 + i] = (uint8_t)(i ^ 0x5a);
        push(r, hx(2, to_host, 0x100f00, BASE + 0x1000, 512));
        assert_int_equal(poll_state(r), 0);
        expect_done(r, IPU_REG_SVC_DONE_DONE_MASK);
        assert_memory_equal(&r->f->sram[2][0x1000], r->host0 + 0xf00, 256);
        assert_memory_equal(&r->f->sram[2][0x1100], r->host1, 256);
        rig_free(r);
    }
}

/* A fault moves no byte: neither the tile's nor the host's. */
static void expect_nothing_moved(struct rig *r, const uint8_t *host0, const uint8_t *host1)
{
    static const uint8_t zero[SRAM];
    for (unsigned t = 0; t < TILES; t++)
        assert_memory_equal(r->f->sram[t], zero, SRAM);
    assert_memory_equal(r->host0, host0, sizeof r->host0);
    assert_memory_equal(r->host1, host1, sizeof r->host1);
}

static void hx_fault_case(uint32_t to_host, uint32_t dev_addr, uint32_t len, uint32_t cause, uint32_t addr,
                          void (*table)(struct rig *))
{
    struct rig *r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
    table(r);
    uint8_t h0[8192], h1[4096];
    memcpy(h0, r->host0, sizeof h0);
    memcpy(h1, r->host1, sizeof h1);
    push(r, hx(1, (int)to_host, dev_addr, BASE + 0x10, len));
    assert_int_equal(poll_state(r), 0);
    expect_fault(r, cause, addr, len);
    expect_nothing_moved(r, h0, h1);
    rig_free(r);
}

static void table_one_page(struct rig *r)
{
    xlat(r, 0, 0x100000, 1, RW, BUS0);
}

static void table_read_only(struct rig *r)
{
    xlat(r, 0, 0x100000, 2, RO, BUS0);
}

static void table_write_only(struct rig *r)
{
    xlat(r, 0, 0x100000, 2, WO, BUS0);
}

/* Entry 1 points at bus memory that is no buffer of the device. */
static void table_second_nowhere(struct rig *r)
{
    xlat(r, 0, 0x100000, 1, RW, BUS0);
    xlat(r, 1, 0x101000, 1, RW, 0xa0000000ull);
}

/* The lowest covering VALID entry decides, and the search stops there:
 * entry 0 is not VALID, entry 1 (read only) wins over entry 2 (read-write). */
static void table_lowest_wins(struct rig *r)
{
    xlat(r, 0, 0x100000, 2, IPU_XLAT_CTRL_READ_MASK | IPU_XLAT_CTRL_WRITE_MASK, BUS0);
    xlat(r, 1, 0x100000, 2, RO, BUS0);
    xlat(r, 2, 0x100000, 2, RW, BUS0);
}

static void hx_miss_at_start(void **state)
{
    (void)state;
    hx_fault_case(0, 0x200000, 64, IPU_ERR_XLAT_MISS, 0x200000, table_one_page);
    hx_fault_case(1, 0x0ff000, 16, IPU_ERR_XLAT_MISS, 0x0ff000, table_one_page);
}

static void hx_miss_running_off_an_entry(void **state)
{
    (void)state;
    hx_fault_case(0, 0x100f00, 512, IPU_ERR_XLAT_MISS, 0x101000, table_one_page);
    hx_fault_case(1, 0x100f00, 512, IPU_ERR_XLAT_MISS, 0x101000, table_one_page);
}

static void hx_permission_each_direction(void **state)
{
    (void)state;
    hx_fault_case(1, 0x100010, 8, IPU_ERR_XLAT_PERMISSION, 0x100010, table_read_only);
    hx_fault_case(0, 0x100020, 8, IPU_ERR_XLAT_PERMISSION, 0x100020, table_write_only);
    hx_fault_case(1, 0x100030, 8, IPU_ERR_XLAT_PERMISSION, 0x100030, table_lowest_wins);
}

static void hx_bus_in_no_buffer_is_a_miss(void **state)
{
    (void)state;
    hx_fault_case(0, 0x100f00, 512, IPU_ERR_XLAT_MISS, 0x101000, table_second_nowhere);
    hx_fault_case(1, 0x101010, 8, IPU_ERR_XLAT_MISS, 0x101010, table_second_nowhere);
}

/* The mirror follows RESET, and a VALID entry the card refused (CTRL reads back
 * without VALID) does not translate. */
static void hx_mirror_follows_the_card(void **state)
{
    (void)state;
    struct rig *r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
    xlat(r, 0, 0x100000, 1, RW, BUS0);
    assert_int_equal(ipudrv_reg_write(r->dev, IPU_REG_RESET, IPU_RESET_KEY), 0);
    push(r, hx(0, 0, 0x100000, BASE, 4));
    assert_int_equal(poll_state(r), 0);
    expect_fault(r, IPU_ERR_XLAT_MISS, 0x100000, 4);
    rig_free(r);

    r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
    xlat(r, 0, 0x100000, 1, RW, BUS0);
    r->f->refuse_xlat = 1;
    push(r, hx(0, 0, 0x100000, BASE, 4));
    assert_int_equal(poll_state(r), 0);
    expect_fault(r, IPU_ERR_XLAT_MISS, 0x100000, 4);
    rig_free(r);
}

/* A one-tile card (the iCEBreaker): SVC_TILE is 0, and not read (a UART round trip). */
static void hx_one_tile_card(void **state)
{
    (void)state;
    struct rig *r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
    r->dev->num_tiles = 1;
    xlat(r, 0, 0x100000, 1, RW, BUS0);
    push(r, hx(0, 0, 0x100040, BASE + 0x20, 16));
    assert_int_equal(poll_state(r), 0);
    expect_done(r, IPU_REG_SVC_DONE_DONE_MASK);
    assert_memory_equal(&r->f->sram[0][0x20], r->host0 + 0x40, 16);
    assert_int_equal(r->f->tile_reads, 0);
    rig_free(r);
}

/* A card with fewer entries (XLAT_ENTRIES) translates through those only. */
static void hx_only_the_cards_entries(void **state)
{
    (void)state;
    struct rig *r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
    r->dev->xlat_entries = 4;
    xlat(r, 4, 0x100000, 1, RW, BUS0);
    push(r, hx(0, 0, 0x100000, BASE, 4));
    xlat(r, 3, 0x200000, 1, RW, BUS0);
    push(r, hx(0, 0, 0x200000, BASE, 4));
    assert_int_equal(poll_state(r), 0);
    assert_int_equal(r->f->nfaults, 1);
    assert_int_equal(r->f->faults[0].cause, IPU_ERR_XLAT_MISS);
    assert_int_equal(r->f->faults[0].addr, 0x100000);
    assert_int_equal(r->f->ndones, 1);
    rig_free(r);
}

/* ---- EXCHANGE and LAND ------------------------------------------------------ */

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* A list in `tile`'s SRAM at byte offset `at`: count, then the descriptors. */
static void list(struct rig *r, unsigned tile, uint32_t at, uint32_t count, const uint32_t (*d)[4])
{
    put32(&r->f->sram[tile][at], count);
    for (uint32_t i = 0; i < count; i++)
        for (int w = 0; w < 4; w++)
            put32(&r->f->sram[tile][at + 4 + 16 * i + 4 * w], d[i][w]);
}

static struct req xu(uint32_t tile, uint32_t list_addr)
{
    return (struct req){IPU_SVC_KIND_EXCHANGE, 0, tile, list_addr, 0, 0};
}

static const struct req land = {IPU_SVC_KIND_LAND, 0, 0, 0, 0, 0};

static void exchange_good_list_snapshots(void **state)
{
    (void)state;
    struct rig *r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
    /* The third send is empty, at the very end of SRAM: a good one. */
    const uint32_t d[3][4] = {{1, BASE + 0x100, BASE + 0x400, 8}, {2, BASE + 0x201, BASE + 0x408, 5},
                              {3, BASE + SRAM, BASE + SRAM, 0}};
    list(r, 0, 0, 3, d);
    memcpy(&r->f->sram[0][0x400], "ABCDEFGHijklm", 13);
    push(r, xu(0, BASE));
    assert_int_equal(poll_public(r), 0);
    expect_done(r, IPU_REG_SVC_DONE_DONE_MASK | IPU_REG_SVC_DONE_LAND_DUE_MASK);
    assert_int_equal(r->f->sram[1][0x100], 0); /* nothing lands before the LAND */
    memset(&r->f->sram[0][0x400], 'z', 13);    /* the tile changes its sources after the EXCHANGE */
    r->f->ndones = 0;
    push(r, land);
    assert_int_equal(poll_state(r), 0);
    expect_done(r, IPU_REG_SVC_DONE_DONE_MASK);
    assert_memory_equal(&r->f->sram[1][0x100], "ABCDEFGH", 8);
    assert_memory_equal(&r->f->sram[2][0x201], "ijklm", 5);
    assert_int_equal(r->f->sram[2][0x200], 0);
    assert_int_equal(r->f->sram[2][0x206], 0);
    /* The outboxes are empty after a LAND: a second LAND writes nothing. */
    memset(&r->f->sram[1][0x100], 0, 8);
    r->f->ndones = 0;
    push(r, land);
    assert_int_equal(poll_state(r), 0);
    expect_done(r, IPU_REG_SVC_DONE_DONE_MASK);
    assert_int_equal(r->f->sram[1][0x100], 0);
    rig_free(r);
}

static void exchange_empty_list(void **state)
{
    (void)state;
    struct rig *r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
    list(r, 2, 0x80, 0, NULL);
    push(r, xu(2, BASE + 0x80));
    assert_int_equal(poll_state(r), 0);
    expect_done(r, IPU_REG_SVC_DONE_DONE_MASK);
    rig_free(r);
}

struct bad_list {
    const char *what;
    uint32_t list_at;   /* tile address of the list */
    uint32_t count;
    uint32_t d[2][4];
    uint32_t addr, info; /* the record the model makes */
};

static void exchange_bad_lists(void **state)
{
    (void)state;
    const uint32_t ok[4] = {1, BASE + 0x100, BASE + 0x400, 8};
    const struct bad_list cases[] = {
        {"list below SRAM", BASE - 4, 0, {{0}}, BASE - 4, 0},
        {"list header past the end", BASE + SRAM - 2, 0, {{0}}, BASE + SRAM - 2, 0},
        {"count above SRAM / 16", BASE, SRAM / 16 + 1, {{0}}, BASE, SRAM / 16 + 1},
        {"descriptors past the end", BASE + SRAM - 16, 1, {{0}}, BASE + SRAM - 16, 1},
        {"dst tile out of range", BASE, 2, {{ok[0], ok[1], ok[2], ok[3]}, {TILES, BASE + 0x300, BASE + 0x400, 4}},
         BASE + 0x300, 1},
        {"dst range past the end", BASE, 1, {{1, BASE + SRAM - 4, BASE + 0x400, 8}}, BASE + SRAM - 4, 0},
        {"dst below SRAM", BASE, 1, {{1, 0x1000, BASE + 0x400, 8}}, 0x1000, 0},
        {"length above SRAM", BASE, 1, {{1, BASE, BASE, SRAM + 1}}, BASE, 0},
        {"src range past the end", BASE, 2, {{ok[0], ok[1], ok[2], ok[3]}, {2, BASE, BASE + SRAM - 2, 4}},
         BASE + SRAM - 2, 1},
        {"src below SRAM", BASE, 1, {{3, BASE, BASE - 1, 1}}, BASE - 1, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const struct bad_list *b = &cases[c];
        struct rig *r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
        memcpy(&r->f->sram[0][0x400], "ABCDEFGH", 8);
        if (b->list_at >= BASE && b->list_at - BASE <= SRAM - 4) {
            const uint32_t at = b->list_at - BASE;
            put32(&r->f->sram[0][at], b->count);
            for (uint32_t i = 0; i < b->count && i < 2 && at + 4 + 16 * i + 16 <= SRAM; i++)
                for (int w = 0; w < 4; w++)
                    put32(&r->f->sram[0][at + 4 + 16 * i + 4 * w], b->d[i][w]);
        }
        push(r, xu(0, b->list_at));
        assert_int_equal(poll_state(r), 0);
        print_message("bad list: %s\n", b->what);
        expect_fault(r, IPU_ERR_BAD_EXCHANGE, b->addr, b->info);
        /* The list kept no send, not even its good first one. */
        push(r, land);
        assert_int_equal(poll_state(r), 0);
        assert_int_equal(r->f->sram[1][0x100], 0);
        rig_free(r);
    }
}

/* Lowest sending tile first, each list in order: tile 2's sends land after
 * tile 0's, and tile 2's second send to the same bytes after its first. */
static void land_order(void **state)
{
    (void)state;
    struct rig *r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
    const uint32_t d0[1][4] = {{1, BASE + 0x100, BASE + 0x400, 4}};
    const uint32_t d2[2][4] = {{1, BASE + 0x100, BASE + 0x400, 4}, {1, BASE + 0x100, BASE + 0x404, 4}};
    list(r, 0, 0, 1, d0);
    list(r, 2, 0, 2, d2);
    memcpy(&r->f->sram[0][0x400], "0000", 4);
    memcpy(&r->f->sram[2][0x400], "xxxx2222", 8);
    push(r, xu(2, BASE)); /* tile 2 asks first */
    push(r, xu(0, BASE));
    push(r, land);
    assert_int_equal(poll_state(r), 0); /* one STATUS read services all three */
    assert_int_equal(r->f->count, 0);
    assert_int_equal(r->f->ndones, 3);
    assert_int_equal(r->f->dones[2], IPU_REG_SVC_DONE_DONE_MASK);
    assert_memory_equal(&r->f->sram[1][0x100], "2222", 4);
    rig_free(r);
}

/* RUN_CTRL.START, RUN_CTRL.HALT and RESET drop the kept sends, written raw. */
static void start_halt_reset_empty_the_outboxes(void **state)
{
    (void)state;
    const uint32_t writes[3][2] = {{IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK},
                                   {IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_HALT_MASK},
                                   {IPU_REG_RESET, IPU_RESET_KEY}};
    for (int w = -1; w < 3; w++) {
        struct rig *r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
        const uint32_t d[1][4] = {{3, BASE + 0x10, BASE + 0x400, 4}};
        list(r, 1, 0, 1, d);
        memcpy(&r->f->sram[1][0x400], "send", 4);
        push(r, xu(1, BASE));
        assert_int_equal(poll_state(r), 0);
        if (w >= 0)
            assert_int_equal(ipudrv_reg_write(r->dev, writes[w][0], writes[w][1]), 0);
        push(r, land);
        assert_int_equal(poll_state(r), 0);
        if (w < 0) /* the control: without the write the send lands */
            assert_memory_equal(&r->f->sram[3][0x10], "send", 4);
        else
            assert_int_equal(r->f->sram[3][0x10], 0);
        rig_free(r);
    }
}

/* ---- a dead transport, a card without the service, the report ------------- */

static void scenario(struct rig *r)
{
    xlat(r, 0, 0x100000, 1, RW, BUS0);
    xlat(r, 1, 0x101000, 1, RW, BUS1);
    const uint32_t d[2][4] = {{1, BASE + 0x100, BASE + 0x400, 8}, {2, BASE + 0x100, BASE + 0x400, 8}};
    list(r, 0, 0, 2, d);
    push(r, hx(3, 0, 0x100f00, BASE + 0x1000, 512));
    push(r, xu(0, BASE));
    push(r, land);
}

/* Every transport call of a service may be the one that fails: the failure is
 * returned at once, naming the card, and the request is not completed. */
static void transport_dies_mid_service(void **state)
{
    (void)state;
    struct rig *r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
    scenario(r);
    const unsigned setup_calls = r->f->calls;
    assert_int_equal(poll_state(r), 0);
    const unsigned total = r->f->calls - setup_calls;
    assert_int_equal(r->f->ndones, 3);
    rig_free(r);
    assert_true(total > 10);
    /* A transport's -EIO (a card that stopped answering) reaches the caller as -ENOLINK (ipudrv.h). */
    const int codes[2] = {-ENODEV, -EIO}, reported[2] = {-ENODEV, -ENOLINK};
    for (int k = 0; k < 2; k++) {
        for (unsigned n = 1; n < total; n++) {
            r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
            scenario(r);
            r->f->fail_rc = codes[k];
            r->f->fail_after = r->f->calls + n;
            assert_int_equal(poll_state(r), reported[k]);
            assert_true(r->f->ndones < 3);
            assert_non_null(strstr(ipudrv_last_error(r->dev), "card fake"));
            assert_int_equal(ipudrv_reg_read(r->dev, IPU_REG_STATUS, &(uint32_t){0}), reported[k]);
            rig_free(r);
        }
    }
}

static void no_host_service_no_svc_access(void **state)
{
    (void)state;
    struct rig *r = rig_new(IPU_REG_CAPS_DMA_MASK | IPU_REG_CAPS_EXCHANGE_MASK);
    push(r, hx(0, 0, 0x100000, BASE, 4));
    uint32_t status = 0;
    assert_int_equal(ipudrv_reg_read(r->dev, IPU_REG_STATUS, &status), 0);
    assert_true(status & IPU_REG_STATUS_SVC_PENDING_MASK); /* raw STATUS, as read */
    assert_int_equal(poll_state(r), 0);
    assert_int_equal(ipudrv_reg_write(r->dev, IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK), 0);
    assert_int_equal(r->f->svc_accesses, 0);
    assert_int_equal(r->f->count, 1);
    assert_int_equal(r->f->irq_clear_seq, 0);
    assert_false(ipudrv_irq_mask(r->dev) & IPU_REG_IRQ_STATUS_SERVICE_MASK);
    rig_free(r);
    r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
    assert_true(ipudrv_irq_mask(r->dev) & IPU_REG_IRQ_STATUS_SERVICE_MASK);
    rig_free(r);
}

/* A request the card keeps showing after its completion (a broken card) is
 * serviced a bounded number of times per STATUS read, and the timeout report
 * names it. */
static void report_names_a_stuck_request(void **state)
{
    (void)state;
    struct rig *r = rig_new(IPU_REG_CAPS_HOST_SERVICE_MASK);
    xlat(r, 0, 0x100000, 1, RW, BUS0);
    r->f->sticky = 1;
    push(r, hx(2, 0, 0x100000, BASE, 4));
    uint32_t status = 0;
    assert_int_equal(ipudrv_reg_read(r->dev, IPU_REG_STATUS, &status), 0);
    assert_true(status & IPU_REG_STATUS_SVC_PENDING_MASK);
    assert_int_equal(r->f->ndones, TILES + 1);
    assert_int_equal(ipudrv_enter(r->dev, "test"), 0);
    char *report = ipudrv_report_alloc(r->dev, "timeout");
    ipudrv_leave(r->dev);
    assert_non_null(report);
    assert_non_null(strstr(report, "tile 2 waits for the host to service its HOST_EXCHANGE request"));
    free(report);
    rig_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hx_to_tile_aligned),
        cmocka_unit_test(hx_to_host_unaligned),
        cmocka_unit_test(hx_across_two_entries),
        cmocka_unit_test(hx_miss_at_start),
        cmocka_unit_test(hx_miss_running_off_an_entry),
        cmocka_unit_test(hx_permission_each_direction),
        cmocka_unit_test(hx_bus_in_no_buffer_is_a_miss),
        cmocka_unit_test(hx_mirror_follows_the_card),
        cmocka_unit_test(hx_only_the_cards_entries),
        cmocka_unit_test(hx_one_tile_card),
        cmocka_unit_test(exchange_good_list_snapshots),
        cmocka_unit_test(exchange_empty_list),
        cmocka_unit_test(exchange_bad_lists),
        cmocka_unit_test(land_order),
        cmocka_unit_test(start_halt_reset_empty_the_outboxes),
        cmocka_unit_test(transport_dies_mid_service),
        cmocka_unit_test(no_host_service_no_svc_access),
        cmocka_unit_test(report_names_a_stuck_request),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
