/* gc-hosttraffictest: host-to-device and device-to-host bandwidth by DMA over
 * a range of sizes, beside a host memcpy of the same sizes. */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ipu_card/hw.h"
#include "output.h"

static const struct gc_tool tool = {
    "gc-hosttraffictest", "Measure DMA bandwidth between host and tiles, beside host memcpy.",
    "  -d, --device-id N   the device (default 0; also --device)\n"
    "      --min SIZE      smallest transfer (default 4K)\n"
    "      --max SIZE      largest transfer (default 64M, at most 128M)\n"
    "  -t, --time SECS     minimum measuring time per size and direction (default 0.2)\n"};

enum { OPT_MIN = 256, OPT_MAX };

struct setup {
    ipudrv_device *dev;
    uint32_t dev_addr;
    uint32_t num_tiles, tile_bytes;
    struct ipudrv_dma_xfer *xfers;
};

/* Chops `size` bytes into tile-sized descriptors spread over the tiles. */
static size_t build(struct setup *s, size_t size, int to_host)
{
    size_t n = 0;
    for (size_t off = 0; off < size; off += s->tile_bytes, n++) {
        size_t len = size - off < s->tile_bytes ? size - off : s->tile_bytes;
        s->xfers[n] = (struct ipudrv_dma_xfer){.dev_addr = s->dev_addr + (uint32_t)off,
                                               .tile_addr = IPU_TILE_SRAM_BASE, .length = (uint32_t)len,
                                               .first_tile = (uint16_t)(n % s->num_tiles), .tile_count = 1,
                                               .to_host = (uint32_t)to_host};
    }
    return n;
}

/* Bytes per second of `size`-byte DMA runs, repeated for at least `min_time`. */
static double measure_dma(struct setup *s, size_t size, int to_host, double min_time)
{
    size_t n = build(s, size, to_host);
    int rc = ipudrv_dma_run(s->dev, s->xfers, n); /* warm-up */
    if (rc)
        gc_die_rc(&tool, s->dev, rc);
    double t0 = gc_now(), t;
    uint64_t reps = 0;
    do {
        if ((rc = ipudrv_dma_run(s->dev, s->xfers, n)))
            gc_die_rc(&tool, s->dev, rc);
        reps++;
        t = gc_now() - t0;
    } while (t < min_time);
    return (double)size * (double)reps / t;
}

static double measure_memcpy(void *dst, const void *src, size_t size, double min_time)
{
    memcpy(dst, src, size);
    double t0 = gc_now(), t;
    uint64_t reps = 0;
    do {
        memcpy(dst, src, size);
        /* Keep the compiler from dropping repeated copies. */
        __asm__ volatile("" : : "r"(dst) : "memory");
        reps++;
        t = gc_now() - t0;
    } while (t < min_time);
    return (double)size * (double)reps / t;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {GC_COMMON_LONGOPTS,
                                             GC_DEVICE_LONGOPTS,
                                             {"min", required_argument, 0, OPT_MIN},
                                             {"max", required_argument, 0, OPT_MAX},
                                             {"time", required_argument, 0, 't'},
                                             {0, 0, 0, 0}};
    struct gc_common common = {0};
    unsigned id = 0;
    uint64_t min = 4096, max = 64u << 20;
    double min_time = 0.2;
    int opt;
    while ((opt = gc_getopt(&tool, argc, argv, "d:t:", longopts, &common)) != -1) {
        switch (opt) {
        case 'd': id = (unsigned)gc_parse_number(&tool, optarg, "device id"); break;
        case OPT_MIN: min = gc_parse_number(&tool, optarg, "--min"); break;
        case OPT_MAX: max = gc_parse_number(&tool, optarg, "--max"); break;
        case 't': min_time = strtod(optarg, NULL); break;
        }
    }
    if (optind < argc)
        gc_usage_error(&tool, "unexpected argument '%s'", argv[optind]);
    if (min == 0 || min > max || max > IPUDRV_MAP_MAX_BYTES)
        gc_usage_error(&tool, "sizes must satisfy 0 < --min <= --max <= 128M");
    if (!(min_time >= 0))
        gc_usage_error(&tool, "--time must be a non-negative number of seconds");

    struct setup s = {.dev = gc_open(&tool, id)};
    struct ipudrv_info info;
    int rc = ipudrv_get_info(s.dev, &info);
    if (rc)
        gc_die_rc(&tool, s.dev, rc);
    s.num_tiles = info.num_tiles;
    s.tile_bytes = info.tile_mem_bytes;
    ipudrv_buffer *buf = NULL;
    if ((rc = ipudrv_buffer_alloc(s.dev, max, &buf)) ||
        (rc = ipudrv_map(s.dev, buf, 0, max, IPUDRV_MAP_READ | IPUDRV_MAP_WRITE, IPUDRV_MAP_ANY, &s.dev_addr)))
        gc_die_rc(&tool, s.dev, rc);
    memset(ipudrv_buffer_ptr(buf), 0x5a, max);
    s.xfers = calloc(max / s.tile_bytes + 1, sizeof *s.xfers);
    char *src = malloc(max), *dst = malloc(max);
    if (!s.xfers || !src || !dst)
        gc_die(&tool, "out of memory for %llu-byte host buffers", (unsigned long long)max);
    memset(src, 0x5a, max);
    memset(dst, 0, max);

    struct out *o = out_new(stdout, common.json);
    out_object_begin(o, NULL);
    if (common.json) {
        out_u64(o, "device", id);
        out_str(o, "board", info.board.name);
        out_str(o, "transport", info.transport);
        out_str(o, "unit", "MB/s (1e6 bytes per second)");
    }
    out_array_begin(o, "results");
    for (uint64_t size = min; size <= max; size *= 2) {
        gc_progress(&tool, "%llu bytes ...", (unsigned long long)size);
        double h2d = measure_dma(&s, size, 0, min_time);
        double d2h = measure_dma(&s, size, 1, min_time);
        double mc = measure_memcpy(dst, src, size, min_time);
        out_item_begin(o);
        out_u64(o, "bytes", size);
        out_f64(o, "host_to_device_mb_s", h2d / 1e6, 1);
        out_f64(o, "device_to_host_mb_s", d2h / 1e6, 1);
        out_f64(o, "memcpy_mb_s", mc / 1e6, 1);
        out_f64(o, "host_to_device_pct_of_memcpy", 100.0 * h2d / mc, 1);
        out_f64(o, "device_to_host_pct_of_memcpy", 100.0 * d2h / mc, 1);
        out_item_end(o);
        if (size > max / 2)
            break;
    }
    out_array_end(o);
    out_object_end(o);
    out_free(o);
    free(src);
    free(dst);
    free(s.xfers);
    ipudrv_close(s.dev);
    return 0;
}
