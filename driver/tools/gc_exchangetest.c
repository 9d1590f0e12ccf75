/* gc-exchangetest: exchange correctness between tile pairs. In each round
 * every tile t sends a block to tile (t + shift) % tiles through the card's
 * exchange; the host checks every received word against what the sender held. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ipu_card/hw.h"
#include "output.h"
#include "run.h"
#include "tile_kernels.h"

static const struct gc_tool tool = {
    "gc-exchangetest", "Check tile-to-tile exchange: every tile sends a block to a partner, for several shifts.",
    "  -d, --device-id N   the device (default 0; also --device)\n"
    "  -s, --size BYTES    bytes each tile sends per round (default 1K, a multiple of 4)\n"
    "      --tiles N       tiles taking part (default 0 = all)\n"
    "      --all-pairs     every shift 1..tiles-1 (default: 1, tiles/2 and tiles-1)\n"
    "  -t, --timeout MS    give up when one run takes longer (default 60000)\n"};

enum { OPT_TILES = 256, OPT_ALL_PAIRS };
#define LIST_OFFSET 256u /* after the program, inside GC_KERNEL_BYTES */

struct test {
    ipudrv_device *dev;
    unsigned tiles;
    uint32_t size;
    int timeout_ms;
    uint32_t *buf;
};

/* One round; returns the words that arrived wrong. */
static uint64_t run_round(struct test *t, unsigned round, unsigned shift)
{
    const uint32_t base = IPU_TILE_SRAM_BASE, src = base + GC_KERNEL_BYTES, dst = src + t->size;
    const uint32_t n = t->size / 4;
    uint32_t prog[LIST_OFFSET / 4];
    struct gc_asm a = {prog, 0, LIST_OFFSET / 4, 0};
    gc_kernel_exchange_loop(&a, base + LIST_OFFSET, 1);
    int rc;
    if ((rc = ipudrv_reset(t->dev)) || (rc = ipudrv_tile_broadcast(t->dev, 0, t->tiles, base, prog, a.n * 4)))
        gc_die_rc(&tool, t->dev, rc);
    gc_write_exchange_lists(&tool, t->dev, t->tiles, base + LIST_OFFSET, shift, src, dst, t->size);
    for (unsigned tile = 0; tile < t->tiles; tile++) {
        for (uint32_t i = 0; i < n; i++)
            t->buf[i] = gc_exchange_word(tile, round, i);
        if ((rc = ipudrv_tile_write(t->dev, tile, src, t->buf, t->size)))
            gc_die_rc(&tool, t->dev, rc);
    }
    gc_run_tiles(&tool, t->dev, t->tiles, base, t->timeout_ms);
    uint64_t bad = 0;
    for (unsigned tile = 0; tile < t->tiles; tile++) {
        unsigned from = (tile + t->tiles - shift % t->tiles) % t->tiles;
        if ((rc = ipudrv_tile_read(t->dev, tile, dst, t->buf, t->size)))
            gc_die_rc(&tool, t->dev, rc);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t want = gc_exchange_word(from, round, i);
            if (t->buf[i] == want)
                continue;
            if (bad++ < 8)
                fprintf(stderr, "%s: error: tile %u -> tile %u: word at 0x%08x is 0x%08x, sent 0x%08x\n", tool.name,
                        from, tile, dst + 4 * i, t->buf[i], want);
        }
    }
    return bad;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {GC_COMMON_LONGOPTS,
                                             GC_DEVICE_LONGOPTS,
                                             {"size", required_argument, 0, 's'},
                                             {"tiles", required_argument, 0, OPT_TILES},
                                             {"all-pairs", no_argument, 0, OPT_ALL_PAIRS},
                                             {"timeout", required_argument, 0, 't'},
                                             {0, 0, 0, 0}};
    struct gc_common common = {0};
    struct test t = {0};
    unsigned id = 0;
    uint64_t size = 1024, tiles = 0, timeout_ms = 60000;
    int all_pairs = 0, opt;
    while ((opt = gc_getopt(&tool, argc, argv, "d:s:t:", longopts, &common)) != -1) {
        switch (opt) {
        case 'd': id = (unsigned)gc_parse_number(&tool, optarg, "device id"); break;
        case 's': size = gc_parse_number(&tool, optarg, "--size"); break;
        case OPT_TILES: tiles = gc_parse_number(&tool, optarg, "tiles"); break;
        case OPT_ALL_PAIRS: all_pairs = 1; break;
        case 't': timeout_ms = gc_parse_number(&tool, optarg, "timeout"); break;
        }
    }
    if (optind < argc)
        gc_usage_error(&tool, "unexpected argument '%s'", argv[optind]);
    if (timeout_ms == 0 || timeout_ms > 0x7fffffff)
        gc_usage_error(&tool, "--timeout must be 1..2147483647 ms");

    t.dev = gc_open(&tool, id);
    t.timeout_ms = (int)timeout_ms;
    struct ipudrv_info info;
    gc_get_info(&tool, t.dev, &info);
    t.tiles = tiles == 0 || tiles > info.num_tiles ? info.num_tiles : (unsigned)tiles;
    const uint64_t max_size = (info.tile_mem_bytes - GC_KERNEL_BYTES) / 2 / 4 * 4;
    if (size == 0 || size % 4 || size > max_size)
        gc_usage_error(&tool, "--size must be a non-zero multiple of 4 up to %llu on this card",
                       (unsigned long long)max_size);
    t.size = (uint32_t)size;
    t.buf = malloc(t.size);
    if (!t.buf)
        gc_die(&tool, "out of memory");

    /* the shifts: every one, or the nearest, the farthest and the wrap-around partner */
    unsigned *shifts = calloc(t.tiles + 3, sizeof *shifts), nshifts = 0;
    if (!shifts)
        gc_die(&tool, "out of memory");
    if (t.tiles == 1) {
        shifts[nshifts++] = 0; /* a tile to itself */
    } else if (all_pairs) {
        for (unsigned s = 1; s < t.tiles; s++)
            shifts[nshifts++] = s;
    } else {
        unsigned want[3] = {1, t.tiles / 2, t.tiles - 1};
        for (unsigned i = 0; i < 3; i++) {
            int seen = 0;
            for (unsigned j = 0; j < nshifts; j++)
                seen |= shifts[j] == want[i];
            if (!seen)
                shifts[nshifts++] = want[i];
        }
    }

    struct out *o = out_new(stdout, common.json);
    out_object_begin(o, NULL);
    out_u64(o, "device", id);
    out_str(o, "board", info.board.name);
    out_u64(o, "tiles", t.tiles);
    out_u64(o, "bytes_per_transfer", t.size);
    out_array_begin(o, "rounds");
    uint64_t total_bad = 0, pairs = 0;
    double last = gc_now();
    for (unsigned r = 0; r < nshifts; r++) {
        if (r == 0 || gc_now() - last > 1.0) { /* first round, then about once a second */
            gc_progress(&tool, "round %u of %u (shift %u) ...", r + 1, nshifts, shifts[r]);
            last = gc_now();
        }
        uint64_t bad = run_round(&t, r, shifts[r]);
        total_bad += bad;
        pairs += t.tiles;
        out_item_begin(o);
        out_u64(o, "shift", shifts[r]);
        out_u64(o, "pairs", t.tiles);
        out_u64(o, "bytes", (uint64_t)t.tiles * t.size);
        out_u64(o, "errors", bad);
        out_item_end(o);
    }
    out_array_end(o);
    out_u64(o, "pairs_tested", pairs);
    out_u64(o, "errors", total_bad);
    out_str(o, "result", total_bad ? "fail" : "pass");
    out_object_end(o);
    out_free(o);
    free(shifts);
    free(t.buf);
    ipudrv_close(t.dev);
    if (total_bad)
        fprintf(stderr, "%s: error: %llu word%s arrived wrong\n", tool.name, (unsigned long long)total_bad,
                total_bad == 1 ? "" : "s");
    return total_bad ? 1 : 0;
}
