/* exit() from a nested call: the code reaches the host and unflushed stdout text is flushed first. */
#include <stdio.h>
#include <stdlib.h>

#include "ipu_rt/tile.h"

static void leave(uint32_t tile)
{
    exit(100 + (int)tile);
}

int main(void)
{
    uint32_t tile = ipu_tile_id();
    printf("tile %lu exiting", (unsigned long)tile); /* no newline: only exit() flushes it */
    leave(tile);
    return 0;
}
