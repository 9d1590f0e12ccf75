/* Randomized qtest harness: sequences of MMIO writes and reads, translation
 * entries, DMA chains and runs against the card in an ASan build of QEMU; the
 * card must never crash QEMU or hang it, and must keep answering its ID.
 * Usage: fuzz_card [ITERATIONS [SEED]]   (as bench_qemu_card: 5000 iterations
 * by default and the MMIO latency figure)
 * Exit: 0 clean, 1 crash/hang/sanitizer report, 77 QEMU not buildable here. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "card_fixture.h"
#include "ipu_card/hw.h"
#include "regs_table.h"

#define OPS_PER_ITERATION 64

static uint64_t rng_state;

static uint32_t rnd(void)
{
    /* xorshift64*: reproducible from the printed seed. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}

static uint32_t pick(uint32_t n) { return rnd() % n; }

/* A value that is interesting for the register at `offset`. */
static uint32_t value_for(uint32_t offset)
{
    switch (pick(6)) {
    case 0: return 0;
    case 1: return 1u << pick(32);
    case 2: return pick(8);
    case 3: return offset == IPU_REG_RESET ? IPU_RESET_KEY : rnd();
    case 4: return DEV_BUF + pick(0x20000);
    default: return rnd();
    }
}

static uint64_t bus_target(struct card *c)
{
    switch (pick(5)) {
    case 0: return c->pci.bar[pick(3) * 2] + (pick(16) << 12); /* its own BARs */
    case 1: return 0xfff00000000ull;                          /* nothing there */
    case 2: return HOST_DESC;
    default: return HOST_BUF + ((uint64_t)pick(64) << 12);
    }
}

static void random_descriptors(struct card *c)
{
    struct ipu_dma_desc d[4];
    const unsigned n = 1 + pick(4);
    for (unsigned i = 0; i < n; i++) {
        d[i] = (struct ipu_dma_desc){
            .dev_addr = pick(4) ? DEV_BUF + pick(0x40000) : rnd(),
            .tile_addr = pick(4) ? IPU_TILE_SRAM_BASE + pick(0x10000) : rnd(),
            .length = pick(4) ? 1 + pick(0x4000) : rnd(),
            .first_tile = (uint16_t)pick(6),
            .tile_count = (uint16_t)pick(5),
            .flags = pick(4) | (i + 1 == n ? IPU_DMA_FLAGS_LAST_MASK : 0),
            .reserved0 = pick(16) ? 0 : rnd(),
        };
    }
    qt_memwrite(c->q, HOST_DESC, d, n * sizeof d[0]);
}

/* Tiny tile programs (RV32 words) so that runs last several worker steps and
 * race with the MMIO traffic: a counting loop, a console loop, external syncs
 * in a loop (released by random HSYNC_RELEASE writes), an exit. */
static const uint32_t programs[][4] = {
    {0x00108093u /* addi x1,x1,1 */, 0xffdff06fu /* j -4 */},
    {0x00108093u, 0x80609073u /* csrw CONSOLE,x1 */, 0xff9ff06fu /* j -8 */},
    {0x00200113u /* li x2,EXTERNAL */, 0x80011073u /* csrw SYNC,x2 */, 0xffdff06fu},
    {0x00108093u, 0x80709073u /* csrw EXIT,x1 */},
};

static void start_run(struct card *c)
{
    const uint32_t tile = pick(4), entry = pick(64) << 2;
    const uint32_t *prog = programs[pick(4)];
    qt_reg_write(&c->pci, IPU_REG_TILEMEM_WINDOW_TILE, tile);
    for (unsigned i = 0; i < 4; i++)
        qt_write(c->q, c->pci.bar[IPU_BAR_TILEMEM] + entry + 4 * i, 4, prog[i]);
    qt_reg_write(&c->pci, IPU_REG_WATCHDOG_INSNS, 1 + pick(64));
    qt_reg_write(&c->pci, IPU_REG_TILE_SEL, tile);
    qt_reg_write(&c->pci, IPU_REG_TILE_ENTRY, IPU_TILE_SRAM_BASE + entry);
    qt_reg_write(&c->pci, IPU_REG_TILE_CTRL, IPU_REG_TILE_CTRL_ENABLE_MASK);
    qt_reg_write(&c->pci, IPU_REG_IRQ_MASK, pick(32));
    qt_reg_write(&c->pci, IPU_REG_RUN_CTRL, pick(6) ? IPU_REG_RUN_CTRL_START_MASK : IPU_REG_RUN_CTRL_HALT_MASK);
}

static void one_op(struct card *c)
{
    const uint64_t regs = c->pci.bar[IPU_BAR_REGS], win = c->pci.bar[IPU_BAR_TILEMEM];
    static const unsigned sizes[] = {1, 2, 4, 8};
    switch (pick(12)) {
    case 0: case 1: case 2: { /* a known register */
        const struct ipu_reg_desc *r = &ipu_regs[pick(IPU_NUM_REGS)];
        if (r->offset == IPU_REG_RESET && pick(4))
            break;
        qt_reg_write(&c->pci, r->offset, value_for(r->offset));
        break;
    }
    case 3: /* anywhere in BAR0, any size */
        qt_write(c->q, regs + pick(IPU_BAR_REGS_SIZE), sizes[pick(4)], rnd());
        break;
    case 4:
        qt_read(c->q, regs + (pick(4) ? pick(0x300) & ~3u : pick(IPU_BAR_REGS_SIZE)), pick(8) ? 4 : sizes[pick(4)]);
        break;
    case 5: /* the tile-memory window */
        qt_write(c->q, win + (pick(2) ? pick(0x10000) : pick(IPU_BAR_TILEMEM_SIZE)), sizes[pick(4)], rnd());
        break;
    case 6:
        qt_read(c->q, win + pick(IPU_BAR_TILEMEM_SIZE), sizes[pick(4)]);
        break;
    case 7: /* a translation entry */
        card_xlat(c, pick(pick(4) ? 4 : IPU_REG_XLAT_COUNT), pick(2) ? DEV_BUF + (pick(16) << 16) : rnd(),
                  bus_target(c), 1 + pick(64), pick(8));
        break;
    case 8: case 9: /* a DMA chain */
        random_descriptors(c);
        card_xlat(c, 1, DEV_DESC, HOST_DESC, 1, IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK);
        qt_reg_write(&c->pci, IPU_REG_DMA_DESC_ADDR, pick(8) ? DEV_DESC : rnd());
        qt_reg_write(&c->pci, IPU_REG_DMA_CTRL, IPU_REG_DMA_CTRL_START_MASK);
        break;
    case 10: /* a run, with the watchdog on */
        start_run(c);
        break;
    default: /* MSI-X table and PBA */
        qt_write(c->q, c->pci.bar[IPU_BAR_MSIX] + pick(IPU_BAR_MSIX_SIZE), 4, pick(2) ? HOST_BUF : rnd());
        break;
    }
}

/* MMIO round trip as a qtest client sees it: socket, QEMU's main loop, the
 * card's read path and back. Median and 99th percentile of n reads after a
 * warm-up, so that a busy host shows as a tail rather than a skewed mean. */
static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void mmio_latency(struct card *c, const char *when)
{
    enum { WARMUP = 200, N = 2000 };
    static double us[N];
    for (unsigned i = 0; i < WARMUP; i++)
        qt_reg(&c->pci, IPU_REG_ID);
    for (unsigned i = 0; i < N; i++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        qt_reg(&c->pci, IPU_REG_ID);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        us[i] = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3;
    }
    qsort(us, N, sizeof us[0], cmp_double);
    printf("MMIO round trip through qtest (%s QEMU, %s): median %.1f us, p99 %.1f us\n",
           getenv("IPU_QEMU") ? "IPU_QEMU" : "ASan", when, us[N / 2], us[N * 99 / 100]);
}

int main(int argc, char **argv)
{
    const bool bench = strstr(argv[0], "bench_") != NULL;
    const unsigned iterations = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : bench ? 5000 : 200;
    const uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : (uint64_t)time(NULL);
    rng_state = seed ? seed : 1;
    printf("fuzz_card: %u iterations x %d operations, seed %" PRIu64 " (rerun: %s %u %" PRIu64 ")\n", iterations,
           OPS_PER_ITERATION, seed, argv[0], iterations, seed);
    struct card c = {0};
    if (!card_start(&c, "asan", NULL))
        return 1;
    if (bench)
        mmio_latency(&c, "idle card");
    qt_pci_msix_enable(&c.pci, HOST_MSI, 0x100);
    unsigned done = 0;
    for (; done < iterations && qt_ok(c.q); done++) {
        for (int i = 0; i < OPS_PER_ITERATION && qt_ok(c.q); i++)
            one_op(&c);
        if (qt_reg(&c.pci, IPU_REG_ID) != IPU_REG_ID_RESET_VALUE && qt_ok(c.q)) {
            fprintf(stderr, "fuzz_card: the card stopped answering its ID after iteration %u\n", done);
            card_stop(&c);
            return 1;
        }
        if (done % 4 == 3 && pick(2)) /* sometimes reset the whole machine */
            qt_out(c.q, 0xcf9, 1, 0x06), qt_pci_enable(&c.pci);
    }
    const bool alive = qt_ok(c.q);
    if (bench && alive)
        mmio_latency(&c, "after the run");
    const int rc = card_stop(&c);
    printf("fuzz_card: %u iterations, QEMU %s\n", done, alive && rc == 0 ? "survived" : "FAILED");
    return alive && rc == 0 ? 0 : 1;
}
