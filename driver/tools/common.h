/* What every gc tool shares: -h/--help, -v/--version, -j/--json-output,
 * -d/--device-id (Graphcore's spellings; -V, --json and --device stay as
 * aliases), one-line errors, number parsing, progress on stderr. */
#ifndef GC_COMMON_H
#define GC_COMMON_H

#include <getopt.h>
#include <stdint.h>

#include "ipudrv/ipudrv.h"

/* getopt_long entries and short letters every tool accepts. */
#define GC_COMMON_SHORTOPTS "hvVj"
#define GC_COMMON_LONGOPTS {"help", no_argument, 0, 'h'}, {"version", no_argument, 0, 'V'}, \
                           {"json-output", no_argument, 0, 'j'}, {"json", no_argument, 0, 'j'}
/* The device option of tools that use one device: -d N, --device-id N, --device N. */
#define GC_DEVICE_LONGOPTS {"device-id", required_argument, 0, 'd'}, {"device", required_argument, 0, 'd'}

struct gc_tool {
    const char *name;
    const char *summary; /* one line */
    const char *usage;   /* the options, one per line */
};

struct gc_common {
    int json;
};

/* getopt_long with the common options added: handles -h, -v/-V (print and
 * exit 0), -j, and bad options (a one-line error, exit 2) itself and returns the
 * tool's own options, or -1 at the end. `shortopts` are the tool's letters;
 * `longopts` must start with GC_COMMON_LONGOPTS. */
int gc_getopt(const struct gc_tool *tool, int argc, char **argv, const char *shortopts,
              const struct option *longopts, struct gc_common *common);

/* Prints "<tool>: error: <message>" and exits 1. */
_Noreturn void gc_die(const struct gc_tool *tool, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* As gc_die for a failed library call: the library's message for `dev`. */
_Noreturn void gc_die_rc(const struct gc_tool *tool, const ipudrv_device *dev, int rc);
/* Prints "<tool>: error: <message>; see --help" and exits 2. */
_Noreturn void gc_usage_error(const struct gc_tool *tool, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parses a non-negative number: decimal, 0x hex, optional K/M/G (binary)
 * suffix. Dies with a message naming `what` on bad input. */
uint64_t gc_parse_number(const struct gc_tool *tool, const char *text, const char *what);

/* A progress line on stderr ("<tool>: ..."), for long runs. */
void gc_progress(const struct gc_tool *tool, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The tools' version: the CMake project version of the build. */
const char *gc_version(void);

/* Seconds since an arbitrary start (monotonic). */
double gc_now(void);

#endif

struct out;

/* Attaches to device `id` or dies with the library's message. */
ipudrv_device *gc_open(const struct gc_tool *tool, unsigned id);

/* Emits the table of devices (id, transport, board, location, holder) as
 * "devices"; used by gc-info -l and gc-monitor. Dies on a discovery error. */
void gc_emit_devices(const struct gc_tool *tool, struct out *o);
