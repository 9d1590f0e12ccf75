/* Issue 18's driver findings: a DMA that runs past the end of its buffer's
 * mapping is refused (it used to read the next mapping, the driver's own
 * descriptor chain), and every refused call of the public API leaves an error
 * text that names the problem (ipudrv_wait(dev, 0, NULL) used to leave none). */
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
#include "ipudrv/ipudrv.h"
#include "test_env.h"

#define SRAM IPU_TILE_SRAM_BASE

static int setup(void **state)
{
    test_env_setup("tiny");
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

/* Leaves an error text that no check below looks for, so that a call that
 * fails without setting its own text cannot pass on a stale one. */
static void clear_text(ipudrv_device *dev)
{
    struct ipudrv_tile_status st;
    struct ipudrv_device_desc d;
    if (dev)
        assert_int_equal(ipudrv_tile_status(dev, 12345, &st), -EINVAL);
    else
        assert_int_equal(ipudrv_describe(12345, &d), -ENODEV);
    assert_non_null(strstr(ipudrv_last_error(dev), "12345"));
}

/* A refused call: the code, and an error text (of the handle, or of the
 * thread when dev is NULL) that contains `part`. */
#define EXPECT_REFUSED(dev, call, code, part)                                                                         \
    do {                                                                                                             \
        clear_text(dev);                                                                                             \
        int rc_ = (call);                                                                                            \
        const char *text_ = ipudrv_last_error(dev);                                                                  \
        if (rc_ != (code))                                                                                           \
            fail_msg("%s returned %d, expected %d (text: %s)", #call, rc_, (code), text_);                         \
        if (!text_[0] || !strstr(text_, (part)))                                                                     \
            fail_msg("%s: expected \"%s\" in the error text \"%s\"", #call, (part), text_);                        \
    } while (0)

static void test_dma_past_the_end_of_its_mapping_is_refused(void **state)
{
    ipudrv_device *dev = *state;
    ipudrv_buffer *buf = NULL;
    assert_int_equal(ipudrv_buffer_alloc(dev, 8192, &buf), 0);
    memset(ipudrv_buffer_ptr(buf), 0x5a, 8192);
    uint32_t da = 0;
    /* only the first page of the buffer is mapped */
    assert_int_equal(ipudrv_map(dev, buf, 0, 4096, IPUDRV_MAP_READ | IPUDRV_MAP_WRITE, IPUDRV_MAP_ANY, &da), 0);
    struct ipudrv_dma_xfer x = {.dev_addr = da + 4000, .tile_addr = SRAM, .length = 200};
    assert_int_equal(ipudrv_dma_run(dev, &x, 1), -EINVAL);
    const char *text = ipudrv_last_error(dev);
    assert_non_null(strstr(text, "transfer 0"));
    assert_non_null(strstr(text, "104 bytes past the end of its mapping"));
    assert_non_null(strstr(text, "offset 0x0 size 4096"));
    /* the same from the tile side, second transfer of a chain */
    struct ipudrv_dma_xfer two[2] = {{.dev_addr = da, .tile_addr = SRAM, .length = 16},
                                     {.dev_addr = da, .tile_addr = SRAM, .length = 4097, .to_host = 1}};
    assert_int_equal(ipudrv_dma_run(dev, two, 2), -EINVAL);
    assert_non_null(strstr(ipudrv_last_error(dev), "transfer 1 (tile to host, 4097 bytes"));
    /* the whole mapping, to its last byte, is fine; the card stays usable */
    x.dev_addr = da;
    x.length = 4096;
    assert_int_equal(ipudrv_dma_run(dev, &x, 1), 0);
    uint8_t back[4096];
    assert_int_equal(ipudrv_tile_read(dev, 0, SRAM, back, sizeof back), 0);
    assert_int_equal(back[4095], 0x5a);
    /* a mapping at a buffer offset names that offset */
    uint32_t db = 0;
    assert_int_equal(ipudrv_map(dev, buf, 4096, 4096, IPUDRV_MAP_READ, IPUDRV_MAP_ANY, &db), 0);
    x.dev_addr = db + 8;
    assert_int_equal(ipudrv_dma_run(dev, &x, 1), -EINVAL);
    assert_non_null(strstr(ipudrv_last_error(dev), "offset 0x1000 size 4096"));
    assert_int_equal(ipudrv_buffer_free(dev, buf), 0);
}

static void test_every_refused_call_names_the_problem(void **state)
{
    ipudrv_device *dev = *state;
    struct ipudrv_event ev;
    struct ipudrv_info info;
    struct ipudrv_tile_status st;
    struct ipudrv_error_record rec = {0};
    struct ipudrv_console_byte cb[4];
    size_t n = 0;
    uint32_t v = 0;
    uint8_t data[16] = {0};
    ipudrv_buffer *buf = NULL;

    /* the finding: no event to fill */
    EXPECT_REFUSED(dev, ipudrv_wait(dev, 0, NULL), -EINVAL, "ev is NULL");
    EXPECT_REFUSED(dev, ipudrv_get_info(dev, NULL), -EINVAL, "NULL");
    EXPECT_REFUSED(dev, ipudrv_reg_read(dev, 0x3, &v), -EINVAL, "not 4-byte aligned");
    EXPECT_REFUSED(dev, ipudrv_reg_write(dev, 0xfffffffc, 0), -EINVAL, "beyond BAR0");
    EXPECT_REFUSED(dev, ipudrv_tile_write(dev, 999, SRAM, data, sizeof data), -EINVAL, "tile range 999..999 is outside");
    EXPECT_REFUSED(dev, ipudrv_tile_read(dev, 0, SRAM, NULL, sizeof data), -EINVAL, "NULL");
    EXPECT_REFUSED(dev, ipudrv_tile_broadcast(dev, 0, 0, SRAM, data, sizeof data), -EINVAL, "tile");
    EXPECT_REFUSED(dev, ipudrv_buffer_alloc(dev, 0, &buf), -EINVAL, "size is 0");
    EXPECT_REFUSED(dev, ipudrv_buffer_free(dev, (ipudrv_buffer *)&v), -EINVAL, "not a live DMA buffer");
    EXPECT_REFUSED(dev, ipudrv_map(dev, NULL, 0, 4096, IPUDRV_MAP_READ, IPUDRV_MAP_ANY, NULL), -EINVAL,
                   "not a live DMA buffer");
    EXPECT_REFUSED(dev, ipudrv_unmap(dev, 0x1000), -ENOENT, "no translation entry starts at");
    EXPECT_REFUSED(dev, ipudrv_dma_run(dev, NULL, 1), -EINVAL, "xfers is NULL");
    EXPECT_REFUSED(dev, ipudrv_tile_setup(dev, 999, SRAM, 0, 1), -EINVAL, "tile 999 does not exist");
    EXPECT_REFUSED(dev, ipudrv_host_sync_release(dev), -EAGAIN, "no host sync is pending");
    EXPECT_REFUSED(dev, ipudrv_console_read(dev, cb, 4, NULL), -EINVAL, "NULL");
    EXPECT_REFUSED(dev, ipudrv_error_read(dev, NULL, 4, &n), -EINVAL, "out is NULL");
    EXPECT_REFUSED(dev, ipudrv_tile_status(dev, 999, &st), -EINVAL, "999");
    EXPECT_REFUSED(dev, ipudrv_watchdog_report(dev, NULL, 10), -EINVAL, "buf is NULL");
    /* functions without a handle report through the thread's text */
    EXPECT_REFUSED(NULL, ipudrv_error_format(&rec, NULL, 10), -EINVAL, "ipudrv_error_format");
    EXPECT_REFUSED(NULL, ipudrv_get_info(NULL, &info), -EBADF, "handle is NULL");
    EXPECT_REFUSED(NULL, ipudrv_wait(NULL, 0, &ev), -EBADF, "handle is NULL");
    EXPECT_REFUSED(NULL, ipudrv_wait(NULL, 0, NULL), -EBADF, "handle is NULL");
    EXPECT_REFUSED(NULL, ipudrv_describe(0, NULL), -EINVAL, "out is NULL");
    EXPECT_REFUSED(NULL, ipudrv_device_count(NULL), -EINVAL, "count is NULL");
    EXPECT_REFUSED(NULL, ipudrv_open(0, 0, NULL), -EINVAL, "out is NULL");
    EXPECT_REFUSED(NULL, ipudrv_open_with(NULL, NULL), -EINVAL, "out is NULL");
    EXPECT_REFUSED(NULL, ipudrv_close(NULL), -EBADF, "handle is NULL");
    /* the handle still works after all of it */
    assert_int_equal(ipudrv_get_info(dev, &info), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_dma_past_the_end_of_its_mapping_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_every_refused_call_names_the_problem, setup, teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    test_env_cleanup();
    return rc;
}
