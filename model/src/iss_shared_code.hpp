// Decoded code shared by content (issue 35 item 2). Every tile of an ipu2
// runs the same codelets at the same addresses, so a block's decoded ops and
// its JIT translation depend only on its pc and instruction words: they are
// made once per process and every tile's block points at them. A tile keeps
// only what is its own (Block: links, the epoch it was checked in).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>

#include "iss_blocks.hpp"

namespace ipu::model {

// One block's decoded code: immutable once made, except for the cached JIT
// translations, which are atomics filled by whichever tile asks first.
struct SharedCode {
    uint32_t pc = 0;
    std::vector<uint32_t> raw; // the instruction words
    std::vector<Op> ops;       // raw's ops, plus END when the last is not a terminator
    // The translation of this code for plain (0) and traced (1) blocks, made
    // in JIT generation jit_gen[k] - 1 (0: none yet; a JIT reset drops them).
    mutable std::atomic<uint64_t> jit_gen[2] = {};
    mutable std::atomic<JitFn> jit[2] = {};
};

// The bound on the process's table of shared code (bytes of words, ops and
// bookkeeping). Past it the table is emptied; blocks keep the code they point at.
constexpr uint64_t kSharedCodeBytes = 16ull << 20;

// The shared code decoded before from the same words at `pc`, if any: `at_pc`
// holds the tile's bytes from pc on, `words` of them (at most kMaxBlockWords)
// before the end of its SRAM.
std::shared_ptr<const SharedCode> find_shared_code(uint32_t pc, const uint8_t *at_pc, uint32_t words);
// Code just decoded at `pc`. Shared (put in the table) when its end depends on
// its words alone: a terminator, or kMaxBlockWords words; a block cut by the
// end of SRAM is the tile's own, since a larger tile would decode on.
std::shared_ptr<const SharedCode> make_shared_code(uint32_t pc, std::span<const uint32_t> raw,
                                                   std::span<const Op> ops, bool shareable);
// The JIT translation of `b` (whose code is `code`), made once per generation.
JitFn shared_translation(const SharedCode &code, const Block &b, bool traced);

// What the table holds now, and how often it was emptied (for tests and docs).
struct SharedCodeUse {
    uint64_t entries = 0, bytes = 0, clears = 0;
};
SharedCodeUse shared_code_use();

} // namespace ipu::model
