// ISS speed against QEMU's RISC-V user emulator (issue 20): the same kernel
// object (bench/iss/iss_kernel.c: sorting, CRC32, a float matrix multiply)
// runs on one tile of the card model with one host thread, and as a Linux
// user program under qemu-riscv32 (TCG, and TCG with one instruction per
// translation block). The runs alternate so that load from other processes
// hits both sides alike; each figure is the median of the pairs with min and
// max, and the speed is the median of the per-pair ratios of CPU time.
// Usage: bench_iss [--quick] [--pairs N] [--rounds N]
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <ctime>
#include <string>
#include <vector>

#include "tile_harness.hpp"

extern char **environ;

namespace {

struct Sample {
    double cpu_seconds = 0;
    int exit_status = -1; // low byte of the kernel's checksum
};

double process_cpu_seconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// One run of the kernel on tile 0 of the tiny board, one host thread, in the
// ISS mode `mode` (IPU_EMU_ISS). Returns its CPU time and the instructions
// retired (the supervisor alone runs, so cycles / issue_cycles).
Sample run_iss(const std::string &elf, uint32_t rounds, const char *mode, uint64_t *instructions)
{
    setenv("IPU_EMU_ISS", mode, 1);
    ipu::test::Harness h("tiny", 1);
    h.load_elf(elf, {0}, rounds);
    const double t0 = process_cpu_seconds();
    auto r = h.run(1u << 24, 1u << 20);
    Sample s{process_cpu_seconds() - t0, -1};
    if (r.card_state == IPU_CARD_STATE_DONE)
        s.exit_status = static_cast<int>(r.exit_code[0] & 0xff);
    *instructions = r.cycles / h.board().worker_contexts;
    return s;
}

// One run of the Linux build under qemu-riscv32 (extra options in `opts`);
// CPU time of the child from wait4. exit_status -1 when qemu is missing.
Sample run_qemu(const std::string &linux_elf, uint32_t rounds, const std::vector<std::string> &opts)
{
    std::vector<std::string> args{"qemu-riscv32"};
    args.insert(args.end(), opts.begin(), opts.end());
    args.push_back(linux_elf);
    args.push_back(std::to_string(rounds));
    std::vector<char *> argv;
    for (auto &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid;
    if (posix_spawnp(&pid, "qemu-riscv32", nullptr, nullptr, argv.data(), environ) != 0)
        return {};
    int status = 0;
    rusage ru{};
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) == 127)
        return {};
    const double cpu = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                       static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
    return Sample{cpu, WEXITSTATUS(status)};
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void print_series(const char *label, const std::vector<double> &seconds, double instructions)
{
    const double lo = *std::min_element(seconds.begin(), seconds.end());
    const double hi = *std::max_element(seconds.begin(), seconds.end());
    std::printf("  %-28s median %.3f s (min %.3f, max %.3f)  %.1f MIPS\n", label, median(seconds), lo, hi,
                instructions / median(seconds) / 1e6);
}

} // namespace

int main(int argc, char **argv)
{
    unsigned pairs = 5;
    uint32_t rounds = 1500;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "--quick")
            rounds = 200;
        else if (a == "--pairs" && i + 1 < argc)
            pairs = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
        else if (a == "--rounds" && i + 1 < argc)
            rounds = static_cast<uint32_t>(std::max(1, std::atoi(argv[++i])));
        else {
            std::fprintf(stderr, "usage: bench_iss [--quick] [--pairs N] [--rounds N]\n");
            return 2;
        }
    }
    const std::string tile_elf = IPU_BENCH_ISS_TILE_ELF, linux_elf = IPU_BENCH_ISS_LINUX_ELF;
    // "" leaves IPU_EMU_ISS empty: the default (jit, in the process); fast is the threaded reference; native
    // and background are the opt-in tiers that run the host compiler.
    const std::vector<const char *> modes = {"interp", "fast", "jit", "native", "background", ""};
    auto name = [](const char *mode) { return *mode ? mode : "default"; };
    const std::vector<std::vector<std::string>> qemu_opts = {{}, {"-singlestep"}};
    // -singlestep is QEMU 7.2's name (Debian 12) for what QEMU >= 8.1 calls -one-insn-per-tb.
    const char *qemu_labels[] = {"qemu-riscv32 (TCG)", "qemu-riscv32 -singlestep"};
    std::vector<std::vector<double>> iss_s(modes.size()), qemu_s(2);
    std::vector<std::vector<std::vector<double>>> ratio(modes.size(), std::vector<std::vector<double>>(2));
    uint64_t instructions = 0;
    bool qemu_ok = true, same = true;
    // The background mode on a cold cache (a fresh folder, first in this
    // process): the fast ISS until the background build is loaded, which this
    // run does not wait for. Native mode then waits for that build (one run,
    // outside the pairs; its wall time is shown); the pairs load it.
    char cold_dir[] = "/tmp/ipu-bench-iss-XXXXXX";
    const bool cold = mkdtemp(cold_dir) != nullptr;
    if (cold) {
        setenv("IPU_EMU_ISS_CACHE", cold_dir, 1);
        const auto c0 = std::chrono::steady_clock::now();
        const Sample s = run_iss(tile_elf, rounds, "background", &instructions);
        std::printf("background mode, cold cache (compiles in the background, not waited for): %.3f s CPU, "
                    "%.2f s wall\n",
                    s.cpu_seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count());
    }
    {
        const auto w0 = std::chrono::steady_clock::now();
        run_iss(tile_elf, rounds, "native", &instructions);
        std::printf("native warm-up run (waits for the compiler unless cached): %.2f s wall\n",
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count());
    }
    for (unsigned p = 0; p < pairs; p++) {
        for (unsigned q = 0; q < 2; q++) {
            const Sample qs = run_qemu(linux_elf, rounds, qemu_opts[q]);
            if (qs.exit_status < 0)
                qemu_ok = false;
            qemu_s[q].push_back(qs.cpu_seconds);
            for (unsigned m = 0; m < modes.size(); m++) {
                const Sample is = run_iss(tile_elf, rounds, modes[m], &instructions);
                if (q == 0)
                    iss_s[m].push_back(is.cpu_seconds);
                ratio[m][q].push_back(qs.cpu_seconds / is.cpu_seconds);
                same &= is.exit_status >= 0 && (!qemu_ok || is.exit_status == qs.exit_status);
            }
        }
    }
    std::printf("iss_kernel: %u rounds, %.1f M instructions, %u alternating pairs, CPU time%s\n", rounds,
                static_cast<double>(instructions) / 1e6, pairs, same ? "" : "  RESULTS DIFFER (FAIL)");
    for (unsigned m = 0; m < modes.size(); m++)
        print_series((std::string("ISS ") + name(modes[m])).c_str(), iss_s[m], static_cast<double>(instructions));
    if (cold) {
        std::error_code ec;
        std::filesystem::remove_all(cold_dir, ec);
    }
    if (!qemu_ok) {
        std::printf("  qemu-riscv32 not available (Debian package qemu-user): no ratio\n");
        return same ? 0 : 1;
    }
    for (unsigned q = 0; q < 2; q++)
        print_series(qemu_labels[q], qemu_s[q], static_cast<double>(instructions));
    for (unsigned m = 0; m < modes.size(); m++)
        for (unsigned q = 0; q < 2; q++) {
            const auto &r = ratio[m][q];
            std::printf("iss_%s_vs_%s: ratio %.2f (median of %zu pairs; min %.2f, max %.2f; >1 = ISS faster)\n",
                        name(modes[m]), q ? "qemu_singlestep" : "qemu_tcg", median(r), r.size(),
                        *std::min_element(r.begin(), r.end()), *std::max_element(r.begin(), r.end()));
        }
    return same ? 0 : 1;
}
