/* PRINT_TENSOR: format a tensor slice as "name: [e0 e1 ...]" on the console through stdio. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ipu_fw/dtype.h"
#include "ipu_rt/runtime.h"

/* Widens a binary16 element (the HALF dtype) for printing. */
static float half_to_float(uint16_t h)
{
    uint32_t bits = ipu_fw_half_to_float_bits(h);
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
    if (ipu_fw_dtype_size(dtype) == 0)
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
