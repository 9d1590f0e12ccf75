// Decoding of RV32IMF instructions into fast-ISS blocks, and the per-tile
// block cache (see iss_blocks.hpp). The decoder accepts only encodings whose
// meaning is certain; everything else becomes SLOW, so the reference
// interpreter (iss.cpp) stays the one place that knows the illegal cases.
#include "iss_blocks.hpp"

#include "iss_jit.hpp"
#include "iss_native.hpp"
#include "iss_shared_code.hpp"
#include "rv32_fields.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

namespace ipu::model {
namespace {

using rv32::imm_b;
using rv32::imm_i;
using rv32::imm_j;
using rv32::imm_s;
using rv32::imm_u;

// A rounding-mode field the fast path may use: a static mode or 7 (dynamic,
// checked against frm when executed). 5 and 6 are reserved (illegal).
inline bool usable_rm(uint32_t f3) { return f3 <= 4 || f3 == 7; }

Op make(OpKind k, uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t imm)
{
    return Op{k, static_cast<uint8_t>(rd), static_cast<uint8_t>(rs1), static_cast<uint8_t>(rs2), imm};
}

// An integer-register result: x0 makes it a NOP (these operations have no
// other effect), sp goes to the reference for its stack-limit check.
Op int_result(OpKind k, uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t imm)
{
    if (rd == 0)
        return make(OpKind::NOP, 0, 0, 0, 0);
    if (rd == 2)
        return make(OpKind::SLOW, 0, 0, 0, 0);
    return make(k, rd, rs1, rs2, imm);
}

Op decode_op_imm(uint32_t insn, uint32_t rd, uint32_t rs1, uint32_t f3)
{
    const uint32_t imm = imm_i(insn), sh = (insn >> 20) & 31, f7 = insn >> 25;
    switch (f3) {
    case 0:
        if (rd == 2)
            return make(OpKind::ADDI_SP, rd, rs1, 0, imm); // the stack-limit check is inline
        return int_result(OpKind::ADDI, rd, rs1, 0, imm);
    case 2: return int_result(OpKind::SLTI, rd, rs1, 0, imm);
    case 3: return int_result(OpKind::SLTIU, rd, rs1, 0, imm);
    case 4: return int_result(OpKind::XORI, rd, rs1, 0, imm);
    case 6: return int_result(OpKind::ORI, rd, rs1, 0, imm);
    case 7: return int_result(OpKind::ANDI, rd, rs1, 0, imm);
    case 1: return f7 ? make(OpKind::SLOW, 0, 0, 0, 0) : int_result(OpKind::SLLI, rd, rs1, 0, sh);
    default: // 5
        if (f7 == 0)
            return int_result(OpKind::SRLI, rd, rs1, 0, sh);
        if (f7 == 0x20)
            return int_result(OpKind::SRAI, rd, rs1, 0, sh);
        return make(OpKind::SLOW, 0, 0, 0, 0);
    }
}

Op decode_op(uint32_t insn, uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t f3)
{
    const uint32_t f7 = insn >> 25;
    if (f7 == 0x01) {
        static constexpr OpKind m[8] = {OpKind::MUL, OpKind::MULH, OpKind::MULHSU, OpKind::MULHU,
                                        OpKind::DIV, OpKind::DIVU, OpKind::REM,    OpKind::REMU};
        return int_result(m[f3], rd, rs1, rs2, 0);
    }
    if (f7 == 0x20) {
        if (f3 == 0)
            return int_result(OpKind::SUB, rd, rs1, rs2, 0);
        if (f3 == 5)
            return int_result(OpKind::SRA, rd, rs1, rs2, 0);
        return make(OpKind::SLOW, 0, 0, 0, 0);
    }
    if (f7 != 0)
        return make(OpKind::SLOW, 0, 0, 0, 0);
    static constexpr OpKind k[8] = {OpKind::ADD, OpKind::SLL, OpKind::SLT, OpKind::SLTU,
                                    OpKind::XOR, OpKind::SRL, OpKind::OR,  OpKind::AND};
    return int_result(k[f3], rd, rs1, rs2, 0);
}

// OP-FP: the arithmetic, sign-injection, moves, compares and integer
// conversions; min/max, sqrt and fclass are rare and go to the reference.
Op decode_op_fp(uint32_t insn, uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t f3)
{
    const Op slow = make(OpKind::SLOW, 0, 0, 0, 0);
    // Integer results may go to x0 (the flags still change) but not to sp.
    auto to_x = [&](OpKind k) { return rd == 2 ? slow : make(k, rd, rs1, rs2, f3); };
    switch (insn >> 25) {
    case 0x00: return usable_rm(f3) ? make(OpKind::FADD, rd, rs1, rs2, f3) : slow;
    case 0x04: return usable_rm(f3) ? make(OpKind::FSUB, rd, rs1, rs2, f3) : slow;
    case 0x08: return usable_rm(f3) ? make(OpKind::FMUL, rd, rs1, rs2, f3) : slow;
    case 0x0c: return usable_rm(f3) ? make(OpKind::FDIV, rd, rs1, rs2, f3) : slow;
    case 0x10:
        if (f3 > 2)
            return slow;
        return make(f3 == 0 ? OpKind::FSGNJ : f3 == 1 ? OpKind::FSGNJN : OpKind::FSGNJX, rd, rs1, rs2, 0);
    case 0x50:
        if (f3 > 2)
            return slow;
        return to_x(f3 == 2 ? OpKind::FEQ : f3 == 1 ? OpKind::FLT : OpKind::FLE);
    case 0x60:
        if (rs2 > 1 || !usable_rm(f3))
            return slow;
        return to_x(rs2 ? OpKind::FCVT_WU_S : OpKind::FCVT_W_S);
    case 0x68:
        if (rs2 > 1 || !usable_rm(f3))
            return slow;
        return make(rs2 ? OpKind::FCVT_S_WU : OpKind::FCVT_S_W, rd, rs1, 0, f3);
    case 0x70:
        return rs2 == 0 && f3 == 0 ? to_x(OpKind::FMV_X_W) : slow;
    case 0x78:
        return rs2 == 0 && f3 == 0 ? make(OpKind::FMV_W_X, rd, rs1, 0, 0) : slow;
    }
    return slow;
}

// Decodes the instruction `insn` at `pc`.
Op decode_insn(uint32_t insn, uint32_t pc)
{
    const uint32_t rd = (insn >> 7) & 31, rs1 = (insn >> 15) & 31, rs2 = (insn >> 20) & 31;
    const uint32_t f3 = (insn >> 12) & 7;
    const Op slow = make(OpKind::SLOW, 0, 0, 0, 0);
    switch (insn & 0x7f) {
    case 0x37: return int_result(OpKind::LI, rd, 0, 0, imm_u(insn));
    case 0x17: return int_result(OpKind::LI, rd, 0, 0, pc + imm_u(insn));
    case 0x6f: return rd == 2 ? slow : make(OpKind::JAL, rd, 0, 0, pc + imm_j(insn));
    case 0x67: return rd == 2 || f3 ? slow : make(OpKind::JALR, rd, rs1, 0, imm_i(insn));
    case 0x63: {
        static constexpr OpKind b[8] = {OpKind::BEQ, OpKind::BNE, OpKind::SLOW, OpKind::SLOW,
                                        OpKind::BLT, OpKind::BGE, OpKind::BLTU, OpKind::BGEU};
        return b[f3] == OpKind::SLOW ? slow : make(b[f3], 0, rs1, rs2, pc + imm_b(insn));
    }
    case 0x03: {
        static constexpr OpKind l[8] = {OpKind::LB,  OpKind::LH,  OpKind::LW,   OpKind::SLOW,
                                        OpKind::LBU, OpKind::LHU, OpKind::SLOW, OpKind::SLOW};
        // A load into x0 still faults; into sp it is checked: both are rare.
        return l[f3] == OpKind::SLOW || rd == 0 || rd == 2 ? slow : make(l[f3], rd, rs1, 0, imm_i(insn));
    }
    case 0x23: {
        static constexpr OpKind s[3] = {OpKind::SB, OpKind::SH, OpKind::SW};
        return f3 > 2 ? slow : make(s[f3], 0, rs1, rs2, imm_s(insn));
    }
    case 0x13: return decode_op_imm(insn, rd, rs1, f3);
    case 0x33: return decode_op(insn, rd, rs1, rs2, f3);
    case 0x0f: return make(OpKind::NOP, 0, 0, 0, 0); // FENCE, FENCE.I: one memory, and stores are watched
    case 0x07: return f3 == 2 ? make(OpKind::FLW, rd, rs1, 0, imm_i(insn)) : slow;
    case 0x27: return f3 == 2 ? make(OpKind::FSW, 0, rs1, rs2, imm_s(insn)) : slow;
    case 0x43: case 0x47: case 0x4b: case 0x4f: {
        if (((insn >> 25) & 3) != 0 || !usable_rm(f3))
            return slow;
        const OpKind k = (insn & 0x7f) == 0x43 ? OpKind::FMADD
                       : (insn & 0x7f) == 0x47 ? OpKind::FMSUB
                       : (insn & 0x7f) == 0x4b ? OpKind::FNMSUB
                                               : OpKind::FNMADD;
        return make(k, rd, rs1, rs2, f3 | ((insn >> 27) << 8));
    }
    case 0x53: return decode_op_fp(insn, rd, rs1, rs2, f3);
    }
    return slow; // SYSTEM (CSRs, ECALL, EBREAK) and every unknown opcode
}

bool ends_block(OpKind k) { return k >= OpKind::JAL; }

} // namespace

void Block::use(std::shared_ptr<const SharedCode> c)
{
    pc = c->pc;
    len = static_cast<uint32_t>(c->raw.size());
    ops = c->ops;
    raw = c->raw;
    code = std::move(c);
}

IssCacheSlot::IssCacheSlot() = default;
IssCacheSlot::~IssCacheSlot() = default;
IssCacheSlot::IssCacheSlot(const IssCacheSlot &) {}
IssCacheSlot &IssCacheSlot::operator=(const IssCacheSlot &other)
{
    if (this != &other) {
        mode = IssMode::Unset;
        cache.reset();
    }
    return *this;
}
// A cache refers to its tile, so it never follows a move to another one.
IssCacheSlot::IssCacheSlot(IssCacheSlot &&) noexcept {}
IssCacheSlot &IssCacheSlot::operator=(IssCacheSlot &&other) noexcept
{
    if (this != &other) {
        mode = IssMode::Unset;
        cache.reset();
    }
    return *this;
}

void IssCacheSlot::written(uint32_t addr, uint32_t len)
{
    if (cache && cache->overlaps_code(addr - IPU_TILE_SRAM_BASE, len))
        cache->flush();
}

void IssCacheSlot::maybe_changed()
{
    if (cache)
        cache->stale = true;
}

BlockCache::BlockCache(const Tile &tile, uint64_t hot, bool wait, bool jit, bool traced)
    : tile_(tile), hot_(hot), translate_at_(hot), wait_(wait), jit_(jit), traced_(traced),
      jump_cache_(kJumpCacheSize)
{
}

BlockCache::~BlockCache() { drop_blocks(); }

void BlockCache::drop_blocks()
{
    for (auto &[pc, b] : blocks_)
        b->~Block();
    // A fresh map, not clear(): clear() keeps the bucket array, which lives in
    // the arena released next.
    decltype(blocks_)(&arena_).swap(blocks_);
    arena_.release();
}

void BlockCache::translate(uint64_t retired_now)
{
    // While a background build runs, look again after this many instructions.
    const uint64_t poll = std::max<uint64_t>(hot_ / 16, 1);
    if (!pending_) {
        std::vector<const Block *> all;
        for (const auto &[pc, b] : blocks_)
            if (b->reached)
                all.push_back(b);
        if (all.empty()) {
            translate_at_ = std::max<uint64_t>(2 * retired_now, 1);
            return;
        }
        pending_ = native_translate(all);
        while (wait_ && !pending_->done.load(std::memory_order_acquire))
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (!pending_->done.load(std::memory_order_acquire)) {
        translate_at_ = retired_now + poll;
        return;
    }
    std::shared_ptr<const NativeCode> code = pending_->code;
    pending_.reset();
    translate_at_ = std::max<uint64_t>(2 * retired_now, 1);
    // Built in the background: SRAM may have changed under blocks that have
    // not run since (the per-epoch check is skipped by native code).
    if (code && !wait_ && !all_match())
        return;
    install(std::move(code));
}

void BlockCache::install(std::shared_ptr<const NativeCode> code)
{
    native = std::move(code);
    if (!native)
        hot_ = 0; // no compiler, or this build failed: stay on the fast ISS
    // Every block's flag follows the code installed now: a failed rebuild after
    // an earlier success must not leave blocks pointing into code that is gone.
    for (auto &[pc, b] : blocks_)
        b->native = native && std::binary_search(native->entries.begin(), native->entries.end(), pc);
}

void BlockCache::new_epoch()
{
    epoch++;
    for (auto &[pc, b] : blocks_)
        b->next[0] = b->next[1] = nullptr;
}

bool BlockCache::all_match() const
{
    for (const auto &[pc, b] : blocks_)
        if (std::memcmp(b->raw.data(), tile_.at(pc), 4 * b->raw.size()) != 0)
            return false;
    return true;
}

Block *BlockCache::enter(uint32_t pc)
{
    JumpEntry &slot = jump_cache_[(pc >> 2) & (kJumpCacheSize - 1)];
    Block *b = slot.pc == pc ? slot.block : nullptr;
    if (!b) {
        auto it = blocks_.find(pc);
        if (it != blocks_.end())
            b = it->second;
    }
    if (b && b->checked != epoch) {
        if (std::memcmp(b->raw.data(), tile_.at(pc), 4 * b->raw.size()) == 0) {
            b->checked = epoch;
        } else { // written behind the fast ISS's back: decode everything again
            flush();
            b = nullptr;
        }
    }
    if (!b && !(b = decode(pc)))
        return nullptr;
    slot = JumpEntry{pc, b};
    return b;
}

Block *BlockCache::decode(uint32_t pc)
{
    const uint32_t base = IPU_TILE_SRAM_BASE, size = tile_.sram_bytes;
    if ((pc & 3) || pc < base || pc - base > size - 4)
        return nullptr;
    const uint32_t words = std::min(kMaxBlockWords, (size - (pc - base)) / 4);
    // Another tile (or this one before a flush) decoded the same words here:
    // every tile of an ipu2 runs the same codelets, so most blocks are found.
    std::shared_ptr<const SharedCode> code = find_shared_code(pc, tile_.at(pc), words);
    if (!code) {
        // Decoded into this thread's scratch first and copied once at its exact size.
        thread_local std::vector<uint32_t> raw_scratch;
        thread_local std::vector<Op> ops_scratch;
        raw_scratch.clear();
        ops_scratch.clear();
        for (uint32_t i = 0; i < words; i++) {
            const uint32_t a = pc + 4 * i;
            uint32_t insn;
            std::memcpy(&insn, tile_.at(a), 4);
            raw_scratch.push_back(insn);
            ops_scratch.push_back(decode_insn(insn, a));
            if (ends_block(ops_scratch.back().kind))
                break;
        }
        const bool ended = ends_block(ops_scratch.back().kind);
        if (!ended)
            ops_scratch.push_back(make(OpKind::END, 0, 0, 0, 0));
        code = make_shared_code(pc, raw_scratch, ops_scratch, ended || raw_scratch.size() == kMaxBlockWords);
    }
    Block *b = new (arena_.allocate(sizeof(Block), alignof(Block))) Block;
    b->use(std::move(code));
    b->checked = epoch;
    mark(*b);
    if (jit_ && (b->jit = shared_translation(*b->code, *b, traced_)))
        b->jit_chained = jit_chained_entry(b->jit);
    blocks_.emplace(pc, b); // enter(), the only caller, decodes only a pc the map lacks
    return b;
}

void BlockCache::mark(const Block &b)
{
    const uint32_t last_word = (b.end_pc() - 4 - IPU_TILE_SRAM_BASE) / 4;
    if (last_word / 64 >= code_bits_.size())
        code_bits_.resize(last_word / 64 + 1);
    for (uint32_t i = 0; i < b.len; i++) {
        const uint32_t w = (b.pc - IPU_TILE_SRAM_BASE) / 4 + i;
        code_bits_[w / 64] |= 1ull << (w % 64);
    }
}

bool BlockCache::overlaps_code(uint32_t off, uint32_t len) const
{
    const uint64_t words = code_bits_.size() * 64; // bits past the last decoded word are all clear
    if (len == 0 || off / 4 >= words)
        return false;
    const uint64_t first = off / 4, last = std::min<uint64_t>((uint64_t{off} + len - 1) / 4, words - 1);
    for (uint64_t w = first; w <= last; w++) {
        if ((w & 63) == 0 && last - w >= 63) { // a whole bitmap word at once
            if (code_bits_[w / 64])
                return true;
            w += 63;
            continue;
        }
        if ((code_bits_[w / 64] >> (w % 64)) & 1)
            return true;
    }
    return false;
}

void BlockCache::flush()
{
    drop_blocks();
    code_bits_.clear();
    native.reset();
    pending_.reset(); // it translated the code just dropped
    if (hot_)
        translate_at_ = retired + hot_;
    std::fill(jump_cache_.begin(), jump_cache_.end(), JumpEntry{});
    flushes++;
}

} // namespace ipu::model
