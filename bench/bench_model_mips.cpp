// Card model throughput: MIPS of a compute-bound kernel on one tile with one
// host thread, then on every tile of ipu2 with 1..N host threads.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "tile_harness.hpp"

using ipu::test::Harness;
using Clock = std::chrono::steady_clock;

namespace {

struct Figure {
    double seconds;
    double instructions;
    bool ok;
};

// Runs compute.elf with `iterations` on `tiles` tiles (0 = all) of `board`.
Figure measure(const char *board, unsigned threads, unsigned tiles, uint32_t iterations)
{
    Harness h(board, threads);
    std::vector<unsigned> which;
    for (unsigned t = 0; t < (tiles ? tiles : h.num_tiles()); t++)
        which.push_back(t);
    h.load_elf(Harness::tile_binary("compute.elf"), which, iterations);
    const auto t0 = Clock::now();
    auto r = h.run(1u << 22);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    // Each loop iteration is 7 instructions (the kernel in tests/unit/isa/compute.S).
    return Figure{s, 7.0 * iterations * which.size(), r.card_state == IPU_CARD_STATE_DONE};
}

} // namespace

int main(int argc, char **argv)
{
    const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
    const uint32_t single_iters = quick ? 2000000 : 20000000;
    Figure one = measure("tiny", 1, 1, single_iters);
    std::printf("model_mips_1tile_1thread: %.1f MIPS (%.0f instructions in %.3f s)%s\n",
                one.instructions / one.seconds / 1e6, one.instructions, one.seconds, one.ok ? "" : " RUN FAILED");
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    double base = 0;
    for (unsigned threads = 1; threads <= cores; threads *= 2) {
        Figure all = measure("ipu2", threads, 0, quick ? 2000 : 20000);
        const double mips = all.instructions / all.seconds / 1e6;
        if (threads == 1)
            base = mips;
        std::printf("model_mips_ipu2_all_tiles_%uthreads: %.1f MIPS (scaling %.2fx vs 1 thread)%s\n", threads, mips,
                    mips / base, all.ok ? "" : " RUN FAILED");
    }
    return 0;
}
