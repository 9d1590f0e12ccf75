// Checks shared by the model and RTL card tests (see card_checks.hpp).
#include "card_checks.hpp"

#include <cstdarg>
#include <cstddef>
#include <csetjmp>

// cmocka last: its macros (fail, check_expected...) clash with C++ headers.
extern "C" {
#include <cmocka.h>
}

namespace ipu::test {

void expect_isa_program_passes(Harness &h, const std::string &elf, const AfterRun &after_run)
{
    h.load_elf(elf, {0});
    RunResult r = h.run();
    if (after_run)
        after_run();
    if (r.exit_code[0] != 0)
        print_error("%s: case %u failed\n", elf.c_str(), r.exit_code[0]);
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.errors.size(), 0);
    assert_int_equal(r.exit_code[0], 0);
}

void expect_fault_case(Harness &h, const std::string &faults_elf, unsigned which, uint32_t cause, const char *label,
                       uint32_t addr_expected, const AfterRun &after_run)
{
    h.set_reg(IPU_REG_WATCHDOG_INSNS, 64); // 64 Ki instructions: catches the hung tile quickly
    h.load_elf(faults_elf, {1}, which);
    const uint32_t fault_pc = label ? h.symbol(label) : 0;
    if (label)
        assert_int_not_equal(fault_pc, 0);
    RunResult r = h.run(1u << 14);
    if (after_run)
        after_run();
    assert_int_equal(r.card_state, IPU_CARD_STATE_ERROR);
    assert_int_equal(r.errors.size(), 1);
    assert_int_equal(r.errors[0].cause, cause);
    assert_int_equal(r.errors[0].tile, 1);
    assert_int_equal(r.errors[0].context, 0);
    if (label)
        assert_int_equal(r.errors[0].pc, fault_pc);
    if (addr_expected != ~0u)
        assert_int_equal(r.errors[0].addr, addr_expected);
    assert_int_equal(r.tile_state[1], IPU_TILE_STATE_ERROR);
    h.set_reg(IPU_REG_TILE_SEL, 1);
    assert_int_equal(h.reg(IPU_REG_TILE_ERR_CAUSE), cause);
    // Recoverable: reset, reload, and a clean run in the same process.
    h.reset();
    assert_int_equal(h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK, IPU_CARD_STATE_IDLE);
    h.load_elf(faults_elf, {1}, 0);
    RunResult ok = h.run();
    if (after_run)
        after_run();
    assert_int_equal(ok.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(ok.exit_code[1], 42);
}

} // namespace ipu::test
