// Pre-decoded basic blocks for the fast ISS (iss_fast.cpp): each block is the
// straight-line run of instructions from one PC up to and including its first
// control transfer, decoded once into a compact array of operations.
#pragma once
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <span>
#include <unordered_map>
#include <vector>

#include "tile.hpp"

namespace ipu::model {
struct NativeCode;
struct NativeJob;
struct JitEnv;
struct SharedCode;
}

namespace ipu::model {

// The operations the fast ISS executes itself. Anything else (CSRs, ECALL,
// rare FP forms, writes to sp that are not ADDI, illegal encodings) is SLOW:
// the reference interpreter executes that one instruction, so the fast path
// never has to repeat its rules. Terminators (JAL .. END) end a block.
#define IPU_FAST_OPS(X)                                                                                            \
    X(NOP) X(LI) X(ADDI) X(ADDI_SP) X(SLTI) X(SLTIU) X(XORI) X(ORI) X(ANDI) X(SLLI) X(SRLI) X(SRAI)                \
    X(ADD) X(SUB) X(SLL) X(SLT) X(SLTU) X(XOR) X(SRL) X(SRA) X(OR) X(AND)                                          \
    X(MUL) X(MULH) X(MULHSU) X(MULHU) X(DIV) X(DIVU) X(REM) X(REMU)                                                \
    X(LB) X(LH) X(LW) X(LBU) X(LHU) X(SB) X(SH) X(SW) X(FLW) X(FSW)                                                \
    X(FADD) X(FSUB) X(FMUL) X(FDIV) X(FMADD) X(FMSUB) X(FNMSUB) X(FNMADD)                                          \
    X(FSGNJ) X(FSGNJN) X(FSGNJX) X(FMV_X_W) X(FMV_W_X) X(FEQ) X(FLT) X(FLE)                                        \
    X(FCVT_S_W) X(FCVT_S_WU) X(FCVT_W_S) X(FCVT_WU_S)                                                              \
    X(JAL) X(JALR) X(BEQ) X(BNE) X(BLT) X(BGE) X(BLTU) X(BGEU) X(SLOW) X(END)

enum class OpKind : uint8_t {
#define IPU_OP_ENUM(name) name,
    IPU_FAST_OPS(IPU_OP_ENUM)
#undef IPU_OP_ENUM
};

// One decoded instruction. imm holds the immediate, a precomputed constant
// (LI: LUI/AUIPC value), a branch or JAL target, or for FP operations the
// rounding mode (bits 0-7, 7 = dynamic) and rs3 (bits 8-15).
struct Op {
    OpKind kind;
    uint8_t rd, rs1, rs2;
    uint32_t imm;
};

// A block translated to host code by the JIT (iss_jit.hpp).
using JitFn = uint64_t (*)(Context *cx, uint8_t *mem, JitEnv *env);

// The longest block, in instructions.
constexpr uint32_t kMaxBlockWords = 128;

struct Block {
    uint32_t pc = 0;     // address of the first instruction
    uint32_t len = 0;    // instructions (ops except the closing END)
    uint64_t checked = 0; // the cache epoch in which the code bytes were last compared with SRAM
    // The blocks that last followed this one by falling through (0) and by
    // the taken branch or jump (1), in the current epoch (new_epoch unlinks).
    // Slot 0 only ever holds a block at end_pc(), and slot 1 one at the
    // branch or JAL target; after JALR its pc must be compared.
    Block *next[2] = {nullptr, nullptr};
    bool native = false; // the cache's native code can start here
    JitFn jit = nullptr; // its JIT translation (IPU_EMU_ISS=jit), shared by identical code
    const void *jit_chained = nullptr; // jit's chained entry (jit_chained_entry), where a chained exit jumps
    // Entered other than as the first block of a call of the fast ISS. A slice
    // whose budget ended mid-block resumes mid-block, and the block decoded
    // there depends on where the driver's wall-time-sized slices ended: only
    // reached blocks are translated, so that the translation (and its cache
    // key) depends on the code, not on timing.
    bool reached = false;
    // The decoded code, shared by every tile's block with the same pc and
    // words (iss_shared_code.hpp); ops and raw point into it.
    std::shared_ptr<const SharedCode> code;
    std::span<const Op> ops;       // len ops, plus END when the last one is not a terminator
    std::span<const uint32_t> raw; // the instruction words the ops came from

    uint32_t end_pc() const { return pc + 4 * len; }
    // Makes this the block of `c` (pc, len, ops and raw from it).
    void use(std::shared_ptr<const SharedCode> c);
};

// The decoded blocks of one tile. Writes to code are caught two ways: the
// fast ISS and the JIT check every store against a bitmap of decoded words
// and flush on a hit; every other writer with a known range (the reference
// interpreter's stores, exchange, host exchange, the BAR2 window, the DMA
// engine) does the same through IssCacheSlot::written, so a host sync or a
// new run keeps every block and its links. Only a writer that cannot say
// where (IssCacheSlot::maybe_changed) marks the cache stale, which starts a
// new epoch: each block compares its code bytes with SRAM once per epoch.
class BlockCache {
public:
    // `hot`: instructions the fast ISS retires before the tile's blocks are
    // translated to native code, and again after each doubling (0 = never).
    // `wait`: the fast ISS waits for a translation to be compiled; otherwise it
    // is compiled in the background and switched in when ready.
    // `jit`: translate each block with the JIT when it is decoded; `traced`:
    // with traced translations (they report each op to a retire hook).
    BlockCache(const Tile &tile, uint64_t hot, bool wait = true, bool jit = false, bool traced = false);
    ~BlockCache();
    BlockCache(const BlockCache &) = delete;
    BlockCache &operator=(const BlockCache &) = delete;

    // The block at `pc`, decoded now if needed and checked against SRAM in
    // this epoch; nullptr if `pc` cannot be fetched (misaligned, outside SRAM).
    Block *enter(uint32_t pc);
    // Drops every block (pointers to them become invalid) and bumps flushes.
    void flush();
    // Starts a new epoch (code bytes may have changed) and unlinks every
    // block: a link is then only made to a block checked in this epoch, so
    // translated code may follow one without comparing epochs.
    void new_epoch();
    // True if the word at tile-local offset `off` (< sram_bytes) is decoded code.
    bool is_code(uint32_t off) const
    {
        return (off >> 8) < code_bits_.size() && ((code_bits_[off >> 8] >> ((off >> 2) & 63)) & 1);
    }
    // True if any word of [off, off + len) (within SRAM) is decoded code.
    bool overlaps_code(uint32_t off, uint32_t len) const;

    // Translates every decoded block to native code (iss_native.hpp) and
    // marks the blocks it covers, or, in the background, looks whether the
    // translation asked for before is ready; `retired_now` is the fast ISS's
    // count so far.
    void translate(uint64_t retired_now);
    bool wants_translation(uint64_t retired_now) const { return hot_ && retired_now >= translate_at_; }
    // True if every decoded block still matches SRAM (native code runs
    // blocks without the per-epoch check).
    bool all_match() const;
    const uint64_t *code_bits() const { return code_bits_.data(); }
    uint64_t code_words() const { return code_bits_.size(); }

    std::shared_ptr<const NativeCode> native;
    uint64_t retired = 0; // instructions the fast ISS retired with this cache
    bool stale = false;   // start a new epoch before running
    uint64_t epoch = 0;   // blocks checked in this epoch match SRAM
    uint64_t flushes = 0; // bumped by flush(): saved block pointers are stale
    uint64_t jit_generation = 0; // jit_generation() when the blocks were translated
    bool jit() const { return jit_; }
    bool traced() const { return traced_; }

private:
    Block *decode(uint32_t pc);
    void mark(const Block &b); // sets the code bits of b's words
    void install(std::shared_ptr<const NativeCode> code);

    const Tile &tile_;
    uint64_t hot_ = 0, translate_at_ = 0;
    bool wait_ = true;
    bool jit_ = false;
    bool traced_ = false;
    void drop_blocks(); // destroys every block and returns their memory

    std::shared_ptr<NativeJob> pending_; // a background translation of these blocks
    // The blocks and the map's nodes live in one arena per tile, freed whole by
    // flush(): a tile decodes ~100 blocks at its first run, and one allocation
    // each, on a worker thread's fresh heap, was ~15% of tutorial 7's run phase.
    std::pmr::monotonic_buffer_resource arena_{kArenaFirstBytes};
    std::pmr::unordered_map<uint32_t, Block *> blocks_{&arena_};
    // One bit per SRAM word, up to the last decoded one: code sits low in
    // SRAM, so 1472 ipu2 tiles need not clear 19.5 KiB each.
    std::vector<uint64_t> code_bits_;
    static constexpr size_t kArenaFirstBytes = 4096; // then doubling: a small program costs one page
    static constexpr unsigned kJumpCacheSize = 256;
    struct JumpEntry {
        uint32_t pc = 0;
        Block *block = nullptr;
    };
    std::vector<JumpEntry> jump_cache_; // direct-mapped pc -> block, before the hash map
};

} // namespace ipu::model
