/* ipu-tile-run: load a bare-metal tile ELF onto a card's tiles, run it, print each tile's console.
 *
 * The firmware developer's "run" step: any card the driver can open (the
 * in-process model by default, a QEMU card through VFIO), no host library.
 * Console text comes out line by line as "[tile N] text"; error records are
 * printed with the driver's explanation. Exit status: 0 when every tile
 * exited 0, else the first non-zero tile exit code (low 8 bits, at least 1),
 * 125 when the card faulted, 126 for a bad ELF, 127 for usage or driver
 * errors. Host syncs are released at once (no streams). */
#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipu_card/hw.h"
#include "ipudrv/ipudrv.h"

enum { EXIT_FAULT = 125, EXIT_BAD_ELF = 126, EXIT_USAGE = 127 };

/* How long to let the card run between console drains. */
enum { CONSOLE_SLICE_MS = 20 };

struct options {
    unsigned device;
    const char *tiles;  /* "0,2-3" or NULL for every tile */
    uint32_t boot_arg;
    uint32_t watchdog;  /* kilo-instructions, 0 = off */
    int timeout_ms;
    int quiet;
    const char *elf;
};

struct image {
    unsigned char *bytes;
    size_t size;
    uint32_t entry;
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ipu-tile-run [options] PROGRAM.elf\n"
            "  -d, --device ID      card to use (default 0; see $IPU_EMU_DEVICES)\n"
            "  -t, --tiles LIST     tiles to run, e.g. 0,2-3 (default: all)\n"
            "  -a, --boot-arg N     value of a0 at start (default 0)\n"
            "  -w, --watchdog K     stop a tile after K*1024 instructions (default 0: off)\n"
            "  -T, --timeout MS     give up after MS ms of wall time (default 60000)\n"
            "  -q, --quiet          print only console text and errors\n");
}

static int parse_u32(const char *s, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 0);
    if (errno || *s == '\0' || *end != '\0' || v > UINT32_MAX)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Marks the tiles of `list` ("0,2-3") in enabled[0..n). Returns 0 or -1. */
static int parse_tiles(const char *list, unsigned char *enabled, unsigned n)
{
    char *copy = strdup(list), *save = NULL;
    int rc = copy ? 0 : -1;
    for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
        uint32_t lo, hi;
        char *dash = strchr(tok, '-');
        if (dash)
            *dash = '\0';
        if (parse_u32(tok, &lo) || parse_u32(dash ? dash + 1 : tok, &hi) || lo > hi || hi >= n) {
            rc = -1;
            break;
        }
        for (uint32_t t = lo; t <= hi; t++)
            enabled[t] = 1;
    }
    free(copy);
    return rc;
}

/* Reads and checks an ELF32 RISC-V executable. Returns 0 or prints why not. */
static int read_image(const char *path, struct image *img)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "ipu-tile-run: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    img->bytes = size > 0 ? malloc((size_t)size) : NULL;
    img->size = size > 0 ? (size_t)size : 0;
    int ok = img->bytes && fread(img->bytes, 1, img->size, f) == img->size;
    fclose(f);
    Elf32_Ehdr eh;
    if (!ok || img->size < sizeof(eh)) {
        fprintf(stderr, "ipu-tile-run: cannot read %s\n", path);
        return -1;
    }
    memcpy(&eh, img->bytes, sizeof(eh));
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS32 ||
        eh.e_machine != EM_RISCV || eh.e_type != ET_EXEC || eh.e_phentsize != sizeof(Elf32_Phdr) ||
        (uint64_t)eh.e_phoff + (uint64_t)eh.e_phnum * sizeof(Elf32_Phdr) > img->size) {
        fprintf(stderr, "ipu-tile-run: %s is not a 32-bit RISC-V executable (build it with ipu_tile_executable)\n",
                path);
        return -1;
    }
    img->entry = eh.e_entry;
    return 0;
}

/* Writes every PT_LOAD segment (bss included, as zeros) to `tile`. */
static int load_tile(ipudrv_device *dev, const struct image *img, unsigned tile, uint32_t sram_bytes)
{
    Elf32_Ehdr eh;
    memcpy(&eh, img->bytes, sizeof(eh));
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf32_Phdr ph;
        memcpy(&ph, img->bytes + eh.e_phoff + i * sizeof(ph), sizeof(ph));
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
            continue;
        if (ph.p_filesz > ph.p_memsz || (uint64_t)ph.p_offset + ph.p_filesz > img->size ||
            ph.p_paddr < IPU_TILE_SRAM_BASE || (uint64_t)ph.p_paddr + ph.p_memsz > IPU_TILE_SRAM_BASE + (uint64_t)sram_bytes) {
            fprintf(stderr, "ipu-tile-run: segment %u (0x%x, %u bytes) does not fit this card's %u bytes of tile SRAM\n",
                    i, ph.p_paddr, ph.p_memsz, sram_bytes);
            return EXIT_BAD_ELF;
        }
        unsigned char *seg = calloc(1, ph.p_memsz);
        if (!seg)
            return EXIT_USAGE;
        memcpy(seg, img->bytes + ph.p_offset, ph.p_filesz);
        int rc = ipudrv_tile_write(dev, tile, ph.p_paddr, seg, ph.p_memsz);
        free(seg);
        if (rc) {
            fprintf(stderr, "ipu-tile-run: loading tile %u: %s\n", tile, ipudrv_last_error(dev));
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* Console text per tile, printed a whole line at a time. */
struct console {
    char **line;
    size_t *len;
    unsigned tiles;
};

static void console_flush_tile(struct console *c, unsigned tile)
{
    if (c->len[tile] == 0)
        return;
    printf("[tile %u] %.*s\n", tile, (int)c->len[tile], c->line[tile]);
    c->len[tile] = 0;
}

static void console_drain(ipudrv_device *dev, struct console *c)
{
    struct ipudrv_console_byte bytes[256];
    size_t n;
    while (ipudrv_console_read(dev, bytes, 256, &n) == 0 && n > 0) {
        for (size_t i = 0; i < n; i++) {
            unsigned t = bytes[i].tile;
            if (t >= c->tiles)
                continue;
            if (bytes[i].byte == '\n' || c->len[t] == 4096) {
                console_flush_tile(c, t);
                if (bytes[i].byte == '\n')
                    continue;
            }
            c->line[t][c->len[t]++] = (char)bytes[i].byte;
        }
    }
    fflush(stdout);
}

static int print_errors(ipudrv_device *dev)
{
    struct ipudrv_error_record rec[16];
    size_t n;
    int seen = 0;
    while (ipudrv_error_read(dev, rec, 16, &n) == 0 && n > 0) {
        for (size_t i = 0; i < n; i++) {
            char msg[512];
            ipudrv_error_format(&rec[i], msg, sizeof(msg));
            fprintf(stderr, "ipu-tile-run: error: %s\n", msg);
            seen++;
        }
    }
    return seen;
}

/* Runs until DONE or ERROR; returns the exit status. */
static int run(ipudrv_device *dev, const struct options *o, const unsigned char *enabled, unsigned tiles)
{
    struct console c = {calloc(tiles, sizeof(char *)), calloc(tiles, sizeof(size_t)), tiles};
    for (unsigned t = 0; c.line && t < tiles; t++)
        c.line[t] = malloc(4096);
    int status = EXIT_USAGE;
    if (ipudrv_start(dev) != 0) {
        fprintf(stderr, "ipu-tile-run: start: %s\n", ipudrv_last_error(dev));
        goto out;
    }
    /* Wait in short slices: the console FIFO is finite, and bytes that do not
     * fit are lost, so it is drained while the tiles run. */
    for (int waited_ms = 0;;) {
        struct ipudrv_event ev;
        int slice_ms = o->timeout_ms - waited_ms < CONSOLE_SLICE_MS ? o->timeout_ms - waited_ms : CONSOLE_SLICE_MS;
        int rc = ipudrv_wait(dev, slice_ms, &ev);
        console_drain(dev, &c);
        if (rc == -ETIMEDOUT) {
            waited_ms += slice_ms;
            if (waited_ms < o->timeout_ms)
                continue;
            fprintf(stderr, "ipu-tile-run: timed out:\n%s\n", ipudrv_last_error(dev));
            goto out;
        }
        if (rc != 0) {
            fprintf(stderr, "ipu-tile-run: wait: %s\n", ipudrv_last_error(dev));
            goto out;
        }
        if (ev.kind == IPUDRV_EVENT_HOST_SYNC) {
            if (!o->quiet)
                fprintf(stderr, "ipu-tile-run: host sync 0x%x released\n", ev.sync_id);
            ipudrv_host_sync_release(dev);
            continue;
        }
        for (unsigned t = 0; t < tiles; t++)
            console_flush_tile(&c, t);
        if (ev.kind == IPUDRV_EVENT_ERROR) {
            print_errors(dev);
            status = EXIT_FAULT;
            goto out;
        }
        break; /* DONE (or IDLE: nothing was enabled) */
    }
    status = 0;
    for (unsigned t = 0; t < tiles; t++) {
        struct ipudrv_tile_status st;
        if (!enabled[t] || ipudrv_tile_status(dev, t, &st) != 0)
            continue;
        if (!o->quiet)
            fprintf(stderr, "ipu-tile-run: tile %u exited with %u after %llu cycles\n", t, st.exit_code,
                    (unsigned long long)st.cycles);
        if (status == 0 && st.exit_code != 0)
            status = (st.exit_code & 0xffu) ? (int)(st.exit_code & 0xffu) : 1;
    }
    struct ipudrv_info info;
    if (ipudrv_get_info(dev, &info) == 0 && info.console_lost != 0)
        fprintf(stderr, "ipu-tile-run: warning: the card dropped %u console bytes (FIFO full)\n", info.console_lost);
out:
    for (unsigned t = 0; c.line && t < tiles; t++)
        free(c.line[t]);
    free(c.line);
    free(c.len);
    return status;
}

int main(int argc, char **argv)
{
    struct options o = {0, NULL, 0, 0, 60000, 0, NULL};
    static const struct option longopts[] = {
        {"device", required_argument, NULL, 'd'}, {"tiles", required_argument, NULL, 't'},
        {"boot-arg", required_argument, NULL, 'a'}, {"watchdog", required_argument, NULL, 'w'},
        {"timeout", required_argument, NULL, 'T'}, {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    uint32_t v;
    for (int ch; (ch = getopt_long(argc, argv, "d:t:a:w:T:qh", longopts, NULL)) != -1;) {
        switch (ch) {
        case 'd': if (parse_u32(optarg, &v)) goto bad; o.device = v; break;
        case 't': o.tiles = optarg; break;
        case 'a': if (parse_u32(optarg, &o.boot_arg)) goto bad; break;
        case 'w': if (parse_u32(optarg, &o.watchdog)) goto bad; break;
        case 'T': if (parse_u32(optarg, &v) || v > INT32_MAX) goto bad; o.timeout_ms = (int)v; break;
        case 'q': o.quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default: goto bad;
        }
    }
    if (optind != argc - 1)
        goto bad;
    o.elf = argv[optind];

    struct image img = {0};
    if (read_image(o.elf, &img) != 0)
        return EXIT_BAD_ELF;
    ipudrv_device *dev = NULL;
    if (ipudrv_open(o.device, 0, &dev) != 0) {
        fprintf(stderr, "ipu-tile-run: device %u: %s\n", o.device, ipudrv_last_error(NULL));
        free(img.bytes);
        return EXIT_USAGE;
    }
    struct ipudrv_info info;
    int status = EXIT_USAGE;
    unsigned char *enabled = NULL;
    if (ipudrv_get_info(dev, &info) != 0) {
        fprintf(stderr, "ipu-tile-run: %s\n", ipudrv_last_error(dev));
        goto done;
    }
    unsigned tiles = info.num_tiles;
    enabled = calloc(tiles ? tiles : 1, 1);
    if (o.tiles == NULL)
        memset(enabled, 1, tiles);
    else if (parse_tiles(o.tiles, enabled, tiles) != 0) {
        fprintf(stderr, "ipu-tile-run: bad tile list '%s' (the card has tiles 0..%u)\n", o.tiles, tiles - 1);
        goto done;
    }
    ipudrv_reset(dev);
    ipudrv_set_watchdog(dev, o.watchdog);
    for (unsigned t = 0; t < tiles; t++) {
        if (enabled[t] && (status = load_tile(dev, &img, t, info.tile_mem_bytes)) != 0)
            goto done;
        if (ipudrv_tile_setup(dev, t, img.entry, o.boot_arg, enabled[t]) != 0) {
            fprintf(stderr, "ipu-tile-run: %s\n", ipudrv_last_error(dev));
            status = EXIT_USAGE;
            goto done;
        }
    }
    if (!o.quiet)
        fprintf(stderr, "ipu-tile-run: %s on %s\n", o.elf, info.board.name);
    status = run(dev, &o, enabled, tiles);
done:
    free(enabled);
    ipudrv_close(dev);
    free(img.bytes);
    return status;

bad:
    usage(stderr);
    return EXIT_USAGE;
}
