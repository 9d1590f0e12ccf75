/* qtest tests of the ipu-card QEMU device, no guest: identity and configuration
 * space, every register, DMA with translation, translation misses and
 * permission faults, MSI-X and INTx, reset, bad accesses logged and survived,
 * a long DMA chain that leaves MMIO responsive, a tile program with console
 * output; and the card hosting the Verilated RTL
 * card (backend rtl, picked by the rtl-tiny board's transport key).
 * Usage: test_qemu_card GROUP   (identity, regs, dma, iommu, irq, reset, bad, run, rtl) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "card_fixture.h"
#include "ipu_board.h"
#include "ipu_card/hw.h"
#include "qtest_vtd.h"
#include "regs_table.h"

#define PCI_SUBSYSTEM_VENDOR 0x2c
#define PCI_CLASS_REVISION 0x08
#define PCI_INTERRUPT_PIN 0x3d
#define PCI_CAP_ID_EXP 0x10
#define PCI_CAP_ID_MSIX 0x11

static const char *variant = IPU_QEMU_VARIANT;

/* Starts QEMU with the card and the given ipu-card properties (NULL: the
 * defaults) for one test. */
static int start_card(void **state, const char *props)
{
    static struct card c;
    memset(&c, 0, sizeof c);
    if (!card_start_props(&c, variant, props, NULL))
        return -1;
    *state = &c;
    return 0;
}

static int setup(void **state) { return start_card(state, NULL); }

/* The RTL card: rtl-tiny with no backend property, so the device takes the
 * backend from the board's transport key as the driver does. */
static int setup_rtl(void **state) { return start_card(state, "board=rtl-tiny"); }

/* rtl-tiny with backend=model: the property overrides the transport key. */
static int setup_rtl_board_on_model(void **state) { return start_card(state, "board=rtl-tiny,backend=model"); }

static int teardown(void **state)
{
    struct card *c = *state;
    return card_stop(c) == 0 ? 0 : -1;
}

static bool log_contains(struct card *c, const char *needle)
{
    FILE *f = fopen(qt_log_path(c->q), "r");
    char line[1024];
    bool found = false;
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, needle) != NULL;
    if (f)
        fclose(f);
    return found;
}

/* Identity and configuration space ------------------------------------------- */

static void test_identity(void **state)
{
    struct card *c = *state;
    struct qt *q = c->q;
    const unsigned fn = c->pci.devfn;
    assert_int_equal(qt_pci_cfg_read(q, fn, 0, 2), IPU_PCI_VENDOR_ID);
    assert_int_equal(qt_pci_cfg_read(q, fn, 2, 2), IPU_PCI_DEVICE_ID);
    assert_int_equal(qt_pci_cfg_read(q, fn, PCI_SUBSYSTEM_VENDOR, 2), IPU_PCI_SUBSYSTEM_VENDOR_ID);
    assert_int_equal(qt_pci_cfg_read(q, fn, PCI_SUBSYSTEM_VENDOR + 2, 2), IPU_PCI_SUBSYSTEM_ID);
    const uint32_t class_rev = qt_pci_cfg_read(q, fn, PCI_CLASS_REVISION, 4);
    assert_int_equal(class_rev >> 16, IPU_PCI_CLASS_CODE);
    assert_int_equal(class_rev & 0xff, IPU_PCI_REVISION);
    assert_int_equal(qt_pci_cfg_read(q, fn, PCI_INTERRUPT_PIN, 1), 1);

    assert_int_equal(qt_pci_bar_size(&c->pci, IPU_BAR_REGS), IPU_BAR_REGS_SIZE);
    assert_int_equal(qt_pci_bar_size(&c->pci, IPU_BAR_TILEMEM), IPU_BAR_TILEMEM_SIZE);
    assert_int_equal(qt_pci_bar_size(&c->pci, IPU_BAR_MSIX), IPU_BAR_MSIX_SIZE);
    assert_int_equal(qt_pci_cfg_read(q, fn, 0x10, 4) & 0x7, 0x4); /* 64-bit memory BAR */

    assert_int_not_equal(qt_pci_find_cap(&c->pci, PCI_CAP_ID_EXP), 0);
    const unsigned msix = qt_pci_find_cap(&c->pci, PCI_CAP_ID_MSIX);
    assert_int_not_equal(msix, 0);
    assert_int_equal((qt_pci_cfg_read(q, fn, msix + 2, 2) & 0x7ff) + 1, IPU_PCI_MSIX_VECTORS);
    assert_int_equal(qt_pci_cfg_read(q, fn, msix + 4, 4) & 7, IPU_BAR_MSIX); /* table BIR */
    assert_int_equal(qt_pci_cfg_read(q, fn, msix + 8, 4) & 7, IPU_BAR_MSIX); /* PBA BIR */

    assert_int_equal(qt_reg(&c->pci, IPU_REG_ID), IPU_REG_ID_RESET_VALUE);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_VERSION),
                     (IPU_CONTRACT_VERSION_MAJOR << 16) | IPU_CONTRACT_VERSION_MINOR);
    assert_true(qt_reg(&c->pci, IPU_REG_CAPS) & IPU_REG_CAPS_MSIX_MASK);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The qtest MMIO read round trip (BAR0 ID) in microseconds, median of 1000:
 * the test client's socket, QEMU's dispatch and the backend's bar_read. */
static double mmio_round_trip_us(struct card *c)
{
    enum { N = 1000 };
    static double t[N];
    for (unsigned i = 0; i < N; i++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        const uint32_t id = qt_reg(&c->pci, IPU_REG_ID);
        clock_gettime(CLOCK_MONOTONIC, &b);
        assert_int_equal(id, IPU_REG_ID_RESET_VALUE);
        t[i] = (double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3;
    }
    qsort(t, N, sizeof t[0], cmp_double);
    return t[N / 2];
}

static void test_identity_figure(void **state)
{
    struct card *c = *state;
    test_identity(state);
    assert_false(qt_reg(&c->pci, IPU_REG_CAPS) & IPU_REG_CAPS_RTL_MASK); /* the model */
    print_message("  qtest MMIO read round trip (model): median %.1f us\n", mmio_round_trip_us(c));
}

/* Every register --------------------------------------------------------------- */

static void check_board_registers(struct card *c, const char *board)
{
    struct ipu_board b;
    char err[256];
    assert_int_equal(ipu_board_load(board, &b, err, sizeof err), 0);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_NUM_TILES), ipu_board_num_tiles(&b));
    assert_int_equal(qt_reg(&c->pci, IPU_REG_TILE_MEM_BYTES), b.bytes_per_tile);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_NUM_WORKERS), b.worker_contexts);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_TILE_CLOCK_KHZ), (uint32_t)(b.tile_clock_hz / 1000));
    assert_int_equal(qt_reg(&c->pci, IPU_REG_EXCHANGE_BYTES_PER_CYCLE), b.exchange_bytes_per_cycle);
}

static void test_every_register(void **state)
{
    struct card *c = *state;
    check_board_registers(c, "tiny");
    for (unsigned i = 0; i < IPU_NUM_REGS; i++) {
        const struct ipu_reg_desc *r = &ipu_regs[i];
        const uint32_t before = qt_reg(&c->pci, r->offset);
        if (strcmp(r->access, "wo") == 0) {
            assert_int_equal(before, 0); /* write-only registers read as zero */
            continue;
        }
        if (r->has_reset)
            assert_int_equal(before, r->reset);
        if (strcmp(r->access, "ro") == 0 && r->offset != IPU_REG_CARD_CYCLES_LO) {
            qt_reg_write(&c->pci, r->offset, ~before); /* ignored, logged */
            assert_int_equal(qt_reg(&c->pci, r->offset), before);
        } else if (strcmp(r->access, "rw") == 0) {
            /* 1 is legal in every rw register of an idle 4-tile card. */
            qt_reg_write(&c->pci, r->offset, 1);
            assert_int_equal(qt_reg(&c->pci, r->offset), 1);
            qt_reg_write(&c->pci, r->offset, before);
            assert_int_equal(qt_reg(&c->pci, r->offset), before);
        } else if (strcmp(r->access, "w1c") == 0) {
            qt_reg_write(&c->pci, r->offset, ~0u);
            assert_int_equal(qt_reg(&c->pci, r->offset), 0);
        }
        print_message("  %-26s 0x%03x %-3s ok\n", r->name, r->offset, r->access);
    }
    /* The translation table: every entry keeps what was written (4 KiB aligned). */
    for (unsigned e = 0; e < IPU_REG_XLAT_COUNT; e++) {
        card_xlat(c, e, 0x10000fffu + e * 0x1000000u, 0x123456789000ull + e, 2, IPU_XLAT_CTRL_READ_MASK);
        const uint32_t base = IPU_REG_XLAT_BASE + e * IPU_REG_XLAT_STRIDE;
        assert_int_equal(qt_reg(&c->pci, base + IPU_XLAT_ENTRY_DEV_BASE_OFFSET), 0x10000000u + e * 0x1000000u);
        assert_int_equal(qt_reg(&c->pci, base + IPU_XLAT_ENTRY_BUS_LO_OFFSET), 0x56789000u);
        assert_int_equal(qt_reg(&c->pci, base + IPU_XLAT_ENTRY_BUS_HI_OFFSET), 0x1234u);
        assert_int_equal(qt_reg(&c->pci, base + IPU_XLAT_ENTRY_CTRL_OFFSET),
                         IPU_XLAT_CTRL_READ_MASK | (1u << IPU_XLAT_CTRL_PAGES_MINUS_1_SHIFT));
    }
}

static void test_tilemem_window(void **state)
{
    struct card *c = *state;
    const uint64_t w = c->pci.bar[IPU_BAR_TILEMEM];
    qt_reg_write(&c->pci, IPU_REG_TILEMEM_WINDOW_TILE, 1);
    qt_write(c->q, w + 0x10, 8, 0x0123456789abcdefull);
    qt_write(c->q, w + 0x20, 1, 0x5a);
    qt_write(c->q, w + 0x22, 2, 0xbeef);
    assert_int_equal(qt_read(c->q, w + 0x10, 8), 0x0123456789abcdefull);
    assert_int_equal(qt_read(c->q, w + 0x14, 4), 0x01234567u);
    assert_int_equal(qt_read(c->q, w + 0x20, 4), 0xbeef005au);
    qt_reg_write(&c->pci, IPU_REG_TILEMEM_WINDOW_TILE, 0);
    assert_int_equal(qt_read(c->q, w + 0x10, 8), 0); /* another tile */
}

/* DMA through the translation table --------------------------------------------- */

static void map_default(struct card *c)
{
    const uint32_t rw = IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK | IPU_XLAT_CTRL_WRITE_MASK;
    card_xlat(c, 0, DEV_BUF, HOST_BUF, 16, rw);
    card_xlat(c, 1, DEV_DESC, HOST_DESC, 1, IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK);
}

static void test_dma_round_trip(void **state)
{
    struct card *c = *state;
    uint8_t data[4096], back[4096];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7 + 3);
    qt_memwrite(c->q, HOST_BUF, data, sizeof data);
    map_default(c);
    /* Host to tiles 2 and 3 (a broadcast), then tile 3 back to the host. */
    struct ipu_dma_desc chain[2] = {
        {.dev_addr = DEV_BUF, .tile_addr = IPU_TILE_SRAM_BASE + 0x40, .length = sizeof data, .first_tile = 2,
         .tile_count = 2},
        {.dev_addr = DEV_BUF + 0x8000, .tile_addr = IPU_TILE_SRAM_BASE + 0x40, .length = sizeof data,
         .first_tile = 3, .tile_count = 1, .flags = IPU_DMA_FLAGS_TO_HOST_MASK | IPU_DMA_FLAGS_LAST_MASK},
    };
    qt_memwrite(c->q, HOST_DESC, chain, sizeof chain);
    qt_reg_write(&c->pci, IPU_REG_DMA_DESC_ADDR, DEV_DESC);
    qt_reg_write(&c->pci, IPU_REG_DMA_CTRL, IPU_REG_DMA_CTRL_START_MASK);
    const uint32_t st = card_dma_wait(c);
    if (st != IPU_REG_DMA_STATUS_DONE_MASK)
        card_print_first_error(c);
    assert_int_equal(st, IPU_REG_DMA_STATUS_DONE_MASK);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_DMA_COMPLETED), 2);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_DMA_BYTES_LO), 2 * sizeof data);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ERR_COUNT), 0);
    assert_true(qt_reg(&c->pci, IPU_REG_IRQ_STATUS) & IPU_REG_IRQ_STATUS_DMA_DONE_MASK);
    qt_memread(c->q, HOST_BUF + 0x8000, back, sizeof back);
    assert_memory_equal(back, data, sizeof data);
    qt_reg_write(&c->pci, IPU_REG_TILEMEM_WINDOW_TILE, 2);
    assert_int_equal(qt_read(c->q, c->pci.bar[IPU_BAR_TILEMEM] + 0x40, 4), data[0] | data[1] << 8 |
                     data[2] << 16 | (uint32_t)data[3] << 24);
}

static void expect_dma_error(struct card *c, uint32_t cause, uint32_t addr)
{
    assert_int_equal(card_dma_wait(c), IPU_REG_DMA_STATUS_ERROR_MASK);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ERR_COUNT), 1);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ERR_CAUSE), cause);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ERR_TILE), 0xffffffffu);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ERR_ADDR), addr);
    assert_true(qt_reg(&c->pci, IPU_REG_IRQ_STATUS) & IPU_REG_IRQ_STATUS_ERROR_MASK);
    qt_reg_write(&c->pci, IPU_REG_ERR_POP, 1);
    qt_reg_write(&c->pci, IPU_REG_IRQ_STATUS, ~0u);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ERR_COUNT), 0);
}

static void test_dma_faults(void **state)
{
    struct card *c = *state;
    map_default(c);
    /* A miss: the data address has no entry. */
    card_dma_one(c, 0x30000000u, 0, 0, 64, 0);
    expect_dma_error(c, IPU_ERR_XLAT_MISS, 0x30000000u);
    /* A miss on the descriptor itself. */
    qt_reg_write(&c->pci, IPU_REG_DMA_DESC_ADDR, 0x40000000u);
    qt_reg_write(&c->pci, IPU_REG_DMA_CTRL, IPU_REG_DMA_CTRL_START_MASK);
    expect_dma_error(c, IPU_ERR_XLAT_MISS, 0x40000000u);
    /* Permission: the descriptor window is read-only; write to it. */
    card_dma_one(c, DEV_DESC + 0x100, 0, 0, 64, IPU_DMA_FLAGS_TO_HOST_MASK);
    expect_dma_error(c, IPU_ERR_XLAT_PERMISSION, DEV_DESC + 0x100);
    /* An access that runs off the end of its entry misses at the first byte past it. */
    card_dma_one(c, DEV_BUF + 16 * 4096 - 32, 0, 0, 64, 0);
    expect_dma_error(c, IPU_ERR_XLAT_MISS, DEV_BUF + 16 * 4096);
    /* The bus refuses: an entry that points where there is no memory. */
    card_xlat(c, 2, 0x50000000u, 0xfff00000000ull, 1, IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK);
    card_dma_one(c, 0x50000000u, 0, 0, 64, 0);
    expect_dma_error(c, IPU_ERR_XLAT_MISS, 0x50000000u);
    /* Without bus mastering the card cannot reach memory at all. */
    const uint32_t cmd = qt_pci_cfg_read(c->q, c->pci.devfn, 4, 2);
    qt_pci_cfg_write(c->q, c->pci.devfn, 4, 2, cmd & ~4u);
    qt_reg_write(&c->pci, IPU_REG_DMA_CTRL, IPU_REG_DMA_CTRL_START_MASK);
    expect_dma_error(c, IPU_ERR_XLAT_MISS, DEV_DESC);
    qt_pci_cfg_write(c->q, c->pci.devfn, 4, 2, cmd);
    /* And afterwards it works again. */
    card_dma_one(c, DEV_BUF, 0, 0, 64, 0);
    assert_int_equal(card_dma_wait(c), IPU_REG_DMA_STATUS_DONE_MASK);
}

/* A long broadcast chain on a large card (ipu1: 1216 tiles) moves about a
 * GiB on the card. The card runs it in bounded slices from the worker, so MMIO
 * stays responsive throughout (it once held the BQL for the whole chain), the
 * card itself reports DMA_STATUS.BUSY, and every descriptor completes. */
static int setup_ipu1(void **state) { return start_card(state, "board=ipu1"); }

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_dma_long_chain_stays_responsive(void **state)
{
    struct card *c = *state;
    enum { N = 1024, LEN = 1024 };
    const uint32_t tiles = qt_reg(&c->pci, IPU_REG_NUM_TILES);
    assert_int_equal(tiles, 1216);
    static struct ipu_dma_desc chain[N];
    for (unsigned i = 0; i < N; i++)
        chain[i] = (struct ipu_dma_desc){.dev_addr = DEV_BUF + (i % 16) * 4096, .tile_addr = IPU_TILE_SRAM_BASE + 0x100,
                                         .length = LEN, .first_tile = 0, .tile_count = (uint16_t)tiles,
                                         .flags = i + 1 == N ? IPU_DMA_FLAGS_LAST_MASK : 0};
    const uint32_t rw = IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK | IPU_XLAT_CTRL_WRITE_MASK;
    card_xlat(c, 0, DEV_BUF, HOST_BUF, 16, rw);
    card_xlat(c, 1, DEV_DESC, HOST_DESC, sizeof chain / 4096, IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK);
    qt_memwrite(c->q, HOST_DESC, chain, sizeof chain);
    const double t0 = now_s();
    qt_reg_write(&c->pci, IPU_REG_DMA_DESC_ADDR, DEV_DESC);
    qt_reg_write(&c->pci, IPU_REG_DMA_CTRL, IPU_REG_DMA_CTRL_START_MASK);
    double worst = 0;
    unsigned polls = 0, busy = 0;
    uint32_t st = IPU_REG_DMA_STATUS_BUSY_MASK;
    while ((st & IPU_REG_DMA_STATUS_BUSY_MASK) && now_s() - t0 < 300 && qt_ok(c->q)) {
        const double a = now_s();
        st = qt_reg(&c->pci, IPU_REG_DMA_STATUS);
        const double d = now_s() - a;
        worst = d > worst ? d : worst;
        polls++;
        busy += (st & IPU_REG_DMA_STATUS_BUSY_MASK) != 0;
    }
    const double total = now_s() - t0;
    printf("1024-descriptor broadcast to %u tiles (%.2f GiB on the card): %.2f s, %u MMIO reads, slowest %.1f ms\n",
           tiles, (double)N * LEN * tiles / (1 << 30), total, polls, worst * 1e3);
    if (st != IPU_REG_DMA_STATUS_DONE_MASK)
        card_print_first_error(c);
    assert_int_equal(st, IPU_REG_DMA_STATUS_DONE_MASK);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_DMA_COMPLETED), N);
    assert_true(busy > 0);        /* the card said BUSY while it worked */
    assert_true(worst < 1.0);     /* no MMIO access waited for the whole chain */
    qt_reg_write(&c->pci, IPU_REG_TILEMEM_WINDOW_TILE, tiles - 1);
    uint32_t want;
    qt_memread(c->q, HOST_BUF + ((N - 1) % 16) * 4096, &want, 4);
    assert_int_equal(qt_read(c->q, c->pci.bar[IPU_BAR_TILEMEM] + 0x100, 4), want);
}

/* DMA through the virtual IOMMU: the card's bus addresses are IOVAs --------------- */

#define IOVA_BUF 0x40000000ull  /* 16 pages -> HOST_BUF, read-write */
#define IOVA_DESC 0x40100000ull /* 1 page -> HOST_DESC, read-only */
#define IOVA_SELF 0x40300000ull /* 1 page -> the card's BAR0 */

static void test_dma_through_iommu(void **state)
{
    struct card *c = *state;
    qt_vtd_init(c->q, c->pci.devfn);
    for (unsigned i = 0; i < 16; i++)
        qt_vtd_map(c->q, IOVA_BUF + 4096ull * i, HOST_BUF + 4096ull * i, true);
    qt_vtd_map(c->q, IOVA_DESC, HOST_DESC, false);
    qt_vtd_map(c->q, IOVA_SELF, c->pci.bar[IPU_BAR_REGS], true); /* the card's own registers */
    assert_true(qt_vtd_enable(c->q));
    const uint32_t rw = IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK | IPU_XLAT_CTRL_WRITE_MASK;
    card_xlat(c, 0, DEV_BUF, IOVA_BUF, 16, rw);
    card_xlat(c, 1, DEV_DESC, IOVA_DESC, 1, rw); /* the card allows writes; the IOMMU does not */

    uint8_t data[8192], back[8192];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 13 + 1);
    qt_memwrite(c->q, HOST_BUF, data, sizeof data);
    card_dma_one(c, DEV_BUF, 1, 0, sizeof data, 0);
    assert_int_equal(card_dma_wait(c), IPU_REG_DMA_STATUS_DONE_MASK);
    card_dma_one(c, DEV_BUF + 0x8000, 1, 0, sizeof data, IPU_DMA_FLAGS_TO_HOST_MASK);
    assert_int_equal(card_dma_wait(c), IPU_REG_DMA_STATUS_DONE_MASK);
    qt_memread(c->q, HOST_BUF + 0x8000, back, sizeof back);
    assert_memory_equal(back, data, sizeof data); /* landed at the GPA the IOMMU chose */

    /* The IOMMU refuses: an IOVA with no mapping, and a write to a read-only page. */
    card_xlat(c, 2, 0x50000000u, 0x40200000ull, 1, rw);
    card_dma_one(c, 0x50000000u, 0, 0, 64, 0);
    expect_dma_error(c, IPU_ERR_XLAT_MISS, 0x50000000u);
    card_dma_one(c, DEV_DESC + 0x800, 0, 0, 64, IPU_DMA_FLAGS_TO_HOST_MASK);
    expect_dma_error(c, IPU_ERR_XLAT_MISS, DEV_DESC + 0x800);
    assert_int_equal(qt_read(c->q, HOST_DESC + 0x800, 8), 0); /* nothing written */

    /* An IOVA the IOMMU maps onto the card's own BAR0: refused, logged, survived. */
    card_xlat(c, 3, 0x60000000u, IOVA_SELF, 1, rw);
    card_dma_one(c, 0x60000000u + IPU_REG_RESET, 0, 0, 4, IPU_DMA_FLAGS_TO_HOST_MASK);
    expect_dma_error(c, IPU_ERR_XLAT_MISS, 0x60000000u + IPU_REG_RESET);
    assert_true(log_contains(c, "targets the card's own BAR0"));
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ID), IPU_REG_ID_RESET_VALUE);
}

/* Interrupts -------------------------------------------------------------------- */

static void test_msix(void **state)
{
    struct card *c = *state;
    qt_pci_msix_enable(&c->pci, HOST_MSI, 0x4900);
    map_default(c);
    qt_reg_write(&c->pci, IPU_REG_IRQ_MASK, IPU_REG_IRQ_STATUS_DMA_DONE_MASK | IPU_REG_IRQ_STATUS_ERROR_MASK);
    card_dma_one(c, DEV_BUF, 0, 0, 64, 0);
    assert_int_equal(card_dma_wait(c), IPU_REG_DMA_STATUS_DONE_MASK);
    assert_int_equal(qt_read(c->q, HOST_MSI + 4 * IPU_IRQ_VECTOR_DONE, 4), 0x4900 + IPU_IRQ_VECTOR_DONE);
    assert_int_equal(qt_read(c->q, HOST_MSI + 4 * IPU_IRQ_VECTOR_ERROR, 4), 0);
    card_dma_one(c, 0x30000000u, 0, 0, 64, 0);
    card_dma_wait(c);
    assert_int_equal(qt_read(c->q, HOST_MSI + 4 * IPU_IRQ_VECTOR_ERROR, 4), 0x4900 + IPU_IRQ_VECTOR_ERROR);
    /* A masked cause raises nothing. */
    qt_write(c->q, HOST_MSI + 4 * IPU_IRQ_VECTOR_DONE, 4, 0);
    qt_reg_write(&c->pci, IPU_REG_IRQ_MASK, 0);
    card_dma_one(c, DEV_BUF, 0, 0, 64, 0);
    card_dma_wait(c);
    assert_int_equal(qt_read(c->q, HOST_MSI + 4 * IPU_IRQ_VECTOR_DONE, 4), 0);
}

static bool any_pirq(struct card *c)
{
    bool up = false;
    for (unsigned gsi = 16; gsi < 24; gsi++)
        up |= qt_irq_level(c->q, gsi);
    return up;
}

static void test_intx(void **state)
{
    struct card *c = *state;
    qt_irq_intercept(c->q);
    map_default(c);
    assert_false(any_pirq(c));
    qt_reg_write(&c->pci, IPU_REG_IRQ_MASK, IPU_REG_IRQ_STATUS_DMA_DONE_MASK);
    card_dma_one(c, DEV_BUF, 0, 0, 64, 0);
    assert_int_equal(card_dma_wait(c), IPU_REG_DMA_STATUS_DONE_MASK);
    assert_true(any_pirq(c));                      /* level while pending */
    qt_reg_write(&c->pci, IPU_REG_IRQ_STATUS, IPU_REG_IRQ_STATUS_DMA_DONE_MASK);
    assert_false(any_pirq(c));                     /* and gone once cleared */
}

/* Reset ------------------------------------------------------------------------- */

static void dirty(struct card *c)
{
    map_default(c);
    qt_reg_write(&c->pci, IPU_REG_IRQ_MASK, 0x1f);
    qt_reg_write(&c->pci, IPU_REG_WATCHDOG_INSNS, 7);
    qt_reg_write(&c->pci, IPU_REG_TILE_SEL, 3);
    qt_reg_write(&c->pci, IPU_REG_TILE_CTRL, IPU_REG_TILE_CTRL_ENABLE_MASK);
    qt_write(c->q, c->pci.bar[IPU_BAR_TILEMEM] + 0x100, 8, 0xfeedfacecafebeefull);
    card_dma_one(c, 0x30000000u, 0, 0, 64, 0); /* leaves an error record */
    card_dma_wait(c);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ERR_COUNT), 1);
}

static void assert_clean(struct card *c)
{
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ID), IPU_REG_ID_RESET_VALUE);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_IRQ_MASK), 0);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_IRQ_STATUS), 0);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_WATCHDOG_INSNS), 0);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_TILE_SEL), 0);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ERR_COUNT), 0);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_DMA_STATUS), 0);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_STATUS), IPU_CARD_STATE_IDLE);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_XLAT_BASE + IPU_XLAT_ENTRY_CTRL_OFFSET), 0);
    assert_int_equal(qt_read(c->q, c->pci.bar[IPU_BAR_TILEMEM] + 0x100, 8), 0);
}

static void test_reset_register(void **state)
{
    struct card *c = *state;
    dirty(c);
    qt_reg_write(&c->pci, IPU_REG_RESET, 0x12345678u); /* wrong key: ignored */
    assert_int_equal(qt_reg(&c->pci, IPU_REG_IRQ_MASK), 0x1f);
    qt_reg_write(&c->pci, IPU_REG_RESET, IPU_RESET_KEY);
    assert_clean(c);
}

static void test_system_reset(void **state)
{
    struct card *c = *state;
    dirty(c);
    qt_out(c->q, 0xcf9, 1, 0x06); /* ICH9 reset control: hard reset */
    qt_irq_level(c->q, 0);        /* let the main loop process the request */
    /* Reset clears configuration space too: the BARs must be placed again. */
    assert_int_equal(qt_pci_cfg_read(c->q, c->pci.devfn, 4, 2) & 0x6, 0);
    qt_pci_enable(&c->pci);
    assert_clean(c);
}

static void test_function_level_reset(void **state)
{
    struct card *c = *state;
    const unsigned exp = qt_pci_find_cap(&c->pci, PCI_CAP_ID_EXP);
    assert_true(qt_pci_cfg_read(c->q, c->pci.devfn, exp + 4, 4) & (1u << 28)); /* DEVCAP.FLR */
    dirty(c);
    const uint32_t devctl = qt_pci_cfg_read(c->q, c->pci.devfn, exp + 8, 2);
    qt_pci_cfg_write(c->q, c->pci.devfn, exp + 8, 2, devctl | 0x8000); /* initiate FLR */
    qt_pci_enable(&c->pci);
    assert_clean(c);
}

/* Bad accesses are logged and survived ----------------------------------------- */

static void test_bad_accesses(void **state)
{
    struct card *c = *state;
    const uint64_t r = c->pci.bar[IPU_BAR_REGS], w = c->pci.bar[IPU_BAR_TILEMEM];
    assert_int_equal(qt_read(c->q, r + IPU_REG_ID, 1), 0xff);    /* wrong size */
    assert_int_equal(qt_read(c->q, r + IPU_REG_ID, 2), 0xffff);
    assert_int_equal(qt_read(c->q, r + IPU_REG_ID, 8), ~0ull);
    assert_int_equal(qt_read(c->q, r + 2, 4), 0xffffffffu);       /* misaligned */
    qt_write(c->q, r + IPU_REG_IRQ_MASK, 2, 0x1f);                /* ignored */
    assert_int_equal(qt_reg(&c->pci, IPU_REG_IRQ_MASK), 0);
    assert_true(log_contains(c, "ipu-card: bad read of BAR0"));
    assert_true(log_contains(c, "ipu-card: bad write of BAR0"));
    /* BAR2 past the tile's SRAM (the window is larger than a tiny tile). */
    assert_int_equal(qt_read(c->q, w + 0x20000, 4), 0xffffffffu);
    qt_write(c->q, w + 0xfffff, 2, 0x1234);
    assert_true(log_contains(c, "ipu-card: bad read of BAR2"));
    assert_true(log_contains(c, "ipu-card: bad write of BAR2"));
    /* Unassigned registers and illegal values are survived too. */
    qt_reg_write(&c->pci, 0xffc, 1);
    assert_int_equal(qt_reg(&c->pci, 0xffc), 0);
    qt_reg_write(&c->pci, IPU_REG_TILE_SEL, 1000);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_TILE_SEL), 0);
    /* DMA aimed at the card's own BARs is refused and logged. */
    const uint32_t rw = IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK | IPU_XLAT_CTRL_WRITE_MASK;
    map_default(c);
    card_xlat(c, 3, 0x60000000u, r, 16, rw);
    card_dma_one(c, 0x60000000u + IPU_REG_RESET, 0, 0, 4, 0);
    expect_dma_error(c, IPU_ERR_XLAT_MISS, 0x60000000u + IPU_REG_RESET);
    card_dma_one(c, 0x60000000u + IPU_REG_RESET, 0, 0, 4, IPU_DMA_FLAGS_TO_HOST_MASK);
    expect_dma_error(c, IPU_ERR_XLAT_MISS, 0x60000000u + IPU_REG_RESET);
    assert_true(log_contains(c, "targets the card's own BAR"));
    /* The card still works. */
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ID), IPU_REG_ID_RESET_VALUE);
    card_dma_one(c, DEV_BUF, 0, 0, 64, 0);
    assert_int_equal(card_dma_wait(c), IPU_REG_DMA_STATUS_DONE_MASK);
}

/* A tile program with console output ------------------------------------------- */

/* Hand-assembled RV32I (the qtest client loads no ELF files, and the words run
 * on the rv32im RTL tiles as on the model's): print "hi\n" through the CONSOLE
 * CSR, then exit with 40 + the tile id. */
static const uint32_t hello_program[] = {
    0x06800093u, /* li x1, 'h' */
    0x80609073u, /* csrw CONSOLE, x1 */
    0x06900093u, /* li x1, 'i' */
    0x80609073u, /* csrw CONSOLE, x1 */
    0x00a00093u, /* li x1, '\n' */
    0x80609073u, /* csrw CONSOLE, x1 */
    0xcc002173u, /* csrr x2, TILE_ID */
    0x02810113u, /* addi x2, x2, 40 */
    0x80711073u, /* csrw EXIT, x2 */
};
#define HELLO_ENTRY 0x100u /* offset in tile SRAM */

static void test_tile_program(void **state)
{
    struct card *c = *state;
    static const unsigned tiles[] = {1, 3};
    for (unsigned k = 0; k < 2; k++) {
        qt_reg_write(&c->pci, IPU_REG_TILEMEM_WINDOW_TILE, tiles[k]);
        for (unsigned i = 0; i < sizeof hello_program / 4; i++)
            qt_write(c->q, c->pci.bar[IPU_BAR_TILEMEM] + HELLO_ENTRY + 4 * i, 4, hello_program[i]);
        qt_reg_write(&c->pci, IPU_REG_TILE_SEL, tiles[k]);
        qt_reg_write(&c->pci, IPU_REG_TILE_ENTRY, IPU_TILE_SRAM_BASE + HELLO_ENTRY);
        qt_reg_write(&c->pci, IPU_REG_TILE_CTRL, IPU_REG_TILE_CTRL_ENABLE_MASK);
        assert_int_equal(qt_reg(&c->pci, IPU_REG_TILE_STATE), IPU_TILE_STATE_READY);
    }
    qt_reg_write(&c->pci, IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK);
    /* The card's worker thread runs the tiles; poll for the end of the run. */
    uint32_t st = 0;
    for (int i = 0; i < 20000 && qt_ok(c->q); i++) {
        st = qt_reg(&c->pci, IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK;
        if (st != IPU_CARD_STATE_RUNNING)
            break;
        nanosleep(&(struct timespec){0, 100000}, NULL);
    }
    if (st != IPU_CARD_STATE_DONE)
        card_print_first_error(c);
    assert_int_equal(st, IPU_CARD_STATE_DONE);
    assert_true(qt_reg(&c->pci, IPU_REG_IRQ_STATUS) & IPU_REG_IRQ_STATUS_DONE_MASK);
    for (unsigned k = 0; k < 2; k++) {
        qt_reg_write(&c->pci, IPU_REG_TILE_SEL, tiles[k]);
        assert_int_equal(qt_reg(&c->pci, IPU_REG_TILE_STATE), IPU_TILE_STATE_EXITED);
        assert_int_equal(qt_reg(&c->pci, IPU_REG_TILE_EXIT_CODE), 40 + tiles[k]);
    }
    /* The console: each tile's bytes in its own order, nothing from other tiles. */
    char out[4][8] = {{0}};
    unsigned len[4] = {0}, entries = 0;
    assert_int_equal(qt_reg(&c->pci, IPU_REG_CONSOLE_STATUS), 6);
    for (;;) {
        const uint32_t e = qt_reg(&c->pci, IPU_REG_CONSOLE_DATA);
        if (!(e & IPU_REG_CONSOLE_DATA_VALID_MASK))
            break;
        const unsigned tile = (e & IPU_REG_CONSOLE_DATA_TILE_MASK) >> IPU_REG_CONSOLE_DATA_TILE_SHIFT;
        assert_in_range(tile, 0, 3);
        assert_in_range(len[tile], 0, sizeof out[0] - 2);
        out[tile][len[tile]++] = (char)(e & IPU_REG_CONSOLE_DATA_BYTE_MASK);
        entries++;
    }
    assert_int_equal(entries, 6);
    assert_string_equal(out[1], "hi\n");
    assert_string_equal(out[3], "hi\n");
    assert_int_equal(len[0] + len[2], 0);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_CONSOLE_LOST), 0);
}

/* The RTL card behind the QEMU device -------------------------------------------- */

static void test_rtl_identity(void **state)
{
    struct card *c = *state;
    test_identity(state); /* the same PCI identity, registers and MSI-X as the model's card */
    assert_true(qt_reg(&c->pci, IPU_REG_CAPS) & IPU_REG_CAPS_RTL_MASK);
    assert_false(qt_reg(&c->pci, IPU_REG_CAPS) & IPU_REG_CAPS_FPU_MASK); /* rv32im tiles */
    check_board_registers(c, "rtl-tiny");
    print_message("  qtest MMIO read round trip (rtl): median %.1f us\n", mmio_round_trip_us(c));
}

/* The backend property wins over the board's transport key. */
static void test_rtl_board_on_model(void **state)
{
    struct card *c = *state;
    assert_false(qt_reg(&c->pci, IPU_REG_CAPS) & IPU_REG_CAPS_RTL_MASK);
    check_board_registers(c, "rtl-tiny");
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
#define T_RTL(f) cmocka_unit_test_setup_teardown(f, setup_rtl, teardown)

int main(int argc, char **argv)
{
    const char *group = argc > 1 ? argv[1] : "all";
    card_qemu_path(variant); /* exits 77 when QEMU cannot be built here */
    const struct CMUnitTest identity[] = {T(test_identity_figure)};
    const struct CMUnitTest regs[] = {T(test_every_register), T(test_tilemem_window)};
    const struct CMUnitTest dma[] = {
        T(test_dma_round_trip),
        T(test_dma_faults),
        cmocka_unit_test_setup_teardown(test_dma_long_chain_stays_responsive, setup_ipu1, teardown),
    };
    const struct CMUnitTest iommu[] = {T(test_dma_through_iommu)};
    const struct CMUnitTest irq[] = {T(test_msix), T(test_intx)};
    const struct CMUnitTest reset[] = {T(test_reset_register), T(test_system_reset), T(test_function_level_reset)};
    const struct CMUnitTest bad[] = {T(test_bad_accesses)};
    const struct CMUnitTest run[] = {T(test_tile_program)};
    /* The same checks on the RTL card: identity, DMA through the translation
     * table into tile memory and back, a tile program with console output. */
    const struct CMUnitTest rtl[] = {
        T_RTL(test_rtl_identity),
        T_RTL(test_dma_round_trip),
        T_RTL(test_tile_program),
        cmocka_unit_test_setup_teardown(test_rtl_board_on_model, setup_rtl_board_on_model, teardown),
    };
    int fails = 0;
    const bool all = strcmp(group, "all") == 0;
    if (all || !strcmp(group, "identity")) fails += cmocka_run_group_tests_name("identity", identity, NULL, NULL);
    if (all || !strcmp(group, "regs")) fails += cmocka_run_group_tests_name("regs", regs, NULL, NULL);
    if (all || !strcmp(group, "dma")) fails += cmocka_run_group_tests_name("dma", dma, NULL, NULL);
    if (all || !strcmp(group, "iommu")) fails += cmocka_run_group_tests_name("iommu", iommu, NULL, NULL);
    if (all || !strcmp(group, "irq")) fails += cmocka_run_group_tests_name("irq", irq, NULL, NULL);
    if (all || !strcmp(group, "reset")) fails += cmocka_run_group_tests_name("reset", reset, NULL, NULL);
    if (all || !strcmp(group, "bad")) fails += cmocka_run_group_tests_name("bad", bad, NULL, NULL);
    if (all || !strcmp(group, "run")) fails += cmocka_run_group_tests_name("run", run, NULL, NULL);
    if (all || !strcmp(group, "rtl")) fails += cmocka_run_group_tests_name("rtl", rtl, NULL, NULL);
    return fails ? 1 : 0;
}
