// The RV32IMF + Zicsr instruction-set simulator for one tile context.
#pragma once
#include <cstdint>
#include <cstdio>

#include "tile.hpp"

namespace ipu::model {

// Called for every retired instruction when tracing or lock-step comparison is
// on (rd = 0 when the instruction writes no integer register; cycle is the
// context's logical time when the instruction issued).
struct RetireHook {
    void *opaque = nullptr;
    void (*retired)(void *opaque, const Tile &tile, unsigned context, uint32_t pc, uint32_t insn, unsigned rd,
                    uint32_t rd_value, uint64_t cycle) = nullptr;
};

// Runs context `c` of `tile` for at most `budget` instructions. Returns why it
// stopped; *executed receives the number of instructions retired.
Stop execute(Tile &tile, unsigned c, uint64_t budget, uint64_t *executed, const RetireHook *hook);

// Writes one trace line per instruction to `out` (a RetireHook implementation).
void trace_retired(void *file, const Tile &tile, unsigned context, uint32_t pc, uint32_t insn, unsigned rd,
                   uint32_t rd_value, uint64_t cycle);

} // namespace ipu::model
