// W^X for the JIT's code memory (issue 35): the pages a translation runs from
// are executable and not writable (the translator writes through a second,
// non-executable mapping of the same memory), checked in /proc/self/maps.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "iss_blocks.hpp"
#include "iss_jit.hpp"
#include "iss_shared_code.hpp"

// cmocka last: its macros clash with C++ headers.
#include <csetjmp>
#include <cstdarg>
#include <cstddef>
extern "C" {
#include <cmocka.h>
}

namespace {

using ipu::model::Block;
using ipu::model::Op;
using ipu::model::OpKind;

// The permissions ("r-xs" and the like) of the mapping holding `addr`, or "" if none does.
std::string perms_of(uintptr_t addr)
{
    FILE *f = std::fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char line[512];
    std::string found;
    while (found.empty() && std::fgets(line, sizeof line, f)) {
        unsigned long lo = 0, hi = 0;
        char p[8] = {};
        if (std::sscanf(line, "%lx-%lx %7s", &lo, &hi, p) == 3 && addr >= lo && addr < hi)
            found = p;
    }
    std::fclose(f);
    return found;
}

// A one-instruction block (li x5, 7) as the block cache would decode it.
Block one_op_block(uint32_t imm)
{
    const uint32_t raw[] = {(imm << 12) | (5u << 7) | 0x37u};
    const Op ops[] = {Op{OpKind::LI, 5, 0, 0, imm << 12}, Op{OpKind::END, 0, 0, 0, 0}};
    Block b;
    b.use(ipu::model::make_shared_code(IPU_TILE_SRAM_BASE, raw, ops, false));
    return b;
}

void test_translation_pages_are_not_writable(void **)
{
    for (uint32_t imm = 1; imm <= 3; imm++) { // several translations, the same chunk
        const Block b = one_op_block(imm);
        const ipu::model::JitFn fn = ipu::model::jit_translate(b);
        assert_non_null(reinterpret_cast<void *>(fn));
        const std::string p = perms_of(reinterpret_cast<uintptr_t>(fn));
        assert_int_equal(p.size(), 4);
        assert_int_equal(p[0], 'r');
        assert_int_equal(p[1], '-'); // not writable
        assert_int_equal(p[2], 'x');
    }
}

} // namespace

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_translation_pages_are_not_writable),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
