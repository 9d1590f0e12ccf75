// Device-side printing from codelets (printf on a tile): the tiles' C library writes through the card's host
// channel, and the text appears on the host program's standard output.
#ifndef POPLAR_DEVICE_PRINT_H
#define POPLAR_DEVICE_PRINT_H
#include <stdio.h>
#endif // POPLAR_DEVICE_PRINT_H
