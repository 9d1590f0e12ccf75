/* Access to the tile's CSRs (numbers from the contract, ipu_card/hw.h) from C and C++. */
#ifndef IPU_RT_CSR_H
#define IPU_RT_CSR_H

#include <stdint.h>

#include "ipu_card/hw.h"

/* The CSR number must be a compile-time constant: it is encoded in the
 * instruction. The double expansion turns IPU_CSR_* into its number. */
#define IPU_CSR_STR_(x) #x
#define IPU_CSR_STR(x) IPU_CSR_STR_(x)

/* Reads CSR `csr` (e.g. IPU_CSR_TILE_ID). Volatile: reads such as WORKER_JOIN
 * stall and have side effects. */
#define ipu_csr_read(csr)                                                        \
    __extension__({                                                              \
        uint32_t ipu_csr_value_;                                                 \
        __asm__ volatile("csrr %0, " IPU_CSR_STR(csr) : "=r"(ipu_csr_value_) : : "memory"); \
        ipu_csr_value_;                                                          \
    })

/* Writes `value` to CSR `csr`. The memory clobber keeps stores that the card
 * must see (exchange lists, console text) before the write. */
#define ipu_csr_write(csr, value)                                                \
    __asm__ volatile("csrw " IPU_CSR_STR(csr) ", %0" : : "r"((uint32_t)(value)) : "memory")

#endif /* IPU_RT_CSR_H */
