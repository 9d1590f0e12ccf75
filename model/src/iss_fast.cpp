// The fast ISS (see iss_fast.hpp): threaded dispatch (computed goto) over the
// ops of pre-decoded blocks, with blocks chained to their last successors.
// Accounting is per block: n (instructions retired) advances by a block's
// length when it is left, and an op that stops in the middle (fault, code
// write) recomputes n and pc from its index, so the reference's exact
// instruction count, logical time and fault PC are kept.
#include "iss_fast.hpp"

#include <cstdlib>
#include <cstring>
#include <mutex>

#include "fpu.h"
#include "iss_blocks.hpp"
#include "iss_jit.hpp"
#include "iss_native.hpp"

namespace ipu::model {

Stop execute_fast(Tile &tile, unsigned c, uint64_t budget, uint64_t *executed, const RetireHook *hook)
{
    static void *const kLabels[] = {
#define IPU_OP_LABEL(name) &&L_##name,
        IPU_FAST_OPS(IPU_OP_LABEL)
#undef IPU_OP_LABEL
    };
    if (!tile.iss.cache)
        tile.iss.cache = std::make_unique<BlockCache>(
            tile, tile.iss.mode == IssMode::Native || tile.iss.mode == IssMode::Background ? native_hot() : 0,
            tile.iss.mode == IssMode::Native, tile.iss.mode == IssMode::Jit, hook != nullptr);
    BlockCache &bc = *tile.iss.cache;
    std::shared_lock<std::shared_mutex> jit_hold; // translations stay while this call may run them
    if (bc.jit()) {
        if (!jit_held_here()) {
            if (jit_full())
                jit_try_reset();
            jit_hold = std::shared_lock<std::shared_mutex>(jit_lock());
        }
        if (bc.jit_generation != jit_generation()) { // translations were dropped: translate again
            bc.flush();
            bc.jit_generation = jit_generation();
        }
    }
    if (bc.stale) { // code bytes may have changed: check each block once before it runs
        bc.new_epoch();
        bc.stale = false;
        if (bc.native && !bc.all_match()) // native code runs blocks without that check
            bc.flush();
    }
    Context &cx = tile.ctx[c];
    uint32_t *const x = cx.x.data();
    uint32_t *const f = cx.f.data();
    uint8_t *const mem = tile.sram;
    // An address below base wraps to above 0xfff00000, so one unsigned
    // compare (addr - base > size - len) checks both ends of SRAM.
    const uint32_t base = IPU_TILE_SRAM_BASE, size = tile.sram_bytes;
    const uint64_t ic = tile.issue_cycles;
    uint64_t t0 = cx.time; // time = t0 + n * ic, as in the reference
    const uint64_t i0 = cx.instret;
    uint32_t stack_limit = cx.stack_limit;
    uint32_t pc = cx.pc;
    uint64_t n = 0, nb = 0; // retired so far; retired when the current block was entered
    Stop stop = Stop::Budget;
    Block *blk = nullptr;
    Block *from = nullptr; // the block just left, to link to the next one
    unsigned from_slot = 0;
    uint64_t from_flushes = 0;
    const Op *op = nullptr;
    bool first_lookup = true; // where the caller resumes: not a reached block (Block::reached)
    JitEnv jenv;
    for (unsigned k = 0; k < 3; k++) // the last offset an access of 1 << k bytes may start at
        jenv.sram_last[k] = (size - (1u << k)) >> k;
    jenv.hook = hook;
    jenv.tile = &tile;
    jenv.context = c;
    jenv.ic = ic;

// The index of the current op in its block, and the stop at it (it does not retire).
#define OP_INDEX() static_cast<uint32_t>(op - blk->ops.data())
#define STOP_AT_OP()                                                                                               \
    do {                                                                                                           \
        n = nb + OP_INDEX();                                                                                       \
        pc = blk->pc + 4 * OP_INDEX();                                                                             \
    } while (0)
#define FAULT(cause, addr)                                                                                         \
    do {                                                                                                           \
        STOP_AT_OP();                                                                                              \
        tile.raise((cause), c, pc, (addr));                                                                        \
        stop = Stop::Fault;                                                                                        \
        goto out;                                                                                                  \
    } while (0)
#define NEXT()                                                                                                     \
    do {                                                                                                           \
        ++op;                                                                                                      \
        goto *kLabels[static_cast<unsigned>(op->kind)];                                                            \
    } while (0)
// Leaves the block for `target` through link slot `slot` (0 fall-through, 1 taken).
#define LEAVE(target, slot)                                                                                        \
    do {                                                                                                           \
        n = nb + blk->len;                                                                                         \
        pc = (target);                                                                                             \
        Block *const linked = blk->next[slot];                                                                     \
        if (linked && linked->pc == pc && linked->checked == bc.epoch) {                                           \
            blk = linked;                                                                                          \
            goto run_block;                                                                                        \
        }                                                                                                          \
        from = blk;                                                                                                \
        from_slot = (slot);                                                                                        \
        from_flushes = bc.flushes;                                                                                 \
        goto lookup;                                                                                               \
    } while (0)
#define LOAD_ADDR(len, var)                                                                                        \
    const uint32_t var = x[op->rs1] + op->imm;                                                                     \
    if ((len) > 1 && (var & ((len) - 1)))                                                                          \
        FAULT(IPU_ERR_LOAD_MISALIGNED, var);                                                                       \
    if (var - base > size - (len))                                                                                 \
    FAULT(IPU_ERR_LOAD_FAULT, var)
#define STORE_ADDR(len, var)                                                                                       \
    const uint32_t var = x[op->rs1] + op->imm;                                                                     \
    if ((len) > 1 && (var & ((len) - 1)))                                                                          \
        FAULT(IPU_ERR_STORE_MISALIGNED, var);                                                                      \
    if (var - base > size - (len))                                                                                 \
    FAULT(IPU_ERR_STORE_FAULT, var)
// After a store: a write into decoded code ends the block here (the store retires).
#define AFTER_STORE(off)                                                                                           \
    do {                                                                                                           \
        if (bc.is_code(off))                                                                                       \
            goto code_written;                                                                                     \
        NEXT();                                                                                                    \
    } while (0)
// The rounding mode of an FP op; the dynamic mode must be a valid one.
#define ROUNDING(var)                                                                                              \
    unsigned var = op->imm & 0xff;                                                                                 \
    if (var == 7 && (var = cx.frm) > 4)                                                                            \
    goto illegal

lookup: {
    Block *const b = bc.enter(pc);
    if (!b) {
        if (n >= budget) // the reference stops before fetching: the fault belongs to the next call
            goto out;
        tile.raise(IPU_ERR_FETCH_FAULT, c, pc, pc);
        stop = Stop::Fault;
        goto out;
    }
    // A translated block's chained exit jumps into its link's translation
    // unchecked, so it is linked only to a translated block.
    if (from && from_flushes == bc.flushes && (b->jit || !from->jit))
        from->next[from_slot] = b;
    b->reached |= !first_lookup;
    first_lookup = false;
    blk = b;
    if (bc.wants_translation(bc.retired + n))
        bc.translate(bc.retired + n); // blocks stay valid; blk may now be native
}
run_block:
    if (budget - n < blk->len)
        goto tail;
    if (blk->native)
        goto native;
    nb = n;
    if (blk->jit)
        goto jit;
    op = blk->ops.data();
    if (hook) // no translation (code memory full): the interpreter reports this instruction
        goto L_SLOW;
    goto *kLabels[static_cast<unsigned>(op->kind)];

L_NOP: NEXT();
L_LI: x[op->rd] = op->imm; NEXT();
L_ADDI: x[op->rd] = x[op->rs1] + op->imm; NEXT();
L_ADDI_SP: {
    const uint32_t r = x[op->rs1] + op->imm;
    if (r < stack_limit) {
        STOP_AT_OP();
        tile.raise(IPU_ERR_STACK_OVERFLOW, c, pc, r, stack_limit);
        stop = Stop::Fault;
        goto out;
    }
    x[2] = r;
    NEXT();
}
L_SLTI: x[op->rd] = static_cast<int32_t>(x[op->rs1]) < static_cast<int32_t>(op->imm); NEXT();
L_SLTIU: x[op->rd] = x[op->rs1] < op->imm; NEXT();
L_XORI: x[op->rd] = x[op->rs1] ^ op->imm; NEXT();
L_ORI: x[op->rd] = x[op->rs1] | op->imm; NEXT();
L_ANDI: x[op->rd] = x[op->rs1] & op->imm; NEXT();
L_SLLI: x[op->rd] = x[op->rs1] << op->imm; NEXT();
L_SRLI: x[op->rd] = x[op->rs1] >> op->imm; NEXT();
L_SRAI: x[op->rd] = static_cast<uint32_t>(static_cast<int32_t>(x[op->rs1]) >> op->imm); NEXT();
L_ADD: x[op->rd] = x[op->rs1] + x[op->rs2]; NEXT();
L_SUB: x[op->rd] = x[op->rs1] - x[op->rs2]; NEXT();
L_SLL: x[op->rd] = x[op->rs1] << (x[op->rs2] & 31); NEXT();
L_SLT: x[op->rd] = static_cast<int32_t>(x[op->rs1]) < static_cast<int32_t>(x[op->rs2]); NEXT();
L_SLTU: x[op->rd] = x[op->rs1] < x[op->rs2]; NEXT();
L_XOR: x[op->rd] = x[op->rs1] ^ x[op->rs2]; NEXT();
L_SRL: x[op->rd] = x[op->rs1] >> (x[op->rs2] & 31); NEXT();
L_SRA: x[op->rd] = static_cast<uint32_t>(static_cast<int32_t>(x[op->rs1]) >> (x[op->rs2] & 31)); NEXT();
L_OR: x[op->rd] = x[op->rs1] | x[op->rs2]; NEXT();
L_AND: x[op->rd] = x[op->rs1] & x[op->rs2]; NEXT();
L_MUL: x[op->rd] = x[op->rs1] * x[op->rs2]; NEXT();
L_MULH: {
    const int64_t p = static_cast<int64_t>(static_cast<int32_t>(x[op->rs1])) * static_cast<int32_t>(x[op->rs2]);
    x[op->rd] = static_cast<uint32_t>(p >> 32);
    NEXT();
}
L_MULHSU: {
    const int64_t p = static_cast<int64_t>(static_cast<int32_t>(x[op->rs1])) * static_cast<int64_t>(x[op->rs2]);
    x[op->rd] = static_cast<uint32_t>(p >> 32);
    NEXT();
}
L_MULHU: x[op->rd] = static_cast<uint32_t>((static_cast<uint64_t>(x[op->rs1]) * x[op->rs2]) >> 32); NEXT();
L_DIV: {
    const uint32_t a = x[op->rs1], b = x[op->rs2];
    const int32_t sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
    x[op->rd] = b == 0 ? ~0u : (sa == INT32_MIN && sb == -1) ? a : static_cast<uint32_t>(sa / sb);
    NEXT();
}
L_DIVU: {
    const uint32_t a = x[op->rs1], b = x[op->rs2];
    x[op->rd] = b == 0 ? ~0u : a / b;
    NEXT();
}
L_REM: {
    const uint32_t a = x[op->rs1], b = x[op->rs2];
    const int32_t sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
    x[op->rd] = b == 0 ? a : (sa == INT32_MIN && sb == -1) ? 0 : static_cast<uint32_t>(sa % sb);
    NEXT();
}
L_REMU: {
    const uint32_t a = x[op->rs1], b = x[op->rs2];
    x[op->rd] = b == 0 ? a : a % b;
    NEXT();
}
L_LB: {
    LOAD_ADDR(1, a);
    x[op->rd] = static_cast<uint32_t>(static_cast<int8_t>(mem[a - base]));
    NEXT();
}
L_LH: {
    LOAD_ADDR(2, a);
    int16_t v;
    std::memcpy(&v, mem + (a - base), 2);
    x[op->rd] = static_cast<uint32_t>(v);
    NEXT();
}
L_LW: {
    LOAD_ADDR(4, a);
    std::memcpy(&x[op->rd], mem + (a - base), 4);
    NEXT();
}
L_LBU: {
    LOAD_ADDR(1, a);
    x[op->rd] = mem[a - base];
    NEXT();
}
L_LHU: {
    LOAD_ADDR(2, a);
    uint16_t v;
    std::memcpy(&v, mem + (a - base), 2);
    x[op->rd] = v;
    NEXT();
}
L_SB: {
    STORE_ADDR(1, a);
    mem[a - base] = static_cast<uint8_t>(x[op->rs2]);
    AFTER_STORE(a - base);
}
L_SH: {
    STORE_ADDR(2, a);
    std::memcpy(mem + (a - base), &x[op->rs2], 2); // little-endian host
    AFTER_STORE(a - base);
}
L_SW: {
    STORE_ADDR(4, a);
    std::memcpy(mem + (a - base), &x[op->rs2], 4);
    AFTER_STORE(a - base);
}
L_FLW: {
    LOAD_ADDR(4, a);
    std::memcpy(&f[op->rd], mem + (a - base), 4);
    NEXT();
}
L_FSW: {
    STORE_ADDR(4, a);
    std::memcpy(mem + (a - base), &f[op->rs2], 4);
    AFTER_STORE(a - base);
}
L_FADD: {
    ROUNDING(rm);
    f[op->rd] = fpu::add(f[op->rs1], f[op->rs2], rm, cx.fflags);
    NEXT();
}
L_FSUB: {
    ROUNDING(rm);
    f[op->rd] = fpu::sub(f[op->rs1], f[op->rs2], rm, cx.fflags);
    NEXT();
}
L_FMUL: {
    ROUNDING(rm);
    f[op->rd] = fpu::mul(f[op->rs1], f[op->rs2], rm, cx.fflags);
    NEXT();
}
L_FDIV: {
    ROUNDING(rm);
    f[op->rd] = fpu::div(f[op->rs1], f[op->rs2], rm, cx.fflags);
    NEXT();
}
L_FMADD: {
    ROUNDING(rm);
    f[op->rd] = fpu::madd(f[op->rs1], f[op->rs2], f[op->imm >> 8], rm, cx.fflags);
    NEXT();
}
L_FMSUB: {
    ROUNDING(rm);
    f[op->rd] = fpu::msub(f[op->rs1], f[op->rs2], f[op->imm >> 8], rm, cx.fflags);
    NEXT();
}
L_FNMSUB: {
    ROUNDING(rm);
    f[op->rd] = fpu::nmsub(f[op->rs1], f[op->rs2], f[op->imm >> 8], rm, cx.fflags);
    NEXT();
}
L_FNMADD: {
    ROUNDING(rm);
    f[op->rd] = fpu::nmadd(f[op->rs1], f[op->rs2], f[op->imm >> 8], rm, cx.fflags);
    NEXT();
}
L_FSGNJ: f[op->rd] = (f[op->rs1] & 0x7fffffffu) | (f[op->rs2] & 0x80000000u); NEXT();
L_FSGNJN: f[op->rd] = (f[op->rs1] & 0x7fffffffu) | (~f[op->rs2] & 0x80000000u); NEXT();
L_FSGNJX: f[op->rd] = f[op->rs1] ^ (f[op->rs2] & 0x80000000u); NEXT();
// Integer results of FP ops may target x0 (the flags still change): x0 is restored.
L_FMV_X_W: x[op->rd] = f[op->rs1]; x[0] = 0; NEXT();
L_FMV_W_X: f[op->rd] = x[op->rs1]; NEXT();
L_FEQ: x[op->rd] = fpu::eq(f[op->rs1], f[op->rs2], cx.fflags); x[0] = 0; NEXT();
L_FLT: x[op->rd] = fpu::lt(f[op->rs1], f[op->rs2], cx.fflags); x[0] = 0; NEXT();
L_FLE: x[op->rd] = fpu::le(f[op->rs1], f[op->rs2], cx.fflags); x[0] = 0; NEXT();
L_FCVT_S_W: {
    ROUNDING(rm);
    f[op->rd] = fpu::cvt_s_w(x[op->rs1], rm, cx.fflags);
    NEXT();
}
L_FCVT_S_WU: {
    ROUNDING(rm);
    f[op->rd] = fpu::cvt_s_wu(x[op->rs1], rm, cx.fflags);
    NEXT();
}
L_FCVT_W_S: {
    ROUNDING(rm);
    x[op->rd] = fpu::cvt_w_s(f[op->rs1], rm, cx.fflags);
    x[0] = 0;
    NEXT();
}
L_FCVT_WU_S: {
    ROUNDING(rm);
    x[op->rd] = fpu::cvt_wu_s(f[op->rs1], rm, cx.fflags);
    x[0] = 0;
    NEXT();
}
L_JAL: {
    x[op->rd] = blk->end_pc();
    x[0] = 0;
    LEAVE(op->imm, 1);
}
L_JALR: {
    const uint32_t target = (x[op->rs1] + op->imm) & ~1u; // before the link write: rd may be rs1
    x[op->rd] = blk->end_pc();
    x[0] = 0;
    LEAVE(target, 1);
}
L_BEQ: if (x[op->rs1] == x[op->rs2]) LEAVE(op->imm, 1); LEAVE(blk->end_pc(), 0);
L_BNE: if (x[op->rs1] != x[op->rs2]) LEAVE(op->imm, 1); LEAVE(blk->end_pc(), 0);
L_BLT: if (static_cast<int32_t>(x[op->rs1]) < static_cast<int32_t>(x[op->rs2])) LEAVE(op->imm, 1); LEAVE(blk->end_pc(), 0);
L_BGE: if (static_cast<int32_t>(x[op->rs1]) >= static_cast<int32_t>(x[op->rs2])) LEAVE(op->imm, 1); LEAVE(blk->end_pc(), 0);
L_BLTU: if (x[op->rs1] < x[op->rs2]) LEAVE(op->imm, 1); LEAVE(blk->end_pc(), 0);
L_BGEU: if (x[op->rs1] >= x[op->rs2]) LEAVE(op->imm, 1); LEAVE(blk->end_pc(), 0);
L_END: LEAVE(blk->end_pc(), 0);
L_SLOW: {
    // One instruction on the reference interpreter, with the context's
    // state made current first; it may move time (CSRs) or stop the context.
    STOP_AT_OP();
    cx.pc = pc;
    cx.time = t0 + n * ic;
    cx.instret = i0 + n;
    uint64_t k = 0;
    const uint64_t flushes = bc.flushes;
    const Stop s = execute(tile, c, 1, &k, hook);
    n += k;
    t0 = cx.time - n * ic;
    pc = cx.pc;
    stack_limit = cx.stack_limit;
    if (s != Stop::Budget) {
        stop = s;
        goto out;
    }
    // Linked only when it fell through (not a trap or a return from one), so
    // that slot 0 always names the block at end_pc (Block::next), and then
    // followed as LEAVE does: CSR accesses (a worker's start, its context id,
    // its exit) are most of the SLOW ops, and a lookup costs a cache miss on
    // each of 1,472 tiles' tables. A store by the interpreter may have flushed
    // the cache, and blk with it.
    from = nullptr;
    if (flushes == bc.flushes && pc == blk->end_pc()) {
        Block *const fall_through = blk->next[0];
        if (fall_through && fall_through->checked == bc.epoch) {
            blk = fall_through;
            goto run_block;
        }
        from = blk;
    }
    from_slot = 0;
    from_flushes = bc.flushes;
    goto lookup;
}
illegal: {
    const uint32_t insn = blk->raw[OP_INDEX()];
    FAULT(IPU_ERR_ILLEGAL_INSTRUCTION, insn);
}
code_written: {
    // The store retired; the blocks decoded from the old code are dropped.
    n = nb + OP_INDEX() + 1;
    pc = blk->pc + 4 * (OP_INDEX() + 1);
    bc.flush();
    from = nullptr;
    goto lookup;
}
jit: {
    // The block's translation runs its ops and says how it left; the op it
    // stopped at is handled here exactly as the threaded code would.
    // Chained translations may run on into other blocks: blk and n follow.
    jenv.code_bits = bc.code_bits();
    jenv.code_words = bc.code_words();
    jenv.budget = budget;
    jenv.n = n;
    jenv.blk = blk;
    jenv.t0 = t0;
    const uint64_t r = blk->jit(&cx, mem, &jenv);
    blk = jenv.blk;
    nb = n = jenv.n;
    op = blk->ops.data() + static_cast<uint32_t>(r);
    switch (static_cast<JitExit>(r >> 32)) {
    case JitExit::LeaveFall: LEAVE(jenv.next_pc, 0);
    case JitExit::LeaveTaken: LEAVE(jenv.next_pc, 1);
    case JitExit::Slow: goto L_SLOW;
    case JitExit::Fault:
        STOP_AT_OP();
        tile.raise(jenv.cause, c, pc, jenv.addr, jenv.info);
        stop = Stop::Fault;
        goto out;
    case JitExit::CodeWritten: goto code_written;
    case JitExit::Illegal: goto illegal;
    case JitExit::Enter: pc = blk->pc; goto run_block; // to `tail`, which retires the rest exactly
    }
    goto illegal; // not reached: every exit is listed
}
native: {
    // Native code runs from this block until it leaves its translation, runs
    // short of budget, faults or writes code; the interpreter goes on from there.
    uint64_t io[kIoCount] = {};
    io[kIoRetired] = n;
    io[kIoBudget] = budget;
    io[kIoPc] = pc;
    io[kIoFflags] = cx.fflags;
    io[kIoFrm] = cx.frm;
    io[kIoStackLimit] = stack_limit;
    io[kIoSramBytes] = size;
    io[kIoCodeWords] = bc.code_words();
    const int r = bc.native->run(io, x, f, mem, bc.code_bits(), native_fpu_table());
    n = io[kIoRetired];
    pc = static_cast<uint32_t>(io[kIoPc]);
    cx.fflags = static_cast<uint32_t>(io[kIoFflags]);
    if (r == static_cast<int>(NativeExit::Fault)) {
        tile.raise(static_cast<uint32_t>(io[kIoCause]), c, pc, static_cast<uint32_t>(io[kIoAddr]),
                   static_cast<uint32_t>(io[kIoInfo]));
        stop = Stop::Fault;
        goto out;
    }
    if (r == static_cast<int>(NativeExit::CodeWritten))
        bc.flush();
    from = nullptr;
    goto lookup;
}
tail: {
    // Fewer instructions left in the budget than the block holds: the
    // reference retires exactly the rest.
    cx.pc = pc;
    cx.time = t0 + n * ic;
    cx.instret = i0 + n;
    uint64_t k = 0;
    const Stop s = budget > n ? execute(tile, c, budget - n, &k, hook) : Stop::Budget; // its stores flush, as ours
    bc.retired += n + k;
    *executed = n + k;
    return s;
}
out:
    bc.retired += n;
    cx.time = t0 + n * ic;
    cx.pc = pc;
    cx.instret = i0 + n;
    *executed = n;
    return stop;
#undef OP_INDEX
#undef STOP_AT_OP
#undef FAULT
#undef NEXT
#undef LEAVE
#undef LOAD_ADDR
#undef STORE_ADDR
#undef AFTER_STORE
#undef ROUNDING
}

uint64_t native_hot()
{
    const char *v = std::getenv("IPU_EMU_ISS_HOT");
    if (!v || !*v)
        return 1000000;
    char *end = nullptr;
    const unsigned long long hot = std::strtoull(v, &end, 10);
    if (*end == '\0' && hot > 0)
        return hot;
    static std::once_flag once;
    std::call_once(once, [v] {
        std::fprintf(stderr, "ipu-emu: IPU_EMU_ISS_HOT=%s is not a positive number of instructions; using 1000000.\n",
                     v);
    });
    return 1000000;
}

IssMode iss_mode_from_env()
{
    const char *v = std::getenv("IPU_EMU_ISS");
    if (!v || !*v)
        return IssMode::Jit; // the default: in-process code generation, no compiler, no helper process
    if (std::strcmp(v, "fast") == 0)
        return IssMode::Fast;
    if (std::strcmp(v, "interp") == 0)
        return IssMode::Interp;
    if (std::strcmp(v, "native") == 0)
        return IssMode::Native;
    if (std::strcmp(v, "background") == 0)
        return IssMode::Background;
    if (std::strcmp(v, "jit") == 0)
        return IssMode::Jit;
    static std::once_flag once;
    std::call_once(once, [v] {
        std::fprintf(stderr,
                     "ipu-emu: IPU_EMU_ISS=%s is not an ISS mode: set it to 'interp' (the reference interpreter), "
                     "'fast' (pre-decoded blocks), 'jit' (blocks translated to x86-64 code in the process, the "
                     "default), or the experiments 'native' (fast, and hot code "
                     "compiled to host code by cc, waiting for the compiler) and 'background' (the same, compiled "
                     "in the background). Running the default.\n",
                     v);
    });
    return IssMode::Jit;
}

Stop run_context(Tile &tile, unsigned c, uint64_t budget, uint64_t *executed, const RetireHook *hook)
{
    if (tile.iss.mode == IssMode::Unset)
        tile.iss.mode = iss_mode_from_env();
    const bool traced = hook && hook->retired;
    if (traced && tile.iss.mode == IssMode::Jit) {
        if (tile.iss.cache && !tile.iss.cache->traced())
            tile.iss.cache.reset(); // decoded again with traced translations
        return execute_fast(tile, c, budget, executed, hook);
    }
    if (traced)
        return execute(tile, c, budget, executed, hook); // its stores drop decoded code they overwrite
    if (tile.iss.cache && tile.iss.cache->traced())
        tile.iss.cache.reset(); // the hook is gone: untraced translations chain again
    if (tile.iss.mode != IssMode::Interp)
        return execute_fast(tile, c, budget, executed);
    return execute(tile, c, budget, executed, nullptr);
}

} // namespace ipu::model
