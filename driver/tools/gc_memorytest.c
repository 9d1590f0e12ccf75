/* gc-memorytest: tile SRAM patterns (address in address, walking ones,
 * walking zeros), written by a program on every tile and checked by reading
 * the memory back. The program moves once so that every word is tested. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ipu_card/hw.h"
#include "memtest_check.h"
#include "output.h"
#include "run.h"
#include "tile_kernels.h"

static const struct gc_tool tool = {
    "gc-memorytest", "Test every tile's SRAM with patterns written by the tiles and read back by the host.",
    "  -d, --device-id N   the device (default 0; also --device)\n"
    "  -p, --pattern P     address, walking-ones, walking-zeros or all (default all)\n"
    "      --tiles N       tiles to test (default 0 = all)\n"
    "  -t, --timeout MS    give up when one run takes longer (default 60000)\n"
    "      --inject-fault T,A  test hook: flip bit 0 of the word at tile T, address A after the\n"
    "                      tiles wrote it, to check that the fault is reported\n"};

enum { OPT_TILES = 256, OPT_INJECT };
#define MAX_FAULTS 16

struct test {
    ipudrv_device *dev;
    unsigned tiles;
    uint32_t sram_bytes;
    int timeout_ms;
    int inject;
    uint32_t inject_tile, inject_addr;
    uint32_t *words;
    struct gc_mem_fault faults[MAX_FAULTS];
    size_t nfaults;
};

static void parse_inject(struct test *t, const char *spec)
{
    char copy[64];
    snprintf(copy, sizeof copy, "%s", spec);
    char *comma = strchr(copy, ',');
    if (!comma)
        gc_usage_error(&tool, "--inject-fault wants TILE,ADDRESS, e.g. 1,0x100400");
    *comma = '\0';
    uint64_t tile = gc_parse_number(&tool, copy, "tile"), addr = gc_parse_number(&tool, comma + 1, "address");
    if (tile > 0xffff || addr > 0xffffffffu || addr % 4)
        gc_usage_error(&tool, "--inject-fault %s: the tile must be below 65536 and the address 4-byte aligned", spec);
    t->inject = 1;
    t->inject_tile = (uint32_t)tile;
    t->inject_addr = (uint32_t)addr;
}

/* One placement of the program: fills [start, end) on every tile, reads it
 * back and checks it. Returns the words that differ. */
static uint64_t run_placement(struct test *t, enum gc_mem_pattern pattern, uint32_t prog_addr, uint32_t start,
                              uint32_t end)
{
    uint32_t prog[GC_KERNEL_BYTES / 4];
    struct gc_asm a = {prog, 0, GC_KERNEL_BYTES / 4, 0};
    gc_kernel_fill(&a, pattern, start, end);
    int rc;
    if ((rc = ipudrv_reset(t->dev)) ||
        (rc = ipudrv_tile_broadcast(t->dev, 0, t->tiles, prog_addr, prog, a.n * 4)))
        gc_die_rc(&tool, t->dev, rc);
    gc_run_tiles(&tool, t->dev, t->tiles, prog_addr, t->timeout_ms);
    if (t->inject && t->inject_tile < t->tiles && t->inject_addr >= start && t->inject_addr < end) {
        uint32_t w;
        if ((rc = ipudrv_tile_read(t->dev, t->inject_tile, t->inject_addr, &w, 4)))
            gc_die_rc(&tool, t->dev, rc);
        w ^= 1u;
        if ((rc = ipudrv_tile_write(t->dev, t->inject_tile, t->inject_addr, &w, 4)))
            gc_die_rc(&tool, t->dev, rc);
    }
    uint64_t bad = 0;
    size_t n = (end - start) / 4;
    for (unsigned tile = 0; tile < t->tiles; tile++) {
        if ((rc = ipudrv_tile_read(t->dev, tile, start, t->words, n * 4)))
            gc_die_rc(&tool, t->dev, rc);
        bad += gc_mem_check(pattern, tile, start, start, t->words, n, t->faults, MAX_FAULTS, &t->nfaults);
    }
    return bad;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {GC_COMMON_LONGOPTS,
                                             GC_DEVICE_LONGOPTS,
                                             {"pattern", required_argument, 0, 'p'},
                                             {"tiles", required_argument, 0, OPT_TILES},
                                             {"timeout", required_argument, 0, 't'},
                                             {"inject-fault", required_argument, 0, OPT_INJECT},
                                             {0, 0, 0, 0}};
    struct gc_common common = {0};
    struct test t = {0};
    unsigned id = 0;
    uint64_t tiles = 0, timeout_ms = 60000;
    int only = -1;
    int opt;
    while ((opt = gc_getopt(&tool, argc, argv, "d:p:t:", longopts, &common)) != -1) {
        switch (opt) {
        case 'd': id = (unsigned)gc_parse_number(&tool, optarg, "device id"); break;
        case 'p':
            if (strcmp(optarg, "all") != 0 && (only = gc_mem_pattern_parse(optarg)) < 0)
                gc_usage_error(&tool, "unknown pattern '%s' (address, walking-ones, walking-zeros or all)", optarg);
            break;
        case OPT_TILES: tiles = gc_parse_number(&tool, optarg, "tiles"); break;
        case 't': timeout_ms = gc_parse_number(&tool, optarg, "timeout"); break;
        case OPT_INJECT: parse_inject(&t, optarg); break;
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
    t.sram_bytes = info.tile_mem_bytes;
    if (t.sram_bytes < 2 * GC_KERNEL_BYTES)
        gc_die(&tool, "tile SRAM of %u bytes is too small to test (at least %u)", t.sram_bytes, 2 * GC_KERNEL_BYTES);
    if (t.inject && (t.inject_tile >= t.tiles || t.inject_addr < IPU_TILE_SRAM_BASE ||
                     t.inject_addr - IPU_TILE_SRAM_BASE >= t.sram_bytes))
        gc_usage_error(&tool, "--inject-fault names tile %u address 0x%08x, outside the %u tested tiles' SRAM",
                       t.inject_tile, t.inject_addr, t.tiles);
    t.words = malloc(t.sram_bytes);
    if (!t.words)
        gc_die(&tool, "out of memory for %u bytes", t.sram_bytes);

    const uint32_t base = IPU_TILE_SRAM_BASE, top = IPU_TILE_SRAM_BASE + t.sram_bytes;
    struct out *o = out_new(stdout, common.json);
    out_object_begin(o, NULL);
    out_u64(o, "device", id);
    out_str(o, "board", info.board.name);
    out_u64(o, "tiles", t.tiles);
    out_u64(o, "bytes_per_tile", t.sram_bytes);
    out_array_begin(o, "patterns");
    uint64_t total_bad = 0;
    for (int p = 0; p < GC_MEM_PATTERNS; p++) {
        if (only >= 0 && p != only)
            continue;
        gc_progress(&tool, "pattern %s on %u tiles ...", gc_mem_pattern_name((enum gc_mem_pattern)p), t.tiles);
        /* the program at the bottom tests above it, then at the top tests below it */
        uint64_t bad = run_placement(&t, (enum gc_mem_pattern)p, base, base + GC_KERNEL_BYTES, top);
        bad += run_placement(&t, (enum gc_mem_pattern)p, top - GC_KERNEL_BYTES, base, top - GC_KERNEL_BYTES);
        total_bad += bad;
        out_item_begin(o);
        out_str(o, "pattern", gc_mem_pattern_name((enum gc_mem_pattern)p));
        out_u64(o, "words_checked", 2ull * (t.sram_bytes - GC_KERNEL_BYTES) / 4 * t.tiles);
        out_u64(o, "errors", bad);
        out_item_end(o);
    }
    out_array_end(o);
    out_u64(o, "errors", total_bad);
    if (t.nfaults) {
        out_array_begin(o, "faults");
        for (size_t i = 0; i < t.nfaults; i++) {
            out_item_begin(o);
            out_u64(o, "tile", t.faults[i].tile);
            out_hex(o, "address", t.faults[i].addr);
            out_hex(o, "expected", t.faults[i].expected);
            out_hex(o, "read", t.faults[i].actual);
            out_str(o, "pattern", gc_mem_pattern_name(t.faults[i].pattern));
            out_item_end(o);
        }
        out_array_end(o);
    }
    out_str(o, "result", total_bad ? "fail" : "pass");
    out_object_end(o);
    out_free(o);
    free(t.words);
    ipudrv_close(t.dev);
    if (total_bad) {
        const struct gc_mem_fault *f = &t.faults[0];
        fprintf(stderr, "%s: error: %llu word%s read back wrong; first: tile %u address 0x%08x expected 0x%08x "
                "read 0x%08x (pattern %s)\n", tool.name, (unsigned long long)total_bad, total_bad == 1 ? "" : "s",
                f->tile, f->addr, f->expected, f->actual, gc_mem_pattern_name(f->pattern));
        return 1;
    }
    return 0;
}
