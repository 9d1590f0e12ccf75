/* Unit tests of gc-memorytest's checker and the tile program encodings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ipu_card/hw.h"
#include "memtest_check.h"
#include "tile_kernels.h"
#include "tile_program.h"

enum { BASE = IPU_TILE_SRAM_BASE, WORDS = 80 };

static void fill(enum gc_mem_pattern p, uint32_t *w)
{
    for (uint32_t i = 0; i < WORDS; i++)
        w[i] = gc_mem_expected(p, BASE, BASE + 4 * i);
}

static void patterns_have_their_documented_values(void **state)
{
    (void)state;
    assert_int_equal(gc_mem_expected(GC_MEM_ADDRESS, BASE, BASE + 0x40), BASE + 0x40);
    assert_int_equal(gc_mem_expected(GC_MEM_WALKING_ONES, BASE, BASE), 1u);
    assert_int_equal(gc_mem_expected(GC_MEM_WALKING_ONES, BASE, BASE + 4 * 31), 0x80000000u);
    assert_int_equal(gc_mem_expected(GC_MEM_WALKING_ONES, BASE, BASE + 4 * 32), 1u); /* wraps */
    assert_int_equal(gc_mem_expected(GC_MEM_WALKING_ZEROS, BASE, BASE + 4), 0xfffffffdu);
    /* counted from the region start, not from SRAM's */
    assert_int_equal(gc_mem_expected(GC_MEM_WALKING_ONES, BASE + 0x200, BASE + 0x204), 2u);
}

static void clean_memory_has_no_faults(void **state)
{
    (void)state;
    uint32_t w[WORDS];
    struct gc_mem_fault f[4];
    for (int p = 0; p < GC_MEM_PATTERNS; p++) {
        size_t n = 0;
        fill((enum gc_mem_pattern)p, w);
        assert_int_equal(gc_mem_check((enum gc_mem_pattern)p, 2, BASE, BASE, w, WORDS, f, 4, &n), 0);
        assert_int_equal(n, 0);
    }
}

static void a_corrupted_word_is_reported_with_tile_and_address(void **state)
{
    (void)state;
    uint32_t w[WORDS];
    struct gc_mem_fault f[4];
    size_t n = 0;
    fill(GC_MEM_WALKING_ZEROS, w);
    w[37] ^= 0x100u; /* one flipped bit */
    assert_int_equal(gc_mem_check(GC_MEM_WALKING_ZEROS, 3, BASE, BASE, w, WORDS, f, 4, &n), 1);
    assert_int_equal(n, 1);
    assert_int_equal(f[0].tile, 3);
    assert_int_equal(f[0].addr, BASE + 4 * 37);
    assert_int_equal(f[0].expected, ~(1u << 5));
    assert_int_equal(f[0].actual, ~(1u << 5) ^ 0x100u);
    assert_int_equal(f[0].pattern, GC_MEM_WALKING_ZEROS);
}

static void faults_beyond_the_limit_are_counted_not_stored(void **state)
{
    (void)state;
    uint32_t w[WORDS] = {0}; /* all zero: every address word is wrong */
    struct gc_mem_fault f[3];
    size_t n = 0;
    assert_int_equal(gc_mem_check(GC_MEM_ADDRESS, 0, BASE, BASE + 16, w, 10, f, 3, &n), 10);
    assert_int_equal(n, 3);
    assert_int_equal(f[2].addr, BASE + 16 + 8);
}

static void pattern_names_round_trip(void **state)
{
    (void)state;
    for (int p = 0; p < GC_MEM_PATTERNS; p++)
        assert_int_equal(gc_mem_pattern_parse(gc_mem_pattern_name((enum gc_mem_pattern)p)), p);
    assert_int_equal(gc_mem_pattern_parse("checkerboard"), -1);
    assert_int_equal(gc_mem_pattern_parse(NULL), -1);
    assert_string_equal(gc_mem_pattern_name(GC_MEM_PATTERNS), "unknown");
}

/* Expected words from the RISC-V GNU assembler (rv32imf). */
static void encodings_match_the_gnu_assembler(void **state)
{
    (void)state;
    assert_int_equal(gc_rv_sw(5, 5, 0), 0x0052a023u);             /* sw t0, 0(t0) */
    assert_int_equal(gc_rv_fmadd_s(3, 1, 2, 3), 0x182081c3u);     /* fmadd.s ft3, ft1, ft2, ft3, rne */
    assert_int_equal(gc_rv_fmv_w_x(1, 6), 0xf00300d3u);           /* fmv.w.x ft1, t1 */
    assert_int_equal(gc_rv_fsw(4, 7, 8), 0x0043a427u);            /* fsw ft4, 8(t2) */
    assert_int_equal(gc_rv_bltu(5, 6, -16), 0xfe62e8e3u);         /* bltu t0, t1, .-16 */
    assert_int_equal(gc_rv_slli(29, 7, 1), 0x00139e93u);          /* slli t4, t2, 1 */
    assert_int_equal(gc_rv_srli(7, 7, 31), 0x01f3d393u);          /* srli t2, t2, 31 */
    assert_int_equal(gc_rv_xori(28, 7, -1), 0xfff3ce13u);         /* not t3, t2 */
    assert_int_equal(gc_rv_csrrs(7, 0x804, 0), 0x804023f3u);      /* csrr t2, 0x804 */
}

static void li_handles_a_negative_low_part(void **state)
{
    (void)state;
    uint32_t w[2];
    struct gc_asm a = {w, 0, 2, 0};
    gc_asm_li(&a, 5, 0x00100800u); /* low part 0x800 is -2048 after sign extension */
    assert_int_equal(a.n, 2);
    assert_int_equal(w[0], gc_rv_lui(5, 0x101));
    assert_int_equal(w[1], gc_rv_addi(5, 5, -2048));
    gc_asm_emit(&a, 0);
    assert_true(a.overflow);
}

static void kernels_fit_their_space(void **state)
{
    (void)state;
    uint32_t w[GC_KERNEL_BYTES / 4];
    struct gc_asm a = {w, 0, GC_KERNEL_BYTES / 4, 0};
    gc_kernel_flops(&a, BASE, IPU_TILE_CONTEXTS_MAX - 1, 1000, BASE + GC_KERNEL_BYTES);
    assert_false(a.overflow);
    a.n = 0;
    gc_kernel_fill(&a, GC_MEM_WALKING_ZEROS, BASE, BASE + 0x1000);
    gc_kernel_exchange_loop(&a, BASE + 256, 5);
    assert_false(a.overflow);
    assert_true(a.n * 4 <= 256); /* the exchange tools put their list at 256 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(patterns_have_their_documented_values),
        cmocka_unit_test(clean_memory_has_no_faults),
        cmocka_unit_test(a_corrupted_word_is_reported_with_tile_and_address),
        cmocka_unit_test(faults_beyond_the_limit_are_counted_not_stored),
        cmocka_unit_test(pattern_names_round_trip),
        cmocka_unit_test(encodings_match_the_gnu_assembler),
        cmocka_unit_test(li_handles_a_negative_low_part),
        cmocka_unit_test(kernels_fit_their_space),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
