/* PCI helpers over qtest: configuration space through ports 0xcf8/0xcfc,
 * finding the card, placing its BARs, enabling MSI-X -- what firmware and a
 * kernel would do, done by hand because a qtest machine runs no guest. */
#ifndef IPU_QTEST_PCI_H
#define IPU_QTEST_PCI_H

#include <stdint.h>

#include "qtest_client.h"

/* Where the tests place the card's BARs (inside q35's 32-bit PCI hole). */
#define QT_BAR0_ADDR 0xc0000000ull
#define QT_BAR2_ADDR 0xc0100000ull
#define QT_BAR4_ADDR 0xc0200000ull

struct qt_pci_dev {
    struct qt *q;
    unsigned devfn; /* on bus 0 */
    uint64_t bar[6];
};

uint32_t qt_pci_cfg_read(struct qt *q, unsigned devfn, unsigned off, unsigned size);
void qt_pci_cfg_write(struct qt *q, unsigned devfn, unsigned off, unsigned size, uint32_t value);

/* Finds vendor:device on bus 0; returns 0 and fills *dev, or -1. */
int qt_pci_find(struct qt *q, uint16_t vendor, uint16_t device, struct qt_pci_dev *dev);
/* As qt_pci_find, from devfn `first` on: the next of several such devices. */
int qt_pci_find_from(struct qt *q, uint16_t vendor, uint16_t device, unsigned first, struct qt_pci_dev *dev);
/* Size of 64-bit BAR `bar` as the device reports it (0 when absent). */
uint64_t qt_pci_bar_size(struct qt_pci_dev *dev, unsigned bar);
/* Places the card's BARs at QT_BAR*_ADDR and enables memory and bus mastering. */
void qt_pci_enable(struct qt_pci_dev *dev);
/* As qt_pci_enable with the BARs at `base` + 0, + 1 MiB and + 2 MiB: a second
 * card goes at QT_BAR0_ADDR + 4 MiB. */
void qt_pci_enable_at(struct qt_pci_dev *dev, uint64_t base);
/* Offset of capability `id` in configuration space, or 0. */
unsigned qt_pci_find_cap(struct qt_pci_dev *dev, uint8_t id);
/* Enables MSI-X and points vector v at guest RAM address `addr_base + 4*v`
 * with data `data_base + v`, so that a delivered MSI is a visible memory write. */
void qt_pci_msix_enable(struct qt_pci_dev *dev, uint64_t addr_base, uint32_t data_base);

uint32_t qt_reg(struct qt_pci_dev *dev, uint32_t offset);            /* BAR0 32-bit read */
void qt_reg_write(struct qt_pci_dev *dev, uint32_t offset, uint32_t value);

#endif /* IPU_QTEST_PCI_H */
