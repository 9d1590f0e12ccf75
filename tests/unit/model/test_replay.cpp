// Replay of traces that were not written by the recorder (issue 36): a stored
// board with a field out of range, an advance budget no host asks for. Each is
// refused with a message naming the field (ipu-replay exits 2), never run.
#include <cerrno>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <unistd.h>

#include "ipu_backends/record.h"
#include "ipu_board.h"
#include "ipu_card/hw.h"
#include "trace_format.hpp"

// cmocka last: its macros (fail, check_expected...) clash with C++ headers.
extern "C" {
#include <cmocka.h>
}

namespace {

namespace tr = ipu::trace;

// A trace header for `board`, recorded on the model by a polling host.
tr::Writer header(const ipu_board &board)
{
    tr::Writer w;
    w.put_bytes(tr::kMagic, sizeof tr::kMagic);
    w.put<uint32_t>(tr::kVersion);
    w.put<uint32_t>(sizeof board);
    w.put_bytes(&board, sizeof board);
    w.put<uint32_t>(5);
    w.put_bytes("model", 5);
    w.put<uint8_t>(0);
    return w;
}

void bar_write(tr::Writer &w, uint8_t bar, uint8_t size, uint64_t offset, uint64_t value)
{
    w.put<uint8_t>(tr::kBarWrite);
    w.put<uint8_t>(bar);
    w.put<uint8_t>(size);
    w.put<uint64_t>(offset);
    w.put<uint64_t>(value);
}

// Writes the trace to a file and replays it; returns the replay's code.
int replay(const tr::Writer &w, ipu_replay_result &res)
{
    char path[64];
    std::snprintf(path, sizeof path, "/tmp/ipu-replay-test-%d.trace", static_cast<int>(getpid()));
    FILE *f = std::fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(std::fwrite(w.bytes.data(), 1, w.bytes.size(), f), w.bytes.size());
    std::fclose(f);
    alarm(60); // before the fix, a looping replay never ended
    const int rc = ipu_replay_file(path, 1, &res);
    alarm(0);
    unlink(path);
    return rc;
}

// A tiny board changed by `edit` is refused, the message naming `needle`.
void expect_board_refused(const std::function<void(ipu_board &)> &edit, const char *needle)
{
    ipu_board b;
    ipu_board_default(&b);
    edit(b);
    tr::Writer w = header(b);
    ipu_replay_result res;
    const int rc = replay(w, res);
    if (rc != -EINVAL || !std::strstr(res.message, needle) || !std::strstr(res.message, "board stored in the trace"))
        fail_msg("rc %d, message: %s (expected -EINVAL naming %s)", rc, res.message, needle);
}

void test_board_fields_checked(void **)
{
    // Each of these crashed the replayer: an index past the contexts, a division by zero, bad_alloc.
    expect_board_refused([](ipu_board &b) { b.worker_contexts = 0xffffffffu; }, "'worker_contexts' is 4294967295");
    expect_board_refused([](ipu_board &b) { b.host_link_bytes_per_second = 0; }, "'host_link_bytes_per_second' is 0");
    expect_board_refused([](ipu_board &b) { b.num_ipus = 0x7fffffff; }, "from 1 to 64");
    expect_board_refused([](ipu_board &b) { b.exchange_bytes_per_cycle = 0; }, "'exchange_bytes_per_cycle'");
    expect_board_refused([](ipu_board &b) { b.bytes_per_tile = 4097; }, "multiple of 4096");
    expect_board_refused([](ipu_board &b) { std::memset(b.name, 'x', sizeof b.name); }, "'name' is not a NUL");
    expect_board_refused([](ipu_board &b) { std::snprintf(b.transport, sizeof b.transport, "pigeon"); },
                         "'transport'");
    // The unchanged board replays (an empty trace matches trivially).
    ipu_board b;
    ipu_board_default(&b);
    ipu_replay_result res;
    assert_int_equal(replay(header(b), res), 0);
}

// A tile that loops (`j .`) and an advance of 2^64-1: refused before it runs.
void test_advance_budget_capped(void **)
{
    ipu_board b;
    ipu_board_default(&b);
    tr::Writer w = header(b);
    bar_write(w, IPU_BAR_REGS, 4, IPU_REG_TILEMEM_WINDOW_TILE, 0);
    bar_write(w, IPU_BAR_TILEMEM, 4, 0, 0x0000006fu); // jal x0, 0
    bar_write(w, IPU_BAR_REGS, 4, IPU_REG_TILE_SEL, 0);
    bar_write(w, IPU_BAR_REGS, 4, IPU_REG_TILE_ENTRY, IPU_TILE_SRAM_BASE);
    bar_write(w, IPU_BAR_REGS, 4, IPU_REG_TILE_CTRL, IPU_REG_TILE_CTRL_ENABLE_MASK);
    bar_write(w, IPU_BAR_REGS, 4, IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK);
    // The largest budget a host asks for still replays (one slice of the loop).
    w.put<uint8_t>(tr::kAdvance);
    w.put<uint64_t>(4096);
    w.put<uint8_t>(tr::kAdvanceEnd);
    w.put<int32_t>(1);
    const size_t at = w.bytes.size();
    w.put<uint8_t>(tr::kAdvance);
    w.put<uint64_t>(~0ull);
    w.put<uint8_t>(tr::kAdvanceEnd);
    w.put<int32_t>(1);
    ipu_replay_result res;
    const int rc = replay(w, res);
    const std::string want = "record 9 (byte " + std::to_string(at) + ") is an advance of 18446744073709551615";
    if (rc != -EINVAL || !std::strstr(res.message, want.c_str()) || !std::strstr(res.message, "67108864"))
        fail_msg("rc %d, message: %s", rc, res.message);
}

} // namespace

int main()
{
    const CMUnitTest tests[] = {
        cmocka_unit_test(test_board_fields_checked),
        cmocka_unit_test(test_advance_budget_capped),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
