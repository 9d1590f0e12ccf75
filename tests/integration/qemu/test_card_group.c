/* qtest tests of link groups: two ipu-card devices given one link-group are the
 * two IPUs of one multi-IPU card (contract/card.toml, LINK_GROUP). Each reports
 * its index, the group and its size in BAR0 and in the LINK_CAP vendor
 * capability; each shows its own IPU's tiles; tile ids in DMA descriptors are
 * group-wide; bad groups are refused at realize, naming the fix.
 * Usage: test_qemu_card_group GROUP   (group, group_refused) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "card_fixture.h"
#include "ipu_card/hw.h"

#define GROUP_ID 7u
#define TILES_PER_IPU 4u /* the tiny board */
/* The second card's BARs, above the first's (qtest_pci.h). */
#define SECOND_BARS (QT_BAR0_ADDR + 0x400000ull)

static const char *variant = IPU_QEMU_VARIANT;

/* One QEMU with a group of two tiny IPUs; ipu[i] is the device of IPU i. */
struct group {
    struct qt *q;
    struct qt_pci_dev ipu[2];
};

static struct qt_pci_dev *find_card(struct qt *q, unsigned first, struct qt_pci_dev *dev, uint64_t bars)
{
    if (qt_pci_find_from(q, IPU_PCI_VENDOR_ID, IPU_PCI_DEVICE_ID, first, dev) != 0)
        return NULL;
    qt_pci_enable_at(dev, bars);
    return dev;
}

static int setup(void **state)
{
    static struct group g;
    char args[1024], err[512];
    memset(&g, 0, sizeof g);
    /* IPU 1 first on the command line: the group is made by whichever member comes first. */
    snprintf(args, sizeof args,
             "-device ipu-card,board-path=%s/boards,link-group=%u,ipu-index=1,ipus=2 "
             "-device ipu-card,board-path=%s/boards,link-group=%u,ipu-index=0,ipus=2",
             IPU_SOURCE_DIR, GROUP_ID, IPU_SOURCE_DIR, GROUP_ID);
    g.q = qt_start(card_qemu_path(variant), args, err, sizeof err);
    if (!g.q) {
        fprintf(stderr, "cannot start QEMU: %s\n", err);
        return -1;
    }
    struct qt_pci_dev a, b;
    if (!find_card(g.q, 0, &a, QT_BAR0_ADDR) || !find_card(g.q, a.devfn + 1, &b, SECOND_BARS)) {
        fprintf(stderr, "the two cards are not on bus 0\n");
        return -1;
    }
    /* Slots follow the command line; the index register says which IPU is which. */
    const uint32_t ia = qt_reg(&a, IPU_REG_LINK_INDEX);
    g.ipu[ia == 0 ? 0 : 1] = a;
    g.ipu[ia == 0 ? 1 : 0] = b;
    *state = &g;
    return qt_ok(g.q) ? 0 : -1;
}

static int teardown(void **state)
{
    struct group *g = *state;
    return qt_quit(g->q) == 0 ? 0 : -1;
}

static void test_group_identity(void **state)
{
    struct group *g = *state;
    for (unsigned i = 0; i < 2; i++) {
        struct qt_pci_dev *d = &g->ipu[i];
        assert_int_equal(qt_reg(d, IPU_REG_LINK_GROUP), GROUP_ID);
        assert_int_equal(qt_reg(d, IPU_REG_LINK_INDEX), i);
        assert_int_equal(qt_reg(d, IPU_REG_LINK_SIZE), 2);
        assert_int_equal(qt_reg(d, IPU_REG_NUM_IPUS), 1);
        assert_int_equal(qt_reg(d, IPU_REG_NUM_TILES), TILES_PER_IPU);
        assert_int_equal(qt_reg(d, IPU_REG_VERSION),
                         IPU_CONTRACT_VERSION_MAJOR << 16 | IPU_CONTRACT_VERSION_MINOR);
        /* The same in config space, where discovery reads it without opening the card. */
        const unsigned cap = qt_pci_find_cap(d, IPU_PCI_LINK_CAP_ID);
        assert_int_not_equal(cap, 0);
        assert_int_equal(qt_pci_cfg_read(g->q, d->devfn, cap + IPU_LINK_CAP_LENGTH_OFFSET, 1), IPU_LINK_CAP_SIZE);
        assert_int_equal(qt_pci_cfg_read(g->q, d->devfn, cap + IPU_LINK_CAP_KIND_OFFSET, 1), IPU_PCI_LINK_CAP_KIND);
        assert_int_equal(qt_pci_cfg_read(g->q, d->devfn, cap + IPU_LINK_CAP_GROUP_OFFSET, 4), GROUP_ID);
        assert_int_equal(qt_pci_cfg_read(g->q, d->devfn, cap + IPU_LINK_CAP_INDEX_OFFSET, 4), i);
        assert_int_equal(qt_pci_cfg_read(g->q, d->devfn, cap + IPU_LINK_CAP_SIZE_OFFSET, 4), 2);
    }
}

static uint64_t window_read(struct group *g, unsigned ipu, uint32_t tile, uint32_t off)
{
    qt_reg_write(&g->ipu[ipu], IPU_REG_TILEMEM_WINDOW_TILE, tile);
    return qt_read(g->q, g->ipu[ipu].bar[IPU_BAR_TILEMEM] + off, 8);
}

/* Tile memory written through IPU 1's window is IPU 1's: group-wide tile 4 + t. */
static void test_group_tile_memory(void **state)
{
    struct group *g = *state;
    const uint64_t value = 0x1122334455667788ull;
    qt_reg_write(&g->ipu[1], IPU_REG_TILEMEM_WINDOW_TILE, 2);
    qt_write(g->q, g->ipu[1].bar[IPU_BAR_TILEMEM] + 0x40, 8, value);
    /* Each member keeps its own window: IPU 0's tile 2 is another tile. */
    assert_int_equal(window_read(g, 0, 2, 0x40), 0);
    assert_int_equal(qt_read(g->q, g->ipu[1].bar[IPU_BAR_TILEMEM] + 0x40, 8), value);
    assert_int_equal(qt_reg(&g->ipu[0], IPU_REG_TILEMEM_WINDOW_TILE), 2);
    assert_int_equal(qt_reg(&g->ipu[1], IPU_REG_TILEMEM_WINDOW_TILE), 2);
    /* A tile past this IPU's is ignored (logged), not another IPU's. */
    qt_reg_write(&g->ipu[0], IPU_REG_TILEMEM_WINDOW_TILE, TILES_PER_IPU + 2);
    assert_int_equal(qt_reg(&g->ipu[0], IPU_REG_TILEMEM_WINDOW_TILE), 2);
    qt_reg_write(&g->ipu[1], IPU_REG_TILE_SEL, TILES_PER_IPU);
    assert_int_equal(qt_reg(&g->ipu[1], IPU_REG_TILE_SEL), 0);

    /* The group's DMA engine (IPU 0's function) names that tile group-wide. */
    struct card c0 = {.q = g->q, .pci = g->ipu[0]};
    card_xlat(&c0, 0, DEV_BUF, HOST_BUF, 16, IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK |
              IPU_XLAT_CTRL_WRITE_MASK);
    card_xlat(&c0, 1, DEV_DESC, HOST_DESC, 1, IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK);
    qt_write(g->q, HOST_BUF, 8, 0);
    card_dma_one(&c0, DEV_BUF, 1 * TILES_PER_IPU + 2, 0x40, 8, IPU_DMA_FLAGS_TO_HOST_MASK);
    const uint32_t st = card_dma_wait(&c0);
    if (st != IPU_REG_DMA_STATUS_DONE_MASK)
        card_print_first_error(&c0);
    assert_int_equal(st, IPU_REG_DMA_STATUS_DONE_MASK);
    assert_int_equal(qt_read(g->q, HOST_BUF, 8), value);

    /* ...and into IPU 1's tile 3 it lands where IPU 1's window shows tile 3. */
    qt_write(g->q, HOST_BUF + 0x100, 8, ~value);
    card_dma_one(&c0, DEV_BUF + 0x100, 1 * TILES_PER_IPU + 3, 0x80, 8, 0);
    assert_int_equal(card_dma_wait(&c0), IPU_REG_DMA_STATUS_DONE_MASK);
    assert_int_equal(window_read(g, 1, 3, 0x80), ~value);
    assert_int_equal(window_read(g, 0, 3, 0x80), 0);

    /* The tile registers are per member too: TILE_CTRL of IPU 1's tile 1. */
    qt_reg_write(&g->ipu[1], IPU_REG_TILE_SEL, 1);
    qt_reg_write(&g->ipu[1], IPU_REG_TILE_ENTRY, 0x1234);
    qt_reg_write(&g->ipu[0], IPU_REG_TILE_SEL, 1);
    assert_int_equal(qt_reg(&g->ipu[0], IPU_REG_TILE_ENTRY), 0);
    assert_int_equal(qt_reg(&g->ipu[1], IPU_REG_TILE_ENTRY), 0x1234);
    assert_int_equal(qt_reg(&g->ipu[1], IPU_REG_TILE_SEL), 1);
}

/* A RESET through any member resets the one shared card. */
static void test_group_reset_is_shared(void **state)
{
    struct group *g = *state;
    qt_reg_write(&g->ipu[0], IPU_REG_TILEMEM_WINDOW_TILE, 0);
    qt_write(g->q, g->ipu[0].bar[IPU_BAR_TILEMEM] + 0x10, 8, 0xabcdull);
    qt_reg_write(&g->ipu[1], IPU_REG_RESET, IPU_RESET_KEY);
    assert_int_equal(window_read(g, 0, 0, 0x10), 0);
}

static void refused(const char *devices_fmt, const char *why)
{
    char devices[2048];
    const char *b = IPU_SOURCE_DIR;
    snprintf(devices, sizeof devices, devices_fmt, b, b);
    assert_true(card_refuses(variant, devices, why));
}

#define CARD "-device ipu-card,board-path=%s/boards,"

static void test_group_refused(void **state)
{
    (void)state;
    refused(CARD "ipus=2 " CARD "ipus=2", "ipu-index=0,ipus=2 need link-group=<id>");
    refused(CARD "link-group=3,ipus=1 " CARD "link-group=3", "ipus=1 is out of range: a group has 2 to 16");
    refused(CARD "link-group=3,ipu-index=2,ipus=2 " CARD "link-group=3,ipus=2",
            "ipu-index=2 is past the group's 2 IPUs: give 0 to 1");
    refused(CARD "link-group=3,ipus=2 " CARD "link-group=3,ipus=2", "ipu-index=0 is already taken");
    refused(CARD "link-group=3,ipus=2 " CARD "link-group=3,ipu-index=1,ipus=3",
            "gives board=tiny,ipus=3,backend=model but the group was made with board=tiny,ipus=2");
    refused(CARD "link-group=3,ipus=2,board=tiny " CARD "link-group=3,ipu-index=1,ipus=2,board=ipu1",
            "gives board=ipu1");
    refused(CARD "link-group=3,ipus=4,board=tiny2 " CARD "link-group=3,ipu-index=1,ipus=4,board=tiny2",
            "board 'tiny2' has 2 IPUs but ipus=4");
}

int main(int argc, char **argv)
{
    const char *group = argc > 1 ? argv[1] : "all";
    card_qemu_path(variant); /* exits 77 when QEMU cannot be built here */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_group_identity, setup, teardown),
        cmocka_unit_test_setup_teardown(test_group_tile_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_group_reset_is_shared, setup, teardown),
    };
    const struct CMUnitTest refusals[] = {cmocka_unit_test(test_group_refused)};
    int fails = 0;
    const bool all = strcmp(group, "all") == 0;
    if (all || !strcmp(group, "group"))
        fails += cmocka_run_group_tests_name("group", tests, NULL, NULL);
    if (all || !strcmp(group, "group_refused"))
        fails += cmocka_run_group_tests_name("group_refused", refusals, NULL, NULL);
    return fails ? 1 : 0;
}
