/* ipu_boot_arg and __dso_handle: alone in their archive member, so that both starts (start.c for programs with
 * a main(), graph_start.c for graph-program images) share them without pulling each other in. */
#include <stdint.h>

uint32_t ipu_boot_arg;

/* The handle C++ passes to __cxa_atexit for static destructors; crtbegin.o
 * would define it, but tile images link without gcc's startfiles. */
void *__dso_handle = &__dso_handle;
