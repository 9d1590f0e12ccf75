/* A C11 program built outside the tree against the installed driver (cc x.c -lipudrv): it opens the first card
 * of $IPU_EMU_DEVICES, reads the card's info and tile 0's memory back after writing it. */
#include <ipu_card/hw.h>
#include <ipudrv/ipudrv.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    ipudrv_device *dev = NULL;
    if (ipudrv_open(0, 0, &dev) != 0) {
        fprintf(stderr, "open: %s\n", ipudrv_last_error(NULL));
        return 1;
    }
    struct ipudrv_info info;
    if (ipudrv_get_info(dev, &info) != 0) {
        fprintf(stderr, "info: %s\n", ipudrv_last_error(dev));
        return 1;
    }
    const char text[] = "written from outside the tree";
    char back[sizeof text] = {0};
    if (ipudrv_tile_write(dev, 0, IPU_TILE_SRAM_BASE, text, sizeof text) != 0 ||
        ipudrv_tile_read(dev, 0, IPU_TILE_SRAM_BASE, back, sizeof back) != 0) {
        fprintf(stderr, "tile memory: %s\n", ipudrv_last_error(dev));
        return 1;
    }
    printf("libipudrv %s: %s\n", ipudrv_version(), strcmp(text, back) == 0 ? "tile memory round trip ok" : "MISMATCH");
    ipudrv_close(dev);
    return strcmp(text, back) != 0;
}
