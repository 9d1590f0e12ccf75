/* hello: the smallest tile program: print one line per tile and exit 0. */
#include <stdio.h>

#include "ipu_rt/tile.h"

int main(void)
{
    printf("hello from tile %lu of %lu\n", (unsigned long)ipu_tile_id(), (unsigned long)ipu_num_tiles());
    return 0;
}
