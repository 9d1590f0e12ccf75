/* The driver's `socket` transport against ipu-board-sim (the Verilated FPGA
 * board top, its host link on a Unix socket): IPU_EMU_DEVICES=socket:/path opens
 * the card, its attributes come from its registers, tile memory round-trips
 * (unaligned edges included), and a socket nobody listens on gives an error
 * that names the socket and the command to start. */
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

static pid_t g_sim = -1;
static char g_dir[] = "/tmp/ipu-socket-XXXXXX";
static char g_path[96]; /* fits sockaddr_un.sun_path (108) */
static char g_devices[128];

static int group_setup(void **state)
{
    (void)state;
    if (!mkdtemp(g_dir))
        return -1;
    snprintf(g_path, sizeof g_path, "%s/link", g_dir);
    g_sim = fork();
    if (g_sim == 0) {
        execl(IPU_BOARD_SIM, IPU_BOARD_SIM, "--socket", g_path, (char *)NULL);
        _exit(127);
    }
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", g_path);
    for (int i = 0; i < 600; i++) {
        /* Probe for the socket file: a connection would be taken as the client. */
        if (access(g_path, F_OK) == 0)
            break;
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    snprintf(g_devices, sizeof g_devices, "socket:%s", g_path);
    setenv("IPU_EMU_DEVICES", g_devices, 1);
    return access(g_path, F_OK);
}

static int group_teardown(void **state)
{
    (void)state;
    if (g_sim > 0) {
        kill(g_sim, SIGTERM);
        waitpid(g_sim, NULL, 0);
    }
    unlink(g_path);
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
    assert_int_equal(info.num_workers, 6);
    assert_int_equal(info.state, IPU_CARD_STATE_IDLE);
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
        cmocka_unit_test(a_socket_nobody_serves_names_the_fix),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
