/* Element types of the contract (IPU_DTYPE_*): sizes, names and half-precision widening. */
#ifndef IPU_FW_DTYPE_H
#define IPU_FW_DTYPE_H

#include <stdint.h>

#include "ipu_card/hw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes per element of `dtype`, or 0 for an unknown dtype. */
uint32_t ipu_fw_dtype_size(uint32_t dtype);

/* The Poplar name of `dtype` ("float", "unsigned short" ...), or NULL if unknown. */
const char *ipu_fw_dtype_name(uint32_t dtype);

/* Widens an IEEE 754 binary16 value (IPU_DTYPE_HALF) to binary32 bits:
 * exact for every input, NaN payloads kept, subnormals normalised. */
uint32_t ipu_fw_half_to_float_bits(uint16_t half);

#ifdef __cplusplus
}
#endif
#endif /* IPU_FW_DTYPE_H */
