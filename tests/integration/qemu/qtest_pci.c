/* PCI configuration, BAR placement and MSI-X set-up over qtest. */
#include "qtest_pci.h"

#include "ipu_card/hw.h"

#define CF8 0xcf8
#define CFC 0xcfc
#define PCI_COMMAND 0x04
#define PCI_COMMAND_MEMORY 0x2
#define PCI_COMMAND_MASTER 0x4
#define PCI_BAR0 0x10
#define PCI_CAP_PTR 0x34
#define MSIX_CAP_ID 0x11
#define MSIX_FLAGS 2
#define MSIX_FLAGS_ENABLE 0x8000u

static void select_cfg(struct qt *q, unsigned devfn, unsigned off)
{
    qt_out(q, CF8, 4, 0x80000000u | (devfn << 8) | (off & 0xfc));
}

uint32_t qt_pci_cfg_read(struct qt *q, unsigned devfn, unsigned off, unsigned size)
{
    select_cfg(q, devfn, off);
    return qt_in(q, (uint16_t)(CFC + (off & 3)), size);
}

void qt_pci_cfg_write(struct qt *q, unsigned devfn, unsigned off, unsigned size, uint32_t value)
{
    select_cfg(q, devfn, off);
    qt_out(q, (uint16_t)(CFC + (off & 3)), size, value);
}

int qt_pci_find(struct qt *q, uint16_t vendor, uint16_t device, struct qt_pci_dev *dev)
{
    return qt_pci_find_from(q, vendor, device, 0, dev);
}

int qt_pci_find_from(struct qt *q, uint16_t vendor, uint16_t device, unsigned first, struct qt_pci_dev *dev)
{
    const uint32_t want = ((uint32_t)device << 16) | vendor;
    for (unsigned devfn = first; devfn < 256 && qt_ok(q); devfn++) {
        if (qt_pci_cfg_read(q, devfn, 0, 4) == want) {
            *dev = (struct qt_pci_dev){.q = q, .devfn = devfn};
            return 0;
        }
    }
    return -1;
}

uint64_t qt_pci_bar_size(struct qt_pci_dev *dev, unsigned bar)
{
    const unsigned off = PCI_BAR0 + 4 * bar;
    const uint32_t lo = qt_pci_cfg_read(dev->q, dev->devfn, off, 4);
    const uint32_t hi = qt_pci_cfg_read(dev->q, dev->devfn, off + 4, 4);
    qt_pci_cfg_write(dev->q, dev->devfn, off, 4, 0xffffffffu);
    qt_pci_cfg_write(dev->q, dev->devfn, off + 4, 4, 0xffffffffu);
    const uint64_t mask = ((uint64_t)qt_pci_cfg_read(dev->q, dev->devfn, off + 4, 4) << 32) |
                          (qt_pci_cfg_read(dev->q, dev->devfn, off, 4) & ~0xfu);
    qt_pci_cfg_write(dev->q, dev->devfn, off, 4, lo);
    qt_pci_cfg_write(dev->q, dev->devfn, off + 4, 4, hi);
    return mask ? ~mask + 1 : 0;
}

static void place_bar(struct qt_pci_dev *dev, unsigned bar, uint64_t addr)
{
    qt_pci_cfg_write(dev->q, dev->devfn, PCI_BAR0 + 4 * bar, 4, (uint32_t)addr);
    qt_pci_cfg_write(dev->q, dev->devfn, PCI_BAR0 + 4 * bar + 4, 4, (uint32_t)(addr >> 32));
    dev->bar[bar] = addr;
}

void qt_pci_enable(struct qt_pci_dev *dev)
{
    qt_pci_enable_at(dev, QT_BAR0_ADDR);
}

void qt_pci_enable_at(struct qt_pci_dev *dev, uint64_t base)
{
    place_bar(dev, IPU_BAR_REGS, base);
    place_bar(dev, IPU_BAR_TILEMEM, base + (QT_BAR2_ADDR - QT_BAR0_ADDR));
    place_bar(dev, IPU_BAR_MSIX, base + (QT_BAR4_ADDR - QT_BAR0_ADDR));
    const uint32_t cmd = qt_pci_cfg_read(dev->q, dev->devfn, PCI_COMMAND, 2);
    qt_pci_cfg_write(dev->q, dev->devfn, PCI_COMMAND, 2, cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
}

unsigned qt_pci_find_cap(struct qt_pci_dev *dev, uint8_t id)
{
    unsigned off = qt_pci_cfg_read(dev->q, dev->devfn, PCI_CAP_PTR, 1) & 0xfc;
    for (int guard = 0; off && guard < 48; guard++) {
        if (qt_pci_cfg_read(dev->q, dev->devfn, off, 1) == id)
            return off;
        off = qt_pci_cfg_read(dev->q, dev->devfn, off + 1, 1) & 0xfc;
    }
    return 0;
}

void qt_pci_msix_enable(struct qt_pci_dev *dev, uint64_t addr_base, uint32_t data_base)
{
    const unsigned cap = qt_pci_find_cap(dev, MSIX_CAP_ID);
    const uint32_t table = qt_pci_cfg_read(dev->q, dev->devfn, cap + 4, 4) & ~7u;
    for (unsigned v = 0; v < IPU_PCI_MSIX_VECTORS; v++) {
        const uint64_t entry = dev->bar[IPU_BAR_MSIX] + table + 16 * v;
        const uint64_t addr = addr_base + 4 * v;
        qt_write(dev->q, entry + 0, 4, (uint32_t)addr);
        qt_write(dev->q, entry + 4, 4, (uint32_t)(addr >> 32));
        qt_write(dev->q, entry + 8, 4, data_base + v);
        qt_write(dev->q, entry + 12, 4, 0); /* unmasked */
    }
    const uint32_t flags = qt_pci_cfg_read(dev->q, dev->devfn, cap + MSIX_FLAGS, 2);
    qt_pci_cfg_write(dev->q, dev->devfn, cap + MSIX_FLAGS, 2, flags | MSIX_FLAGS_ENABLE);
}

uint32_t qt_reg(struct qt_pci_dev *dev, uint32_t offset)
{
    return (uint32_t)qt_read(dev->q, dev->bar[IPU_BAR_REGS] + offset, 4);
}

void qt_reg_write(struct qt_pci_dev *dev, uint32_t offset, uint32_t value)
{
    qt_write(dev->q, dev->bar[IPU_BAR_REGS] + offset, 4, value);
}
