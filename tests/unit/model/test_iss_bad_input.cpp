// Bad input on the JIT tier (issue 35): self-modifying code, overlapping
// blocks, jumps into the middle of a translated block, code at the end of tile
// memory and illegal encodings. Each case runs one program on the reference
// interpreter and on the JIT in the same slices (long ones, and short ones
// that end inside blocks), with and without a retire hook (lock-step and
// tracing run traced translations), and requires identical machines after
// every slice and, with the hook, the identical stream of retired
// instructions.
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "iss.hpp"
#include "iss_compare.hpp"
#include "iss_fast.hpp"
#include "tile.hpp"

// cmocka last: its macros (fail, check_expected...) clash with C++ headers.
#include <csetjmp>
#include <cstdarg>
#include <cstddef>
extern "C" {
#include <cmocka.h>
}

namespace {

using ipu::model::Context;
using ipu::model::IssMode;
using ipu::model::Stop;
using iss_compare::Machine;

constexpr uint32_t kBase = IPU_TILE_SRAM_BASE;
constexpr uint32_t kSram = 4096;

// RV32 encodings, just the ones the programs use.
uint32_t i_type(uint32_t opc, uint32_t f3, uint32_t rd, uint32_t rs1, int32_t imm)
{
    return (static_cast<uint32_t>(imm) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc;
}
uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(0x13, 0, rd, rs1, imm); }
uint32_t jalr(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(0x67, 0, rd, rs1, imm); }
uint32_t sw(uint32_t rs2, uint32_t rs1, int32_t imm)
{
    const uint32_t u = static_cast<uint32_t>(imm);
    return ((u >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (2u << 12) | ((u & 31) << 7) | 0x23;
}
uint32_t branch(uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t off)
{
    const uint32_t u = static_cast<uint32_t>(off);
    return ((u >> 12 & 1) << 31) | ((u >> 5 & 0x3f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) |
           ((u >> 1 & 0xf) << 8) | ((u >> 11 & 1) << 7) | 0x63;
}
uint32_t bne(uint32_t a, uint32_t b, int32_t off) { return branch(1, a, b, off); }
uint32_t blt(uint32_t a, uint32_t b, int32_t off) { return branch(4, a, b, off); }
uint32_t jal(uint32_t rd, int32_t off)
{
    const uint32_t u = static_cast<uint32_t>(off);
    return ((u >> 20 & 1) << 31) | ((u >> 1 & 0x3ff) << 21) | ((u >> 11 & 1) << 20) | ((u >> 12 & 0xff) << 12) |
           (rd << 7) | 0x6f;
}
constexpr uint32_t kEcall = 0x00000073;

struct Program {
    uint32_t at = 0;                 // SRAM offset of the first word
    std::vector<uint32_t> words;
    std::function<void(Context &)> regs; // registers besides x5 = the program's address
    // Between slices: something the host does to both tiles' SRAM (offset, word), once after slice `after`.
    int host_after = -1;
    uint32_t host_off = 0, host_word = 0;
};

struct Retired {
    unsigned context, rd;
    uint32_t pc, insn, value;
    uint64_t cycle;
    bool operator==(const Retired &o) const
    {
        return context == o.context && rd == o.rd && pc == o.pc && insn == o.insn && value == o.value &&
               cycle == o.cycle;
    }
};
void record(void *opaque, const ipu::model::Tile &, unsigned context, uint32_t pc, uint32_t insn, unsigned rd,
            uint32_t value, uint64_t cycle)
{
    static_cast<std::vector<Retired> *>(opaque)->push_back(Retired{context, rd, pc, insn, value, cycle});
}

// Runs `p` on the interpreter and the JIT in slices of `slice` instructions
// (with a hook when `traced`); fails at the first difference.
void run_both(const Program &p, uint64_t slice, bool traced)
{
    std::vector<uint8_t> image(kSram, 0);
    std::memcpy(image.data() + p.at, p.words.data(), 4 * p.words.size());
    Context start;
    start.state = IPU_CTX_STATE_RUNNING;
    start.pc = kBase + p.at;
    start.x[2] = kBase + 3072;
    if (p.regs)
        p.regs(start);
    start.x[5] = kBase + p.at;
    Machine ref, jit;
    iss_compare::setup(ref, image, start);
    iss_compare::setup(jit, image, start);
    ref.tile.iss.mode = IssMode::Interp;
    jit.tile.iss.mode = IssMode::Jit;
    std::vector<Retired> ref_seen, jit_seen;
    const ipu::model::RetireHook ref_hook{&ref_seen, record}, jit_hook{&jit_seen, record};
    uint64_t total = 0;
    for (int s = 0; total < 100000; s++) {
        uint64_t na = 0, nb = 0;
        const Stop sa = ipu::model::run_context(ref.tile, 0, slice, &na, traced ? &ref_hook : nullptr);
        const Stop sb = ipu::model::run_context(jit.tile, 0, slice, &nb, traced ? &jit_hook : nullptr);
        const std::string d = iss_compare::differ(ref, jit);
        if (!d.empty() || sa != sb || na != nb || ref_seen != jit_seen)
            fail_msg("slice %d of %llu instructions%s: %s differs (stop %d/%d, retired %llu/%llu, %zu/%zu reported)",
                     s, static_cast<unsigned long long>(slice), traced ? " with a retire hook" : "",
                     d.empty() ? "the stop, count or retire stream" : d.c_str(), static_cast<int>(sa),
                     static_cast<int>(sb), static_cast<unsigned long long>(na), static_cast<unsigned long long>(nb),
                     ref_seen.size(), jit_seen.size());
        total += na;
        if (sa != Stop::Budget)
            break;
        if (s == p.host_after) { // the host writes code while the tile is stopped, as a DMA would
            std::memcpy(ref.sram.data() + p.host_off, &p.host_word, 4);
            std::memcpy(jit.sram.data() + p.host_off, &p.host_word, 4);
            jit.tile.iss.maybe_changed();
        }
    }
    assert_true(total > 0);
    assert_true(ref.tile.has_fault); // every program ends in a fault, compared above
    if (traced)
        assert_int_equal(ref_seen.size(), total);
}

// Every case in long slices, in short ones that end inside blocks, and in single steps; each with and without a hook.
void run_cases(const Program &p)
{
    for (uint64_t slice : {100000ull, 3ull, 5ull, 1ull})
        for (bool traced : {false, true})
            run_both(p, slice, traced);
}

// A loop that stores into the next instruction of its own block (which must
// run as stored), then the host rewrites an instruction between slices.
void test_self_modifying_code(void **)
{
    Program p;
    p.words = {
        addi(1, 0, 0),  // 0
        addi(1, 1, 1),  // 4: loop
        sw(7, 5, 12),   // 8: stores x7 over the next word
        addi(3, 3, 1),  // 12: replaced by addi x3, x3, 100 in the first iteration
        blt(1, 4, -12), // 16: to 4 while x1 < x4
        addi(8, 8, 1),  // 20: the host rewrites this word
        kEcall,         // 24
    };
    p.regs = [](Context &c) {
        c.x[4] = 5;
        c.x[7] = addi(3, 3, 100);
    };
    p.host_after = 2;
    p.host_off = 20;
    p.host_word = addi(8, 8, 7);
    run_cases(p);
}

// Two blocks over the same words (one from 0, one from the loop at 4); a store
// into a word both hold, then the block from 0 runs again.
void test_overlapping_code(void **)
{
    Program p;
    p.words = {
        addi(1, 0, 0),  // 0: block A starts here
        addi(3, 3, 1),  // 4: loop, block B starts here
        addi(8, 8, 3),  // 8: in A and B; rewritten to addi x8, x8, 100
        addi(1, 1, 1),  // 12
        bne(1, 9, 8),   // 16: skip the store unless x1 == 3
        sw(7, 5, 8),    // 20
        blt(1, 4, -20), // 24: to 4
        bne(10, 0, 12), // 28: second pass: end
        addi(10, 0, 1), // 32
        jal(0, -36),    // 36: run A again
        kEcall,         // 40
    };
    p.regs = [](Context &c) {
        c.x[4] = 6;
        c.x[9] = 3;
        c.x[7] = addi(8, 8, 100);
    };
    run_cases(p);
}

// A block runs whole (translated), then jumps land in its middle, and finally
// at a misaligned address inside it (fetch fault).
void test_jump_into_translated_block(void **)
{
    Program p;
    p.words = {
        addi(1, 1, 1),   // 0
        addi(3, 3, 2),   // 4: entered by the second jalr
        addi(8, 8, 3),   // 8: entered by the first jalr
        addi(11, 11, 4), // 12
        bne(10, 0, 12),  // 16
        addi(10, 0, 1),  // 20
        jalr(0, 5, 8),   // 24: into the middle of the block at 0
        addi(10, 10, 1), // 28
        bne(10, 12, 8),  // 32
        jalr(0, 5, 6),   // 36: misaligned, inside the block at 0
        jalr(0, 5, 4),   // 40
    };
    p.regs = [](Context &c) { c.x[12] = 3; };
    run_cases(p);
}

// Code in the last words of SRAM: a loop there, then it runs off the end
// (fetch fault at the first address past SRAM); blocks are cut at the end.
void test_code_at_end_of_memory(void **)
{
    Program p;
    p.at = kSram - 16;
    p.words = {
        addi(1, 1, 1),  // end - 16
        addi(3, 3, 1),  // end - 12: loop
        addi(1, 1, 1),  // end - 8
        blt(1, 4, -8),  // end - 4: the last word
    };
    p.regs = [](Context &c) { c.x[4] = 9; };
    run_cases(p);
}

// Illegal encodings after a valid instruction in one block, each its own
// program: the fault (pc, cause, the word as address) and the state before it.
void test_illegal_encodings(void **)
{
    const uint32_t illegal[] = {
        0x00000000,                     // all zeros
        0xffffffff,                     // all ones
        0x00004501,                     // a compressed instruction (no C extension)
        0x00b50553 | (5u << 12),        // fadd.s with the reserved rounding mode 5
        0x00b50553 | (7u << 12),        // fadd.s, dynamic rounding, frm = 6 (reserved)
        i_type(0x67, 1, 1, 5, 0),       // jalr with funct3 1
        0x02051513,                     // slli with a funct7 bit set (RV64's shamt[5])
        0x7ff02573,                     // csrrs of a CSR the tile does not have
        0x00100073,                     // ebreak
        kEcall,                         // ecall
        0x0000100f | (1u << 7),         // fence.i with rd set (valid: a NOP), then the ecall after it
        0x0000002b,                     // custom-1 opcode
        i_type(0x03, 7, 1, 5, 0),       // a load with funct3 7
        0xe0051553,                     // fmv.x.w with funct3 1 (fclass.s: not on the tile)
    };
    for (uint32_t w : illegal) {
        Program p;
        p.words = {addi(1, 1, 1), addi(3, 3, 2), w, addi(8, 8, 1), kEcall};
        p.regs = [](Context &c) { c.frm = 6; };
        run_cases(p);
    }
}

} // namespace

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_self_modifying_code),
        cmocka_unit_test(test_overlapping_code),
        cmocka_unit_test(test_jump_into_translated_block),
        cmocka_unit_test(test_code_at_end_of_memory),
        cmocka_unit_test(test_illegal_encodings),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
