/* The driver's rtl transport on the rtl-tiny board (the Verilator RTL card in
 * this process): it is enumerated from the board's default transport, printf
 * from every tile reaches the host tagged with its tile (plainly and in
 * lock-step with the model), and boards the RTL cannot run are refused with
 * the reason and the fix. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ipu_card/hw.h"
#include "ipu_runtime/tile_elf.h"
#include "ipudrv/ipudrv.h"
#include "rtl_test_env.h"

#define NUM_TILES 4
#define LINE_MAX_BYTES 256

static int group_setup(void **state)
{
    (void)state;
    /* Device 0 is named by its board alone, so the board's `transport = "rtl"`
     * must pick the transport; device 1 is an rv32imf board the RTL refuses. */
    setenv("IPU_EMU_DEVICES", "rtl-tiny,rtl:tiny", 1);
    return rtl_test_env_setup();
}

static int group_teardown(void **state)
{
    (void)state;
    return rtl_test_env_teardown();
}

/* Loads the tile ELF at `path` through the runtime's hardened loader (checked
 * against the card's board) onto every tile of `dev` and enables them. */
static void load_elf(ipudrv_device *dev, const struct ipu_board *board, const char *path, unsigned tiles)
{
    char err[512] = "";
    struct ipu_tile_elf *image = ipu_tile_elf_load(path, board, err, sizeof err);
    if (!image)
        fail_msg("%s (built by hostlib/poplar's rv32im tile runtime project)", err);
    for (unsigned t = 0; t < tiles; t++) {
        for (size_t i = 0; i < ipu_tile_elf_num_segments(image); i++) {
            const struct ipu_tile_elf_segment *seg = ipu_tile_elf_get_segment(image, i);
            if (ipudrv_tile_write(dev, t, seg->vaddr, seg->data, seg->memsz))
                fail_msg("loading tile %u: %s", t, ipudrv_last_error(dev));
        }
        assert_int_equal(ipudrv_tile_setup(dev, t, ipu_tile_elf_entry(image), 0, 1), 0);
    }
    ipu_tile_elf_free(image);
}

/* Runs firmware/examples/hello on every tile of device 0 and checks that each
 * tile's console says exactly "hello from tile T of 4", tagged with tile T. */
static void run_hello(void)
{
    ipudrv_device *dev = NULL;
    if (ipudrv_open(0, 0, &dev))
        fail_msg("open: %s", ipudrv_last_error(NULL));
    struct ipudrv_info info;
    assert_int_equal(ipudrv_get_info(dev, &info), 0);
    assert_int_equal(info.num_tiles, NUM_TILES);

    load_elf(dev, &info.board, HELLO_ELF, NUM_TILES);

    char line[NUM_TILES][LINE_MAX_BYTES];
    size_t len[NUM_TILES] = {0};
    unsigned lines[NUM_TILES] = {0};
    assert_int_equal(ipudrv_start(dev), 0);
    struct ipudrv_event ev = {0};
    /* Drain the console while the card runs: its FIFO is finite. */
    for (int slice = 0; slice < 1000; slice++) {
        int rc = ipudrv_wait(dev, 20, &ev);
        struct ipudrv_console_byte bytes[256];
        size_t n = 0;
        while (ipudrv_console_read(dev, bytes, 256, &n) == 0 && n > 0)
            for (size_t i = 0; i < n; i++) {
                unsigned t = bytes[i].tile;
                assert_true(t < NUM_TILES);
                if (bytes[i].byte == '\n') {
                    char want[64];
                    snprintf(want, sizeof want, "hello from tile %u of %u", t, NUM_TILES);
                    line[t][len[t]] = '\0';
                    assert_string_equal(line[t], want);
                    lines[t]++;
                    len[t] = 0;
                } else {
                    assert_true(len[t] + 1 < LINE_MAX_BYTES);
                    line[t][len[t]++] = (char)bytes[i].byte;
                }
            }
        if (rc != -ETIMEDOUT) {
            assert_int_equal(rc, 0);
            break;
        }
    }
    assert_int_equal(ev.kind, IPUDRV_EVENT_DONE);
    for (unsigned t = 0; t < NUM_TILES; t++) {
        assert_int_equal(lines[t], 1);
        assert_int_equal(len[t], 0);
        struct ipudrv_tile_status st;
        assert_int_equal(ipudrv_tile_status(dev, t, &st), 0);
        assert_int_equal(st.exit_code, 0);
    }
    assert_int_equal(ipudrv_get_info(dev, &info), 0);
    assert_int_equal(info.error_count, 0);
    assert_int_equal(info.console_lost, 0);
    assert_int_equal(ipudrv_close(dev), 0);
}

static void test_enumerated_as_rtl(void **state)
{
    (void)state;
    struct ipudrv_device_desc d;
    assert_int_equal(ipudrv_describe(0, &d), 0);
    assert_string_equal(d.transport, "rtl");
    assert_string_equal(d.board, "rtl-tiny");
    assert_string_equal(d.location, "rtl:rtl-tiny");
    assert_int_equal(d.available, 1);
}

static void test_printf_from_every_tile(void **state)
{
    (void)state;
    run_hello();
}

static void test_printf_from_every_tile_lockstep(void **state)
{
    (void)state;
    /* The model runs beside the RTL; a divergence would halt both, and the
     * tiles would then not all print and exit. */
    setenv("IPU_EMU_RTL_LOCKSTEP", "1", 1);
    run_hello();
    unsetenv("IPU_EMU_RTL_LOCKSTEP");
}

/* Issue 18: a lock-step divergence fails the run through the driver. The
 * program copies CYCLE into another register: the RTL counts real cycles, the
 * model a logical clock, so the copy's value differs (the CYCLE read itself is
 * exempt from the comparison). */
static void test_lockstep_divergence_fails_the_run(void **state)
{
    (void)state;
    setenv("IPU_EMU_RTL_LOCKSTEP", "1", 1);
    ipudrv_device *dev = NULL;
    assert_int_equal(ipudrv_open(0, 0, &dev), 0);
    const uint32_t prog[] = {
        ((uint32_t)IPU_CSR_CYCLE << 20) | (2u << 12) | (5u << 7) | 0x73, /* csrr t0, cycle */
        (5u << 15) | (6u << 7) | 0x13,                         /* addi t1, t0, 0 */
        ((uint32_t)IPU_CSR_EXIT << 20) | (1u << 12) | 0x73,              /* csrw exit, zero */
        0x0000006fu,                                           /* j . */
    };
    assert_int_equal(ipudrv_tile_write(dev, 0, IPU_TILE_SRAM_BASE, prog, sizeof prog), 0);
    assert_int_equal(ipudrv_tile_setup(dev, 0, IPU_TILE_SRAM_BASE, 0, 1), 0);
    assert_int_equal(ipudrv_start(dev), 0);
    struct ipudrv_event ev;
    assert_int_equal(ipudrv_wait(dev, 60000, &ev), 0);
    assert_int_equal(ev.kind, IPUDRV_EVENT_ERROR);
    const char *msg = ipudrv_last_error(dev);
    if (!strstr(msg, "LOCKSTEP_DIVERGENCE") || !strstr(msg, "tile 0 context 0"))
        fail_msg("expected the divergence in \"%s\"", msg);
    /* no new run until a reset; after it the card runs again */
    assert_int_equal(ipudrv_start(dev), -EIO);
    assert_int_equal(ipudrv_reset(dev), 0);
    struct ipudrv_error_record rec;
    size_t count = 1;
    assert_int_equal(ipudrv_error_read(dev, &rec, 1, &count), 0);
    assert_int_equal(count, 0);
    assert_int_equal(ipudrv_close(dev), 0);
    unsetenv("IPU_EMU_RTL_LOCKSTEP");
}

static void test_refuses_fpu_board(void **state)
{
    (void)state;
    ipudrv_device *dev = (ipudrv_device *)0x1;
    assert_int_equal(ipudrv_open(1, 0, &dev), -ENOTSUP);
    assert_null(dev);
    const char *msg = ipudrv_last_error(NULL);
    assert_non_null(strstr(msg, "rv32imf"));
    assert_non_null(strstr(msg, "rtl-tiny"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enumerated_as_rtl),
        cmocka_unit_test(test_printf_from_every_tile),
        cmocka_unit_test(test_printf_from_every_tile_lockstep),
        cmocka_unit_test(test_lockstep_divergence_fails_the_run),
        cmocka_unit_test(test_refuses_fpu_board),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
