/* Unit tests of the dtype helpers, with binary16 widening checked for all 65536 inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ipu_fw/dtype.h"

static void test_sizes_and_names(void **state)
{
    (void)state;
    assert_int_equal(ipu_fw_dtype_size(IPU_DTYPE_FLOAT), 4);
    assert_int_equal(ipu_fw_dtype_size(IPU_DTYPE_HALF), 2);
    assert_int_equal(ipu_fw_dtype_size(IPU_DTYPE_UNSIGNED_SHORT), 2);
    assert_int_equal(ipu_fw_dtype_size(IPU_DTYPE_BOOL), 1);
    assert_int_equal(ipu_fw_dtype_size(IPU_DTYPE_BOOL + 1), 0);
    assert_string_equal(ipu_fw_dtype_name(IPU_DTYPE_UNSIGNED_INT), "unsigned int");
    assert_null(ipu_fw_dtype_name(99));
}

/* Reference: the host compiler's own binary16 -> binary32 conversion. */
static uint32_t reference(uint16_t h)
{
    _Float16 f16;
    memcpy(&f16, &h, 2);
    float f = (float)f16;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return bits;
}

static void test_half_widening_exhaustive(void **state)
{
    (void)state;
    for (uint32_t h = 0; h <= 0xffffu; h++) {
        uint32_t got = ipu_fw_half_to_float_bits((uint16_t)h);
        uint32_t want = reference((uint16_t)h);
        int nan = ((h >> 10) & 0x1fu) == 0x1fu && (h & 0x3ffu) != 0;
        /* NaNs: the host may quieten signalling NaNs; the firmware keeps the payload. */
        if (nan)
            assert_true((got & 0x7f800000u) == 0x7f800000u && (got & 0x7fffffu) != 0 &&
                        (got & 0x80000000u) == (want & 0x80000000u));
        else if (got != want)
            fail_msg("half 0x%04x: got 0x%08x, want 0x%08x", h, got, want);
    }
    assert_int_equal(ipu_fw_half_to_float_bits(0x3c00), 0x3f800000u); /* 1.0 */
    assert_int_equal(ipu_fw_half_to_float_bits(0x0001), 0x33800000u); /* smallest subnormal, 2^-24 */
    assert_int_equal(ipu_fw_half_to_float_bits(0xfc00), 0xff800000u); /* -inf */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes_and_names),
        cmocka_unit_test(test_half_widening_exhaustive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
