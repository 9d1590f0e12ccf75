// The JIT tier (IPU_EMU_ISS=jit): each decoded block (iss_blocks.hpp) is
// translated to x86-64 machine code with xbyak. The fast ISS's loop
// (iss_fast.cpp) stays in charge of block lookup, chaining, the budget and
// invalidation; a translated block only runs the block's ops and reports how
// it left, so every exit keeps the fast tier's exact pc, instret and time.
#pragma once
#include <cstdint>
#include <shared_mutex>

#include "iss.hpp"
#include "iss_blocks.hpp"
#include "tile.hpp"

namespace ipu::model {

// Per-call inputs and outputs of a translated block besides the context.
struct JitEnv {
    const uint64_t *code_bits = nullptr; // BlockCache::code_bits()
    uint64_t code_words = 0;             // BlockCache::code_words()
    // The highest SRAM offset an access of 1, 2 and 4 bytes may use, divided
    // by its size: (sram_bytes - 1) / 1, (sram_bytes - 2) / 2, (sram_bytes - 4) / 4.
    uint32_t sram_last[3] = {};
    uint32_t next_pc = 0; // out (Leave*): where the ISS goes on
    uint32_t cause = 0;   // out (Fault)
    uint32_t addr = 0;    // out (Fault)
    uint32_t info = 0;    // out (Fault)
    // Chaining: a block that leaves to its linked successor (Block::next,
    // which links only blocks checked in the cache's current epoch) jumps
    // straight into its translation, whose chained entry checks the budget;
    // blk and n follow (n is written back at the exit).
    uint64_t budget = 0;  // the call's instruction budget
    uint64_t n = 0;       // in/out: retired in this call before blk
    Block *blk = nullptr; // in/out: the block running; on return, the one that left
    // Traced translations (jit_translate(b, true)) report each retired op to
    // `hook` as the reference interpreter does, with the time t0 + n * ic.
    const RetireHook *hook = nullptr;
    const Tile *tile = nullptr;
    unsigned context = 0;
    uint64_t t0 = 0, ic = 0;
};

// How a translated block returned: the high 32 bits of its result; the low
// 32 bits are the index of the op in env->blk it stopped at (Slow, Fault, Illegal: that
// op did not retire; CodeWritten: that store retired).
enum class JitExit : uint32_t {
    LeaveFall = 0,   // every op retired; continue at next_pc by link slot 0
    LeaveTaken = 1,  // as LeaveFall, by link slot 1
    Slow = 2,        // the reference interpreter runs this op
    Fault = 3,       // raise cause/addr/info at this op
    CodeWritten = 4, // this store wrote decoded code: flush and go on after it
    Illegal = 5,     // a dynamic rounding mode that is not valid
    Enter = 6,       // chained into env->blk, whose ops the budget cannot all hold: none ran
};

// The translation of `b`, shared by every block with the same pc and code
// words (the translation depends on nothing else), or nullptr when the JIT's
// code memory (kJitCodeBytes) is full: the block then runs on the fast tier.
// A traced translation (for lock-step and tracing, which need every retired
// instruction) calls JitEnv::hook after each op and never chains, so the
// hook sees the same stream as from the interpreter while the JIT's own code
// computes every result.
JitFn jit_translate(const Block &b, bool traced = false);

// Where a chained exit of another translation enters `fn`: past its
// prologue, at the check of the budget (Block::jit_chained).
const void *jit_chained_entry(JitFn fn);

// The bound on the process's JIT code memory. Translations are kept while
// there is room (they are shared and keyed by content, so re-decoded code
// finds its old one); when it is full, the next jit_try_reset() drops them all.
constexpr uint64_t kJitCodeBytes = 64ull << 20;

// Held shared by every call of the ISS that may run translations; a reset
// takes it exclusively, so that no code is dropped while it runs.
std::shared_mutex &jit_lock();
// Bumped by each reset: a block cache whose blocks were translated in an
// older generation drops them (BlockCache::jit_generation).
uint64_t jit_generation();
// True once a translation was refused for lack of code memory.
bool jit_full();
// Drops every translation if jit_full() and no ISS call holds jit_lock()
// (the caller must not hold it); otherwise does nothing.
void jit_try_reset();

// Holds jit_lock() shared on this thread across many ISS calls, which then
// do not take it themselves (jit_held_here()). The card's round holds it for
// a chunk of tiles: taken at every call, the process-wide lock's cache line
// moved between the host threads at every tile, and a bulk-synchronous
// program on ipu2 (a few hundred instructions per tile and superstep) got no
// faster with a second thread. A full code memory is reset first, while this
// thread holds nothing. Nests: an inner hold does nothing.
class JitHold {
public:
    JitHold();
    ~JitHold();
    JitHold(const JitHold &) = delete;
    JitHold &operator=(const JitHold &) = delete;

private:
    std::shared_lock<std::shared_mutex> lock_;
};
// True while a JitHold is alive on this thread.
bool jit_held_here();

// Bytes of code memory in use, and translations made (for tests and benches).
uint64_t jit_code_bytes();
uint64_t jit_translations();

} // namespace ipu::model
