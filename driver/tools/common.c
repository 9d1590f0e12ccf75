/* Shared option handling, errors and helpers of the gc tools. */
#include "common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef GC_TOOLS_VERSION
#error "GC_TOOLS_VERSION (the CMake project version) must be defined by the build"
#endif

const char *gc_version(void)
{
    return GC_TOOLS_VERSION;
}

static void help(const struct gc_tool *tool)
{
    printf("Usage: %s [options]\n%s\n\nOptions:\n%s  -j, --json-output   print JSON instead of text (also --json)\n"
           "  -h, --help          show this help\n  -v, --version       show the version (also -V)\n",
           tool->name, tool->summary, tool->usage);
}

int gc_getopt(const struct gc_tool *tool, int argc, char **argv, const char *shortopts,
              const struct option *longopts, struct gc_common *common)
{
    char all[64];
    snprintf(all, sizeof all, ":" GC_COMMON_SHORTOPTS "%s", shortopts);
    opterr = 0; /* our own one-line messages, without argv[0]'s path */
    for (;;) {
        int opt = getopt_long(argc, argv, all, longopts, NULL);
        switch (opt) {
        case 'h':
            help(tool);
            exit(0);
        case 'v':
        case 'V':
            printf("%s (ipu-emu) %s, libipudrv %s\n", tool->name, gc_version(), ipudrv_version());
            exit(0);
        case 'j':
            common->json = 1;
            continue;
        case ':':
            gc_usage_error(tool, "option '%s' needs a value", argv[optind - 1]);
        case '?':
            if (optopt)
                gc_usage_error(tool, "unknown option '-%c'", optopt);
            gc_usage_error(tool, "unknown option '%s'", argv[optind - 1]);
        default:
            return opt;
        }
    }
}

void gc_die(const struct gc_tool *tool, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: error: ", tool->name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

void gc_die_rc(const struct gc_tool *tool, const ipudrv_device *dev, int rc)
{
    const char *msg = ipudrv_last_error(dev);
    if (!msg || !*msg)
        msg = ipudrv_strerror(rc);
    /* One line: the watchdog report continues on the following lines. */
    gc_die(tool, "%s", msg);
}

void gc_usage_error(const struct gc_tool *tool, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: error: ", tool->name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "; see %s --help\n", tool->name);
    va_end(ap);
    exit(2);
}

uint64_t gc_parse_number(const struct gc_tool *tool, const char *text, const char *what)
{
    char *end = NULL;
    errno = 0;
    if (!text || !*text || *text == '-')
        gc_usage_error(tool, "%s '%s' is not a non-negative number", what, text ? text : "");
    unsigned long long v = strtoull(text, &end, 0);
    unsigned shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10, end++;
    else if (*end == 'M' || *end == 'm')
        shift = 20, end++;
    else if (*end == 'G' || *end == 'g')
        shift = 30, end++;
    if (errno || end == text || *end || (shift && v > (~0ull >> shift)))
        gc_usage_error(tool, "%s '%s' is not a number (decimal, 0x hex, optional K/M/G suffix)", what, text);
    return (uint64_t)v << shift;
}

void gc_progress(const struct gc_tool *tool, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", tool->name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

double gc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
