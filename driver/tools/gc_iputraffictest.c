/* gc-iputraffictest: tile-to-tile exchange bandwidth measured on the card.
 * Every tile sends a block to the tile half the card away and meets the
 * others in a sync, many times; the same loop without data gives the sync
 * cost, so the exchange's own rate is the difference. Times are simulated
 * card cycles at the board's tile clock, so they do not depend on the host. */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "ipu_card/hw.h"
#include "output.h"
#include "run.h"
#include "tile_kernels.h"

static const struct gc_tool tool = {
    "gc-iputraffictest", "Measure tile-to-tile exchange bandwidth on the card (simulated time).",
    "  -d, --device-id N   the device (default 0; also --device)\n"
    "  -i, --iterations N  exchanges per tile (default 100)\n"
    "  -s, --size BYTES    bytes each tile sends per exchange (default 4K, a multiple of 4)\n"
    "      --tiles N       tiles taking part (default 0 = all)\n"
    "  -t, --timeout MS    give up when one run takes longer (default 60000)\n"};

enum { OPT_TILES = 256 };
#define LIST_OFFSET 256u

int main(int argc, char **argv)
{
    static const struct option longopts[] = {GC_COMMON_LONGOPTS,
                                             GC_DEVICE_LONGOPTS,
                                             {"iterations", required_argument, 0, 'i'},
                                             {"size", required_argument, 0, 's'},
                                             {"tiles", required_argument, 0, OPT_TILES},
                                             {"timeout", required_argument, 0, 't'},
                                             {0, 0, 0, 0}};
    struct gc_common common = {0};
    unsigned id = 0;
    uint64_t iterations = 100, size = 4096, tiles = 0, timeout_ms = 60000;
    int opt;
    while ((opt = gc_getopt(&tool, argc, argv, "d:i:s:t:", longopts, &common)) != -1) {
        switch (opt) {
        case 'd': id = (unsigned)gc_parse_number(&tool, optarg, "device id"); break;
        case 'i': iterations = gc_parse_number(&tool, optarg, "iterations"); break;
        case 's': size = gc_parse_number(&tool, optarg, "--size"); break;
        case OPT_TILES: tiles = gc_parse_number(&tool, optarg, "tiles"); break;
        case 't': timeout_ms = gc_parse_number(&tool, optarg, "timeout"); break;
        }
    }
    if (optind < argc)
        gc_usage_error(&tool, "unexpected argument '%s'", argv[optind]);
    if (iterations == 0 || iterations > 0x7fffffff || timeout_ms == 0 || timeout_ms > 0x7fffffff)
        gc_usage_error(&tool, "--iterations and --timeout must be 1..2147483647");

    ipudrv_device *dev = gc_open(&tool, id);
    struct ipudrv_info info;
    gc_get_info(&tool, dev, &info);
    unsigned n = tiles == 0 || tiles > info.num_tiles ? info.num_tiles : (unsigned)tiles;
    const uint64_t max_size = (info.tile_mem_bytes - GC_KERNEL_BYTES) / 2 / 4 * 4;
    if (size == 0 || size % 4 || size > max_size)
        gc_usage_error(&tool, "--size must be a non-zero multiple of 4 up to %llu on this card",
                       (unsigned long long)max_size);
    const uint32_t base = IPU_TILE_SRAM_BASE, src = base + GC_KERNEL_BYTES, dst = src + (uint32_t)size;
    const unsigned shift = n / 2; /* the partner half the card away (itself on a one-tile card) */
    uint32_t prog[LIST_OFFSET / 4];
    struct gc_asm a = {prog, 0, LIST_OFFSET / 4, 0};
    gc_kernel_exchange_loop(&a, base + LIST_OFFSET, (uint32_t)iterations);
    uint32_t *buf = malloc(size);
    if (!buf)
        gc_die(&tool, "out of memory");

    /* run 0: syncs alone; run 1: syncs with the exchange */
    uint64_t cycles[2];
    double wall = 0;
    int rc;
    for (int run = 0; run < 2; run++) {
        gc_progress(&tool, "%s: %u tiles x %llu iterations ...", run ? "exchange" : "sync only", n,
                    (unsigned long long)iterations);
        if ((rc = ipudrv_reset(dev)) || (rc = ipudrv_tile_broadcast(dev, 0, n, base, prog, a.n * 4)))
            gc_die_rc(&tool, dev, rc);
        gc_write_exchange_lists(&tool, dev, n, base + LIST_OFFSET, shift, src, dst, run ? (uint32_t)size : 0);
        for (unsigned t = 0; run && t < n; t++) {
            for (uint32_t i = 0; i < size / 4; i++)
                buf[i] = gc_exchange_word(t, 0, i);
            if ((rc = ipudrv_tile_write(dev, t, src, buf, size)))
                gc_die_rc(&tool, dev, rc);
        }
        double t0 = gc_now();
        cycles[run] = gc_run_tiles(&tool, dev, n, base, (int)timeout_ms);
        if (run)
            wall = gc_now() - t0;
    }
    uint64_t errors = 0;
    for (unsigned t = 0; t < n; t++) {
        unsigned from = (t + n - shift) % n;
        if ((rc = ipudrv_tile_read(dev, t, dst, buf, size)))
            gc_die_rc(&tool, dev, rc);
        for (uint32_t i = 0; i < size / 4; i++)
            if (buf[i] != gc_exchange_word(from, 0, i) && errors++ < 8)
                fprintf(stderr, "%s: error: tile %u -> tile %u: word at 0x%08x arrived wrong\n", tool.name, from, t,
                        dst + 4 * i);
    }

    const double bytes = (double)size * (double)iterations * n;
    const double clock = (double)info.board.tile_clock_hz;
    const double seconds = (double)cycles[1] / clock;
    const uint64_t exchange_cycles = cycles[1] > cycles[0] ? cycles[1] - cycles[0] : 0;
    struct out *o = out_new(stdout, common.json);
    out_object_begin(o, NULL);
    out_u64(o, "device", id);
    out_str(o, "board", info.board.name);
    out_u64(o, "tiles", n);
    out_u64(o, "partner_shift", shift);
    out_u64(o, "bytes_per_exchange", size);
    out_u64(o, "iterations", iterations);
    out_f64(o, "kbytes_transferred", bytes / 1024.0, 0);
    out_f64(o, "gbytes_transferred", bytes / (1024.0 * 1024.0 * 1024.0), 6);
    out_u64(o, "card_cycles", cycles[1]);
    out_u64(o, "sync_only_cycles", cycles[0]);
    out_f64(o, "duration_sec", seconds, 9);
    out_f64(o, "gbps", seconds > 0 ? bytes * 8.0 / seconds / 1e9 : 0, 3);
    out_f64(o, "bytes_per_cycle_per_tile", exchange_cycles ? (double)size * (double)iterations / (double)exchange_cycles : 0,
            3);
    out_u64(o, "board_exchange_bytes_per_cycle", info.board.exchange_bytes_per_cycle);
    out_f64(o, "wall_seconds", wall, 3);
    out_u64(o, "errors", errors);
    out_str(o, "result", errors ? "fail" : "pass");
    out_object_end(o);
    out_free(o);
    free(buf);
    ipudrv_close(dev);
    if (errors)
        fprintf(stderr, "%s: error: %llu words arrived wrong\n", tool.name, (unsigned long long)errors);
    return errors ? 1 : 0;
}
