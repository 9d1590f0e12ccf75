/* A minimal VT-d driver for qtest: root/context tables and page tables. */
#include "qtest_vtd.h"

#define VTD_REGS 0xfed90000ull /* Q35_HOST_BRIDGE_IOMMU_ADDR */
#define VTD_GCMD 0x18
#define VTD_GSTS 0x1c
#define VTD_RTADDR 0x20
#define VTD_GCMD_TE (1u << 31)
#define VTD_GCMD_SRTP (1u << 30)
#define VTD_PRESENT 1ull
#define VTD_SL_RW 3ull         /* read | write */
#define VTD_SL_R 1ull
#define VTD_AW_39BIT 1ull      /* context entry AW: 3-level tables */

/* Layout: root table, context table, level-3 table, then a pool of tables. */
#define ROOT (VTD_TABLES)
#define CONTEXT (VTD_TABLES + 0x1000)
#define LEVEL3 (VTD_TABLES + 0x2000)
#define POOL (VTD_TABLES + 0x3000)

static uint64_t next_table;

static void zero_page(struct qt *q, uint64_t addr)
{
    static const uint8_t zeros[4096];
    qt_memwrite(q, addr, zeros, sizeof zeros);
}

void qt_vtd_init(struct qt *q, unsigned devfn)
{
    for (uint64_t a = VTD_TABLES; a < POOL; a += 0x1000)
        zero_page(q, a);
    next_table = POOL;
    qt_write(q, ROOT, 8, CONTEXT | VTD_PRESENT); /* bus 0 */
    qt_write(q, CONTEXT + 16 * devfn, 8, LEVEL3 | VTD_PRESENT); /* translation type 0 */
    qt_write(q, CONTEXT + 16 * devfn + 8, 8, VTD_AW_39BIT | (1ull << 8)); /* domain 1 */
}

/* Returns the table that entry `index` of `table` points to, making it if needed. */
static uint64_t walk(struct qt *q, uint64_t table, unsigned index)
{
    const uint64_t entry = qt_read(q, table + 8 * index, 8);
    if (entry & VTD_SL_RW)
        return entry & ~0xfffull;
    const uint64_t t = next_table;
    next_table += 0x1000;
    zero_page(q, t);
    qt_write(q, table + 8 * index, 8, t | VTD_SL_RW);
    return t;
}

void qt_vtd_map(struct qt *q, uint64_t iova, uint64_t gpa, bool writable)
{
    const uint64_t l2 = walk(q, LEVEL3, (iova >> 30) & 0x1ff);
    const uint64_t l1 = walk(q, l2, (iova >> 21) & 0x1ff);
    qt_write(q, l1 + 8 * ((iova >> 12) & 0x1ff), 8, (gpa & ~0xfffull) | (writable ? VTD_SL_RW : VTD_SL_R));
}

static bool wait_status(struct qt *q, uint32_t bit)
{
    for (int i = 0; i < 1000 && qt_ok(q); i++)
        if (qt_read(q, VTD_REGS + VTD_GSTS, 4) & bit)
            return true;
    return false;
}

bool qt_vtd_enable(struct qt *q)
{
    qt_write(q, VTD_REGS + VTD_RTADDR, 8, ROOT);
    qt_write(q, VTD_REGS + VTD_GCMD, 4, VTD_GCMD_SRTP);
    if (!wait_status(q, VTD_GCMD_SRTP))
        return false;
    qt_write(q, VTD_REGS + VTD_GCMD, 4, VTD_GCMD_TE);
    return wait_status(q, VTD_GCMD_TE);
}
