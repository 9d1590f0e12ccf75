/* gc-hostsynclatencytest: round-trip latency of a host sync -- the time from
 * releasing one external sync until the tiles request the next. */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ipu_card/hw.h"
#include "output.h"
#include "tile_program.h"

static const struct gc_tool tool = {
    "gc-hostsynclatencytest", "Measure the round-trip latency of a host sync.",
    "  -d, --device-id N   the device (default 0; also --device)\n"
    "  -i, --iterations N  host syncs to measure (default 1000; also -n)\n"
    "      --tiles N       tiles taking part (default 1; 0 = all)\n"
    "  -t, --timeout MS    give up when one sync takes longer (default 10000)\n"};

enum { OPT_TILES = 256 };

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Waits for the next event and checks it is the one expected. */
static void expect(ipudrv_device *dev, int timeout_ms, enum ipudrv_event_kind kind)
{
    struct ipudrv_event ev;
    int rc = ipudrv_wait(dev, timeout_ms, &ev);
    if (rc)
        gc_die_rc(&tool, dev, rc);
    if (ev.kind != kind)
        gc_die(&tool, "expected %s but the card reported %s: %s", kind == IPUDRV_EVENT_DONE ? "the end of the run" :
               "a host sync", ev.kind == IPUDRV_EVENT_ERROR ? "an error" : ev.kind == IPUDRV_EVENT_DONE ? "the end" :
               "an idle card", ipudrv_last_error(dev));
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {GC_COMMON_LONGOPTS,
                                             GC_DEVICE_LONGOPTS,
                                             {"iterations", required_argument, 0, 'i'},
                                             {"tiles", required_argument, 0, OPT_TILES},
                                             {"timeout", required_argument, 0, 't'},
                                             {0, 0, 0, 0}};
    struct gc_common common = {0};
    unsigned id = 0;
    uint64_t iterations = 1000, tiles = 1, timeout_ms = 10000;
    int opt;
    while ((opt = gc_getopt(&tool, argc, argv, "d:i:n:t:", longopts, &common)) != -1) {
        switch (opt) {
        case 'd': id = (unsigned)gc_parse_number(&tool, optarg, "device id"); break;
        case 'i':
        case 'n': iterations = gc_parse_number(&tool, optarg, "iterations"); break;
        case OPT_TILES: tiles = gc_parse_number(&tool, optarg, "tiles"); break;
        case 't': timeout_ms = gc_parse_number(&tool, optarg, "timeout"); break;
        }
    }
    if (optind < argc)
        gc_usage_error(&tool, "unexpected argument '%s'", argv[optind]);
    if (iterations == 0 || iterations > 10000000 || timeout_ms > 0x7fffffff)
        gc_usage_error(&tool, "--iterations must be 1..10000000 and --timeout below 2^31 ms");

    ipudrv_device *dev = gc_open(&tool, id);
    struct ipudrv_info info;
    int rc = ipudrv_get_info(dev, &info);
    if (rc)
        gc_die_rc(&tool, dev, rc);
    if (tiles == 0 || tiles > info.num_tiles)
        tiles = info.num_tiles;
    /* One extra sync: the first request only starts the clock. */
    uint32_t program[16];
    size_t words = gc_program_sync_loop(program, (uint32_t)iterations + 1, 1);
    if ((rc = ipudrv_reset(dev)) ||
        (rc = ipudrv_tile_broadcast(dev, 0, (unsigned)tiles, IPU_TILE_SRAM_BASE, program, words * 4)))
        gc_die_rc(&tool, dev, rc);
    for (unsigned t = 0; t < tiles; t++)
        if ((rc = ipudrv_tile_setup(dev, t, IPU_TILE_SRAM_BASE, 0, 1)))
            gc_die_rc(&tool, dev, rc);
    if ((rc = ipudrv_start(dev)))
        gc_die_rc(&tool, dev, rc);
    double *lat = calloc(iterations, sizeof *lat);
    if (!lat)
        gc_die(&tool, "out of memory");
    expect(dev, (int)timeout_ms, IPUDRV_EVENT_HOST_SYNC);
    double last_progress = gc_now();
    for (uint64_t i = 0; i < iterations; i++) {
        double t0 = gc_now();
        if ((rc = ipudrv_host_sync_release(dev)))
            gc_die_rc(&tool, dev, rc);
        expect(dev, (int)timeout_ms, IPUDRV_EVENT_HOST_SYNC);
        lat[i] = (gc_now() - t0) * 1e6;
        if (lat[i] * 1e-6 + t0 - last_progress > 1.0) { /* about once a second on long runs */
            last_progress = gc_now();
            gc_progress(&tool, "%llu of %llu syncs", (unsigned long long)i + 1, (unsigned long long)iterations);
        }
    }
    if ((rc = ipudrv_host_sync_release(dev)))
        gc_die_rc(&tool, dev, rc);
    expect(dev, (int)timeout_ms, IPUDRV_EVENT_DONE);
    qsort(lat, iterations, sizeof *lat, cmp_double);
    double sum = 0;
    for (uint64_t i = 0; i < iterations; i++)
        sum += lat[i];
    struct out *o = out_new(stdout, common.json);
    out_object_begin(o, NULL);
    out_u64(o, "device", id);
    out_str(o, "board", info.board.name);
    out_str(o, "transport", info.transport);
    out_u64(o, "tiles", tiles);
    out_u64(o, "iterations", iterations);
    out_f64(o, "min_us", lat[0], 2);
    out_f64(o, "mean_us", sum / (double)iterations, 2);
    out_f64(o, "median_us", lat[iterations / 2], 2);
    out_f64(o, "p99_us", lat[iterations * 99 / 100], 2);
    out_f64(o, "max_us", lat[iterations - 1], 2);
    out_object_end(o);
    out_free(o);
    free(lat);
    ipudrv_close(dev);
    return 0;
}
