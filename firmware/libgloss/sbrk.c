/* _sbrk: malloc's memory, bounded by the heap the linker script reserves. */
#include <stddef.h>

#include "syscall.h"

/* From the generated linker script (gen-ldscript.py). */
extern char __ipu_heap_start[];
extern char __ipu_heap_end[];

void *_sbrk(ptrdiff_t increment)
{
    /* In bss, so crt0 resets it for every run of a loaded image. */
    static char *brk;
    if (brk == NULL)
        brk = __ipu_heap_start;
    if (increment > __ipu_heap_end - brk || increment < __ipu_heap_start - brk) {
        ipu_gloss_set_errno(ENOMEM);
        return (void *)-1;
    }
    char *old = brk;
    brk += increment;
    return old;
}
