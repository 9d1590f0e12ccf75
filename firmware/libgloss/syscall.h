/* Private helpers of the tile's libgloss port: errno for newlib's reentrancy layer. */
#ifndef IPU_GLOSS_SYSCALL_H
#define IPU_GLOSS_SYSCALL_H

#include <errno.h>

/* __errno() is the errno that programs see (the one in struct _reent). Keep
 * it before the #undef below takes the errno macro away. */
static inline int *ipu_gloss_program_errno(void)
{
    return &errno;
}

/* Most of newlib's _xxx_r wrappers copy the plain global errno into the
 * caller's struct _reent after the call, so syscalls set that variable ... */
#undef errno
extern int errno;

/* ... but some (_times_r) do not, so set both. */
static inline void ipu_gloss_set_errno(int err)
{
    errno = err;
    *ipu_gloss_program_errno() = err;
}

/* Sets errno to `err` and returns -1, the failure value of most syscalls. */
static inline int ipu_gloss_fail(int err)
{
    ipu_gloss_set_errno(err);
    return -1;
}

/* File descriptors 0, 1 and 2 are the host console; no others exist. */
static inline int ipu_gloss_is_console(int fd)
{
    return fd >= 0 && fd <= 2;
}

#endif /* IPU_GLOSS_SYSCALL_H */
