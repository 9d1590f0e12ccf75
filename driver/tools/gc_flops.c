/* gc-flops: the floating-point rate of a tile kernel -- every worker of
 * every tile runs a loop of independent fused multiply-adds -- in simulated
 * card time at the board's tile clock, beside the host's emulation rate. */
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "ipu_card/hw.h"
#include "output.h"
#include "run.h"
#include "tile_kernels.h"

static const struct gc_tool tool = {
    "gc-flops", "Measure the FP32 rate of a fused multiply-add kernel on every worker of every tile.",
    "  -d, --device-id N   the device (default 0; also --device)\n"
    "  -p, --fp P          precision: FP32 (the default; the tiles are rv32imf and have no FP16 or FP8)\n"
    "  -i, --iterations N  loop iterations per worker, 8 fused multiply-adds each (default 20000)\n"
    "      --tiles N       tiles taking part (default 0 = all)\n"
    "  -l, --low-clock-rate  accepted for Graphcore scripts; the clock is the board's\n"
    "  -t, --timeout MS    give up after this long (default 60000)\n"};

enum { OPT_TILES = 256 };

int main(int argc, char **argv)
{
    static const struct option longopts[] = {GC_COMMON_LONGOPTS,
                                             GC_DEVICE_LONGOPTS,
                                             {"fp", required_argument, 0, 'p'},
                                             {"iterations", required_argument, 0, 'i'},
                                             {"tiles", required_argument, 0, OPT_TILES},
                                             {"low-clock-rate", no_argument, 0, 'l'},
                                             {"timeout", required_argument, 0, 't'},
                                             {0, 0, 0, 0}};
    struct gc_common common = {0};
    unsigned id = 0;
    uint64_t iterations = 20000, tiles = 0, timeout_ms = 60000;
    int opt;
    while ((opt = gc_getopt(&tool, argc, argv, "d:p:i:lt:", longopts, &common)) != -1) {
        switch (opt) {
        case 'd': id = (unsigned)gc_parse_number(&tool, optarg, "device id"); break;
        case 'p':
            if (strcmp(optarg, "FP32") != 0 && strcmp(optarg, "fp32") != 0)
                gc_usage_error(&tool, "precision '%s' is not available: the tiles (rv32imf) compute FP32 only; "
                               "use -p FP32", optarg);
            break;
        case 'i': iterations = gc_parse_number(&tool, optarg, "iterations"); break;
        case OPT_TILES: tiles = gc_parse_number(&tool, optarg, "tiles"); break;
        case 'l': break;
        case 't': timeout_ms = gc_parse_number(&tool, optarg, "timeout"); break;
        }
    }
    if (optind < argc)
        gc_usage_error(&tool, "unexpected argument '%s'", argv[optind]);
    /* Each accumulator ends at (float)iterations: exact while below 2^24. */
    if (iterations == 0 || iterations >= (1u << 24))
        gc_usage_error(&tool, "--iterations must be 1..16777215 (the result is checked exactly)");
    if (timeout_ms == 0 || timeout_ms > 0x7fffffff)
        gc_usage_error(&tool, "--timeout must be 1..2147483647 ms");

    ipudrv_device *dev = gc_open(&tool, id);
    struct ipudrv_info info;
    gc_get_info(&tool, dev, &info);
    unsigned ntiles = tiles == 0 || tiles > info.num_tiles ? info.num_tiles : (unsigned)tiles;
    const uint32_t workers = info.num_workers, load = IPU_TILE_SRAM_BASE;
    const uint32_t results = load + GC_KERNEL_BYTES, result_bytes = 32u * (workers + 1);
    uint32_t prog[GC_KERNEL_BYTES / 4];
    struct gc_asm a = {prog, 0, GC_KERNEL_BYTES / 4, 0};
    gc_kernel_flops(&a, load, workers, (uint32_t)iterations, results);
    if (a.overflow || GC_KERNEL_BYTES + result_bytes > info.tile_mem_bytes)
        gc_die(&tool, "the kernel for %u workers does not fit the tile", workers);
    int rc;
    if ((rc = ipudrv_reset(dev)) || (rc = ipudrv_tile_broadcast(dev, 0, ntiles, load, prog, a.n * 4)))
        gc_die_rc(&tool, dev, rc);
    gc_progress(&tool, "%u tiles x %u workers x %llu iterations ...", ntiles, workers, (unsigned long long)iterations);
    double t0 = gc_now();
    uint64_t cycles = gc_run_tiles(&tool, dev, ntiles, load, (int)timeout_ms);
    double wall = gc_now() - t0;

    /* every accumulator of every worker must hold exactly `iterations` */
    uint64_t wrong = 0;
    float acc[8 * (IPU_TILE_CONTEXTS_MAX + 1)];
    for (unsigned t = 0; t < ntiles; t++) {
        if ((rc = ipudrv_tile_read(dev, t, results, acc, result_bytes)))
            gc_die_rc(&tool, dev, rc);
        for (uint32_t w = 1; w <= workers; w++)
            for (unsigned k = 0; k < GC_FLOPS_UNROLL; k++)
                if (acc[8 * w + k] != (float)iterations) {
                    if (!wrong)
                        fprintf(stderr, "%s: error: tile %u worker %u accumulator %u is %g, expected %llu\n",
                                tool.name, t, w, k, (double)acc[8 * w + k], (unsigned long long)iterations);
                    wrong++;
                }
    }
    const double flops = 2.0 * GC_FLOPS_UNROLL * (double)iterations * workers * ntiles;
    const double seconds = (double)cycles / (double)info.board.tile_clock_hz;
    struct out *o = out_new(stdout, common.json);
    out_object_begin(o, NULL);
    out_u64(o, "device", id);
    out_str(o, "board", info.board.name);
    out_str(o, "precision", "FP32");
    out_u64(o, "tiles", ntiles);
    out_u64(o, "workers_per_tile", workers);
    out_u64(o, "iterations", iterations);
    out_f64(o, "flops", flops, 0);
    out_u64(o, "card_cycles", cycles);
    out_f64(o, "flops_per_cycle_per_tile", cycles ? flops / (double)cycles / ntiles : 0, 3);
    out_f64(o, "tile_clock_mhz", (double)info.board.tile_clock_hz / 1e6, 1);
    out_f64(o, "gflops", seconds > 0 ? flops / seconds / 1e9 : 0, 3);
    out_f64(o, "wall_seconds", wall, 3);
    out_f64(o, "host_mflops", wall > 0 ? flops / wall / 1e6 : 0, 1);
    out_u64(o, "errors", wrong);
    out_str(o, "result", wrong ? "fail" : "pass");
    out_object_end(o);
    out_free(o);
    ipudrv_close(dev);
    return wrong ? 1 : 0;
}
