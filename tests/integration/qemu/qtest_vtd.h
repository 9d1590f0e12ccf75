/* Programs QEMU's intel-iommu (VT-d) over qtest the way a kernel would: a
 * root table, one context entry for the card, 3-level second-level page
 * tables (QEMU's default 39-bit address width), then translation enabled. */
#ifndef IPU_QTEST_VTD_H
#define IPU_QTEST_VTD_H

#include <stdbool.h>
#include <stdint.h>

#include "qtest_client.h"

/* Guest RAM the tables live in (the machine has 256 MiB). */
#define VTD_TABLES 0x04000000ull

/* Builds empty tables for the device at `devfn` on bus 0. */
void qt_vtd_init(struct qt *q, unsigned devfn);
/* Maps one 4 KiB page, read-only or read-write. */
void qt_vtd_map(struct qt *q, uint64_t iova, uint64_t gpa, bool writable);
/* Points the IOMMU at the tables and turns translation on; false on timeout. */
bool qt_vtd_enable(struct qt *q);

#endif /* IPU_QTEST_VTD_H */
