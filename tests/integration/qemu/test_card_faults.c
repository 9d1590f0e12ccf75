/* qtest tests of the ipu-card QEMU device for issue 18: the findings from
 * outside (property ranges, non-regular board files, translation entries that
 * wrap, MSI-X messages aimed at the card itself, reset, FLR and SIGTERM in the
 * middle of a long DMA chain) and the fault-injection properties (inject-*).
 * Usage: test_qemu_card_faults GROUP   (faults, inject) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "card_fixture.h"
#include "ipu_card/hw.h"

#define PCI_CAP_ID_EXP 0x10

static const char *variant = IPU_QEMU_VARIANT;

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
static int setup_ipu1(void **state) { return start_card(state, "board=ipu1"); }
static int setup_dma_error(void **state) { return start_card(state, "inject-dma-error=12"); }
static int setup_removed(void **state) { return start_card(state, "inject-removed=on"); }
static int setup_stall(void **state) { return start_card(state, "inject-stall-dma=on"); }
static int setup_drop_done(void **state) { return start_card(state, "inject-drop-irq=2"); }
static int setup_delay_done(void **state) { return start_card(state, "inject-delay-irq=2,inject-irq-delay=2000000"); }

static int teardown(void **state) { return card_stop(*state) == 0 ? 0 : -1; }

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

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void map_default(struct card *c)
{
    const uint32_t rw = IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK | IPU_XLAT_CTRL_WRITE_MASK;
    card_xlat(c, 0, DEV_BUF, HOST_BUF, 16, rw);
    card_xlat(c, 1, DEV_DESC, HOST_DESC, 1, IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK);
}

/* Property and board checks at realize ------------------------------------------- */

/* QEMU with the card and `props` must refuse to start, saying `why`. A QEMU that
 * accepted them would wait at -S until `timeout` kills it: a failure. */
static void expect_refused(const char *props, const char *why)
{
    char devices[1024];
    snprintf(devices, sizeof devices, "-device ipu-card,board-path=%s/boards,%s", IPU_SOURCE_DIR, props);
    assert_true(card_refuses(variant, devices, why));
}

static void test_properties_range_checked(void **state)
{
    (void)state;
    expect_refused("budget=4294967295", "budget=4294967295 is out of range: give 1 to 65536");
    expect_refused("budget=0", "budget=0 is out of range");
    expect_refused("threads=100000", "threads=100000 is out of range");
    expect_refused("inject-dma-error=300", "inject-dma-error is out of range");
}

static void test_board_not_a_regular_file(void **state)
{
    (void)state;
    expect_refused("board=/dev/zero", "not a regular file (a character device)");
    expect_refused("board=/tmp/", "not a regular file (a directory)");
    char fifo[64];
    snprintf(fifo, sizeof fifo, "/tmp/ipu-qtest-fifo-%d.toml", (int)getpid());
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    char props[128];
    snprintf(props, sizeof props, "board=%s", fifo);
    expect_refused(props, "not a regular file (a FIFO)");
    unlink(fifo);
}

/* Translation entries that wrap are refused when written ---------------------------- */

static void test_xlat_entry_wrapping_refused(void **state)
{
    struct card *c = *state;
    const uint32_t ctrl = IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK;
    card_xlat(c, 2, DEV_BUF, 0xfffffffffffff000ull, 2, ctrl);     /* bus range wraps past 2^64 */
    card_xlat(c, 3, 0xfffff000u, HOST_BUF, 2, ctrl);              /* device range crosses 4 GiB */
    const uint32_t e2 = IPU_REG_XLAT_BASE + 2 * IPU_REG_XLAT_STRIDE + IPU_XLAT_ENTRY_CTRL_OFFSET;
    assert_int_equal(qt_reg(&c->pci, e2) & IPU_XLAT_CTRL_VALID_MASK, 0);
    assert_int_equal(qt_reg(&c->pci, e2 + IPU_REG_XLAT_STRIDE) & IPU_XLAT_CTRL_VALID_MASK, 0);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ERR_COUNT), 2);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ERR_CAUSE), IPU_ERR_XLAT_BAD_ENTRY);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ERR_INFO), 2);
    assert_true(qt_reg(&c->pci, IPU_REG_IRQ_STATUS) & IPU_REG_IRQ_STATUS_ERROR_MASK);
    /* A DMA through the refused range misses instead of reading low memory. */
    card_dma_one(c, DEV_BUF, 0, 0, 64, 0);
    assert_int_equal(card_dma_wait(c), IPU_REG_DMA_STATUS_ERROR_MASK);
}

/* MSI-X messages aimed at the card's own BARs ---------------------------------------- */

static void test_msix_to_own_bar_refused(void **state)
{
    struct card *c = *state;
    /* Vector DONE's message is "write RESET_KEY to BAR0's RESET register". */
    const uint64_t reset_reg = c->pci.bar[IPU_BAR_REGS] + IPU_REG_RESET;
    qt_pci_msix_enable(&c->pci, reset_reg - 4 * IPU_IRQ_VECTOR_DONE, IPU_RESET_KEY - IPU_IRQ_VECTOR_DONE);
    map_default(c);
    qt_reg_write(&c->pci, IPU_REG_IRQ_MASK, IPU_REG_IRQ_STATUS_DMA_DONE_MASK);
    card_dma_one(c, DEV_BUF, 0, 0, 64, 0);
    assert_int_equal(card_dma_wait(c), IPU_REG_DMA_STATUS_DONE_MASK);
    /* Not reset by its own message: the mask and the translation table stay. */
    assert_int_equal(qt_reg(&c->pci, IPU_REG_IRQ_MASK), IPU_REG_IRQ_STATUS_DMA_DONE_MASK);
    assert_true(qt_reg(&c->pci, IPU_REG_XLAT_BASE + IPU_XLAT_ENTRY_CTRL_OFFSET) & IPU_XLAT_CTRL_VALID_MASK);
    assert_true(log_contains(c, "MSI-X message write targets the card's own BAR0"));
}

/* Reset, FLR and SIGTERM in the middle of a long DMA chain ----------------------------- */

/* Starts a chain of 1024 broadcasts of 1 KiB to every tile (about 1.2 GiB on
 * the card: seconds of work) and checks the card says BUSY. */
static void start_long_chain(struct card *c)
{
    enum { N = 1024, LEN = 1024 };
    const uint32_t tiles = qt_reg(&c->pci, IPU_REG_NUM_TILES);
    static struct ipu_dma_desc chain[N];
    for (unsigned i = 0; i < N; i++)
        chain[i] = (struct ipu_dma_desc){.dev_addr = DEV_BUF + (i % 16) * 4096, .tile_addr = IPU_TILE_SRAM_BASE,
                                         .length = LEN, .first_tile = 0, .tile_count = (uint16_t)tiles,
                                         .flags = i + 1 == N ? IPU_DMA_FLAGS_LAST_MASK : 0};
    const uint32_t rw = IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK | IPU_XLAT_CTRL_WRITE_MASK;
    card_xlat(c, 0, DEV_BUF, HOST_BUF, 16, rw);
    card_xlat(c, 1, DEV_DESC, HOST_DESC, sizeof chain / 4096, IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK);
    qt_memwrite(c->q, HOST_DESC, chain, sizeof chain);
    qt_reg_write(&c->pci, IPU_REG_DMA_DESC_ADDR, DEV_DESC);
    qt_reg_write(&c->pci, IPU_REG_DMA_CTRL, IPU_REG_DMA_CTRL_START_MASK);
    assert_true(qt_reg(&c->pci, IPU_REG_DMA_STATUS) & IPU_REG_DMA_STATUS_BUSY_MASK);
}

/* After a reset the card is idle at once and a new chain works. */
static void expect_idle_and_working(struct card *c)
{
    assert_int_equal(qt_reg(&c->pci, IPU_REG_DMA_STATUS), 0);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_XLAT_BASE + IPU_XLAT_ENTRY_CTRL_OFFSET), 0);
    map_default(c);
    card_dma_one(c, DEV_BUF, 0, 0, 64, 0);
    assert_int_equal(card_dma_wait(c), IPU_REG_DMA_STATUS_DONE_MASK);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_DMA_COMPLETED), 1);
}

static void test_reset_mid_dma(void **state)
{
    struct card *c = *state;
    start_long_chain(c);
    qt_reg_write(&c->pci, IPU_REG_RESET, IPU_RESET_KEY);
    expect_idle_and_working(c);
}

static void test_flr_mid_dma(void **state)
{
    struct card *c = *state;
    start_long_chain(c);
    const unsigned exp = qt_pci_find_cap(&c->pci, PCI_CAP_ID_EXP);
    const uint32_t devctl = qt_pci_cfg_read(c->q, c->pci.devfn, exp + 8, 2);
    qt_pci_cfg_write(c->q, c->pci.devfn, exp + 8, 2, devctl | 0x8000); /* initiate FLR */
    qt_pci_enable(&c->pci);
    expect_idle_and_working(c);
}

static void test_sigterm_mid_dma(void **state)
{
    (void)state;
    struct card c;
    memset(&c, 0, sizeof c);
    assert_true(card_start_props(&c, variant, "board=ipu1", NULL));
    start_long_chain(&c);
    const double t0 = now_s();
    assert_int_equal(card_stop(&c), 0); /* SIGTERM; fails when QEMU ignores it for 5 s */
    printf("QEMU left %.2f s after SIGTERM in the middle of a DMA chain\n", now_s() - t0);
}

/* Fault injection ------------------------------------------------------------------ */

static void test_inject_dma_error(void **state)
{
    struct card *c = *state;
    map_default(c);
    card_dma_one(c, DEV_BUF, 0, 0, 64, 0);
    assert_int_equal(card_dma_wait(c), IPU_REG_DMA_STATUS_ERROR_MASK);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ERR_CAUSE), IPU_ERR_DMA_BAD_DESCRIPTOR); /* the chosen code, 12 */
    qt_reg_write(&c->pci, IPU_REG_ERR_POP, 1);
    /* One-shot: the next chain goes through, as a driver's retry would. */
    card_dma_one(c, DEV_BUF, 0, 0, 64, 0);
    assert_int_equal(card_dma_wait(c), IPU_REG_DMA_STATUS_DONE_MASK);
}

static void test_inject_removed(void **state)
{
    struct card *c = *state;
    assert_int_equal(qt_reg(&c->pci, IPU_REG_ID), 0xffffffffu);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_STATUS), 0xffffffffu);
    assert_int_equal(qt_read(c->q, c->pci.bar[IPU_BAR_TILEMEM], 8), ~0ull);
    qt_reg_write(&c->pci, IPU_REG_IRQ_MASK, 3); /* dropped */
    assert_int_equal(qt_reg(&c->pci, IPU_REG_IRQ_MASK), 0xffffffffu);
}

static void test_inject_stall_dma(void **state)
{
    struct card *c = *state;
    map_default(c);
    card_dma_one(c, DEV_BUF, 0, 0, 64, 0);
    const double t0 = now_s();
    while (now_s() - t0 < 0.5)
        assert_true(qt_reg(&c->pci, IPU_REG_DMA_STATUS) & IPU_REG_DMA_STATUS_BUSY_MASK);
    /* A reset recovers a stalled engine, as the driver's recovery does. */
    qt_reg_write(&c->pci, IPU_REG_RESET, IPU_RESET_KEY);
    assert_int_equal(qt_reg(&c->pci, IPU_REG_DMA_STATUS), 0);
}

static void dma_with_done_irq(struct card *c)
{
    qt_pci_msix_enable(&c->pci, HOST_MSI, 0x4900);
    map_default(c);
    qt_reg_write(&c->pci, IPU_REG_IRQ_MASK, IPU_REG_IRQ_STATUS_DMA_DONE_MASK);
    qt_write(c->q, HOST_MSI + 4 * IPU_IRQ_VECTOR_DONE, 4, 0);
    card_dma_one(c, DEV_BUF, 0, 0, 64, 0);
    assert_int_equal(card_dma_wait(c), IPU_REG_DMA_STATUS_DONE_MASK);
}

static void test_inject_drop_irq(void **state)
{
    struct card *c = *state;
    dma_with_done_irq(c);
    /* The message is lost; the cause is still in IRQ_STATUS for a poller. */
    assert_int_equal(qt_read(c->q, HOST_MSI + 4 * IPU_IRQ_VECTOR_DONE, 4), 0);
    assert_true(qt_reg(&c->pci, IPU_REG_IRQ_STATUS) & IPU_REG_IRQ_STATUS_DMA_DONE_MASK);
    qt_reg_write(&c->pci, IPU_REG_IRQ_STATUS, IPU_REG_IRQ_STATUS_DMA_DONE_MASK);
    dma_with_done_irq(c); /* one-shot: the next one arrives */
    assert_int_equal(qt_read(c->q, HOST_MSI + 4 * IPU_IRQ_VECTOR_DONE, 4), 0x4900 + IPU_IRQ_VECTOR_DONE);
}

static void test_inject_delay_irq(void **state)
{
    struct card *c = *state;
    dma_with_done_irq(c);
    /* Held back: DONE is visible in the registers before the message lands. */
    bool late = qt_read(c->q, HOST_MSI + 4 * IPU_IRQ_VECTOR_DONE, 4) == 0;
    uint32_t msg = 0;
    for (int i = 0; i < 30000 && !msg; i++) {
        msg = (uint32_t)qt_read(c->q, HOST_MSI + 4 * IPU_IRQ_VECTOR_DONE, 4);
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    assert_true(late);
    assert_int_equal(msg, 0x4900 + IPU_IRQ_VECTOR_DONE);
}

/* The inject-* properties are settable on a running VM through QMP's qom-set
 * (and readable with qom-get); an out-of-range value is refused by name. */
static void test_inject_qom_set(void **state)
{
    (void)state;
    char cmd[4096], out[8192] = "";
    snprintf(cmd, sizeof cmd,
             "printf '%%s\\n' '{\"execute\": \"qmp_capabilities\"}' "
             "'{\"execute\": \"qom-set\", \"arguments\": {\"path\": \"/machine/peripheral/ipu0\", "
             "\"property\": \"inject-removed\", \"value\": true}}' "
             "'{\"execute\": \"qom-get\", \"arguments\": {\"path\": \"/machine/peripheral/ipu0\", "
             "\"property\": \"inject-removed\"}}' "
             "'{\"execute\": \"qom-set\", \"arguments\": {\"path\": \"/machine/peripheral/ipu0\", "
             "\"property\": \"inject-drop-irq\", \"value\": 4096}}' "
             "'{\"execute\": \"quit\"}' | "
             "timeout 30 %s -machine q35 -accel qtest -display none -nodefaults -S -monitor none -qmp stdio "
             "-L /usr/share/qemu -L /usr/share/seabios -device ipu-card,id=ipu0,board-path=%s/boards 2>&1",
             card_qemu_path(variant), IPU_SOURCE_DIR);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    pclose(p);
    printf("%s", out);
    assert_non_null(strstr(out, "{\"return\": true}"));                        /* qom-get after qom-set */
    assert_non_null(strstr(out, "inject-drop-irq is out of range"));           /* 4096: no such vector */
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(int argc, char **argv)
{
    const char *group = argc > 1 ? argv[1] : "all";
    card_qemu_path(variant); /* exits 77 when QEMU cannot be built here */
    const struct CMUnitTest faults[] = {
        cmocka_unit_test(test_properties_range_checked),
        cmocka_unit_test(test_board_not_a_regular_file),
        T(test_xlat_entry_wrapping_refused),
        T(test_msix_to_own_bar_refused),
        cmocka_unit_test_setup_teardown(test_reset_mid_dma, setup_ipu1, teardown),
        cmocka_unit_test_setup_teardown(test_flr_mid_dma, setup_ipu1, teardown),
        cmocka_unit_test(test_sigterm_mid_dma),
    };
    const struct CMUnitTest inject[] = {
        cmocka_unit_test_setup_teardown(test_inject_dma_error, setup_dma_error, teardown),
        cmocka_unit_test_setup_teardown(test_inject_removed, setup_removed, teardown),
        cmocka_unit_test_setup_teardown(test_inject_stall_dma, setup_stall, teardown),
        cmocka_unit_test_setup_teardown(test_inject_drop_irq, setup_drop_done, teardown),
        cmocka_unit_test_setup_teardown(test_inject_delay_irq, setup_delay_done, teardown),
        cmocka_unit_test(test_inject_qom_set),
    };
    int fails = 0;
    const bool all = strcmp(group, "all") == 0;
    if (all || !strcmp(group, "faults")) fails += cmocka_run_group_tests_name("faults", faults, NULL, NULL);
    if (all || !strcmp(group, "inject")) fails += cmocka_run_group_tests_name("inject", inject, NULL, NULL);
    return fails ? 1 : 0;
}
