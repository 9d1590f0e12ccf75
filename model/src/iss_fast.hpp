// The fast ISS: runs a tile context over pre-decoded basic blocks
// (iss_blocks.hpp) with threaded dispatch. It retires the same instructions,
// in the same logical time, with the same faults (cause and PC) as the
// reference interpreter in iss.cpp, which it calls for every instruction it
// does not handle itself (CSRs, ECALL/EBREAK, rare or illegal encodings).
#pragma once
#include <cstdint>

#include "iss.hpp"

namespace ipu::model {

// As execute(). With a retire hook (JIT mode only: the caller's job) the
// blocks run as traced translations, which report every op, and whatever the
// JIT does not run goes to the reference interpreter with the hook.
Stop execute_fast(Tile &tile, unsigned c, uint64_t budget, uint64_t *executed, const RetireHook *hook = nullptr);

// The ISS mode IPU_EMU_ISS selects: "interp" (the reference interpreter),
// "fast" (pre-decoded blocks), "jit" (the default when unset or empty: the
// blocks translated to x86-64 code in the process; it starts no process), and two
// opt-in experiments that compile hot code to host code with cc (iss_native.hpp):
// "native" (waiting for the compiler) and "background" (fast until the
// compiler is done). Any other value is reported once on stderr, naming the
// accepted values, and the default is used.
IssMode iss_mode_from_env();

// Instructions a tile retires in native mode before its code is translated:
// IPU_EMU_ISS_HOT, default 1000000 (a bad value is reported and the default used).
uint64_t native_hot();

// Runs context `c` with the ISS the tile's mode selects. With a retire hook
// (lock-step, tracing) the JIT mode runs traced translations, so lock-step
// compares the RTL with the JIT's own code; the other modes then run the
// reference interpreter, which reports every instruction.
Stop run_context(Tile &tile, unsigned c, uint64_t budget, uint64_t *executed, const RetireHook *hook);

} // namespace ipu::model
