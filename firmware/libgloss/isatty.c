/* _isatty: the console descriptors are terminals, so stdout flushes at each newline. */
#include "syscall.h"

int _isatty(int fd)
{
    if (ipu_gloss_is_console(fd))
        return 1;
    ipu_gloss_set_errno(EBADF);
    return 0;
}
