/* Element types of the contract: sizes, names, and binary16 to binary32 widening. */
#include "ipu_fw/dtype.h"

#include <stddef.h>

static const struct {
    uint8_t size;
    const char *name;
} dtypes[] = {
    [IPU_DTYPE_FLOAT] = {4, "float"},          [IPU_DTYPE_HALF] = {2, "half"},
    [IPU_DTYPE_INT] = {4, "int"},              [IPU_DTYPE_UNSIGNED_INT] = {4, "unsigned int"},
    [IPU_DTYPE_SHORT] = {2, "short"},          [IPU_DTYPE_UNSIGNED_SHORT] = {2, "unsigned short"},
    [IPU_DTYPE_CHAR] = {1, "char"},            [IPU_DTYPE_UNSIGNED_CHAR] = {1, "unsigned char"},
    [IPU_DTYPE_BOOL] = {1, "bool"},
};

#define NUM_DTYPES (sizeof(dtypes) / sizeof(dtypes[0]))

uint32_t ipu_fw_dtype_size(uint32_t dtype)
{
    return dtype < NUM_DTYPES ? dtypes[dtype].size : 0;
}

const char *ipu_fw_dtype_name(uint32_t dtype)
{
    return dtype < NUM_DTYPES ? dtypes[dtype].name : NULL;
}

uint32_t ipu_fw_half_to_float_bits(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0x1fu) /* infinity or NaN: keep the payload */
        return sign | 0x7f800000u | (mant << 13);
    if (exp != 0) /* normal: rebias 15 -> 127 */
        return sign | ((exp + 112u) << 23) | (mant << 13);
    if (mant == 0) /* signed zero */
        return sign;
    /* Subnormal: shift the mantissa up to an implicit leading one. */
    exp = 113u;
    while ((mant & 0x400u) == 0) {
        mant <<= 1;
        exp--;
    }
    return sign | (exp << 23) | ((mant & 0x3ffu) << 13);
}
