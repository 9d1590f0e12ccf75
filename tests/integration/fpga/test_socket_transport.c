/* The driver's `socket` transport against ipu-board-sim (the Verilated FPGA
 * board top, its host link on a Unix socket): IPU_EMU_DEVICES=socket:/path opens
 * the card, its attributes come from its registers, tile memory round-trips
 * (unaligned edges included), the icebreaker card (no descriptor chains:
 * CAPS.DMA = 0) refuses a DMA chain with the fix, the rtl-tiny card's DMA engine
 * (card 1) reaches host memory over the link (DMA_REQ/DMA_DATA) both ways, a DMA
 * to host memory that does not exist is recorded as a miss with the card still
 * usable, and a socket nobody listens on gives an error that names the socket
 * and the command to start. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "ipu_card/hw.h"
#include "ipudrv/ipudrv.h"

static pid_t g_sim = -1, g_sim_tiny = -1;
static char g_dir[] = "/tmp/ipu-socket-XXXXXX";
static char g_path[96]; /* fits sockaddr_un.sun_path (108) */
static char g_path_tiny[96];
static char g_devices[256];

/* Card 0: icebreaker (no DMA chains); card 1: rtl-tiny (DMA chains). */
enum { kIcebreaker = 0, kTiny = 1 };

static pid_t start_sim(const char *board, const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        execl(IPU_BOARD_SIM, IPU_BOARD_SIM, "--board", board, "--socket", path, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 600; i++) {
        /* Probe for the socket file: a connection would be taken as the client. */
        if (access(path, F_OK) == 0)
            break;
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return pid;
}

static int group_setup(void **state)
{
    (void)state;
    if (!mkdtemp(g_dir))
        return -1;
    snprintf(g_path, sizeof g_path, "%s/link", g_dir);
    snprintf(g_path_tiny, sizeof g_path_tiny, "%s/tiny", g_dir);
    g_sim = start_sim("icebreaker", g_path);
    g_sim_tiny = start_sim("rtl-tiny", g_path_tiny);
    snprintf(g_devices, sizeof g_devices, "socket:%s,socket:%s", g_path, g_path_tiny);
    setenv("IPU_EMU_DEVICES", g_devices, 1);
    return access(g_path, F_OK) || access(g_path_tiny, F_OK);
}

static int group_teardown(void **state)
{
    (void)state;
    if (g_sim > 0) {
        kill(g_sim, SIGTERM);
        waitpid(g_sim, NULL, 0);
    }
    if (g_sim_tiny > 0) {
        kill(g_sim_tiny, SIGTERM);
        waitpid(g_sim_tiny, NULL, 0);
    }
    unlink(g_path);
    unlink(g_path_tiny);
    rmdir(g_dir);
    return 0;
}

static void opens_and_reports_the_board_shape(void **state)
{
    (void)state;
    ipudrv_device *dev = NULL;
    assert_int_equal(ipudrv_open(0, 0, &dev), 0);
    struct ipudrv_info info;
    assert_int_equal(ipudrv_get_info(dev, &info), 0);
    assert_string_equal(info.transport, "socket");
    assert_int_equal(info.num_tiles, 1);
    assert_int_equal(info.tile_mem_bytes, 65536);
    assert_int_equal(info.num_workers, 2); /* boards/icebreaker.toml */
    assert_int_equal(info.state, IPU_CARD_STATE_IDLE);
    /* each DMA word is a link round trip: loaders use the window */
    assert_int_equal(info.flags, IPUDRV_INFO_WINDOW_PREFERRED);
    assert_int_equal(ipudrv_close(dev), 0);
}

static void tile_memory_round_trips(void **state)
{
    (void)state;
    ipudrv_device *dev = NULL;
    assert_int_equal(ipudrv_open(0, 0, &dev), 0);
    uint8_t out[23], in[23];
    for (unsigned i = 0; i < sizeof out; i++)
        out[i] = (uint8_t)(0x40 + i * 7);
    /* Starts and ends mid-word: the transport merges the partial words. */
    const uint32_t addr = IPU_TILE_SRAM_BASE + 0x203;
    assert_int_equal(ipudrv_tile_write(dev, 0, addr, out, sizeof out), 0);
    memset(in, 0, sizeof in);
    assert_int_equal(ipudrv_tile_read(dev, 0, addr, in, sizeof in), 0);
    assert_memory_equal(in, out, sizeof out);
    /* The bytes around the write are untouched (the SRAM was cleared at reset). */
    uint8_t edge[2] = {0xff, 0xff};
    assert_int_equal(ipudrv_tile_read(dev, 0, addr - 1, edge, 1), 0);
    assert_int_equal(ipudrv_tile_read(dev, 0, addr + sizeof out, edge + 1, 1), 0);
    assert_int_equal(edge[0], 0);
    assert_int_equal(edge[1], 0);
    assert_int_equal(ipudrv_close(dev), 0);
}

/* Bytes out to the tile by DMA, back into another part of the buffer by DMA:
 * every DMA word crosses the link as a DMA_REQ and its DMA_DATA. Sizes and
 * offsets that are not whole words take the engine's byte path. */
static void dma_round_trips_over_the_link(void **state)
{
    (void)state;
    ipudrv_device *dev = NULL;
    assert_int_equal(ipudrv_open(kTiny, 0, &dev), 0);
    ipudrv_buffer *buf = NULL;
    assert_int_equal(ipudrv_buffer_alloc(dev, 8192, &buf), 0);
    uint8_t *p = ipudrv_buffer_ptr(buf);
    for (unsigned i = 0; i < 4096; i++)
        p[i] = (uint8_t)(i * 13 + 5);
    uint32_t da = 0;
    assert_int_equal(ipudrv_map(dev, buf, 0, 8192, IPUDRV_MAP_READ | IPUDRV_MAP_WRITE, IPUDRV_MAP_ANY, &da), 0);
    const uint32_t sram = IPU_TILE_SRAM_BASE + 0x4000;
    struct ipudrv_dma_xfer out[2] = {
        {.dev_addr = da, .tile_addr = sram, .length = 96, .first_tile = 0, .tile_count = 1},
        {.dev_addr = da + 101, .tile_addr = sram + 101, .length = 7, .first_tile = 0, .tile_count = 1}};
    assert_int_equal(ipudrv_dma_run(dev, out, 2), 0);
    uint8_t seen[108];
    assert_int_equal(ipudrv_tile_read(dev, 0, sram, seen, sizeof seen), 0);
    assert_memory_equal(seen, p, 96);
    assert_memory_equal(seen + 101, p + 101, 7);
    struct ipudrv_dma_xfer back = {.dev_addr = da + 4096, .tile_addr = sram, .length = 96, .first_tile = 0,
                                   .tile_count = 1, .to_host = 1};
    assert_int_equal(ipudrv_dma_run(dev, &back, 1), 0);
    assert_memory_equal(p + 4096, p, 96);
    assert_int_equal(ipudrv_buffer_free(dev, buf), 0);
    assert_int_equal(ipudrv_close(dev), 0);
}

/* A translation entry whose host memory is gone: the host answers the card's
 * DMA_REQ with "refused", the card records a translation miss, and the next
 * DMA on the same handle works. */
static void dma_to_missing_host_memory_is_a_recorded_miss(void **state)
{
    (void)state;
    ipudrv_device *dev = NULL;
    assert_int_equal(ipudrv_open(kTiny, 0, &dev), 0);
    /* The card's table points at a bus address the host never gave out: install it by hand. */
    const uint32_t entry = IPU_REG_XLAT_BASE + 63 * IPU_REG_XLAT_STRIDE;
    assert_int_equal(ipudrv_reg_write(dev, entry + IPU_XLAT_ENTRY_DEV_BASE_OFFSET, 0x40000000u), 0);
    assert_int_equal(ipudrv_reg_write(dev, entry + IPU_XLAT_ENTRY_BUS_LO_OFFSET, 0x00005000u), 0);
    assert_int_equal(ipudrv_reg_write(dev, entry + IPU_XLAT_ENTRY_BUS_HI_OFFSET, 0x7u), 0);
    assert_int_equal(ipudrv_reg_write(dev, entry + IPU_XLAT_ENTRY_CTRL_OFFSET,
                                      IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK), 0);
    struct ipudrv_dma_xfer x = {.dev_addr = 0x40000000u, .tile_addr = IPU_TILE_SRAM_BASE, .length = 16,
                                .first_tile = 0, .tile_count = 1};
    assert_true(ipudrv_dma_run(dev, &x, 1) < 0);
    struct ipudrv_error_record rec[4];
    size_t n = 0;
    assert_int_equal(ipudrv_error_read(dev, rec, 4, &n), 0);
    assert_true(n >= 1);
    assert_int_equal(rec[0].cause, IPU_ERR_XLAT_MISS);
    assert_int_equal(ipudrv_reg_write(dev, entry + IPU_XLAT_ENTRY_CTRL_OFFSET, 0), 0);
    assert_int_equal(ipudrv_reset(dev), 0);
    assert_int_equal(ipudrv_close(dev), 0);
    dma_round_trips_over_the_link(state);
}

/* The icebreaker card has no room for descriptor chains: CAPS.DMA reads 0, the
 * driver refuses a chain with the fix, and tile memory still round-trips (the
 * window; the tiles' host exchanges keep the DMA engine's host-memory path). */
static void dma_chain_is_refused_without_a_dma_engine(void **state)
{
    (void)state;
    ipudrv_device *dev = NULL;
    assert_int_equal(ipudrv_open(kIcebreaker, 0, &dev), 0);
    uint32_t caps = 0;
    assert_int_equal(ipudrv_reg_read(dev, IPU_REG_CAPS, &caps), 0);
    assert_int_equal(caps & IPU_REG_CAPS_DMA_MASK, 0);
    ipudrv_buffer *buf = NULL;
    assert_int_equal(ipudrv_buffer_alloc(dev, 4096, &buf), 0);
    uint32_t da = 0;
    assert_int_equal(ipudrv_map(dev, buf, 0, 4096, IPUDRV_MAP_READ | IPUDRV_MAP_WRITE, IPUDRV_MAP_ANY, &da), 0);
    struct ipudrv_dma_xfer x = {.dev_addr = da, .tile_addr = IPU_TILE_SRAM_BASE, .length = 64, .first_tile = 0,
                                .tile_count = 1};
    assert_int_equal(ipudrv_dma_run(dev, &x, 1), -EOPNOTSUPP);
    assert_non_null(strstr(ipudrv_last_error(dev), "no DMA engine (CAPS.DMA = 0): use the tile window"));
    uint8_t out[300], in[300];
    for (unsigned i = 0; i < sizeof out; i++)
        out[i] = (uint8_t)(i * 3 + 1);
    assert_int_equal(ipudrv_tile_write(dev, 0, IPU_TILE_SRAM_BASE + 0x800, out, sizeof out), 0);
    assert_int_equal(ipudrv_tile_read(dev, 0, IPU_TILE_SRAM_BASE + 0x800, in, sizeof in), 0);
    assert_memory_equal(in, out, sizeof out);
    assert_int_equal(ipudrv_buffer_free(dev, buf), 0);
    assert_int_equal(ipudrv_close(dev), 0);
}

static void a_socket_nobody_serves_names_the_fix(void **state)
{
    (void)state;
    char devices[160];
    snprintf(devices, sizeof devices, "socket:%s/nobody", g_dir);
    setenv("IPU_EMU_DEVICES", devices, 1);
    ipudrv_device *dev = NULL;
    assert_true(ipudrv_open(0, 0, &dev) < 0);
    const char *msg = ipudrv_last_error(NULL);
    assert_non_null(strstr(msg, "ipu-board-sim --socket"));
    setenv("IPU_EMU_DEVICES", g_devices, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(opens_and_reports_the_board_shape),
        cmocka_unit_test(tile_memory_round_trips),
        cmocka_unit_test(dma_round_trips_over_the_link),
        cmocka_unit_test(dma_to_missing_host_memory_is_a_recorded_miss),
        cmocka_unit_test(dma_chain_is_refused_without_a_dma_engine),
        cmocka_unit_test(a_socket_nobody_serves_names_the_fix),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
