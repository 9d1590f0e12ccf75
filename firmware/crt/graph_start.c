/* __ipu_start for graph-program images: the lean start. Not in libipurt: the graph compiler links this object
 * (lib/graph_start.o) after crt0.o, so crt0's call resolves here and libipurt's start.c stays out.
 *
 * start.c calls atexit() and exit(), and exit() reaches newlib's global reentrancy structure (about 1 KB of
 * .data) and the stdio clean-up, so every tile would carry them although most graph programs never print. Here
 * each of those pieces is a weak reference: it runs only when something else in the image (a codelet's
 * printf, PrintTensor, a C++ static destructor) has linked it, and then in the order exit() runs it. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/reent.h>

extern uint32_t ipu_boot_arg;
extern int main(int argc, char **argv);
extern void __libc_init_array(void);
extern void __libc_fini_array(void);
extern void __call_exitprocs(int code, void *dso);
extern __attribute__((noreturn)) void _exit(int code);

/* __call_exitprocs: the graph compiler asks for it (-u) when the image registers exit functions
 * (__register_exitproc, a C++ static destructor), since newlib does not pull it in for them. */
#pragma weak _impure_ptr
#pragma weak __call_exitprocs
#pragma weak fflush

__attribute__((noreturn)) void __ipu_start(uint32_t boot_arg);

void __ipu_start(uint32_t boot_arg)
{
    static char *argv[] = {NULL};

    ipu_boot_arg = boot_arg;
    /* A re-run of a loaded image must not inherit the previous run's stdio and atexit state (see start.c). */
    if (&_impure_ptr != NULL)
        _REENT_INIT_PTR(_impure_ptr);
    __libc_init_array();
    int code = main(0, argv); /* runtime/main.c: the control program */
    /* exit(): functions registered with atexit/__cxa_atexit, then .fini_array, then flush stdio. */
    if (__call_exitprocs != NULL)
        __call_exitprocs(code, NULL);
    __libc_fini_array();
    if (fflush != NULL)
        fflush(NULL);
    _exit(code);
}
