/* PRINT_TENSOR: format a tensor slice as "name: [e0 e1 ...]" on the console through stdio. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ipu_rt/runtime.h"

/* Widens an IEEE binary16 value (the HALF dtype) to float. */
static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0x1fu) { /* infinity or NaN */
        bits = sign | 0x7f800000u | (mant << 13);
    } else if (exp != 0) { /* normal */
        bits = sign | ((exp + 112u) << 23) | (mant << 13);
    } else if (mant == 0) { /* zero */
        bits = sign;
    } else { /* subnormal: normalise the mantissa */
        exp = 113u;
        while ((mant & 0x400u) == 0) {
            mant <<= 1;
            exp--;
        }
        bits = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

/* Prints element i; unaligned-safe because tensors may be packed. */
static void print_element(uint32_t dtype, const unsigned char *p, uint32_t i)
{
    switch (dtype) {
    case IPU_DTYPE_FLOAT: { float v; memcpy(&v, p + 4u * i, 4); printf("%g", (double)v); break; }
    case IPU_DTYPE_HALF: { uint16_t v; memcpy(&v, p + 2u * i, 2); printf("%g", (double)half_to_float(v)); break; }
    case IPU_DTYPE_INT: { int32_t v; memcpy(&v, p + 4u * i, 4); printf("%ld", (long)v); break; }
    case IPU_DTYPE_UNSIGNED_INT: { uint32_t v; memcpy(&v, p + 4u * i, 4); printf("%lu", (unsigned long)v); break; }
    case IPU_DTYPE_SHORT: { int16_t v; memcpy(&v, p + 2u * i, 2); printf("%d", v); break; }
    case IPU_DTYPE_UNSIGNED_SHORT: { uint16_t v; memcpy(&v, p + 2u * i, 2); printf("%u", v); break; }
    case IPU_DTYPE_CHAR: printf("%d", (int8_t)p[i]); break;
    case IPU_DTYPE_UNSIGNED_CHAR: printf("%u", p[i]); break;
    default: printf("%d", p[i] != 0); break; /* IPU_DTYPE_BOOL */
    }
}

int ipu_rt_print_tensor(const char *name, uint32_t dtype, const void *data, uint32_t count)
{
    if (dtype > IPU_DTYPE_BOOL)
        return -1;
    printf("%s: [", name);
    for (uint32_t i = 0; i < count; i++) {
        if (i != 0)
            putchar(' ');
        print_element(dtype, data, i);
    }
    printf("]\n");
    return 0;
}
