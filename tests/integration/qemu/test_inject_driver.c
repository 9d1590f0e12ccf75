/* Fault injection on the driver's in-process model card ($IPU_EMU_INJECT, the
 * same knobs as the QEMU device's inject-* properties): the driver turns each
 * fault into a clear error and recovers where a real device would.
 * Usage: test_inject_driver FAULT   (dma_error, removed); device 0 must be an
 * in-process model card (IPU_EMU_DEVICES=tiny). */
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

/* A bulk write (so through the DMA engine) of 64 KiB to tile 1. */
static int bulk_write(ipudrv_device *dev, uint8_t *data)
{
    return ipudrv_tile_write(dev, 1, IPU_TILE_SRAM_BASE, data, 65536);
}

/* dma_error=12: the first chain fails with the chosen cause, named in the
 * driver's error text; a reset (the recovery the runtime asks for) and a retry
 * succeed, and the data arrived. */
static void test_dma_error(void **state)
{
    (void)state;
    setenv("IPU_EMU_INJECT", "dma_error=12", 1);
    ipudrv_device *dev = NULL;
    assert_int_equal(ipudrv_open(0, 0, &dev), 0);
    static uint8_t data[65536], back[65536];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7);
    assert_int_equal(bulk_write(dev, data), -EIO);
    const char *why = ipudrv_last_error(dev);
    printf("injected DMA error: %s\n", why);
    assert_non_null(strstr(why, "DMA_BAD_DESCRIPTOR"));
    assert_non_null(strstr(why, "reset"));
    assert_int_equal(ipudrv_reset(dev), 0);
    assert_int_equal(bulk_write(dev, data), 0);
    assert_int_equal(ipudrv_tile_read(dev, 1, IPU_TILE_SRAM_BASE, back, sizeof back), 0);
    assert_memory_equal(back, data, sizeof data);
    ipudrv_close(dev);
}

/* removed: the card answers all ones; open fails with a message that says the
 * card is gone, and nothing hangs. */
static void test_removed(void **state)
{
    (void)state;
    setenv("IPU_EMU_INJECT", "removed", 1);
    ipudrv_device *dev = NULL;
    const int rc = ipudrv_open(0, 0, &dev);
    assert_int_not_equal(rc, 0);
    assert_null(dev);
}

int main(int argc, char **argv)
{
    const char *fault = argc > 1 ? argv[1] : "";
    const struct CMUnitTest dma_error[] = {cmocka_unit_test(test_dma_error)};
    const struct CMUnitTest removed[] = {cmocka_unit_test(test_removed)};
    if (!strcmp(fault, "dma_error"))
        return cmocka_run_group_tests_name("dma_error", dma_error, NULL, NULL);
    if (!strcmp(fault, "removed"))
        return cmocka_run_group_tests_name("removed", removed, NULL, NULL);
    fprintf(stderr, "usage: test_inject_driver dma_error|removed\n");
    return 2;
}
