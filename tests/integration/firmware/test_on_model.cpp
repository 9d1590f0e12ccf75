// Firmware on the card model: console from every tile, C++ constructors, exit codes,
// a control program that uses every opcode, and the error record of every fault class.
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <csetjmp>
#include <cstring>
#include <string>
#include <vector>

#include "fault_kinds.h"
#include "ipu_fw/cp.h"
#include "tile_harness.hpp"

// cmocka last: its macros clash with C++ headers.
extern "C" {
#include <cmocka.h>
}

using ipu::test::Harness;
using ipu::test::RunResult;

namespace {

std::string elf(const char *name) { return std::string(IPU_TILE_DIR) + "/tiny/bin/" + name + ".elf"; }

// Every run gets a watchdog so that a hung tile fails the test instead of the timeout.
void arm_watchdog(Harness &h) { h.set_reg(IPU_REG_WATCHDOG_INSNS, 1024); }

void print_errors(const RunResult &r)
{
    for (const auto &e : r.errors)
        print_error("error record: cause %u tile %u context %u pc 0x%x addr 0x%x info 0x%x\n", e.cause, e.tile,
                    e.context, e.pc, e.addr, e.info);
}

void expect_clean_exit(const RunResult &r, unsigned tiles)
{
    print_errors(r);
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.errors.size(), 0);
    for (unsigned t = 0; t < tiles; t++)
        assert_int_equal(r.tile_state[t], IPU_TILE_STATE_EXITED);
}

std::string console_of(const RunResult &r, unsigned tile)
{
    auto it = r.console.find(tile);
    return it == r.console.end() ? std::string() : it->second;
}

// ---- printf, C++, exit -------------------------------------------------

void test_printf_from_every_tile(void **)
{
    Harness h("tiny");
    arm_watchdog(h);
    h.load_elf(elf("hello"));
    RunResult r = h.run();
    expect_clean_exit(r, h.num_tiles());
    assert_int_equal(r.console.size(), h.num_tiles());
    for (unsigned t = 0; t < h.num_tiles(); t++) {
        std::string want = "hello from tile " + std::to_string(t) + " of " + std::to_string(h.num_tiles()) + "\n";
        assert_string_equal(console_of(r, t).c_str(), want.c_str());
        assert_int_equal(r.exit_code[t], 0);
    }
}

void test_cxx_static_constructors_and_destructors(void **)
{
    Harness h("tiny");
    arm_watchdog(h);
    h.load_elf(elf("fw_ctors"));
    RunResult r = h.run();
    expect_clean_exit(r, h.num_tiles());
    for (unsigned t = 0; t < h.num_tiles(); t++) {
        assert_string_equal(console_of(r, t).c_str(), "ctors 0 1 2 area 49\ndtor 2\ndtor 1\n");
        assert_int_equal(r.exit_code[t], 42);
    }
}

void test_exit_code_reaches_host(void **)
{
    Harness h("tiny");
    arm_watchdog(h);
    h.load_elf(elf("fw_exit"));
    RunResult r = h.run();
    expect_clean_exit(r, h.num_tiles());
    for (unsigned t = 0; t < h.num_tiles(); t++) {
        assert_int_equal(r.exit_code[t], 100 + t);
        std::string want = "tile " + std::to_string(t) + " exiting";
        assert_string_equal(console_of(r, t).c_str(), want.c_str());
    }
}

// The libgloss port: bounded heap, ENOSYS, console descriptors (syscalls.c checks, exit code = failures).
void test_syscalls(void **)
{
    Harness h("tiny");
    arm_watchdog(h);
    h.load_elf(elf("fw_syscalls"), {0});
    RunResult r = h.run();
    expect_clean_exit(r, 1);
    const std::string out = console_of(r, 0);
    if (r.exit_code[0] != 0)
        print_error("%s", out.c_str());
    assert_int_equal(r.exit_code[0], 0);
    assert_true(out.rfind("raw write\nheap 8192 bytes, malloc got ", 0) == 0);
    assert_true(out.find("syscalls bad=0x0\n") != std::string::npos);
}

// A runtime image started with boot arg 0 has no program to run.
void test_runtime_image_without_program_aborts(void **)
{
    Harness h("tiny");
    arm_watchdog(h);
    h.load_elf(elf("fw_cp_image"), {1}, 0);
    RunResult r = h.run();
    assert_int_equal(r.card_state, IPU_CARD_STATE_ERROR);
    assert_int_equal(r.errors.size(), 1);
    assert_int_equal(r.errors[0].cause, IPU_ERR_FIRMWARE_ABORT);
    assert_int_equal(r.errors[0].info, 1); // IPU_RT_ABORT_NO_PROGRAM
    assert_int_equal(r.errors[0].tile, 1);
}

// ---- The control program ------------------------------------------------

constexpr uint32_t kHostIn = 0x10000000;  // device address of the host-to-tile buffer
constexpr uint32_t kHostOut = 0x10001000; // device address of the tile-to-host buffer
constexpr uint32_t kStateWords = 5;       // struct scale_state in cp_image.c
constexpr float kScale = 2.5f;

struct Image {
    Harness &h;
    uint32_t operator()(const char *name) const
    {
        uint32_t a = h.symbol(name);
        if (a == 0)
            fail_msg("fw_cp_image.elf has no symbol %s", name);
        return a;
    }
};

void write_u32s(Harness &h, unsigned tile, uint32_t addr, const std::vector<uint32_t> &words)
{
    h.write_tile(tile, addr, words.data(), words.size() * 4);
}

std::vector<uint32_t> read_u32s(Harness &h, unsigned tile, uint32_t addr, size_t n)
{
    std::vector<uint32_t> v(n);
    h.read_tile(tile, addr, v.data(), n * 4);
    return v;
}

uint32_t float_bits(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// The vertex tables and states that the graph compiler would lay out.
void write_compute_sets(Harness &h, const Image &sym, unsigned tile)
{
    std::vector<uint32_t> scale_table{8};
    for (uint32_t i = 0; i < 8; i++) {
        const uint32_t state = sym("cp_scale_state") + i * kStateWords * 4;
        scale_table.push_back(sym("cp_scale"));
        scale_table.push_back(state);
        write_u32s(h, tile, state,
                   {sym("cp_scale_in") + 4 * i, sym("cp_scale_out") + 4 * i, float_bits(kScale), 0, 0});
    }
    write_u32s(h, tile, sym("cp_scale_table"), scale_table);
    // REPEAT runs a C++ vertex class through IPU_VERTEX_ENTRY.
    write_u32s(h, tile, sym("cp_repeat_state"), {sym("cp_repeat_counter")});
    write_u32s(h, tile, sym("cp_repeat_table"), {1, sym("cp_increment_cxx"), sym("cp_repeat_state")});
    write_u32s(h, tile, sym("cp_while_body_table"), {1, sym("cp_increment"), sym("cp_while_counter")});
    write_u32s(h, tile, sym("cp_until_body_table"), {1, sym("cp_increment"), sym("cp_until_counter")});
    write_u32s(h, tile, sym("cp_while_cond_table"), {1, sym("cp_countdown"), sym("cp_while_countdown")});
    write_u32s(h, tile, sym("cp_until_cond_table"), {1, sym("cp_countdown"), sym("cp_until_countdown")});
}

// One program for every tile: each tile's lists hold its own part.
std::vector<uint32_t> build_every_opcode_program(const Image &sym)
{
    std::vector<uint32_t> words(256);
    ipu_cp_builder b;
    ipu_cp_builder_init(&b, words.data(), words.size());
    ipu_cp_emit_sync(&b, IPU_SYNC_KIND_INTERNAL, 0);
    ipu_cp_emit_sync(&b, IPU_SYNC_KIND_EXTERNAL, 5);
    ipu_cp_emit_exchange(&b, sym("cp_exchange_list"));
    ipu_cp_emit_sync(&b, IPU_SYNC_KIND_INTERNAL, 0);
    ipu_cp_emit_execute(&b, sym("cp_scale_table"));

    ipu_cp_mark m = ipu_cp_begin_repeat(&b, 3);
    ipu_cp_emit_execute(&b, sym("cp_repeat_table"));
    ipu_cp_end_repeat(&b, &m);

    m = ipu_cp_begin_if(&b, 4, sym("cp_if_true"));
    ipu_cp_emit_copy(&b, sym("cp_if_result_1"), sym("cp_const_a"), 4);
    ipu_cp_else(&b, &m);
    ipu_cp_emit_copy(&b, sym("cp_if_result_1"), sym("cp_const_b"), 4);
    ipu_cp_end_if(&b, &m);
    m = ipu_cp_begin_if(&b, 1, sym("cp_if_false"));
    ipu_cp_emit_copy(&b, sym("cp_if_result_2"), sym("cp_const_a"), 4);
    ipu_cp_else(&b, &m);
    ipu_cp_emit_copy(&b, sym("cp_if_result_2"), sym("cp_const_b"), 4);
    ipu_cp_end_if(&b, &m);

    const uint32_t values[] = {10, 20};
    const char *conds[] = {"cp_switch_value", "cp_switch_miss"};
    const char *results[] = {"cp_switch_result_1", "cp_switch_result_2"};
    for (int s = 0; s < 2; s++) {
        m = ipu_cp_begin_switch(&b, 2, sym(conds[s]), 2, values);
        ipu_cp_case(&b, &m);
        ipu_cp_emit_copy(&b, sym(results[s]), sym("cp_const_a"), 4);
        ipu_cp_case(&b, &m);
        ipu_cp_emit_copy(&b, sym(results[s]), sym("cp_const_b"), 4);
        ipu_cp_default(&b, &m);
        ipu_cp_emit_copy(&b, sym(results[s]), sym("cp_const_c"), 4);
        ipu_cp_end_switch(&b, &m);
    }

    m = ipu_cp_begin_while(&b, 1, 0, sym("cp_while_more"));
    ipu_cp_emit_execute(&b, sym("cp_while_cond_table"));
    ipu_cp_while_body(&b, &m);
    ipu_cp_emit_execute(&b, sym("cp_while_body_table"));
    ipu_cp_end_while(&b, &m);
    m = ipu_cp_begin_while(&b, 4, 1, sym("cp_until_done"));
    ipu_cp_emit_execute(&b, sym("cp_until_cond_table"));
    ipu_cp_while_body(&b, &m);
    ipu_cp_emit_execute(&b, sym("cp_until_body_table"));
    ipu_cp_end_while(&b, &m);

    ipu_cp_emit_stream_copy(&b, 7, sym("cp_hx_list"));
    ipu_cp_emit_print_tensor(&b, IPU_DTYPE_FLOAT, sym("cp_print_floats"), 3, sym("cp_name_floats"));
    ipu_cp_emit_print_tensor(&b, IPU_DTYPE_INT, sym("cp_print_ints"), 2, sym("cp_name_ints"));
    ipu_cp_emit_print_tensor(&b, IPU_DTYPE_HALF, sym("cp_print_halves"), 2, sym("cp_name_halves"));
    ipu_cp_emit_copy(&b, sym("cp_copy_dst"), sym("cp_copy_src"), 12);
    ipu_cp_emit_end(&b);
    // Never reached: END stops the program.
    ipu_cp_emit_print_tensor(&b, IPU_DTYPE_INT, sym("cp_print_ints"), 2, sym("cp_name_ints"));
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_OK);
    words.resize(b.length);
    size_t bad = 0;
    assert_int_equal(ipu_cp_validate(words.data(), words.size(), &bad), IPU_CP_OK);
    return words;
}

// Runs the every-opcode program on every tile of tiny simulated with `threads`
// host threads, checks every tile's state and returns the run.
RunResult run_every_opcode(unsigned threads)
{
    Harness h("tiny", threads);
    arm_watchdog(h);
    h.load_elf(elf("fw_cp_image"));
    const Image sym{h};
    const unsigned tiles = h.num_tiles();
    const std::vector<uint32_t> program = build_every_opcode_program(sym);

    uint8_t *host_in = h.alloc_host(4096);
    uint8_t *host_out = h.alloc_host(4096);
    h.map(0, kHostIn, host_in, 4096, true, false);
    h.map(1, kHostOut, host_out, 4096, false, true);

    for (unsigned t = 0; t < tiles; t++) {
        write_u32s(h, t, sym("cp_program"), program);
        write_compute_sets(h, sym, t);
        write_u32s(h, t, sym("cp_send"), {t * 100, t * 100 + 1, t * 100 + 2, t * 100 + 3});
        write_u32s(h, t, sym("cp_exchange_list"), {1, (t + 1) % tiles, sym("cp_recv"), sym("cp_send"), 16});
        write_u32s(h, t, sym("cp_hx_list"),
                   {2, kHostIn + 16 * t, sym("cp_stream_in"), 16, 0, kHostOut + 16 * t, sym("cp_stream_out"), 16,
                    IPU_HX_TO_HOST});
        h.setup_tile(t, sym("_start"), sym("cp_program"));
    }

    // The host sees the syncs in order; input is provided at the first
    // stream-copy sync and output is complete at the second.
    std::vector<uint32_t> sync_ids;
    std::vector<uint32_t> out_at_done;
    RunResult r = h.run(1u << 20, 1u << 16, [&](uint32_t id) {
        sync_ids.push_back(id);
        if (id == 7)
            for (uint32_t i = 0; i < 4 * tiles; i++) {
                const uint32_t v = 1000 + i;
                std::memcpy(host_in + 4 * i, &v, 4);
            }
        if (id == (7 | IPU_CP_STREAM_DONE_FLAG))
            out_at_done.assign(reinterpret_cast<uint32_t *>(host_out), reinterpret_cast<uint32_t *>(host_out) + 4 * tiles);
    });
    expect_clean_exit(r, tiles);
    assert_int_equal(r.host_syncs, 3);
    assert_int_equal(sync_ids.size(), 3);
    assert_int_equal(sync_ids[0], 5);
    assert_int_equal(sync_ids[1], 7);
    assert_int_equal(sync_ids[2], 7 | IPU_CP_STREAM_DONE_FLAG);

    const uint32_t stacks = h.symbol("__ipu_worker_stacks_base");
    const uint32_t stack_bytes = h.symbol("__ipu_worker_stack_bytes");
    for (unsigned t = 0; t < tiles; t++) {
        assert_int_equal(r.exit_code[t], 0);
        // EXECUTE: 8 vertices, two batches, each on its own worker and stack.
        for (uint32_t i = 0; i < 8; i++) {
            float out;
            h.read_tile(t, sym("cp_scale_out") + 4 * i, &out, 4);
            assert_true(out == kScale * static_cast<float>(i + 1));
            auto st = read_u32s(h, t, sym("cp_scale_state") + i * kStateWords * 4, kStateWords);
            const uint32_t ctx = st[3], sp = st[4];
            assert_int_equal(ctx, i % 6 + 1);
            assert_true(sp > stacks + (ctx - 1) * stack_bytes && sp <= stacks + ctx * stack_bytes);
        }
        // EXCHANGE + SYNC: the left neighbour's data.
        const unsigned left = (t + tiles - 1) % tiles;
        auto recv = read_u32s(h, t, sym("cp_recv"), 4);
        for (uint32_t i = 0; i < 4; i++)
            assert_int_equal(recv[i], left * 100 + i);
        // REPEAT, IF/else, SWITCH/default, WHILE (both senses).
        assert_int_equal(h.read_tile_u32(t, sym("cp_repeat_counter")), 3);
        assert_int_equal(h.read_tile_u32(t, sym("cp_if_result_1")), 0xaaaa0001u);
        assert_int_equal(h.read_tile_u32(t, sym("cp_if_result_2")), 0xbbbb0002u);
        assert_int_equal(h.read_tile_u32(t, sym("cp_switch_result_1")), 0xbbbb0002u);
        assert_int_equal(h.read_tile_u32(t, sym("cp_switch_result_2")), 0xcccc0003u);
        assert_int_equal(h.read_tile_u32(t, sym("cp_while_counter")), 2);
        assert_int_equal(h.read_tile_u32(t, sym("cp_until_counter")), 3);
        // STREAM_COPY both ways.
        auto in = read_u32s(h, t, sym("cp_stream_in"), 4);
        for (uint32_t i = 0; i < 4; i++) {
            assert_int_equal(in[i], 1000 + 4 * t + i);
            assert_int_equal(out_at_done.at(4 * t + i), 11 * (i + 1));
        }
        // COPY and PRINT_TENSOR; nothing after END ran.
        auto copied = read_u32s(h, t, sym("cp_copy_dst"), 3);
        assert_int_equal(copied[0], 5);
        assert_int_equal(copied[2], 7);
        assert_string_equal(console_of(r, t).c_str(), "floats: [1.5 -2 0.25]\nints: [-7 8]\nhalves: [1 -2]\n");
    }
    return r;
}

void test_control_program_every_opcode(void **) { run_every_opcode(1); }

// The same program simulated on several host threads gives the same result
// and the same cycle count (bulk-synchronous exchange, per-context clocks).
void test_control_program_threads_agree(void **)
{
    const RunResult one = run_every_opcode(1);
    const RunResult three = run_every_opcode(3);
    assert_int_equal(one.cycles, three.cycles);
    assert_true(one.cycles > 0);
}

// ---- Faults ----------------------------------------------------------------

struct FaultCase {
    unsigned kind;
    uint32_t cause;
    const char *pc_label;  // the faulting instruction, or nullptr
    const char *pc_within; // or a function that contains the PC (ipu_fail for software faults)
    uint32_t context;
    int64_t info;          // expected ERR_INFO, or -1 to ignore (-2: kInfoWorkerStackBase)
    int64_t addr;          // expected ERR_ADDR, or -1 to ignore
};

constexpr int64_t kInfoWorkerStackBase = -2; // FaultCase::info: expect __ipu_worker_stacks_base

void run_fault(const FaultCase &c)
{
    constexpr unsigned kTile = 2;
    Harness h("tiny");
    arm_watchdog(h);
    h.load_elf(elf("fw_faults"), {kTile}, c.kind);
    RunResult r = h.run(1u << 16);
    if (r.errors.size() != 1 || r.errors[0].cause != c.cause) {
        print_error("fault case %u:\n", c.kind);
        print_errors(r);
    }
    assert_int_equal(r.card_state, IPU_CARD_STATE_ERROR);
    assert_int_equal(r.errors.size(), 1);
    const auto &e = r.errors[0];
    assert_int_equal(e.cause, c.cause);
    assert_int_equal(e.tile, kTile);
    assert_int_equal(e.context, c.context);
    assert_int_equal(r.tile_state[kTile], IPU_TILE_STATE_ERROR);
    if (c.pc_label)
        assert_int_equal(e.pc, h.symbol(c.pc_label));
    if (c.pc_within) {
        const uint32_t fn = h.symbol(c.pc_within);
        assert_true(fn != 0 && e.pc >= fn && e.pc < fn + 64);
    }
    if (c.info >= 0)
        assert_int_equal(e.info, static_cast<uint32_t>(c.info));
    if (c.info == kInfoWorkerStackBase) // the fault's info is the limit: worker 1's stack base
        assert_int_equal(e.info, h.symbol("__ipu_worker_stacks_base"));
    if (c.addr >= 0)
        assert_int_equal(e.addr, static_cast<uint32_t>(c.addr));
}

void test_fault_records(void **)
{
    const FaultCase cases[] = {
        {FW_FAULT_ILLEGAL, IPU_ERR_ILLEGAL_INSTRUCTION, "fw_pc_illegal", nullptr, 0, -1, 0},
        {FW_FAULT_FETCH, IPU_ERR_FETCH_FAULT, nullptr, nullptr, 0, -1, 0},
        {FW_FAULT_LOAD, IPU_ERR_LOAD_FAULT, "fw_pc_load", nullptr, 0, -1, 0},
        {FW_FAULT_STORE, IPU_ERR_STORE_FAULT, "fw_pc_store", nullptr, 0, -1, 16},
        {FW_FAULT_LOAD_MISALIGNED, IPU_ERR_LOAD_MISALIGNED, "fw_pc_load_misaligned", nullptr, 0, -1,
         IPU_TILE_SRAM_BASE + 2},
        {FW_FAULT_STORE_MISALIGNED, IPU_ERR_STORE_MISALIGNED, "fw_pc_store_misaligned", nullptr, 0, -1,
         IPU_TILE_SRAM_BASE + 2},
        {FW_FAULT_ECALL, IPU_ERR_ECALL, "fw_pc_ecall", nullptr, 0, -1, -1},
        {FW_FAULT_EBREAK, IPU_ERR_EBREAK, "fw_pc_ebreak", nullptr, 0, -1, -1},
        {FW_FAULT_ABORT, IPU_ERR_FIRMWARE_ABORT, nullptr, "ipu_fail", 0, 0x100 + 6, -1},
        {FW_FAULT_WORKER_LOAD, IPU_ERR_LOAD_FAULT, "fw_pc_worker_load", nullptr, 1, -1, 0},
        {FW_FAULT_VERTEX_FALSE, IPU_ERR_VERTEX_FAILED, nullptr, "ipu_fail", 0, 7, -1},
        {FW_FAULT_BAD_PROGRAM, IPU_ERR_BAD_CONTROL_PROGRAM, nullptr, "ipu_fail", 0, 2, -1},
        {FW_FAULT_BAD_EXCHANGE, IPU_ERR_BAD_EXCHANGE, nullptr, nullptr, 0, -1, -1},
        {FW_FAULT_WORKER_MISUSE, IPU_ERR_WORKER_MISUSE, nullptr, "fw_vertex_exit", 2, -1, -1},
        {FW_FAULT_HOST_EXCHANGE, IPU_ERR_HOST_EXCHANGE, nullptr, "ipu_fail", 0, 0, -1},
        {FW_FAULT_XLAT_MISS, IPU_ERR_XLAT_MISS, nullptr, nullptr, 0, -1, -1},
        // The stack guard: worker 1's limit is the base of the worker stacks.
        {FW_FAULT_WORKER_STACK, IPU_ERR_STACK_OVERFLOW, nullptr, "fw_vertex_big_stack", 1, -2, -1},
    };
    static_assert(sizeof(cases) / sizeof(cases[0]) == FW_FAULT_COUNT - 1, "a case per fault kind");
    for (const FaultCase &c : cases)
        run_fault(c);
}

} // namespace

int main()
{
    const CMUnitTest tests[] = {
        cmocka_unit_test(test_printf_from_every_tile),
        cmocka_unit_test(test_cxx_static_constructors_and_destructors),
        cmocka_unit_test(test_exit_code_reaches_host),
        cmocka_unit_test(test_syscalls),
        cmocka_unit_test(test_runtime_image_without_program_aborts),
        cmocka_unit_test(test_control_program_every_opcode),
        cmocka_unit_test(test_control_program_threads_agree),
        cmocka_unit_test(test_fault_records),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
