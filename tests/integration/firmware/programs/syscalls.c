/* The libgloss port from the program's side: malloc stops at the heap's end, unsupported
 * calls fail with ENOSYS, fstat/isatty describe the console. Exit code: a bit per failed check. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <unistd.h>

extern char __ipu_heap_start[], __ipu_heap_end[];

enum {
    BAD_HEAP_RANGE = 1 << 0,  /* a block outside [__ipu_heap_start, __ipu_heap_end) */
    BAD_HEAP_USE = 1 << 1,    /* the heap was not nearly all usable */
    BAD_NOMEM = 1 << 2,       /* exhaustion did not report ENOMEM */
    BAD_ENOSYS = 1 << 3,      /* open/read/lseek/times did not fail with ENOSYS */
    BAD_CONSOLE = 1 << 4,     /* fstat/isatty on stdout wrong */
    BAD_WRITE = 1 << 5,       /* write() did not return the byte count */
    BAD_EBADF = 1 << 6,       /* write to a non-console fd did not fail with EBADF */
};

static unsigned check_heap(void)
{
    unsigned bad = 0;
    size_t total = 0;
    char *p;
    errno = 0;
    while ((p = malloc(256)) != NULL) {
        if (p < __ipu_heap_start || p + 256 > __ipu_heap_end)
            bad |= BAD_HEAP_RANGE;
        total += 256;
    }
    if (errno != ENOMEM)
        bad |= BAD_NOMEM;
    size_t heap = (size_t)(__ipu_heap_end - __ipu_heap_start);
    /* malloc's headers and alignment cost a little per block. */
    if (total < heap / 2 || total > heap)
        bad |= BAD_HEAP_USE;
    printf("heap %u bytes, malloc got %u\n", (unsigned)heap, (unsigned)total);
    return bad;
}

static unsigned check_enosys(void)
{
    char c;
    struct tms t;
    unsigned bad = 0;
    errno = 0;
    if (open("file", O_RDONLY) != -1 || errno != ENOSYS)
        bad |= BAD_ENOSYS;
    errno = 0;
    if (read(0, &c, 1) != -1 || errno != ENOSYS)
        bad |= BAD_ENOSYS;
    errno = 0;
    if (times(&t) != (clock_t)-1 || errno != ENOSYS)
        bad |= BAD_ENOSYS;
    errno = 0;
    if (unlink("file") != -1 || errno != ENOSYS)
        bad |= BAD_ENOSYS;
    return bad;
}

static unsigned check_console(void)
{
    struct stat st;
    unsigned bad = 0;
    if (fstat(1, &st) != 0 || !S_ISCHR(st.st_mode) || !isatty(1) || isatty(5))
        bad |= BAD_CONSOLE;
    if (write(1, "raw write\n", 10) != 10)
        bad |= BAD_WRITE;
    errno = 0;
    if (write(7, "x", 1) != -1 || errno != EBADF)
        bad |= BAD_EBADF;
    return bad;
}

int main(void)
{
    /* Console first: its stdout buffer is the heap's first block. */
    unsigned bad = check_console() | check_enosys() | check_heap();
    printf("syscalls bad=0x%x\n", bad);
    return (int)bad;
}
