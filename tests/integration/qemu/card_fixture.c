/* Starting QEMU with the card and driving its translation table and DMA. */
#define _GNU_SOURCE
#include "card_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "ipu_card/hw.h"

const char *card_qemu_path(const char *variant)
{
    static char path[4096];
    const char *env = getenv("IPU_QEMU");
    if (env && *env) /* a QEMU picked by hand, whatever the variant */
        return env;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "%s/scripts/qemu/build.sh %s", IPU_SOURCE_DIR, variant);
    FILE *p = popen(cmd, "r");
    if (!p || !fgets(path, sizeof path, p)) {
        int st = p ? pclose(p) : -1;
        if (WIFEXITED(st) && WEXITSTATUS(st) == 77) {
            fprintf(stderr, "SKIP: QEMU cannot be built here (see above)\n");
            exit(77);
        }
        fprintf(stderr, "building QEMU failed (%s)\n", cmd);
        exit(1);
    }
    pclose(p);
    path[strcspn(path, "\n")] = 0;
    return path;
}

bool card_start(struct card *c, const char *variant, const char *extra)
{
    return card_start_props(c, variant, NULL, extra);
}

bool card_start_props(struct card *c, const char *variant, const char *props, const char *extra)
{
    char args[1024], err[512];
    /* IPU_QTEST_ARGS adds QEMU options by hand, e.g. "-trace ipu_card_dma". */
    const char *more = getenv("IPU_QTEST_ARGS");
    snprintf(args, sizeof args, "-device intel-iommu -device ipu-card,board-path=%s/boards%s%s %s %s", IPU_SOURCE_DIR,
             props ? "," : "", props ? props : "", extra ? extra : "", more ? more : "");
    c->q = qt_start(card_qemu_path(variant), args, err, sizeof err);
    if (!c->q) {
        fprintf(stderr, "cannot start QEMU: %s\n", err);
        return false;
    }
    if (qt_pci_find(c->q, IPU_PCI_VENDOR_ID, IPU_PCI_DEVICE_ID, &c->pci) != 0) {
        fprintf(stderr, "the card is not on bus 0\n");
        return false;
    }
    qt_pci_enable(&c->pci);
    return qt_ok(c->q);
}

bool card_refuses(const char *variant, const char *devices, const char *why)
{
    char cmd[4096], out[4096] = "";
    snprintf(cmd, sizeof cmd,
             "timeout 30 %s -machine q35 -accel qtest -display none -nodefaults -S -monitor none "
             "-L /usr/share/qemu -L /usr/share/seabios %s 2>&1",
             card_qemu_path(variant), devices);
    FILE *p = popen(cmd, "r");
    if (!p)
        return false;
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    const int status = pclose(p);
    /* Exit status 124 is the timeout's: QEMU did not refuse by itself. */
    const bool refused = status != 0 && WEXITSTATUS(status) != 124 && strstr(out, why);
    if (!refused)
        fprintf(stderr, "QEMU with %s (exit status 0x%x) said:\n%s\n", devices, (unsigned)status, out);
    return refused;
}

int card_stop(struct card *c)
{
    int rc = c->q ? qt_quit(c->q) : -1;
    c->q = NULL;
    return rc;
}

void card_xlat(struct card *c, unsigned index, uint32_t dev_base, uint64_t bus, uint32_t pages, uint32_t ctrl_bits)
{
    const uint32_t e = IPU_REG_XLAT_BASE + index * IPU_REG_XLAT_STRIDE;
    qt_reg_write(&c->pci, e + IPU_XLAT_ENTRY_DEV_BASE_OFFSET, dev_base);
    qt_reg_write(&c->pci, e + IPU_XLAT_ENTRY_BUS_LO_OFFSET, (uint32_t)bus);
    qt_reg_write(&c->pci, e + IPU_XLAT_ENTRY_BUS_HI_OFFSET, (uint32_t)(bus >> 32));
    qt_reg_write(&c->pci, e + IPU_XLAT_ENTRY_CTRL_OFFSET,
                 ctrl_bits | ((pages - 1) << IPU_XLAT_CTRL_PAGES_MINUS_1_SHIFT));
}

void card_dma_one(struct card *c, uint32_t dev_addr, uint32_t tile, uint32_t tile_off, uint32_t len, uint32_t flags)
{
    struct ipu_dma_desc d = {
        .dev_addr = dev_addr,
        .tile_addr = IPU_TILE_SRAM_BASE + tile_off,
        .length = len,
        .first_tile = (uint16_t)tile,
        .tile_count = 1,
        .flags = flags | IPU_DMA_FLAGS_LAST_MASK,
    };
    qt_memwrite(c->q, HOST_DESC, &d, sizeof d);
    qt_reg_write(&c->pci, IPU_REG_DMA_DESC_ADDR, DEV_DESC);
    qt_reg_write(&c->pci, IPU_REG_DMA_CTRL, IPU_REG_DMA_CTRL_START_MASK);
}

uint32_t card_dma_wait(struct card *c)
{
    uint32_t st = 0;
    for (int i = 0; i < 100000 && qt_ok(c->q); i++) {
        st = qt_reg(&c->pci, IPU_REG_DMA_STATUS);
        if (!(st & IPU_REG_DMA_STATUS_BUSY_MASK))
            return st;
        nanosleep(&(struct timespec){0, 100000}, NULL);
    }
    return st;
}

void card_print_first_error(struct card *c)
{
    if (!qt_ok(c->q) || qt_reg(&c->pci, IPU_REG_ERR_COUNT) == 0)
        return;
    fprintf(stderr, "  card error record: cause %u tile 0x%x context %u pc 0x%x addr 0x%x info 0x%x (QEMU log %s)\n",
            qt_reg(&c->pci, IPU_REG_ERR_CAUSE), qt_reg(&c->pci, IPU_REG_ERR_TILE), qt_reg(&c->pci, IPU_REG_ERR_CONTEXT),
            qt_reg(&c->pci, IPU_REG_ERR_PC), qt_reg(&c->pci, IPU_REG_ERR_ADDR), qt_reg(&c->pci, IPU_REG_ERR_INFO),
            qt_log_path(c->q));
}
