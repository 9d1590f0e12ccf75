/* Link groups in the driver without a card: discovery groups PCI functions by
 * their LINK_CAP capability (a fake sysfs tree with config-space files), lists
 * one card per group by IPU 0's slot, and opening refuses incomplete or
 * inconsistent groups and a member other than IPU 0, naming the fix; the group
 * transport routes tile accesses by IPU (fake member transports). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "internal.h"
#include "link_group.h"
#include "test_env.h"

static char root[128];
static char devices[256];

static void write_file(const char *dir, const char *name, const void *data, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* An ipu-emu function; with group != 0 its config space has a PCIe capability
 * then LINK_CAP, as the QEMU device has. `config_len` 64 is what a non-root
 * reader gets from sysfs. */
static void fake_card(const char *slot, uint32_t group, uint32_t index, uint32_t size, size_t config_len)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/%s", devices, slot);
    assert_int_equal(mkdir(dir, 0700), 0);
    write_file(dir, "vendor", "0x1234\n", 7);
    write_file(dir, "device", "0x11e9\n", 7);
    uint8_t cfg[256] = {0x34, 0x12, 0xe9, 0x11};
    cfg[0x06] = 0x10;         /* capability list */
    cfg[0x34] = 0x40;
    cfg[0x40] = 0x10;         /* PCIe */
    cfg[0x41] = group ? 0x80 : 0;
    if (group) {
        uint8_t *c = cfg + 0x80;
        c[IPU_LINK_CAP_CAP_ID_OFFSET] = IPU_PCI_LINK_CAP_ID;
        c[IPU_LINK_CAP_LENGTH_OFFSET] = IPU_LINK_CAP_SIZE;
        c[IPU_LINK_CAP_KIND_OFFSET] = IPU_PCI_LINK_CAP_KIND;
        put32(c + IPU_LINK_CAP_GROUP_OFFSET, group);
        put32(c + IPU_LINK_CAP_INDEX_OFFSET, index);
        put32(c + IPU_LINK_CAP_SIZE_OFFSET, size);
    }
    write_file(dir, "config", cfg, config_len);
}

static int make_tree(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/ipudrv-group-XXXXXX");
    assert_non_null(mkdtemp(root));
    snprintf(devices, sizeof devices, "%s/devices", root);
    assert_int_equal(mkdir(devices, 0700), 0);
    fake_card("0000:00:03.0", 5, 1, 2, 256); /* group 5: IPU 1 on the lower slot */
    fake_card("0000:00:04.0", 0, 0, 0, 256); /* a card of its own */
    fake_card("0000:00:05.0", 5, 0, 2, 256);
    fake_card("0000:00:06.0", 9, 0, 2, 256); /* group 9: IPU 1 missing */
    fake_card("0000:00:07.0", 11, 0, 2, 256); /* group 11: sizes differ */
    fake_card("0000:00:08.0", 11, 1, 3, 256);
    fake_card("0000:00:09.0", 13, 0, 2, 256); /* group 13: index 0 twice */
    fake_card("0000:00:0a.0", 13, 0, 2, 256);
    fake_card("0000:00:0b.0", 5, 1, 2, 64);  /* unreadable past the header: a card of its own */
    test_env_setup("");
    setenv("IPU_EMU_PCI_ROOT", devices, 1);
    return 0;
}

static int remove_tree(void **state)
{
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    test_env_cleanup();
    return system(cmd) == 0 ? 0 : -1;
}

static void test_link_cap_read(void **state)
{
    (void)state;
    struct ipudrv_link_cap cap;
    assert_int_equal(ipudrv_pci_link_cap(devices, "0000:00:03.0", &cap), 1);
    assert_int_equal(cap.group, 5);
    assert_int_equal(cap.index, 1);
    assert_int_equal(cap.size, 2);
    assert_int_equal(ipudrv_pci_link_cap(devices, "0000:00:04.0", &cap), 0);
    assert_int_equal(ipudrv_pci_link_cap(devices, "0000:00:0b.0", &cap), 0);
    assert_int_equal(ipudrv_pci_link_cap(devices, "0000:00:ff.0", &cap), 0);
}

/* One card per group, in the place of its first slot, named by IPU 0's slot. */
static void test_discovery_groups(void **state)
{
    (void)state;
    struct ipudrv_node n[16];
    size_t count = 0;
    char err[256] = "";
    assert_int_equal(ipudrv_discover_at("", devices, n, 16, &count, err, sizeof err), 0);
    const char *want[] = {"0000:00:05.0", "0000:00:04.0", "0000:00:06.0", "0000:00:07.0", "0000:00:09.0",
                          "0000:00:0b.0"};
    assert_int_equal(count, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < count; i++) {
        assert_string_equal(n[i].location, want[i]);
        assert_string_equal(n[i].transport, "vfio");
        assert_int_equal(n[i].id, i);
    }
}

static void test_members(void **state)
{
    (void)state;
    struct ipudrv_link_members m;
    char err[512] = "";
    assert_int_equal(ipudrv_pci_link_members(devices, "0000:00:03.0", &m, err, sizeof err), 0);
    assert_int_equal(m.group, 5);
    assert_int_equal(m.size, 2);
    assert_string_equal(m.slot[0], "0000:00:05.0");
    assert_string_equal(m.slot[1], "0000:00:03.0");

    assert_int_equal(ipudrv_pci_link_members(devices, "0000:00:06.0", &m, err, sizeof err), -ENODEV);
    assert_non_null(strstr(err, "link group 9 is incomplete: IPU 1 of its 2 is missing"));
    assert_non_null(strstr(err, "link-group=9,ipu-index=1,ipus=2"));
    assert_int_equal(ipudrv_pci_link_members(devices, "0000:00:07.0", &m, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "link group 11 is inconsistent: 0000:00:07.0 says 2 IPUs, 0000:00:08.0 says 3"));
    assert_int_equal(ipudrv_pci_link_members(devices, "0000:00:09.0", &m, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "link group 13 is inconsistent"));
    assert_non_null(strstr(err, "it is IPU 0, as does"));
    assert_int_equal(ipudrv_pci_link_members(devices, "0000:00:04.0", &m, err, sizeof err), -EINVAL);
}

static int open_slot(const char *slot, ipudrv_device **dev)
{
    struct ipudrv_open_params p = {.size = sizeof p, .transport = "vfio", .location = slot,
                                   .lock_policy = IPUDRV_LOCK_TRY};
    return ipudrv_open_with(&p, dev);
}

/* Opening refuses what discovery could not make one card of, before VFIO. */
static void test_open_refused(void **state)
{
    (void)state;
    ipudrv_device *dev = NULL;
    assert_int_equal(open_slot("0000:00:06.0", &dev), -ENODEV);
    assert_null(dev);
    assert_non_null(strstr(ipudrv_last_error(NULL), "IPU 1 of its 2 is missing"));
    assert_int_equal(open_slot("0000:00:08.0", &dev), -EINVAL);
    assert_non_null(strstr(ipudrv_last_error(NULL), "link group 11 is inconsistent"));
    assert_int_equal(open_slot("0000:00:03.0", &dev), -EINVAL);
    assert_non_null(strstr(ipudrv_last_error(NULL),
                           "0000:00:03.0 is IPU 1 of link group 5; open the group by IPU 0's slot 0000:00:05.0"));
}

/* A fake member transport: a register file per member, so that the routing of
 * the group transport can be checked without VFIO. Slot 0000:00:05.0 is IPU 0
 * of group 5 and 0000:00:03.0 IPU 1 (make_tree), each a tiny IPU. */
struct fake {
    struct ipudrv_transport base;
    unsigned index;
    uint32_t regs[0x2000 / 4];
    uint32_t window_tile_read; /* TILEMEM_WINDOW_TILE at the last window read */
    unsigned window_reads;
};
static struct fake *fakes[2];
static const struct ipudrv_transport_ops fake_ops;
static uint32_t fake_extra_caps; /* CAPS bits IPU 1 adds */

static int fake_open(const struct ipudrv_node *node, const struct ipu_board *board, struct ipudrv_transport **out,
                     char *err, size_t err_len)
{
    (void)board, (void)err, (void)err_len;
    struct fake *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->base.ops = &fake_ops;
    f->index = strcmp(node->location, "0000:00:05.0") == 0 ? 0 : 1;
    const struct { uint32_t reg, value; } init[] = {
        {IPU_REG_ID, IPU_REG_ID_RESET_VALUE}, {IPU_REG_VERSION, IPU_REG_VERSION_RESET_VALUE},
        {IPU_REG_NUM_TILES, 4}, {IPU_REG_TILE_MEM_BYTES, 65536}, {IPU_REG_NUM_WORKERS, 6},
        {IPU_REG_CAPS, IPU_REG_CAPS_FPU_MASK | IPU_REG_CAPS_DMA_MASK}, {IPU_REG_TILE_CLOCK_KHZ, 1330000},
        {IPU_REG_XLAT_ENTRIES, 64}, {IPU_REG_NUM_IPUS, 1}, {IPU_REG_LINK_GROUP, 5},
        {IPU_REG_LINK_INDEX, f->index}, {IPU_REG_LINK_SIZE, 2},
    };
    for (size_t i = 0; i < sizeof init / sizeof init[0]; i++)
        f->regs[init[i].reg / 4] = init[i].value;
    if (f->index == 1)
        f->regs[IPU_REG_CAPS / 4] |= fake_extra_caps;
    fakes[f->index] = f;
    *out = &f->base;
    return 0;
}

static void fake_close(struct ipudrv_transport *t)
{
    struct fake *f = (struct fake *)t;
    fakes[f->index] = NULL;
    free(f);
}

static int fake_reg_read(struct ipudrv_transport *t, uint32_t offset, uint32_t *value)
{
    *value = ((struct fake *)t)->regs[offset / 4];
    return 0;
}

static int fake_reg_write(struct ipudrv_transport *t, uint32_t offset, uint32_t value)
{
    struct fake *f = (struct fake *)t;
    /* Identity registers are read-only, as on the card. */
    if (offset >= IPU_REG_RESET)
        f->regs[offset / 4] = value;
    return 0;
}

static int fake_window_read(struct ipudrv_transport *t, uint32_t offset, void *buf, size_t len)
{
    struct fake *f = (struct fake *)t;
    (void)offset;
    f->window_tile_read = f->regs[IPU_REG_TILEMEM_WINDOW_TILE / 4];
    f->window_reads++;
    memset(buf, (int)f->index, len);
    return 0;
}

static int fake_window_write(struct ipudrv_transport *t, uint32_t offset, const void *buf, size_t len)
{
    (void)t, (void)offset, (void)buf, (void)len;
    return 0;
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
    (void)t, (void)max_ms;
    return 0;
}

static const struct ipudrv_transport_ops fake_ops = {
    .name = "fake", .open = fake_open, .close = fake_close, .reg_read = fake_reg_read,
    .reg_write = fake_reg_write, .window_read = fake_window_read, .window_write = fake_window_write,
    .mem_alloc = fake_mem_alloc, .mem_free = fake_mem_free, .progress = fake_progress,
};

static uint32_t reg(unsigned ipu, uint32_t offset)
{
    return fakes[ipu]->regs[offset / 4];
}

/* Group-wide tile g is tile g % 4 of IPU g / 4; the card-wide registers are IPU 0's. */
static void test_group_routing(void **state)
{
    (void)state;
    ipudrv_group_member_ops = &fake_ops;
    struct ipudrv_node node = {.transport = "vfio", .location = "0000:00:05.0"};
    struct ipudrv_transport *t = NULL;
    char err[512] = "";
    assert_int_equal(ipudrv_transport_group.open(&node, NULL, &t, err, sizeof err), 0);
    uint32_t v = 0;
    assert_int_equal(t->ops->reg_read(t, IPU_REG_NUM_TILES, &v), 0);
    assert_int_equal(v, 8);
    assert_int_equal(t->ops->reg_read(t, IPU_REG_NUM_IPUS, &v), 0);
    assert_int_equal(v, 2);

    assert_int_equal(t->ops->reg_write(t, IPU_REG_TILE_SEL, 6), 0);
    assert_int_equal(reg(1, IPU_REG_TILE_SEL), 2);
    assert_int_equal(t->ops->reg_write(t, IPU_REG_TILE_ENTRY, 0x1234), 0);
    assert_int_equal(reg(1, IPU_REG_TILE_ENTRY), 0x1234);
    assert_int_equal(reg(0, IPU_REG_TILE_ENTRY), 0);
    assert_int_equal(t->ops->reg_read(t, IPU_REG_TILE_SEL, &v), 0);
    assert_int_equal(v, 6);
    assert_int_equal(t->ops->reg_write(t, IPU_REG_TILE_SEL, 1), 0);
    assert_int_equal(reg(0, IPU_REG_TILE_SEL), 1);
    assert_int_equal(t->ops->reg_write(t, IPU_REG_TILE_CTX_SEL, 3), 0);
    assert_int_equal(reg(0, IPU_REG_TILE_CTX_SEL), 3);
    assert_int_equal(reg(1, IPU_REG_TILE_CTX_SEL), 3);

    uint8_t buf[4];
    assert_int_equal(t->ops->reg_write(t, IPU_REG_TILEMEM_WINDOW_TILE, 7), 0);
    assert_int_equal(t->ops->window_read(t, 0, buf, sizeof buf), 0);
    assert_int_equal(fakes[1]->window_reads, 1);
    assert_int_equal(fakes[1]->window_tile_read, 3);
    assert_int_equal(buf[0], 1);
    assert_int_equal(fakes[0]->window_reads, 0);

    assert_int_equal(t->ops->reg_write(t, IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK), 0);
    assert_int_equal(reg(0, IPU_REG_RUN_CTRL), IPU_REG_RUN_CTRL_START_MASK);
    assert_int_equal(reg(1, IPU_REG_RUN_CTRL), 0);
    t->ops->close(t);
    assert_null(fakes[0]);
    assert_null(fakes[1]);
    ipudrv_group_member_ops = &ipudrv_transport_vfio;
}

/* Through the public API the group is one card of 2 IPUs: the tiny2 board. */
static void test_group_is_one_card(void **state)
{
    (void)state;
    ipudrv_group_member_ops = &fake_ops;
    ipudrv_device *dev = NULL;
    assert_int_equal(open_slot("0000:00:05.0", &dev), 0);
    struct ipudrv_info info;
    assert_int_equal(ipudrv_get_info(dev, &info), 0);
    assert_int_equal(info.num_tiles, 8);
    assert_int_equal(info.board.num_ipus, 2);
    assert_int_equal(info.board.tiles_per_ipu, 4);
    assert_string_equal(info.board.name, "tiny2");
    assert_string_equal(info.location, "0000:00:05.0");
    assert_int_equal(ipudrv_close(dev), 0);
    ipudrv_group_member_ops = &ipudrv_transport_vfio;
}

/* A host-serviced card has no fabric to another IPU: the group is refused, naming why. */
static void test_group_refuses_host_service(void **state)
{
    (void)state;
    ipudrv_group_member_ops = &fake_ops;
    fake_extra_caps = IPU_REG_CAPS_HOST_SERVICE_MASK;
    struct ipudrv_node node = {.transport = "vfio", .location = "0000:00:05.0"};
    struct ipudrv_transport *t = NULL;
    char err[512] = "";
    assert_int_equal(ipudrv_transport_group.open(&node, NULL, &t, err, sizeof err), -EINVAL);
    assert_null(t);
    assert_non_null(strstr(err, "HOST_SERVICE"));
    assert_non_null(strstr(err, "0000:00:03.0"));
    assert_null(fakes[0]);
    assert_null(fakes[1]);
    fake_extra_caps = 0;
    ipudrv_group_member_ops = &ipudrv_transport_vfio;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_link_cap_read),
        cmocka_unit_test(test_group_refuses_host_service),
        cmocka_unit_test(test_discovery_groups),
        cmocka_unit_test(test_members),
        cmocka_unit_test(test_open_refused),
        cmocka_unit_test(test_group_routing),
        cmocka_unit_test(test_group_is_one_card),
    };
    return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
