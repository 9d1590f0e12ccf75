/* __ipu_start: what crt0 calls once the stack is up: constructors, main or the control program, exit. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reent.h>

#include "ipu_rt/tile.h"

/* newlib runs .preinit_array and .init_array (C++ static constructors and
 * __attribute__((constructor))) here; .fini_array at exit. */
extern void __libc_init_array(void);
extern void __libc_fini_array(void);

/* The program's main(), or runtime/main.c's control-program runner when the
 * image has none. */
extern int main(int argc, char **argv);

/* Called by crt0 with a0 = TILE_BOOT_ARG. Never returns: exit() ends in
 * _exit(), which reports the code to the host through the EXIT CSR. */
__attribute__((noreturn)) void __ipu_start(uint32_t boot_arg);

void __ipu_start(uint32_t boot_arg)
{
    static char *argv[] = {NULL};

    ipu_boot_arg = boot_arg;
    /* newlib keeps stdio and the atexit list in its reentrancy structure, in
     * .data, which a re-run of a loaded image does not restore: the previous
     * run's exit() closed stdout (later printf and PrintTensor output was
     * lost) and its atexit entries pile up. Start every run fresh. */
    _REENT_INIT_PTR(_impure_ptr);
    atexit(__libc_fini_array);
    __libc_init_array();
    exit(main(0, argv));
}
