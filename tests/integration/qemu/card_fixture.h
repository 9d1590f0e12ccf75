/* What every qtest test of the card needs: a QEMU with the card, the card
 * found and enabled, and small helpers for the translation table and DMA. */
#ifndef IPU_CARD_FIXTURE_H
#define IPU_CARD_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "qtest_pci.h"

/* Guest-RAM areas the tests use (the machine has 256 MiB). */
#define HOST_BUF 0x01000000ull   /* data buffers */
#define HOST_DESC 0x02000000ull  /* DMA descriptor chains */
#define HOST_MSI 0x03000000ull   /* MSI-X messages land here */
#define DEV_BUF 0x10000000u      /* device address of HOST_BUF */
#define DEV_DESC 0x20000000u     /* device address of HOST_DESC */

struct card {
    struct qt *q;
    struct qt_pci_dev pci;
};

/* Path of the QEMU binary for this build ("release" or "asan"); exits 77 when
 * QEMU cannot be built for a reason outside the project. */
const char *card_qemu_path(const char *variant);
/* Starts QEMU with intel-iommu and the card (plus `extra` arguments), finds and
 * enables it. Returns false (after printing why) on failure. */
bool card_start(struct card *c, const char *variant, const char *extra);
/* As card_start, with `props` (e.g. "board=rtl-tiny,backend=rtl") appended to
 * the card's -device properties. */
bool card_start_props(struct card *c, const char *variant, const char *props, const char *extra);
int card_stop(struct card *c);
/* Starts QEMU with `devices` (e.g. "-device ipu-card,board=/dev/zero"; the
 * card's board-path is added by hand) and returns true when QEMU refuses them by
 * itself (not a timeout) saying `why`; otherwise prints what it said. */
bool card_refuses(const char *variant, const char *devices, const char *why);

void card_xlat(struct card *c, unsigned index, uint32_t dev_base, uint64_t bus, uint32_t pages, uint32_t ctrl_bits);
/* Writes a one-descriptor chain at HOST_DESC and starts it. */
void card_dma_one(struct card *c, uint32_t dev_addr, uint32_t tile, uint32_t tile_off, uint32_t len, uint32_t flags);
/* Polls DMA_STATUS until BUSY clears; returns the final status. */
uint32_t card_dma_wait(struct card *c);
/* Prints the card's oldest error record (without popping it) to stderr, for a
 * failing assertion's context; nothing when there is none. */
void card_print_first_error(struct card *c);

#endif /* IPU_CARD_FIXTURE_H */
