// Native code for hot tile code, an opt-in experiment (IPU_EMU_ISS=native or
// background; the default is the fast ISS, which starts no process): a tile's decoded
// blocks are translated to one C function (blocks jump to each other with
// goto, registers live in locals), compiled by the host C compiler into a
// shared object cached on disk by content hash, and loaded with dlopen.
// Tiles running the same code share one load. The function keeps the fast
// ISS's accounting: it retires whole blocks while the budget allows, and
// returns at the first instruction it cannot run itself (a SLOW op, a block
// outside the translation), at a fault, or after a store into decoded code.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "iss_blocks.hpp"
#include "iss_native_hold.hpp"

namespace ipu::model {

// Slots of the io array shared with the generated function.
enum NativeIo : unsigned {
    kIoRetired,     // in/out: instructions retired in this call of the ISS
    kIoBudget,      // in: the call's instruction budget
    kIoPc,          // in/out: where to start; where the ISS goes on
    kIoCause,       // out (fault): IPU_ERR_*
    kIoAddr,        // out (fault)
    kIoInfo,        // out (fault)
    kIoFflags,      // in/out
    kIoFrm,         // in
    kIoStackLimit,  // in
    kIoSramBytes,   // in
    kIoCodeWords,   // in: 64-bit words in the code bitmap
    kIoCount
};

// What the generated function returned.
enum class NativeExit : int {
    Left = 0,        // continue with the interpreter at io[kIoPc]
    Fault = 1,       // raise io[kIoCause] at io[kIoPc] (io[kIoRetired] retired before it)
    CodeWritten = 2, // a store hit decoded code: flush, continue at io[kIoPc]
};

using NativeFn = int (*)(uint64_t *io, uint32_t *x, uint32_t *f, uint8_t *mem, const uint64_t *code_bits,
                         void *const *fpu);

// A loaded translation and the blocks it covers.
struct NativeCode {
    NativeFn run = nullptr;
    std::vector<uint32_t> entries; // block PCs it may start at (sorted)
};

// A translation on its way. Once `done` (acquire) is true, `code` is the
// loaded code, or nullptr when it could not be compiled or loaded.
struct NativeJob {
    std::atomic<bool> done{false};
    std::shared_ptr<const NativeCode> code;
    bool cancelled = false; // its compile was stopped with the last model (written before `done`)
};

// Translates `blocks` (their ops and code words) to C now and returns the job
// that loads it: done at once when a shared object with the same content hash
// is loaded or cached on disk (IPU_EMU_ISS_CACHE, else
// $XDG_CACHE_HOME/ipu-emu/iss, else ~/.cache/ipu-emu/iss); otherwise a
// background thread compiles it with $IPU_EMU_ISS_CC or cc, in a process
// group and a build folder of its own (in the cache), waited for when the
// last model goes (iss_native_hold.hpp), killed at exit, then removed. Failures are reported once on stderr. Only the opt-in
// modes (IPU_EMU_ISS=native or background) get here: the default starts no
// process.
std::shared_ptr<NativeJob> native_translate(const std::vector<const Block *> &blocks);

// The FP helpers the generated code calls, in the order it expects.
void *const *native_fpu_table();

} // namespace ipu::model
