/* Private helpers of the tile's libgloss port: errno for newlib's reentrancy layer. */
#ifndef IPU_GLOSS_SYSCALL_H
#define IPU_GLOSS_SYSCALL_H

#include <errno.h>

/* newlib's _xxx_r wrappers copy the plain global errno into the caller's
 * struct _reent, so syscalls set that variable, not the errno macro. */
#undef errno
extern int errno;

/* Sets errno to `err` and returns -1, the failure value of most syscalls. */
static inline int ipu_gloss_fail(int err)
{
    errno = err;
    return -1;
}

/* File descriptors 0, 1 and 2 are the host console; no others exist. */
static inline int ipu_gloss_is_console(int fd)
{
    return fd >= 0 && fd <= 2;
}

#endif /* IPU_GLOSS_SYSCALL_H */
