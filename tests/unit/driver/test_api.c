/* The whole libipudrv API on the model transport, including bad input: the
 * device must stay usable after every refused call. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ipu_card/hw.h"
#include "ipudrv/ipudrv.h"
#include "test_env.h"
#include "tile_program.h"
#include "two_processes.h"

#define SRAM IPU_TILE_SRAM_BASE
enum { ZERO = 0, T0 = 5, T1 = 6 };

static int setup(void **state)
{
    test_env_setup("tiny,model:tiny,rtl:tiny");
    ipudrv_device *dev = NULL;
    assert_int_equal(ipudrv_open(0, 0, &dev), 0);
    *state = dev;
    return 0;
}

static int teardown(void **state)
{
    assert_int_equal(ipudrv_close(*state), 0);
    return 0;
}

/* The environment of setup() with no card open: expect_two_processes_hold_cards forks, and a card's host
 * threads must not exist then (two_processes.h). */
static int setup_env_only(void **state)
{
    test_env_setup("tiny,model:tiny,rtl:tiny");
    *state = NULL;
    return 0;
}

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("expected \"%s\" in \"%s\"", part, text);
}

/* Loads `words` at SRAM on tile 0, enables only tile 0 and starts. */
static void run_program(ipudrv_device *dev, const uint32_t *words, size_t n)
{
    assert_int_equal(ipudrv_reset(dev), 0);
    assert_int_equal(ipudrv_tile_write(dev, 0, SRAM, words, n * 4), 0);
    assert_int_equal(ipudrv_tile_setup(dev, 0, SRAM, 0, 1), 0);
    assert_int_equal(ipudrv_start(dev), 0);
}

/* ---- discovery and attach ---- */

static void test_enumerate(void **state)
{
    (void)state;
    unsigned n = 0;
    assert_int_equal(ipudrv_device_count(&n), 0);
    assert_int_equal(n, 3);
    struct ipudrv_device_desc d;
    assert_int_equal(ipudrv_describe(1, &d), 0);
    assert_string_equal(d.transport, "model");
    assert_string_equal(d.board, "tiny");
    assert_string_equal(d.location, "model:tiny");
    assert_int_equal(d.available, 1);
    assert_int_equal(ipudrv_describe(2, &d), 0);
    assert_string_equal(d.transport, "rtl");
    /* Always in the table: without Verilator, opening it names the fix. */
    assert_int_equal(d.available, 1);
    /* device 0 is open in the fixture, but a simulated card is private to
     * the handle that created it: nothing holds device 0 for others */
    assert_int_equal(ipudrv_describe(0, &d), 0);
    assert_int_equal(d.holder_pid, 0);
    assert_int_equal(ipudrv_describe(99, &d), -ENODEV);
    assert_contains(ipudrv_last_error(NULL), "no device 99");
    assert_int_equal(ipudrv_describe(0, NULL), -EINVAL);
    assert_int_equal(ipudrv_device_count(NULL), -EINVAL);

    setenv("IPU_EMU_DEVICES", "tiny,,ipu2", 1);
    assert_int_equal(ipudrv_device_count(&n), -EINVAL);
    assert_contains(ipudrv_last_error(NULL), "IPU_EMU_DEVICES");
    setenv("IPU_EMU_DEVICES", "tiny,model:tiny,rtl:tiny", 1);
}

static void test_open_bad_input(void **state)
{
    (void)state;
    ipudrv_device *dev = (ipudrv_device *)0x1;
    assert_int_equal(ipudrv_open(99, 0, &dev), -ENODEV);
    assert_null(dev);
    assert_int_equal(ipudrv_open(2, 0, &dev), -ENOTSUP);
    assert_contains(ipudrv_last_error(NULL), "rtl");
    assert_int_equal(ipudrv_open(1, 0x80, &dev), -EINVAL);
    assert_int_equal(ipudrv_open(1, 0, NULL), -EINVAL);
    setenv("IPU_EMU_DEVICES", "tiny,nosuchboard", 1);
    assert_int_equal(ipudrv_open(1, 0, &dev), -ENOENT);
    assert_contains(ipudrv_last_error(NULL), "nosuchboard");
    setenv("IPU_EMU_DEVICES", "tiny,model:tiny,rtl:tiny", 1);
}

static void test_double_close_and_use_after_close(void **state)
{
    (void)state;
    ipudrv_device *dev = NULL;
    assert_int_equal(ipudrv_open(1, 0, &dev), 0);
    assert_int_equal(ipudrv_close(dev), 0);
    assert_int_equal(ipudrv_close(dev), -EBADF);
    assert_contains(ipudrv_last_error(NULL), "already closed");
    uint32_t v;
    assert_int_equal(ipudrv_reg_read(dev, IPU_REG_ID, &v), -EBADF);
    struct ipudrv_info info;
    assert_int_equal(ipudrv_get_info(dev, &info), -EBADF);
    struct ipudrv_event ev;
    assert_int_equal(ipudrv_wait(dev, 0, &ev), -EBADF);
    assert_int_equal(ipudrv_close(NULL), -EBADF);
    int not_a_device;
    assert_int_equal(ipudrv_close((ipudrv_device *)&not_a_device), -EBADF);
    /* the device can be opened again */
    assert_int_equal(ipudrv_open(1, 0, &dev), 0);
    assert_int_equal(ipudrv_close(dev), 0);
}

/* A second open of a simulated card creates a second, independent card. */
static void test_model_card_opened_twice_is_two_cards(void **state)
{
    ipudrv_device *first = *state, *second = NULL;
    assert_int_equal(ipudrv_open(0, 0, &second), 0);
    uint32_t a = 0x11111111u, b = 0x22222222u, got = 0;
    assert_int_equal(ipudrv_tile_write(first, 0, SRAM, &a, 4), 0);
    assert_int_equal(ipudrv_tile_write(second, 0, SRAM, &b, 4), 0);
    assert_int_equal(ipudrv_tile_read(first, 0, SRAM, &got, 4), 0);
    assert_int_equal(got, a);
    assert_int_equal(ipudrv_tile_read(second, 0, SRAM, &got, 4), 0);
    assert_int_equal(got, b);
    assert_int_equal(ipudrv_close(second), 0);
}

/* Issue 12: two unrelated processes that each create a model card by id
 * (same IPU_EMU_DEVICES, same lock directory) hold them at the same time. */
static int open_card_1(ipudrv_device **out)
{
    return ipudrv_open(1, 0, out);
}

static void test_two_processes_open_model_card_by_id(void **state)
{
    (void)state;
    expect_two_processes_hold_cards(open_card_1);
}

/* ---- attributes and registers ---- */

static void test_info(void **state)
{
    ipudrv_device *dev = *state;
    struct ipudrv_info in;
    assert_int_equal(ipudrv_get_info(dev, &in), 0);
    assert_int_equal(in.id, 0);
    assert_string_equal(in.transport, "model");
    assert_string_equal(in.location, "model:tiny");
    assert_string_equal(in.board.name, "tiny");
    assert_int_equal(in.num_tiles, 4);
    assert_int_equal(in.tile_mem_bytes, 65536);
    assert_int_equal(in.num_workers, 6);
    assert_int_equal(in.xlat_entries, 64);
    assert_int_equal(in.board.worker_contexts, 6);
    assert_int_equal(in.board.tile_clock_hz, 1330000000u);
    assert_string_equal(in.driver_version, IPUDRV_VERSION_STRING);
    char contract[16];
    snprintf(contract, sizeof contract, "%u.%u", IPU_CONTRACT_VERSION_MAJOR, IPU_CONTRACT_VERSION_MINOR);
    assert_string_equal(in.firmware_version, contract);
    assert_int_equal(in.state, IPU_CARD_STATE_IDLE);
    /* the model card's DMA engine pays for bulk transfers */
    assert_int_equal(in.flags & IPUDRV_INFO_WINDOW_PREFERRED, 0);
    assert_int_equal(ipudrv_get_info(dev, NULL), -EINVAL);
}

static void test_registers(void **state)
{
    ipudrv_device *dev = *state;
    uint32_t v = 0;
    assert_int_equal(ipudrv_reg_read(dev, IPU_REG_ID, &v), 0);
    assert_int_equal(v, IPU_REG_ID_RESET_VALUE);
    assert_int_equal(ipudrv_reg_read(dev, 2, &v), -EINVAL);
    assert_contains(ipudrv_last_error(dev), "not 4-byte aligned");
    assert_int_equal(ipudrv_reg_read(dev, IPU_BAR_REGS_SIZE, &v), -EINVAL);
    assert_int_equal(ipudrv_reg_read(dev, IPU_REG_ID, NULL), -EINVAL);
    assert_int_equal(ipudrv_reg_write(dev, 0x10001, 0), -EINVAL);
    assert_int_equal(ipudrv_reg_write(dev, IPU_REG_WATCHDOG_INSNS, 5), 0);
    assert_int_equal(ipudrv_reg_read(dev, IPU_REG_WATCHDOG_INSNS, &v), 0);
    assert_int_equal(v, 5);
    assert_int_equal(ipudrv_set_watchdog(dev, 0), 0);
}

/* ---- tile memory ---- */

static void fill(uint8_t *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(i * 7 + seed);
}

static void test_tile_memory(void **state)
{
    ipudrv_device *dev = *state;
    static uint8_t out[65536], in[65536];
    /* small, unaligned: the BAR2 window */
    fill(out, 37, 1);
    assert_int_equal(ipudrv_tile_write(dev, 1, SRAM + 3, out, 37), 0);
    assert_int_equal(ipudrv_tile_read(dev, 1, SRAM + 3, in, 37), 0);
    assert_memory_equal(in, out, 37);
    /* a whole tile: DMA through the staging buffer */
    fill(out, sizeof out, 2);
    assert_int_equal(ipudrv_tile_write(dev, 3, SRAM, out, sizeof out), 0);
    memset(in, 0, sizeof in);
    assert_int_equal(ipudrv_tile_read(dev, 3, SRAM, in, sizeof in), 0);
    assert_memory_equal(in, out, sizeof out);
    /* the driver's temporary entries are gone again */
    struct ipudrv_info info;
    assert_int_equal(ipudrv_get_info(dev, &info), 0);
    assert_int_equal(info.xlat_used, 0);
    assert_true(info.dma_bytes >= 2 * sizeof out);
    assert_int_equal(ipudrv_tile_read(dev, 0, SRAM, in, 0), 0);
}

static void test_tile_broadcast(void **state)
{
    ipudrv_device *dev = *state;
    static uint8_t out[20000], in[20000];
    fill(out, sizeof out, 3);
    assert_int_equal(ipudrv_tile_broadcast(dev, 1, 3, SRAM + 4096, out, sizeof out), 0);
    for (unsigned t = 1; t < 4; t++) {
        memset(in, 0, sizeof in);
        assert_int_equal(ipudrv_tile_read(dev, t, SRAM + 4096, in, sizeof in), 0);
        assert_memory_equal(in, out, sizeof out);
    }
    /* small broadcasts also go as one descriptor */
    assert_int_equal(ipudrv_tile_broadcast(dev, 0, 4, SRAM, "abc", 3), 0);
    for (unsigned t = 0; t < 4; t++) {
        assert_int_equal(ipudrv_tile_read(dev, t, SRAM, in, 3), 0);
        assert_memory_equal(in, "abc", 3);
    }
    assert_int_equal(ipudrv_tile_broadcast(dev, 2, 3, SRAM, out, 4), -EINVAL);
    assert_int_equal(ipudrv_tile_broadcast(dev, 0, 0, SRAM, out, 4), -EINVAL);
}

static void test_tile_memory_bad_input(void **state)
{
    ipudrv_device *dev = *state;
    uint8_t b[16] = {0};
    assert_int_equal(ipudrv_tile_write(dev, 4, SRAM, b, 4), -EINVAL);
    assert_contains(ipudrv_last_error(dev), "outside the card's tiles");
    assert_int_equal(ipudrv_tile_write(dev, 0, 0, b, 4), -EINVAL);
    assert_contains(ipudrv_last_error(dev), "not inside tile SRAM");
    assert_int_equal(ipudrv_tile_read(dev, 0, SRAM + 65536 - 8, b, 16), -EINVAL);
    assert_int_equal(ipudrv_tile_read(dev, 0, 0xfffffff8u, b, 16), -EINVAL);
    assert_int_equal(ipudrv_tile_write(dev, 0, SRAM, NULL, 4), -EINVAL);
    /* still usable */
    assert_int_equal(ipudrv_tile_write(dev, 0, SRAM + 65536 - 16, b, 16), 0);
}

/* ---- DMA buffers and the translation table ---- */

static void test_buffers_and_map(void **state)
{
    ipudrv_device *dev = *state;
    ipudrv_buffer *buf = NULL, *small = NULL;
    assert_int_equal(ipudrv_buffer_alloc(dev, 0, &buf), -EINVAL);
    assert_int_equal(ipudrv_buffer_alloc(dev, 4096, NULL), -EINVAL);
    assert_int_equal(ipudrv_buffer_alloc(dev, 3 * 4096 + 1, &buf), 0);
    assert_int_equal(ipudrv_buffer_size(buf), 4 * 4096);
    assert_non_null(ipudrv_buffer_ptr(buf));
    uint32_t a = 0, b = 0;
    assert_int_equal(ipudrv_map(dev, buf, 0, 4096, IPUDRV_MAP_READ, IPUDRV_MAP_ANY, &a), 0);
    assert_true(a != 0 && a % 4096 == 0);
    assert_int_equal(ipudrv_map(dev, buf, 100, 4096, IPUDRV_MAP_READ, IPUDRV_MAP_ANY, &b), -EINVAL);
    assert_contains(ipudrv_last_error(dev), "not 4 KiB aligned");
    assert_int_equal(ipudrv_map(dev, buf, 0, 4096, IPUDRV_MAP_READ, 0x20000100, &b), -EINVAL);
    assert_int_equal(ipudrv_map(dev, buf, 0, 4096, 0, IPUDRV_MAP_ANY, &b), -EINVAL);
    assert_int_equal(ipudrv_map(dev, buf, 0, 4096, 8, IPUDRV_MAP_ANY, &b), -EINVAL);
    assert_int_equal(ipudrv_map(dev, buf, 0, 0, IPUDRV_MAP_READ, IPUDRV_MAP_ANY, &b), -EINVAL);
    assert_int_equal(ipudrv_map(dev, buf, 4096, 4 * 4096, IPUDRV_MAP_READ, IPUDRV_MAP_ANY, &b), -EINVAL);
    /* overlapping device ranges */
    assert_int_equal(ipudrv_map(dev, buf, 0, 8192, IPUDRV_MAP_WRITE, 0x40000000, &b), 0);
    assert_int_equal(b, 0x40000000);
    assert_int_equal(ipudrv_map(dev, buf, 0, 4096, IPUDRV_MAP_WRITE, 0x40001000, NULL), -EEXIST);
    assert_contains(ipudrv_last_error(dev), "overlaps");
    assert_int_equal(ipudrv_map(dev, buf, 0, 4096, IPUDRV_MAP_WRITE, 0x40002000, NULL), 0);
    assert_int_equal(ipudrv_unmap(dev, 0x40002000), 0);
    assert_int_equal(ipudrv_unmap(dev, 0x40001000), -ENOENT);
    assert_int_equal(ipudrv_unmap(dev, 0x40000000), 0);
    assert_int_equal(ipudrv_unmap(dev, a), 0);
    /* 64 entries, then the table is full */
    assert_int_equal(ipudrv_buffer_alloc(dev, 4096, &small), 0);
    uint32_t addrs[64];
    for (int i = 0; i < 64; i++)
        assert_int_equal(ipudrv_map(dev, small, 0, 4096, IPUDRV_MAP_READ, IPUDRV_MAP_ANY, &addrs[i]), 0);
    struct ipudrv_info info;
    assert_int_equal(ipudrv_get_info(dev, &info), 0);
    assert_int_equal(info.xlat_used, 64);
    assert_int_equal(ipudrv_map(dev, small, 0, 4096, IPUDRV_MAP_READ, IPUDRV_MAP_ANY, NULL), -ENOSPC);
    assert_contains(ipudrv_last_error(dev), "all 64 translation entries");
    /* a full table refuses DMA chains but tile memory falls back to the window */
    uint8_t data[8192] = {1, 2, 3};
    assert_int_equal(ipudrv_tile_write(dev, 0, SRAM, data, sizeof data), 0);
    struct ipudrv_dma_xfer x = {.dev_addr = addrs[0], .tile_addr = SRAM, .length = 16};
    assert_int_equal(ipudrv_dma_run(dev, &x, 1), -ENOSPC);
    /* freeing a buffer removes its entries */
    assert_int_equal(ipudrv_buffer_free(dev, small), 0);
    assert_int_equal(ipudrv_get_info(dev, &info), 0);
    assert_int_equal(info.xlat_used, 0);
    assert_int_equal(ipudrv_buffer_free(dev, small), -EINVAL);
    assert_int_equal(ipudrv_map(dev, small, 0, 4096, IPUDRV_MAP_READ, IPUDRV_MAP_ANY, NULL), -EINVAL);
    assert_int_equal(ipudrv_buffer_free(dev, buf), 0);
}

static void test_map_oversized(void **state)
{
    ipudrv_device *dev = *state;
    ipudrv_buffer *big = NULL;
    /* untouched anonymous memory: costs no RAM */
    assert_int_equal(ipudrv_buffer_alloc(dev, IPUDRV_MAP_MAX_BYTES + 4096, &big), 0);
    assert_int_equal(ipudrv_map(dev, big, 0, IPUDRV_MAP_MAX_BYTES + 1, IPUDRV_MAP_READ, IPUDRV_MAP_ANY, NULL), -E2BIG);
    assert_contains(ipudrv_last_error(dev), "128 MiB");
    assert_int_equal(ipudrv_map(dev, big, 0, IPUDRV_MAP_MAX_BYTES, IPUDRV_MAP_READ, IPUDRV_MAP_ANY, NULL), 0);
    assert_int_equal(ipudrv_map(dev, big, 0, 4096, IPUDRV_MAP_READ, 0xfffff000u, NULL), 0);
    assert_int_equal(ipudrv_map(dev, big, 0, 8192, IPUDRV_MAP_READ, 0xfffff000u, NULL), -EINVAL);
    assert_int_equal(ipudrv_buffer_free(dev, big), 0);
}

static void test_dma_round_trip(void **state)
{
    ipudrv_device *dev = *state;
    ipudrv_buffer *buf = NULL;
    assert_int_equal(ipudrv_buffer_alloc(dev, 4 * 65536, &buf), 0);
    uint8_t *p = ipudrv_buffer_ptr(buf);
    fill(p, 2 * 65536, 9);
    uint32_t da = 0;
    assert_int_equal(ipudrv_map(dev, buf, 0, 4 * 65536, IPUDRV_MAP_READ | IPUDRV_MAP_WRITE, IPUDRV_MAP_ANY, &da), 0);
    struct ipudrv_dma_xfer to_tiles[2] = {
        {.dev_addr = da, .tile_addr = SRAM, .length = 65536, .first_tile = 0, .tile_count = 1},
        {.dev_addr = da + 65536, .tile_addr = SRAM, .length = 65536, .first_tile = 1, .tile_count = 2}};
    assert_int_equal(ipudrv_dma_run(dev, to_tiles, 2), 0);
    struct ipudrv_dma_xfer back[2] = {
        {.dev_addr = da + 2 * 65536, .tile_addr = SRAM, .length = 65536, .first_tile = 0, .to_host = 1},
        {.dev_addr = da + 3 * 65536, .tile_addr = SRAM, .length = 65536, .first_tile = 2, .to_host = 1}};
    assert_int_equal(ipudrv_dma_run(dev, back, 2), 0);
    assert_memory_equal(p + 2 * 65536, p, 2 * 65536);
    assert_int_equal(ipudrv_dma_run(dev, NULL, 1), -EINVAL);
    assert_int_equal(ipudrv_dma_run(dev, back, 0), -EINVAL);
    assert_int_equal(ipudrv_buffer_free(dev, buf), 0);
}

static void expect_record(ipudrv_device *dev, uint32_t cause)
{
    struct ipudrv_error_record rec[4];
    size_t n = 0;
    assert_int_equal(ipudrv_error_read(dev, rec, 4, &n), 0);
    assert_true(n >= 1);
    if (rec[0].cause != cause)
        fail_msg("expected error %s, got %s", ipudrv_err_name(cause), ipudrv_err_name(rec[0].cause));
    char line[256];
    assert_true(ipudrv_error_format(&rec[0], line, sizeof line) > 0);
    assert_contains(line, ipudrv_err_name(cause));
}

/* After a refused DMA the card is recoverable by a reset. */
static void expect_recovers(ipudrv_device *dev)
{
    assert_int_equal(ipudrv_reset(dev), 0);
    uint8_t b[8] = {1, 2, 3, 4, 5, 6, 7, 8}, c[8] = {0};
    assert_int_equal(ipudrv_tile_write(dev, 0, SRAM, b, 8), 0);
    assert_int_equal(ipudrv_tile_read(dev, 0, SRAM, c, 8), 0);
    assert_memory_equal(b, c, 8);
}

static void test_dma_unmapped_iova(void **state)
{
    ipudrv_device *dev = *state;
    struct ipudrv_dma_xfer x = {.dev_addr = 0x7000000, .tile_addr = SRAM, .length = 64};
    assert_int_equal(ipudrv_dma_run(dev, &x, 1), -EFAULT);
    assert_contains(ipudrv_last_error(dev), "XLAT_MISS");
    assert_contains(ipudrv_last_error(dev), "ipudrv_map");
    expect_record(dev, IPU_ERR_XLAT_MISS);
    expect_recovers(dev);
}

static void test_dma_permission_fault(void **state)
{
    ipudrv_device *dev = *state;
    ipudrv_buffer *buf = NULL;
    uint32_t da = 0;
    assert_int_equal(ipudrv_buffer_alloc(dev, 4096, &buf), 0);
    assert_int_equal(ipudrv_map(dev, buf, 0, 4096, IPUDRV_MAP_READ, IPUDRV_MAP_ANY, &da), 0);
    struct ipudrv_dma_xfer x = {.dev_addr = da, .tile_addr = SRAM, .length = 64, .to_host = 1};
    assert_int_equal(ipudrv_dma_run(dev, &x, 1), -EFAULT);
    assert_contains(ipudrv_last_error(dev), "XLAT_PERMISSION");
    expect_record(dev, IPU_ERR_XLAT_PERMISSION);
    expect_recovers(dev);
    /* the mapping survived the reset and works in its own direction */
    x.to_host = 0;
    assert_int_equal(ipudrv_dma_run(dev, &x, 1), 0);
    assert_int_equal(ipudrv_buffer_free(dev, buf), 0);
}

static void test_dma_iommu_refuses(void **state)
{
    ipudrv_device *dev = *state;
    /* A hand-made entry whose bus address is no driver buffer: the emulated IOMMU refuses it. */
    uint32_t e = IPU_REG_XLAT_BASE + 63 * IPU_REG_XLAT_STRIDE;
    assert_int_equal(ipudrv_reg_write(dev, e + IPU_XLAT_ENTRY_DEV_BASE_OFFSET, 0x80000000u), 0);
    assert_int_equal(ipudrv_reg_write(dev, e + IPU_XLAT_ENTRY_BUS_LO_OFFSET, 0x1000), 0);
    assert_int_equal(ipudrv_reg_write(dev, e + IPU_XLAT_ENTRY_BUS_HI_OFFSET, 0), 0);
    assert_int_equal(ipudrv_reg_write(dev, e + IPU_XLAT_ENTRY_CTRL_OFFSET,
                                      IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK | IPU_XLAT_CTRL_WRITE_MASK), 0);
    struct ipudrv_dma_xfer x = {.dev_addr = 0x80000000u, .tile_addr = SRAM, .length = 64, .to_host = 1};
    assert_int_equal(ipudrv_dma_run(dev, &x, 1), -EFAULT);
    expect_record(dev, IPU_ERR_XLAT_MISS);
    assert_int_equal(ipudrv_reg_write(dev, e + IPU_XLAT_ENTRY_CTRL_OFFSET, 0), 0);
    expect_recovers(dev);
}

static void test_dma_bad_descriptor(void **state)
{
    ipudrv_device *dev = *state;
    ipudrv_buffer *buf = NULL;
    uint32_t da = 0;
    assert_int_equal(ipudrv_buffer_alloc(dev, 4096, &buf), 0);
    assert_int_equal(ipudrv_map(dev, buf, 0, 4096, IPUDRV_MAP_READ, IPUDRV_MAP_ANY, &da), 0);
    struct ipudrv_dma_xfer x = {.dev_addr = da, .tile_addr = SRAM, .length = 64, .first_tile = 9};
    assert_int_equal(ipudrv_dma_run(dev, &x, 1), -EIO);
    assert_contains(ipudrv_last_error(dev), "DMA_BAD_DESCRIPTOR");
    expect_record(dev, IPU_ERR_DMA_BAD_DESCRIPTOR);
    assert_int_equal(ipudrv_buffer_free(dev, buf), 0);
    expect_recovers(dev);
}

/* ---- run control, events, console, errors, watchdog ---- */

static void test_run_exit_code(void **state)
{
    ipudrv_device *dev = *state;
    uint32_t prog[] = {gc_rv_addi(T0, ZERO, 7), gc_rv_csrrw(ZERO, IPU_CSR_EXIT, T0), GC_RV_J_SELF};
    run_program(dev, prog, 3);
    struct ipudrv_event ev;
    assert_int_equal(ipudrv_wait(dev, 5000, &ev), 0);
    assert_int_equal(ev.kind, IPUDRV_EVENT_DONE);
    struct ipudrv_tile_status st;
    assert_int_equal(ipudrv_tile_status(dev, 0, &st), 0);
    assert_int_equal(st.state, IPU_TILE_STATE_EXITED);
    assert_int_equal(st.exit_code, 7);
    assert_int_equal(st.num_contexts, 7);
    assert_int_equal(ipudrv_tile_status(dev, 1, &st), 0);
    assert_int_equal(st.state, IPU_TILE_STATE_OFF);
    assert_int_equal(ipudrv_tile_status(dev, 4, &st), -EINVAL);
    assert_int_equal(ipudrv_tile_status(dev, 0, NULL), -EINVAL);
    assert_int_equal(ipudrv_tile_setup(dev, 4, SRAM, 0, 1), -EINVAL);
    assert_int_equal(ipudrv_wait(dev, 0, NULL), -EINVAL);
    /* a DONE card starts again */
    assert_int_equal(ipudrv_start(dev), 0);
    assert_int_equal(ipudrv_wait(dev, 5000, &ev), 0);
    assert_int_equal(ev.kind, IPUDRV_EVENT_DONE);
}

/* ipudrv_open_with's trace setting reaches the card (no environment involved):
 * with trace 1 the model prints each retired instruction to stderr, with 0
 * nothing. stderr goes to a temporary file for the run. */
static void test_open_with_trace_reaches_the_card(void **state)
{
    (void)state;
    uint32_t prog[] = {gc_rv_addi(T0, ZERO, 7), gc_rv_csrrw(ZERO, IPU_CSR_EXIT, T0), GC_RV_J_SELF};
    for (int trace = 0; trace <= 1; trace++) {
        char path[] = "/tmp/ipudrv-trace-XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        fflush(stderr);
        int saved = dup(2);
        assert_true(saved >= 0 && dup2(fd, 2) == 2);
        struct ipudrv_open_params p = {.size = sizeof p, .transport = "model", .board = "tiny", .trace = trace};
        ipudrv_device *dev = NULL;
        int rc = ipudrv_open_with(&p, &dev);
        struct ipudrv_event ev = {0};
        int wait_rc = -1;
        if (rc == 0) {
            run_program(dev, prog, 3);
            wait_rc = ipudrv_wait(dev, 5000, &ev);
            ipudrv_close(dev);
        }
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        char text[4096] = "";
        ssize_t n = pread(fd, text, sizeof text - 1, 0);
        close(fd);
        unlink(path);
        text[n > 0 ? n : 0] = '\0';
        assert_int_equal(rc, 0);
        assert_int_equal(wait_rc, 0);
        assert_int_equal(ev.kind, IPUDRV_EVENT_DONE);
        if (trace)
            assert_contains(text, "tile 0 ctx 0 pc 00100000 insn");
        else if (strstr(text, "pc 00100000"))
            fail_msg("trace 0 printed a trace: %s", text);
    }
}

static void test_wait_timeout_watchdog_report(void **state)
{
    ipudrv_device *dev = *state;
    uint32_t prog[] = {GC_RV_J_SELF};
    run_program(dev, prog, 1);
    struct ipudrv_event ev;
    assert_int_equal(ipudrv_wait(dev, 100, &ev), -ETIMEDOUT);
    assert_int_equal(ev.kind, IPUDRV_EVENT_TIMEOUT);
    const char *msg = ipudrv_last_error(dev);
    assert_contains(msg, "wait timed out after 100 ms");
    assert_contains(msg, "tile 0: RUNNING c0:RUNNING@0x00100000");
    assert_contains(msg, "tile 3: OFF");
    char small[16];
    int need = ipudrv_watchdog_report(dev, small, sizeof small);
    assert_true(need > (int)sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1);
    /* bad input while running */
    uint8_t b[4] = {0};
    assert_int_equal(ipudrv_start(dev), -EBUSY);
    assert_int_equal(ipudrv_tile_write(dev, 0, SRAM, b, 4), -EBUSY);
    assert_int_equal(ipudrv_tile_setup(dev, 0, SRAM, 0, 1), -EBUSY);
    struct ipudrv_dma_xfer x = {.dev_addr = 0x1000, .tile_addr = SRAM, .length = 4};
    assert_int_equal(ipudrv_dma_run(dev, &x, 1), -EBUSY);
    assert_int_equal(ipudrv_host_sync_release(dev), -EAGAIN);
    /* halt, then the card is idle and readable */
    assert_int_equal(ipudrv_halt(dev), 0);
    assert_int_equal(ipudrv_wait(dev, 0, &ev), 0);
    assert_int_equal(ev.kind, IPUDRV_EVENT_IDLE);
    expect_recovers(dev);
}

static void test_card_watchdog(void **state)
{
    ipudrv_device *dev = *state;
    uint32_t prog[] = {GC_RV_J_SELF};
    assert_int_equal(ipudrv_reset(dev), 0);
    assert_int_equal(ipudrv_set_watchdog(dev, 1), 0);
    assert_int_equal(ipudrv_tile_write(dev, 0, SRAM, prog, 4), 0);
    assert_int_equal(ipudrv_tile_setup(dev, 0, SRAM, 0, 1), 0);
    assert_int_equal(ipudrv_start(dev), 0);
    struct ipudrv_event ev;
    assert_int_equal(ipudrv_wait(dev, 10000, &ev), 0);
    assert_int_equal(ev.kind, IPUDRV_EVENT_ERROR);
    assert_contains(ipudrv_last_error(dev), "WATCHDOG");
    assert_int_equal(ipudrv_start(dev), -EIO);
    expect_record(dev, IPU_ERR_WATCHDOG);
    assert_int_equal(ipudrv_set_watchdog(dev, 0), 0);
    expect_recovers(dev);
}

static void test_host_sync(void **state)
{
    ipudrv_device *dev = *state;
    uint32_t prog[16];
    size_t n = gc_program_sync_loop(prog, 3, 5);
    assert_int_equal(ipudrv_reset(dev), 0);
    assert_int_equal(ipudrv_tile_broadcast(dev, 0, 4, SRAM, prog, n * 4), 0);
    for (unsigned t = 0; t < 4; t++)
        assert_int_equal(ipudrv_tile_setup(dev, t, SRAM, 0, 1), 0);
    assert_int_equal(ipudrv_host_sync_release(dev), -EAGAIN);
    assert_int_equal(ipudrv_start(dev), 0);
    struct ipudrv_event ev;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(ipudrv_wait(dev, 5000, &ev), 0);
        assert_int_equal(ev.kind, IPUDRV_EVENT_HOST_SYNC);
        assert_int_equal(ev.sync_id, 5);
        /* level-triggered: still pending */
        assert_int_equal(ipudrv_wait(dev, 0, &ev), 0);
        assert_int_equal(ev.kind, IPUDRV_EVENT_HOST_SYNC);
        /* small window reads are allowed while the tiles wait, DMA is not */
        uint32_t word = 0;
        assert_int_equal(ipudrv_tile_read(dev, 2, SRAM, &word, 4), 0);
        assert_int_equal(word, prog[0]);
        struct ipudrv_dma_xfer x = {.dev_addr = 0x1000, .tile_addr = SRAM, .length = 4};
        assert_int_equal(ipudrv_dma_run(dev, &x, 1), -EBUSY);
        assert_int_equal(ipudrv_host_sync_release(dev), 0);
    }
    assert_int_equal(ipudrv_wait(dev, 5000, &ev), 0);
    assert_int_equal(ev.kind, IPUDRV_EVENT_DONE);
    assert_true(ev.card_cycles > 0);
}

/* A stream-service thread releases host syncs while the main thread waits. */
static void *releaser(void *arg)
{
    ipudrv_device *dev = arg;
    int released = 0;
    while (released < 50) {
        int rc = ipudrv_host_sync_release(dev);
        if (rc == 0)
            released++;
        else if (rc != -EAGAIN)
            return (void *)(intptr_t)rc;
    }
    return NULL;
}

static void test_host_sync_from_another_thread(void **state)
{
    ipudrv_device *dev = *state;
    uint32_t prog[16];
    size_t n = gc_program_sync_loop(prog, 50, 2);
    run_program(dev, prog, n);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, releaser, dev), 0);
    struct ipudrv_event ev;
    do
        assert_int_equal(ipudrv_wait(dev, 10000, &ev), 0);
    while (ev.kind == IPUDRV_EVENT_HOST_SYNC);
    void *result = (void *)1;
    assert_int_equal(pthread_join(th, &result), 0);
    assert_null(result);
    assert_int_equal(ev.kind, IPUDRV_EVENT_DONE);
}

static void test_console(void **state)
{
    ipudrv_device *dev = *state;
    uint32_t prog[] = {gc_rv_addi(T0, ZERO, 'h'), gc_rv_csrrw(ZERO, IPU_CSR_CONSOLE, T0), gc_rv_addi(T0, ZERO, 'i'),
                       gc_rv_csrrw(ZERO, IPU_CSR_CONSOLE, T0), gc_rv_csrrw(ZERO, IPU_CSR_EXIT, ZERO), GC_RV_J_SELF};
    run_program(dev, prog, 6);
    struct ipudrv_event ev;
    assert_int_equal(ipudrv_wait(dev, 5000, &ev), 0);
    assert_int_equal(ev.kind, IPUDRV_EVENT_DONE);
    struct ipudrv_console_byte c[8];
    size_t n = 0;
    assert_int_equal(ipudrv_console_read(dev, c, 8, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(c[0].byte, 'h');
    assert_int_equal(c[1].byte, 'i');
    assert_int_equal(c[0].tile, 0);
    assert_int_equal(ipudrv_console_read(dev, c, 8, &n), 0);
    assert_int_equal(n, 0);
    assert_int_equal(ipudrv_console_read(dev, NULL, 8, &n), -EINVAL);
    assert_int_equal(ipudrv_console_read(dev, c, 8, NULL), -EINVAL);
}

static void test_tile_fault(void **state)
{
    ipudrv_device *dev = *state;
    /* lw t0, 16(zero): a null-pointer load */
    uint32_t prog[] = {gc_rv_lw(T0, ZERO, 16), GC_RV_J_SELF};
    run_program(dev, prog, 2);
    struct ipudrv_event ev;
    assert_int_equal(ipudrv_wait(dev, 5000, &ev), 0);
    assert_int_equal(ev.kind, IPUDRV_EVENT_ERROR);
    assert_contains(ipudrv_last_error(dev), "LOAD_FAULT");
    struct ipudrv_tile_status st;
    assert_int_equal(ipudrv_tile_status(dev, 0, &st), 0);
    assert_int_equal(st.state, IPU_TILE_STATE_ERROR);
    assert_int_equal(st.err_cause, IPU_ERR_LOAD_FAULT);
    assert_int_equal(st.err_pc, SRAM);
    assert_int_equal(st.err_addr, 16);
    assert_int_equal(ipudrv_start(dev), -EIO);
    assert_contains(ipudrv_last_error(dev), "reset");
    struct ipudrv_error_record rec;
    size_t n = 0;
    assert_int_equal(ipudrv_error_read(dev, &rec, 1, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(rec.tile, 0);
    assert_int_equal(rec.pc, SRAM);
    assert_int_equal(ipudrv_error_read(dev, NULL, 1, &n), -EINVAL);
    expect_recovers(dev);
}

static void test_reset_keeps_mappings(void **state)
{
    ipudrv_device *dev = *state;
    ipudrv_buffer *buf = NULL;
    uint32_t da = 0;
    assert_int_equal(ipudrv_buffer_alloc(dev, 4096, &buf), 0);
    assert_int_equal(ipudrv_map(dev, buf, 0, 4096, IPUDRV_MAP_READ | IPUDRV_MAP_WRITE, IPUDRV_MAP_ANY, &da), 0);
    memcpy(ipudrv_buffer_ptr(buf), "mapped", 7);
    assert_int_equal(ipudrv_reset(dev), 0);
    struct ipudrv_dma_xfer x = {.dev_addr = da, .tile_addr = SRAM, .length = 7};
    assert_int_equal(ipudrv_dma_run(dev, &x, 1), 0);
    char back[8] = {0};
    assert_int_equal(ipudrv_tile_read(dev, 0, SRAM, back, 7), 0);
    assert_string_equal(back, "mapped");
    assert_int_equal(ipudrv_buffer_free(dev, buf), 0);
}

static void test_names_and_strings(void **state)
{
    (void)state;
    assert_string_equal(ipudrv_version(), IPUDRV_VERSION_STRING);
    assert_string_equal(ipudrv_card_state_name(IPU_CARD_STATE_HOST_SYNC), "HOST_SYNC");
    assert_string_equal(ipudrv_tile_state_name(IPU_TILE_STATE_SYNC_WAIT), "SYNC_WAIT");
    assert_string_equal(ipudrv_ctx_state_name(IPU_CTX_STATE_FAULTED), "FAULTED");
    assert_string_equal(ipudrv_err_name(IPU_ERR_HOST_EXCHANGE), "HOST_EXCHANGE");
    assert_string_equal(ipudrv_err_name(999), "UNKNOWN");
    assert_contains(ipudrv_strerror(-EBUSY), "in use");
    assert_contains(ipudrv_strerror(-EBADF), "closed");
    assert_non_null(ipudrv_strerror(-12345));
    assert_int_equal(ipudrv_error_format(NULL, NULL, 0), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_enumerate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_open_bad_input, setup, teardown),
        cmocka_unit_test_setup_teardown(test_double_close_and_use_after_close, setup, teardown),
        cmocka_unit_test_setup_teardown(test_model_card_opened_twice_is_two_cards, setup, teardown),
        cmocka_unit_test_setup(test_two_processes_open_model_card_by_id, setup_env_only),
        cmocka_unit_test_setup_teardown(test_info, setup, teardown),
        cmocka_unit_test_setup_teardown(test_registers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tile_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tile_broadcast, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tile_memory_bad_input, setup, teardown),
        cmocka_unit_test_setup_teardown(test_buffers_and_map, setup, teardown),
        cmocka_unit_test_setup_teardown(test_map_oversized, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dma_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dma_unmapped_iova, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dma_permission_fault, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dma_iommu_refuses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dma_bad_descriptor, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_exit_code, setup, teardown),
        cmocka_unit_test(test_open_with_trace_reaches_the_card),
        cmocka_unit_test_setup_teardown(test_wait_timeout_watchdog_report, setup, teardown),
        cmocka_unit_test_setup_teardown(test_card_watchdog, setup, teardown),
        cmocka_unit_test_setup_teardown(test_host_sync, setup, teardown),
        cmocka_unit_test_setup_teardown(test_host_sync_from_another_thread, setup, teardown),
        cmocka_unit_test_setup_teardown(test_console, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tile_fault, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_keeps_mappings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_names_and_strings, setup, teardown),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    test_env_cleanup();
    return failed;
}
