/* gc-monitor: the devices and the processes attached to them; --watch refreshes. */
#include <stdio.h>
#include <unistd.h>

#include "common.h"
#include "output.h"

static const struct gc_tool tool = {
    "gc-monitor", "Show every IPU device and the process attached to it.",
    "  -w, --watch [SECS]  refresh every SECS seconds (default 1) until interrupted\n"
    "  -n, --count N       with --watch: stop after N refreshes\n"};

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        GC_COMMON_LONGOPTS, {"watch", optional_argument, 0, 'w'}, {"count", required_argument, 0, 'n'}, {0, 0, 0, 0}};
    struct gc_common common = {0};
    double interval = 0;
    uint64_t count = 0;
    int opt;
    while ((opt = gc_getopt(&tool, argc, argv, "w::n:", longopts, &common)) != -1) {
        if (opt == 'w')
            interval = optarg ? (double)gc_parse_number(&tool, optarg, "watch interval") : 1.0;
        else if (opt == 'n')
            count = gc_parse_number(&tool, optarg, "count");
    }
    if (optind < argc)
        gc_usage_error(&tool, "unexpected argument '%s'", argv[optind]);
    if (interval <= 0 && count)
        gc_usage_error(&tool, "--count needs --watch");
    int clear = interval > 0 && !common.json && isatty(STDOUT_FILENO);
    for (uint64_t i = 0;; i++) {
        if (clear)
            fputs("\033[H\033[2J", stdout);
        struct out *o = out_new(stdout, common.json);
        out_object_begin(o, NULL);
        gc_emit_devices(&tool, o);
        out_object_end(o);
        out_free(o);
        if (interval <= 0 || (count && i + 1 >= count))
            break;
        usleep((useconds_t)(interval * 1e6));
    }
    return 0;
}
