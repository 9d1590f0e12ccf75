// Test harness for the RTL card: the model tests' Harness (testkit/), over
// the registry's "rtl", "lockstep" or (for comparisons) "model" card, plus the
// lock-step report.
#pragma once
#include <cstdint>
#include <string>

#include "tile_harness.hpp"

namespace ipu::test {

using RtlRunResult = RunResult;
using RtlErrorRecord = ErrorRecord;

enum class Backend { Rtl, Lockstep, Model };

class RtlHarness : public Harness {
public:
    explicit RtlHarness(Backend backend, const std::string &board = "rtl-tiny");

    // Shorter rounds than the model's default: the RTL simulates far fewer
    // cycles per second, and console and host syncs are serviced between rounds.
    RunResult run(uint64_t budget_per_round = 1u << 16, uint64_t max_rounds = 1u << 16)
    {
        return Harness::run(budget_per_round, max_rounds);
    }
    // The lock-step divergence (empty when none) and the instructions compared.
    std::string divergence();
    uint64_t compared();

    // Where the rv32im test programs for the RTL boards are (set by CMake).
    static std::string program(const std::string &name);
};

} // namespace ipu::test
